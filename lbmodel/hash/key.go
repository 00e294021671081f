package hash

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/lbctl/lbctl/lbmodel"
)

// Key is the string consistent hashing places a host by:
// ThreadAwareLoadBalancerBase::HashingLoadBalancer::hashKey
// (load_balancing_policies/common/thread_aware_lb_impl.h). A non-empty string
// filter_metadata["envoy.lb"]["hash_key"] wins (any other type is ignored),
// then the hostname when use_hostname_for_hashing is set, else the address
// as Address::asString() writes it (ip:port, [ipv6]:port, no tcp:// prefix).
func Key(h *lbmodel.Host, useHostname bool) string {
	if v, ok := h.Metadata["hash_key"].(string); ok && v != "" {
		return v
	}
	if useHostname {
		return h.Hostname
	}
	return h.Address
}

// WeightedHost is one entry of Envoy's NormalizedHostWeightVector: a host and
// its share of the priority level, the shares summing to about 1. Host
// points into the caller's hosts (read-only): a copy per entry doubled
// the memory of a 100k-host ring.
type WeightedHost struct {
	Host   *lbmodel.Host
	Weight float64
}

// NormalizedWeights is what ThreadAwareLoadBalancerBase::refresh() hands to
// the ring or Maglev builder for one priority: the (host, weight) vector in
// Envoy's order, and its min (starting at 1.0) and max (starting at 0.0).
type NormalizedWeights struct {
	Hosts    []WeightedHost
	Min, Max float64
}

// NormalizeOptions say which of Envoy's two normalizations applies.
type NormalizeOptions struct {
	// LocalityWeighted is locality_weighted_lb_config being set (legacy
	// common_lb_config or the typed RingHash/Maglev field).
	LocalityWeighted bool
	// Panic: the priority is in panic, so all its hosts are used instead of
	// its healthy ones (degraded hosts are only used in panic).
	Panic bool
	// LocalLocality is the node's locality; when it has hosts in this level
	// it is ordered first, as PriorityStateManager::updateClusterPrioritySet
	// does. Nil when the node has no locality.
	LocalLocality *lbmodel.Locality
	// EmptyLocalityWeight is the weight of localities that have no host
	// in hosts but count in the locality sum: a subset's host set keeps
	// every locality of its cluster (HostSubsetImpl::update), weighted
	// ones without a subset host included.
	EmptyLocalityWeight uint64
}

// maxWeightSum is the limit TypedHashLbConfigBase::validateEndpoints puts on
// a level's host weight sum and locality weight sum.
const maxWeightSum = math.MaxUint32

// NormalizeWeights is normalizeWeights / normalizeHostWeights /
// normalizeLocalityWeights (thread_aware_lb_impl.cc) for the hosts of one
// priority level, given in configuration order. Flat mode gives each used
// host weight/Σweight; locality mode gives weight*(lw/Σlw)/Σweight-in-locality,
// skips zero-weight localities, and yields no hosts when every locality
// weight is 0. Arithmetic is float64 in Envoy's operation order.
// Errors are validateEndpoints' weight-sum limits.
func NormalizeWeights(hosts []lbmodel.Host, opt NormalizeOptions) (NormalizedWeights, error) {
	out := NormalizedWeights{Min: 1.0, Max: 0.0}
	var total uint64
	for i := range hosts { // by index: a Host is over 100 bytes
		total += lbmodel.HostWeight(hosts[i])
	}
	if total > maxWeightSum {
		return out, fmt.Errorf("the sum of weights of all upstream hosts in a locality exceeds %d", uint64(maxWeightSum))
	}
	used := func(h *lbmodel.Host) bool { return opt.Panic || h.Health() == lbmodel.Healthy }
	if !opt.LocalityWeighted || len(hosts) == 0 {
		out.addLocality(hosts, used, 1.0)
		return out, nil
	}
	groups := groupByLocality(hosts, opt.LocalLocality)
	lsum := opt.EmptyLocalityWeight
	for _, g := range groups {
		lsum += uint64(g.weight)
	}
	if lsum > maxWeightSum {
		return out, fmt.Errorf("the sum of weights of all localities at the same priority exceeds %d", uint64(maxWeightSum))
	}
	if lsum == 0 {
		return out, nil
	}
	for _, g := range groups {
		if g.weight == 0 {
			continue
		}
		out.addLocality(g.hosts, used, float64(g.weight)/float64(lsum))
	}
	return out, nil
}

