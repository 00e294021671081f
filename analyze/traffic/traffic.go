// Package traffic holds the result of asking where a cluster's traffic goes:
// the report explain builds for Envoy and grpc builds for proxyless gRPC.
// Commands render it; both report packages fill it.
package traffic

// Report is `lbctl explain`'s result; field names are the contract's.
type Report struct {
	Semantics string          `json:"semantics,omitempty" yaml:"semantics,omitempty"`
	Clusters  []ClusterReport `json:"clusters" yaml:"clusters"`
}

// ClusterReport is the complete load-balancing picture of one cluster.
type ClusterReport struct {
	Name                        string           `json:"name" yaml:"name"`
	LbPolicy                    string           `json:"lb_policy" yaml:"lb_policy"`
	OverprovisioningFactor      uint32           `json:"overprovisioning_factor" yaml:"overprovisioning_factor"`
	PanicThreshold              int              `json:"panic_threshold" yaml:"panic_threshold"`
	NormalizedTotalAvailability int              `json:"normalized_total_availability" yaml:"normalized_total_availability"`
	TotalPanic                  bool             `json:"total_panic" yaml:"total_panic"`
	Priorities                  []PriorityReport `json:"priorities" yaml:"priorities"`
	Hosts                       []HostReport     `json:"hosts" yaml:"hosts"`
	// NoHostShare is the fraction of requests for which Envoy finds no host
	// (e.g. fail_traffic_on_panic, or nothing to send to).
	NoHostShare float64            `json:"no_host_share" yaml:"no_host_share"`
	Aggregate   *AggregateReport   `json:"aggregate,omitempty" yaml:"aggregate,omitempty"`
	ZoneRouting *ZoneRoutingReport `json:"zone_routing,omitempty" yaml:"zone_routing,omitempty"`
	Notes       []string           `json:"notes" yaml:"notes"`
	// File is where the cluster is defined (file:line:col).
	File string `json:"file,omitempty" yaml:"file,omitempty"`
	// EndpointsMissing: an EDS cluster whose ClusterLoadAssignment is not
	// in the input; its figures are those of a cluster with no hosts.
	EndpointsMissing bool `json:"endpoints_missing,omitempty" yaml:"endpoints_missing,omitempty"`
	// PerRequestHosts is the cluster type of a cluster whose hosts Envoy
	// makes per request (ORIGINAL_DST, dynamic forward proxy): no priority
	// load, panic or budget applies, and its priorities and hosts are empty.
	PerRequestHosts string `json:"per_request_hosts,omitempty" yaml:"per_request_hosts,omitempty"`
	// HostsFromLiveHealth: an EDS cluster whose assignment is not in the
	// input, explained over the hosts an admin /clusters reading lists.
	HostsFromLiveHealth bool `json:"hosts_from_live_health,omitempty" yaml:"hosts_from_live_health,omitempty"`
}

// PriorityReport is one priority level.
type PriorityReport struct {
	Priority             int              `json:"priority" yaml:"priority"`
	Hosts                int              `json:"hosts" yaml:"hosts"`
	Healthy              int              `json:"healthy" yaml:"healthy"`
	Degraded             int              `json:"degraded" yaml:"degraded"`
	Excluded             int              `json:"excluded" yaml:"excluded"`
	Health               int              `json:"health" yaml:"health"`
	DegradedAvailability int              `json:"degraded_availability" yaml:"degraded_availability"`
	Panic                bool             `json:"panic" yaml:"panic"`
	HealthyLoad          int              `json:"healthy_load" yaml:"healthy_load"`
	DegradedLoad         int              `json:"degraded_load" yaml:"degraded_load"`
	Localities           []LocalityReport `json:"localities,omitempty" yaml:"localities,omitempty"`
	// Budget is the level's failure budget (explain with Envoy semantics).
	Budget *Budget `json:"budget,omitempty" yaml:"budget,omitempty"`
}

// Budget is how many of a level's healthy hosts can fail before a state
// changes (failure.Budget); nil: never.
type Budget struct {
	BeforeSpill      *int `json:"before_spill" yaml:"before_spill"`
	BeforePanic      *int `json:"before_panic" yaml:"before_panic"`
	BeforeTotalPanic *int `json:"before_total_panic" yaml:"before_total_panic"`
}

// AggregateBudget is an aggregate level's budget; BeforeFailover: before
// traffic moves from the level's child cluster to another child.
type AggregateBudget struct {
	Budget         `yaml:",inline"`
	BeforeFailover *int `json:"before_failover" yaml:"before_failover"`
}

