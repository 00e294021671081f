package route

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/lbctl/lbctl/analyze/config"
)

// regexConfig is a route configuration whose one route matches a header
// against pattern.
func regexConfig(t testing.TB, pattern string) (*config.Config, error) {
	p, _ := json.Marshal(pattern)
	doc := `{"name": "re", "virtual_hosts": [{"name": "v", "domains": ["*"], "routes": [
	  {"match": {"prefix": "/", "headers": [{"name": "x", "string_match": {"safe_regex": {"regex": ` + string(p) + `}}}]}, "route": {"cluster": "a"}},
	  {"match": {"prefix": "/"}, "route": {"cluster": "b"}}]}]}`
	return config.LoadBytes("re.json", []byte(doc), "")
}

// TestRegexLimits: a pattern Go's RE2 cannot compile, or over our size
// limits, refuses the configuration with a clear error at its position.
func TestRegexLimits(t *testing.T) {
	for _, c := range []struct{ pattern, want string }{
		{"(+invalid regex)", "does not compile: error parsing regexp: missing argument to repetition operator"},
		{strings.Repeat("a", MaxRegexLen+1), "over lbctl's limit of 16384"},
		{strings.Repeat("[a-z]{1000}", 30), "instructions, over lbctl's limit of 20000"},
		{`(?<name>x)\C`, "does not compile"},
	} {
		cfg, err := regexConfig(t, c.pattern)
		if err != nil {
			t.Fatalf("load: %v", err)
		}
		_, err = Build(cfg, Request{Authority: "h", Path: "/"}, Options{}, Balancers{})
		var ue *UsageError
		if err == nil || errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "re.json:2:87: ") {
			t.Errorf("%.40q: %v, want an input error with %q", c.pattern, err, c.want)
		}
	}
}

// FuzzRoute: hostile requests and config regexes never panic and finish
// in bounded time (Go's regexp is linear-time; our limits bound its size).
func FuzzRoute(f *testing.F) {
	f.Add("shop.example:8080", "/api/../x?y=1#f", "x-user", "al\x00ice", "(a+)+$", uint64(7))
	f.Add("[::1]:80", "", ":authority", "", `^\d{3}$`, uint64(0))
	f.Add("*.", "/videos/1/2", "content-type", "application/grpc+", ".*", uint64(1<<63))
	fixture := loadFile(f, "../../fixtures/route/matching.yaml")
	f.Fuzz(func(t *testing.T, authority, path, name, value, pattern string, rnd uint64) {
		start := time.Now()
		req := Request{Authority: authority, Path: path, Headers: [][2]string{{name, value}, {"x", value}}, RandomValue: &rnd,
			Cookies: [][2]string{{name, value}}}
		if r, err := Build(fixture, req, Options{}, Balancers{}); err == nil {
			out, _ := json.Marshal(r)
			for _, s := range append(r.Steps(), string(out)) {
				if strings.ContainsAny(s, "\x00\x1b\r\n") {
					t.Fatalf("control character in output: %q", s)
				}
			}
		}
		if cfg, err := regexConfig(t, pattern); err == nil {
			_, _ = Build(cfg, req, Options{}, Balancers{})
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("took %v", d)
		}
	})
}
