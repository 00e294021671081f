package encode

import (
	"reflect"
	"testing"

	"github.com/lbctl/lbctl/analyze/traffic"
)

// TestEscapeTrafficStringsMatchesWalk: with every field of every traffic
// type holding a control character, the typed escape leaves the report as
// the reflective walk does (a string field it missed would differ).
func TestEscapeTrafficStringsMatchesWalk(t *testing.T) {
	var a, b traffic.Report
	fillAll(reflect.ValueOf(&a).Elem(), 0)
	fillAll(reflect.ValueOf(&b).Elem(), 0)
	EscapeStrings(&a)
	EscapeTrafficStrings(&b)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("typed escape differs from the walk:\n%+v\n%+v", b, a)
	}
	if a.Clusters[0].Name == "v<\n\x01éstring" {
		t.Fatal("nothing was escaped")
	}
}
