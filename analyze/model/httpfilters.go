package model

import (
	h2mv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/header_to_metadata/v3"
	ssv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/stateful_session/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"

	"github.com/lbctl/lbctl/analyze/config"
)

// StatefulSession is one envoy.filters.http.stateful_session filter of a
// loaded listener's HTTP connection manager. Config is nil when its typed
// config is not a StatefulSession lbctl could decode.
type StatefulSession struct {
	Filter *hcmv3.HttpFilter
	Config *ssv3.StatefulSession
}

// StatefulSessions lists the stateful_session filters of the loaded
// listeners' HTTP connection managers, in load order, over every filter
// chain and the default_filter_chain (Envoy serves unmatched connections
// with it).
func StatefulSessions(c *config.Config) []StatefulSession {
	var out []StatefulSession
	for _, li := range c.Listeners {
		chains := li.GetFilterChains()
		if d := li.GetDefaultFilterChain(); d != nil {
			chains = append(chains[:len(chains):len(chains)], d)
		}
		for _, fc := range chains {
			for _, f := range fc.GetFilters() {
				hcm, ok := c.Sources.Unpacked(f.GetTypedConfig()).(*hcmv3.HttpConnectionManager)
				if !ok {
					continue
				}
				for _, hf := range hcm.GetHttpFilters() {
					ss, _ := c.Sources.Unpacked(hf.GetTypedConfig()).(*ssv3.StatefulSession)
					if ss != nil || hf.GetName() == "envoy.filters.http.stateful_session" ||
						config.TypeName(hf.GetTypedConfig().GetTypeUrl()) == "envoy.extensions.filters.http.stateful_session.v3.StatefulSession" {
						out = append(out, StatefulSession{Filter: hf, Config: ss})
					}
				}
			}
		}
	}
	return out
}

// HeaderMetadataKey is one envoy.lb key an envoy.filters.http.header_to_metadata
// filter sets from a request header: Router::Filter merges the request's
// envoy.lb dynamic metadata over the route's metadata_match (router.h
// metadataMatchCriteria), so the key's value, and the subset, depend on
// each request.
type HeaderMetadataKey struct {
	Key, Header string
	// Fixed is the value written whatever the header holds ("" when the
	// header's own value is written); Missing: written when the header is absent.
	Fixed   string
	Missing bool
}

// HeaderMetadataKeys lists the envoy.lb keys the loaded listeners'
// header_to_metadata filters set from request headers (request_rules).
func HeaderMetadataKeys(c *config.Config) []HeaderMetadataKey {
	var out []HeaderMetadataKey
	forEachHTTPFilter(c, func(hf *hcmv3.HttpFilter) {
		h2m, ok := c.Sources.Unpacked(hf.GetTypedConfig()).(*h2mv3.Config)
		if !ok {
			return
		}
		for _, r := range h2m.GetRequestRules() {
			name := r.GetHeader()
			if name == "" {
				name = "cookie " + r.GetCookie()
			}
			for _, kv := range []*h2mv3.Config_KeyValuePair{r.GetOnHeaderPresent(), r.GetOnHeaderMissing()} {
				if kv == nil || kv.GetMetadataNamespace() != "envoy.lb" {
					continue
				}
				out = append(out, HeaderMetadataKey{Key: kv.GetKey(), Header: name, Fixed: kv.GetValue(), Missing: kv == r.GetOnHeaderMissing()})
			}
		}
	})
	return out
}

// forEachHTTPFilter calls f on every HTTP filter of the loaded listeners'
// HTTP connection managers (every filter chain and the default one).
func forEachHTTPFilter(c *config.Config, f func(*hcmv3.HttpFilter)) {
	for _, li := range c.Listeners {
		chains := li.GetFilterChains()
		if d := li.GetDefaultFilterChain(); d != nil {
			chains = append(chains[:len(chains):len(chains)], d)
		}
		for _, fc := range chains {
			for _, nf := range fc.GetFilters() {
				if hcm, ok := c.Sources.Unpacked(nf.GetTypedConfig()).(*hcmv3.HttpConnectionManager); ok {
					for _, hf := range hcm.GetHttpFilters() {
						f(hf)
					}
				}
			}
		}
	}
}
