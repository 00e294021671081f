package encode

import (
	"reflect"
	"strings"
	"sync"
)

// A shape is what the report walk needs of one type, found by reflection
// once per type (a mesh dump's report has 10^5 host rows of the same few
// types): which fields can hold a string, a number or a list, so that
// everything else is never looked at.
type shape struct {
	kind   reflect.Kind
	fields []fieldShape // struct: the fields worth entering
	elem   *shape       // pointer, slice, array: the element; map: the value
	// deep is set for a type that can reach a string, float, list or
	// interface; a shape without it is skipped.
	deep bool
	// strs is set for a type that can reach a string (escaping skips
	// the rest).
	strs bool
	// own is false for another module's struct (protobuf messages and the
	// like are left alone).
	own bool
	// cyclic is set for a type that can lead back to itself: only
	// pointers and lists of such a type are remembered as entered.
	cyclic bool
	open   bool // being built: met again, the type contains itself
}

// fieldShape is one exported field of a struct shape.
type fieldShape struct {
	index int
	shape *shape
	// listed: a list JSON and YAML print (no omitempty, not "-"), so nil
	// is written as [].
	listed bool
	// skip: a field JSON leaves out (json:"-"); text may still show it.
	skip bool
}

var shapes sync.Map // reflect.Type -> *shape

// shapeOf returns t's shape, building it (and its fields') on first use.
func shapeOf(t reflect.Type) *shape {
	if s, ok := shapes.Load(t); ok {
		return s.(*shape)
	}
	building := map[reflect.Type]*shape{}
	s := buildShape(t, building)
	for bt, bs := range building {
		shapes.LoadOrStore(bt, bs)
	}
	return s
}

func buildShape(t reflect.Type, building map[reflect.Type]*shape) *shape {
	if s, ok := shapes.Load(t); ok {
		return s.(*shape)
	}
	if s := building[t]; s != nil {
		if s.open {
			s.deep, s.strs, s.cyclic = true, true, true // a type that contains itself
		}
		return s
	}
	s := &shape{kind: t.Kind(), open: true}
	building[t] = s
	defer func() { s.open = false }()
	switch s.kind {
	case reflect.String, reflect.Interface:
		s.deep, s.strs = true, true
	case reflect.Float32, reflect.Float64:
		s.deep = true
	case reflect.Pointer, reflect.Array:
		s.elem = buildShape(t.Elem(), building)
		s.deep, s.strs = s.deep || s.elem.deep, s.strs || s.elem.strs
	case reflect.Slice, reflect.Map:
		s.elem = buildShape(t.Elem(), building)
		s.deep = true // a nil list is written as []
		s.strs = s.strs || s.elem.strs || s.kind == reflect.Map && t.Key().Kind() == reflect.String
	case reflect.Struct:
		p := t.PkgPath()
		s.own = p == "" || strings.HasPrefix(p, "github.com/lbctl/lbctl")
		if !s.own {
			break
		}
		for i := range t.NumField() {
			sf := t.Field(i)
			if !sf.IsExported() {
				continue
			}
			fs := buildShape(sf.Type, building)
			tag := sf.Tag.Get("json")
			f := fieldShape{index: i, shape: fs, skip: tag == "-",
				listed: sf.Type.Kind() == reflect.Slice && tag != "-" && !strings.Contains(tag, "omitempty")}
			s.fields = append(s.fields, f)
		}
		for _, f := range s.fields {
			s.deep = s.deep || f.shape.deep || f.listed
			s.strs = s.strs || f.shape.strs
		}
	}
	return s
}

// visitor is what walk does at each string, map key, number and nil list.
type visitor struct {
	// str returns the string to keep in place of s.
	str func(s string) string
	// num is called with each float the encoders write; walk stops at
	// the first error.
	num func(f float64) error
	// emptyLists sets nil lists the encoders print to empty ones.
	emptyLists bool
}

// walker carries one walk's state: the values entered (a pointer or a
// slice is the same only with the same address, type and length: a
// pointer to a slice's first element, or a shorter slice of the same
// array, must not hide the rest; visitors are idempotent).
type walker struct {
	vis visitor
	// strsOnly: only strings are visited, so shapes without one are skipped.
	strsOnly bool
	seen     map[ref]bool
	err      error
}

