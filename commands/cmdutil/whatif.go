package cmdutil

import (
	"sort"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/config/parse"
	"github.com/lbctl/lbctl/analyze/model"
)

// CheckWhatIf rejects what-if inputs that name nothing in the
// configuration: a --set-health or --local-cluster that is no cluster,
// an --active-requests ADDRESS that is no host. Ignoring them would
// answer a question the user did not ask (contract: usage error, exit 2).
func CheckWhatIf(cfg *config.Config, opt model.Options) error {
	for _, o := range opt.SetHealth {
		if cfg.Cluster(o.Cluster) == nil {
			return UsageErrorf("--set-health %s: no such cluster; the clusters are: %s", Name(o.Spec), KnownClusters(cfg))
		}
	}
	if n := opt.LocalCluster; n != "" && cfg.Cluster(n) == nil {
		return UsageErrorf("--local-cluster %q: no such cluster%s", n, NearestOf(n, cfg.ClusterNames(), "cluster"))
	}
	if len(opt.ActiveRequests)+len(opt.HostAges)+len(opt.HostWeights) == 0 {
		return nil
	}
	hosts := HostAddresses(cfg)
	for _, a := range SortedKeys(opt.ActiveRequests) {
		if !hosts[a] {
			return UsageErrorf("--active-requests %s=%d: no host %s in any cluster%s", Name(a), opt.ActiveRequests[a], Name(a), NearestOf(a, Keys(hosts), "host"))
		}
	}
	for _, a := range SortedKeys(opt.HostAges) {
		if !hosts[a] {
			return UsageErrorf("--host-age %s=%s: no host %s in any cluster%s", Name(a), opt.HostAges[a], Name(a), NearestOf(a, Keys(hosts), "host"))
		}
	}
	for _, a := range SortedKeys(opt.HostWeights) {
		if !hosts[a] {
			return UsageErrorf("--host-weight %s=%d: no host %s in any cluster%s", Name(a), opt.HostWeights[a], Name(a), NearestOf(a, Keys(hosts), "host"))
		}
	}
	return nil
}

// SortedKeys lists a what-if map's addresses in order, so the first bad
// one reported does not depend on map order.
func SortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// HostAddresses is every host address of every loaded cluster, as Envoy
// writes it (ip:port).
func HostAddresses(cfg *config.Config) map[string]bool {
	out := map[string]bool{}
	for _, cl := range cfg.Clusters {
		for _, h := range model.Get(cfg, cl).Hosts {
			out[h.Address] = true
		}
	}
	return out
}

func Keys(m map[string]bool) []string { return SortedKeys(m) }

// NearestOf is "; the closest KIND is X" naming the valid value nearest
// to v (by edit distance), or "; there are no KINDs" when there is none.
func NearestOf(v string, valid []string, kind string) string {
	if len(valid) == 0 {
		return "; there are no " + kind + "s in the input"
	}
	best, bestD := "", 1<<30
	for _, c := range valid {
		if d := parse.EditDistance(v, c); d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	return "; the closest " + kind + " is " + Name(best)
}
