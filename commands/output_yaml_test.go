package commands

import (
	"os"
	"path/filepath"
	"testing"

	"go.yaml.in/yaml/v3"
)

// -o yaml keeps names exact as -o json does: a bidi mark or a C1 control
// in a cluster name is escaped by the output guard inside a double-quoted
// scalar, so it reads back as the character, not as "\u202e" text.
func TestYAMLOutputReadsBackEscapedNames(t *testing.T) {
	name := "a\u202eb\u0085c\u200bd"
	p := filepath.Join(t.TempDir(), "bidi.yaml")
	src := "name: \"a\\u202eb\\u0085c\\u200bd\"\ntype: STATIC\nconnect_timeout: 1s\nload_assignment:\n  cluster_name: x\n" +
		"  endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}}]}]\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := run(t, "", "explain", "-o", "yaml", p)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Clusters []struct{ Name string }
	}
	if err := yaml.Unmarshal([]byte(out), &r); err != nil || len(r.Clusters) != 1 {
		t.Fatalf("%v %+v\n%s", err, r, out)
	}
	if r.Clusters[0].Name != name {
		t.Errorf("name read back as %q, want %q\n%s", r.Clusters[0].Name, name, out)
	}
}
