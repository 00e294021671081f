package model

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Parallel runs f(0..n-1) on up to GOMAXPROCS goroutines, for reports and
// lint rules whose clusters are independent. Each index runs once; f must
// write only state owned by its index. A panic in f is re-raised in the
// caller's goroutine (after the others stop), so the command's recover
// still turns it into an internal error instead of a crash.
func Parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var (
		next     atomic.Int64
		stop     atomic.Bool
		wg       sync.WaitGroup
		panicked any
		once     sync.Once
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					once.Do(func() { panicked = r })
					stop.Store(true)
				}
			}()
			for !stop.Load() {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
}
