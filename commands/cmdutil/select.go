package cmdutil

import (
	"path"
	"sort"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/config/parse"
)

// nearCap is how many near names a --cluster error lists.
const nearCap = 5

// SelectClusters is the clusters --cluster names (all of them without
// one). Each value is a name or a glob pattern in path.Match syntax (*
// any run of characters but '/', ? one character, [a-z] a class, \ quotes):
// an exact name is taken as it is, a pattern selects every cluster it
// matches, in file order; a cluster selected twice appears once. A value
// selecting nothing is a usage error naming the nearest clusters.
func SelectClusters(cfg *config.Config, patterns []string) ([]*config.Cluster, error) {
	if len(patterns) == 0 {
		return cfg.Clusters, nil
	}
	var out []*config.Cluster
	seen := map[*config.Cluster]bool{}
	add := func(cl *config.Cluster) {
		if !seen[cl] {
			seen[cl] = true
			out = append(out, cl)
		}
	}
	for _, p := range patterns {
		if cl := cfg.Cluster(p); cl != nil {
			add(cl)
			continue
		}
		if _, err := path.Match(p, ""); err != nil {
			return nil, UsageErrorf("--cluster %q: not a valid pattern (path.Match syntax: * ? [...] \\)", p)
		}
		n := 0
		for _, cl := range cfg.Clusters {
			if ok, _ := path.Match(p, cl.Name()); ok {
				add(cl)
				n++
			}
		}
		if n == 0 {
			return nil, UsageErrorf("--cluster %q: no such cluster in %s%s; the clusters are: %s",
				p, config.List(cfg.Files, 20), nearNames(p, cfg.ClusterNames()), KnownClusters(cfg))
		}
	}
	return out, nil
}

// nearNames is "; near: A, B … and N more" over the names
// parse.Closest finds near p (its glob characters taken out), nearest
// first, or "".
func nearNames(p string, names []string) string {
	lit := strings.Map(func(r rune) rune {
		if strings.ContainsRune("*?[]\\", r) {
			return -1
		}
		return r
	}, p)
	var near []string
	for _, n := range names {
		if parse.Closest(lit, []string{n}) != "" {
			near = append(near, n)
		}
	}
	if len(near) == 0 {
		return ""
	}
	l := strings.ToLower(lit)
	sort.SliceStable(near, func(i, j int) bool {
		di, dj := parse.EditDistance(l, strings.ToLower(near[i])), parse.EditDistance(l, strings.ToLower(near[j]))
		return di < dj || di == dj && near[i] < near[j]
	})
	return "; near: " + config.List(near, nearCap)
}

// KnownClusters lists the loaded clusters' names for a message, escaped and capped.
func KnownClusters(cfg *config.Config) string {
	names := cfg.ClusterNames()
	if len(names) == 0 {
		return "(none)"
	}
	sort.Strings(names)
	return config.List(names, 20)
}
