package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A config_dump is a list of sections, one per ConfigTracker callback
// (Envoy's ConfigDumpHandler::addAllConfigToDump); istioctl, hgctl and
// egctl save those sections one per file, as sections or as bare lists of
// their resources. Read together, the files must give what the one-file
// dump gives: the same lint findings and the same explain report, only
// their file:line positions differ.
func TestSplitDumpIsOneDump(t *testing.T) {
	const whole = "../fixtures/splitdump/dump.json"
	var dump struct {
		Configs []map[string]json.RawMessage `json:"configs"`
	}
	data, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &dump); err != nil {
		t.Fatal(err)
	}
	sections := splitSections(t, dump.Configs)
	bare := splitBare(t, dump.Configs)
	for _, split := range []struct {
		name  string
		files map[string]any
	}{{"sections", sections}, {"bare lists", bare}} {
		t.Run(split.name, func(t *testing.T) {
			dir := t.TempDir()
			var paths []string
			for name, v := range split.files {
				b, err := json.MarshalIndent(v, "", " ")
				if err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(dir, name)
				if err := os.WriteFile(p, b, 0o644); err != nil {
					t.Fatal(err)
				}
				paths = append(paths, p)
			}
			for _, args := range [][]string{
				{"lint", "-o", "json"},
				{"lint", "-o", "json", "--merge"},
				{"-o", "json", "explain"},
			} {
				want, _, wantCode := run(t, "", append(args, whole)...)
				for _, in := range [][]string{{dir}, sortedPaths(paths)} {
					got, errs, code := run(t, "", append(args, in...)...)
					if code != wantCode {
						t.Errorf("%v %v: exit %d, want %d; stderr:\n%s", args, in, code, wantCode, errs)
					}
					if g, w := withoutPositions(t, got), withoutPositions(t, want); g != w {
						t.Errorf("%v on the split files differs from the one-file dump:\n got %s\nwant %s", args, g, w)
					}
				}
			}
		})
	}
}

// splitSections writes each section as its own typed document, as
// `istioctl proxy-config all -o json` pieces and egctl write them.
func splitSections(t *testing.T, configs []map[string]json.RawMessage) map[string]any {
	out := map[string]any{}
	for _, c := range configs {
		var typ string
		if err := json.Unmarshal(c["@type"], &typ); err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(typ[strings.LastIndex(typ, ".")+1:], "ConfigDump")
		out[strings.ToLower(name)+".json"] = c
	}
	return out
}

// splitBare writes the bootstrap as `{bootstrap: …}` without its @type and
// every other section as a bare list of its resources, as `istioctl
// proxy-config bootstrap|cluster|endpoint|listener|route -o json` do.
func splitBare(t *testing.T, configs []map[string]json.RawMessage) map[string]any {
	out := map[string]any{}
	list := func(file string, raw json.RawMessage, key string) {
		var items []map[string]json.RawMessage
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &items); err != nil {
				t.Fatal(err)
			}
		}
		have, _ := out[file].([]json.RawMessage)
		for _, it := range items {
			if key == "active_state" {
				var st map[string]json.RawMessage
				if err := json.Unmarshal(it[key], &st); err != nil {
					t.Fatal(err)
				}
				have = append(have, st["listener"])
				continue
			}
			have = append(have, it[key])
		}
		out[file] = have
	}
	for _, c := range configs {
		switch {
		case c["bootstrap"] != nil:
			out["bootstrap.json"] = map[string]json.RawMessage{"bootstrap": c["bootstrap"], "last_updated": c["last_updated"]}
		case c["dynamic_active_clusters"] != nil:
			list("clusters.json", c["static_clusters"], "cluster")
			list("clusters.json", c["dynamic_active_clusters"], "cluster")
		case c["dynamic_endpoint_configs"] != nil:
			list("endpoints.json", c["static_endpoint_configs"], "endpoint_config")
			list("endpoints.json", c["dynamic_endpoint_configs"], "endpoint_config")
		case c["dynamic_listeners"] != nil:
			list("listeners.json", c["dynamic_listeners"], "active_state")
		case c["dynamic_route_configs"] != nil:
			list("routes.json", c["dynamic_route_configs"], "route_config")
		}
	}
	return out
}

func sortedPaths(p []string) []string {
	out := append([]string{}, p...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

var positionRE = regexp.MustCompile(`[^"\s]*\.json:\d+:\d+`)

// withoutPositions is a JSON output with its file, line and column
// fields and its "file:line:col" strings blanked.
func withoutPositions(t *testing.T, s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	var walk func(any) any
	walk = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "file" || k == "line" || k == "column" {
					v[k] = "-"
					continue
				}
				v[k] = walk(x)
			}
		case []any:
			for i := range v {
				v[i] = walk(v[i])
			}
		case string:
			return positionRE.ReplaceAllString(v, "POS")
		}
		return v
	}
	b, _ := json.Marshal(walk(v))
	return string(b)
}
