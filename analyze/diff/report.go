// Package diff answers what a configuration change does to traffic: it
// pairs the clusters of two loaded configurations by name, finds those
// whose load-balancing inputs differ, and compares their traffic pictures
// (the explain report of each side, computed by the caller) and, for ring
// hash and Maglev, their key-space placement. Field names are contract.md's.
package diff

// Change is a value on both sides; a nil side is one where the thing does
// not exist (JSON null).
type Change[T any] struct {
	Old *T `json:"old" yaml:"old"`
	New *T `json:"new" yaml:"new"`
}

func both[T any](o, n T) *Change[T] { return &Change[T]{Old: &o, New: &n} }

// Report is `lbctl diff`'s result.
type Report struct {
	Semantics string    `json:"semantics,omitempty" yaml:"semantics,omitempty"`
	Changed   bool      `json:"changed" yaml:"changed"`
	Clusters  []Cluster `json:"clusters" yaml:"clusters"`
	Findings  Findings  `json:"findings" yaml:"findings"`
	Summary   Summary   `json:"summary" yaml:"summary"`
	// GRPC is the same comparison under gRPC semantics (--semantics both).
	GRPC *Report `json:"grpc,omitempty" yaml:"grpc,omitempty"`
	// settingsOnly is Summary.SettingsOnly, kept across finish.
	settingsOnly []string
}

// Cluster is what changed in one cluster's traffic picture, most important
// first; unchanged parts are left out (omitempty).
type Cluster struct {
	Name   string `json:"name" yaml:"name"`
	Change string `json:"change" yaml:"change"` // added | removed | modified
	// Config names the configuration when a side holds several (each
	// bootstrap or config_dump is its own, as lint groups inputs).
	Config string `json:"config,omitempty" yaml:"config,omitempty"`
	// RenamedFrom / RenamedTo pair a removed and an added cluster with the
	// same endpoints: it looks like a rename.
	RenamedFrom string `json:"renamed_from,omitempty" yaml:"renamed_from,omitempty"`
	RenamedTo   string `json:"renamed_to,omitempty" yaml:"renamed_to,omitempty"`
	// File is where the cluster is defined on each side (file:line:col).
	File *Change[string] `json:"file,omitempty" yaml:"file,omitempty"`
	// At is where in NEW the change shows (the changed field or endpoint).
	At                     string           `json:"at,omitempty" yaml:"at,omitempty"`
	LbPolicy               *Change[string]  `json:"lb_policy,omitempty" yaml:"lb_policy,omitempty"`
	OverprovisioningFactor *Change[uint32]  `json:"overprovisioning_factor,omitempty" yaml:"overprovisioning_factor,omitempty"`
	PanicThreshold         *Change[int]     `json:"panic_threshold,omitempty" yaml:"panic_threshold,omitempty"`
	TotalPanic             *Change[bool]    `json:"total_panic,omitempty" yaml:"total_panic,omitempty"`
	NoHostShare            *Change[float64] `json:"no_host_share,omitempty" yaml:"no_host_share,omitempty"`
	Priorities             []Priority       `json:"priorities,omitempty" yaml:"priorities,omitempty"`
	Aggregate              *Aggregate       `json:"aggregate,omitempty" yaml:"aggregate,omitempty"`
	Localities             []Locality       `json:"localities,omitempty" yaml:"localities,omitempty"`
	ZoneRouting            *ZoneRouting     `json:"zone_routing,omitempty" yaml:"zone_routing,omitempty"`
	Hosts                  []Host           `json:"hosts,omitempty" yaml:"hosts,omitempty"`
	// Doubled and Halved count hosts on both sides whose share more than
	// doubled or fell below half.
	Doubled int   `json:"doubled,omitempty" yaml:"doubled,omitempty"`
	Halved  int   `json:"halved,omitempty" yaml:"halved,omitempty"`
	Hash    *Hash `json:"hash,omitempty" yaml:"hash,omitempty"`
	// HashPolicy lists the hash_policy of each route to the cluster.
	HashPolicy *Change[[]string] `json:"hash_policy,omitempty" yaml:"hash_policy,omitempty"`
	Subset     *Subset           `json:"subset,omitempty" yaml:"subset,omitempty"`
	// MaxShift is the largest |Δ share| of a host, a fraction.
	MaxShift float64 `json:"max_shift" yaml:"max_shift"`
	// Notes: what could not be compared, and why.
	Notes []string `json:"notes,omitempty" yaml:"notes,omitempty"`
}

