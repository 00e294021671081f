package diff

import (
	"sort"

	"github.com/lbctl/lbctl/analyze/config"
)

// Group is one configuration on both sides: configurations are paired the
// way lint groups inputs (each bootstrap or config_dump its own, loose xDS
// resources one per directory). Label names it when a side has several.
type Group struct {
	Label    string
	Old, New *Side
}

// PairGroups pairs the configurations of two sides: one on each side pair
// up whatever their files are called; otherwise by key (the caller's
// name for a configuration, e.g. its first file relative to the side's
// root). A configuration on one side only is paired with empty, an empty
// configuration of the side it lacks (its clusters are added or removed).
func PairGroups(old, new []*Side, key func(old bool, c *config.Config) string, empty func() *Side) []Group {
	old, new = nonEmpty(old), nonEmpty(new)
	switch {
	case len(old) == 0 && len(new) == 0:
		return []Group{{Old: empty(), New: empty()}}
	case len(old) <= 1 && len(new) <= 1:
		g := Group{Old: empty(), New: empty()}
		if len(old) == 1 {
			g.Old = old[0]
		}
		if len(new) == 1 {
			g.New = new[0]
		}
		return []Group{g}
	}
	byKey := map[string]*Group{}
	var keys []string
	for i, sides := range [][]*Side{old, new} {
		for _, s := range sides {
			k := key(i == 0, s.Config)
			g := byKey[k]
			if g == nil {
				g = &Group{Label: k, Old: empty(), New: empty()}
				byKey[k] = g
				keys = append(keys, k)
			}
			if i == 0 {
				g.Old = s
			} else {
				g.New = s
			}
		}
	}
	sort.Strings(keys)
	out := make([]Group, len(keys))
	for i, k := range keys {
		out[i] = *byKey[k]
	}
	return out
}

// nonEmpty drops configurations read from no file (LoadGroups' empty
// group when a side has no input).
func nonEmpty(ss []*Side) []*Side {
	var out []*Side
	for _, s := range ss {
		if len(s.Config.Files) > 0 || len(s.Config.Clusters) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// BuildGroups compares each pair of configurations and merges the results;
// with several groups each cluster names its configuration.
func BuildGroups(groups []Group, opt Options) (*Report, error) {
	r := newReport(opt.Semantics)
	for _, g := range groups {
		gr, err := BuildSides(g.Old, g.New, opt)
		if err != nil {
			return nil, err
		}
		label := ""
		if len(groups) > 1 {
			label = g.Label
		}
		r.merge(gr, label)
	}
	sortClusters(r.Clusters)
	r.finish()
	return r, nil
}

// merge appends one group's clusters, named by label when it is set, and
// its settings-only clusters.
func (r *Report) merge(gr *Report, label string) {
	for _, c := range gr.Clusters {
		if label != "" {
			c.Config = label
		}
		r.Clusters = append(r.Clusters, c)
	}
	r.settingsOnly = append(r.settingsOnly, gr.settingsOnly...)
}
