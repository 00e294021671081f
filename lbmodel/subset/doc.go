// Package subset is Envoy's subset load balancer (subset_lb.cc): the subset
// trie built from host metadata, selector and fallback decisions, and the
// configuration checks Envoy applies.
package subset
