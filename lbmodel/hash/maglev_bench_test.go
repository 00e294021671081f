package hash

import (
	"fmt"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// BenchmarkMaglevCounts is the shares path explain takes for every MAGLEV
// cluster (slot counts only), beside the full table build. Weights: all
// equal; 1..5 in rotation; one host 1000× the others (the fill then runs
// about one claim per round).
func BenchmarkMaglevCounts(b *testing.B) {
	for _, n := range []int{3, 1000} {
		for _, ws := range []string{"equal", "1-5", "skewed"} {
			hosts := benchHosts(n)
			for i := range hosts {
				switch ws {
				case "1-5":
					hosts[i].Weight = uint32(1 + i%5)
				case "skewed":
					hosts[i].Weight = 1
					if i == 0 {
						hosts[i].Weight = 1000
					}
				}
			}
			nw, err := NormalizeWeights(hosts, NormalizeOptions{})
			if err != nil {
				b.Fatal(err)
			}
			name := fmt.Sprintf("hosts=%d,weights=%s", n, ws)
			b.Run(name+"/impl=counts", func(b *testing.B) {
				for b.Loop() {
					if _, err := BuildMaglevCounts(nw, DefaultMaglevConfig()); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(name+"/impl=table", func(b *testing.B) {
				for b.Loop() {
					if _, err := BuildMaglev(nw, DefaultMaglevConfig()); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkHashClusterShares is explain's lbmodel work for one small
// RING_HASH or MAGLEV cluster (3 hosts, defaults): ClusterShares with the
// precomputed policy analyze/model wires (normalize the priority's hosts,
// the cluster's table cache, shares mapped back by address).
func BenchmarkHashClusterShares(b *testing.B) {
	hosts := benchHosts(3)
	for _, policy := range []string{"RING_HASH", "MAGLEV"} {
		b.Run("policy="+policy, func(b *testing.B) {
			for b.Loop() {
				var tables TableCache
				in := lbmodel.ClusterInput{Hosts: hosts, PanicThreshold: 50}
				in.LB.Policy = lbmodel.PolicyPrecomputed
				in.LB.Precomputed = func(_, source []lbmodel.Host) ([]float64, error) {
					nw, err := NormalizeWeights(hosts, NormalizeOptions{Panic: len(source) == len(hosts)})
					if err != nil {
						return nil, err
					}
					var hs []HostShare
					if policy == "RING_HASH" {
						r, err := tables.Ring(nw, DefaultRingConfig())
						if err != nil {
							return nil, err
						}
						hs = r.Shares()
					} else {
						t, err := tables.MaglevCounts(nw, DefaultMaglevConfig())
						if err != nil {
							return nil, err
						}
						hs = t.Shares()
					}
					return SharesByAddress(source, hs), nil
				}
				if _, err := lbmodel.ClusterShares(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
