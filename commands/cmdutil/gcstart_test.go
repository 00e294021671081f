package cmdutil

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestStartHeapEndsAtFirstCollection(t *testing.T) {
	EndStartHeap()
	runtime.GC() // what earlier tests left must not start a collection at once
	before, limit := gcPercent(), debug.SetMemoryLimit(-1)
	CollectLater()
	if gcPercent() != -1 || debug.SetMemoryLimit(-1) != startHeap {
		t.Fatalf("start heap not in force: GOGC %d, limit %d", gcPercent(), debug.SetMemoryLimit(-1))
	}
	CollectLater() // a second run in the process keeps the first one's
	runtime.GC()
	for i := 0; i < 200 && gcPercent() == -1; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	if got := gcPercent(); got != before {
		t.Errorf("after the first collection GOGC = %d, want %d", got, before)
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("after the first collection limit = %d, want %d", got, limit)
	}
}

func TestStartHeapKeepsUsersGOGC(t *testing.T) {
	EndStartHeap()
	t.Setenv("GOGC", "50")
	before := gcPercent()
	CollectLater()
	if got := gcPercent(); got != before {
		t.Errorf("GOGC set by the user: percent %d, want %d", got, before)
	}
}

func TestStartHeapKeepsALowerLimit(t *testing.T) {
	EndStartHeap()
	old := debug.SetMemoryLimit(32 << 20)
	defer debug.SetMemoryLimit(old)
	before := gcPercent()
	CollectLater()
	if got := gcPercent(); got != before {
		t.Errorf("under a 32 MiB limit: percent %d, want %d", got, before)
	}
}
