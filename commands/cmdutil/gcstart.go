package cmdutil

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// startHeap is how much a run may allocate before its first collection.
// Most runs (a few files, up to some ten thousand hosts) allocate less and
// finish without collecting at all; a bigger run collects as usual once it
// has passed this. cmd/compile does the same for its start-up heap
// (cmd/compile/internal/base.AdjustStartingHeap).
const startHeap = 64 << 20

var startHeapMu sync.Mutex
var startHeapOn bool // a run's start heap is in force (no collection yet)

// CollectLater turns the collector off until the heap reaches startHeap,
// then restores the settings in force before: the GOGC percentage, and the
// memory limit FitAddressSpace or GOMEMLIMIT set (a lower limit wins
// throughout). GOGC in the environment is the user's choice and is kept.
func CollectLater() {
	if os.Getenv("GOGC") != "" {
		return
	}
	startHeapMu.Lock()
	defer startHeapMu.Unlock()
	if startHeapOn { // runs in one process (tests) share the first one's
		return
	}
	limit := debug.SetMemoryLimit(-1) // -1 reads the limit
	if limit <= startHeap || heapInUse() >= startHeap/2 {
		return
	}
	percent := debug.SetGCPercent(-1)
	debug.SetMemoryLimit(startHeap)
	startHeapOn = true
	restoreHeap = func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
		startHeapOn = false
	}
	// The first collection frees the sentinel and runs this cleanup.
	sentinel := new([64]byte)
	runtime.AddCleanup(sentinel, func(int) { EndStartHeap() }, 0)
}

// heapInUse is the bytes of heap objects, live or not yet collected.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// restoreHeap puts back the settings collectLater found.
var restoreHeap func()

// EndStartHeap ends the start heap now, if it is in force (benchmarks
// measure their floors with the collector as it was).
func EndStartHeap() {
	startHeapMu.Lock()
	defer startHeapMu.Unlock()
	if startHeapOn {
		restoreHeap()
	}
}
