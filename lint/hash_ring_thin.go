package lint

import (
	"fmt"
	"math"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/grpc"
	"github.com/lbctl/lbctl/lbmodel/hash"
)

// LB1408 hash-ring-thin (HASH-RING-THIN).
var _ = register(&Rule{
	ID: "LB1408", Name: "hash-ring-thin", Spec: "HASH-RING-THIN",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevWarning},
	Doc: "A ring hash whose ring has fewer than 3 entries per endpoint of a priority, or fewer entries than " +
		"endpoints (some endpoints get no entry and no traffic). The ring size is " +
		"min(ceil(w_min*minimum_ring_size)/w_min, maximum_ring_size) over the normalized weights " +
		"(RingHashLoadBalancer::Ring, ring_hash_lb.cc; grpc-go ring.go), so a small maximum caps it; with a few " +
		"entries per host, placement is badly unbalanced (Envoy's min_hashes_per_host gauge). Evaluated with " +
		"lbmodel.BuildRing over all of a priority's endpoints; for gRPC both sizes are capped at 4096.",
	Hint: "Raise maximum_ring_size (and minimum_ring_size) to at least a few entries per endpoint, e.g. 1024 or more.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			m := p.Model(cl)
			rs := p.rings(cl.Proto)
			if m.Policy != "RING_HASH" || len(rs) == 0 {
				continue
			}
			s := model.Settings(p.Cfg, cl)
			cfg := s.Ring
			if p.Target == TargetGRPC {
				cfg.MinRingSize = min(cfg.MinRingSize, grpc.DefaultRingCap)
				cfg.MaxRingSize = min(cfg.MaxRingSize, grpc.DefaultRingCap)
			}
			if why := thinRing(m, cfg, s.LocalityWeighted || p.Target == TargetGRPC); why != "" {
				p.Report(p.pos(rs[0].msg, "maximum_ring_size"), "cluster %q: %s", cl.Name(), why)
			}
		}
	},
})

// ThinRing is LB1408's verdict on one cluster under Envoy: why its ring
// is thin, or "" (explain's overview flags the cluster with it).
func ThinRing(cfg *config.Config, cl *config.Cluster) string {
	m := model.Get(cfg, cl)
	if m == nil || m.Policy != "RING_HASH" {
		return ""
	}
	s := model.Settings(cfg, cl)
	return thinRing(m, s.Ring, s.LocalityWeighted)
}

// thinRing builds each priority's ring with every endpoint up and says
// how thin the first thin one is, or "".
func thinRing(m *model.Model, cfg hash.RingConfig, locality bool) string {
	if cfg.Validate() != nil || cfg.MinRingSize == 0 {
		return "" // LB1001/LB1002/LB1117 judge invalid sizes
	}
	byPrio := map[int][]lbmodel.Host{}
	maxP := -1
	for _, h := range m.Hosts {
		byPrio[h.Priority] = append(byPrio[h.Priority], h)
		maxP = max(maxP, h.Priority)
	}
	for pr := 0; pr <= maxP; pr++ {
		nw, err := hash.NormalizeWeights(byPrio[pr], hash.NormalizeOptions{LocalityWeighted: locality, Panic: true})
		n := len(nw.Hosts)
		if err != nil || n < 2 {
			continue // one endpoint takes every hash however small the ring
		}
		scale := math.Min(math.Ceil(nw.Min*float64(cfg.MinRingSize))/nw.Min, float64(cfg.MaxRingSize))
		if scale >= 3*float64(n) {
			continue // not thin; skip building a large ring
		}
		r, err := hash.BuildRing(nw, cfg)
		if err != nil {
			continue
		}
		if r.MinHashesPerHost == 0 {
			return fmt.Sprintf("a ring of %d entries for %d endpoints at P%d leaves some endpoints without an entry (min_hashes_per_host 0), so they get no traffic", r.Size, n, pr)
		}
		return fmt.Sprintf("a ring of %d entries for %d endpoints at P%d gives %d to %d entries per endpoint, so placement is badly unbalanced", r.Size, n, pr, r.MinHashesPerHost, r.MaxHashesPerHost)
	}
	return ""
}
