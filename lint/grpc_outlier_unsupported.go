package lint

// LB1709 grpc-outlier-unsupported (GRPC-OUTLIER-UNSUPPORTED).
var _ = register(&Rule{
	ID: "LB1709", Name: "grpc-outlier-unsupported", Spec: "GRPC-OUTLIER-UNSUPPORTED",
	Severity: map[Target]Severity{TargetGRPC: SevWarning},
	Doc: "outlier_detection whose only enforced detectors are ones gRPC does not implement. A50 supports only " +
		"success-rate ejection (on unless enforcing_success_rate is 0; default 100) and failure-percentage " +
		"ejection (on only when enforcing_failure_percentage > 0; default 0): \"All other fields will be " +
		"ignored\" (grpc-go outlierConfigFromCluster). Envoy also ejects on consecutive 5xx, gateway and " +
		"local-origin failures, so with this config Envoy ejects hosts and a gRPC client ejects none.",
	Hint: "Enable success-rate or failure-percentage ejection if gRPC clients should eject hosts too.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			od := cl.Proto.GetOutlierDetection()
			if od == nil {
				continue
			}
			successRate := od.GetEnforcingSuccessRate() == nil || od.GetEnforcingSuccessRate().GetValue() > 0
			failurePct := od.GetEnforcingFailurePercentage().GetValue() > 0
			if !successRate && !failurePct {
				p.Report(p.pos(cl.Proto, "outlier_detection"), "cluster %q: gRPC enforces neither success-rate nor failure-percentage ejection here; the consecutive-failure detectors Envoy uses are ignored by gRPC", cl.Name())
			}
		}
	},
})
