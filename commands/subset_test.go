package commands

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const subsetFixtures = "../fixtures/subset/"

// runSubsetCLI runs the real CLI and returns stdout, stderr and the exit
// code. The environment is emptied so COLUMNS or NO_COLOR cannot change
// the output.
func runSubsetCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runCLI("", only(nil), args...)
}

// subsetJSON is the part of `lbctl subset -o json` the tests read.
type subsetJSON struct {
	Cluster        string `json:"cluster"`
	LbPolicy       string `json:"lb_policy"`
	FallbackPolicy string `json:"fallback_policy"`
	Subsets        []struct {
		Keys   []string       `json:"keys"`
		Values map[string]any `json:"values"`
		Hosts  []string       `json:"hosts"`
	} `json:"subsets"`
	Match  map[string]any   `json:"match"`
	Result subsetResultJSON `json:"result"`
	Routes []struct {
		Route           string           `json:"route"`
		WeightedCluster *int             `json:"weighted_cluster"`
		TrafficShare    float64          `json:"traffic_share"`
		Match           map[string]any   `json:"match"`
		Result          subsetResultJSON `json:"result"`
	} `json:"routes"`
}

type subsetResultJSON struct {
	Hosts          []string `json:"hosts"`
	Source         string   `json:"source"`
	FallbackPolicy *string  `json:"fallback_policy"`
	Reason         string   `json:"reason"`
	NoHealthyHosts bool     `json:"no_healthy_hosts"`
}

func subsetRun(t *testing.T, args ...string) (subsetJSON, string) {
	t.Helper()
	out, errs, code := runSubsetCLI(t, append([]string{"subset", "-o", "json"}, args...)...)
	if code != ExitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	var r subsetJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, out)
	}
	return r, errs
}

var (
	seedProd   = []string{"10.0.0.1:80", "10.0.0.2:80"} // host1, host2
	seedCanary = []string{"10.0.0.3:80"}                // host3
	seedDev    = []string{"10.0.0.4:80"}                // host4
)

func checkResult(t *testing.T, got subsetResultJSON, hosts []string, source, fallback string) {
	t.Helper()
	if !reflect.DeepEqual(got.Hosts, hosts) {
		t.Errorf("hosts = %v, want %v", got.Hosts, hosts)
	}
	if got.Source != source {
		t.Errorf("source = %q, want %q", got.Source, source)
	}
	gotFB := ""
	if got.FallbackPolicy != nil {
		gotFB = *got.FallbackPolicy
	}
	if gotFB != fallback {
		t.Errorf("fallback_policy = %q, want %q", gotFB, fallback)
	}
}

// TestSubsetSeed001MatchTable reproduces the docs' table "Match Criteria →
// Balances Over" (seed 001, spec subset.md §6.8), once with --match and
// once through the routes of seed-routes.yaml.
func TestSubsetSeed001MatchTable(t *testing.T) {
	rows := []struct {
		name     string
		match    []string
		route    string
		hosts    []string
		source   string
		fallback string
	}{
		{"stage: canary", []string{"stage=canary"}, "canary", seedCanary, "subset", ""},
		{"v: 1.2-pre, stage: dev", []string{"v=1.2-pre", "stage=dev"}, "dev", seedDev, "subset", ""},
		{"v: 1.0", []string{`v="1.0"`}, "v-only", seedProd, "fallback", "DEFAULT_SUBSET"},
		{"other: x", []string{"other=x"}, "other", seedProd, "fallback", "DEFAULT_SUBSET"},
		{"(none)", nil, "none", seedProd, "fallback", "DEFAULT_SUBSET"},
	}
	for _, row := range rows {
		t.Run(row.name+"/match", func(t *testing.T) {
			args := []string{subsetFixtures + "seed-cluster.yaml", "--cluster", "cluster-name"}
			for _, m := range row.match {
				args = append(args, "--match", m)
			}
			r, _ := subsetRun(t, args...)
			checkResult(t, r.Result, row.hosts, row.source, row.fallback)
			if row.match == nil && r.Match != nil {
				t.Errorf("match = %v, want null", r.Match)
			}
		})
		t.Run(row.name+"/route", func(t *testing.T) {
			r, _ := subsetRun(t, subsetFixtures+"seed-cluster.yaml", subsetFixtures+"seed-routes.yaml",
				"--cluster", "cluster-name", "--route", row.route)
			checkResult(t, r.Result, row.hosts, row.source, row.fallback)
			if len(r.Routes) != 1 || r.Routes[0].Route != row.route || r.Routes[0].TrafficShare != 1 {
				t.Errorf("routes = %+v, want one evaluation of %s with share 1", r.Routes, row.route)
			}
		})
	}
}

