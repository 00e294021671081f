package diff

import (
	"sort"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lint"
)

// CompareFindings matches the lint findings of both sides by rule, target,
// message and cluster, never by line (an edit above a finding moves it):
// what only NEW has is new, what only OLD has is fixed. Each finding counts
// once, so a second copy of the same problem is new.
func CompareFindings(oc, nc []*config.Config, old, new []lint.Finding) Findings {
	io, in := clusterIndex(oc), clusterIndex(nc)
	key := func(idx fileIndex, f lint.Finding) string {
		return f.Rule + "\x00" + string(f.Target) + "\x00" + f.Message + "\x00" + idx.at(f.Pos)
	}
	count := map[string]int{}
	for _, f := range old {
		count[key(io, f)]++
	}
	out := Findings{New: []Finding{}, Fixed: []Finding{}}
	for _, f := range new {
		k := key(in, f)
		if count[k] > 0 {
			count[k]--
			continue
		}
		out.New = append(out.New, finding(in, f))
	}
	for _, f := range old {
		// What is left of count after NEW took its matches was fixed.
		if k := key(io, f); count[k] > 0 {
			count[k]--
			out.Fixed = append(out.Fixed, finding(io, f))
		}
	}
	return out
}

func finding(idx fileIndex, f lint.Finding) Finding {
	return Finding{Rule: f.Rule, Name: f.Name, Severity: f.Severity.String(), File: f.Pos.File, Line: f.Pos.Line,
		Column: f.Pos.Col, Message: f.Message, Hint: f.Hint, Cluster: idx.at(f.Pos)}
}

// fileIndex lists each file's cluster (and assignment) start positions.
type fileIndex map[string][]clusterStart

// at is the cluster whose definition encloses pos: the last cluster or
// assignment that starts at or before it in the same file ("" before any).
func (idx fileIndex) at(pos config.Pos) string {
	starts := idx[pos.File]
	i := sort.Search(len(starts), func(i int) bool {
		s := starts[i].pos
		return s.Line > pos.Line || s.Line == pos.Line && s.Col > pos.Col
	})
	if i == 0 {
		return ""
	}
	return starts[i-1].name
}

type clusterStart struct {
	pos  config.Pos
	name string
}

func clusterIndex(cs []*config.Config) fileIndex {
	idx := fileIndex{}
	for _, c := range cs {
		for _, cl := range c.Clusters {
			p := c.Sources.Pos(cl.Proto)
			idx[p.File] = append(idx[p.File], clusterStart{p, cl.Name()})
		}
		for _, a := range c.Assignments {
			p := c.Sources.Pos(a)
			idx[p.File] = append(idx[p.File], clusterStart{p, a.GetClusterName()})
		}
	}
	for _, s := range idx {
		sort.Slice(s, func(i, j int) bool {
			return s[i].pos.Line < s[j].pos.Line || s[i].pos.Line == s[j].pos.Line && s[i].pos.Col < s[j].pos.Col
		})
	}
	return idx
}
