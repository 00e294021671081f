package lint

import (
	"errors"
	"strconv"
	"strings"
	"sync"

	"github.com/lbctl/lbctl/analyze/config"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
)

// Violation is one protoc-gen-validate constraint that go-control-plane's
// generated ValidateAll reports, mapped back to the proto field and its
// position in the input.
type Violation struct {
	// Msg is the message holding the offending field; Field is the field's
	// proto name ("" when the message itself is at fault).
	Msg   proto.Message
	Field string
	// Path is the dotted proto path from the validated resource, for the
	// message text (load_assignment.endpoints[0].load_balancing_weight).
	Path   string
	Reason string
	Pos    config.Pos
	// Claimed is set by the specific PGV rule that reports it, so that
	// LB1000 reports only the rest.
	Claimed bool
}

// Type is the full proto name of the message holding the field.
func (v *Violation) Type() string { return string(v.Msg.ProtoReflect().Descriptor().FullName()) }

type pgvError interface {
	Field() string
	Reason() string
	Cause() error
}

// Violations runs ValidateAll on every loaded cluster, EDS assignment and
// route configuration, and on every typed config (Any) inside them that
// this build can decode: PGV itself only checks an Any's type URL.
func (s *shared) Violations() []*Violation {
	if s.pgvRun {
		return s.pgv
	}
	s.pgvRun = true
	var roots []proto.Message
	for _, cl := range s.cfg.Clusters {
		roots = append(roots, cl.Proto)
	}
	for _, a := range s.cfg.Assignments {
		roots = append(roots, a)
	}
	for _, r := range s.cfg.Routes {
		roots = append(roots, r)
	}
	seen := map[proto.Message]bool{}
	for _, m := range roots {
		s.validate(m, "", seen)
	}
	if !s.strict {
		// A dump Envoy wrote was accepted by that Envoy: what PGV flags
		// there is Envoy's own spelling (e.g. locality weight 0 of an
		// unweighted cluster in EndpointsConfigDump), not a rejection.
		kept := s.pgv[:0]
		for _, v := range s.pgv {
			if !s.envoyWritten(v.Pos.File) {
				kept = append(kept, v)
			}
		}
		s.pgv = kept
	}
	return s.pgv
}

func (s *shared) validate(m proto.Message, prefix string, seen map[proto.Message]bool) {
	if m == nil || seen[m] {
		return
	}
	seen[m] = true
	if v, ok := m.(interface{ ValidateAll() error }); ok {
		if err := v.ValidateAll(); err != nil {
			s.collect(m, prefix, err)
		}
	}
	// Recurse into typed configs.
	walkAny(m.ProtoReflect(), prefix, func(a *anypb.Any, path string) {
		if u := s.cfg.Sources.Unpacked(a); u != nil {
			s.validate(u, path, seen)
		}
	})
}

// collect flattens a PGV error tree rooted at message m.
func (s *shared) collect(m proto.Message, prefix string, err error) {
	if multi, ok := err.(interface{ AllErrors() []error }); ok {
		for _, e := range multi.AllErrors() {
			s.collect(m, prefix, e)
		}
		return
	}
	var pe pgvError
	if !errors.As(err, &pe) {
		s.pgv = append(s.pgv, &Violation{Msg: m, Path: prefix, Reason: err.Error(), Pos: s.cfg.Sources.Pos(m)})
		return
	}
	name, key := splitIndex(pe.Field())
	fd := fieldByGoName(m.ProtoReflect().Descriptor(), name)
	if fd == nil {
		s.pgv = append(s.pgv, &Violation{Msg: m, Path: prefix, Reason: pe.Field() + ": " + pe.Reason(), Pos: s.cfg.Sources.Pos(m)})
		return
	}
	path := joinPath(prefix, string(fd.Name()))
	if key != "" {
		path += "[" + key + "]"
	}
	if cause := pe.Cause(); cause != nil && fd.Message() != nil {
		if child := childMessage(m.ProtoReflect(), fd, key); child != nil {
			s.collect(child, path, cause)
			return
		}
	}
	pos := s.cfg.Sources.ValuePos(m, string(fd.Name()))
	if key != "" && fd.IsList() && fd.Message() == nil {
		if i, err := strconv.Atoi(key); err == nil {
			pos = s.cfg.Sources.ElemPos(m, string(fd.Name()), i)
		}
	}
	reason := pe.Reason()
	if c := pe.Cause(); c != nil {
		reason += ": " + c.Error()
	}
	s.pgv = append(s.pgv, &Violation{Msg: m, Field: string(fd.Name()), Path: path, Reason: reason, Pos: pos})
}

