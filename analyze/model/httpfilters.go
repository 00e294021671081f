package model

import (
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