// TestSubsetSeed001Subsets checks the subsets the docs' example builds:
// selector {v, stage} and {stage} over host1..host4.
func TestSubsetSeed001Subsets(t *testing.T) {
	r, _ := subsetRun(t, subsetFixtures+"seed-cluster.yaml", "--cluster", "cluster-name")
	if r.LbPolicy != "LEAST_REQUEST" || r.FallbackPolicy != "DEFAULT_SUBSET" {
		t.Errorf("lb_policy %q fallback_policy %q", r.LbPolicy, r.FallbackPolicy)
	}
	got := map[string][]string{}
	for _, s := range r.Subsets {
		b, _ := json.Marshal(s.Values)
		got[string(b)] = s.Hosts
	}
	want := map[string][]string{
		`{"stage":"prod"}`:              seedProd,
		`{"stage":"prod","v":"1.0"}`:    seedProd,
		`{"stage":"canary"}`:            seedCanary,
		`{"stage":"canary","v":"1.1"}`:  seedCanary,
		`{"stage":"dev"}`:               seedDev,
		`{"stage":"dev","v":"1.2-pre"}`: seedDev,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("subsets = %v, want %v", got, want)
	}
}

// TestSubsetSeed001MergeTable reproduces the docs' table "Route Match
// Criteria × Weighted Cluster Match Criteria → Final" (seed 001, spec §7.3)
// through weighted_clusters routes, and where each final criteria goes.
func TestSubsetSeed001MergeTable(t *testing.T) {
	rows := []struct {
		route  string
		final  map[string]any
		hosts  []string
		source string
	}{
		{"merge-1", map[string]any{"stage": "prod"}, seedProd, "subset"},
		{"merge-2", map[string]any{"v": "1.0", "stage": "prod"}, seedProd, "subset"},
		{"merge-3", map[string]any{"v": "1.0", "stage": "canary"}, seedProd, "fallback"},
		{"merge-4", map[string]any{"v": "1.1", "stage": "canary"}, seedCanary, "subset"},
		{"merge-5", map[string]any{"v": "1.0"}, seedProd, "fallback"},
		{"merge-6", map[string]any{"v": "1.0"}, seedProd, "fallback"},
	}
	for _, row := range rows {
		t.Run(row.route, func(t *testing.T) {
			r, _ := subsetRun(t, subsetFixtures+"seed-cluster.yaml", subsetFixtures+"seed-routes.yaml",
				"--cluster", "cluster-name", "--route", row.route)
			if !reflect.DeepEqual(r.Match, row.final) {
				t.Errorf("match = %v, want %v", r.Match, row.final)
			}
			if len(r.Routes) != 1 || r.Routes[0].WeightedCluster == nil || *r.Routes[0].WeightedCluster != 0 {
				t.Fatalf("routes = %+v, want weighted cluster 0", r.Routes)
			}
			if !reflect.DeepEqual(r.Routes[0].Match, row.final) {
				t.Errorf("routes[0].match = %v, want %v", r.Routes[0].Match, row.final)
			}
			if !reflect.DeepEqual(r.Result.Hosts, row.hosts) || r.Result.Source != row.source {
				t.Errorf("result = %v %s, want %v %s", r.Result.Hosts, r.Result.Source, row.hosts, row.source)
			}
		})
	}
}

// TestSubsetWeightedSplit evaluates both weighted clusters of a 90/10
// canary split (pickWeightedCluster shares w_i/total).
func TestSubsetWeightedSplit(t *testing.T) {
	r, _ := subsetRun(t, subsetFixtures, "--cluster", "cluster-name", "--route", "canary-split")
	if len(r.Routes) != 2 {
		t.Fatalf("routes = %+v, want 2", r.Routes)
	}
	if r.Routes[0].TrafficShare != 0.9 || r.Routes[1].TrafficShare != 0.1 {
		t.Errorf("shares = %v, %v, want 0.9, 0.1", r.Routes[0].TrafficShare, r.Routes[1].TrafficShare)
	}
	checkResult(t, r.Routes[0].Result, seedProd, "subset", "")
	checkResult(t, r.Routes[1].Result, seedCanary, "subset", "")
	if !reflect.DeepEqual(r.Result, r.Routes[0].Result) {
		t.Errorf("top-level result is not the first evaluation's")
	}
}

