// Package lbmodel is lbctl's load-balancing arithmetic: the numbers Envoy (and
// proxyless gRPC) compute from a cluster's hosts, health and policy.
//
// It is pure Go with no I/O and no protobuf, so that every rule can be tested
// against Envoy's own unit tests and the seed documents with plain values.
// Each function names the Envoy (or gRPC) function it mirrors; where Envoy's
// docs and code disagree, this package follows the code.
package lbmodel
