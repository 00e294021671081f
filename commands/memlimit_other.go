//go:build !(linux || darwin || freebsd)

package commands

// fitAddressSpace does nothing where there is no address-space rlimit.
func fitAddressSpace() {}

// inputFittingAddressSpace is 0: no address-space limit to fit.
func inputFittingAddressSpace() int64 { return 0 }
