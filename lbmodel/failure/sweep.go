package failure

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/lbctl/lbctl/lbmodel"
)

// HealthyCount is how many of n hosts --set-health's PERCENT makes
// healthy: rounded half up, so 50% of 3 hosts is 2.
func HealthyCount(percent float64, n int) int {
	return int(percent*float64(n)/100 + 0.5)
}

// SetHealth returns a copy of hosts in which the hosts of priority p (of
// every priority when p < 0) are HEALTHY for the first healthy of them in
// file order and UNHEALTHY for the rest, as --set-health does.
func SetHealth(hosts []lbmodel.Host, p, healthy int) []lbmodel.Host {
	out := slices.Clone(hosts)
	setHealth(out, p, healthy)
	return out
}

// setHealth is SetHealth in place.
func setHealth(hosts []lbmodel.Host, p, healthy int) {
	k := 0
	for i := range hosts {
		if p >= 0 && hosts[i].Priority != p {
			continue
		}
		hosts[i].Status = lbmodel.StatusUnhealthy
		if k < healthy {
			hosts[i].Status = lbmodel.StatusHealthy
		}
		k++
	}
}

// Varied is the level a sweep steps: a priority of a cluster, or of an
// aggregate's child. Priority -1 steps all of the cluster's hosts.
type Varied struct {
	Cluster  string `json:"cluster"`
	Priority int    `json:"priority"`
}

// SweepStep is the varied level's health in one row.
type SweepStep struct {
	// Key names the level in grid columns: p<N>, or <child>_p<N> and
	// <child> in an aggregate.
	Key            string
	Healthy, Total int
	// Health is the percentage of the level's hosts that are healthy.
	Health float64
}

// SweepLevel is one priority level (of an aggregate, one linearized level)
// in a row.
type SweepLevel struct {
	Cluster  string `json:"cluster,omitempty"` // aggregate: the child
	Priority int    `json:"priority"`
	// Health is Envoy's health availability, as explain's.
	Health       int  `json:"health"`
	HealthyLoad  int  `json:"healthy_load"`
	DegradedLoad int  `json:"degraded_load"`
	Panic        bool `json:"panic"`
}

// SweepHost is one host's fraction of the (aggregate) cluster's traffic.
type SweepHost struct {
	Cluster string  `json:"cluster,omitempty"` // aggregate: the child
	Address string  `json:"address"`
	Share   float64 `json:"share"`
}

// SweepRow is the model at one step.
type SweepRow struct {
	Steps       []SweepStep           `json:"-"` // one per varied level
	Priorities  []SweepLevel          `json:"priorities"`
	ClusterLoad []lbmodel.ClusterLoad `json:"cluster_load,omitempty"`
	TotalPanic  bool                  `json:"total_panic"`
	Hosts       []SweepHost           `json:"hosts,omitempty"`
}

// Sweep is the outcome of SweepCluster or SweepAggregate.
type Sweep struct {
	Cluster string     `json:"cluster"`
	Varied  Varied     `json:"varied"`
	Grid    *Varied    `json:"grid,omitempty"` // the second varied level of a grid
	Rows    []SweepRow `json:"rows"`
}

// SweepOptions: Step is the percentage between rows (0: every host
// count); Hosts adds each host's share to every row.
type SweepOptions struct {
	Step  float64
	Hosts bool
}

// MarshalJSON writes the steps as healthy, total and health, or in a grid
// as healthy_<key>, total_<key> and health_<key> for each varied level.
func (r SweepRow) MarshalJSON() ([]byte, error) {
	type plain SweepRow
	body, err := json.Marshal(plain(r))
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for _, s := range r.Steps {
		suffix := ""
		if len(r.Steps) > 1 {
			suffix = "_" + s.Key
		}
		k, _ := json.Marshal(suffix)
		k = k[1 : len(k)-1]
		fmt.Fprintf(&buf, `"healthy%s":%d,"total%s":%d,"health%s":`, k, s.Healthy, k, s.Total, k)
		h, err := json.Marshal(s.Health)
		if err != nil {
			return nil, err
		}
		buf.Write(h)
		buf.WriteByte(',')
	}
	buf.Write(body[1:])
	return buf.Bytes(), nil
}

// sweepAxis is one varied level and its healthy counts, in row order.
type sweepAxis struct {
	v      Varied
	key    string
	total  int
	counts []int
}

// stepCounts is n down to 0, or the --set-health count of every step
// percent from 100 down to 0, without repeats.
func stepCounts(n int, step float64) []int {
	var out []int
	// A step finer than one host visits every count, as step 0 does; this
	// also bounds the loop below (--step 1e-9 would be 1e11 rounds).
	if step <= 0 || step < 100/float64(n) {
		for h := n; h >= 0; h-- {
			out = append(out, h)
		}
		return out
	}
	for i := 0; ; i++ {
		p := max(0, 100-float64(i)*step)
		if h := HealthyCount(p, n); len(out) == 0 || out[len(out)-1] != h {
			out = append(out, h)
		}
		if p == 0 {
			return out
		}
	}
}

