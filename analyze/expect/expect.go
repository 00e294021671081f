// Package expect is the engine behind `lbctl test`: it reads TESTS files
// (lbctl's form and Envoy's router_check_tool form) with positions, checks
// their expectations against reports passed in as functions, and writes
// the TESTS file of --init. It imports no report package (ARCHITECTURE.md):
// the command injects explain, hash and route through Reports.
package expect

import (
	"fmt"
	"strings"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// Pos is a place in a TESTS file, 1-based.
type Pos struct {
	File string
	Line int
	Col  int
}

// String is FILE:LINE:COL, as every error and report prints it.
func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// File is one parsed TESTS file.
type File struct {
	Path  string
	Tests []*Test
}

// Test is one entry of a TESTS file, in either form.
type Test struct {
	Name string
	// At is the position of the test's name (name or test_name).
	At Pos
	// Cluster names the cluster whose model is tested; empty for request tests.
	Cluster   string
	ClusterAt Pos
	// Request is the route request of a request test (or a router_check test).
	Request *Request
	Given   Given
	Expects []Expect
	// NotChecked lists validate fields of a router_check test that lbctl
	// does not check.
	NotChecked []string
	// Router marks Envoy's router_check_tool form.
	Router bool
}

// Request is one HTTP request for the route engine.
type Request struct {
	Authority string
	Path      string
	Method    string
	// Headers keep the file's order (router_check's additional_request_headers).
	Headers []Header
	// RandomValue is the router's random number; 0 when not given, as in
	// router_check_tool.
	RandomValue uint64
	SSL         bool
	Internal    bool
}

// Header is one request header.
type Header struct{ Name, Value string }

// RouteResult is what the route engine answers for a Request.
type RouteResult struct {
	// VirtualHost is empty when no virtual host matches.
	VirtualHost string
	// Route is the route's name; Found tells whether a route matched.
	Route string
	Found bool
	// Cluster is the one cluster chosen; empty when none (no route, a
	// redirect, a direct response, an absent cluster_header).
	Cluster string
	// Host is the one host a hash policy maps the request to, or empty.
	Host string
	// PathRedirect is the redirect's path when the route redirects.
	PathRedirect string
	// Hosts is the request's traffic over hosts.
	Hosts []RouteHost
}

// RouteHost is one host's share of a request's traffic.
type RouteHost struct {
	Cluster string
	Address string
	Share   float64
}

// Expect is one expectation: a value compared with one report figure.
type Expect struct {
	// Path is the dotted key printed in results (priority_load.0).
	Path string
	// Field is the expect key (priority_load); Key its sub key (0, an
	// address), Sub the budget's kind (before_spill).
	Field, Key, Sub string
	Want            Want
	// At is the position of the value; KeyAt of the sub key (or of the
	// field when there is none), where a wrong name is reported.
	At, KeyAt Pos
}

// InputError is a TESTS file that cannot be checked: a parse error or an
// unknown name. The command exits 3.
type InputError struct {
	At  Pos
	Msg string
}

func (e *InputError) Error() string { return e.At.String() + ": " + e.Msg }

// InputErrors are all input errors of a run, one per line.
type InputErrors []*InputError

func (e InputErrors) Error() string {
	s := make([]string, len(e))
	for i, x := range e {
		s[i] = x.Error()
	}
	return strings.Join(s, "\n")
}

// nearest is "; the closest NAME is X" (or that there is none) for a
// name that matched nothing, so a typo is answered with the fix.
func nearest(v string, valid []string, kind string) string {
	if len(valid) == 0 {
		return "; there is no " + kind
	}
	best, bestD := "", 1<<30
	for _, c := range valid {
		if d := parse.EditDistance(v, c); d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	return "; the closest " + kind + " is " + clean(best)
}
