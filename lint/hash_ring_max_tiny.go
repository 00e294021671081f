package lint

import "fmt"

// tinyRingMax: below this many entries a ring is thin from a few dozen
// endpoints on (3 entries each, LB1408's measure, from max/3 endpoints).
const tinyRingMax = 100

// LB1412 hash-ring-max-tiny: lbctl's own rule.
var _ = register(&Rule{
	ID: "LB1412", Name: "hash-ring-max-tiny",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "A ring hash whose maximum_ring_size is tens of entries, on a cluster whose endpoints are not in the " +
		"input (EDS without its assignment), so LB1408 cannot build the ring. The ring has at most " +
		"maximum_ring_size entries whatever minimum_ring_size says (RingHashLoadBalancer::Ring, ring_hash_lb.cc), " +
		"so with n endpoints each gets about max/n: fewer than 3 from max/3 endpoints on, which leaves placement " +
		"badly unbalanced (LB1408's measure), and none for some once n exceeds max. Reported below " +
		"100 entries; with the endpoints in the input LB1408 judges the real ring.",
	Hint: "Raise maximum_ring_size to at least a few entries per endpoint, e.g. 1024 or more (the default is 8M).",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			m := p.Model(cl)
			if m.Policy != "RING_HASH" || len(m.Hosts) > 0 || m.IsAggregate {
				continue
			}
			for _, r := range p.rings(cl.Proto) {
				if r.max == 0 || r.max >= tinyRingMax || r.min > r.max {
					continue // LB1108 judges min > max
				}
				p.Report(p.pos(r.msg, "maximum_ring_size"), "cluster %q: maximum_ring_size %d caps the ring at %d entries: %s",
					cl.Name(), r.max, r.max, thinFrom(r.max))
				break
			}
		}
	},
})

// thinFrom says from how many endpoints a ring of max entries is thin.
func thinFrom(max uint64) string {
	thin := max/3 + 1 // fewer than 3 entries each from here
	if thin < 2 {
		thin = 2
	}
	return fmt.Sprintf("from %d endpoints on each gets fewer than 3 entries and placement is badly unbalanced, and above %d endpoints some get no entry and no traffic", thin, max)
}