// addLocality is normalizeHostWeights over the used hosts: weight * nlw /
// sum, left to right.
func (n *NormalizedWeights) addLocality(hosts []lbmodel.Host, used func(*lbmodel.Host) bool, nlw float64) {
	var sum uint64
	count := 0
	for i := range hosts {
		if used(&hosts[i]) {
			sum += lbmodel.HostWeight(hosts[i])
			count++
		}
	}
	n.Hosts = slices.Grow(n.Hosts, count) // one allocation, not regrowth
	for i := range hosts {
		h := &hosts[i]
		if !used(h) {
			continue
		}
		w := float64(lbmodel.HostWeight(*h)) * nlw / float64(sum)
		n.Hosts = append(n.Hosts, WeightedHost{Host: h, Weight: w})
		n.Min = min(n.Min, w)
		n.Max = max(n.Max, w)
	}
}

type localityGroup struct {
	loc    lbmodel.Locality
	weight uint32
	hosts  []lbmodel.Host
}

// groupByLocality builds hosts_per_locality and locality_weights as
// PriorityStateManager::updateClusterPrioritySet (upstream_impl.cc) orders
// them: the local locality first when it has hosts, the rest sorted by
// (region, zone, sub_zone). A locality's weight is the last one registered
// for it (the map is overwritten per LocalityLbEndpoints).
func groupByLocality(hosts []lbmodel.Host, local *lbmodel.Locality) []localityGroup {
	idx := map[lbmodel.Locality]int{}
	var groups []localityGroup
	for _, h := range hosts {
		i, ok := idx[h.Locality]
		if !ok {
			i = len(groups)
			idx[h.Locality] = i
			groups = append(groups, localityGroup{loc: h.Locality})
		}
		groups[i].weight = h.LocalityWeight
		groups[i].hosts = append(groups[i].hosts, h)
	}
	slices.SortStableFunc(groups, func(a, b localityGroup) int {
		aLocal := local != nil && a.loc == *local
		bLocal := local != nil && b.loc == *local
		switch {
		case aLocal && !bLocal:
			return -1
		case bLocal && !aLocal:
			return 1
		}
		return cmp.Or(cmp.Compare(a.loc.Region, b.loc.Region),
			cmp.Compare(a.loc.Zone, b.loc.Zone),
			cmp.Compare(a.loc.SubZone, b.loc.SubZone))
	})
	return groups
}

// Hash key warnings: empty keys (only a debug ASSERT in Envoy) and keys
// shared by several hosts (placement among them is then unspecified in
// Envoy). The tests hold both builders to a map of the keys.

// keyWarningsHashed is the warnings for keys with a hash each (equal keys,
// equal hashes): grouped by a radix sort of the hashes instead of a map of
// the keys (100k keys: 9 ms), each group's keys then compared as strings.
func keyWarningsHashed(keys []string, hashes []uint64) []string {
	if len(keys) == 0 {
		return nil
	}
	idx := make([]int32, len(keys))
	for i := range idx {
		idx[i] = int32(i)
	}
	h, at := radixSortPoints(slices.Clone(hashes), idx, make([]uint64, len(keys)), make([]int32, len(keys)))
	var w, dups []string
	counts := map[string]int{}
	if slices.Contains(keys, "") {
		w = append(w, emptyKeyWarning)
	}
	for i := 0; i < len(h); {
		j := i + 1
		for j < len(h) && h[j] == h[i] {
			j++
		}
		if j-i > 1 { // equal keys, or (rarely) a collision: sort the group by key
			group := make([]string, 0, j-i)
			for _, k := range at[i:j] {
				group = append(group, keys[k])
			}
			slices.Sort(group)
			for a := 0; a < len(group); {
				b := a + 1
				for b < len(group) && group[b] == group[a] {
					b++
				}
				if b-a > 1 && group[a] != "" {
					dups = append(dups, group[a])
					counts[group[a]] = b - a
				}
				a = b
			}
		}
		i = j
	}
	slices.Sort(dups)
	for _, k := range dups {
		w = append(w, fmt.Sprintf(sharedKeyWarning, k, counts[k]))
	}
	return w
}

const (
	emptyKeyWarning  = "a host has an empty hash key; Envoy only asserts against this in debug builds"
	sharedKeyWarning = "hash key %q is shared by %d hosts; Envoy's order among them is unspecified"
)

// keyWarningsSorted is the warnings for keys visited in sorted order (as
// the Maglev build has them): equal keys are adjacent, no map needed.
func keyWarningsSorted(keys []string, order []int) []string {
	var w []string
	for i := 0; i < len(order); {
		k, j := keys[order[i]], i+1
		for j < len(order) && keys[order[j]] == k {
			j++
		}
		switch {
		case k == "":
			w = append(w, emptyKeyWarning)
		case j-i > 1:
			w = append(w, fmt.Sprintf(sharedKeyWarning, k, j-i))
		}
		i = j
	}
	return w
}
