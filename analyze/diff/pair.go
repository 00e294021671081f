package diff

import (
	"crypto/sha256"
	"reflect"
	"slices"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"google.golang.org/protobuf/proto"
)

// Pair is one cluster name on both sides; a nil side lacks the cluster.
type Pair struct {
	Name     string
	Old, New *config.Cluster
}

// Side is one loaded configuration with a canonical hash of each cluster's
// inputs, computed once (and, for two sides, concurrently by the caller).
type Side struct {
	Config *config.Config
	inputs map[string][sha256.Size]byte
	// routeHash is the route hash policies per target cluster.
	routeHash map[string][]string
}

// Prepare hashes each cluster's Cluster proto and ClusterLoadAssignment
// (deterministic wire encoding): equal hashes are equal inputs.
func Prepare(c *config.Config) *Side {
	s := &Side{Config: c, inputs: make(map[string][sha256.Size]byte, len(c.Clusters)), routeHash: routeHashPolicies(c)}
	opt := proto.MarshalOptions{Deterministic: true}
	var buf []byte
	for _, cl := range c.Clusters {
		h := sha256.New()
		var err error
		buf, err = opt.MarshalAppend(buf[:0], cl.Proto)
		h.Write(buf)
		h.Write([]byte{0})
		if err == nil && cl.Assignment != nil {
			buf, err = opt.MarshalAppend(buf[:0], cl.Assignment)
			h.Write(buf)
		}
		if err != nil {
			continue // no hash: compared as changed
		}
		s.inputs[cl.Name()] = [sha256.Size]byte(h.Sum(nil))
	}
	return s
}

// Changed pairs the clusters of old and new (sides from Prepare) by name
// and keeps those whose traffic inputs differ: the Cluster proto, its
// ClusterLoadAssignment, its live health, the hash policies of routes to
// it, and the configuration-wide inputs (node locality, local cluster);
// aggregate parents of a changed child follow. Comparing inputs first
// keeps a 10,000-cluster diff to the clusters that changed. The pairs come
// sorted by name.
func Changed(olds, news *Side) []Pair {
	old, new := olds.Config, news.Config
	all := map[string]*Pair{}
	for _, cl := range old.Clusters {
		all[cl.Name()] = &Pair{Name: cl.Name(), Old: cl}
	}
	for _, cl := range new.Clusters {
		p := all[cl.Name()]
		if p == nil {
			p = &Pair{Name: cl.Name()}
			all[cl.Name()] = p
		}
		p.New = cl
	}
	global := !sameGlobals(old, new)
	changed := map[string]bool{}
	for name, p := range all {
		if global || !sameInputs(olds, news, p) {
			changed[name] = true
		}
	}
	// A changed local cluster changes every zone-aware cluster's picture.
	for _, c := range []*config.Config{old, new} {
		if l := model.LocalClusterName(c, model.Options{}); l != "" && changed[l] {
			for name := range all {
				changed[name] = true
			}
		}
	}
	markParents(old, changed)
	markParents(new, changed)
	var out []Pair
	for name := range changed {
		out = append(out, *all[name])
	}
	slices.SortFunc(out, func(a, b Pair) int { return strings.Compare(a.Name, b.Name) })
	return out
}

func sameInputs(olds, news *Side, p *Pair) bool {
	if p.Old == nil || p.New == nil {
		return false
	}
	a, oka := olds.inputs[p.Name]
	b, okb := news.inputs[p.Name]
	return oka && okb && a == b && slices.Equal(olds.routeHash[p.Name], news.routeHash[p.Name]) && reflect.DeepEqual(olds.Config.LiveHealth[p.Name], news.Config.LiveHealth[p.Name])
}

// sameGlobals compares what every cluster's picture depends on besides
// itself: the node's locality and the local cluster's name.
func sameGlobals(old, new *config.Config) bool {
	lo, oko := model.NodeLocality(old, model.Options{})
	ln, okn := model.NodeLocality(new, model.Options{})
	return oko == okn && lo == ln && model.LocalClusterName(old, model.Options{}) == model.LocalClusterName(new, model.Options{})
}

// markParents adds the aggregate clusters of c that reach a changed
// cluster, through any depth of nesting.
func markParents(c *config.Config, changed map[string]bool) {
	children := map[string][]string{}
	for _, cl := range c.Clusters {
		if cl.Proto.GetClusterType() == nil {
			continue
		}
		if model.IsAggregate(cl) {
			children[cl.Name()] = model.Get(c, cl).Aggregate
		}
	}
	for grew := true; grew; {
		grew = false
		for parent, kids := range children {
			if changed[parent] {
				continue
			}
			for _, k := range kids {
				if changed[k] {
					changed[parent], grew = true, true
					break
				}
			}
		}
	}
}
