package commands

import (
	"reflect"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
)

// escapeStrings escapes, in place, every string a report holds (cluster,
// host, locality, route and metadata names come from the input) before the
// text renderers lay them out: a newline in a cluster name must not start
// a new row, an escape sequence must not reach the terminal. JSON and YAML
// escape on their own and keep the values exact. Only lbctl's own types
// are entered; protobuf messages and unexported state are left alone.
func escapeStrings(v any) {
	seen := map[uintptr]bool{}
	var walk func(rv reflect.Value, depth int)
	walk = func(rv reflect.Value, depth int) {
		if depth > 64 {
			return
		}
		switch rv.Kind() {
		case reflect.Pointer:
			if rv.IsNil() || seen[rv.Pointer()] {
				return
			}
			seen[rv.Pointer()] = true
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
				if f := rv.Field(i); f.CanSet() {
					walk(f, depth+1)
				}
			}
		case reflect.Slice, reflect.Array:
			if rv.Kind() == reflect.Slice && rv.Len() > 0 && seen[rv.Pointer()] {
				return
			}
			if rv.Kind() == reflect.Slice && rv.Len() > 0 {
				seen[rv.Pointer()] = true
			}
			for i := 0; i < rv.Len(); i++ {
				if e := rv.Index(i); e.CanSet() {
					walk(e, depth+1)
				}
			}
		case reflect.Map:
			if rv.IsNil() || !rv.CanSet() {
				return
			}
			for _, k := range rv.MapKeys() {
				val := reflect.New(rv.Type().Elem()).Elem()
				val.Set(rv.MapIndex(k))
				walk(val, depth+1)
				nk := k
				if k.Kind() == reflect.String {
					if e := config.Escape(k.String()); e != k.String() {
						nk = reflect.New(k.Type()).Elem()
						nk.SetString(e)
						rv.SetMapIndex(k, reflect.Value{})
					}
				}
				rv.SetMapIndex(nk, val)
			}
		case reflect.String:
			if rv.CanSet() {
				if e := config.Escape(rv.String()); e != rv.String() {
					rv.SetString(e)
				}
			}
		}
	}
	walk(reflect.ValueOf(v), 0)
}

// emptySlices sets every nil slice field of lbctl's report types that JSON
// and YAML would print as null (no omitempty) to an empty slice: the
// contract's lists are [] when empty ("notes": [], never null).
func emptySlices(v any) {
	seen := map[uintptr]bool{}
	var walk func(rv reflect.Value, depth int)
	walk = func(rv reflect.Value, depth int) {
		if depth > 64 {
			return
		}
		switch rv.Kind() {
		case reflect.Pointer:
			if rv.IsNil() || seen[rv.Pointer()] {
				return
			}
			seen[rv.Pointer()] = true
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
				f, sf := rv.Field(i), rv.Type().Field(i)
				if !f.CanSet() {
					continue
				}
				tag := sf.Tag.Get("json")
				if f.Kind() == reflect.Slice && f.IsNil() && tag != "-" && !strings.Contains(tag, "omitempty") {
					f.Set(reflect.MakeSlice(f.Type(), 0, 0))
				}
				walk(f, depth+1)
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < rv.Len(); i++ {
				if e := rv.Index(i); e.CanSet() {
					walk(e, depth+1)
				}
			}
		case reflect.Map:
			if rv.IsNil() {
				return
			}
			for _, k := range rv.MapKeys() {
				val := reflect.New(rv.Type().Elem()).Elem()
				val.Set(rv.MapIndex(k))
				walk(val, depth+1)
				rv.SetMapIndex(k, val)
			}
		}
	}
	walk(reflect.ValueOf(v), 0)
}
