package hashing

import (
	"fmt"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	maglevv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/maglev/v3"
	ringv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/ring_hash/v3"
	"google.golang.org/protobuf/proto"

	"github.com/lbctl/lbctl/lbmodel/hash"
)

// HashPolicySource is where a request's hash policy comes from and what it is.
type HashPolicySource struct {
	// From is "cluster" (the typed RingHash/Maglev
	// consistent_hashing_lb_config.hash_policy, which Envoy uses instead of
	// the route's), "route NAME", or "" when there is none.
	From     string        `json:"from" yaml:"from"`
	Policies []string      `json:"policies" yaml:"policies"`
	Parsed   []hash.Policy `json:"-" yaml:"-"`
}

// RequestHashPolicy finds the hash policy a request to cl goes through, as
// ThreadAwareLoadBalancerBase::LoadBalancerImpl::chooseHost does
// (thread_aware_lb_impl.cc): the typed policy's own
// consistent_hashing_lb_config.hash_policy when set, else the route's
// RouteAction.hash_policy (router.h Filter::computeHashKey). route names the
// route; "" means the routes that target cl, which must agree. A *UsageError
// is returned for an unknown route name or ambiguous routes.
func RequestHashPolicy(c *config.Config, cl *config.Cluster, route string) (HashPolicySource, error) {
	return requestHashPolicy(c, cl, model.Settings(c, cl), route)
}

// requestHashPolicy is RequestHashPolicy for a load balancer with
// settings s (a subset's child has its own typed policy).
func requestHashPolicy(c *config.Config, cl *config.Cluster, s model.LBSettings, route string) (HashPolicySource, error) {
	var typed []*routev3.RouteAction_HashPolicy
	switch t := s.Typed.(type) {
	case *ringv3.RingHash:
		typed = t.GetConsistentHashingLbConfig().GetHashPolicy()
	case *maglevv3.Maglev:
		typed = t.GetConsistentHashingLbConfig().GetHashPolicy()
	}
	if len(typed) > 0 {
		return convertHashPolicies("cluster "+cl.Name()+" consistent_hashing_lb_config", typed)
	}
	// One entry per route: a route's weighted clusters share its policy.
	var refs []config.RouteTarget
	seen := map[*routev3.RouteAction]bool{}
	for _, t := range c.RouteTargets() {
		if (route != "" && t.Route == route || route == "" && t.Cluster == cl.Name()) && !seen[t.Action] {
			seen[t.Action] = true
			refs = append(refs, t)
		}
	}
	if route != "" && len(refs) == 0 {
		known := config.List(c.RouteNames(), 20)
		if known == "" {
			known = "(no named routes loaded)"
		}
		return HashPolicySource{}, &model.UsageError{Msg: fmt.Sprintf("%s %q: no route of that name; the named routes are: %s", option.Route, route, known)}
	}
	if len(refs) == 0 {
		return HashPolicySource{}, nil
	}
	first := refs[0].Action.GetHashPolicy()
	for _, r := range refs[1:] {
		if !samePolicies(first, r.Action.GetHashPolicy()) {
			var where []string
			for _, r := range refs {
				where = append(where, r.Label)
			}
			return HashPolicySource{}, &model.UsageError{Msg: fmt.Sprintf("the routes to %s have different hash policies (%s): pick one with %s NAME", config.Safe(cl.Name()), config.List(where, 20), option.Route)}
		}
	}
	if len(first) == 0 {
		return HashPolicySource{From: refs[0].Label}, nil
	}
	return convertHashPolicies(refs[0].Label, first)
}

func samePolicies(a, b []*routev3.RouteAction_HashPolicy) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !proto.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// convertHashPolicies turns RouteAction.HashPolicy entries into lbmodel's,
// describing each for output.
func convertHashPolicies(from string, ps []*routev3.RouteAction_HashPolicy) (HashPolicySource, error) {
	src := HashPolicySource{From: from, Policies: []string{}}
	for i, p := range ps {
		hp := hash.Policy{Terminal: p.GetTerminal()}
		var desc string
		switch {
		case p.GetHeader() != nil:
			hp.Kind, hp.Name = hash.HashByHeader, p.GetHeader().GetHeaderName()
			desc = "header " + hp.Name
			if rw := p.GetHeader().GetRegexRewrite(); rw != nil {
				hp.RegexRewrite = &hash.RegexRewrite{Pattern: rw.GetPattern().GetRegex(), Substitution: rw.GetSubstitution()}
				desc += " (rewritten)"
			}
		case p.GetCookie() != nil:
			hp.Kind, hp.Name = hash.HashByCookie, p.GetCookie().GetName()
			hp.CookieTTLSet = p.GetCookie().GetTtl() != nil
			desc = "cookie " + hp.Name
			if hp.CookieTTLSet {
				desc += " (generated when missing)"
			}
		case p.GetConnectionProperties() != nil:
			if !p.GetConnectionProperties().GetSourceIp() {
				// source_ip: false yields no hash (IpHashMethod is not created).
				src.Policies = append(src.Policies, "connection_properties (source_ip false: no hash)")
				continue
			}
			hp.Kind = hash.HashBySourceIP
			desc = "source IP"
		case p.GetQueryParameter() != nil:
			hp.Kind, hp.Name = hash.HashByQueryParameter, p.GetQueryParameter().GetName()
			desc = "query parameter " + hp.Name
		case p.GetFilterState() != nil:
			hp.Kind, hp.Name = hash.HashByFilterState, p.GetFilterState().GetKey()
			desc = "filter state " + hp.Name
		default:
			return src, fmt.Errorf("%s: hash_policy[%d] has no policy specifier (Envoy rejects it)", from, i)
		}
		if hp.Terminal {
			desc += " (terminal)"
		}
		src.Parsed = append(src.Parsed, hp)
		src.Policies = append(src.Policies, desc)
	}
	if err := hash.ValidatePolicies(src.Parsed); err != nil {
		return src, fmt.Errorf("%s: %v", from, err)
	}
	return src, nil
}