// TestSubsetMatchValueKinds: --match values are strings unless typed
// (issue 14: v=1.0 used to be the number 1, which never equals the hosts'
// string "1.0": ValueUtil::equal compares kinds first); v:=1.0 is the number.
func TestSubsetMatchValueKinds(t *testing.T) {
	r, errs := subsetRun(t, subsetFixtures+"seed-cluster.yaml", "--cluster", "cluster-name", "--match", "stage=prod", "--match", "v:=1.0")
	if r.Match["v"] != 1.0 {
		t.Errorf("match.v = %#v, want number 1", r.Match["v"])
	}
	checkResult(t, r.Result, seedProd, "fallback", "DEFAULT_SUBSET")
	if !strings.Contains(errs, "--match: warning: v: 1 is a number") {
		t.Errorf("stderr lacks the kind warning:\n%s", errs)
	}
	for _, v := range []string{"v=1.0", `v="1.0"`} {
		r, errs = subsetRun(t, subsetFixtures+"seed-cluster.yaml", "--cluster", "cluster-name", "--match", "stage=prod", "--match", v)
		if r.Match["v"] != "1.0" {
			t.Errorf("%s: match.v = %#v, want the string", v, r.Match["v"])
		}
		checkResult(t, r.Result, seedProd, "subset", "")
		if errs != "" {
			t.Errorf("unexpected stderr: %s", errs)
		}
	}
}

// TestSubsetRouteWithDynamicMetadata: with --route, --match is request
// dynamic metadata merged over the route criteria (Router::Filter,
// dynamic wins): merge-6's {v: "1.0"} plus stage=prod selects a subset.
func TestSubsetRouteWithDynamicMetadata(t *testing.T) {
	r, _ := subsetRun(t, subsetFixtures, "--cluster", "cluster-name", "--route", "merge-6", "--match", "stage=prod")
	if !reflect.DeepEqual(r.Match, map[string]any{"stage": "prod", "v": "1.0"}) {
		t.Errorf("match = %v", r.Match)
	}
	checkResult(t, r.Result, seedProd, "subset", "")
	r, _ = subsetRun(t, subsetFixtures, "--cluster", "cluster-name", "--route", "canary", "--match", "stage=dev")
	checkResult(t, r.Result, seedDev, "subset", "")
}