func joinPath(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// splitIndex splits "Endpoints[3]" into "Endpoints", "3".
func splitIndex(f string) (string, string) {
	if i := strings.IndexByte(f, '['); i >= 0 && strings.HasSuffix(f, "]") {
		return f[:i], f[i+1 : len(f)-1]
	}
	return f, ""
}

// fieldByGoName finds the field protoc-gen-go names goName (PGV reports Go
// field names: load_balancing_weight is LoadBalancingWeight).
func fieldByGoName(md protoreflect.MessageDescriptor, goName string) protoreflect.FieldDescriptor {
	fs := md.Fields()
	for i := 0; i < fs.Len(); i++ {
		if camel(string(fs.Get(i).Name())) == goName {
			return fs.Get(i)
		}
	}
	return nil
}

// camel is protoc-gen-go's GoCamelCase for the plain snake_case names
// Envoy's protos use.
func camel(s string) string {
	var b strings.Builder
	up := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_':
			up = true
			continue
		case up && c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		}
		up = c >= '0' && c <= '9'
		b.WriteByte(c)
	}
	return b.String()
}

func childMessage(m protoreflect.Message, fd protoreflect.FieldDescriptor, key string) proto.Message {
	switch {
	case fd.IsList():
		i, err := strconv.Atoi(key)
		l := m.Get(fd).List()
		if err != nil || i < 0 || i >= l.Len() {
			return nil
		}
		return l.Get(i).Message().Interface()
	case fd.IsMap():
		if fd.MapKey().Kind() != protoreflect.StringKind || fd.MapValue().Message() == nil {
			return nil
		}
		v := m.Get(fd).Map().Get(protoreflect.ValueOfString(key).MapKey())
		if !v.IsValid() {
			return nil
		}
		return v.Message().Interface()
	case key == "":
		if !m.Has(fd) {
			return nil
		}
		return m.Get(fd).Message().Interface()
	}
	return nil
}

// walkAny calls f for every Any set anywhere inside m (not inside the Any
// itself: its payload is validated as its own root).
func walkAny(m protoreflect.Message, path string, f func(*anypb.Any, string)) {
	w := anyWalker{f: f, segs: []pathSeg{{name: path}}}
	w.walk(m)
}

// anyWalker keeps the path as segments and spells it only for an Any
// found: building a string per field visited was most of LB1000's time.
type anyWalker struct {
	f    func(*anypb.Any, string)
	segs []pathSeg
}

// pathSeg is a field name (joined with '.'), or a list index or map key
// of the field before it.
type pathSeg struct {
	name  string
	index int
	key   *protoreflect.MapKey
	elem  bool
}

func (w *anyWalker) path() string {
	p := ""
	for _, s := range w.segs {
		switch {
		case !s.elem:
			p = joinPath(p, s.name)
		case s.key != nil:
			p += "[" + s.key.String() + "]"
		default:
			p += "[" + strconv.Itoa(s.index) + "]"
		}
	}
	return p
}

func (w *anyWalker) visit(mv protoreflect.Message) {
	if a, ok := mv.Interface().(*anypb.Any); ok {
		w.f(a, w.path())
		return
	}
	w.walk(mv)
}

func (w *anyWalker) walk(m protoreflect.Message) {
	// Only the fields that can lead to an Any, in declaration order
	// (Range's order is unspecified; protobuf-go shuffles it per build).
	for _, fd := range anyFields(m.Descriptor()) {
		if !m.Has(fd) {
			continue
		}
		v := m.Get(fd)
		w.segs = append(w.segs, pathSeg{name: string(fd.Name())})
		switch {
		case fd.IsList():
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				w.segs = append(w.segs, pathSeg{index: i, elem: true})
				w.visit(l.Get(i).Message())
				w.segs = w.segs[:len(w.segs)-1]
			}
		case fd.IsMap():
			v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
				w.segs = append(w.segs, pathSeg{key: &k, elem: true})
				w.visit(mv.Message())
				w.segs = w.segs[:len(w.segs)-1]
				return true
			})
		default:
			w.visit(v.Message())
		}
		w.segs = w.segs[:len(w.segs)-1]
	}
}

// anyFieldsOf caches anyFields per message type.
var anyFieldsOf sync.Map // protoreflect.FullName -> []protoreflect.FieldDescriptor

