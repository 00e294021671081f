package config

import (
	"path/filepath"
	"strings"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// joinLiveHealth files admin /clusters documents with the config_dump of
// their directory, as --admin and --merge read them: a config dump is a
// configuration of its own and the /clusters reading is its live health,
// so linting the two files must join them the same way (without this the
// reading sat in the directory's loose group and health was not applied).
// Only when the directory holds exactly one config dump.
func (r *reader) joinLiveHealth() {
	if r.merge {
		return
	}
	dumps := map[string][]*group{} // directory -> its config dump groups
	for key, g := range r.byKey {
		if strings.HasPrefix(key, "dir:") || len(g.docs) == 0 {
			continue
		}
		if r.kindOf(g.docs[0]) == KindConfigDump {
			dir := filepath.Dir(g.docs[0].file)
			dumps[dir] = append(dumps[dir], g)
		}
	}
	for dir, gs := range dumps {
		loose := r.byKey[looseKey(filepath.Join(dir, "x"))]
		if len(gs) != 1 || loose == nil {
			continue
		}
		var keep []unit
		for _, u := range loose.docs {
			if r.kindOf(u) == KindAdmin {
				gs[0].addFile(u.file)
				gs[0].docs = append(gs[0].docs, u)
			} else {
				keep = append(keep, u)
			}
		}
		loose.docs = keep
		if len(keep) == 0 && len(loose.probs) == 0 {
			r.dropGroup(loose)
		}
	}
}

func (r *reader) kindOf(u unit) string {
	if r.kind != "" {
		return r.kind
	}
	return detectKind(parse.Resolve(u.node))
}

// dropGroup removes an emptied group.
func (r *reader) dropGroup(g *group) {
	for k, v := range r.byKey {
		if v == g {
			delete(r.byKey, k)
		}
	}
	for i, v := range r.groups {
		if v == g {
			r.groups = append(r.groups[:i], r.groups[i+1:]...)
			break
		}
	}
}
