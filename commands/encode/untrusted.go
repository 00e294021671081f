package encode

import (
	"reflect"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
)

// EscapeStrings escapes, in place, every string a report holds (cluster,
// host, locality, route and metadata names come from the input) before the
// text renderers lay them out: a newline in a cluster name must not start
// a new row, an escape sequence must not reach the terminal. JSON and YAML
// escape on their own and keep the values exact.
func EscapeStrings(v any) {
	walkReport(v, reportVisitor{
		str: func(rv reflect.Value) {
			if e := config.Escape(rv.String()); e != rv.String() {
				rv.SetString(e)
			}
		},
		mapKey: func(k reflect.Value) reflect.Value {
			if k.Kind() != reflect.String {
				return k
			}
			e := config.Escape(k.String())
			if e == k.String() {
				return k
			}
			nk := reflect.New(k.Type()).Elem()
			nk.SetString(e)
			return nk
		},
	})
}

// EmptySlices sets every nil slice field of lbctl's report types that JSON
// and YAML would print as null (no omitempty) to an empty slice: the
// contract's lists are [] when empty ("notes": [], never null).
func EmptySlices(v any) {
	walkReport(v, reportVisitor{
		field: func(f reflect.Value, sf reflect.StructField) {
			tag := sf.Tag.Get("json")
			if f.Kind() == reflect.Slice && f.IsNil() && tag != "-" && !strings.Contains(tag, "omitempty") {
				f.Set(reflect.MakeSlice(f.Type(), 0, 0))
			}
		},
	})
}

// reportVisitor is what walkReport does at each settable struct field
// (before entering it), string and map key (returning the key to keep).
type reportVisitor struct {
	field  func(f reflect.Value, sf reflect.StructField)
	str    func(rv reflect.Value)
	mapKey func(k reflect.Value) reflect.Value
}

// walkReport visits, in place, every value reachable from v through
// lbctl's own types; protobuf messages and unexported state are left
// alone, and shared pointers and slices are entered once. A pointer and a
// slice are the same only with the same address, type and length: a
// pointer to a slice's first element, or a shorter slice of the same
// array, must not hide the rest (visitors are idempotent).
func walkReport(v any, vis reportVisitor) {
	type ref struct {
		addr uintptr
		typ  reflect.Type
		n    int
	}
	seen := map[ref]bool{}
	var walk func(rv reflect.Value, depth int)
	walk = func(rv reflect.Value, depth int) {
		if depth > 64 {
			return
		}
		switch rv.Kind() {
		case reflect.Pointer:
			r := ref{rv.Pointer(), rv.Type(), 0}
			if rv.IsNil() || seen[r] {
				return
			}
			seen[r] = true
			walk(rv.Elem(), depth+1)
		case reflect.Interface:
			if !rv.IsNil() && rv.Elem().Kind() == reflect.Pointer {
				walk(rv.Elem(), depth+1)
			}
		case reflect.Struct:
			if p := rv.Type().PkgPath(); p != "" && !strings.HasPrefix(p, "github.com/lbctl/lbctl") {
				return
			}
			for i := 0; i < rv.NumField(); i++ {
				f := rv.Field(i)
				if !f.CanSet() {
					continue
				}
				if vis.field != nil {
					vis.field(f, rv.Type().Field(i))
				}
				walk(f, depth+1)
			}
		case reflect.Slice, reflect.Array:
			if rv.Kind() == reflect.Slice && rv.Len() > 0 {
				r := ref{rv.Pointer(), rv.Type(), rv.Len()}
				if seen[r] {
					return
				}
				seen[r] = true
			}
			for i := 0; i < rv.Len(); i++ {
				if e := rv.Index(i); e.CanSet() {
					walk(e, depth+1)
				}
			}
		case reflect.Map:
			if rv.IsNil() || (vis.mapKey != nil && !rv.CanSet()) {
				return
			}
			for _, k := range rv.MapKeys() {
				val := reflect.New(rv.Type().Elem()).Elem()
				val.Set(rv.MapIndex(k))
				walk(val, depth+1)
				nk := k
				if vis.mapKey != nil {
					if nk = vis.mapKey(k); nk.Interface() != k.Interface() {
						rv.SetMapIndex(k, reflect.Value{})
					}
				}
				rv.SetMapIndex(nk, val)
			}
		case reflect.String:
			if rv.CanSet() && vis.str != nil {
				vis.str(rv)
			}
		}
	}
	walk(reflect.ValueOf(v), 0)
}