type ref struct {
	addr uintptr
	typ  reflect.Type
	n    int
}

// walk visits, in place, every value reachable from v through lbctl's own
// types: v is a pointer, or a struct whose pointers are followed.
func walk(v any, vis visitor) error {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return nil
	}
	w := walker{vis: vis, strsOnly: vis.num == nil && !vis.emptyLists}
	w.value(rv, shapeOf(rv.Type()), 0)
	return w.err
}

func (w *walker) value(rv reflect.Value, s *shape, depth int) {
	if !s.deep || w.strsOnly && !s.strs || depth > 64 || w.err != nil {
		return
	}
	switch s.kind {
	case reflect.Pointer:
		if rv.IsNil() {
			return
		}
		if s.elem.cyclic && w.entered(ref{rv.Pointer(), rv.Type(), 0}) {
			return
		}
		w.value(rv.Elem(), s.elem, depth+1)
	case reflect.Interface:
		// An interface's value can lead anywhere, back here too.
		if e := rv.Elem(); !rv.IsNil() && e.Kind() == reflect.Pointer && !w.entered(ref{e.Pointer(), e.Type(), 0}) {
			w.value(e, shapeOf(e.Type()), depth+1)
		}
	case reflect.Struct:
		w.fields(rv, s, depth)
	case reflect.Slice, reflect.Array:
		w.list(rv, s, depth)
	case reflect.Map:
		w.mapping(rv, s, depth)
	case reflect.String:
		if w.vis.str != nil && rv.CanSet() {
			if old := rv.String(); old != "" {
				if e := w.vis.str(old); e != old {
					rv.SetString(e)
				}
			}
		}
	case reflect.Float32, reflect.Float64:
		if w.vis.num != nil {
			w.err = w.vis.num(rv.Float())
		}
	}
}

// entered reports whether r was entered before, and remembers it. Values
// of types that cannot lead back to themselves are not remembered (a
// mesh dump's report has 10^5 of them); a value reached twice is then
// visited twice, which the visitors allow.
func (w *walker) entered(r ref) bool {
	if w.seen == nil {
		w.seen = map[ref]bool{}
	}
	if w.seen[r] {
		return true
	}
	w.seen[r] = true
	return false
}

func (w *walker) fields(rv reflect.Value, s *shape, depth int) {
	for _, f := range s.fields {
		if f.skip && w.vis.num != nil {
			continue // not written, so not refused
		}
		fv := rv.Field(f.index)
		if !fv.CanSet() && fv.Kind() != reflect.Pointer {
			// A struct passed by value: its own fields cannot change, but
			// what its pointers point to can (a report embedded by pointer).
			continue
		}
		if f.listed && w.vis.emptyLists && fv.IsNil() {
			fv.Set(reflect.MakeSlice(fv.Type(), 0, 0))
			continue
		}
		w.value(fv, f.shape, depth+1)
	}
}

func (w *walker) list(rv reflect.Value, s *shape, depth int) {
	if !s.elem.deep || rv.Len() == 0 {
		return
	}
	if rv.Kind() == reflect.Slice && s.elem.cyclic && w.entered(ref{rv.Pointer(), rv.Type(), rv.Len()}) {
		return
	}
	for i := range rv.Len() {
		if e := rv.Index(i); e.CanSet() {
			w.value(e, s.elem, depth+1)
		}
	}
}

// mapping visits a map's values and, with str, its string keys (a map's
// values are not addressable: each is copied out, visited and put back).
func (w *walker) mapping(rv reflect.Value, s *shape, depth int) {
	keys := rv.Type().Key().Kind() == reflect.String && w.vis.str != nil
	if rv.IsNil() || !rv.CanInterface() || !s.elem.deep && !keys {
		return
	}
	for _, k := range rv.MapKeys() {
		val := reflect.New(rv.Type().Elem()).Elem()
		val.Set(rv.MapIndex(k))
		w.value(val, s.elem, depth+1)
		nk := k
		if keys {
			if e := w.vis.str(k.String()); e != k.String() {
				nk = reflect.New(k.Type()).Elem()
				nk.SetString(e)
				rv.SetMapIndex(k, reflect.Value{})
			}
		}
		rv.SetMapIndex(nk, val)
	}
}
