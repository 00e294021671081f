package subset

import (
	"fmt"
	"slices"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"

	"github.com/lbctl/lbctl/lbmodel"
	lbsubset "github.com/lbctl/lbctl/lbmodel/subset"
)

// PoolShares is where the subset load balancer sends requests carrying
// some criteria, and each receiving host's long-run share of them.
type PoolShares struct {
	Decision lbsubset.Decision
	// Hosts are the hosts that receive requests, Shares parallel to them
	// (summing to 1 - NoHost); nil Shares: the child policy's shares
	// cannot be computed (Notes say why).
	Hosts  []lbmodel.Host
	Shares []float64
	NoHost float64
	// Pool is the child load balancer's model (its hosts, with the pool's
	// locality weights) and Settings its policy's: what a hashing child
	// builds its ring or table from. Nil for a single host or no host.
	Pool     *model.Model
	Settings model.LBSettings
	Notes    []string
}

// Shares runs cl's subset load balancer for criteria crit (nil: the
// request carries none) under the what-ifs of opt, then the child policy
// over the chosen pool: Envoy builds one child load balancer per subset
// from the subset's host set (SubsetLoadBalancer::PrioritySubsetImpl,
// HostSubsetImpl::update), so the shares inside it follow the pool's
// priorities, health, panic, locality weights and host weights as
// explain's do for a cluster (lbmodel.ClusterShares). A top-level
// fallback pool that serves only part of its requests (fail_traffic_on_panic)
// passes the rest to panic_mode_any (chooseHostIteration). The error is
// ErrNoSubsetConfig, a configuration Envoy rejects, or a what-if's.
func Shares(c *config.Config, cl *config.Cluster, crit map[string]any, opt model.Options) (*PoolShares, error) {
	ps, err := NewPoolSetup(c, cl, crit, opt)
	if err != nil {
		return nil, err
	}
	return ps.At(nil)
}

// Forced is a priority an aggregate forces on its child, with the
// availability (healthy or degraded) the aggregate chose.
type Forced struct {
	Priority int
	Degraded bool
}

// SharesAt is Shares with the child load balancer's priority load forced
// to f, as an aggregate's AggregateLoadBalancerContext does: the subset is
// chosen as for any request (SubsetLoadBalancer::chooseHostIteration reads
// only the metadata criteria), then its own load balancer picks at that
// priority of the subset's host sets. For several priorities, NewPoolSetup
// once and At each.
func SharesAt(c *config.Config, cl *config.Cluster, crit map[string]any, opt model.Options, f Forced) (*PoolShares, error) {
	ps, err := NewPoolSetup(c, cl, crit, opt)
	if err != nil {
		return nil, err
	}
	return ps.At(&f)
}

// PoolSetup is what Shares builds before the child policy runs: the subset
// load balancer and its decision for the criteria, which no forced
// priority changes.
type PoolSetup struct {
	c        *config.Config
	cl       *config.Cluster
	s        *model.SubsetSetup
	m        *model.Model
	lb       *lbsubset.LB
	settings model.LBSettings
	d        lbsubset.Decision
	opt      model.Options
}

// NewPoolSetup runs cl's subset load balancer for crit under opt (see
// Shares); its errors are Shares'.
func NewPoolSetup(c *config.Config, cl *config.Cluster, crit map[string]any, opt model.Options) (*PoolSetup, error) {
	s, probs := model.Subset(c, cl)
	if s == nil && len(probs.Errors()) == 0 {
		return nil, fmt.Errorf("cluster %q %w", cl.Name(), ErrNoSubsetConfig)
	}
	if errs := probs.Errors(); len(errs) > 0 {
		return nil, fmt.Errorf("%s: %s", errs[0].Pos, errs[0].Msg)
	}
	if !s.Config.Enabled() {
		return nil, fmt.Errorf("cluster %q %w", cl.Name(), ErrNoSubsetConfig)
	}
	m, _, err := model.With(c, cl, opt)
	if err != nil {
		return nil, err
	}
	lb, err := lbsubset.NewLB(s.Config, m.Hosts)
	if err != nil {
		return nil, err
	}
	settings := s.ChildSettings(c, cl)
	d := lb.Select(lbmodel.NewMatchCriteria(crit), s.Child)
	return &PoolSetup{c: c, cl: cl, s: s, m: m, lb: lb, settings: settings, d: d, opt: opt}, nil
}

