package lint

import (
	"strings"

	"github.com/lbctl/lbctl/lbmodel/grpc"
)

// LB1205 aggregate-depth (AGG-DEPTH).
var _ = register(&Rule{
	ID: "LB1205", Name: "aggregate-depth", Spec: "AGG-DEPTH",
	Severity: map[Target]Severity{TargetGRPC: SevError},
	Doc: "An aggregate cluster graph in which some cluster is reached at depth 16 or more (the root is depth " +
		"0). grpc-go aggregateClusterMaxDepth and C-core kMaxXdsAggregateClusterRecursionDepth are 16 " +
		"(A37 \"depth limit of 16\"; grpc-go test ExceedsMaxStackDepth: a 16-aggregate chain fails, 15 " +
		"works): the whole root cluster goes TRANSIENT_FAILURE. Decided by lbmodel.ResolveGRPCAggregate; " +
		"only roots (aggregates no other aggregate lists) are judged. Envoy does not recurse (LB1206).",
	Hint: "Flatten the aggregate chain to at most 15 levels (ideally one).",
	Check: func(p *Pass) {
		aggs := p.aggregates()
		listed := map[string]bool{}
		for _, a := range aggs {
			for _, ch := range a.children {
				listed[ch] = true
			}
		}
		clusters := p.grpcClusters()
		for _, a := range aggs {
			root := a.cl.Name()
			if listed[root] {
				continue
			}
			res, err := grpc.ResolveAggregate(root, clusters)
			if err != nil || !strings.Contains(res.Go.Failure, "max depth") {
				continue
			}
			path := deepPath(root, clusters)
			p.Report(p.pos(a.cl.Proto, "name"), "aggregate %q: %s: %s (depth %d)", root, res.Go.Failure, strings.Join(path, " -> "), len(path)-1)
		}
	},
})

// deepPath is the first path from root (depth-first, list order, no node
// twice) that reaches depth grpc.MaxAggregateDepth.
func deepPath(root string, clusters map[string]grpc.Cluster) []string {
	onPath := map[string]bool{}
	var path []string
	var walk func(name string) bool
	walk = func(name string) bool {
		path = append(path, name)
		if len(path)-1 >= grpc.MaxAggregateDepth {
			return true
		}
		onPath[name] = true
		for _, ch := range clusters[name].Children {
			if !onPath[ch] && walk(ch) {
				return true
			}
		}
		onPath[name] = false
		path = path[:len(path)-1]
		return false
	}
	walk(root)
	return path
}
