package lint

import (
	"fmt"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// LB1511 outlier-eject-all-no-panic: lbctl's own rule.
var _ = register(&Rule{
	ID: "LB1511", Name: "outlier-eject-all-no-panic",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning},
	Doc: "Outlier detection that can eject every host of the cluster while panic mode is disabled " +
		"(healthy_panic_threshold 0). DetectorImpl::ejectHost (outlier_detection_impl.cc) ejects while " +
		"100*ejected/hosts < max_ejection_percent (default 10, capped at 100), counted over all the cluster's " +
		"hosts, so up to ceil(max*hosts/100) hosts go (at least one with always_eject_one_host). When that is " +
		"every host, no healthy host is left, and with panic disabled Envoy does not fall back to the ejected " +
		"ones (recalculatePerPriorityPanic): requests fail with no healthy upstream until base_ejection_time " +
		"passes. Not reported when no ejection type is enforced.",
	Hint: "Lower max_ejection_percent (or add hosts), or keep a panic threshold so Envoy fails open.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			od := cl.Proto.GetOutlierDetection()
			m := p.Model(cl)
			if od == nil || !m.PanicThresholdSet || m.PanicThreshold != 0 || m.IsAggregate || !anyEnforced(od) {
				continue
			}
			maxPct := uint64(10)
			if v := od.GetMaxEjectionPercent(); v != nil {
				maxPct = min(100, uint64(v.GetValue()))
			}
			n := uint64(len(m.Hosts))
			var can uint64 // hosts ejectable: smallest e with 100e/n >= max
			switch {
			case maxPct >= 100:
				can = n
			case n > 0:
				can = (maxPct*n + 99) / 100
			}
			if od.GetAlwaysEjectOneHost().GetValue() {
				can = max(can, 1)
			}
			if maxPct < 100 && (n == 0 || can < n) {
				continue // unknown host count, or some host always stays
			}
			hosts := "all its hosts"
			if n > 0 {
				hosts = fmt.Sprintf("all %d hosts", n)
			}
			p.Report(p.pos(od, "max_ejection_percent"), "cluster %q: outlier detection may eject %s (max_ejection_percent %d) and healthy_panic_threshold 0 disables the fallback, so requests then fail",
				cl.Name(), hosts, maxPct)
		}
	},
})

// anyEnforced reports whether some ejection type has a non-zero enforcing
// percentage (defaults: consecutive 5xx and success rate 100, gateway
// failure and failure percentage 0; local-origin ones only when split).
func anyEnforced(od *clusterv3.OutlierDetection) bool {
	pct := func(v *wrapperspb.UInt32Value, def uint32) uint32 {
		if v == nil {
			return def
		}
		return v.GetValue()
	}
	if pct(od.GetEnforcingConsecutive_5Xx(), 100) > 0 || pct(od.GetEnforcingSuccessRate(), 100) > 0 ||
		pct(od.GetEnforcingConsecutiveGatewayFailure(), 0) > 0 || pct(od.GetEnforcingFailurePercentage(), 0) > 0 {
		return true
	}
	return od.GetSplitExternalLocalOriginErrors() &&
		(pct(od.GetEnforcingConsecutiveLocalOriginFailure(), 100) > 0 || pct(od.GetEnforcingLocalOriginSuccessRate(), 100) > 0 ||
			pct(od.GetEnforcingFailurePercentageLocalOrigin(), 0) > 0)
}
