package lint

import "github.com/lbctl/lbctl/analyze/config"

// LB0007 unknown-document: a document that is no Envoy resource lbctl reads (load problem config.CodeUnknownKind).
var _ = register(&Rule{
	ID:       "LB0007",
	Name:     "unknown-document",
	Severity: map[Target]Severity{TargetEnvoy: SevError, TargetGRPC: SevError},
	Doc:      "A document whose shape matches no Envoy resource lbctl reads (Cluster, Bootstrap, ClusterLoadAssignment, RouteConfiguration, Listener, discovery response or admin dump).",
	Hint:     "Pass the right file, or force the document kind with --kind.",
	Check:    loadRule(config.CodeUnknownKind),
})
