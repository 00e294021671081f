package hash

import (
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// TestLevelEmptyCause: normalizeLocalityWeights (thread_aware_lb_impl.cc)
// returns before adding a host when the locality weights sum to 0, whatever
// the health; otherwise a level is empty only for want of used hosts.
func TestLevelEmptyCause(t *testing.T) {
	a, b := lbmodel.Locality{Zone: "a"}, lbmodel.Locality{Zone: "b"}
	h := func(loc lbmodel.Locality, lw uint32, st lbmodel.HealthStatus) lbmodel.Host {
		return lbmodel.Host{Address: loc.Zone, Locality: loc, LocalityWeight: lw, Status: st}
	}
	cases := []struct {
		name  string
		hosts []lbmodel.Host
		opt   NormalizeOptions
		want  EmptyCause
	}{
		{"no weights, healthy", []lbmodel.Host{h(a, 0, lbmodel.StatusHealthy), h(b, 0, lbmodel.StatusHealthy)}, NormalizeOptions{LocalityWeighted: true}, EmptyLocalityWeights},
		{"no weights, panic", []lbmodel.Host{h(a, 0, lbmodel.StatusUnhealthy)}, NormalizeOptions{LocalityWeighted: true, Panic: true}, EmptyLocalityWeights},
		{"no weights, flat", []lbmodel.Host{h(a, 0, lbmodel.StatusHealthy)}, NormalizeOptions{}, NotEmpty},
		{"weighted", []lbmodel.Host{h(a, 1, lbmodel.StatusHealthy), h(b, 0, lbmodel.StatusHealthy)}, NormalizeOptions{LocalityWeighted: true}, NotEmpty},
		{"healthy only unweighted", []lbmodel.Host{h(a, 1, lbmodel.StatusUnhealthy), h(b, 0, lbmodel.StatusHealthy)}, NormalizeOptions{LocalityWeighted: true}, EmptyNoHealthyWeighted},
		{"none healthy", []lbmodel.Host{h(a, 1, lbmodel.StatusUnhealthy)}, NormalizeOptions{LocalityWeighted: true}, EmptyNoHealthy},
		{"none healthy, flat", []lbmodel.Host{h(a, 0, lbmodel.StatusUnhealthy)}, NormalizeOptions{}, EmptyNoHealthy},
	}
	for _, c := range cases {
		got := LevelEmptyCause(c.hosts, c.opt)
		if got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
		// The cause agrees with the weights Envoy's normalization gives.
		nw, err := NormalizeWeights(c.hosts, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		if (len(nw.Hosts) == 0) != (got != NotEmpty) {
			t.Errorf("%s: %d hosts normalized, cause %v", c.name, len(nw.Hosts), got)
		}
	}
}
