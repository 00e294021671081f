package lbmodel

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
)

// Criterion is one route metadata_match criterion: a top-level key of
// filter_metadata["envoy.lb"] and its value (a plain Go value as in
// Host.Metadata).
type Criterion struct {
	Name  string
	Value any
}

// MatchCriteria is Router::MetadataMatchCriteriaImpl: criteria sorted by
// name, bytewise, with unique names. A nil *MatchCriteria means "no
// criteria" (Envoy's nullptr), which differs from present-but-empty: the
// subset LB treats both as "no subset", but only nil skips the per-selector
// fallback lookup and FALLBACK_LIST.
type MatchCriteria struct {
	Entries []Criterion
}

// Conventions for optional structs: in the functions below a nil
// map[string]any means the struct (metadata_match, or its "envoy.lb" key) is
// absent, and a non-nil map, even empty, means it is present.

// NewMatchCriteria builds criteria from a metadata_match envoy.lb struct, as
// MetadataMatchCriteriaImpl(const Struct&) does: the fields, sorted by name.
// A nil struct gives nil criteria.
func NewMatchCriteria(fields map[string]any) *MatchCriteria {
	if fields == nil {
		return nil
	}
	return (*MatchCriteria)(nil).Merge(fields)
}

// Merge is mergeMatchCriteria / extractMetadataMatchCriteria
// (source/common/router/metadatamatchcriteria_impl.cc): start from the
// parent's criteria in order, replace in place every name the struct also
// has (any kind may replace any kind), append the others, then sort the
// whole list by name. A nil receiver acts as an absent parent. A nil struct
// returns the receiver unchanged (Envoy never calls merge without one).
func (m *MatchCriteria) Merge(fields map[string]any) *MatchCriteria {
	if fields == nil {
		return m
	}
	out := &MatchCriteria{}
	index := map[string]int{}
	if m != nil {
		for _, c := range m.Entries {
			index[c.Name] = len(out.Entries)
			out.Entries = append(out.Entries, c)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		if i, ok := index[name]; ok {
			out.Entries[i] = Criterion{name, fields[name]}
		} else {
			out.Entries = append(out.Entries, Criterion{name, fields[name]})
		}
	}
	sort.SliceStable(out.Entries, func(i, j int) bool { return out.Entries[i].Name < out.Entries[j].Name })
	return out
}

// Filter is filterMatchCriteria: keep the criteria whose name is in names,
// in order. The current Envoy returns an empty, non-null criteria object when
// nothing is kept (an older one returned nullptr); either way the subset LB
// finds no subset. A nil receiver gives nil.
func (m *MatchCriteria) Filter(names []string) *MatchCriteria {
	if m == nil {
		return nil
	}
	keep := map[string]bool{}
	for _, n := range names {
		keep[n] = true
	}
	out := &MatchCriteria{Entries: []Criterion{}}
	for _, c := range m.Entries {
		if keep[c.Name] {
			out.Entries = append(out.Entries, c)
		}
	}
	return out
}

// Get returns the value of the criterion called name.
func (m *MatchCriteria) Get(name string) (any, bool) {
	if m == nil {
		return nil, false
	}
	for _, c := range m.Entries {
		if c.Name == name {
			return c.Value, true
		}
	}
	return nil, false
}

// Names returns the criteria names in order.
func (m *MatchCriteria) Names() []string {
	if m == nil {
		return nil
	}
	out := make([]string, len(m.Entries))
	for i, c := range m.Entries {
		out[i] = c.Name
	}
	return out
}

// Map returns the criteria as a struct (nil for nil criteria).
func (m *MatchCriteria) Map() map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m.Entries))
	for _, c := range m.Entries {
		out[c.Name] = c.Value
	}
	return out
}

