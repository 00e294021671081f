package cmdutil

import (
	"errors"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
)

// A --set-health naming no cluster is a usage error from CheckWhatIf, so
// explain, sweep, route and test's reports all refuse it alike, the
// spec escaped.
func TestCheckWhatIfSetHealth(t *testing.T) {
	cfg, err := config.LoadBytes("agg.yaml", []byte(aggSubsetYAML), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ spec, want string }{
		{"sub/0=50", ""},
		{"nope=50", "--set-health nope=50: no such cluster; the clusters are: agg, plain, sub"},
		{"x\x1b[2J=50", `--set-health x\x1b[2J=50: no such cluster; the clusters are: agg, plain, sub`},
	} {
		o, err := model.ParseHealthOverride(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckWhatIf(cfg, model.Options{SetHealth: []model.HealthOverride{o}})
		var ee *ExitError
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.spec, err)
		case c.want != "" && (!errors.As(err, &ee) || ee.Code != ExitUsage || ee.Msg != c.want):
			t.Errorf("%q: %#v, want usage error %q", c.spec, err, c.want)
		}
	}
}
