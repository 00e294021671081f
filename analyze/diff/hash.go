package diff

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/placement"
)

// Setup builds cl's rings or Maglev tables as `lbctl hash` does: for
// Envoy, ThreadAwareLoadBalancerBase::refresh per priority
// (source/extensions/load_balancing_policies/common/thread_aware_lb_impl.cc);
// for gRPC (grpc true), its ring over the endpoints it keeps and the first
// priority with endpoints. It returns nil for a cluster that does not hash
// (for gRPC, anything but RING_HASH).
func Setup(c *config.Config, cl *config.Cluster, grpc bool) (*placement.Setup, error) {
	m := model.Get(c, cl)
	if !model.IsHashPolicy(m.Policy) || grpc && m.Policy != "RING_HASH" {
		return nil, nil
	}
	s := model.Settings(c, cl)
	if m.Policy == "RING_HASH" {
		if err := s.Ring.Validate(); err != nil {
			return nil, err
		}
	} else if err := s.Maglev.Validate(); err != nil {
		return nil, err
	}
	hs, _, err := placement.ForCluster(c, m, s, grpc)
	return hs, err
}

// hashChange is the key space whose host differs between the two sides'
// placements: exact, from both rings (merged cut points) or tables (slot
// by slot), through placement.Moved. A host's gain is what moves to it;
// its loss, what moves away from it (Moved with the sides swapped).
func hashChange(oc, nc *config.Config, p Pair, grpc bool) (*Hash, error) {
	before, err := Setup(oc, p.Old, grpc)
	if err != nil || before == nil {
		return nil, err
	}
	after, err := Setup(nc, p.New, grpc)
	if err != nil || after == nil {
		return nil, err
	}
	if before.Policy != after.Policy {
		return nil, fmt.Errorf("the policy changes from %s to %s: every key is placed anew", before.Policy, after.Policy)
	}
	if before.Policy == "MAGLEV" && tableSize(before) != tableSize(after) && tableSize(before) != 0 && tableSize(after) != 0 {
		return nil, fmt.Errorf("the Maglev table size changes from %d to %d: every key is placed anew", tableSize(before), tableSize(after))
	}
	moved, gained, err := placement.Moved(before, after)
	if err != nil {
		return nil, err
	}
	_, lost, err := placement.Moved(after, before)
	if err != nil {
		return nil, err
	}
	h := &Hash{Moved: moved}
	for _, a := range unionKeys(gained, lost, strings.Compare) {
		if gained[a] == 0 && lost[a] == 0 {
			continue
		}
		h.Hosts = append(h.Hosts, HashHost{Address: a, Gained: gained[a], Lost: lost[a]})
	}
	sort.SliceStable(h.Hosts, func(i, j int) bool {
		return h.Hosts[i].Gained+h.Hosts[i].Lost > h.Hosts[j].Gained+h.Hosts[j].Lost
	})
	return h, nil
}

func tableSize(s *placement.Setup) uint64 {
	for _, l := range s.Levels {
		if n := l.Size(); n > 0 {
			return n
		}
	}
	return 0
}
