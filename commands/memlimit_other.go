//go:build !(linux || darwin || freebsd)

package commands

// fitAddressSpace does nothing where there is no address-space rlimit.
func fitAddressSpace() {}
