package explain

import (
	"fmt"
	"strings"

	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/placement"
)

// hashNotes are explain's notes about consistent hashing: for RING_HASH and
// MAGLEV clusters a short placement summary per priority (the ring or table
// Envoy builds, and how far host shares stray); for other clusters, a
// warning when routes to them set a hash_policy, which only hashing load
// balancers use (LoadBalancerContext::computeHashKey is read by
// ThreadAwareLoadBalancerBase only).
func hashNotes(r *model.Result) []string {
	m, s := r.Model, r.Settings
	if !model.IsHashPolicy(m.Policy) {
		var with []string
		seen := map[string]bool{}
		for _, r := range r.Routes {
			if r.HasHashPolicy() && !seen[r.Label] {
				seen[r.Label] = true
				with = append(with, r.Label)
			}
		}
		if len(with) == 0 || m.IsAggregate {
			return nil
		}
		return []string{fmt.Sprintf("%s sets a hash_policy, but %s uses %s: only RING_HASH and MAGLEV use the request hash, so it is ignored", strings.Join(with, ", "), m.Name, m.Policy)}
	}
	if len(m.Hosts) == 0 {
		return nil
	}
	local := r.Local.Locality                                        // --zone orders the hosts as in the shares
	hs, err := placement.BuildShares(m.Policy, m.Hosts, m, s, local) // a summary: no lookups
	if err != nil {
		return []string{fmt.Sprintf("the %s cannot be built: %v", placement.StructureName(m.Policy), err)}
	}
	var out []string
	for i := range hs.Levels {
		pr := placement.Summarize(hs, i, m.Policy)
		if pr.Hosts == 0 {
			continue
		}
		prefix := ""
		if len(hs.Levels) > 1 {
			prefix = fmt.Sprintf("P%d: ", i)
		}
		what := fmt.Sprintf("ring of %d entries", pr.Size)
		if m.Policy == "MAGLEV" {
			what = fmt.Sprintf("Maglev table of %d slots", pr.Size)
		}
		switch pr.InTable {
		case 0:
			out = append(out, fmt.Sprintf("%s%s empty (%s): hashes sent here find no host", prefix, strings.Replace(what, " of 0 entries", "", 1), hs.EmptyCause(i)))
			continue
		case 1:
			out = append(out, fmt.Sprintf("%s%s over 1 host, which answers every hash", prefix, what))
			continue
		}
		out = append(out, fmt.Sprintf("%s%s over %d hosts, host shares %.1f%%–%.1f%% (%s; lbctl hash shows lookups and what moves when a host goes)",
			prefix, what, pr.InTable, pr.MinShare*100, pr.MaxShare*100, pr.Verdict))
	}
	return out
}