// anyFields lists md's fields whose value can hold an Any at any depth.
func anyFields(md protoreflect.MessageDescriptor) []protoreflect.FieldDescriptor {
	if v, ok := anyFieldsOf.Load(md.FullName()); ok {
		return v.([]protoreflect.FieldDescriptor)
	}
	var out []protoreflect.FieldDescriptor
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		if fd := fields.Get(i); fd.Message() != nil && mayHoldAny(fd) {
			out = append(out, fd)
		}
	}
	anyFieldsOf.Store(md.FullName(), out)
	return out
}

// anyReach caches, per message type, whether an Any can be reached from
// it: most of a cluster (endpoints, addresses, durations) cannot, and
// walking it built a path string per field for nothing.
var anyReach sync.Map // protoreflect.FullName -> bool

// mayHoldAny says whether field fd's value (a message, list or map of
// messages) can hold an Any at any depth.
func mayHoldAny(fd protoreflect.FieldDescriptor) bool {
	md := fd.Message()
	if fd.IsMap() {
		md = fd.MapValue().Message()
	}
	if md == nil {
		return false
	}
	if v, ok := anyReach.Load(md.FullName()); ok {
		return v.(bool)
	}
	// A fresh search per type: caching the types met on the way would be
	// wrong inside a cycle still being searched.
	yes := reachesAny(md, map[protoreflect.FullName]bool{})
	anyReach.Store(md.FullName(), yes)
	return yes
}

func reachesAny(md protoreflect.MessageDescriptor, seen map[protoreflect.FullName]bool) bool {
	if md.FullName() == "google.protobuf.Any" {
		return true
	}
	if seen[md.FullName()] {
		return false
	}
	seen[md.FullName()] = true
	fields := md.Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		sub := fd.Message()
		if fd.IsMap() {
			sub = fd.MapValue().Message()
		}
		if sub != nil && reachesAny(sub, seen) {
			return true
		}
	}
	return false
}

// pgvRule builds a rule reporting the violations match selects (and
// claims them, so LB1000 does not report them again).
func pgvRule(match func(v *Violation) bool) func(p *Pass) {
	return func(p *Pass) {
		for _, v := range p.Violations() {
			if match(v) {
				v.Claimed = true
				p.Report(v.Pos, "%s: %s", v.Path, v.Reason)
			}
		}
	}
}

// fieldIs matches violations of the named fields of message type typ.
func fieldIs(typ string, fields ...string) func(v *Violation) bool {
	return func(v *Violation) bool {
		if v.Type() != typ {
			return false
		}
		for _, f := range fields {
			if v.Field == f {
				return true
			}
		}
		return false
	}
}

// uintValue reads v's field as an unsigned integer (wrappers unwrapped);
// ok is false for other kinds.
func (v *Violation) uintValue() (uint64, bool) {
	if v.Field == "" {
		return 0, false
	}
	m := v.Msg.ProtoReflect()
	fd := m.Descriptor().Fields().ByName(protoreflect.Name(v.Field))
	if fd == nil || fd.IsList() || fd.IsMap() {
		return 0, false
	}
	val := m.Get(fd)
	if fd.Message() != nil {
		inner := val.Message()
		vf := inner.Descriptor().Fields().ByName("value")
		if vf == nil {
			return 0, false
		}
		fd, val = vf, inner.Get(vf)
	}
	switch fd.Kind() {
	case protoreflect.Uint32Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind:
		return val.Uint(), true
	}
	return 0, false
}

// ringMinZero matches RingHash.minimum_ring_size == 0 (PGV-RINGHASH-MIN-ZERO,
// reported apart from PGV-RING-SIZE-MAX).
func ringMinZero(v *Violation) bool {
	if v.Type() != "envoy.extensions.load_balancing_policies.ring_hash.v3.RingHash" || v.Field != "minimum_ring_size" {
		return false
	}
	n, ok := v.uintValue()
	return ok && n == 0
}

// typedLBRequired lists the typed policies whose required children
// PGV-TYPED-LB-REQUIRED covers.
var typedLBRequired = map[string]bool{
	"envoy.extensions.load_balancing_policies.wrr_locality.v3.WrrLocality":           true,
	"envoy.extensions.load_balancing_policies.subset.v3.Subset":                      true,
	"envoy.extensions.load_balancing_policies.random_subsetting.v3.RandomSubsetting": true,
	"envoy.extensions.load_balancing_policies.override_host.v3.OverrideHost":         true,
}