func newAxis(v Varied, key string, hosts []lbmodel.Host, step float64) (sweepAxis, error) {
	n := 0
	for _, h := range hosts {
		if v.Priority < 0 || h.Priority == v.Priority {
			n++
		}
	}
	if n == 0 {
		return sweepAxis{}, fmt.Errorf("cluster %q has no hosts at priority %d", v.Cluster, v.Priority)
	}
	return sweepAxis{v: v, key: key, total: n, counts: stepCounts(n, step)}, nil
}

// runSweep calls row for every combination of the axes' healthy counts
// (the first axis outermost), with the varied levels' health set on a
// working copy of the hosts (axes do not overlap, see checkAxes).
func runSweep(axes []sweepAxis, hosts map[string][]lbmodel.Host, row func(map[string][]lbmodel.Host) (SweepRow, error)) ([]SweepRow, error) {
	work := map[string][]lbmodel.Host{}
	for k, v := range hosts {
		work[k] = slices.Clone(v)
	}
	var rows []SweepRow
	steps := make([]SweepStep, len(axes))
	var walk func(i int) error
	walk = func(i int) error {
		if i == len(axes) {
			r, err := row(work)
			if err != nil {
				return err
			}
			r.Steps = slices.Clone(steps)
			rows = append(rows, r)
			return nil
		}
		a := axes[i]
		for _, h := range a.counts {
			setHealth(work[a.v.Cluster], a.v.Priority, h)
			steps[i] = SweepStep{Key: a.key, Healthy: h, Total: a.total, Health: 100 * float64(h) / float64(a.total)}
			if err := walk(i + 1); err != nil {
				return err
			}
		}
		return nil
	}
	return rows, walk(0)
}

func checkAxes(vary []Varied) error {
	if len(vary) == 0 || len(vary) > 2 {
		return errors.New("a sweep varies one level, or two in a grid")
	}
	if len(vary) == 2 && vary[0].Cluster == vary[1].Cluster &&
		(vary[0].Priority == vary[1].Priority || vary[0].Priority < 0 || vary[1].Priority < 0) {
		return errors.New("a grid needs two levels that do not overlap")
	}
	return nil
}

func newSweep(name string, axes []sweepAxis, rows []SweepRow) Sweep {
	s := Sweep{Cluster: name, Varied: axes[0].v, Rows: rows}
	if len(axes) > 1 {
		s.Grid = &axes[1].v
	}
	return s
}

// SweepCluster steps the health of one priority of c (two in a grid) from
// all hosts healthy to none, the first hosts in file order being the
// healthy ones (SetHealth), every other host unchanged, and computes the
// priority loads at each step (with opt.Hosts, ClusterShares' host
// shares).
func SweepCluster(name string, c lbmodel.ClusterInput, priorities []int, opt SweepOptions) (Sweep, error) {
	vary := make([]Varied, len(priorities))
	for i, p := range priorities {
		vary[i] = Varied{Cluster: name, Priority: p}
	}
	if err := checkAxes(vary); err != nil {
		return Sweep{}, err
	}
	axes := make([]sweepAxis, len(vary))
	for i, v := range vary {
		a, err := newAxis(v, fmt.Sprintf("p%d", v.Priority), c.Hosts, opt.Step)
		if err != nil {
			return Sweep{}, err
		}
		axes[i] = a
	}
	rows, err := runSweep(axes, map[string][]lbmodel.Host{name: c.Hosts}, func(hs map[string][]lbmodel.Host) (SweepRow, error) {
		c2 := c
		c2.Hosts = hs[name]
		var load lbmodel.PriorityLoad
		var r SweepRow
		if opt.Hosts {
			sh, err := lbmodel.ClusterShares(c2)
			if err != nil {
				return r, err
			}
			load = sh.Load
			for i, h := range c2.Hosts {
				r.Hosts = append(r.Hosts, SweepHost{Address: h.Address, Share: lbmodel.CleanFraction(sh.Hosts[i])})
			}
		} else {
			load = lbmodel.ComputePriorityLoad(clusterLevels(c2), min(100, c2.PanicThreshold))
		}
		for p, l := range load.Levels {
			r.Priorities = append(r.Priorities, SweepLevel{Priority: p, Health: l.Health,
				HealthyLoad: l.HealthyLoad, DegradedLoad: l.DegradedLoad, Panic: l.Panic})
		}
		r.TotalPanic = load.TotalPanic
		return r, nil
	})
	if err != nil {
		return Sweep{}, err
	}
	return newSweep(name, axes, rows), nil
}