// TestSubsetSelectorQuirks: initSubsetSelectorMap ignores {stage}'s
// NO_FALLBACK (the path was created by {v, stage}), so "stage: test" takes
// the top-level DEFAULT_SUBSET (spec §6.4, erratum 2); an empty selector is
// dropped. Both are warned about with their positions.
func TestSubsetSelectorQuirks(t *testing.T) {
	r, errs := subsetRun(t, subsetFixtures+"selector-quirks.yaml", "--cluster", "quirks", "--match", "stage=test")
	checkResult(t, r.Result, []string{"10.2.0.1:80"}, "fallback", "DEFAULT_SUBSET")
	for _, want := range []string{
		"selector-quirks.yaml:12:5: warning: subset_selectors[0] has no keys",
		"selector-quirks.yaml:15:5: warning: subset_selectors[2] fallback_policy NO_FALLBACK is ignored",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

// TestSubsetUnhealthySubset: a matched subset never falls back, even with
// no healthy host (upstream issue #25654). In panic (threshold 50) its
// child LB still returns the unhealthy host; with threshold 0 it returns
// none and the request fails.
func TestSubsetUnhealthySubset(t *testing.T) {
	r, _ := subsetRun(t, subsetFixtures+"unhealthy-subset.yaml", "--cluster", "panics", "--match", "stage=canary")
	checkResult(t, r.Result, []string{"10.3.0.2:80"}, "subset", "")
	if !r.Result.NoHealthyHosts {
		t.Error("no_healthy_hosts = false")
	}
	r, _ = subsetRun(t, subsetFixtures+"unhealthy-subset.yaml", "--cluster", "no-panic", "--match", "stage=canary")
	checkResult(t, r.Result, []string{}, "no_host", "")
	out, _, code := runSubsetCLI(t, "subset", subsetFixtures+"unhealthy-subset.yaml", "--cluster", "no-panic", "--match", "stage=canary")
	if code != 0 || !strings.Contains(out, "no host: the request fails") || !strings.Contains(out, "Envoy does not fall back") {
		t.Errorf("text output (exit %d):\n%s", code, out)
	}
}

// TestSubsetTypedPolicy reads the typed Subset extension with
// allow_redundant_keys and its subset_lb_policy child.
func TestSubsetTypedPolicy(t *testing.T) {
	r, _ := subsetRun(t, subsetFixtures+"typed-policy.yaml", "--cluster", "typed", "--match", "stage=canary", "--match", "v=7")
	if r.LbPolicy != "RANDOM" || r.FallbackPolicy != "NO_FALLBACK" {
		t.Errorf("lb_policy %q fallback_policy %q", r.LbPolicy, r.FallbackPolicy)
	}
	checkResult(t, r.Result, []string{"10.5.0.2:80"}, "subset", "")
	r, _ = subsetRun(t, subsetFixtures+"typed-policy.yaml", "--cluster", "typed", "--match", "v=7")
	checkResult(t, r.Result, []string{}, "no_host", "NO_FALLBACK")
}

// TestSubsetRouteProblems: a number criterion against string host values
// and a weighted cluster naming an unknown cluster are warned about at
// their positions; the command still answers.
func TestSubsetRouteProblems(t *testing.T) {
	r, errs := subsetRun(t, subsetFixtures+"seed-cluster.yaml", subsetFixtures+"routes-problems", "--cluster", "cluster-name", "--route", "unquoted")
	checkResult(t, r.Result, seedProd, "fallback", "DEFAULT_SUBSET")
	if len(r.Routes) != 1 || r.Routes[0].TrafficShare != 0.75 {
		t.Errorf("routes = %+v, want one with share 0.75", r.Routes)
	}
	for _, want := range []string{
		"routes.yaml:13:25: warning: metadata_match v: 1 is a number",
		"routes.yaml:18:17: warning: route \"unquoted\" sends traffic to cluster \"missing-cluster\"",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

// TestSubsetErrors checks exit codes and positioned messages.
func TestSubsetErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"keys subset equal to keys", []string{subsetFixtures + "keys-subset-equal.yaml", "--cluster", "bad-keys"}, ExitInput,
			"keys-subset-equal.yaml:10:5: subset_selectors[0]: fallback_keys_subset cannot be equal to keys"},
		{"typed and legacy together", []string{subsetFixtures + "both-configs.yaml", "--cluster", "both"}, ExitInput,
			"both-configs.yaml:5:1: cluster: load_balancing_policy cannot be combined with lb_subset_config"},
		{"missing file", []string{subsetFixtures + "nope.yaml", "--cluster", "x"}, ExitInput, "nope.yaml: no such file or directory"},
		// Needed only when the input holds several clusters.
		{"no --cluster", []string{subsetFixtures + "seed-cluster.yaml", subsetFixtures + "unhealthy-subset.yaml"}, ExitUsage, "--cluster NAME is required"},
		{"unknown cluster", []string{subsetFixtures + "seed-cluster.yaml", "--cluster", "nope"}, ExitUsage, `--cluster "nope": no such cluster`},
		{"no subset config", []string{"../fixtures/aggregate.yaml", "--cluster", "primary"}, ExitUsage, `cluster "primary" has no subset load balancing`},
		{"bad --match", []string{subsetFixtures + "seed-cluster.yaml", "--cluster", "cluster-name", "--match", "stage"}, ExitUsage, `--match "stage": expected KEY=VALUE`},
		{"repeated --match key", []string{subsetFixtures + "seed-cluster.yaml", "--cluster", "cluster-name", "--match", "a=1", "--match", "a=2"}, ExitUsage, `key "a" is given twice`},
		{"unknown route", []string{subsetFixtures, "--cluster", "cluster-name", "--route", "nope"}, ExitUsage, `--route "nope": no such route; the routes are: canary, canary-split`},
		{"route to another cluster", []string{subsetFixtures, "--cluster", "quirks", "--route", "canary"}, ExitUsage, `--route "canary" does not send traffic to cluster "quirks"; it targets: cluster-name`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := runSubsetCLI(t, append([]string{"subset"}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, errs)
			}
			if !strings.Contains(errs, c.want) {
				t.Errorf("stderr lacks %q:\n%s", c.want, errs)
			}
			if out != "" {
				t.Errorf("stdout not empty:\n%s", out)
			}
			if strings.Contains(errs, "goroutine") || strings.Contains(errs, "internal error") {
				t.Errorf("panic:\n%s", errs)
			}
		})
	}
}

