package subset

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"

	"github.com/lbctl/lbctl/lbmodel"
	lbsubset "github.com/lbctl/lbctl/lbmodel/subset"
)

// SubsetReport is `lbctl subset`'s result; field names are the contract's.
type SubsetReport struct {
	Cluster string `json:"cluster" yaml:"cluster"`
	// LbPolicy is the child policy each subset runs.
	LbPolicy string `json:"lb_policy" yaml:"lb_policy"`
	// FallbackPolicy is the top-level fallback_policy.
	FallbackPolicy string `json:"fallback_policy" yaml:"fallback_policy"`
	// DefaultSubset is the default subset when Envoy builds it.
	DefaultSubset *SubsetPoolReport   `json:"default_subset,omitempty" yaml:"default_subset,omitempty"`
	Subsets       []SubsetEntryReport `json:"subsets" yaml:"subsets"`
	// Match is the final criteria (route + weighted cluster + --match
	// merged); null when the request carries none.
	Match  map[string]any `json:"match" yaml:"match"`
	Result SubsetResult   `json:"result" yaml:"result"`
	// Routes holds one evaluation per target of --route that reaches the
	// cluster; Match and Result above are the first one's.
	Routes []SubsetRouteReport `json:"routes,omitempty" yaml:"routes,omitempty"`
}

// SubsetPoolReport is a special subset: its defining values and hosts.
type SubsetPoolReport struct {
	Values map[string]any `json:"values" yaml:"values"`
	Hosts  []string       `json:"hosts" yaml:"hosts"`
}

// SubsetEntryReport is one active subset.
type SubsetEntryReport struct {
	Keys   []string       `json:"keys" yaml:"keys"`
	Values map[string]any `json:"values" yaml:"values"`
	Hosts  []string       `json:"hosts" yaml:"hosts"`
	// Selector is the index of the selector that created the subset.
	Selector   int  `json:"selector" yaml:"selector"`
	SingleHost bool `json:"single_host,omitempty" yaml:"single_host,omitempty"`
}

// SubsetResult is where a request with the given criteria goes.
type SubsetResult struct {
	// Hosts is the pool the child LB balances over (the single host of a
	// single_host_per_subset subset); empty when no host is returned.
	Hosts []string `json:"hosts" yaml:"hosts"`
	// Receiving are the pool's hosts that get traffic: the healthy ones,
	// else the degraded ones, else all of them (the child LB in panic).
	Receiving []string `json:"receiving" yaml:"receiving"`
	// Source: subset, fallback or no_host.
	Source string `json:"source" yaml:"source"`
	// FallbackPolicy is the policy that chose the pool or refused; empty
	// for a subset hit.
	FallbackPolicy string `json:"fallback_policy,omitempty" yaml:"fallback_policy,omitempty"`
	Reason         string `json:"reason" yaml:"reason"`
	// Pool: subset, any_endpoint, default_subset, or empty.
	Pool string `json:"pool,omitempty" yaml:"pool,omitempty"`
	// Subset is the matched subset's values.
	Subset map[string]any `json:"subset,omitempty" yaml:"subset,omitempty"`
	// NoHealthyHosts: the pool has no healthy or degraded host, so its
	// child LB serves it in panic, or not at all. A matched subset never
	// falls back because of that.
	NoHealthyHosts bool     `json:"no_healthy_hosts" yaml:"no_healthy_hosts"`
	PanicModeAny   bool     `json:"panic_mode_any,omitempty" yaml:"panic_mode_any,omitempty"`
	Steps          []string `json:"steps" yaml:"steps"`
	// Notes say why criteria cannot select a subset as intended.
	Notes []string `json:"notes,omitempty" yaml:"notes,omitempty"`
}

// SubsetRouteReport is one route target's evaluation.
type SubsetRouteReport struct {
	Route       string `json:"route" yaml:"route"`
	VirtualHost string `json:"virtual_host" yaml:"virtual_host"`
	// WeightedCluster is the index in weighted_clusters.clusters; absent
	// for a route naming one cluster.
	WeightedCluster *int   `json:"weighted_cluster,omitempty" yaml:"weighted_cluster,omitempty"`
	Weight          uint32 `json:"weight,omitempty" yaml:"weight,omitempty"`
	// TrafficShare is the fraction of the route's requests sent this way.
	TrafficShare float64        `json:"traffic_share" yaml:"traffic_share"`
	RouteMatch   map[string]any `json:"route_match" yaml:"route_match"`
	ClusterMatch map[string]any `json:"weighted_cluster_match" yaml:"weighted_cluster_match"`
	Match        map[string]any `json:"match" yaml:"match"`
	Result       SubsetResult   `json:"result" yaml:"result"`
}

