//go:build linux || darwin || freebsd

package cmdutil

import (
	"os"
	"runtime/debug"
	"syscall"
)

// FitAddressSpace keeps the heap inside an address-space limit (ulimit -v,
// as CI runners set): without a soft memory limit the runtime lets the heap
// grow to twice the live data and dies at the limit, where collecting
// sooner would have fitted. GOMEMLIMIT, when set, wins.
func FitAddressSpace() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	if as := addressSpaceLimit(); as > 0 {
		// The runtime maps more than the heap (stacks, metadata,
		// fragmentation of large objects): leave it about half.
		debug.SetMemoryLimit(int64(as / 2))
	}
}

// addressSpaceLimit is the soft RLIMIT_AS in bytes, 0 when there is none.
func addressSpaceLimit() uint64 {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err != nil || rl.Cur == 0 || rl.Cur >= 1<<62 {
		return 0
	}
	return rl.Cur
}

// inputFittingAddressSpace is the input size a run can read under an
// address-space limit, 0 when there is none. Reading keeps a positioned
// node tree of about 60 bytes of heap per input byte, and the runtime
// reserves about 1.2 GiB of address space before any heap (measured:
// 8.4 MB of YAML, 100,000 hosts, dies near 450 MB in use under 2 GB), so
// a run past this would end in the runtime's out-of-memory crash instead
// of an error naming the file.
func inputFittingAddressSpace() int64 {
	as := addressSpaceLimit()
	if as == 0 {
		return 0
	}
	const reserved, perByte = 1200 << 20, 120
	if as <= reserved+perByte<<20 {
		return 1 << 20
	}
	return int64((as - reserved) / perByte)
}
