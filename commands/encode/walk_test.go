package encode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/diff"
	"github.com/lbctl/lbctl/analyze/hashing"
	"github.com/lbctl/lbctl/analyze/observe"
	"github.com/lbctl/lbctl/analyze/proxyless"
	"github.com/lbctl/lbctl/analyze/route"
	"github.com/lbctl/lbctl/analyze/session"
	"github.com/lbctl/lbctl/analyze/subset"
	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/analyze/watch"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/lbctl/lbctl/lbmodel/failure"
	"go.yaml.in/yaml/v3"
)

// hostile holds what a file may put in a name: a colour sequence, a
// newline, a bell, bidi overrides, a zero-width space, a line separator.
const hostile = "ev\x1b[31mil\nrow\a\u202eesrever\u202c\u200bhid\u2028"

// reports is every report type a command writes; a new report is one line
// here, a new field of one none.
func reports() []any {
	return []any{
		&traffic.Report{}, &hashing.HashReport{}, &subset.SubsetReport{}, &proxyless.SessionReport{},
		&proxyless.BothReport{}, &session.Report{}, &route.Report{}, &observe.Report{}, &watch.Fetch{},
		&diff.Report{}, &failure.Sweep{},
	}
}

// fillHostile sets every exported field reachable from v to a non-zero
// value, every string and string map key to hostile; it returns how many
// strings it set.
func fillHostile(v reflect.Value, depth int) int {
	n := 0
	switch v.Kind() {
	case reflect.Pointer:
		if depth > 8 {
			return 0
		}
		v.Set(reflect.New(v.Type().Elem()))
		n += fillHostile(v.Elem(), depth+1)
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Field(i); f.CanSet() {
				n += fillHostile(f, depth+1)
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			n += fillHostile(v.Index(i), depth+1)
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		n += fillHostile(k, depth+1) + fillHostile(e, depth+1)
		v.SetMapIndex(k, e)
	case reflect.String:
		v.SetString(hostile)
		n++
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(3)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(3)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(0.25)
	}
	return n
}

// strings collects every string and string map key reachable from v.
func collectStrings(v reflect.Value, out *[]string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			collectStrings(v.Elem(), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				collectStrings(v.Field(i), out)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			collectStrings(v.Index(i), out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			collectStrings(k, out)
			collectStrings(v.MapIndex(k), out)
		}
	case reflect.String:
		*out = append(*out, v.String())
	}
}

// rawUnsafe returns the first character in b that must never reach a
// terminal raw (control characters but newline and tab, bidi, zero-width
// and separators), or "".
func rawUnsafe(b []byte) string {
	for _, r := range string(b) {
		if r == '\n' || r == '\t' {
			continue
		}
		if s := string(r); config.Escape(s) != s {
			return fmt.Sprintf("%U", r)
		}
	}
	return ""
}

// TestEveryReportStringEscaped: every string field of every report type,
// found by reflection, holding hostile comes out escaped in text (what
// the renderers are handed), JSON and YAML (through the guard every byte
// passes), and JSON and YAML still read back to the value itself.
func TestEveryReportStringEscaped(t *testing.T) {
	for i := range reports() {
		name := fmt.Sprintf("%T", reports()[i])
		t.Run(name+"/text", func(t *testing.T) {
			v := reports()[i]
			if n := fillHostile(reflect.ValueOf(v).Elem(), 0); n == 0 {
				t.Fatal("no string to fill")
			}
			EscapeStrings(v)
			var got []string
			collectStrings(reflect.ValueOf(v), &got)
			for _, s := range got {
				if s != config.Escape(hostile) {
					t.Fatalf("a string reaches the renderer as %q", s)
				}
			}
		})
		for _, format := range []string{"json", "yaml"} {
			t.Run(name+"/"+format, func(t *testing.T) {
				v := reports()[i]
				fillHostile(reflect.ValueOf(v).Elem(), 0)
				var buf bytes.Buffer
				g := term.NewGuard(&buf)
				var err error
				var back any
				if format == "json" {
					err = JSONOutput(g, v)
				} else {
					EmptySlices(v)
					err = YAML(g, v)
				}
				if err != nil {
					t.Fatal(err)
				}
				if r := rawUnsafe(buf.Bytes()); r != "" {
					t.Fatalf("%s written raw:\n%s", r, buf.String())
				}
				if format == "json" {
					err = json.Unmarshal(buf.Bytes(), &back)
				} else {
					err = yaml.Unmarshal(buf.Bytes(), &back)
				}
				if err != nil {
					t.Fatalf("%v:\n%s", err, buf.String())
				}
				var got []string
				collectStrings(reflect.ValueOf(back), &got)
				exact := 0
				for _, s := range got {
					if s == hostile {
						exact++
					}
				}
				if exact == 0 {
					t.Fatalf("no string reads back as the input's:\n%s", buf.String())
				}
			})
		}
	}
}

// TestWalkPassedByValue: a struct passed by value (a command's output
// that embeds a report by pointer) has what its pointers hold escaped.
func TestWalkPassedByValue(t *testing.T) {
	out := struct {
		*proxyless.SessionReport
		Extra *session.Report
	}{&proxyless.SessionReport{Cluster: "a\nb"}, &session.Report{Reason: "c\x1b"}}
	EscapeStrings(out)
	if out.Cluster != `a\nb` || out.Extra.Reason != `c\x1b` {
		t.Fatalf("%q %q", out.Cluster, out.Extra.Reason)
	}
}

// TestWalkCycles: a report that leads back to itself is walked once.
func TestWalkCycles(t *testing.T) {
	type node struct {
		Name string
		Next *node
		Kids []node
	}
	a := &node{Name: "a\n"}
	a.Next = a
	a.Kids = []node{{Name: "k\n"}}
	a.Kids[0].Kids = a.Kids
	EscapeStrings(a)
	if a.Name != `a\n` || a.Kids[0].Name != `k\n` {
		t.Fatalf("%q %q", a.Name, a.Kids[0].Name)
	}
	if !utf8.ValidString(a.Name) || strings.Count(a.Name, `\`) != 1 {
		t.Fatalf("escaped twice: %q", a.Name)
	}
}
