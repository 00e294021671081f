// Package failure is how many hosts a cluster can lose before Envoy moves
// load or panics (failure budgets per priority, locality and aggregate
// child) and the health sweep that steps levels' healthy counts through
// the core's priority, aggregate and share arithmetic.
package failure
