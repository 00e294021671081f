//go:build linux || darwin || freebsd

package commands

import (
	"os"
	"runtime/debug"
	"syscall"
)

// fitAddressSpace keeps the heap inside an address-space limit (ulimit -v,
// as CI runners set): without a soft memory limit the runtime lets the heap
// grow to twice the live data and dies at the limit, where collecting
// sooner would have fitted. GOMEMLIMIT, when set, wins.
func fitAddressSpace() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur == 0 || rl.Cur >= 1<<62 {
		return
	}
	// The runtime maps more than the heap (stacks, metadata, fragmentation
	// of large objects): leave it about half.
	debug.SetMemoryLimit(int64(rl.Cur / 2))
}
