package config

import (
	"strings"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// misshapen reports a top-level mapping detected by its resource-kind keys
// (clusters:, listeners:, endpoints:, routes:) whose lists hold items and
// none of them fits that kind: Helm values' clusters: [{name, region}],
// listeners: [8080]. Such a key is no match; the mapping is searched like
// any other. An empty list says nothing and keeps the match.
func misshapen(d node) bool {
	items := 0
	for i := 0; i+1 < d.Len(); i += 2 {
		kind, ok := resourceMapKinds[strings.ToLower(d.Child(i).Value())]
		v := parse.Resolve(d.Child(i + 1))
		if !ok || v.Kind() != sequenceNode {
			continue
		}
		for j := range v.Len() {
			item := parse.Resolve(v.Child(j))
			if isNull(item) {
				continue
			}
			items++
			if fits(item, kind) {
				return false
			}
		}
	}
	return items > 0
}

// fits reports an item that reads as kind: typed, or half of its keys the
// kind's, and not a carrier of the resource as a string.
func fits(item node, kind string) bool {
	if item.Kind() != mappingNode {
		return false
	}
	if t, _ := parse.MapGet(item, "@type"); isTypeURL(str(t)) {
		return true
	}
	return plausible(item, kind) && !carried(item).OK()
}
