package expect

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/option"
)

func TestOKFixturePasses(t *testing.T) {
	_, rep := reportsOf(t, fixtureConfigs...)
	res, err := Run([]*File{parseFile(t, "../../fixtures/tests/ok.yaml")}, rep)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Passed != 4 || res.Summary.Failed != 0 || len(res.Tests) != 4 {
		b, _ := json.Marshal(res)
		t.Fatalf("want 4 passed: %s", b)
	}
	if res.Tests[0].At != "../../fixtures/tests/ok.yaml:4:9" {
		t.Errorf("first test at %s, want its name's position 4:9", res.Tests[0].At)
	}
}

func TestFailingFixture(t *testing.T) {
	_, rep := reportsOf(t, fixtureConfigs...)
	res, err := Run([]*File{parseFile(t, "../../fixtures/tests/failing.yaml")}, rep)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	const p = "../../fixtures/tests/failing.yaml"
	want := `{"tests":[` +
		`{"name":"P0 should keep 90%","passed":false,"at":"` + p + `:3:9","failures":[{"expect":"priority_load.0","want":"\u003e= 90","got":70,"at":"` + p + `:6:24"}],"not_checked":[]},` +
		`{"name":"no panic anywhere","passed":true,"at":"` + p + `:8:9","failures":[],"not_checked":[]},` +
		`{"name":"hosts evenly loaded","passed":false,"at":"` + p + `:12:9","failures":[` +
		`{"expect":"max_host_share","want":"\u003c= 0.1","got":0.14,"at":"` + p + `:15:21"},` +
		`{"expect":"budget.1.before_total_panic","want":"\u003c 100","got":null,"at":"` + p + `:16:38"}],"not_checked":[]}],` +
		`"summary":{"passed":1,"failed":2,"not_checked":0}}`
	if string(b) != want {
		t.Errorf("got\n%s\nwant\n%s", b, want)
	}
}

// Every broken fixture is refused with each problem at its place and the
// nearest valid name: a typo never passes.
func TestBrokenFixtures(t *testing.T) {
	_, rep := reportsOf(t, fixtureConfigs...)
	cases := map[string][]string{
		"unknown-keys.yaml": {
			`:3:3: unknown test key "clustr"; the closest test key is cluster`,
			`:5:5: unknown expect key "priority_lod"; the closest expect key is priority_load`,
		},
		"unknown-names.yaml": {
			`:3:12: no cluster "backnd"; the closest cluster is backend`,
			`:9:21: priority_load.2: no priority "2"; the closest priority is 0`,
			`:10:18: host_share.10.0.0.1:8081: no host "10.0.0.1:8081"; the closest host is 10.0.0.1:8080`,
			`:11:22: locality_share.us-east/a: no locality "us-east/a"; there is no locality`,
		},
		"duplicate.yaml": {`:5:9: test "same" is already defined at ../../fixtures/tests/broken/duplicate.yaml:2:9`},
		"bad-values.yaml": {
			`:5:18: ` + option.SetHealth.String() + ` "backend=200"`,
			`:6:11: zone "nowhere": expected REGION/ZONE`,
			`:8:24: priority_load.0: expected a number or a comparison`,
			`:9:16: panic.0: expected true or false, found "no"`,
			`:10:18: unknown budget key "before_spil"; the closest budget key is before_spill`,
		},
	}
	for name, wants := range cases {
		path := "../../fixtures/tests/broken/" + name
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Parse(path, data)
		if err == nil {
			_, err = Run([]*File{f}, rep)
		}
		var ie InputErrors
		if !errors.As(err, &ie) {
			t.Errorf("%s: want input errors, got %v", name, err)
			continue
		}
		if len(ie) != len(wants) {
			t.Errorf("%s: %d errors, want %d:\n%v", name, len(ie), len(wants), err)
			continue
		}
		for i, w := range wants {
			if got := ie[i].Error(); !strings.Contains(got, path+w) {
				t.Errorf("%s: error %d is\n%s\nwant it to contain\n%s", name, i, got, path+w)
			}
		}
	}
}
