package grpc

// ClusterTraits is a plain description of a cluster (and the config around
// it) for listing where Envoy and proxyless gRPC behave differently.
type ClusterTraits struct {
	LBPolicy string // Cluster.lb_policy enum name; "" = ROUND_ROBIN
	// Type is the discovery type: EDS, STATIC, STRICT_DNS, LOGICAL_DNS,
	// ORIGINAL_DST or AGGREGATE.
	Type string

	// Aggregate clusters.
	AggregateMissingChild       bool // a child names no known cluster
	AggregateNested             bool // a child is itself an aggregate
	AggregateDuplicateChild     bool // a child is listed (or reached) twice
	AggregateLeafPoliciesDiffer bool // leaves have different LB policies
	// TypedClusterProvided: load_balancing_policy lists ClusterProvided
	// followed by a policy gRPC knows (the portable aggregate config).
	TypedClusterProvided bool

	// Priorities and localities (EDS).
	Priorities                int  // number of EDS priorities
	PriorityGap               bool // priority numbers not contiguous from 0
	Localities                int
	LocalityWeights           bool // some locality has load_balancing_weight
	LocalityWithoutWeight     bool
	LocalityWeightedLB        bool // common_lb_config.locality_weighted_lb_config
	EndpointWeights           bool // endpoint weights not all equal
	DegradedEndpoints         bool
	DuplicateAddresses        bool
	DropOverloads             int
	OverprovisioningFactorSet bool

	// Load-balancer settings.
	HasSubsets               bool // lb_subset_config
	PanicThresholdSet        bool // common_lb_config.healthy_panic_threshold
	ZoneAware                bool // zone_aware_lb_config or a local cluster
	RingHashMurmur           bool // hash_function MURMUR_HASH_2
	RingHashBalanceFactor    bool // hash_balance_factor
	UseHostnameForHashing    bool
	RingHashTypedDefaultHash bool // RingHash extension with hash_function unset
	RouteHashUnsupported     bool // route hash_policy on cookie, source IP or query parameter
	HealthChecks             bool
	OutlierDetection         bool
	SessionAffinity          bool // stateful session filter in use
	OverrideHostStatusSet    bool
	UpstreamConfig           bool // Cluster.upstream_config set
}

// Divergence is one way a cluster behaves differently under Envoy and gRPC.
type Divergence struct {
	What, Envoy, GRPC string
}

type divergenceRow struct {
	applies func(ClusterTraits) bool
	Divergence
}

func (t ClusterTraits) aggregate() bool { return t.Type == "AGGREGATE" }
func (t ClusterTraits) policy() string {
	if t.LBPolicy == "" {
		return "ROUND_ROBIN"
	}
	return t.LBPolicy
}
func (t ClusterTraits) ringHash() bool { return t.policy() == "RING_HASH" }

