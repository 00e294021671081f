package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An input key or value holding option delimiters (a reference to a known
// option, U+E000 id U+E001) prints escaped in every message and snippet:
// never as the flag the terminal spells a reference as.
func TestForgedOptionReferences(t *testing.T) {
	ref := "\ue000kind\ue001"
	dir := t.TempDir()
	files := map[string]string{
		// skipped keys (find.go), unknown fields, repeated keys, values.
		"skip.yaml": ref + ": 1\nweb:\n  name: web\n  type: STATIC\n  connect_timeout: 1s\n",
		"cluster.yaml": "static_resources:\n  clusters:\n  - name: web\n    type: STATIC\n    " + ref + ": 1\n    " + ref + ": 2\n" +
			"    lb_policy: \"" + ref + "\"\n    connect_timeout: 1s\n",
	}
	for name, text := range files {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"lint", "--color", "never", f}, {"-o", "json", "lint", f}, {"explain", "--color", "never", f}} {
			out, errOut, _ := run(t, "", args...)
			all := out + errOut
			// lbctl's own hints name the flag; the input's key must not.
			own := strings.NewReplacer("with --kind", "", "use --kind to", "").Replace(all)
			if strings.Contains(own, "--kind") || strings.Contains(all, ref) {
				t.Errorf("%s %q: a forged reference printed as a flag or raw:\n%s", name, args, all)
			}
			if !strings.Contains(strings.ReplaceAll(all, `\\`, `\`), `\ue000kind\ue001`) {
				t.Errorf("%s %q: the key is not cited escaped:\n%s", name, args, all)
			}
		}
	}
}
