package config

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

// QuickClusterNames (completion's fast path) must offer exactly the
// clusters the full loader defines, for every fixture and corpus file that
// loads: a name offered on TAB is a name --cluster accepts.
func TestQuickClusterNamesMatchLoad(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../../fixtures/*.yaml", "../../fixtures/*/*", corpusDir + "/*/*", "../" + corpusDir + "/*/*"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	n := 0
	for _, f := range files {
		if !yamlOrJSON(f) {
			continue
		}
		cfg, err := Load([]Input{{Path: f}}, "")
		if err != nil {
			continue // broken fixtures: completion offers what it can read
		}
		n++
		want := cfg.ClusterNames()
		sort.Strings(want)
		got := QuickClusterNames([]string{f})
		if len(want) == 0 && len(got) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n quick %q\n load  %q", f, got, want)
		}
	}
	if n == 0 {
		t.Fatal("no file loaded")
	}
	t.Logf("%d files compared", n)
}

func TestQuickClusterNamesEdges(t *testing.T) {
	if got := QuickClusterNames(nil); len(got) != 0 {
		t.Errorf("no files: %q", got)
	}
	// Standard input is never read on a TAB, and missing files are skipped.
	if got := QuickClusterNames([]string{"-", "does-not-exist.yaml", "../../fixtures/broken/malformed.yaml"}); len(got) != 0 {
		t.Errorf("unreadable inputs: %q", got)
	}
	// A directory is read recursively; names appear once, sorted.
	got := QuickClusterNames([]string{"../../fixtures/aggregate.yaml", "../../fixtures"})
	for i := 1; i < len(got); i++ {
		if got[i-1] >= got[i] {
			t.Fatalf("not sorted and unique: %q", got)
		}
	}
	want := map[string]bool{"aggregate_cluster": true, "primary": true, "secondary": true, "tertiary": true}
	for _, g := range got {
		delete(want, g)
	}
	if len(want) != 0 {
		t.Errorf("directory walk missed %v in %q", want, got)
	}
}

// Completion offers the clusters of a carrier's document string and of a
// ConfigMap's, as Load does, and parses no data value that is not
// document-like.
func TestQuickClusterNamesEmbedded(t *testing.T) {
	dir := t.TempDir()
	carrier := "clusters:\n- name: carried\n  value: |\n    name: c1\n    type: STATIC\n    connect_timeout: 1s\n"
	configMap := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: envoy}\ndata:\n  note: \"a: b\"\n  envoy.yaml: |\n" +
		"    static_resources:\n      clusters:\n      - name: c2\n        type: STATIC\n        connect_timeout: 1s\n"
	for name, text := range map[string]string{"carrier.yaml": carrier, "cm.yaml": configMap} {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := Load([]Input{{Path: f}}, "")
		if err != nil {
			t.Fatal(err)
		}
		want := cfg.ClusterNames()
		if got := QuickClusterNames([]string{f}); len(want) != 1 || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: quick %q, load %q", name, got, want)
		}
	}
}
