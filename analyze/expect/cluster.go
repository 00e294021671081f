package expect

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/lbctl/lbctl/analyze/traffic"
)

// clusterLookup builds the cluster test's report and checks the names its
// what-ifs use.
func clusterLookup(t *Test, rep Reports) (lookup, InputErrors) {
	if rep.Clusters != nil && !contains(rep.Clusters, t.Cluster) {
		return nil, InputErrors{{At: t.ClusterAt, Msg: fmt.Sprintf("no cluster %q%s", clean(t.Cluster), nearest(t.Cluster, rep.Clusters, "cluster"))}}
	}
	errs := setHealthErrors(t, rep)
	if rep.Cluster == nil {
		return nil, InputErrors{{At: t.ClusterAt, Msg: "cluster tests need explain's report"}}
	}
	report, err := rep.Cluster(t.Cluster, t.Given)
	if err != nil {
		return nil, append(errs, &InputError{At: t.ClusterAt, Msg: clean(err.Error())})
	}
	cr := findCluster(report, t.Cluster)
	if cr == nil {
		return nil, append(errs, &InputError{At: t.ClusterAt, Msg: fmt.Sprintf("no report for cluster %q", clean(t.Cluster))})
	}
	addrs := hostAddrs(cr.Hosts)
	var before []string
	if rep.Hosts != nil && len(t.Given.Remove) > 0 {
		before = rep.Hosts(t.Cluster)
	}
	for addr, at := range t.Given.addresses() {
		if before != nil && contains(t.Given.Remove, addr) {
			// Removed hosts are gone from the report: name them against the
			// cluster as configured.
			if !contains(before, addr) {
				if rep.NestedHosts != nil && contains(rep.NestedHosts(t.Cluster), addr) {
					errs = append(errs, &InputError{At: at, Msg: fmt.Sprintf("host %q is in a nested aggregate cluster of %q; given.remove removes only the hosts of the cluster and of its direct children, not a nested aggregate's", clean(addr), clean(t.Cluster))})
					continue
				}
				errs = append(errs, &InputError{At: at, Msg: fmt.Sprintf("no host %q in cluster %q%s", clean(addr), clean(t.Cluster), nearest(addr, before, "host"))})
			}
			continue
		}
		if !contains(addrs, addr) {
			errs = append(errs, &InputError{At: at, Msg: fmt.Sprintf("no host %q in cluster %q%s", clean(addr), clean(t.Cluster), nearest(addr, addrs, "host"))})
		}
	}
	sort.Slice(errs, func(i, j int) bool { return errs[i].At.Line < errs[j].At.Line })
	if len(errs) > 0 {
		return nil, errs
	}
	return func(e Expect) (got, *InputError) { return clusterFigure(t, rep, cr, e) }, nil
}

// setHealthErrors are the set_health specs that name no cluster.
func setHealthErrors(t *Test, rep Reports) InputErrors {
	var errs InputErrors
	if rep.Clusters == nil {
		return nil
	}
	for i, s := range t.Given.SetHealth {
		name := s
		if o, err := parseHealth(s); err == nil {
			name = o
		}
		if !contains(rep.Clusters, name) {
			errs = append(errs, &InputError{At: t.Given.setHealthAt[i], Msg: fmt.Sprintf("set_health %q: no cluster %q%s", clean(s), clean(name), nearest(name, rep.Clusters, "cluster"))})
		}
	}
	return errs
}

func parseHealth(spec string) (string, error) {
	o, err := Given{SetHealth: []string{spec}}.Options()
	if err != nil {
		return "", err
	}
	return o.SetHealth[0].Cluster, nil
}

func findCluster(r *traffic.Report, name string) *traffic.ClusterReport {
	if r == nil {
		return nil
	}
	for i := range r.Clusters {
		if r.Clusters[i].Name == name {
			return &r.Clusters[i]
		}
	}
	return nil
}

// hostAddrs lists the distinct host addresses in report order.
func hostAddrs(hs []traffic.HostReport) []string {
	var out []string
	for _, h := range hs {
		if !contains(out, h.Address) {
			out = append(out, h.Address)
		}
	}
	return out
}

// level is one priority of a cluster, or one linearized level of an
// aggregate cluster.
type level struct {
	load   int
	panic  bool
	budget *traffic.Budget
}

func levels(cr *traffic.ClusterReport) []level {
	var out []level
	if cr.Aggregate != nil {
		for _, l := range cr.Aggregate.Levels {
			lv := level{load: l.HealthyLoad + l.DegradedLoad, panic: l.Panic}
			if l.Budget != nil {
				lv.budget = &l.Budget.Budget
			}
			out = append(out, lv)
		}
		return out
	}
	for _, p := range cr.Priorities {
		out = append(out, level{load: p.HealthyLoad + p.DegradedLoad, panic: p.Panic, budget: p.Budget})
	}
	return out
}

