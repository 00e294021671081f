package diff

import (
	"fmt"
	"math"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/traffic"
)

func load(t *testing.T, path string) *config.Config {
	t.Helper()
	c, err := config.Load([]config.Input{{Path: path}}, "")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func explainBatch(c *config.Config, cls []*config.Cluster) ([]traffic.ClusterReport, error) {
	r, err := explain.Build(c, cls, model.Options{})
	if err != nil {
		return nil, err
	}
	return r.Clusters, nil
}

// explainOne is one cluster explained alone, to check diff's batches by.
func explainOne(c *config.Config, cl *config.Cluster) (*traffic.ClusterReport, error) {
	rs, err := explainBatch(c, []*config.Cluster{cl})
	if err != nil {
		return nil, err
	}
	return &rs[0], nil
}

func loadCase(t *testing.T, name string) (old, new *config.Config, r *Report) {
	t.Helper()
	old = load(t, "../../fixtures/diff/"+name+"/old.yaml")
	new = load(t, "../../fixtures/diff/"+name+"/new.yaml")
	r, err := Build(old, new, Options{Explain: explainBatch})
	if err != nil {
		t.Fatal(err)
	}
	return old, new, r
}

func fixtureCases() []string {
	return []string{"hosts", "policy", "priority", "panic", "locality", "hash", "subset", "clusters", "aggregate", "zone", "hash-policy", "rejected"}
}

// Every figure of the diff is the difference of the two explain results,
// recomputed here from explain alone, and nothing explain shows as changed
// is missing.
func TestFiguresAreExplainDifferences(t *testing.T) {
	for _, name := range fixtureCases() {
		t.Run(name, func(t *testing.T) {
			old, new, r := loadCase(t, name)
			byName := map[string]Cluster{}
			for _, c := range r.Clusters {
				byName[c.Name] = c
			}
			names := map[string]bool{}
			for _, c := range old.Clusters {
				names[c.Name()] = true
			}
			for _, c := range new.Clusters {
				names[c.Name()] = true
			}
			maxShift := 0.0
			for n := range names {
				var o, nw *traffic.ClusterReport
				if cl := old.Cluster(n); cl != nil {
					o, _ = explainOne(old, cl)
				}
				if cl := new.Cluster(n); cl != nil {
					nw, _ = explainOne(new, cl)
				}
				d, listed := byName[n]
				so, sn := hostShares(o), hostShares(nw)
				unknown := union(unknownShares(o), unknownShares(nw))
				want := 0.0
				for a := range union(so, sn) {
					if !unknown[a] {
						want = max(want, math.Abs(sn[a]-so[a]))
					}
				}
				maxShift = max(maxShift, want)
				if want > 0 && !listed {
					t.Errorf("%s: host shares change by up to %v but the cluster is not listed", n, want)
					continue
				}
				if !listed {
					continue
				}
				if d.MaxShift != want {
					t.Errorf("%s: max_shift %v, explain difference %v", n, d.MaxShift, want)
				}
				seen := map[string]bool{}
				for _, h := range d.Hosts {
					seen[h.Address] = true
					if got, ok := so[h.Address]; (h.Share.Old != nil) != ok || ok && *h.Share.Old != got {
						t.Errorf("%s %s: old share %v, explain %v", n, h.Address, h.Share.Old, got)
					}
					if got, ok := sn[h.Address]; (h.Share.New != nil) != ok || ok && *h.Share.New != got {
						t.Errorf("%s %s: new share %v, explain %v", n, h.Address, h.Share.New, got)
					}
				}
				for a := range union(so, sn) {
					if (so[a] != sn[a] || unknown[a]) && !seen[a] {
						t.Errorf("%s: host %s moves %v → %v but is not listed", n, a, so[a], sn[a])
					}
				}
				checkPriorities(t, n, d, o, nw)
				checkLoads(t, n, d, o, nw)
			}
			if r.Summary.MaxShift != maxShift {
				t.Errorf("summary max_shift %v, want %v", r.Summary.MaxShift, maxShift)
			}
		})
	}
}

func checkPriorities(t *testing.T, name string, d Cluster, o, n *traffic.ClusterReport) {
	t.Helper()
	lv := func(r *traffic.ClusterReport) map[int]traffic.PriorityReport {
		m := map[int]traffic.PriorityReport{}
		if r != nil {
			for _, p := range r.Priorities {
				m[p.Priority] = p
			}
		}
		return m
	}
	lo, ln := lv(o), lv(n)
	listed := map[int]Priority{}
	for _, p := range d.Priorities {
		listed[p.Priority] = p
	}
	for p := range union(lo, ln) {
		a, oka := lo[p]
		b, okb := ln[p]
		same := oka && okb && a.HealthyLoad == b.HealthyLoad && a.DegradedLoad == b.DegradedLoad && a.Panic == b.Panic
		got, ok := listed[p]
		if same == ok {
			t.Errorf("%s P%d: listed %v, changed %v", name, p, ok, !same)
			continue
		}
		if ok && (oka != (got.HealthyLoad.Old != nil) || oka && *got.HealthyLoad.Old != a.HealthyLoad ||
			okb != (got.HealthyLoad.New != nil) || okb && *got.HealthyLoad.New != b.HealthyLoad) {
			t.Errorf("%s P%d: healthy_load %v → %v, explain %d → %d", name, p, got.HealthyLoad.Old, got.HealthyLoad.New, a.HealthyLoad, b.HealthyLoad)
		}
	}
}

// checkLoads compares locality shares and aggregate child loads with the
// two explain results.
func checkLoads(t *testing.T, name string, d Cluster, o, n *traffic.ClusterReport) {
	t.Helper()
	locs := func(r *traffic.ClusterReport) map[string]float64 {
		m := map[string]float64{}
		if r != nil {
			for _, p := range r.Priorities {
				for _, l := range p.Localities {
					m[fmt.Sprint(p.Priority, l.Region, l.Zone, l.SubZone)] = l.Share
				}
			}
		}
		return m
	}
	lo, ln := locs(o), locs(n)
	listed := map[string]bool{}
	for _, l := range d.Localities {
		k := fmt.Sprint(l.Priority, l.Region, l.Zone, l.SubZone)
		listed[k] = true
		if v, ok := lo[k]; (l.Share.Old != nil) != ok || ok && *l.Share.Old != v {
			t.Errorf("%s locality %s: old %v, explain %v", name, k, l.Share.Old, v)
		}
		if v, ok := ln[k]; (l.Share.New != nil) != ok || ok && *l.Share.New != v {
			t.Errorf("%s locality %s: new %v, explain %v", name, k, l.Share.New, v)
		}
	}
	for k := range union(lo, ln) {
		if lo[k] != ln[k] && !listed[k] {
			t.Errorf("%s locality %s: %v → %v not listed", name, k, lo[k], ln[k])
		}
	}
	agg := func(r *traffic.ClusterReport) map[string]int {
		m := map[string]int{}
		if r != nil && r.Aggregate != nil {
			for _, c := range r.Aggregate.ClusterLoad {
				m[c.Cluster] += c.Load
			}
		}
		return m
	}
	ao, an := agg(o), agg(n)
	seen := map[string]bool{}
	if d.Aggregate != nil {
		for _, c := range d.Aggregate.ClusterLoad {
			seen[c.Cluster] = true
			_, oko := ao[c.Cluster]
			_, okn := an[c.Cluster]
			if (c.Load.Old != nil) != oko || (c.Load.New != nil) != okn ||
				oko && *c.Load.Old != ao[c.Cluster] || okn && *c.Load.New != an[c.Cluster] {
				t.Errorf("%s child %s: %v → %v, explain %d → %d", name, c.Cluster, c.Load.Old, c.Load.New, ao[c.Cluster], an[c.Cluster])
			}
		}
	}
	for k := range union(ao, an) {
		if ao[k] != an[k] && !seen[k] {
			t.Errorf("%s child %s: %d → %d not listed", name, k, ao[k], an[k])
		}
	}
}

func hostShares(r *traffic.ClusterReport) map[string]float64 {
	m := map[string]float64{}
	if r != nil {
		for _, h := range r.Hosts {
			if h.Share != nil {
				m[h.Address] += *h.Share
			}
		}
	}
	return m
}

// unknownShares are the hosts explain lists without a share.
func unknownShares(r *traffic.ClusterReport) map[string]bool {
	m := map[string]bool{}
	if r != nil {
		for _, h := range r.Hosts {
			if h.Share == nil {
				m[h.Address] = true
			}
		}
	}
	return m
}

func union[K comparable, V any](a, b map[K]V) map[K]bool {
	u := map[K]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

// Hand-derived values for each section (Envoy's formulas, worked by hand).
func TestSectionValues(t *testing.T) {
	get := func(t *testing.T, r *Report, name string) Cluster {
		t.Helper()
		for _, c := range r.Clusters {
			if c.Name == name {
				return c
			}
		}
		t.Fatalf("cluster %s not in the diff", name)
		return Cluster{}
	}
	t.Run("priority", func(t *testing.T) {
		// LoadBalancerBase::recalculatePerPriorityState: P0 2 of 5 healthy,
		// health min(100, 1.4 × 40) = 56; P1 takes the remaining 44.
		_, _, r := loadCase(t, "priority")
		c := get(t, r, "pay")
		if len(c.Priorities) != 2 || *c.Priorities[0].HealthyLoad.Old != 100 || *c.Priorities[0].HealthyLoad.New != 56 ||
			*c.Priorities[1].HealthyLoad.Old != 0 || *c.Priorities[1].HealthyLoad.New != 44 {
			t.Errorf("priorities %+v", c.Priorities)
		}
		if c.MaxShift != 0.22 {
			t.Errorf("max_shift %v, want 0.22 (a P1 host: 0 → 44%%/2)", c.MaxShift)
		}
	})
	t.Run("panic", func(t *testing.T) {
		// 1 of 5 healthy: 20% < 50% threshold, P0 panics (all hosts used).
		_, _, r := loadCase(t, "panic")
		c := get(t, r, "cart")
		if len(c.Priorities) != 1 || *c.Priorities[0].Panic.Old || !*c.Priorities[0].Panic.New || c.TotalPanic == nil || !*c.TotalPanic.New {
			t.Errorf("priorities %+v total_panic %+v", c.Priorities, c.TotalPanic)
		}
	})
	t.Run("hosts", func(t *testing.T) {
		// weights 3,1,1,1: 10.0.0.1 gets 3/6; 10.0.0.4 removed (was 1/4).
		_, _, r := loadCase(t, "hosts")
		c := get(t, r, "web")
		h := c.Hosts[0]
		if h.Address != "10.0.0.1:80" || *h.Share.Old != 0.25 || *h.Share.New != 0.5 || h.Weight == nil || *h.Weight.New != 3 {
			t.Errorf("first host %+v", h)
		}
		if c.MaxShift != 0.25 || len(c.Hosts) != 5 {
			t.Errorf("max_shift %v, %d hosts", c.MaxShift, len(c.Hosts))
		}
	})
	t.Run("locality", func(t *testing.T) {
		// locality weights 1:1 → 3:1, all healthy: shares 3/4 and 1/4.
		_, _, r := loadCase(t, "locality")
		c := get(t, r, "geo")
		if len(c.Localities) != 2 || *c.Localities[0].Share.New != 0.75 || *c.Localities[1].Share.New != 0.25 {
			t.Errorf("localities %+v", c.Localities)
		}
	})
	t.Run("aggregate", func(t *testing.T) {
		// Envoy's aggregate doc example {20,20,10},{25,25} gives primary 70%;
		// primary P0 at 30% (42 after overprovisioning) gives 84%.
		_, _, r := loadCase(t, "aggregate")
		c := get(t, r, "aggregate_cluster")
		if c.Aggregate == nil || len(c.Aggregate.ClusterLoad) != 2 || *c.Aggregate.ClusterLoad[0].Load.Old != 70 || *c.Aggregate.ClusterLoad[0].Load.New != 84 {
			t.Errorf("aggregate %+v", c.Aggregate)
		}
	})
	t.Run("zone", func(t *testing.T) {
		_, _, r := loadCase(t, "zone")
		c := get(t, r, "backend")
		if c.ZoneRouting == nil || *c.ZoneRouting.State.Old != "LocalityDirect" || *c.ZoneRouting.State.New == "LocalityDirect" {
			t.Errorf("zone routing %+v", c.ZoneRouting)
		}
	})
	t.Run("subset", func(t *testing.T) {
		_, _, r := loadCase(t, "subset")
		c := get(t, r, "shop")
		if c.Subset == nil || *c.Subset.FallbackPolicy.New != "NO_FALLBACK" || len(*c.Subset.Selectors.New) != 2 {
			t.Errorf("subset %+v", c.Subset)
		}
	})
	t.Run("hash-policy", func(t *testing.T) {
		_, _, r := loadCase(t, "hash-policy")
		c := get(t, r, "sessions")
		if c.HashPolicy == nil || (*c.HashPolicy.Old)[0] != `route "by-user": header x-user` || (*c.HashPolicy.New)[0] != `route "by-user": header x-tenant (terminal)` {
			t.Errorf("hash_policy %+v", c.HashPolicy)
		}
	})
	t.Run("clusters", func(t *testing.T) {
		_, _, r := loadCase(t, "clusters")
		if len(r.Clusters) != 4 || get(t, r, "billing-v2").RenamedFrom != "billing" || get(t, r, "old-only").Change != "removed" || get(t, r, "new-only").Change != "added" {
			t.Errorf("clusters %+v", r.Clusters)
		}
	})
}