// Priority is one level whose loads or panic state changed.
type Priority struct {
	Priority     int           `json:"priority" yaml:"priority"`
	HealthyLoad  *Change[int]  `json:"healthy_load" yaml:"healthy_load"`
	DegradedLoad *Change[int]  `json:"degraded_load" yaml:"degraded_load"`
	Panic        *Change[bool] `json:"panic" yaml:"panic"`
}

// Locality is one locality whose share of its priority changed.
type Locality struct {
	Priority int              `json:"priority" yaml:"priority"`
	Region   string           `json:"region" yaml:"region"`
	Zone     string           `json:"zone" yaml:"zone"`
	SubZone  string           `json:"sub_zone" yaml:"sub_zone"`
	Share    *Change[float64] `json:"share" yaml:"share"`
}

// ZoneRouting is a change of zone-aware routing's state for priority 0.
type ZoneRouting struct {
	State        *Change[string] `json:"state" yaml:"state"`
	LocalPercent *Change[uint64] `json:"local_percent" yaml:"local_percent"`
}

// Host is one host added, removed, or whose share, health or weight changed.
type Host struct {
	Cluster string           `json:"cluster,omitempty" yaml:"cluster,omitempty"` // aggregate: the child
	Address string           `json:"address" yaml:"address"`
	Change  string           `json:"change" yaml:"change"` // added | removed | modified
	Share   *Change[float64] `json:"share" yaml:"share"`
	// Unknown: explain cannot compute the host's share on a side where it
	// exists (its share there is null); it does not count in max_shift.
	Unknown bool            `json:"unknown,omitempty" yaml:"unknown,omitempty"`
	Health  *Change[string] `json:"health,omitempty" yaml:"health,omitempty"`
	Weight  *Change[uint32] `json:"weight,omitempty" yaml:"weight,omitempty"`
}

// Aggregate is an aggregate cluster's per-child load change.
type Aggregate struct {
	ClusterLoad []ChildLoad `json:"cluster_load" yaml:"cluster_load"`
}

// ChildLoad is one child cluster's percentage of the aggregate's traffic.
type ChildLoad struct {
	Cluster string       `json:"cluster" yaml:"cluster"`
	Load    *Change[int] `json:"load" yaml:"load"`
}

// Hash is the key space that maps to a different host (ring hash, Maglev).
type Hash struct {
	Moved float64    `json:"moved" yaml:"moved"`
	Hosts []HashHost `json:"hosts,omitempty" yaml:"hosts,omitempty"`
}

// HashHost is the key space one host gained and lost, fractions of 2^64.
type HashHost struct {
	Address string  `json:"address" yaml:"address"`
	Gained  float64 `json:"gained" yaml:"gained"`
	Lost    float64 `json:"lost" yaml:"lost"`
}

// Subset is a change of the subset load balancer's configuration.
type Subset struct {
	FallbackPolicy *Change[string]   `json:"fallback_policy,omitempty" yaml:"fallback_policy,omitempty"`
	Selectors      *Change[[]string] `json:"selectors,omitempty" yaml:"selectors,omitempty"`
	DefaultSubset  *Change[string]   `json:"default_subset,omitempty" yaml:"default_subset,omitempty"`
}

// Findings are lint findings present only in NEW (new) or only in OLD (fixed).
type Findings struct {
	New   []Finding `json:"new" yaml:"new"`
	Fixed []Finding `json:"fixed" yaml:"fixed"`
}

// Finding is one lint finding, in lint -o json's shape plus its cluster.
type Finding struct {
	Rule     string `json:"rule" yaml:"rule"`
	Name     string `json:"name" yaml:"name"`
	Severity string `json:"severity" yaml:"severity"`
	File     string `json:"file" yaml:"file"`
	Line     int    `json:"line" yaml:"line"`
	Column   int    `json:"column" yaml:"column"`
	Message  string `json:"message" yaml:"message"`
	Hint     string `json:"hint" yaml:"hint"`
	Cluster  string `json:"cluster,omitempty" yaml:"cluster,omitempty"`
}

// Summary is the whole diff in four numbers.
type Summary struct {
	ClustersChanged int     `json:"clusters_changed" yaml:"clusters_changed"`
	MaxShift        float64 `json:"max_shift" yaml:"max_shift"`
	MaxMoved        float64 `json:"max_moved" yaml:"max_moved"`
	NewFindings     int     `json:"new_findings" yaml:"new_findings"`
	FixedFindings   int     `json:"fixed_findings" yaml:"fixed_findings"`
	// SettingsOnly names the clusters whose settings changed but whose
	// traffic did not; they are left out of clusters.
	SettingsOnly []string `json:"settings_only,omitempty" yaml:"settings_only,omitempty"`
}
