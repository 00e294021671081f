package lint

import (
	"slices"
	"strings"
)

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
		index := map[string]int{}
		for i, a := range aggs {
			index[a.cl.Name()] = i
		}
		// Edges between aggregates only, self-references left to LB1201.
		next := make([][]int, len(aggs))
		for i, a := range aggs {
			for _, ch := range a.children {
				if j, ok := index[ch]; ok && j != i {
					next[i] = append(next[i], j)
				}
			}
		}
		// Each strongly connected component of two or more aggregates holds
		// a cycle; one finding per component, named by the shortest cycle
		// through its first aggregate in load order. Linear in the graph
		// (a diamond DAG or a long chain has no component to walk).
		for _, comp := range components(next) {
			if len(comp) < 2 {
				continue
			}
			root := comp[0]
			for _, i := range comp {
				root = min(root, i)
			}
			path := shortestCycle(next, root, comp)
			names := make([]string, len(path))
			for k, i := range path {
				names[k] = aggs[i].cl.Name()
			}
			a := aggs[root]
			for i, ch := range a.children {
				if ch == names[1] {
					p.Report(p.childPos(a, i), "aggregate clusters form a cycle: %s -> %s", strings.Join(names, " -> "), a.cl.Name())
					break
				}
			}
		}
	},
})

// components are the strongly connected components of the graph next
// (Tarjan's algorithm, iterative so a long chain cannot exhaust the stack).
func components(next [][]int) [][]int {
	n := len(next)
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var out [][]int
	var comp []int // Tarjan's stack
	counter := 0
	type frame struct{ v, e int }
	for s := 0; s < n; s++ {
		if index[s] >= 0 {
			continue
		}
		call := []frame{{s, 0}}
		index[s], low[s] = counter, counter
		counter++
		comp = append(comp, s)
		onStack[s] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.e < len(next[f.v]) {
				w := next[f.v][f.e]
				f.e++
				if index[w] < 0 {
					index[w], low[w] = counter, counter
					counter++
					comp = append(comp, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				var c []int
				for {
					w := comp[len(comp)-1]
					comp = comp[:len(comp)-1]
					onStack[w] = false
					c = append(c, w)
					if w == v {
						break
					}
				}
				out = append(out, c)
			}
		}
	}
	return out
}

// shortestCycle is the shortest path root -> … -> root inside comp
// (breadth-first, children in their written order), without the final
// root.
func shortestCycle(next [][]int, root int, comp []int) []int {
	in := map[int]bool{}
	for _, v := range comp {
		in[v] = true
	}
	prev := map[int]int{root: -1}
	queue := []int{root}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range next[v] {
			if w == root {
				var path []int
				for u := v; u != -1; u = prev[u] {
					path = append(path, u)
				}
				slices.Reverse(path)
				return path
			}
			if _, seen := prev[w]; !seen && in[w] {
				prev[w] = v
				queue = append(queue, w)
			}
		}
	}
	return []int{root} // unreachable: root is on a cycle in comp
}
