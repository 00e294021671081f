//go:build !(linux || darwin || freebsd)

package cmdutil

// FitAddressSpace does nothing where there is no address-space rlimit.
func FitAddressSpace() {}

// inputFittingAddressSpace is 0: no address-space limit to fit.
func inputFittingAddressSpace() int64 { return 0 }
