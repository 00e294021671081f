package lint

import (
	"fmt"
	"time"
)

// longEjection: a base_ejection_time from which one error costs a host
// its traffic for longer than a retry or a blip lasts.
const longEjection = 10 * time.Second

// LB1513 outlier-single-5xx: lbctl's own rule.
var _ = register(&Rule{
	ID: "LB1513", Name: "outlier-single-5xx",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "Outlier detection with consecutive_5xx 1 (enforced) and a base_ejection_time of 10s or more (default " +
		"30s). DetectorImpl (outlier_detection_impl.cc) ejects a host on its first 5xx, for base_ejection_time times " +
		"the number of times it was ejected (up to max_ejection_time), and its traffic goes to the other hosts. " +
		"Reported only when max_ejection_percent lets an ejection happen (as LB1511 counts) and the cluster has " +
		"more than one host (or its hosts are not in the input): with one host there is nowhere to move.",
	Hint: "Raise consecutive_5xx (default 5), or shorten base_ejection_time.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			od := cl.Proto.GetOutlierDetection()
			if od == nil || od.GetConsecutive_5Xx() == nil || od.GetConsecutive_5Xx().GetValue() != 1 {
				continue
			}
			if e := od.GetEnforcingConsecutive_5Xx(); e != nil && e.GetValue() == 0 {
				continue
			}
			base := 30 * time.Second
			if d := od.GetBaseEjectionTime(); d != nil {
				base = d.AsDuration()
			}
			m := p.Model(cl)
			n := uint64(len(m.Hosts))
			can := ejectable(od.GetMaxEjectionPercent().GetValue(), od.GetMaxEjectionPercent() != nil, od.GetAlwaysEjectOneHost().GetValue(), n)
			if base < longEjection || m.IsAggregate || n == 1 || can == 0 {
				continue
			}
			hosts := ""
			if n > 0 {
				hosts = fmt.Sprintf(", up to %d of its %d hosts at once", can, n)
			}
			p.Report(p.pos(od, "consecutive_5xx"), "cluster %q: one 5xx ejects a host for %s or longer (consecutive_5xx 1, base_ejection_time), moving its traffic to the other hosts%s",
				cl.Name(), base, hosts)
		}
	},
})

// ejectable is how many of n hosts outlier detection may hold ejected at
// once (LB1511's reading of DetectorImpl::ejectHost); n 0 (hosts not in
// the input) counts as any number: 1 when some ejection is allowed.
func ejectable(maxPct uint32, set, alwaysOne bool, n uint64) uint64 {
	pct := uint64(10)
	if set {
		pct = min(100, uint64(maxPct))
	}
	var can uint64
	switch {
	case n == 0 && pct > 0:
		can = 1
	case pct >= 100:
		can = n
	case n > 0:
		can = (pct*n + 99) / 100
	}
	if alwaysOne {
		can = max(can, 1)
	}
	return can
}
