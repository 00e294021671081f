package hash

import (
	"fmt"
	"math"
	"testing"

	"github.com/lbctl/lbctl/lbmodel"
)

// ports makes hosts 127.0.0.1:<port> as Envoy's makeTestHost(info_, "tcp://127.0.0.1:<port>").
func ports(ps ...int) []lbmodel.Host {
	hs := make([]lbmodel.Host, len(ps))
	for i, p := range ps {
		hs[i] = lbmodel.Host{Address: fmt.Sprintf("127.0.0.1:%d", p), Weight: 1}
	}
	return hs
}

func mustNormalize(t *testing.T, hosts []lbmodel.Host, opt NormalizeOptions) NormalizedWeights {
	t.Helper()
	nw, err := NormalizeWeights(hosts, opt)
	if err != nil {
		t.Fatalf("NormalizeWeights: %v", err)
	}
	return nw
}

// retryPick emulates ThreadAwareLoadBalancerBase::LoadBalancerImpl::chooseHost's
// attempt loop: attempts 0..retries, returning the first host the predicate
// accepts, else the last one tried.
func retryPick(pick func(h uint64, attempt uint32) (int, bool), h uint64, retries uint32, reject func(int) bool) (int, bool) {
	var host int
	var ok bool
	for a := uint32(0); a <= retries; a++ {
		host, ok = pick(h, a)
		if !ok || !reject(host) {
			return host, ok
		}
	}
	return host, ok
}

// histogram looks up i*(2^64-1)/n for i in [0,n) as the Envoy *LargeRing tests do.
func histogram(t *testing.T, pick func(uint64, uint32) (int, bool), hosts int, n uint64) []int {
	t.Helper()
	counts := make([]int, hosts)
	step := uint64(math.MaxUint64) / n
	for i := uint64(0); i < n; i++ {
		h, ok := pick(i*step, 0)
		if !ok {
			t.Fatalf("no host for %d", i*step)
		}
		counts[h]++
	}
	return counts
}

func sharesEqual(t *testing.T, name string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d shares, want %d", name, len(got), len(want))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol {
			t.Errorf("%s host %d: %v, want %v", name, i, got[i], want[i])
		}
	}
}