// At is the pool's shares unforced (f nil: Shares) or at the priority an
// aggregate forces (SharesAt).
func (ps *PoolSetup) At(f *Forced) (*PoolShares, error) {
	d := ps.d
	out := &PoolShares{Decision: d, Settings: ps.settings}
	pool, err := poolShares(ps, d, f)
	if err != nil {
		return nil, err
	}
	out.Hosts, out.Shares, out.NoHost, out.Pool, out.Notes = pool.hosts, pool.shares, pool.noHost, pool.model, pool.notes
	if ps.panicModeAnyAfter(f) && out.Shares != nil && out.NoHost > 0 {
		hosts, _ := ps.lb.AnyEndpointSubset()
		anyPool := lbsubset.Decision{Pool: lbsubset.PoolAnyEndpoint, Hosts: hosts, Yield: lbsubset.YieldAll}
		p, err := poolShares(ps, anyPool, f)
		if err != nil {
			return nil, err
		}
		rest := out.NoHost
		out.NoHost = rest * p.noHost
		if p.shares == nil {
			out.Shares = nil
			out.Notes = append(out.Notes, p.notes...)
			return out, nil
		}
		// A copy: the pool's hosts may share d's array.
		out.Hosts = slices.Clone(out.Hosts)
		at := make(map[hostKey]int, len(out.Hosts))
		for i := len(out.Hosts) - 1; i >= 0; i-- { // the first of a repeated key wins
			at[hostKey{out.Hosts[i].Address, out.Hosts[i].Priority}] = i
		}
		for i, h := range p.hosts {
			out.add(at, h, rest*p.shares[i])
		}
		out.Notes = append(out.Notes, fmt.Sprintf("%.4g of the fallback pool's requests find no host (fail_traffic_on_panic) and go to panic_mode_any's pool", rest))
	}
	if d.Yield == lbsubset.YieldSome && len(d.Steps) > 0 && d.Steps[0].Action == "fallback_list" && out.NoHost > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%.4g of the pool's requests find no host (fail_traffic_on_panic); Envoy then tries the next fallback_list entry, which is not composed here", out.NoHost))
	}
	return out, nil
}

// panicModeAnyAfter reports whether requests the top-level fallback pool
// finds no host for go on to panic_mode_any (chooseHostIteration): the
// fallback served only part of its picks, or, at a forced priority, any
// fallback that yields hosts at all (it may find none there, whatever
// Yield says of the unforced picks).
func (ps *PoolSetup) panicModeAnyAfter(f *Forced) bool {
	d := ps.d
	partial := d.Yield == lbsubset.YieldSome || (f != nil && d.Yield != lbsubset.YieldNone)
	return partial && d.Source == lbsubset.SourceFallback && !d.SelectorPolicy && !d.PanicModeAny && ps.s.Config.PanicModeAny
}

// hostKey is a pool host's identity: its address at its priority.
type hostKey struct {
	addr     string
	priority int
}

// add adds share to host h, appending it when at (p.Hosts' index by
// hostKey) does not list it yet.
func (p *PoolShares) add(at map[hostKey]int, h lbmodel.Host, share float64) {
	k := hostKey{h.Address, h.Priority}
	if i, ok := at[k]; ok {
		p.Shares[i] += share
		return
	}
	at[k] = len(p.Hosts)
	p.Hosts = append(p.Hosts, h)
	p.Shares = append(p.Shares, share)
}

type poolResult struct {
	hosts  []lbmodel.Host
	shares []float64
	noHost float64
	model  *model.Model
	notes  []string
}

// poolShares is the child policy's shares over d's pool, at priority f
// when an aggregate forces one.
func poolShares(setup *PoolSetup, d lbsubset.Decision, f *Forced) (poolResult, error) {
	c, cl, s, m, settings, opt := setup.c, setup.cl, setup.s, setup.m, setup.settings, setup.opt
	switch {
	case d.Yield == lbsubset.YieldNone || len(d.Hosts) == 0:
		return poolResult{shares: []float64{}, noHost: 1}, nil
	case d.Subset != nil && d.Subset.SingleHost:
		// SingleHostLbSubset::chooseHost returns its host, health unchecked.
		return poolResult{hosts: d.Hosts[:1], shares: []float64{1}}, nil
	}
	pm, locality := m.PoolModel(s.Config, settings.Policy, m.Hosts, d.Hosts)
	ps := settings
	if !locality {
		ps.LocalityWeighted = false
	}
	in, hp, err := model.Input(cl, pm, ps, model.LocalOf(c, opt), opt)
	if err != nil {
		return poolResult{}, err
	}
	res := poolResult{model: pm}
	if !hp.Computable {
		res.hosts = pm.Hosts
		res.notes = append(res.notes, fmt.Sprintf("the subset's child policy %s picks hosts from inputs lbctl does not model: its hosts' shares are unknown", orUnknown(settings.Policy)))
		return res, nil
	}
	var dist []float64
	if f != nil {
		dist, res.noHost, err = lbmodel.ForcedPriorityShares(in, f.Priority, f.Degraded)
	} else {
		var sh lbmodel.Shares
		sh, err = lbmodel.ClusterShares(in)
		dist, res.noHost = sh.Hosts, sh.NoHost
	}
	if err != nil {
		return poolResult{}, err
	}
	for i, h := range pm.Hosts {
		if i < len(dist) && dist[i] > 0 {
			res.hosts = append(res.hosts, h)
			res.shares = append(res.shares, dist[i])
		}
	}
	if res.shares == nil {
		res.shares = []float64{}
	}
	return res, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "(none Envoy knows)"
	}
	return s
}
