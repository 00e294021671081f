// Package hash is the consistent-hashing arithmetic of Envoy's RING_HASH and
// MAGLEV policies: hash functions, host keys and weights, rings, Maglev tables,
// request hash policies and how keys move when hosts change.
package hash
