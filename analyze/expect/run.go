package expect

import (
	"fmt"
	"math"

	"github.com/lbctl/lbctl/analyze/traffic"
)

// Reports are the reports a run reads, passed in by the command (an
// analyze package imports no report package).
type Reports struct {
	// Clusters is every loaded cluster's name, to answer a typo with the
	// nearest one; nil leaves the check to Cluster.
	Clusters []string
	// Cluster is explain's report of one cluster under the what-ifs.
	Cluster func(name string, g Given) (*traffic.Report, error)
	// Hosts is a cluster's host addresses before any what-if (an
	// aggregate's: its direct children's), to check given.remove's names,
	// gone from the report; nil checks them against the report.
	Hosts func(cluster string) []string
	// NestedHosts is an aggregate's nested aggregate children's host
	// addresses, which given.remove cannot remove; nil when unknown.
	NestedHosts func(cluster string) []string
	// Moved is the fraction of a ring hash / Maglev cluster's key space
	// that changes host when the hosts in remove are gone.
	Moved func(cluster string, remove []string) (float64, error)
	// Request is the route engine's answer for one request, its clusters
	// computed under the test's what-ifs.
	Request func(r Request, g Given) (RouteResult, error)
}

// Results is a run's outcome, as `lbctl test --format json` prints it.
type Results struct {
	Tests   []Result `json:"tests"`
	Summary Summary  `json:"summary"`
}

// Result is one test's outcome. Passed is nil when nothing was checked.
type Result struct {
	Name       string    `json:"name"`
	Passed     *bool     `json:"passed"`
	At         string    `json:"at"`
	Failures   []Failure `json:"failures"`
	NotChecked []string  `json:"not_checked"`
	// Pos is At's parts (File groups junit suites; Line the github lines).
	Pos Pos `json:"-"`
}

// Failure is one expectation that did not hold. Got is a number, a
// boolean, a string, or nil (none, or a budget of never).
type Failure struct {
	Expect string `json:"expect"`
	Want   string `json:"want"`
	Got    any    `json:"got"`
	At     string `json:"at"`
	Pos    Pos    `json:"-"`
}

// Summary counts tests that passed and failed, and validate fields not
// checked.
type Summary struct {
	Passed     int `json:"passed"`
	Failed     int `json:"failed"`
	NotChecked int `json:"not_checked"`
}

// Run checks every test of files. Unknown names (cluster, priority, host,
// locality) are InputErrors, all of them returned together with no results:
// a typo must never pass.
func Run(files []*File, rep Reports) (*Results, error) {
	res := &Results{Tests: []Result{}}
	var errs InputErrors
	for _, f := range files {
		for _, t := range f.Tests {
			r, err := runTest(t, rep)
			if err != nil {
				errs = append(errs, err...)
				continue
			}
			res.Tests = append(res.Tests, r)
			switch {
			case r.Passed == nil:
			case *r.Passed:
				res.Summary.Passed++
			default:
				res.Summary.Failed++
			}
			res.Summary.NotChecked += len(r.NotChecked)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return res, nil
}

// got is one figure read from a report: a number, a bool or a string, or
// none (nil string / no such value).
type got struct {
	num  float64
	b    bool
	str  string
	none bool
}

// value is got as printed in a failure.
func (g got) value(k kind) any {
	switch {
	case g.none:
		return nil
	case k == kindBool:
		return g.b
	case k == kindString:
		return clean(g.str)
	case math.IsInf(g.num, 1):
		return nil
	}
	return g.num
}

func runTest(t *Test, rep Reports) (Result, InputErrors) {
	r := Result{Name: clean(t.Name), At: t.At.String(), Pos: t.At, Failures: []Failure{}, NotChecked: t.NotChecked}
	if r.NotChecked == nil {
		r.NotChecked = []string{}
	}
	var look lookup
	var errs InputErrors
	if t.Request != nil {
		look, errs = requestLookup(t, rep)
	} else {
		look, errs = clusterLookup(t, rep)
	}
	if len(errs) > 0 {
		return r, errs
	}
	for _, e := range t.Expects {
		g, err := look(e)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if holds(e.Want, g) {
			continue
		}
		r.Failures = append(r.Failures, Failure{Expect: clean(e.Path), Want: clean(e.Want.Text), Got: g.value(e.Want.kind), At: e.At.String(), Pos: e.At})
	}
	if len(errs) > 0 {
		return r, errs
	}
	if len(t.Expects) > 0 {
		ok := len(r.Failures) == 0
		r.Passed = &ok
	}
	return r, nil
}

// holds says whether g satisfies w.
func holds(w Want, g got) bool {
	switch w.kind {
	case kindBool:
		return !g.none && g.b == w.Bool
	case kindString:
		if g.none {
			return w.Str == ""
		}
		return g.str == w.Str
	}
	if g.none {
		return false
	}
	return w.holdsNum(g.num)
}

// lookup reads the figure an expectation compares; an error is a name
// that matches nothing in the report.
type lookup func(e Expect) (got, *InputError)

func unknown(e Expect, what, name string, valid []string) *InputError {
	return &InputError{At: e.KeyAt, Msg: fmt.Sprintf("%s: no %s %q%s", clean(e.Path), what, clean(name), nearest(name, valid, what))}
}
