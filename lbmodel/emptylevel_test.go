package lbmodel

import "testing"

// TestLevelEmptyCause: normalizeLocalityWeights (thread_aware_lb_impl.cc)
// returns before adding a host when the locality weights sum to 0, whatever
// the health; otherwise a level is empty only for want of used hosts.
func TestLevelEmptyCause(t *testing.T) {
	a, b := Locality{Zone: "a"}, Locality{Zone: "b"}
	h := func(loc Locality, lw uint32, st HealthStatus) Host {
		return Host{Address: loc.Zone, Locality: loc, LocalityWeight: lw, Status: st}
	}
	cases := []struct {
		name  string
		hosts []Host
		opt   NormalizeOptions
		want  EmptyCause
	}{
		{"no weights, healthy", []Host{h(a, 0, StatusHealthy), h(b, 0, StatusHealthy)}, NormalizeOptions{LocalityWeighted: true}, EmptyLocalityWeights},
		{"no weights, panic", []Host{h(a, 0, StatusUnhealthy)}, NormalizeOptions{LocalityWeighted: true, Panic: true}, EmptyLocalityWeights},
		{"no weights, flat", []Host{h(a, 0, StatusHealthy)}, NormalizeOptions{}, NotEmpty},
		{"weighted", []Host{h(a, 1, StatusHealthy), h(b, 0, StatusHealthy)}, NormalizeOptions{LocalityWeighted: true}, NotEmpty},
		{"healthy only unweighted", []Host{h(a, 1, StatusUnhealthy), h(b, 0, StatusHealthy)}, NormalizeOptions{LocalityWeighted: true}, EmptyNoHealthyWeighted},
		{"none healthy", []Host{h(a, 1, StatusUnhealthy)}, NormalizeOptions{LocalityWeighted: true}, EmptyNoHealthy},
		{"none healthy, flat", []Host{h(a, 0, StatusUnhealthy)}, NormalizeOptions{}, EmptyNoHealthy},
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
