package subset

import (
	"math"

	"github.com/lbctl/lbctl/lbmodel"
)

// Locality is one locality of a subset's host set at one priority.
type Locality struct {
	Locality lbmodel.Locality
	// Weight is the locality weight the subset's child LB sees.
	Weight uint32
	// Hosts is the subset's host count in the locality, OriginalHosts the
	// cluster's.
	Hosts, OriginalHosts int
}

// LocalityWeights is HostSubsetImpl::determineLocalityWeights
// (subset_lb.cc) for a pool (a subset's hosts) at one priority of the
// cluster's hosts. It returns nil when the subset carries no locality
// weights: locality_weight_aware off (scale_locality_weight alone does
// nothing), or the cluster has none (no host of the priority has a
// LocalityWeight). Localities are in order of first appearance in hosts.
// With scale_locality_weight each weight becomes
// round(float32(w*subset_hosts)/float32(original_hosts)), single precision,
// half away from zero; a locality with no original hosts keeps 0.
func LocalityWeights(cfg Config, hosts, pool []lbmodel.Host, priority int) []Locality {
	if !cfg.LocalityWeightAware {
		return nil
	}
	var out []Locality
	index := map[lbmodel.Locality]int{}
	weighted := false
	for _, h := range hosts {
		if h.Priority != priority {
			continue
		}
		i, ok := index[h.Locality]
		if !ok {
			i = len(out)
			index[h.Locality] = i
			out = append(out, Locality{Locality: h.Locality, Weight: h.LocalityWeight})
		}
		out[i].OriginalHosts++
		if h.LocalityWeight > 0 {
			weighted = true
		}
	}
	if !weighted {
		return nil
	}
	for _, h := range pool {
		if h.Priority != priority {
			continue
		}
		if i, ok := index[h.Locality]; ok {
			out[i].Hosts++
		}
	}
	if cfg.ScaleLocalityWeight {
		for i := range out {
			l := &out[i]
			if l.OriginalHosts == 0 {
				l.Weight = 0
				continue
			}
			q := float32(uint64(l.Weight)*uint64(l.Hosts)) / float32(l.OriginalHosts)
			l.Weight = uint32(math.Round(float64(q)))
		}
	}
	return out
}