// SubsetOptions are `lbctl subset`'s request inputs.
type SubsetOptions struct {
	// Match is --match: the criteria alone, or with Route the request's
	// dynamic metadata merged over the route's (nil: none given).
	Match map[string]any
	// Route names a route whose targets reaching the cluster are evaluated.
	Route string
}

// ErrNoSubsetConfig is returned for a cluster without subset load balancing.
var ErrNoSubsetConfig = errors.New("has no subset load balancing (neither lb_subset_config nor the envoy.load_balancing_policies.subset policy)")

// RouteError is a --route that cannot be evaluated against the cluster.
type RouteError struct{ Msg string }

func (e *RouteError) Error() string { return e.Msg }

// Build evaluates cl's subset load balancer for opt. The problems
// are the configuration's (see Subset) and the criteria's (values of a kind
// no host carries); when they hold errors, the report is nil. The error is
// ErrNoSubsetConfig or a *RouteError.
func Build(c *config.Config, cl *config.Cluster, opt SubsetOptions) (*SubsetReport, config.Problems, error) {
	s, probs := model.Subset(c, cl)
	if s == nil {
		if len(probs.Errors()) > 0 {
			return nil, probs, nil
		}
		return nil, probs, fmt.Errorf("cluster %q %w", cl.Name(), ErrNoSubsetConfig)
	}
	if len(probs.Errors()) > 0 {
		return nil, probs, nil
	}
	m := model.Get(c, cl)
	r := &SubsetReport{Cluster: cl.Name(), LbPolicy: s.ChildPolicy, FallbackPolicy: s.Config.FallbackPolicy.String(), Subsets: []SubsetEntryReport{}}
	if !s.Config.Enabled() {
		return nil, probs, fmt.Errorf("cluster %q: subset_selectors is empty, so subset load balancing is off and metadata is ignored", cl.Name())
	}
	lb := s.LB // built over m.Hosts; set when enabled without errors
	for _, e := range lb.Subsets() {
		r.Subsets = append(r.Subsets, SubsetEntryReport{Keys: e.Keys(), Values: e.Values(), Hosts: model.HostNames(e.Hosts),
			Selector: e.Selector, SingleHost: e.SingleHost})
	}
	if def, built := lb.DefaultSubset(); built {
		vals := s.Config.DefaultSubset
		if vals == nil {
			vals = map[string]any{}
		}
		r.DefaultSubset = &SubsetPoolReport{Values: vals, Hosts: model.HostNames(def)}
	}
	unreached, _ := model.UnreachedNote(cl, m, lb)
	evaluate := func(crit *lbmodel.MatchCriteria) SubsetResult {
		res := subsetResult(lb.Select(crit, s.Child), lbsubset.CheckCriteria(s.Config, crit), m)
		if unreached != "" {
			res.Notes = append(res.Notes, unreached+" (LB1311)")
		}
		return res
	}
	if opt.Route == "" {
		crit := lbmodel.NewMatchCriteria(opt.Match)
		for _, k := range model.SortedMapKeys(opt.Match) {
			if msg := model.KindMismatch(k, opt.Match[k], m.Hosts, s.Config.ListAsAny); msg != "" {
				probs = append(probs, config.Problem{Pos: config.Pos{File: option.Match.String()}, Severity: config.SevWarning, Code: config.CodeType, Msg: msg})
			}
		}
		r.Match = crit.Map()
		r.Result = evaluate(crit)
		r.Result.Notes = append(r.Result.Notes, headerKeyNotes(model.HeaderMetadataKeys(c), opt.Match)...)
		return r, probs, nil
	}
	targets, rprobs, found := c.FindRoute(opt.Route)
	if !found {
		names := c.RouteNames()
		known := "(no named route is loaded)"
		if len(names) > 0 {
			known = "the routes are: " + strings.Join(names, ", ")
		}
		return nil, probs, &RouteError{fmt.Sprintf("%s %q: no such route; %s", option.Route, opt.Route, known)}
	}
	probs = append(probs, rprobs...)
	var other []string
	headerKeys := model.HeaderMetadataKeys(c)
	for _, t := range targets {
		if t.Cluster != cl.Name() {
			other = append(other, t.Cluster)
			continue
		}
		crit := t.Criteria(opt.Match)
		for _, k := range crit.Names() {
			v, _ := crit.Get(k)
			if msg := model.KindMismatch(k, v, m.Hosts, s.Config.ListAsAny); msg != "" {
				pos := config.Pos{File: option.Match.String()}
				if _, dyn := opt.Match[k]; !dyn {
					pos = c.CriteriaPos(t, k)
				}
				probs = append(probs, config.Problem{Pos: pos, Severity: config.SevWarning, Code: config.CodeType, Msg: "metadata_match " + msg})
			}
		}
		rr := SubsetRouteReport{Route: t.Route, VirtualHost: t.VirtualHost, Weight: t.Weight, TrafficShare: t.Share,
			RouteMatch: t.RouteMatch, ClusterMatch: t.ClusterMatch, Match: crit.Map(), Result: evaluate(crit)}
		rr.Result.Notes = append(rr.Result.Notes, headerKeyNotes(headerKeys, opt.Match)...)
		if t.WeightedCluster >= 0 {
			i := t.WeightedCluster
			rr.WeightedCluster = &i
		}
		r.Routes = append(r.Routes, rr)
	}
	if len(r.Routes) == 0 {
		return nil, probs, &RouteError{fmt.Sprintf("%s %q does not send traffic to cluster %q; it targets: %s", option.Route,
			opt.Route, cl.Name(), orNone(other))}
	}
	r.Match, r.Result = r.Routes[0].Match, r.Routes[0].Result
	return r, probs, nil
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "(no static cluster: cluster_header or cluster_specifier_plugin)"
	}
	return strings.Join(names, ", ")
}

