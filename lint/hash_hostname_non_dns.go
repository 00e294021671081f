package lint

import (
	"fmt"

	"github.com/lbctl/lbctl/analyze/model"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	commonv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/common/v3"
	maglevv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/maglev/v3"
	ringhashv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/load_balancing_policies/ring_hash/v3"
	"google.golang.org/protobuf/proto"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/hash"
)

// LB1409 hash-hostname-non-dns (HASH-HOSTNAME-NON-DNS).
var _ = register(&Rule{
	ID: "LB1409", Name: "hash-hostname-non-dns", Spec: "HASH-HOSTNAME-NON-DNS",
	Severity: map[Target]Severity{TargetEnvoy: SevWarning, TargetGRPC: SevInfo},
	Doc: "use_hostname_for_hashing on a hashing cluster that is not STRICT_DNS, where some endpoints of a " +
		"priority have no usable hostname. The ring and Maglev builders place a host by " +
		"HashingLoadBalancer::hashKey (thread_aware_lb_impl.h): a string envoy.lb hash_key, else " +
		"Host::hostname() when the flag is set. On STATIC/EDS endpoints that is endpoint.hostname, often empty " +
		"or shared, and hosts with the same key get the same positions, so placement collapses (the proto: " +
		"\"Only valid for StrictDNS clusters\"). Endpoints with distinct hostnames (or hash_keys) are fine. " +
		"lbctl computes the keys with lbmodel.HashKey. gRPC ignores the field.",
	Hint: "Give every endpoint a distinct hostname or envoy.lb hash_key, or drop use_hostname_for_hashing.",
	Check: func(p *Pass) {
		for _, cl := range p.Cfg.Clusters {
			c := cl.Proto
			m := p.Model(cl)
			if c.GetClusterType() != nil || c.GetType() == clusterv3.Cluster_STRICT_DNS || !model.IsHashPolicy(m.Policy) {
				continue
			}
			at := hostnameHashing(p, c)
			if at == nil {
				continue
			}
			if why := unstableKeys(m.Hosts); why != "" {
				p.Report(p.pos(at, "use_hostname_for_hashing"), "cluster %q (%s) hashes hostnames, but %s", c.GetName(), c.GetType(), why)
			}
		}
	},
})

// hostnameHashing returns the consistent-hashing config that sets
// use_hostname_for_hashing for c, or nil.
func hostnameHashing(p *Pass, c *clusterv3.Cluster) proto.Message {
	if ch := c.GetCommonLbConfig().GetConsistentHashingLbConfig(); ch.GetUseHostnameForHashing() {
		return ch
	}
	for _, m := range p.Typed(c) {
		var ch *commonv3.ConsistentHashingLbConfig
		switch t := m.(type) {
		case *ringhashv3.RingHash:
			ch = t.GetConsistentHashingLbConfig()
		case *maglevv3.Maglev:
			ch = t.GetConsistentHashingLbConfig()
		}
		if ch.GetUseHostnameForHashing() {
			return ch
		}
	}
	return nil
}

// unstableKeys says which hosts of one priority share a hash key or have
// an empty one when hashing by hostname, or "" when every key is distinct.
func unstableKeys(hosts []lbmodel.Host) string {
	type pk struct {
		prio int
		key  string
	}
	seen := map[pk]int{}
	empty, dup := 0, 0
	for _, h := range hosts {
		k := hash.Key(&h, true)
		if k == "" {
			empty++
			continue
		}
		seen[pk{h.Priority, k}]++
		if seen[pk{h.Priority, k}] == 2 {
			dup++
		}
	}
	switch {
	case empty > 0:
		return fmt.Sprintf("%d of %d endpoints have no hostname (nor envoy.lb hash_key), so they hash the empty string", empty, len(hosts))
	case dup > 0:
		return fmt.Sprintf("%d hostnames are shared by several endpoints of one priority, which then get the same positions", dup)
	}
	return ""
}
