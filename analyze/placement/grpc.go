package placement

import (
	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"

	"github.com/lbctl/lbctl/lbmodel"
	lbgrpc "github.com/lbctl/lbctl/lbmodel/grpc"
)

// ForCluster is the placement `lbctl hash` and `lbctl diff` compute for
// cluster m with settings s: for Envoy, a ring or table per priority with
// the node's locality first (ThreadAwareLoadBalancerBase::refresh); for
// gRPC (grpc true, RING_HASH only), its capped ring over the endpoints it
// keeps, at the first priority with endpoints. It returns the settings
// the structures were built with (gRPC caps the ring sizes).
func ForCluster(c *config.Config, m *model.Model, s model.LBSettings, grpc bool) (*Setup, model.LBSettings, error) {
	local := model.LocalLocality(c, model.Options{})
	hosts := m.Hosts
	if grpc {
		hosts, s = GRPCRingInput(hosts, s)
	}
	hs, err := Build(m.Policy, hosts, m, s, local)
	if err == nil && grpc {
		GRPCPriority(hs)
	}
	return hs, s, err
}

// GRPCRingInput is what a proxyless gRPC client's ring hash is built over:
// localities without a weight are dropped (grpc-go EDS parsing), so are
// endpoints not HEALTHY or UNKNOWN; each endpoint's weight is its weight
// times its locality's (gRFC A42); ring sizes are capped at 4096
// (GRPC_RING_HASH_CAP). Locality weighting is then already in the weights.
func GRPCRingInput(hosts []lbmodel.Host, s model.LBSettings) ([]lbmodel.Host, model.LBSettings) {
	var out []lbmodel.Host
	for _, h := range hosts {
		if h.LocalityWeight == 0 || !lbgrpc.KeepsEndpoint(h.Status) {
			continue
		}
		h.Weight = max(1, h.Weight) * h.LocalityWeight
		out = append(out, h)
	}
	s.LocalityWeighted = false
	s.Ring.MinRingSize = min(s.Ring.MinRingSize, lbgrpc.DefaultRingCap)
	s.Ring.MaxRingSize = min(s.Ring.MaxRingSize, lbgrpc.DefaultRingCap)
	return out, s
}

// GRPCPriority: gRPC's priority policy sends every request to the first
// priority that has endpoints (all of them READY by default).
func GRPCPriority(hs *Setup) {
	chosen := false
	for i := range hs.Load.Levels {
		l := &hs.Load.Levels[i]
		l.HealthyLoad, l.DegradedLoad, l.Panic = 0, 0, false
		if !chosen && i < len(hs.Levels) && len(hs.Levels[i].Hosts) > 0 {
			l.HealthyLoad, chosen = 100, true
		}
		if i < len(hs.Levels) {
			hs.Levels[i].Panic = false
		}
	}
	hs.Load.TotalPanic = false
}