// String renders criteria as "{stage: "prod", v: "1.0"}", or "(none)".
func (m *MatchCriteria) String() string {
	if m == nil {
		return "(none)"
	}
	parts := make([]string, len(m.Entries))
	for i, c := range m.Entries {
		parts[i] = c.Name + ": " + FormatValue(c.Value)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// RouteCriteria computes the criteria a request carries to the subset LB.
//   - route is route.metadata_match.filter_metadata["envoy.lb"]
//     (RouteEntryImplBase constructor, config_impl.cc);
//   - weightedCluster is the chosen weighted cluster's own envoy.lb struct:
//     when present it is merged over the route criteria (or stands alone),
//     when absent the route criteria are used unchanged
//     (WeightedClustersConfigEntry constructor and
//     WeightedClusterEntry::metadataMatchCriteria, weighted_cluster_specifier.cc);
//   - dynamic is the request's dynamic metadata under envoy.lb (set by
//     filters such as header_to_metadata), merged over everything
//     (Router::Filter::metadataMatchCriteria, router.h).
//
// Each argument is nil when absent. tcp_proxy follows the same rules with
// its top-level metadata_match in the route's place.
func RouteCriteria(route, weightedCluster, dynamic map[string]any) *MatchCriteria {
	c := NewMatchCriteria(route)
	c = c.Merge(weightedCluster)
	return c.Merge(dynamic)
}

// WeightedCluster is one entry of route.weighted_clusters.clusters as
// WeightedClusterSpecifierPlugin::pickWeightedCluster sees it.
type WeightedCluster struct {
	Name string
	// Weight is the configured weight, or the runtime override
	// (runtime_key_prefix + "." + name) when the caller resolved one.
	Weight uint32
	// HasHealthyHost is used only with health-aware selection: false when
	// every priority of the cluster has no healthy host.
	HasHealthyHost bool
	// MetadataMatch is the entry's envoy.lb struct (nil when absent).
	MetadataMatch map[string]any
}

// ErrWeightedClustersZero is Envoy's config rejection "Sum of weights in the
// weighted_cluster must be greater than 0."
var ErrWeightedClustersZero = errors.New("sum of weights in the weighted_cluster must be greater than 0")

// WeightedClusterWeights returns the weights pickWeightedCluster uses and
// their total: the configured (or runtime) weights, or with healthAware and
// more than one cluster, weights zeroed for clusters without a healthy host
// (healthawareClusterWeight) unless that would zero them all ("weighted
// panic mode"). Sums above 2^32-1 are rejected as Envoy rejects the config.
func WeightedClusterWeights(clusters []WeightedCluster, healthAware bool) ([]uint64, uint64, error) {
	w := make([]uint64, len(clusters))
	var total uint64
	for i, c := range clusters {
		w[i] = uint64(c.Weight)
		total += w[i]
	}
	if total > math.MaxUint32 {
		return nil, 0, fmt.Errorf("the sum of weights of all weighted clusters exceeds %d", uint64(math.MaxUint32))
	}
	if total == 0 {
		return nil, 0, ErrWeightedClustersZero
	}
	if healthAware && len(clusters) > 1 {
		hw := make([]uint64, len(clusters))
		var htotal uint64
		for i, c := range clusters {
			if c.HasHealthyHost {
				hw[i] = w[i]
			}
			htotal += hw[i]
		}
		if htotal > 0 {
			return hw, htotal, nil
		}
	}
	return w, total, nil
}

// PickWeightedCluster is pickWeightedCluster: value % total selects the
// cluster whose interval [sum of earlier weights, that sum + weight) holds
// it. value is the x-header value (see ParseWeightedClusterHeader) when one
// was read, else the route hash-policy hash with use_hash_policy, else the
// stream's random value.
func PickWeightedCluster(clusters []WeightedCluster, healthAware bool, value uint64) (int, error) {
	w, total, err := WeightedClusterWeights(clusters, healthAware)
	if err != nil {
		return -1, err
	}
	v := value % total
	var end uint64
	for i, wi := range w {
		end += wi
		if v < end {
			return i, nil
		}
	}
	return -1, fmt.Errorf("no weighted cluster for value %d", v) // unreachable: v < total
}

// WeightedClusterShares returns each cluster's long-run share w_i/total.
func WeightedClusterShares(clusters []WeightedCluster, healthAware bool) ([]float64, error) {
	w, total, err := WeightedClusterWeights(clusters, healthAware)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(w))
	for i, wi := range w {
		out[i] = float64(wi) / float64(total)
	}
	return out, nil
}

// ParseWeightedClusterHeader reads the weighted_clusters.header_name value as
// pickWeightedCluster does: only a single-valued header, parsed with
// absl::SimpleAtoi into uint64 (base 10, surrounding ASCII whitespace and one
// leading '+' allowed). ok is false when Envoy would use the random value.
func ParseWeightedClusterHeader(values []string) (uint64, bool) {
	if len(values) != 1 {
		return 0, false
	}
	s := strings.Trim(values[0], " \t\n\v\f\r")
	s = strings.TrimPrefix(s, "+")
	if s == "" {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		d := s[i]
		if d < '0' || d > '9' {
			return 0, false
		}
		if v > (math.MaxUint64-uint64(d-'0'))/10 {
			return 0, false
		}
		v = v*10 + uint64(d-'0')
	}
	return v, true
}
