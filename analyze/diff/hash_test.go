package diff

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/lbctl/lbctl/analyze/hashing"
	"github.com/lbctl/lbctl/analyze/placement"
)

// owner is where Envoy sends hash h: choosePriority, then that level's
// ring or table (attempt 0), as `lbctl hash` looks keys up.
func owner(s *placement.Setup, h uint64) string {
	p, _ := s.Choose(h)
	if p >= len(s.Levels) {
		return "(no host)"
	}
	return s.Levels[p].Owner(h)
}

// The exact key-space figures agree with looking up many random keys on
// both placements: the moved fraction and each host's gain and loss are
// within 4.5 standard deviations of the sampled proportions.
func TestKeySpaceAgainstRandomKeys(t *testing.T) {
	old, new, r := loadCase(t, "hash")
	rg, err := Build(old, new, Options{Explain: explainBatch, Semantics: "grpc"})
	if err != nil {
		t.Fatal(err)
	}
	const n = 400000
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		grpc bool
	}{{"ring", false}, {"maglev", false}, {"ring", true}} {
		name, r := tc.name, r
		if tc.grpc {
			r = rg
		}
		var d *Cluster
		for i := range r.Clusters {
			if r.Clusters[i].Name == name {
				d = &r.Clusters[i]
			}
		}
		if d == nil || d.Hash == nil {
			t.Fatalf("%s: no key-space figure", name)
		}
		before, err := Setup(old, old.Cluster(name), tc.grpc)
		if err != nil {
			t.Fatal(err)
		}
		after, err := Setup(new, new.Cluster(name), tc.grpc)
		if err != nil {
			t.Fatal(err)
		}
		moved := 0
		gained, lost := map[string]int{}, map[string]int{}
		for range n {
			h := rng.Uint64()
			a, b := owner(before, h), owner(after, h)
			if a != b {
				moved++
				gained[b]++
				lost[a]++
			}
		}
		near := func(what string, exact float64, count int) {
			t.Helper()
			got := float64(count) / n
			sd := math.Sqrt(exact * (1 - exact) / n)
			if math.Abs(got-exact) > 4.5*sd+1e-9 {
				t.Errorf("%s %s: exact %v, %d random keys give %v (sd %v)", name, what, exact, n, got, sd)
			}
		}
		near("moved", d.Hash.Moved, moved)
		if d.Hash.Moved <= 0 || d.Hash.Moved >= 1 {
			t.Errorf("%s: moved %v", name, d.Hash.Moved)
		}
		for _, h := range d.Hash.Hosts {
			near(h.Address+" gained", h.Gained, gained[h.Address])
			near(h.Address+" lost", h.Lost, lost[h.Address])
		}
	}
}

// A host removed from a Maglev table loses exactly its slots; the ring
// case adds one host whose gain is exactly what the others lose.
func TestKeySpaceBalances(t *testing.T) {
	_, _, r := loadCase(t, "hash")
	for _, c := range r.Clusters {
		var g, l float64
		for _, h := range c.Hash.Hosts {
			g += h.Gained
			l += h.Lost
		}
		if math.Abs(g-c.Hash.Moved) > 1e-12 || math.Abs(l-c.Hash.Moved) > 1e-12 {
			t.Errorf("%s: gained %v, lost %v, moved %v", c.Name, g, l, c.Hash.Moved)
		}
	}
}

// NEW's Maglev cluster is OLD's without 127.0.0.1:103, so the diff's
// figure is exactly `lbctl hash --remove 127.0.0.1:103` on OLD.
func TestKeySpaceEqualsHashRemove(t *testing.T) {
	old, _, r := loadCase(t, "hash")
	hr, err := hashing.Build(old, old.Cluster("maglev"), hashing.HashOptions{Remove: []string{"127.0.0.1:103"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Clusters {
		if c.Name != "maglev" {
			continue
		}
		if c.Hash.Moved != *hr.Moved {
			t.Errorf("diff moved %v, hash --remove %v", c.Hash.Moved, *hr.Moved)
		}
		for _, d := range hr.Remove.Maglev.To {
			for _, h := range c.Hash.Hosts {
				if h.Address == d.Host && h.Gained != d.Share {
					t.Errorf("%s: gained %v, hash --remove sends it %v", h.Address, h.Gained, d.Share)
				}
			}
		}
		return
	}
	t.Fatal("maglev not in the diff")
}