// SweepAggregate steps the health of a child's priority (Priority -1: all
// the child's hosts) of an aggregate cluster, or two in a grid, and
// computes the linearized loads, the child clusters' loads and, with
// opt.Hosts, ComputeAggregateShares' host shares. A child listed twice is
// one host set. threshold is the aggregate's own.
func SweepAggregate(name string, children []lbmodel.AggregateChildInput, threshold int, vary []Varied, opt SweepOptions) (Sweep, error) {
	if err := checkAxes(vary); err != nil {
		return Sweep{}, err
	}
	hosts := map[string][]lbmodel.Host{}
	for _, c := range children {
		if _, ok := hosts[c.Name]; !ok && c.Kind == lbmodel.ChildPresent {
			hosts[c.Name] = c.Cluster.Hosts
		}
	}
	axes := make([]sweepAxis, len(vary))
	for i, v := range vary {
		if _, ok := hosts[v.Cluster]; !ok {
			return Sweep{}, fmt.Errorf("%q is not a child cluster of %q", v.Cluster, name)
		}
		key := v.Cluster
		if v.Priority >= 0 {
			key = fmt.Sprintf("%s_p%d", v.Cluster, v.Priority)
		}
		a, err := newAxis(v, key, hosts[v.Cluster], opt.Step)
		if err != nil {
			return Sweep{}, err
		}
		axes[i] = a
	}
	rows, err := runSweep(axes, hosts, func(hs map[string][]lbmodel.Host) (SweepRow, error) {
		in := slices.Clone(children)
		ac := make([]lbmodel.AggregateChild, len(in))
		for i := range in {
			ac[i] = lbmodel.AggregateChild{Name: in[i].Name, Kind: in[i].Kind}
			if in[i].Kind == lbmodel.ChildPresent {
				in[i].Cluster.Hosts = hs[in[i].Name]
				ac[i].Levels = clusterLevels(in[i].Cluster)
			}
		}
		var r SweepRow
		var agg lbmodel.AggregateLoad
		if opt.Hosts {
			sh, err := lbmodel.ComputeAggregateShares(in, threshold)
			if err != nil {
				return r, err
			}
			agg = sh.Load
			for _, c := range sh.Children {
				for i, h := range hs[c.Name] {
					r.Hosts = append(r.Hosts, SweepHost{Cluster: c.Name, Address: h.Address, Share: lbmodel.CleanFraction(c.Hosts[i])})
				}
			}
		} else {
			agg = lbmodel.ComputeAggregate(ac, threshold)
		}
		for i, l := range agg.Levels {
			ll := agg.Load.Levels[i]
			r.Priorities = append(r.Priorities, SweepLevel{Cluster: l.Cluster, Priority: l.Priority, Health: ll.Health,
				HealthyLoad: ll.HealthyLoad, DegradedLoad: ll.DegradedLoad, Panic: ll.Panic})
		}
		r.ClusterLoad = agg.ClusterLoad
		r.TotalPanic = agg.Load.TotalPanic
		return r, nil
	})
	if err != nil {
		return Sweep{}, err
	}
	return newSweep(name, axes, rows), nil
}

// CSV is the sweep as `-o csv` records: a header, then one record per row.
// Columns: healthy,total,health (in a grid, each suffixed _<key>), the
// load of each priority (p<N>_load, healthy plus degraded) or of each
// child cluster (its name), each level's panic flag (p<N>_panic, or
// <child>_p<N>_panic), total_panic.
func (s Sweep) CSV() [][]string {
	if len(s.Rows) == 0 {
		return nil
	}
	first := s.Rows[0]
	var head []string
	for _, st := range first.Steps {
		suffix := ""
		if len(first.Steps) > 1 {
			suffix = "_" + st.Key
		}
		head = append(head, "healthy"+suffix, "total"+suffix, "health"+suffix)
	}
	level := func(l SweepLevel) string {
		if l.Cluster != "" {
			return fmt.Sprintf("%s_p%d", l.Cluster, l.Priority)
		}
		return fmt.Sprintf("p%d", l.Priority)
	}
	aggregate := first.ClusterLoad != nil
	if aggregate {
		for _, c := range first.ClusterLoad {
			head = append(head, c.Cluster)
		}
	} else {
		for _, l := range first.Priorities {
			head = append(head, level(l)+"_load")
		}
	}
	for _, l := range first.Priorities {
		head = append(head, level(l)+"_panic")
	}
	out := [][]string{append(head, "total_panic")}
	for _, r := range s.Rows {
		var rec []string
		for _, st := range r.Steps {
			rec = append(rec, strconv.Itoa(st.Healthy), strconv.Itoa(st.Total), strconv.FormatFloat(st.Health, 'f', -1, 64))
		}
		if aggregate {
			for _, c := range r.ClusterLoad {
				rec = append(rec, strconv.Itoa(c.Load))
			}
		} else {
			for _, l := range r.Priorities {
				rec = append(rec, strconv.Itoa(l.HealthyLoad+l.DegradedLoad))
			}
		}
		for _, l := range r.Priorities {
			rec = append(rec, strconv.FormatBool(l.Panic))
		}
		out = append(out, append(rec, strconv.FormatBool(r.TotalPanic)))
	}
	return out
}
