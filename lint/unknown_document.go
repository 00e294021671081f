package lint

import (
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/option"
)

// LB0007 unknown-document: a document that is no Envoy resource lbctl reads (load problem config.CodeUnknownKind).
var _ = register(&Rule{
	ID:       "LB0007",
	Name:     "unknown-document",
	Severity: map[Target]Severity{TargetEnvoy: SevInfo, TargetGRPC: SevInfo},
	Doc: "A document whose shape matches no Envoy resource lbctl reads (Cluster, Bootstrap, ClusterLoadAssignment, " +
		"RouteConfiguration, Listener, discovery response or admin dump): a Deployment, a CI workflow, Helm values. " +
		"Info: it is lbctl that cannot read the file, not Envoy that rejects a config or sends traffic anywhere; " +
		"a named file with no Envoy config still makes lint exit 3 (input error).",
	Hint:  "Pass the right file, or force the document kind with " + option.Kind.String() + ".",
	Check: loadRule(config.CodeUnknownKind),
})
