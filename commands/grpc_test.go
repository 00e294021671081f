package commands

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/proxyless"
	"github.com/lbctl/lbctl/analyze/traffic"
)

// grpcCLI runs lbctl with args and returns stdout, stderr and the exit code.
func grpcCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	return runCLI("", nil, args...)
}

// grpcJSON runs lbctl with -o json and decodes stdout into v.
func grpcJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	out, errOut, code := grpcCLI(t, append([]string{"-o", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("lbctl %v: exit %d\nstderr: %s", args, code, errOut)
	}
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("lbctl %v: bad JSON: %v\n%s", args, err, out)
	}
}

func grpcBoth(t *testing.T, args ...string) proxyless.BothReport {
	t.Helper()
	var b proxyless.BothReport
	grpcJSON(t, &b, append([]string{"--semantics", "both", "explain"}, args...)...)
	return b
}

func grpcReport(t *testing.T, args ...string) traffic.Report {
	t.Helper()
	var r traffic.Report
	grpcJSON(t, &r, append([]string{"--semantics", "grpc", "explain"}, args...)...)
	if r.Semantics != "grpc" {
		t.Fatalf("semantics = %q, want grpc", r.Semantics)
	}
	return r
}

func clusterOf(t *testing.T, r *traffic.Report, name string) traffic.ClusterReport {
	t.Helper()
	for _, c := range r.Clusters {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("cluster %q not in report", name)
	return traffic.ClusterReport{}
}

func loads(c traffic.ClusterReport) []int {
	var out []int
	for _, p := range c.Priorities {
		out = append(out, p.HealthyLoad+p.DegradedLoad)
	}
	return out
}

func hostShare(t *testing.T, c traffic.ClusterReport, addr string) float64 {
	t.Helper()
	for _, h := range c.Hosts {
		if h.Address == addr {
			if h.Share == nil {
				t.Fatalf("%s: host %s has no share", c.Name, addr)
			}
			return *h.Share
		}
	}
	t.Fatalf("%s: no host %s", c.Name, addr)
	return 0
}

func wantShare(t *testing.T, c traffic.ClusterReport, addr string, want float64) {
	t.Helper()
	if got := hostShare(t, c, addr); math.Abs(got-want) > 1e-12 {
		t.Errorf("%s: share of %s = %.12g, want %.12g", c.Name, addr, got, want)
	}
}

func wantNote(t *testing.T, c traffic.ClusterReport, sub string) {
	t.Helper()
	for _, n := range c.Notes {
		if strings.Contains(n, sub) {
			return
		}
	}
	t.Errorf("%s: no note contains %q; notes:\n%s", c.Name, sub, strings.Join(c.Notes, "\n"))
}

func wantDiff(t *testing.T, b proxyless.BothReport, cluster, what, envoy, grpc string) {
	t.Helper()
	for _, d := range b.Differences {
		if d.Cluster == cluster && d.What == what {
			if (envoy != "" && d.Envoy != envoy) || (grpc != "" && d.GRPC != grpc) {
				t.Errorf("%s: difference %q = envoy %q, grpc %q; want %q, %q", cluster, what, d.Envoy, d.GRPC, envoy, grpc)
			}
			return
		}
	}
	t.Errorf("%s: no difference %q", cluster, what)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// §16 "Priority failover", "overprovisioning_factor",
// "healthy_panic_threshold": Envoy spills 2 % to P1, gRPC sends P0 all.
func TestGRPCPriorityFailover(t *testing.T) {
	b := grpcBoth(t, "../fixtures/grpc/failover.yaml")
	if b.Envoy.Semantics != "envoy" || b.GRPC.Semantics != "grpc" {
		t.Errorf("semantics = %q, %q", b.Envoy.Semantics, b.GRPC.Semantics)
	}
	e, g := clusterOf(t, b.Envoy, "svc"), clusterOf(t, b.GRPC, "svc")
	if got := loads(e); !equalInts(got, []int{98, 2}) {
		t.Errorf("envoy loads = %v, want [98 2] (min(100, 140 × 7/10))", got)
	}
	if got := loads(g); !equalInts(got, []int{100, 0}) {
		t.Errorf("grpc loads = %v, want [100 0]", got)
	}
	if g.Priorities[0].Healthy != 7 || g.Priorities[0].Hosts != 10 || g.Priorities[0].Panic || g.Priorities[0].Health != 0 {
		t.Errorf("grpc P0 = %+v", g.Priorities[0])
	}
	wantShare(t, e, "10.0.0.1:80", 0.98/7)
	wantShare(t, g, "10.0.0.1:80", 1.0/7)
	wantShare(t, g, "10.0.1.1:80", 0)
	wantDiff(t, b, "svc", "load of priority 0", "98%", "100%")
	wantDiff(t, b, "svc", "load of priority 1", "2%", "0%")
	wantDiff(t, b, "svc", "priority failover", "", "all-or-nothing by connectivity state; no overprovisioning factor, no panic")
	wantDiff(t, b, "svc", "overprovisioning_factor", "used", "ignored")
	wantDiff(t, b, "svc", "common_lb_config.healthy_panic_threshold", "active", "ignored")
	wantNote(t, g, "healthy_panic_threshold (gRPC has no panic mode)")
	wantNote(t, g, "overprovisioning_factor")

	// --ready: P0 in TRANSIENT_FAILURE moves everything to P1.
	r := grpcReport(t, "../fixtures/grpc/failover.yaml", "--ready", "svc/0=no")
	c := clusterOf(t, &r, "svc")
	if got := loads(c); !equalInts(got, []int{0, 100}) {
		t.Errorf("--ready svc/0=no: loads = %v, want [0 100]", got)
	}
	wantShare(t, c, "10.0.1.1:80", 0.5)
	// Every priority down: the last one is used and RPCs fail.
	r = grpcReport(t, "../fixtures/grpc/failover.yaml", "--ready", "svc=no")
	c = clusterOf(t, &r, "svc")
	if got := loads(c); !equalInts(got, []int{0, 100}) || c.NoHostShare != 1 {
		t.Errorf("--ready svc=no: loads = %v, no_host_share %g; want [0 100], 1", got, c.NoHostShare)
	}
	// A56 / C-core: P0 CONNECTING (timer expired), P1 TRANSIENT_FAILURE:
	// C-core uses the first CONNECTING priority; grpc-go has no such pass
	// and falls to the last priority.
	r = grpcReport(t, "../fixtures/grpc/failover.yaml", "--ready", "svc/0=CONNECTING", "--ready", "svc/1=no")
	if got := loads(clusterOf(t, &r, "svc")); !equalInts(got, []int{100, 0}) {
		t.Errorf("core, P0 CONNECTING: loads = %v, want [100 0]", got)
	}
	r = grpcReport(t, "../fixtures/grpc/failover.yaml", "--grpc-impl", "go", "--ready", "svc/0=CONNECTING", "--ready", "svc/1=no")
	if got := loads(clusterOf(t, &r, "svc")); !equalInts(got, []int{0, 100}) {
		t.Errorf("go, P0 CONNECTING: loads = %v, want [0 100]", got)
	}
}

// §16 "Locality weights without locality_weighted_lb_config", "Locality
// partially unhealthy", "Locality pick", "Endpoint weights with
// ROUND_ROBIN", "EDS DEGRADED endpoints".
func TestGRPCLocalities(t *testing.T) {
	b := grpcBoth(t, "../fixtures/grpc/localities.yaml")
	e, g := clusterOf(t, b.Envoy, "weighted"), clusterOf(t, b.GRPC, "weighted")
	wantShare(t, e, "10.1.0.1:80", 1.05/2.05)
	wantShare(t, e, "10.1.1.1:80", 0.5/2.05)
	wantShare(t, g, "10.1.0.1:80", 0.75)
	wantShare(t, g, "10.1.1.1:80", 0.125)
	if ls := g.Priorities[0].Localities; len(ls) != 2 || ls[0].Zone != "a" || ls[0].Share != 0.75 || ls[1].Share != 0.25 || ls[0].Healthy != 1 || ls[0].Hosts != 4 {
		t.Errorf("grpc localities = %+v", ls)
	}
	wantDiff(t, b, "weighted", "locality partially unhealthy", "weight scaled by min(100, 1.4 x healthy%)", "full weight while at least one endpoint is READY")
	wantDiff(t, b, "weighted", "locality pick", "EDF weighted round robin", "weighted random")
	wantNote(t, g, "locality_weighted_lb_config (gRPC's xds_wrr_locality always uses locality weights)")

	e, g = clusterOf(t, b.Envoy, "plain"), clusterOf(t, b.GRPC, "plain")
	wantShare(t, e, "10.2.1.1:80", 0.6)
	wantShare(t, e, "10.2.0.1:80", 0.2)
	wantShare(t, g, "10.2.0.1:80", 0.75)
	wantShare(t, g, "10.2.1.1:80", 0.125)
	wantShare(t, g, "10.2.1.2:80", 0.125)
	wantShare(t, g, "10.2.0.2:80", 0)
	wantDiff(t, b, "plain", "locality weights without locality_weighted_lb_config", "ignored", "used")
	wantDiff(t, b, "plain", "endpoint weights with ROUND_ROBIN / LEAST_REQUEST", "honoured (weighted)", "ignored")
	wantDiff(t, b, "plain", "EDS DEGRADED endpoints", "used as the degraded tier", "dropped")
	wantDiff(t, b, "plain", "share of host 10.2.1.1:80", "60.00%", "12.50%")
	wantNote(t, g, "gRPC drops 1 DEGRADED endpoints of plain")
	if g.Priorities[0].Degraded != 1 || g.Priorities[0].Healthy != 3 {
		t.Errorf("plain P0 = %+v", g.Priorities[0])
	}
}

// §16 LB policy rows, and §3 conversions per implementation.
func TestGRPCPolicies(t *testing.T) {
	const f = "../fixtures/grpc/policies.yaml"
	b := grpcBoth(t, f)
	core := b.GRPC
	goR := grpcReport(t, f, "--grpc-impl", "go")

	// LEAST_REQUEST: C-core NACK (test WrongLbPolicy); grpc-go P2C, flat.
	c := clusterOf(t, core, "least_request")
	if c.NoHostShare != 1 {
		t.Errorf("core least_request: no_host_share = %g, want 1", c.NoHostShare)
	}
	wantNote(t, c, "LB policy is not supported: LEAST_REQUEST")
	c = clusterOf(t, &goR, "least_request")
	if c.LbPolicy != "least_request_experimental" || c.NoHostShare != 0 {
		t.Errorf("go least_request: policy %q, no_host_share %g", c.LbPolicy, c.NoHostShare)
	}
	wantShare(t, c, "10.4.0.1:80", 1.0/3)
	wantNote(t, c, "least_request_experimental has no locality level")
	wantDiff(t, b, "least_request", "LEAST_REQUEST", "supported, weighted variant", "")

	for _, r := range []*traffic.Report{core, &goR} {
		c = clusterOf(t, r, "maglev")
		wantNote(t, c, "unexpected lbPolicy MAGLEV")
		c = clusterOf(t, r, "ring_murmur")
		wantNote(t, c, "unsupported hash_function MURMUR_HASH_2")
		if c.NoHostShare != 1 {
			t.Errorf("ring_murmur: no_host_share = %g", c.NoHostShare)
		}
		// Ring capped at 4096: min 5000 → 4096; 3 equal endpoints sorted by
		// address get 1366, 1365, 1365 entries (grpc-go ring.go newRing).
		c = clusterOf(t, r, "ring")
		wantShare(t, c, "10.3.0.1:80", 1366.0/4096)
		wantShare(t, c, "10.3.0.2:80", 1365.0/4096)
		wantShare(t, c, "10.3.0.3:80", 1365.0/4096)
		wantShare(t, c, "10.3.1.1:80", 0)
		wantNote(t, c, "ring hash ring of 4096 entries (min 4096, max 4096")
	}
	wantDiff(t, b, "maglev", "RANDOM / MAGLEV", "supported", "NACK")
	wantDiff(t, b, "ring", "RING_HASH max ring size", "default 8388608", "capped at 4096 by default")
	wantDiff(t, b, "ring", "ring hash priority selection", "by request hash", "by connectivity")
	wantDiff(t, b, "ring_murmur", "MURMUR_HASH_2 / hash_balance_factor / use_hostname_for_hashing", "supported", "")

	// RingHash typed config, hash_function unset: grpc-go NACK, C-core XX_HASH.
	c = clusterOf(t, core, "ring_typed")
	wantShare(t, c, "10.7.0.1:80", 342.0/1026)
	wantNote(t, c, "ring hash ring of 1026 entries")
	c = clusterOf(t, &goR, "ring_typed")
	wantNote(t, c, "unsupported hash_function DEFAULT_HASH")
	wantDiff(t, b, "ring_typed", "RingHash typed config with hash_function unset", "XX_HASH", "grpc-go NACK; C-core XX_HASH")

	// Ignored settings: every endpoint used, a note and a difference each.
	c = clusterOf(t, core, "subset")
	wantShare(t, c, "10.8.0.1:80", 1.0/3)
	wantNote(t, c, "lb_subset_config (all endpoints are used")
	wantDiff(t, b, "subset", "lb_subset_config and route metadata_match", "", "ignored entirely: all endpoints used")
	wantNote(t, clusterOf(t, core, "zone"), "gRPC ignores these settings of zone: zone-aware routing")
	wantDiff(t, b, "zone", "zone-aware routing", "", "ignored")
	wantNote(t, clusterOf(t, core, "checked"), "health_checks; outlier_detection")
	wantDiff(t, b, "checked", "active health_checks", "used", "ignored")
	wantDiff(t, b, "checked", "outlier detection consecutive_5xx (on by default)", "ejects", "ignored")
}

// §14 / §16 endpoint-data rows.
func TestGRPCEndpointData(t *testing.T) {
	const f = "../fixtures/grpc/eds.yaml"
	b := grpcBoth(t, f)
	g := clusterOf(t, b.GRPC, "gap")
	if g.NoHostShare != 1 {
		t.Errorf("gap: no_host_share = %g, want 1 (EDS NACK)", g.NoHostShare)
	}
	wantNote(t, g, "priority 1 missing")
	wantShare(t, clusterOf(t, b.Envoy, "gap"), "10.11.0.1:80", 1)
	wantDiff(t, b, "gap", "priority gap", "accepted (empty priority)", "EDS NACK")

	g = clusterOf(t, b.GRPC, "noweight")
	wantShare(t, g, "10.12.0.1:80", 0.5)
	wantShare(t, g, "10.12.1.1:80", 0)
	wantShare(t, clusterOf(t, b.Envoy, "noweight"), "10.12.1.1:80", 0.25)
	wantNote(t, g, `locality "/b" has no load_balancing_weight: gRPC drops it`)
	wantDiff(t, b, "noweight", "locality without weight", "", "locality dropped")

	g = clusterOf(t, b.GRPC, "dup")
	wantNote(t, g, "duplicate endpoint address 10.13.0.1:80")
	wantDiff(t, b, "dup", "duplicate endpoint addresses", "first kept", "NACK")

	wantNote(t, clusterOf(t, b.GRPC, "drops"), "gRPC drops 28.00% of RPCs to drops")
	wantDiff(t, b, "drops", "multiple drop_overloads", "NACK", "applied sequentially")

	g = clusterOf(t, b.GRPC, "static")
	wantShare(t, g, "10.15.0.1:80", 0.5)
	wantNote(t, g, "static is a STATIC cluster, which gRPC NACKs")
	wantDiff(t, b, "static", "STATIC / STRICT_DNS / ORIGINAL_DST cluster", "supported", "NACK")

	// upstream_config not HttpProtocolOptions: C-core NACK (gRFC A75);
	// grpc-go does not read the field.
	g = clusterOf(t, b.GRPC, "upstream")
	if g.NoHostShare != 1 {
		t.Errorf("core upstream: no_host_share = %g", g.NoHostShare)
	}
	wantNote(t, g, "upstream_config: unsupported type")
	wantDiff(t, b, "upstream", "upstream_config", "generic connection pool factory", "")
	goR := grpcReport(t, f, "--grpc-impl", "go", "--cluster", "upstream")
	wantShare(t, clusterOf(t, &goR, "upstream"), "10.16.0.1:80", 1)
}

func aggLevels(c traffic.ClusterReport) string {
	var parts []string
	for _, l := range c.Aggregate.Levels {
		parts = append(parts, l.Cluster+"/"+strconv.Itoa(l.Priority)+"="+strconv.Itoa(l.HealthyLoad))
	}
	return strings.Join(parts, " ")
}

// Aggregate graphs (grpc.md §2; grpc-go xdsdepmgr tests NodeChildOfItself,
// CycleWithLeafNode, CycleWithNoLeafNode, ExceedsMaxStackDepth; A74 child
// errors; A75 leaf policies).
func TestGRPCAggregate(t *testing.T) {
	const f = "../fixtures/grpc/aggregate.yaml"
	b := grpcBoth(t, f)
	core := b.GRPC
	goR := grpcReport(t, f, "--grpc-impl", "go")

	for _, r := range []*traffic.Report{core, &goR} {
		c := clusterOf(t, r, "agg_cp")
		if c.NoHostShare != 1 {
			t.Errorf("agg_cp: no_host_share = %g, want 1 (NACK)", c.NoHostShare)
		}
		wantNote(t, c, "unexpected lbPolicy CLUSTER_PROVIDED")
		wantNote(t, c, "[ClusterProvided, WrrLocality{RoundRobin}]")
	}
	wantDiff(t, b, "agg_cp", "aggregate cluster with lb_policy CLUSTER_PROVIDED", "required", "")
	wantDiff(t, b, "agg_rr", "aggregate cluster with lb_policy other than CLUSTER_PROVIDED", "rejected: cluster provided LB not specified", "")

	// The portable aggregate: Envoy 35/65/0, gRPC a/P0 gets everything.
	e, g := clusterOf(t, b.Envoy, "agg"), clusterOf(t, core, "agg")
	if got := aggLevels(g); got != "a/0=100 a/1=0 b/0=0" {
		t.Errorf("grpc agg levels = %s", got)
	}
	wantShare(t, g, "10.20.0.1:80", 1)
	wantShare(t, e, "10.20.0.1:80", 0.35)
	wantDiff(t, b, "agg", "load of level a/P0", "35%", "100%")
	wantDiff(t, b, "agg", "leaf clusters with different LB policies", "each leaf uses its own", "")
	wantDiff(t, b, "agg", "choosing between aggregate children", "", "")
	wantNote(t, g, "a: xds_wrr_locality_experimental(round_robin) (from a); b: ring_hash_experimental (from b)")
	// A75 pre/post: grpc-go and BACKWARD_COMPAT use the root's policy.
	wantNote(t, clusterOf(t, &goR, "agg"), "b: xds_wrr_locality_experimental(round_robin) (from agg)")
	compat := grpcReport(t, f, "--cluster", "agg", "--grpc-aggregate-backward-compat")
	wantNote(t, clusterOf(t, &compat, "agg"), "GRPC_XDS_AGGREGATE_CLUSTER_BACKWARD_COMPAT true: a: xds_wrr_locality_experimental(round_robin) (from agg); b: xds_wrr_locality_experimental(round_robin) (from agg)")

	// Failover across leaves by connectivity.
	r := grpcReport(t, f, "--cluster", "agg", "--ready", "a/0=no")
	if got := aggLevels(clusterOf(t, &r, "agg")); got != "a/0=0 a/1=100 b/0=0" {
		t.Errorf("--ready a/0=no: levels = %s", got)
	}
	r = grpcReport(t, f, "--cluster", "agg", "--ready", "a=no")
	c := clusterOf(t, &r, "agg")
	if got := aggLevels(c); got != "a/0=0 a/1=0 b/0=100" {
		t.Errorf("--ready a=no: levels = %s", got)
	}
	// b is ring hash: 2 equal endpoints, ring 1024, 512 entries each.
	wantShare(t, c, "10.21.0.1:80", 0.5)

	// Missing child: C-core skips it, grpc-go fails the aggregate.
	c = clusterOf(t, core, "agg_missing")
	if strings.Join(c.Aggregate.Clusters, ",") != "a" || c.NoHostShare != 0 {
		t.Errorf("core agg_missing: leaves %v, no_host_share %g", c.Aggregate.Clusters, c.NoHostShare)
	}
	wantNote(t, c, "child ghost does not exist")
	wantNote(t, c, "grpc-go: cluster fails")
	c = clusterOf(t, &goR, "agg_missing")
	if c.NoHostShare != 1 {
		t.Errorf("go agg_missing: no_host_share = %g, want 1", c.NoHostShare)
	}
	wantDiff(t, b, "agg_missing", "aggregate child missing", "skipped silently", "")

	// Nested, duplicate, cycles.
	c = clusterOf(t, core, "agg_nested")
	if strings.Join(c.Aggregate.Clusters, ",") != "a,b" {
		t.Errorf("agg_nested leaves = %v, want [a b]", c.Aggregate.Clusters)
	}
	wantDiff(t, b, "agg_nested", "aggregate nested in an aggregate", "", "flattened recursively, up to 15 edges deep")
	c = clusterOf(t, core, "agg_dup")
	if strings.Join(c.Aggregate.Clusters, ",") != "a,b" {
		t.Errorf("agg_dup leaves = %v, want [a b]", c.Aggregate.Clusters)
	}
	wantNote(t, c, "agg_dup -> a reaches a cluster already seen")
	wantDiff(t, b, "agg_dup", "duplicate aggregate child", "no dedup: its priorities are linearized twice", "deduplicated; the first position wins")
	c = clusterOf(t, core, "agg_cycle")
	if strings.Join(c.Aggregate.Clusters, ",") != "b" || c.NoHostShare != 0 {
		t.Errorf("agg_cycle (CycleWithLeafNode): leaves %v", c.Aggregate.Clusters)
	}
	wantNote(t, c, "cycle loop -> agg_cycle")
	c = clusterOf(t, core, "agg_self")
	if c.NoHostShare != 1 {
		t.Errorf("agg_self (NodeChildOfItself): no_host_share = %g", c.NoHostShare)
	}
	wantNote(t, c, "aggregate cluster graph has no leaf clusters")

	// ExceedsMaxStackDepth: 16 aggregates fail, 15 work.
	d := grpcReport(t, "../fixtures/grpc/depth.yaml", "--cluster", "deep0", "--cluster", "ok0")
	c = clusterOf(t, &d, "deep0")
	if c.NoHostShare != 1 {
		t.Errorf("deep0: no_host_share = %g", c.NoHostShare)
	}
	wantNote(t, c, "aggregate cluster graph exceeds max depth (16)")
	c = clusterOf(t, &d, "ok0")
	if strings.Join(c.Aggregate.Clusters, ",") != "leaf" || c.NoHostShare != 0 {
		t.Errorf("ok0: leaves %v, no_host_share %g", c.Aggregate.Clusters, c.NoHostShare)
	}
	wantShare(t, c, "10.30.0.1:80", 1)
}

// Text output: gRPC alone, and both side by side or one after the other.
func TestGRPCText(t *testing.T) {
	cols := ""
	getenv := func(k string) string {
		if k == "COLUMNS" {
			return cols
		}
		return ""
	}
	out, _, code := runCLI("", getenv, "--semantics", "grpc", "explain", "../fixtures/grpc/failover.yaml")
	if code != 0 || !strings.Contains(out, "svc  gRPC (grpc-core), xds_wrr_locality_experimental(round_robin)") ||
		!strings.Contains(out, "P0           10       7  100%") {
		t.Errorf("grpc text:\n%s", out)
	}
	cols = "200"
	out, _, _ = runCLI("", getenv, "--semantics", "both", "explain", "../fixtures/grpc/failover.yaml")
	first := strings.SplitN(out, "\n", 2)[0]
	if !strings.HasPrefix(first, "ENVOY") || !strings.HasSuffix(first, "| gRPC") || !strings.Contains(out, "- load of priority 0: Envoy 98%; gRPC 100%") {
		t.Errorf("side by side at 200 columns:\n%s", out)
	}
	cols = "80"
	out, _, _ = runCLI("", getenv, "--semantics", "both", "explain", "../fixtures/grpc/failover.yaml")
	if strings.Contains(out, " | ") || !strings.HasPrefix(out, "ENVOY\n") || !strings.Contains(out, "\ngRPC\n") {
		t.Errorf("one after the other at 80 columns:\n%s", out)
	}
	// The gRPC half is rendered here; the Envoy half is renderCluster's
	// (its title line is not wrapped).
	_, grpcHalf, _ := strings.Cut(out, "\ngRPC\n")
	for _, l := range strings.Split(grpcHalf, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("line wider than 80 columns: %q", l)
		}
	}
}

func TestGRPCUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--semantics", "grpc", "explain", "../fixtures/grpc/failover.yaml", "--ready", "svc"}, "expected CLUSTER[/PRIORITY]=yes|no"},
		{[]string{"--semantics", "grpc", "explain", "../fixtures/grpc/failover.yaml", "--ready", "svc=maybe"}, `"maybe" is not yes, no`},
		{[]string{"--semantics", "grpc", "explain", "../fixtures/grpc/failover.yaml", "--ready", "nope=yes"}, "--ready nope=yes: no such cluster"},
		{[]string{"--semantics", "grpc", "explain", "../fixtures/grpc/failover.yaml", "--grpc-impl", "java"}, "--grpc-impl"},
		{[]string{"--semantics", "grpc", "explain", "../fixtures/grpc/eds.yaml", "--ready", "gap=yes"}, "has no usable endpoint, so it cannot be READY"},
	} {
		_, errOut, code := grpcCLI(t, tc.args...)
		if code != ExitUsage || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, ExitUsage, tc.msg)
		}
	}
}

// §16 "Route hash on cookie / source IP / query param" and
// "override_host_status unset", read from a bootstrap's listener.
func TestGRPCRouteRows(t *testing.T) {
	b := grpcBoth(t, "../fixtures/grpc/routes.yaml")
	wantDiff(t, b, "web", "route hash on cookie / source IP / query parameter", "supported", "ignored (random unless another policy hashes)")
	wantDiff(t, b, "web", "override_host_status unset", "[UNKNOWN, HEALTHY, DEGRADED]", "[UNKNOWN, HEALTHY]")
	wantDiff(t, b, "web", "RING_HASH max ring size", "default 8388608", "capped at 4096 by default")
	// Two equal endpoints: a 1024-entry ring, 512 entries each.
	wantShare(t, clusterOf(t, b.GRPC, "web"), "10.50.0.1:80", 0.5)
}
