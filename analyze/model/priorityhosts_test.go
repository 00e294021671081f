package model

import (
	"slices"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

func TestPriorityHosts(t *testing.T) {
	hs := func(ps ...int) []lbmodel.Host {
		out := make([]lbmodel.Host, len(ps))
		for i, p := range ps {
			out[i] = lbmodel.Host{Address: string(rune('a' + i)), Priority: p}
		}
		return out
	}
	addrs := func(h []lbmodel.Host) (out []string) {
		for _, x := range h {
			out = append(out, x.Address)
		}
		return out
	}
	for _, c := range []struct {
		prios []int
		p     int
		want  []string
	}{
		{[]int{0, 0, 1, 1}, 1, []string{"c", "d"}},
		{[]int{0, 1, 0, 1}, 0, []string{"a", "c"}}, // not contiguous: a copy
		{[]int{0, 1, 0, 1}, 1, []string{"b", "d"}},
		{[]int{0, 0}, 2, nil},
	} {
		all := hs(c.prios...)
		got := PriorityHosts(all, c.p)
		if !slices.Equal(addrs(got), c.want) {
			t.Errorf("%v p=%d: got %v, want %v", c.prios, c.p, addrs(got), c.want)
		}
		// Appending to the result never writes into all.
		_ = append(got, lbmodel.Host{Address: "x"})
		if addrs(all)[len(all)-1] == "x" {
			t.Errorf("%v: append wrote into the cluster's hosts", c.prios)
		}
	}
}
