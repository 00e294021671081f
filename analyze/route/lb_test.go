package route

import (
	"fmt"
	"math"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/hashing"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/subset"
)

// balancers wires explain, subset and hashing in as the command will.
func balancers(cfg *config.Config) Balancers {
	find := func(name string) (*config.Cluster, error) {
		if cl := cfg.Cluster(name); cl != nil {
			return cl, nil
		}
		return nil, fmt.Errorf("not in the loaded config: its hosts are unknown")
	}
	return Balancers{
		Hosts: func(name string) (ClusterHosts, error) {
			cl, err := find(name)
			if err != nil {
				return ClusterHosts{}, err
			}
			rep, err := explain.Build(cfg, []*config.Cluster{cl}, model.Options{})
			if err != nil {
				return ClusterHosts{}, err
			}
			return FromTraffic(rep.Clusters[0]), nil
		},
		Subset: func(name string, crit map[string]any, _ string, _ Request) (ClusterHosts, bool, error) {
			cl, err := find(name)
			if err != nil {
				return ClusterHosts{}, false, err
			}
			ps, err := subset.Shares(cfg, cl, crit, model.Options{})
			if err != nil {
				return ClusterHosts{}, false, nil
			}
			var out ClusterHosts
			for i, h := range ps.Hosts {
				out.Hosts = append(out.Hosts, HostShare{Cluster: name, Address: h.Address, Share: ps.Shares[i]})
			}
			return out, true, nil
		},
		Hash: func(name, route string, req Request) (*HashPick, error) {
			cl, err := find(name)
			if err != nil || !model.IsHashPolicy(model.Of(cfg, cl).Policy) {
				return nil, nil
			}
			rep, err := hashing.Build(cfg, cl, hashing.HashOptions{Route: route, Request: &hashing.HashRequest{
				Headers: req.Headers, Cookies: req.Cookies, SourceIP: req.SourceIP, Path: req.Path}})
			if err != nil {
				return nil, err
			}
			l := rep.Lookups[0]
			if l.Hash == nil || l.Host == nil {
				return nil, nil
			}
			return &HashPick{Cluster: name, Policy: fmt.Sprint(rep.HashPolicy.Policies), Hash: fmt.Sprintf("0x%016x", *l.Hash), Host: *l.Host}, nil
		},
	}
}

func TestComposition(t *testing.T) {
	cfg := loadFile(t, "../../fixtures/route/lb.yaml")
	lb := balancers(cfg)
	get := func(req Request) *Report {
		t.Helper()
		r, err := Build(cfg, req, Options{}, lb)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// Weighted round robin: 1/4 and 3/4.
	r := get(Request{Authority: "shop.example", Path: "/cart"})
	if len(r.Hosts) != 2 || r.Hosts[0].Share+r.Hosts[1].Share != 1 || math.Abs(r.Hosts[1].Share-0.75) > 1e-12 && math.Abs(r.Hosts[0].Share-0.75) > 1e-12 {
		t.Fatalf("cart hosts %v", r.Hosts)
	}
	// A header hash: the one host lbctl hash names for the same key.
	r = get(Request{Authority: "shop.example", Path: "/user/1", Headers: [][2]string{{"x-user", "alice"}}})
	if r.Hash == nil || len(r.Hosts) != 1 || r.Hosts[0].Address != r.Hash.Host || r.Hosts[0].Share != 1 {
		t.Fatalf("hash %+v hosts %v notes %q", r.Hash, r.Hosts, r.Notes)
	}
	cl := cfg.Cluster("sessions")
	hr, err := hashing.Build(cfg, cl, hashing.HashOptions{Route: "by-user", Request: &hashing.HashRequest{Headers: [][2]string{{"x-user", "alice"}}}})
	if err != nil || *hr.Lookups[0].Host != r.Hash.Host {
		t.Fatalf("lbctl hash says %v (%v), route says %s", hr.Lookups[0].Host, err, r.Hash.Host)
	}
	// No x-user: no hash, so the ring's shares.
	r = get(Request{Authority: "shop.example", Path: "/user/1"})
	if r.Hash != nil || len(r.Hosts) != 3 {
		t.Fatalf("hash %+v hosts %v", r.Hash, r.Hosts)
	}
	// metadata_match version v2: the subset's two hosts.
	r = get(Request{Authority: "shop.example", Path: "/v2"})
	if len(r.Hosts) != 2 || r.Hosts[0].Address != "10.0.3.2:80" || r.Hosts[1].Address != "10.0.3.3:80" || r.Hosts[0].Share != 0.5 {
		t.Fatalf("subset hosts %v notes %q", r.Hosts, r.Notes)
	}
}

// TestHostSharesProperty: over every request shape of the fixture the
// hosts' shares sum to 1 and each equals its cluster's share times
// explain's share of that host.
func TestHostSharesProperty(t *testing.T) {
	cfg := loadFile(t, "../../fixtures/route/lb.yaml")
	lb := balancers(cfg)
	for _, path := range []string{"/", "/cart", "/user", "/other/x"} {
		r, err := Build(cfg, Request{Authority: "shop.example", Path: path}, Options{}, lb)
		if err != nil {
			t.Fatal(err)
		}
		sum := 0.0
		for _, h := range r.Hosts {
			sum += h.Share
			want := clusterShare(r, h.Cluster) * explainShare(t, lb, h.Cluster, h.Address)
			if math.Abs(h.Share-want) > 1e-12 {
				t.Errorf("%s: %s/%s share %v, want %v", path, h.Cluster, h.Address, h.Share, want)
			}
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: host shares sum to %v (%v)", path, sum, r.Hosts)
		}
	}
}

func clusterShare(r *Report, name string) float64 {
	for _, c := range r.Clusters {
		if c.Name == name {
			return c.Share
		}
	}
	return 0
}

func explainShare(t *testing.T, lb Balancers, cluster, addr string) float64 {
	h, err := lb.Hosts(cluster)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range h.Hosts {
		if x.Address == addr {
			return x.Share
		}
	}
	return 0
}