// LocalityReport is one locality of a priority.
type LocalityReport struct {
	Region          string  `json:"region" yaml:"region"`
	Zone            string  `json:"zone" yaml:"zone"`
	SubZone         string  `json:"sub_zone" yaml:"sub_zone"`
	Weight          uint32  `json:"weight" yaml:"weight"`
	Hosts           int     `json:"hosts" yaml:"hosts"`
	Healthy         int     `json:"healthy" yaml:"healthy"`
	Degraded        int     `json:"degraded" yaml:"degraded"`
	EffectiveWeight float64 `json:"effective_weight" yaml:"effective_weight"`
	Share           float64 `json:"share" yaml:"share"`
	// Budget is the failure budget of this locality's healthy hosts alone
	// (explain with Envoy semantics; absent past lbmodel's work bound).
	Budget *LocalityBudget `json:"budget,omitempty" yaml:"budget,omitempty"`
}

// LocalityBudget is a locality's budget (failure.LocalityBudget);
// BeforeShift: before the locality's share of its priority drops.
type LocalityBudget struct {
	Budget      `yaml:",inline"`
	BeforeShift *int `json:"before_shift" yaml:"before_shift"`
}

// HostReport is one host and its share of the cluster's traffic.
type HostReport struct {
	// Cluster is the child cluster owning the host (aggregate clusters only).
	Cluster  string `json:"cluster,omitempty" yaml:"cluster,omitempty"`
	Address  string `json:"address" yaml:"address"`
	Hostname string `json:"hostname" yaml:"hostname"`
	Priority int    `json:"priority" yaml:"priority"`
	Region   string `json:"region" yaml:"region"`
	Zone     string `json:"zone" yaml:"zone"`
	SubZone  string `json:"sub_zone" yaml:"sub_zone"`
	Health   string `json:"health" yaml:"health"`
	Weight   uint32 `json:"weight" yaml:"weight"`
	// Share is nil where lbctl cannot compute it (see the notes).
	Share *float64 `json:"share" yaml:"share"`
}

// AggregateReport is an aggregate cluster's top tier.
type AggregateReport struct {
	Clusters    []string             `json:"clusters" yaml:"clusters"`
	Levels      []AggregateLevel     `json:"levels" yaml:"levels"`
	ClusterLoad []AggregateClusterLd `json:"cluster_load" yaml:"cluster_load"`
	TotalPanic  bool                 `json:"total_panic" yaml:"total_panic"`
}

// AggregateLevel is one linearized level.
type AggregateLevel struct {
	Cluster      string `json:"cluster" yaml:"cluster"`
	Priority     int    `json:"priority" yaml:"priority"`
	Health       int    `json:"health" yaml:"health"`
	HealthyLoad  int    `json:"healthy_load" yaml:"healthy_load"`
	DegradedLoad int    `json:"degraded_load" yaml:"degraded_load"`
	Panic        bool   `json:"panic" yaml:"panic"`
	// ChildPanic is the child cluster's own panic flag for this priority,
	// which decides whether the child uses all hosts of the level.
	ChildPanic bool `json:"child_panic" yaml:"child_panic"`
	// Budget is the level's failure budget, with BeforeFailover.
	Budget *AggregateBudget `json:"budget,omitempty" yaml:"budget,omitempty"`
}

// AggregateClusterLd is a child cluster's share of the aggregate's traffic.
type AggregateClusterLd struct {
	Cluster string `json:"cluster" yaml:"cluster"`
	Load    int    `json:"load" yaml:"load"`
}

// ZoneRoutingReport is zone-aware routing's state for priority 0.
type ZoneRoutingReport struct {
	State        string               `json:"state" yaml:"state"`
	LocalPercent uint64               `json:"local_percent" yaml:"local_percent"`
	Localities   []ZoneLocalityReport `json:"localities" yaml:"localities"`
	Reason       string               `json:"reason,omitempty" yaml:"reason,omitempty"`
}

// ZoneLocalityReport is an upstream locality's share of zone-routed requests.
type ZoneLocalityReport struct {
	Region  string  `json:"region" yaml:"region"`
	Zone    string  `json:"zone" yaml:"zone"`
	SubZone string  `json:"sub_zone" yaml:"sub_zone"`
	Share   float64 `json:"share" yaml:"share"`
}

// ShareNoise is the smallest difference between two reports' shares or
// loads that is a change: below any difference a configuration can make
// (shares are cleaned to 12 significant digits) and above float summation
// noise. diff and explain --watch both compare with it.
const ShareNoise = 1e-12