func clusterFigure(t *Test, rep Reports, cr *traffic.ClusterReport, e Expect) (got, *InputError) {
	switch e.Field {
	case "priority_load", "panic", "budget":
		lv := levels(cr)
		i, _ := strconv.Atoi(e.Key)
		if i >= len(lv) {
			valid := make([]string, len(lv))
			for j := range lv {
				valid[j] = strconv.Itoa(j)
			}
			what := "priority"
			if cr.Aggregate != nil {
				what = "aggregate level"
			}
			return got{}, unknown(e, what, e.Key, valid)
		}
		switch e.Field {
		case "priority_load":
			return got{num: float64(lv[i].load)}, nil
		case "panic":
			return got{b: lv[i].panic}, nil
		}
		b := lv[i].budget
		if b == nil {
			return got{none: true}, nil
		}
		v := map[string]*int{"before_spill": b.BeforeSpill, "before_panic": b.BeforePanic, "before_total_panic": b.BeforeTotalPanic}[e.Sub]
		if v == nil {
			return got{num: math.Inf(1)}, nil
		}
		return got{num: float64(*v)}, nil
	case "total_panic":
		if cr.Aggregate != nil {
			return got{b: cr.Aggregate.TotalPanic}, nil
		}
		return got{b: cr.TotalPanic}, nil
	case "cluster_load":
		if cr.Aggregate == nil {
			return got{}, &InputError{At: e.KeyAt, Msg: fmt.Sprintf("%s: cluster %q is not an aggregate cluster", clean(e.Path), clean(cr.Name))}
		}
		var valid []string
		for _, c := range cr.Aggregate.ClusterLoad {
			if c.Cluster == e.Key {
				return got{num: float64(c.Load)}, nil
			}
			valid = append(valid, c.Cluster)
		}
		return got{}, unknown(e, "child cluster", e.Key, valid)
	case "locality_share":
		return localityShare(cr, e)
	case "host_share", "max_host_share", "min_host_share":
		hs := make([]hostRow, 0, len(cr.Hosts))
		for _, h := range cr.Hosts {
			if h.Share == nil {
				// lbctl cannot compute this host's share: no figure to compare.
				if e.Field != "host_share" || h.Address == e.Key {
					return got{none: true}, nil
				}
				continue
			}
			live := *h.Share > 0 || h.Health == "HEALTHY" || h.Health == "DEGRADED"
			hs = append(hs, hostRow{addr: h.Address, share: *h.Share, live: live})
		}
		return hostFigure(hs, e)
	case "moved":
		if len(t.Given.Remove) == 0 {
			return got{}, &InputError{At: e.KeyAt, Msg: "moved: needs given.remove (the hosts gone)"}
		}
		if rep.Moved == nil {
			return got{}, &InputError{At: e.KeyAt, Msg: "moved: not available here"}
		}
		v, err := rep.Moved(t.Cluster, t.Given.Remove)
		if err != nil {
			return got{}, &InputError{At: e.KeyAt, Msg: "moved: " + clean(err.Error())}
		}
		return got{num: v}, nil
	}
	return got{}, &InputError{At: e.KeyAt, Msg: fmt.Sprintf("expect key %q applies to request tests", e.Field)}
}

// localityShare is the fraction of the cluster's traffic on hosts of a
// REGION/ZONE (any sub-zone) or REGION/ZONE/SUB_ZONE.
func localityShare(cr *traffic.ClusterReport, e Expect) (got, *InputError) {
	want, err := parseZone(e.Key)
	if err != nil {
		return got{}, &InputError{At: e.KeyAt, Msg: "locality_share: " + clean(err.Error())}
	}
	withSub := len(e.Key) > 0 && countSlash(e.Key) == 2
	var valid []string
	sum, found := 0.0, false
	for _, h := range cr.Hosts {
		short, full := h.Region+"/"+h.Zone, h.Region+"/"+h.Zone+"/"+h.SubZone
		for _, n := range []string{short, full} {
			if n != "/" && n != "//" && !contains(valid, n) {
				valid = append(valid, n)
			}
		}
		if h.Region != want.Region || h.Zone != want.Zone || withSub && h.SubZone != want.SubZone {
			continue
		}
		found = true
		if h.Share == nil {
			return got{none: true}, nil
		}
		sum += *h.Share
	}
	if !found {
		return got{}, unknown(e, "locality", e.Key, valid)
	}
	return got{num: sum}, nil
}

func countSlash(s string) int {
	n := 0
	for _, c := range s {
		if c == '/' {
			n++
		}
	}
	return n
}

// hostRow is one host's share; live: it can receive traffic (healthy or
// degraded, even when another priority takes all, or given a share).
type hostRow struct {
	addr  string
	share float64
	live  bool
}

// hostFigure reads host_share (summed over a host's rows), or the largest
// or smallest share; min_host_share is over live hosts.
func hostFigure(hs []hostRow, e Expect) (got, *InputError) {
	switch e.Field {
	case "host_share":
		sum, found := 0.0, false
		var valid []string
		for _, h := range hs {
			if h.addr == e.Key {
				sum, found = sum+h.share, true
			}
			valid = append(valid, h.addr)
		}
		if !found {
			return got{}, unknown(e, "host", e.Key, valid)
		}
		return got{num: sum}, nil
	case "max_host_share":
		if len(hs) == 0 {
			return got{none: true}, nil
		}
		m := 0.0
		for _, h := range hs {
			m = max(m, h.share)
		}
		return got{num: m}, nil
	}
	m, any := math.Inf(1), false
	for _, h := range hs {
		if h.live {
			m, any = min(m, h.share), true
		}
	}
	if !any {
		return got{none: true}, nil
	}
	return got{num: m}, nil
}
