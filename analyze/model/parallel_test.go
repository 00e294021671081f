package model

import (
	"sync/atomic"
	"testing"
)

func TestParallelRunsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 1000} {
		counts := make([]int32, n)
		Parallel(n, func(i int) { atomic.AddInt32(&counts[i], 1) })
		for i, c := range counts {
			if c != 1 {
				t.Fatalf("n=%d: index %d ran %d times", n, i, c)
			}
		}
	}
}

func TestParallelReraisesPanic(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Fatalf("recovered %v, want boom", r)
		}
	}()
	Parallel(100, func(i int) {
		if i == 37 {
			panic("boom")
		}
	})
	t.Fatal("no panic")
}
