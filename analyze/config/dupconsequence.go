package config

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/lbctl/lbctl/analyze/config/parse"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
)

// A repeated YAML key with different values is Envoy's last value
// (yaml_utility.cc parseYamlNode). Whether that matters is what the first
// value would have changed: the document is decoded again with the first
// value in place, and the clusters (with their endpoints) and route
// configurations of the two readings are compared. A warning names the
// resource and field that differ; when none does, the repeat changes
// nothing lbctl reports about load balancing or routing, and it is info.

// Every repeat of one tree is settled against one reading with the last
// values: first all the repeats' first values are put in place together,
// and only when that changes something are the repeats split in halves
// (down to one repeat, whose message names what it changes). A set whose
// first values together change nothing is taken to hold no repeat that
// would: first values cancelling each other out are not looked for.

// maxRereads bounds the decodings spent on one tree's repeats after its
// first; repeats left then keep a warning that says they were not checked.
const maxRereads = 64

// uncheckedMsg ends the warning of a repeat left unchecked.
const uncheckedMsg = "; lbctl did not check what the first value would change (too many repeats with different values)"

// dupCase is a repeat and the warning reported for it.
type dupCase struct {
	alt parse.Repeat
	pr  *Problem
}

// dupConsequences settles the severity of the repeated keys of the
// documents read (l.units), once the configuration is linked.
func (l *loader) dupConsequences() {
	byTree := map[*tree][]unit{}
	var trees []*tree
	for _, u := range l.units {
		t := treeOf(u.node)
		if t == nil || len(t.Repeats) == 0 {
			continue
		}
		if byTree[t] == nil {
			trees = append(trees, t)
		}
		byTree[t] = append(byTree[t], u)
	}
	if len(trees) == 0 {
		return
	}
	warned := l.dupWarnings()
	for _, t := range trees {
		var cases []dupCase
		for _, alt := range t.Repeats {
			if pr := warned[nodePos(t.File, alt.Key)]; pr != nil {
				cases = append(cases, dupCase{alt, pr})
			}
		}
		if len(cases) > 0 {
			s := &dupSettler{l: l, units: byTree[t], budget: maxRereads}
			s.last = l.reread(s.units)
			s.settle(cases, false)
		}
	}
}

// dupWarnings are the duplicate-key warnings by position, the first of
// each.
func (l *loader) dupWarnings() map[Pos]*Problem {
	out := map[Pos]*Problem{}
	for i := range l.cfg.Problems {
		p := &l.cfg.Problems[i]
		if p.Code == CodeDuplicateKey && p.Severity == SevWarning && out[p.Pos] == nil {
			out[p.Pos] = p
		}
	}
	return out
}

// dupSettler settles the repeats of one tree, read by units.
type dupSettler struct {
	l      *loader
	units  []unit
	last   reading
	budget int // rereads left
}

// settle rewrites the problems of cases: info when their first values
// change nothing, else a warning naming what one repeat's first value
// changes, found by halving cases. differs: cases are known to change
// something (their other half changed nothing), so only halving is left.
func (s *dupSettler) settle(cases []dupCase, differs bool) {
	if differs && len(cases) > 1 {
		s.halve(cases)
		return
	}
	if s.budget <= 0 {
		for _, c := range cases {
			c.pr.Msg += uncheckedMsg
		}
		return
	}
	s.budget--
	what := s.swapped(cases)
	switch {
	case what == "":
		for _, c := range cases {
			c.pr.Severity = SevInfo
			c.pr.Msg += "; with the first value no cluster, endpoint or route lbctl reports on would differ"
		}
	case len(cases) == 1:
		cases[0].pr.Msg += "; the first value would change " + what
	default:
		s.halve(cases)
	}
}

// halve settles the two halves of cases, which change something.
func (s *dupSettler) halve(cases []dupCase) {
	head, tail := cases[:len(cases)/2], cases[len(cases)/2:]
	before := s.budget
	s.settle(head, false)
	quiet := s.budget < before
	for _, c := range head {
		quiet = quiet && c.pr.Severity == SevInfo
	}
	s.settle(tail, quiet)
}

// swapped names what differs from the last reading with the first values
// of cases in place, "" when nothing does.
func (s *dupSettler) swapped(cases []dupCase) string {
	undo := make([]func(), len(cases))
	for i, c := range cases {
		undo[i] = swapFirst(c.alt)
	}
	r := s.l.reread(s.units)
	for i := len(undo) - 1; i >= 0; i-- {
		undo[i]()
	}
	return s.last.differs(r)
}

// swapFirst puts the first value in the place of the last; the returned
// function undoes it (undos run in the reverse order of their swaps).
func swapFirst(a parse.Repeat) func() {
	n := a.Mapping
	t, at := n.Place()
	restore := t.Save(at)
	kids := make([]int32, 0, n.Len())
	for i := 0; i+1 < n.Len(); i += 2 {
		k, v := n.Child(i), n.Child(i+1)
		if k.Kind() == scalarNode && k.Value() == a.Key.Value() {
			v = a.First
		}
		_, ki := k.Place()
		_, vi := v.Place()
		kids = append(kids, ki, vi)
	}
	t.SetChildren(at, kids)
	return restore
}

// reading is what one decoding of the documents gives lbctl's model.
type reading struct {
	src      *Sources
	clusters map[string]*Cluster
	routes   map[string]proto.Message
}

