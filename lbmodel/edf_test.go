package lbmodel

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

func picks(e *EDF, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = e.Pick()
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// emptyEDF is a scheduler built as Envoy's tests do with add() calls.
func emptyEDF(weights []float64) *EDF {
	e := &EDF{weights: weights}
	for i := range weights {
		e.add(i)
	}
	return e
}

// EdfSchedulerTest.Empty and SchedulerWithSomePicksEmptyEntries.
func TestEDFEmpty(t *testing.T) {
	e, err := NewEDF(nil, 123)
	if err != nil || e.Pick() != -1 {
		t.Fatalf("empty scheduler: %v %v", err, e)
	}
	if _, err := NewEDF([]float64{1, 0}, 0); err == nil {
		t.Fatal("zero weight accepted")
	}
	if _, err := NewEDF([]float64{math.NaN()}, 0); err == nil {
		t.Fatal("NaN weight accepted")
	}
}

// EdfSchedulerTest.Unweighted: 128 equal entries pick in insertion order.
func TestEDFUnweighted(t *testing.T) {
	w := make([]float64, 128)
	for i := range w {
		w[i] = 1
	}
	e := emptyEDF(w)
	for round := 0; round < 128; round++ {
		for i := range w {
			if p := e.Pick(); p != i {
				t.Fatalf("round %d: pick %d, want %d", round, p, i)
			}
		}
	}
}

// EdfSchedulerTest.Weighted: entry i of weight i+1 is picked i+1 times in
// 128·129/2 picks.
func TestEDFWeighted(t *testing.T) {
	w := make([]float64, 128)
	for i := range w {
		w[i] = float64(i + 1)
	}
	e := emptyEDF(w)
	count := make([]int, 128)
	for range 128 * 129 / 2 {
		count[e.Pick()]++
	}
	for i, c := range count {
		if c != i+1 {
			t.Fatalf("entry %d picked %d times, want %d", i, c, i+1)
		}
	}
}

func sortedQueue(e *EDF) []edfEntry {
	q := append([]edfEntry(nil), e.q...)
	sort.Slice(q, func(i, j int) bool { return q[i].index < q[j].index })
	return q
}

// EdfSchedulerTest.SchedulerWithZeroPicksEqualToEmptyWithAddedEntries and
// SchedulerWithSomePicksEqualToEmptyWithAddedEntries: createWithPicks(P)
// leaves the same deadlines (within 1e-5) as P sequential picks.
func TestEDFCreateWithPicks(t *testing.T) {
	const n = 128
	w := make([]float64, n)
	for i := range w {
		w[i] = (100.5-0.01)/n*float64(i) + 0.01
	}
	for _, p := range []uint32{0, 5, 140, 501, 123456, 894571} {
		a := emptyEDF(append([]float64(nil), w...))
		for range p {
			a.Pick()
		}
		b, err := NewEDF(w, p)
		if err != nil {
			t.Fatal(err)
		}
		qa, qb := sortedQueue(a), sortedQueue(b)
		if len(qa) != len(qb) {
			t.Fatalf("P=%d: sizes %d %d", p, len(qa), len(qb))
		}
		for i := range qa {
			if math.Abs(qa[i].deadline-qb[i].deadline) > 1e-5 {
				t.Fatalf("P=%d entry %d: deadline %v vs %v", p, i, qa[i].deadline, qb[i].deadline)
			}
		}
	}
}

// EdfSchedulerTest.SchedulerWithRandomPicksFirstPickDistribution (with 1e5
// iterations instead of 4e5, same 1 point tolerance).
func TestEDFFirstPickDistribution(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, w := range [][]float64{{25, 75}, {1, 99}, {50, 50}, {1, 20, 79}} {
		const iters = 100000
		count := make([]int, len(w))
		for range iters {
			e, err := NewEDF(w, rng.Uint32())
			if err != nil {
				t.Fatal(err)
			}
			count[e.Pick()]++
		}
		for i, c := range count {
			if got := 100 * float64(c) / iters; math.Abs(got-w[i]) > 1 {
				t.Errorf("weights %v: entry %d first-picked %.2f%%, want %.0f%%", w, i, got, w[i])
			}
		}
	}
}

// Locality scheduler sequences with seed 0 (locality_wrr_test.cc /
// HostSetImplLocalityTest: AllUnweighted, Weighted, MissingWeight).
func TestLocalityEDFSequences(t *testing.T) {
	cases := []struct {
		ew   []float64
		want []int
	}{
		{[]float64{1, 1, 1}, []int{0, 1, 2, 0, 1, 2}},
		{[]float64{1, 2}, []int{1, 0, 1, 1, 0, 1}},
		{[]float64{1, 0, 1}, []int{0, 2, 0, 2, 0, 2}},
	}
	for _, c := range cases {
		e, idx, err := NewLocalityEDF(c.ew, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for range c.want {
			got = append(got, idx[e.Pick()])
		}
		if !equalInts(got, c.want) {
			t.Errorf("weights %v: picks %v, want %v", c.ew, got, c.want)
		}
	}
	if e, _, _ := NewLocalityEDF([]float64{0, 0}, 0); e != nil {
		t.Error("all-zero weights built a scheduler")
	}
}

// locality_wrr_test.cc (WeightedWithSeed-style): weights [1,6,3], one pick
// from each of the schedulers built with seeds 0..9 lands 1/6/3 times.
func TestLocalityEDFSeeds(t *testing.T) {
	count := make([]int, 3)
	for seed := uint32(0); seed < 10; seed++ {
		e, idx, err := NewLocalityEDF([]float64{1, 6, 3}, seed)
		if err != nil {
			t.Fatal(err)
		}
		count[idx[e.Pick()]]++
	}
	if !equalInts(count, []int{1, 6, 3}) {
		t.Errorf("first picks %v, want [1 6 3]", count)
	}
}
