package lbmodel

import (
	"container/heap"
	"fmt"
	"math"
)

// edfMaxPicks is the modulus createWithPicks applies to its pick count
// (UINT_MAX/10 in edf_scheduler.h).
const edfMaxPicks = 429496729

// edfEpsilon is added to every weight when createWithPicks builds the
// initial deadlines, so that an initial entry sorts just before a re-added
// entry whose deadline is nominally equal.
const edfEpsilon = 1e-13

// EDF is Envoy's earliest-deadline-first scheduler (EdfScheduler in
// source/common/upstream/edf_scheduler.h) over entries 0..n-1 with fixed
// weights. A pick takes the smallest deadline, ties going to the entry
// inserted first, and re-inserts it at now + 1/weight. Envoy uses it for
// locality picks (LocalityWrr) and for weighted host picks (EdfLoadBalancerBase).
type EDF struct {
	weights []float64
	now     float64
	order   uint64
	q       edfQueue
}

type edfEntry struct {
	deadline float64
	order    uint64
	index    int
}

type edfQueue []edfEntry

func (q edfQueue) Len() int { return len(q) }
func (q edfQueue) Less(i, j int) bool {
	if q[i].deadline != q[j].deadline {
		return q[i].deadline < q[j].deadline
	}
	return q[i].order < q[j].order
}
func (q edfQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *edfQueue) Push(x any)   { *q = append(*q, x.(edfEntry)) }
func (q *edfQueue) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// NewEDF is EdfScheduler::createWithPicks: the scheduler in the state it
// reaches after picks picks (reduced modulo 429496729). Each entry is first
// credited with floor((w_i+ε)·P/W) picks (one fewer when floating point
// overshoots), then the remaining picks are done one at a time. Envoy passes
// a random seed as picks; its tests use a mock random of 0. Weights must be
// finite and > 0 (Envoy never enters a zero weight).
func NewEDF(weights []float64, picks uint32) (*EDF, error) {
	for i, w := range weights {
		if !(w > 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("edf: weight %d is %v, want a finite value > 0", i, w)
		}
	}
	e := &EDF{weights: append([]float64(nil), weights...)}
	if len(weights) == 0 {
		return e, nil
	}
	picks %= edfMaxPicks
	sum := 0.0
	for _, w := range weights {
		sum += w + edfEpsilon
	}
	p := float64(picks)
	var done uint32
	maxTime := 0.0
	e.q = make(edfQueue, 0, len(weights))
	for i, w := range weights {
		aw := w + edfEpsilon
		f := uint32(aw * p / sum)
		if f > 0 && float64(f)/aw >= p/sum {
			f--
		}
		maxTime = max(maxTime, float64(f)/aw)
		e.q = append(e.q, edfEntry{deadline: float64(f+1) / aw, order: uint64(i), index: i})
		done += f
	}
	heap.Init(&e.q)
	e.now = maxTime
	e.order = uint64(len(weights))
	for ; done < picks; done++ {
		e.Pick()
	}
	return e, nil
}

// add is EdfScheduler::add: deadline now + 1/weight, next sequence number.
func (e *EDF) add(index int) {
	heap.Push(&e.q, edfEntry{deadline: e.now + 1.0/e.weights[index], order: e.order, index: index})
	e.order++
}

// Pick is EdfScheduler::pickAndAdd with each entry's fixed weight. It
// returns -1 when the scheduler is empty.
func (e *EDF) Pick() int {
	if len(e.q) == 0 {
		return -1
	}
	top := heap.Pop(&e.q).(edfEntry)
	e.now = top.deadline
	e.add(top.index)
	return top.index
}

// Len is the number of entries.
func (e *EDF) Len() int { return len(e.weights) }