// reread decodes units on their own, into a throwaway configuration.
func (l *loader) reread(units []unit) reading {
	cfg := &Config{Sources: l.cfg.Sources.scratch(units), byName: map[string]*Cluster{}, LiveHealth: map[string]map[string]LiveHost{}}
	tl := &loader{collector: collector{cfg: cfg}, kind: l.kind}
	for _, u := range units {
		readUnit(tl, u)
	}
	tl.linker().link()
	r := reading{src: cfg.Sources, clusters: cfg.byName, routes: map[string]proto.Message{}}
	for i, rc := range cfg.Routes {
		name := rc.GetName()
		if name == "" {
			name = "#" + strconv.Itoa(i)
		}
		r.routes[name] = rc
	}
	return r
}

// scratch is a Sources for a throwaway decoding of units: it finds what
// it records in s's trees (the units' trees registered first, so that the
// scratch never numbers a tree) and keeps its records apart from s's.
func (s *Sources) scratch(units []unit) *Sources {
	for _, u := range units {
		if t := treeOf(u.node); t != nil {
			s.register(t)
		}
	}
	n := len(s.trees)
	return &Sources{locations: locations{trees: s.trees[:n:n], nextID: s.nextID, unpacked: map[*anypb.Any]proto.Message{}}, fileTexts: s.fileTexts}
}

// differs names the first resource and field that differ between two
// readings, "" when none does.
func (a reading) differs(b reading) string {
	for _, name := range unionKeys(a.clusters, b.clusters) {
		ca, cb := a.clusters[name], b.clusters[name]
		if ca == nil || cb == nil {
			return fmt.Sprintf("which clusters exist (%q)", name)
		}
		if f := fieldDiff(a, b, ca.Proto.ProtoReflect(), cb.Proto.ProtoReflect(), "", connectionOnly); f != "" {
			return fmt.Sprintf("cluster %q (%s)", name, f)
		}
		if f := fieldDiff(a, b, ca.Assignment.ProtoReflect(), cb.Assignment.ProtoReflect(), "", nil); f != "" {
			return fmt.Sprintf("the endpoints of cluster %q (%s)", name, f)
		}
	}
	for _, name := range unionKeys(a.routes, b.routes) {
		ra, rb := a.routes[name], b.routes[name]
		if ra == nil || rb == nil {
			return fmt.Sprintf("which route configurations exist (%q)", name)
		}
		if f := fieldDiff(a, b, ra.ProtoReflect(), rb.ProtoReflect(), "", nil); f != "" {
			return fmt.Sprintf("route configuration %q (%s)", name, f)
		}
	}
	return ""
}

// connectionOnly are Cluster fields about connections, DNS refresh and
// stats, which no load-balancing or routing figure of lbctl reads.
var connectionOnly = map[string]bool{
	"connect_timeout": true, "per_connection_buffer_limit_bytes": true, "transport_socket": true,
	"transport_socket_matches": true, "upstream_connection_options": true, "circuit_breakers": true,
	"alt_stat_name": true, "track_timeout_budgets": true, "track_cluster_stats": true, "upstream_bind_config": true,
	"cleanup_interval": true, "dns_refresh_rate": true, "dns_failure_refresh_rate": true, "dns_jitter": true,
	"respect_dns_ttl": true, "typed_dns_resolver_config": true, "dns_resolvers": true, "use_tcp_for_dns_lookups": true,
	"dns_resolution_config": true, "protocol_selection": true, "typed_extension_protocol_options": true,
	"max_requests_per_connection": true, "http_protocol_options": true, "http2_protocol_options": true,
	"common_http_protocol_options": true, "upstream_http_protocol_options": true, "filters": true,
}

func unionKeys[V any](a, b map[string]V) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]V{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// fieldDiff is the path of the first field that differs between x and y
// ("" when none), x's own fields named in ignore left out (so that one
// repeat's connection field does not hide another's LB field); an Any is
// compared by what each reading unpacked.
func fieldDiff(a, b reading, x, y protoreflect.Message, at string, ignore map[string]bool) string {
	if x.IsValid() != y.IsValid() {
		return orSelf(at)
	}
	if !x.IsValid() {
		return ""
	}
	if xa, ok := x.Interface().(*anypb.Any); ok {
		ya := y.Interface().(*anypb.Any)
		xm, ym := a.src.Unpacked(xa), b.src.Unpacked(ya)
		if xm == nil || ym == nil {
			if xa.GetTypeUrl() != ya.GetTypeUrl() || (xm == nil) != (ym == nil) {
				return orSelf(at)
			}
			if xm == nil {
				return ""
			}
		}
		return fieldDiff(a, b, xm.ProtoReflect(), ym.ProtoReflect(), at, ignore)
	}
	fields := x.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if ignore[string(fd.Name())] {
			continue
		}
		name := join(at, string(fd.Name()))
		if x.Has(fd) != y.Has(fd) {
			return name
		}
		if !x.Has(fd) {
			continue
		}
		xv, yv := x.Get(fd), y.Get(fd)
		switch {
		case fd.IsList():
			xl, yl := xv.List(), yv.List()
			if xl.Len() != yl.Len() {
				return name
			}
			for j := range xl.Len() {
				el := name + "[" + strconv.Itoa(j) + "]"
				if fd.Message() != nil {
					if f := fieldDiff(a, b, xl.Get(j).Message(), yl.Get(j).Message(), el, nil); f != "" {
						return f
					}
				} else if !xl.Get(j).Equal(yl.Get(j)) {
					return el
				}
			}
		case fd.IsMap():
			if !xv.Equal(yv) {
				return name
			}
		case fd.Message() != nil:
			if f := fieldDiff(a, b, xv.Message(), yv.Message(), name, nil); f != "" {
				return f
			}
		default:
			if !xv.Equal(yv) {
				return name
			}
		}
	}
	return ""
}

func join(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}

func orSelf(at string) string {
	if at == "" {
		return "the whole resource"
	}
	return at
}
