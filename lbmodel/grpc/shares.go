package grpc

import (
	"fmt"
	"math"
	"sort"

	"github.com/lbctl/lbctl/lbmodel"
)

// HostShare is the fraction of a priority's traffic one host receives.
type HostShare struct {
	Address  string
	Locality lbmodel.Locality
	Kept     bool    // HEALTHY/UNKNOWN in a locality with non-zero weight
	Weight   uint32  // weight handed to the leaf policy (ring hash: A113 fixed point)
	Entries  int     // ring hash only: entries on the ring
	Share    float64 // expected fraction of the priority's picks
}

// LocalityShare is one locality's share of its priority.
type LocalityShare struct {
	Locality lbmodel.Locality
	Weight   uint32
	Share    float64
}

// Shares is the per-priority traffic split under gRPC semantics.
type Shares struct {
	Hosts      []HostShare     // input order
	Localities []LocalityShare // first-appearance order; only when the policy has a locality level
	RingSize   int             // ring hash only
	Notes      []string
}

// PriorityShares splits one priority's traffic as gRPC does, assuming
// every kept endpoint is READY (grpc.md §5–7):
//   - localities with weight 0 are dropped while parsing EDS;
//   - only HEALTHY/UNKNOWN endpoints are used;
//   - xds_wrr_locality: locality share = weight / sum over localities with a
//     kept endpoint (weighted_target, weighted random; a locality is not
//     scaled by its healthy fraction); endpoints inside share equally
//     (round_robin and least_request ignore endpoint weights);
//   - bare round_robin / least_request / weighted_round_robin: one flat set,
//     equal shares (WRR weights come from ORCA, not EDS);
//   - pick_first: the first kept endpoint takes everything (no shuffle);
//   - ring_hash: ring entries over ring size (Ring).
func PriorityShares(hosts []lbmodel.Host, p Policy) (Shares, error) {
	out := Shares{Hosts: make([]HostShare, len(hosts))}
	keptIn := map[lbmodel.Locality]int{}
	locW := map[lbmodel.Locality]uint32{}
	var order []lbmodel.Locality
	kept := 0
	for i, h := range hosts {
		out.Hosts[i] = HostShare{Address: h.Address, Locality: h.Locality}
		if _, seen := locW[h.Locality]; !seen {
			order = append(order, h.Locality)
			locW[h.Locality] = h.LocalityWeight
		}
		if h.LocalityWeight == 0 || !KeepsEndpoint(h.Status) {
			continue
		}
		out.Hosts[i].Kept = true
		keptIn[h.Locality]++
		kept++
	}
	for _, l := range order {
		if locW[l] == 0 {
			out.Notes = append(out.Notes, fmt.Sprintf("locality %q has no load_balancing_weight: gRPC drops it while parsing EDS", l.String()))
		}
	}
	if kept == 0 {
		out.Notes = append(out.Notes, "no usable endpoint: the priority reports TRANSIENT_FAILURE")
		return out, nil
	}
	leaf := p.Leaf()
	switch {
	case p.Name == RingHash:
		return ringShares(hosts, p, out)
	case p.LocalityLevel():
		var sum uint64
		for _, l := range order {
			if keptIn[l] > 0 {
				sum += uint64(locW[l])
			}
		}
		for _, l := range order {
			if keptIn[l] == 0 {
				continue
			}
			s := float64(locW[l]) / float64(sum)
			out.Localities = append(out.Localities, LocalityShare{Locality: l, Weight: locW[l], Share: s})
		}
		for i := range out.Hosts {
			h := &out.Hosts[i]
			if h.Kept {
				h.Share = float64(locW[h.Locality]) / float64(sum) / float64(keptIn[h.Locality])
			}
		}
		if leaf.Name != RoundRobin {
			out.Notes = append(out.Notes, leaf.Name+" inside each locality: equal expected shares assumed")
		}
	case leaf.Name == PickFirst:
		for i := range out.Hosts {
			if out.Hosts[i].Kept {
				out.Hosts[i].Share = 1
				break
			}
		}
		out.Notes = append(out.Notes, "pick_first: every RPC goes to the first reachable endpoint")
	default:
		for i := range out.Hosts {
			if out.Hosts[i].Kept {
				out.Hosts[i].Share = 1 / float64(kept)
			}
		}
		out.Notes = append(out.Notes, leaf.Name+" has no locality level: locality weights have no effect")
	}
	return out, nil
}

