// Package sweep is `lbctl sweep`: the health of one level of a cluster (or
// two, in a grid) stepped from every host healthy to none, with the
// traffic split at each step. The numbers are lbmodel's SweepCluster and
// SweepAggregate on the inputs explain uses.
package sweep

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"
	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/failure"
)

// Options are the sweep's flags.
type Options struct {
	// Priority is the priority to vary; -1: P0 of a plain cluster, every
	// host of an aggregate's child.
	Priority int
	// Child is the aggregate's child cluster to vary (default: the first
	// child that exists).
	Child string
	// Grid names two levels to vary together: priorities ("0", "P1") of a
	// plain cluster, CHILD or CHILD/PRIORITY of an aggregate.
	Grid []string
	// Step is the percentage between rows; 0: every host count.
	Step float64
	// Hosts adds each host's share to every row.
	Hosts bool
	// Model carries --set-health what-ifs applied before sweeping.
	Model model.Options
}

// usagef is a problem with the options rather than the configuration.
func usagef(format string, a ...any) error { return &model.UsageError{Msg: fmt.Sprintf(format, a...)} }

// Build sweeps cluster cl of c. Bad options are *model.UsageError.
func Build(c *config.Config, cl *config.Cluster, opt Options) (failure.Sweep, error) {
	if !(opt.Step >= 0 && opt.Step <= 100) { // NaN fails both
		return failure.Sweep{}, usagef("%s %g: expected a percentage above 0 and at most 100", option.Step, opt.Step)
	}
	if len(opt.Grid) != 0 && len(opt.Grid) != 2 {
		return failure.Sweep{}, usagef("%s: expected two levels, e.g. %s 0,1", option.Grid, option.Grid)
	}
	m, _, err := model.With(c, cl, opt.Model)
	if err != nil {
		return failure.Sweep{}, err
	}
	so := failure.SweepOptions{Step: opt.Step, Hosts: opt.Hosts}
	if m.IsAggregate {
		return aggregate(c, m, opt, so)
	}
	if opt.Child != "" {
		return failure.Sweep{}, usagef("%s %s: %s is not an aggregate cluster", option.Child, opt.Child, m.Name)
	}
	in, hp, err := model.Input(cl, m, model.Settings(c, cl), model.LocalOf(c, opt.Model), opt.Model)
	if err != nil {
		return failure.Sweep{}, err
	}
	if opt.Hosts && !hp.Computable {
		return failure.Sweep{}, usagef("%s: lbctl cannot compute host shares for %s's policy %s", option.Hosts, m.Name, m.Policy)
	}
	prios := []int{max(0, opt.Priority)}
	if len(opt.Grid) == 2 {
		prios = prios[:0]
		for _, g := range opt.Grid {
			p, err := ParsePriority(g)
			if err != nil {
				return failure.Sweep{}, usagef("%s %s: %v", option.Grid, strings.Join(opt.Grid, ","), err)
			}
			prios = append(prios, p)
		}
	}
	for _, p := range prios {
		if !hasPriority(in.Hosts, p) {
			return failure.Sweep{}, usagef("cluster %q has no hosts at priority %d (it has %s)", m.Name, p, priorityList(in.Hosts))
		}
	}
	return failure.SweepCluster(m.Name, in, prios, so)
}

func aggregate(c *config.Config, m *model.Model, opt Options, so failure.SweepOptions) (failure.Sweep, error) {
	children, err := model.AggregateInputs(c, m, opt.Model)
	if err != nil {
		return failure.Sweep{}, err
	}
	present := map[string][]lbmodel.Host{}
	first := ""
	for _, ch := range children {
		if ch.Kind == lbmodel.ChildPresent {
			present[ch.Name] = ch.Cluster.Hosts
			if first == "" {
				first = ch.Name
			}
		}
	}
	level := func(name string, p int) (failure.Varied, error) {
		hosts, ok := present[name]
		if !ok {
			return failure.Varied{}, usagef("%q is not a child cluster of %q with hosts (its children are: %s)", name, m.Name, strings.Join(m.Aggregate, ", "))
		}
		if p >= 0 && !hasPriority(hosts, p) {
			return failure.Varied{}, usagef("child cluster %q has no hosts at priority %d (it has %s)", name, p, priorityList(hosts))
		}
		if p < 0 && len(hosts) == 0 {
			return failure.Varied{}, usagef("child cluster %q has no hosts", name)
		}
		return failure.Varied{Cluster: name, Priority: p}, nil
	}
	var vary []failure.Varied
	if len(opt.Grid) == 2 {
		for _, g := range opt.Grid {
			name, p := g, -1
			if i := strings.LastIndexByte(g, '/'); i >= 0 {
				pp, err := ParsePriority(g[i+1:])
				if err != nil {
					return failure.Sweep{}, usagef("%s %s: %v", option.Grid, strings.Join(opt.Grid, ","), err)
				}
				name, p = g[:i], pp
			}
			v, err := level(name, p)
			if err != nil {
				return failure.Sweep{}, err
			}
			vary = append(vary, v)
		}
	} else {
		name := opt.Child
		if name == "" {
			name = first
		}
		v, err := level(name, opt.Priority)
		if err != nil {
			return failure.Sweep{}, err
		}
		vary = []failure.Varied{v}
	}
	return failure.SweepAggregate(m.Name, children, m.PanicThreshold, vary, so)
}

// ParsePriority reads "1" or "P1".
func ParsePriority(s string) (int, error) {
	p, err := strconv.Atoi(strings.TrimPrefix(strings.TrimPrefix(s, "P"), "p"))
	if err != nil || p < 0 || p > 128 {
		return 0, fmt.Errorf("%q is not a priority (0 to 128)", s)
	}
	return p, nil
}

func hasPriority(hosts []lbmodel.Host, p int) bool {
	for _, h := range hosts {
		if h.Priority == p {
			return true
		}
	}
	return false
}

func priorityList(hosts []lbmodel.Host) string {
	seen := map[int]bool{}
	var out []string
	for _, h := range hosts {
		if !seen[h.Priority] {
			seen[h.Priority] = true
			out = append(out, "P"+strconv.Itoa(h.Priority))
		}
	}
	if len(out) == 0 {
		return "no hosts"
	}
	return strings.Join(out, ", ")
}
