package diff

import (
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"github.com/lbctl/lbctl/analyze/config"
)

// routeHashPolicies describes, per cluster, the hash_policy of each route
// that sends to it ("route \"r\": header x-user"): the input of
// RouteEntryImplBase's HashPolicyImpl that picks a ring or Maglev key.
func routeHashPolicies(c *config.Config) map[string][]string {
	out := map[string][]string{}
	for _, t := range c.RouteTargets() {
		if !t.HasHashPolicy() {
			continue
		}
		var ps []string
		for _, p := range t.Action.GetHashPolicy() {
			ps = append(ps, describeHashPolicy(p))
		}
		out[t.Cluster] = append(out[t.Cluster], t.Label+": "+strings.Join(ps, ", "))
	}
	return out
}

func describeHashPolicy(p *routev3.RouteAction_HashPolicy) string {
	var d string
	switch {
	case p.GetHeader() != nil:
		d = "header " + p.GetHeader().GetHeaderName()
		if rw := p.GetHeader().GetRegexRewrite(); rw != nil {
			d += " rewritten " + rw.GetPattern().GetRegex() + " → " + rw.GetSubstitution()
		}
	case p.GetCookie() != nil:
		d = "cookie " + p.GetCookie().GetName()
		if ttl := p.GetCookie().GetTtl(); ttl != nil {
			d += " ttl " + ttl.AsDuration().String()
		}
		if path := p.GetCookie().GetPath(); path != "" {
			d += " path " + path
		}
	case p.GetConnectionProperties() != nil:
		d = "source IP"
		if !p.GetConnectionProperties().GetSourceIp() {
			d = "connection_properties without source_ip (no hash)"
		}
	case p.GetQueryParameter() != nil:
		d = "query parameter " + p.GetQueryParameter().GetName()
	case p.GetFilterState() != nil:
		d = "filter state " + p.GetFilterState().GetKey()
	default:
		d = "no policy specifier"
	}
	if p.GetTerminal() {
		d += " (terminal)"
	}
	return d
}