// EndpointWeights computes the weight grpc-go hands each kept endpoint
// (A113, GRPC_EXPERIMENTAL_PF_WEIGHTED_SHUFFLING on, the default): locality
// weight over the priority's locality sum, times endpoint weight over the
// locality's endpoint sum, each in UQ1.31 fixed point (x<<31/sum), multiplied
// and shifted back; 0 becomes 1. The endpoint sum counts every endpoint of
// the locality, including those later dropped for health. grpc-go
// internal/xds/balancer/clusterresolver/configbuilder.go
// priorityLocalitiesToClusterImpl, fractionToFixedPoint, fixedPointMultiply.
// Dropped endpoints get weight 0.
func EndpointWeights(hosts []lbmodel.Host) []uint32 {
	var locSum uint64
	epSum := map[lbmodel.Locality]uint64{}
	seen := map[lbmodel.Locality]bool{}
	for _, h := range hosts {
		if h.LocalityWeight == 0 {
			continue
		}
		if !seen[h.Locality] {
			seen[h.Locality] = true
			locSum += uint64(h.LocalityWeight)
		}
		epSum[h.Locality] += uint64(endpointWeight(h))
	}
	out := make([]uint32, len(hosts))
	for i, h := range hosts {
		if h.LocalityWeight == 0 || !KeepsEndpoint(h.Status) {
			continue
		}
		nl := uint32(uint64(h.LocalityWeight) << 31 / locSum)
		ne := uint32(uint64(endpointWeight(h)) << 31 / epSum[h.Locality])
		w := uint32(uint64(ne) * uint64(nl) >> 31)
		if w == 0 {
			w = 1
		}
		out[i] = w
	}
	return out
}

func endpointWeight(h lbmodel.Host) uint32 {
	if h.Weight == 0 {
		return 1
	}
	return h.Weight
}

// RingEndpoint is one ring hash endpoint: its hash key (A76 hash_key
// metadata, else its first address) and weight.
type RingEndpoint struct {
	HashKey string
	Weight  uint32
}

// Ring returns the ring size and each endpoint's entry count (input
// order) as grpc-go balancer/ringhash/ring.go newRing builds it: weights
// normalised to sum 1; scale = min(ceil(w_min*minSize)/w_min, maxSize);
// size = ceil(scale); entries assigned by running sums with the endpoints
// sorted by hash key (Envoy keeps host order, so per-endpoint counts can
// differ by one from Envoy's for the same ring size).
func Ring(eps []RingEndpoint, minSize, maxSize uint64) (int, []int, error) {
	if len(eps) == 0 {
		return 0, nil, fmt.Errorf("ring hash: no endpoints")
	}
	if minSize == 0 || maxSize == 0 || minSize > maxSize {
		return 0, nil, fmt.Errorf("ring hash: invalid ring bounds min %d max %d", minSize, maxSize)
	}
	var sum uint64
	for _, e := range eps {
		sum += uint64(e.Weight)
	}
	if sum == 0 {
		return 0, nil, fmt.Errorf("ring hash: all endpoint weights are 0")
	}
	idx := make([]int, len(eps))
	minW := 1.0
	for i, e := range eps {
		idx[i] = i
		minW = math.Min(minW, float64(e.Weight)/float64(sum))
	}
	if minW == 0 {
		return 0, nil, fmt.Errorf("ring hash: endpoint weight 0")
	}
	sort.SliceStable(idx, func(a, b int) bool { return eps[idx[a]].HashKey < eps[idx[b]].HashKey })
	scale := math.Min(math.Ceil(minW*float64(minSize))/minW, float64(maxSize))
	counts := make([]int, len(eps))
	var cur, target float64
	for _, i := range idx {
		target += scale * (float64(eps[i].Weight) / float64(sum))
		for cur < target {
			counts[i]++
			cur++
		}
	}
	return int(math.Ceil(scale)), counts, nil
}

// hashKey is A76's endpoint hash key: filter_metadata envoy.lb
// hash_key when it is a non-empty string (grpc-go default), else the
// address.
func hashKey(h lbmodel.Host) string {
	if k, ok := h.Metadata["hash_key"].(string); ok && k != "" {
		return k
	}
	return h.Address
}

func ringShares(hosts []lbmodel.Host, p Policy, out Shares) (Shares, error) {
	w := EndpointWeights(hosts)
	var eps []RingEndpoint
	var at []int
	for i, h := range hosts {
		if out.Hosts[i].Kept {
			eps = append(eps, RingEndpoint{HashKey: hashKey(h), Weight: w[i]})
			at = append(at, i)
		}
	}
	size, counts, err := Ring(eps, p.MinRingSize, p.MaxRingSize)
	if err != nil {
		return out, err
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	out.RingSize = size
	for j, i := range at {
		out.Hosts[i].Weight = w[i]
		out.Hosts[i].Entries = counts[j]
		out.Hosts[i].Share = float64(counts[j]) / float64(total)
	}
	if len(eps) > int(p.MaxRingSize) {
		out.Notes = append(out.Notes, fmt.Sprintf("%d endpoints on a ring capped at %d entries: some endpoints get no entry", len(eps), p.MaxRingSize))
	}
	return out, nil
}