// divergenceRows is grpc.md §16 ("Same config, different behaviour"), in order.
var divergenceRows = []divergenceRow{
	{func(t ClusterTraits) bool { return t.aggregate() && t.policy() == "CLUSTER_PROVIDED" }, Divergence{
		"aggregate cluster with lb_policy CLUSTER_PROVIDED", "required",
		"NACK (grpc-go always; C-core unless load_balancing_policy is set)"}},
	{func(t ClusterTraits) bool {
		return t.aggregate() && t.policy() != "CLUSTER_PROVIDED" && !t.TypedClusterProvided
	}, Divergence{
		"aggregate cluster with lb_policy " + "other than CLUSTER_PROVIDED",
		"rejected: cluster provided LB not specified",
		"accepted; the policy is used for all leaves (grpc-go) or ignored (C-core)"}},
	{func(t ClusterTraits) bool { return t.aggregate() && t.AggregateMissingChild }, Divergence{
		"aggregate child missing", "skipped silently",
		"C-core: skipped; grpc-go: the whole aggregate fails"}},
	{func(t ClusterTraits) bool { return t.aggregate() && t.AggregateNested }, Divergence{
		"aggregate nested in an aggregate", "the child aggregate contributes no hosts",
		"flattened recursively, up to 15 edges deep"}},
	{func(t ClusterTraits) bool { return t.aggregate() && t.AggregateDuplicateChild }, Divergence{
		"duplicate aggregate child", "no dedup: its priorities are linearized twice",
		"deduplicated; the first position wins"}},
	{func(t ClusterTraits) bool { return t.aggregate() && t.AggregateLeafPoliciesDiffer }, Divergence{
		"leaf clusters with different LB policies", "each leaf uses its own",
		"grpc-go: the aggregate's policy for all; C-core: each its own"}},
	{func(t ClusterTraits) bool { return t.aggregate() }, Divergence{
		"choosing between aggregate children",
		"health-based priority load with each child's overprovisioning factor; random number even for hash policies",
		"first connectable priority (10 s failover timer); ring hash hashes only inside a priority"}},
	{func(t ClusterTraits) bool { return t.Priorities > 1 }, Divergence{
		"priority failover", "gradual: P0 gets min(100, OPF x healthy%), the rest spills; panic threshold per priority",
		"all-or-nothing by connectivity state; no overprovisioning factor, no panic"}},
	{func(t ClusterTraits) bool { return t.PriorityGap }, Divergence{
		"priority gap", "accepted (empty priority)", "EDS NACK"}},
	{func(t ClusterTraits) bool { return t.LocalityWeights && !t.LocalityWeightedLB && !t.aggregate() }, Divergence{
		"locality weights without locality_weighted_lb_config", "ignored", "used"}},
	{func(t ClusterTraits) bool { return t.LocalityWithoutWeight }, Divergence{
		"locality without weight", "no traffic only with locality-weighted LB; otherwise normal",
		"locality dropped"}},
	{func(t ClusterTraits) bool { return t.Localities > 1 }, Divergence{
		"locality partially unhealthy", "weight scaled by min(100, 1.4 x healthy%)",
		"full weight while at least one endpoint is READY"}},
	{func(t ClusterTraits) bool { return t.Localities > 1 }, Divergence{
		"locality pick", "EDF weighted round robin", "weighted random"}},
	{func(t ClusterTraits) bool {
		return t.EndpointWeights && (t.policy() == "ROUND_ROBIN" || t.policy() == "LEAST_REQUEST")
	}, Divergence{
		"endpoint weights with ROUND_ROBIN / LEAST_REQUEST", "honoured (weighted)", "ignored"}},
	{func(t ClusterTraits) bool { return t.policy() == "LEAST_REQUEST" }, Divergence{
		"LEAST_REQUEST", "supported, weighted variant",
		"grpc-go only: P2C, choice_count clamped to 10, no locality level; C-core NACK"}},
	{func(t ClusterTraits) bool { return t.policy() == "RANDOM" || t.policy() == "MAGLEV" }, Divergence{
		"RANDOM / MAGLEV", "supported", "NACK"}},
	{func(t ClusterTraits) bool { return t.ringHash() }, Divergence{
		"RING_HASH max ring size", "default 8388608", "capped at 4096 by default"}},
	{func(t ClusterTraits) bool {
		return t.RingHashMurmur || t.RingHashBalanceFactor || t.UseHostnameForHashing
	}, Divergence{
		"MURMUR_HASH_2 / hash_balance_factor / use_hostname_for_hashing", "supported",
		"MURMUR_HASH_2 NACK; the others ignored"}},
	{func(t ClusterTraits) bool { return t.RingHashTypedDefaultHash }, Divergence{
		"RingHash typed config with hash_function unset", "XX_HASH", "grpc-go NACK; C-core XX_HASH"}},
	{func(t ClusterTraits) bool { return t.ringHash() && (t.Priorities > 1 || t.aggregate()) }, Divergence{
		"ring hash priority selection", "by request hash", "by connectivity"}},
	{func(t ClusterTraits) bool { return t.RouteHashUnsupported }, Divergence{
		"route hash on cookie / source IP / query parameter", "supported",
		"ignored (random unless another policy hashes)"}},
	{func(t ClusterTraits) bool { return t.HasSubsets }, Divergence{
		"lb_subset_config and route metadata_match", "subset LB; NO_FALLBACK by default",
		"ignored entirely: all endpoints used"}},
	{func(t ClusterTraits) bool { return t.PanicThresholdSet }, Divergence{
		"common_lb_config.healthy_panic_threshold", "active", "ignored"}},
	{func(t ClusterTraits) bool { return t.ZoneAware }, Divergence{
		"zone-aware routing", "supported (P0 only, needs a local cluster)", "ignored"}},
	{func(t ClusterTraits) bool { return t.DegradedEndpoints }, Divergence{
		"EDS DEGRADED endpoints", "used as the degraded tier", "dropped"}},
	{func(t ClusterTraits) bool { return t.DuplicateAddresses }, Divergence{
		"duplicate endpoint addresses", "first kept", "NACK"}},
	{func(t ClusterTraits) bool { return t.DropOverloads > 1 }, Divergence{
		"multiple drop_overloads", "NACK", "applied sequentially"}},
	{func(t ClusterTraits) bool { return t.OverprovisioningFactorSet }, Divergence{
		"overprovisioning_factor", "used", "ignored"}},
	{func(t ClusterTraits) bool { return t.HealthChecks }, Divergence{
		"active health_checks", "used", "ignored"}},
	{func(t ClusterTraits) bool { return t.OutlierDetection }, Divergence{
		"outlier detection consecutive_5xx (on by default)", "ejects", "ignored"}},
	{func(t ClusterTraits) bool { return t.SessionAffinity && !t.OverrideHostStatusSet }, Divergence{
		"override_host_status unset", "[UNKNOWN, HEALTHY, DEGRADED]", "[UNKNOWN, HEALTHY]"}},
	{func(t ClusterTraits) bool { return t.UpstreamConfig }, Divergence{
		"upstream_config", "generic connection pool factory",
		"C-core: must be HttpProtocolOptions (idle_timeout), else NACK"}},
	{func(t ClusterTraits) bool {
		return t.Type == "STATIC" || t.Type == "STRICT_DNS" || t.Type == "ORIGINAL_DST"
	}, Divergence{
		"STATIC / STRICT_DNS / ORIGINAL_DST cluster", "supported", "NACK"}},
}

// Divergences lists, in the order of grpc.md §16, every
// Envoy-vs-gRPC difference that applies to the described cluster.
func Divergences(t ClusterTraits) []Divergence {
	var out []Divergence
	for _, r := range divergenceRows {
		if r.applies(t) {
			out = append(out, r.Divergence)
		}
	}
	return out
}