// subsetResult turns lbmodel's decision into the contract's result.
func subsetResult(d lbsubset.Decision, checks []lbsubset.Problem, m *model.Model) SubsetResult {
	res := SubsetResult{Hosts: []string{}, Source: string(d.Source), FallbackPolicy: d.FallbackPolicy, Reason: d.Reason,
		Pool: d.Pool, NoHealthyHosts: d.NoHealthyHosts, PanicModeAny: d.PanicModeAny, Steps: []string{}}
	res.Receiving = []string{}
	if d.Yield != lbsubset.YieldNone {
		res.Hosts = model.HostNames(d.Hosts)
		res.Receiving = model.HostNames(receiving(d.Hosts, m.OverprovisioningFactor, m.WeightedPriorityHealth, m.PanicThreshold))
	}
	if d.Subset != nil {
		res.Subset = d.Subset.Values()
	}
	for _, s := range d.Steps {
		res.Steps = append(res.Steps, s.String())
	}
	for _, p := range checks {
		res.Notes = append(res.Notes, p.Message)
	}
	return res
}

// receiving is who the subset's child LB sends to. The child balances the
// subset's hosts with the cluster's priority settings (PrioritySubsetImpl):
// a level that gets load sends it to its healthy (and, with degraded load,
// degraded) hosts, or to all of its hosts in panic or total panic
// (LoadBalancerBase::recalculatePerPriorityPanic, chooseHostSet).
func receiving(hosts []lbmodel.Host, opf uint32, weighted bool, threshold int) []lbmodel.Host {
	levels := lbmodel.LevelsFromHosts(hosts, opf, weighted)
	pl := lbmodel.ComputePriorityLoad(levels, threshold)
	var out []lbmodel.Host
	for _, h := range hosts {
		if h.Priority >= len(pl.Levels) || h.Status.Excluded() {
			continue
		}
		l := pl.Levels[h.Priority]
		switch {
		case l.HealthyLoad+l.DegradedLoad == 0:
		case l.Panic || pl.TotalPanic:
			out = append(out, h)
		case h.Health() == lbmodel.Healthy && l.HealthyLoad > 0, h.Health() == lbmodel.Degraded && l.DegradedLoad > 0:
			out = append(out, h)
		}
	}
	return out
}

// headerKeyNotes say which subset keys request headers set
// (header_to_metadata into envoy.lb, merged over the route's
// metadata_match by the router), unless --match gives their value.
func headerKeyNotes(keys []model.HeaderMetadataKey, given map[string]any) []string {
	var out []string
	for _, k := range keys {
		if _, ok := given[k.Key]; ok {
			continue
		}
		switch {
		case k.Missing:
			out = append(out, fmt.Sprintf("subset key %q is set to %q when request header %q is absent (header_to_metadata, envoy.lb), over the route's metadata_match", k.Key, k.Fixed, k.Header))
		case k.Fixed != "":
			out = append(out, fmt.Sprintf("subset key %q is set to %q when request header %q is present (header_to_metadata, envoy.lb), over the route's metadata_match", k.Key, k.Fixed, k.Header))
		default:
			out = append(out, fmt.Sprintf("subset key %q comes from request header %q (header_to_metadata writes it to envoy.lb, over the route's metadata_match): the subset depends on each request; give a value with %s %s=VALUE", k.Key, k.Header, option.Match, k.Key))
		}
	}
	return out
}
