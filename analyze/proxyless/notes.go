package proxyless

import (
	"strconv"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"

	"github.com/lbctl/lbctl/lbmodel/grpc"
)

// aggregateNotes explain how gRPC resolved an aggregate graph, and where
// grpc-go and C-core part ways (grpc.md §2).
func (r *grpcRun) aggregateNotes(cl *config.Cluster, m *model.Model, agg grpc.Aggregate, cmap map[string]grpc.Cluster) {
	if cl.Proto.GetLbPolicy() == clusterv3.Cluster_CLUSTER_PROVIDED {
		r.note("Envoy requires lb_policy CLUSTER_PROVIDED on an aggregate cluster and gRPC rejects it; a config both accept leaves lb_policy unset and sets load_balancing_policy: {policies: [ClusterProvided, WrrLocality{RoundRobin}]} (Envoy uses the first, gRPC skips it)")
	}
	for _, ch := range m.Aggregate {
		if _, ok := cmap[ch]; !ok {
			r.note("child %s does not exist: until the does-not-exist timer fires (15 s in grpc-go) the client withholds the whole config (gRFC A74); then C-core skips the child and grpc-go fails the aggregate", ch)
		}
	}
	for _, e := range agg.Cycles {
		r.note("cycle %s: gRPC cuts it, the cluster already on the path contributes nothing", e)
	}
	for _, e := range agg.Duplicates {
		r.note("%s reaches a cluster already seen: gRPC keeps only its first (highest-priority) position", e)
	}
	for _, n := range agg.Notes {
		r.note("grpc-go and C-core differ on %s (%s): grpc-go: %s; C-core: %s", n.What, n.Cluster, n.GRPCGo, n.GRPCCore)
	}
	res := agg.Resolution(r.opt.Impl)
	if len(res.Leaves) > 0 {
		var parts []string
		for _, lp := range grpc.LeafPolicies(agg.Root, res.Leaves, cmap, r.opt.Impl, r.opt.BackwardCompat) {
			parts = append(parts, lp.Cluster+": "+lp.Policy+" (from "+lp.From+")")
		}
		state := "unset"
		if r.opt.BackwardCompat {
			state = "true"
		}
		if r.opt.Impl == grpc.CoreImpl {
			r.note("leaf LB policies with GRPC_XDS_AGGREGATE_CLUSTER_BACKWARD_COMPAT %s: %s", state, strings.Join(parts, "; "))
		} else {
			r.note("leaf LB policies (grpc-go uses the aggregate's policy for every leaf): %s", strings.Join(parts, "; "))
		}
		r.note("flattened leaves %s form one priority list: all priorities of the first leaf, then the next leaf's; gRPC uses the first connectable priority and sends it every RPC", strings.Join(res.Leaves, ", "))
	}
}

// ignoredNotes name the settings of the cluster (and of its leaves) that
// gRPC reads no further than validation (grpc.md §5, §13 last row).
func (r *grpcRun) ignoredNotes(cl *config.Cluster, leaves []string) {
	c := r.c
	names := append([]string{cl.Name()}, leaves...)
	seen := map[string]bool{}
	localCluster := model.LocalClusterName(c, r.opt.Options)
	for _, n := range names {
		x := c.Cluster(n)
		if x == nil || seen[n] {
			continue
		}
		seen[n] = true
		p := x.Proto
		s := model.Settings(c, x)
		var ign []string
		if p.GetCommonLbConfig().GetHealthyPanicThreshold() != nil {
			ign = append(ign, "healthy_panic_threshold (gRPC has no panic mode)")
		}
		if x.Assignment.GetPolicy().GetOverprovisioningFactor() != nil {
			ign = append(ign, "overprovisioning_factor (a priority gets all traffic or none)")
		}
		if x.Assignment.GetPolicy().GetWeightedPriorityHealth() {
			ign = append(ign, "weighted_priority_health")
		}
		if p.GetLbSubsetConfig() != nil {
			ign = append(ign, "lb_subset_config (all endpoints are used; route metadata_match is ignored)")
		}
		if s.ZoneAwareSet || (localCluster != "" && localCluster != n) {
			ign = append(ign, "zone-aware routing")
		}
		if s.LocalityWeighted {
			ign = append(ign, "locality_weighted_lb_config (gRPC's xds_wrr_locality always uses locality weights)")
		}
		if len(p.GetHealthChecks()) > 0 {
			ign = append(ign, "health_checks")
		}
		if p.GetOutlierDetection() != nil {
			ign = append(ign, "outlier_detection consecutive_5xx / gateway failure ejection")
		}
		if s.Ring.UseHostname {
			ign = append(ign, "use_hostname_for_hashing")
		}
		if p.GetRingHashLbConfig() != nil && p.GetCommonLbConfig().GetConsistentHashingLbConfig().GetHashBalanceFactor() != nil {
			ign = append(ign, "hash_balance_factor")
		}
		if len(ign) > 0 {
			r.note("gRPC ignores these settings of %s: %s", n, strings.Join(ign, "; "))
		}
		dropped := map[string]int{}
		var order []string
		xm, _, err := model.With(c, x, r.opt.Options)
		if err != nil {
			continue
		}
		for _, h := range xm.Hosts {
			if !grpc.KeepsEndpoint(h.Status) {
				k := h.Status.String()
				if dropped[k] == 0 {
					order = append(order, k)
				}
				dropped[k]++
			}
		}
		if len(order) > 0 {
			var parts []string
			for _, k := range order {
				parts = append(parts, strconv.Itoa(dropped[k])+" "+k)
			}
			r.note("gRPC drops %s endpoints of %s (it uses only HEALTHY and UNKNOWN; Envoy uses DEGRADED hosts as a tier and, in panic, unhealthy ones)", strings.Join(parts, ", "), n)
		}
	}
}

// dropNote: gRPC applies every drop_overloads category in turn (grpc-go
// clusterimpl picker.go Pick, one independent draw per category, only
// while the child is READY), so the dropped share
// is 1 - Π(1 - p_i); Envoy accepts only one entry.
func (r *grpcRun) dropNote(cl *config.Cluster) {
	drops := cl.Assignment.GetPolicy().GetDropOverloads()
	if len(drops) == 0 {
		return
	}
	kept := 1.0
	var parts []string
	for _, d := range drops {
		p := d.GetDropPercentage()
		den := 100.0
		switch p.GetDenominator().String() {
		case "TEN_THOUSAND":
			den = 10000
		case "MILLION":
			den = 1000000
		}
		f := min(1, float64(p.GetNumerator())/den)
		kept *= 1 - f
		parts = append(parts, d.GetCategory()+" "+strconv.FormatFloat(f*100, 'f', -1, 64)+"%")
	}
	r.note("gRPC drops %s%% of RPCs to %s before balancing (drop_overloads %s, applied in turn)", strconv.FormatFloat((1-kept)*100, 'f', 2, 64), cl.Name(), strings.Join(parts, ", "))
}
