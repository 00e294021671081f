// Package observe sets the host shares lbctl predicts beside the shares a
// running Envoy actually sent: the change in each host's rq_total counter
// between two reads of the admin /clusters endpoint.
package observe

import (
	"math"
	"sort"
	"time"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/traffic"
)

// Host is one host's predicted and observed share.
type Host struct {
	Address   string   `json:"address"`
	Predicted *float64 `json:"predicted"` // nil where lbctl does not compute shares
	Requests  uint64   `json:"requests"`
	Observed  float64  `json:"observed"`
	// Z is (observed - predicted) in standard errors of a sample of that
	// many requests; |Z| > 3 is a difference that noise rarely explains.
	Z       *float64 `json:"z"`
	Verdict string   `json:"verdict"`
}

// Cluster is one cluster's comparison.
type Cluster struct {
	Name     string   `json:"name"`
	Policy   string   `json:"lb_policy"`
	Requests uint64   `json:"requests"`
	Hosts    []Host   `json:"hosts"`
	Notes    []string `json:"notes"`
}

// Report compares every explained cluster over one observation window.
type Report struct {
	Window   string    `json:"window"`
	Clusters []Cluster `json:"clusters"`
	Notes    []string  `json:"notes"`
}

// Verdicts.
const (
	Consistent = "consistent"
	Differs    = "differs"
	NoSample   = "no requests"
)

// Build compares r's host shares with the requests each host received
// between before and after (LiveHealth of two /clusters reads).
func Build(r *traffic.Report, before, after map[string]map[string]config.LiveHost, window time.Duration) *Report {
	out := &Report{Window: window.String(), Clusters: []Cluster{}, Notes: []string{
		"counters are this Envoy replica's: least-request state and consistent-hash keys differ between replicas",
	}}
	for _, cr := range r.Clusters {
		c := Cluster{Name: cr.Name, Policy: cr.LbPolicy, Hosts: []Host{}, Notes: []string{}}
		delta := map[string]uint64{}
		for addr, h := range after[cr.Name] {
			if b, ok := before[cr.Name][addr]; ok && h.Requests >= b.Requests {
				delta[addr] = h.Requests - b.Requests
			} else {
				delta[addr] = h.Requests // new host, or its counter was reset
			}
			c.Requests += delta[addr]
		}
		seen := map[string]bool{}
		for _, hr := range cr.Hosts {
			seen[hr.Address] = true
			c.Hosts = append(c.Hosts, compare(hr.Address, hr.Share, delta[hr.Address], c.Requests))
		}
		var extra []string
		for addr := range delta {
			if !seen[addr] {
				extra = append(extra, addr)
			}
		}
		sort.Strings(extra)
		for _, addr := range extra {
			c.Hosts = append(c.Hosts, compare(addr, nil, delta[addr], c.Requests))
			c.Notes = append(c.Notes, addr+" received requests but is not among the configured hosts")
		}
		if c.Requests == 0 {
			c.Notes = append(c.Notes, "no requests in the window: nothing to compare")
		}
		out.Clusters = append(out.Clusters, c)
	}
	return out
}

// compare judges one host: the observed share of n requests against the
// predicted share p by the binomial standard error sqrt(p(1-p)/n).
func compare(addr string, p *float64, got, n uint64) Host {
	h := Host{Address: addr, Predicted: p, Requests: got, Verdict: NoSample}
	if n == 0 {
		return h
	}
	h.Observed = float64(got) / float64(n)
	if p == nil {
		h.Verdict = ""
		return h
	}
	diff := h.Observed - *p
	se := math.Sqrt(*p * (1 - *p) / float64(n))
	switch {
	case se == 0 && math.Abs(diff) < 1e-12:
		h.Verdict = Consistent
	case se == 0:
		h.Verdict = Differs // a share of exactly 0 or 1 was predicted
	default:
		z := diff / se
		h.Z = &z
		h.Verdict = Consistent
		if math.Abs(z) > 3 {
			h.Verdict = Differs
		}
	}
	return h
}