// TestSubsetTextAndYAML checks the text decision path and that YAML output
// carries the same result.
func TestSubsetTextAndYAML(t *testing.T) {
	out, _, code := runSubsetCLI(t, "subset", subsetFixtures+"seed-cluster.yaml", "--cluster", "cluster-name", "--match", `v="1.0"`)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{
		`{stage: "prod", v: "1.0"}         2  10.0.0.1:80, 10.0.0.2:80  selector 0`,
		`no subset for {v: "1.0"}; fallback DEFAULT_SUBSET {stage: "prod"} -> 10.0.0.1:80, 10.0.0.2:80`,
		`-> fallback (DEFAULT_SUBSET): 10.0.0.1:80, 10.0.0.2:80`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	out, _, code = runSubsetCLI(t, "subset", "-o", "yaml", subsetFixtures+"seed-cluster.yaml", "--cluster", "cluster-name", "--match", "stage=canary")
	var y struct {
		Match  map[string]any `yaml:"match"`
		Result struct {
			Hosts  []string `yaml:"hosts"`
			Source string   `yaml:"source"`
		} `yaml:"result"`
	}
	if err := yaml.Unmarshal([]byte(out), &y); err != nil || code != 0 {
		t.Fatalf("yaml: %v (exit %d)\n%s", err, code, out)
	}
	if y.Match["stage"] != "canary" || !reflect.DeepEqual(y.Result.Hosts, seedCanary) || y.Result.Source != "subset" {
		t.Errorf("yaml result = %+v", y)
	}
}

// TestSubsetExplainSummary: explain on a subset cluster lists its subsets,
// its fallback and where each route reaching it goes.
func TestSubsetExplainSummary(t *testing.T) {
	out, errs, code := runSubsetCLI(t, "explain", "-o", "json", subsetFixtures+"seed-cluster.yaml", subsetFixtures+"seed-routes.yaml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Clusters []struct {
			Notes []string `json:"notes"`
		} `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Clusters) != 1 {
		t.Fatalf("bad report: %v\n%s", err, out)
	}
	notes := strings.Join(r.Clusters[0].Notes, "\n")
	for _, want := range []string{
		`subset load balancing (lb_subset_config, LEAST_REQUEST inside each subset): 6 subset(s)`,
		`fallback DEFAULT_SUBSET {stage: "prod"} (2 host(s))`,
		`route canary carries {stage: "canary"} → subset: 10.0.0.3:80`,
		`route merge-3 (weighted cluster 0, 100% of its requests) carries {stage: "canary", v: "1.0"} → fallback: 10.0.0.1:80, 10.0.0.2:80`,
		`route canary-split (weighted cluster 1, 10% of its requests) carries {stage: "canary"} → subset: 10.0.0.3:80`,
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	// Envoy rejects the cluster at load: an input error at lb_subset_config.
	out, errOut, code := runSubsetCLI(t, "explain", "-o", "json", subsetFixtures+"both-configs.yaml")
	if code != 3 || out != "" || !strings.Contains(errOut, "both-configs.yaml:6:3: ") || !strings.Contains(errOut, "load_balancing_policy cannot be combined with lb_subset_config") {
		t.Errorf("explain does not reject the subset config (exit %d):\n%s%s", code, out, errOut)
	}
}

// TestSubsetMatchCommas: a --match value holding commas (a JSON list) is
// one value, not split by the flag parser; a list equals no host's
// string, so the request falls back.
func TestSubsetMatchCommas(t *testing.T) {
	r, _ := subsetRun(t, subsetFixtures+"seed-cluster.yaml", "--cluster", "cluster-name", "--match", `stage:=["prod", "canary"]`)
	if !reflect.DeepEqual(r.Match, map[string]any{"stage": []any{"prod", "canary"}}) {
		t.Errorf("match = %#v", r.Match)
	}
	checkResult(t, r.Result, seedProd, "fallback", "DEFAULT_SUBSET")
}

// TestSubsetHashOneClusterNoFlag: with one cluster in the input --cluster
// is not needed.
func TestSubsetHashOneClusterNoFlag(t *testing.T) {
	if code, out, errs := runLBCTL("subset", subsetFixtures+"seed-cluster.yaml"); code != 0 || !strings.Contains(out, "cluster-name") {
		t.Errorf("subset: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runLBCTL("hash", "../fixtures/hash/failover.yaml"); code != 0 || !strings.Contains(out, "RING_HASH") {
		t.Errorf("hash: exit %d\n%s%s", code, out, errs)
	}
}
