// Package watch lists what changed between two traffic reports of the same
// live source taken one `explain --watch` interval apart: clusters added
// or removed, hosts added or removed, host health, priority loads and host
// shares. It is deliberately small; a full traffic diff belongs to
// `lbctl diff`, whose view can replace Changes once both are merged.
package watch

import (
	"math"

	"github.com/lbctl/lbctl/analyze/traffic"
)

// Change kinds.
const (
	ClusterAdded   = "added"
	ClusterRemoved = "removed"
	HostAdded      = "host_added"
	HostRemoved    = "host_removed"
	Health         = "health"
	Load           = "load"
	Share          = "share"
)

// Change is one difference; Old and New are nil on the side where the
// thing does not exist (as diff's {old, new} pairs).
type Change struct {
	Cluster string `json:"cluster"`
	Change  string `json:"change"`
	// Child is the child cluster owning Host (aggregate clusters).
	Child    string `json:"child,omitempty"`
	Host     string `json:"host,omitempty"`
	Priority *int   `json:"priority,omitempty"`
	Old      any    `json:"old"`
	New      any    `json:"new"`
}

// Fetch is one re-fetch's result: its changes against the previous
// successful fetch, or the error that fetch met.
type Fetch struct {
	Fetch   int      `json:"fetch"`
	Time    string   `json:"time"`
	Changes []Change `json:"changes"`
	Error   string   `json:"error,omitempty"`
}

type hostKey struct{ child, address string }

// Changes lists what differs from old to cur, clusters in cur's order
// then the removed ones in old's.
func Changes(old, cur *traffic.Report) []Change {
	prev := map[string]*traffic.ClusterReport{}
	for i := range old.Clusters {
		prev[old.Clusters[i].Name] = &old.Clusters[i]
	}
	out := []Change{}
	seen := map[string]bool{}
	for i := range cur.Clusters {
		c := &cur.Clusters[i]
		seen[c.Name] = true
		o, ok := prev[c.Name]
		if !ok {
			out = append(out, Change{Cluster: c.Name, Change: ClusterAdded, New: c.LbPolicy})
			continue
		}
		out = append(out, clusterChanges(o, c)...)
	}
	for _, c := range old.Clusters {
		if !seen[c.Name] {
			out = append(out, Change{Cluster: c.Name, Change: ClusterRemoved, Old: c.LbPolicy})
		}
	}
	return out
}

func clusterChanges(o, c *traffic.ClusterReport) []Change {
	var out []Change
	loads := map[int]int{}
	for _, p := range o.Priorities {
		loads[p.Priority] = p.HealthyLoad + p.DegradedLoad
	}
	for _, p := range c.Priorities {
		was, ok := loads[p.Priority]
		delete(loads, p.Priority)
		if now := p.HealthyLoad + p.DegradedLoad; !ok || was != now {
			ch := Change{Cluster: c.Name, Change: Load, Priority: &p.Priority, New: now}
			if ok {
				ch.Old = was
			}
			out = append(out, ch)
		}
	}
	for _, p := range o.Priorities { // priorities that are gone
		if was, ok := loads[p.Priority]; ok {
			out = append(out, Change{Cluster: c.Name, Change: Load, Priority: &p.Priority, Old: was})
		}
	}
	hosts := map[hostKey]traffic.HostReport{}
	for _, h := range o.Hosts {
		hosts[hostKey{h.Cluster, h.Address}] = h
	}
	var health, shares []Change
	seen := map[hostKey]bool{}
	for _, h := range c.Hosts {
		k := hostKey{h.Cluster, h.Address}
		seen[k] = true
		was, ok := hosts[k]
		base := Change{Cluster: c.Name, Child: h.Cluster, Host: h.Address}
		switch {
		case !ok:
			base.Change, base.New = HostAdded, share(h.Share)
			out = append(out, base)
			continue
		case was.Health != h.Health:
			ch := base
			ch.Change, ch.Old, ch.New = Health, was.Health, h.Health
			health = append(health, ch)
		}
		if moved(was.Share, h.Share) {
			ch := base
			ch.Change, ch.Old, ch.New = Share, share(was.Share), share(h.Share)
			shares = append(shares, ch)
		}
	}
	for _, h := range o.Hosts {
		if k := (hostKey{h.Cluster, h.Address}); !seen[k] {
			out = append(out, Change{Cluster: c.Name, Change: HostRemoved, Child: h.Cluster, Host: h.Address, Old: share(h.Share)})
		}
	}
	return append(append(out, health...), shares...)
}

// share is a host share as a JSON value: the number, or nil where lbctl
// cannot compute it.
func share(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

func moved(a, b *float64) bool {
	if a == nil || b == nil {
		return (a == nil) != (b == nil)
	}
	return math.Abs(*a-*b) > traffic.ShareNoise
}
