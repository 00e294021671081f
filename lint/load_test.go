package lint

import (
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
)

// TestUnknownFieldOncePerFile: outside LB config, one unknown field name is
// one warning per file (with its count) unless strict, which lists each.
func TestUnknownFieldOncePerFile(t *testing.T) {
	cfg, _ := config.LoadBytes("uf.yaml", []byte(`static_resources:
  listeners:
  - name: a
    address: {socket_address: {address: 0.0.0.0, port_value: 1}}
    bogus_thing: 1
  - name: b
    address: {socket_address: {address: 0.0.0.0, port_value: 2}}
    bogus_thing: 2
`), "")
	count := func(fs []Finding) (n int, msg string) {
		for _, f := range fs {
			if f.Rule == "LB0003" {
				n++
				msg = f.Message
			}
		}
		return
	}
	n, msg := count(Run(cfg, Options{}))
	if n != 1 || !strings.Contains(msg, "(2 times in this file") {
		t.Errorf("default: %d LB0003 findings (%q), want 1 with its count", n, msg)
	}
	if n, _ := count(Run(cfg, Options{Strict: true})); n != 2 {
		t.Errorf("strict: %d LB0003 findings, want 2", n)
	}
}
