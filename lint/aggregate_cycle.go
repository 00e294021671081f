package lint

import "strings"

// LB1202 aggregate-cycle (AGG-CYCLE).
var _ = register(&Rule{
	ID: "LB1202", Name: "aggregate-cycle", Spec: "AGG-CYCLE",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevWarning},
	Doc: "Aggregate clusters that reach each other in a cycle (A lists B, B lists A). Envoy does not recurse " +
		"into nested aggregates, so the inner entries contribute nothing (see LB1206); gRPC cuts the cycle " +
		"silently (grpc-go tests CycleWithLeafNode, CycleWithNoLeafNode), and when no leaf remains the whole " +
		"aggregate fails (LB1204). The finding names the cycle.",
	Hint: "Break the cycle: an aggregate should list only leaf clusters.",
	Check: func(p *Pass) {
		aggs := p.aggregates()
		byName := map[string]*aggregate{}
		for _, a := range aggs {
			byName[a.cl.Name()] = a
		}
		reported := map[string]bool{}
		for _, root := range aggs {
			// Depth-first search for a path back to root through other aggregates.
			var path []string
			onPath := map[string]bool{}
			var dfs func(a *aggregate) bool
			dfs = func(a *aggregate) bool {
				path = append(path, a.cl.Name())
				onPath[a.cl.Name()] = true
				for _, ch := range a.children {
					if ch == a.cl.Name() {
						continue // LB1201
					}
					if ch == root.cl.Name() && len(path) > 1 {
						return true
					}
					if next := byName[ch]; next != nil && !onPath[ch] && dfs(next) {
						return true
					}
				}
				path = path[:len(path)-1]
				onPath[a.cl.Name()] = false
				return false
			}
			if !dfs(root) {
				continue
			}
			key := canonicalCycle(path)
			if reported[key] {
				continue
			}
			reported[key] = true
			// Report at the root's entry that starts the cycle.
			for i, ch := range root.children {
				if ch == path[1] {
					p.Report(p.childPos(root, i), "aggregate clusters form a cycle: %s -> %s", strings.Join(path, " -> "), root.cl.Name())
					break
				}
			}
		}
	},
})

// canonicalCycle names a cycle independently of where it starts.
func canonicalCycle(path []string) string {
	best := 0
	for i := range path {
		if path[i] < path[best] {
			best = i
		}
	}
	return strings.Join(append(append([]string{}, path[best:]...), path[:best]...), ">")
}
