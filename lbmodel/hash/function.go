package hash

import (
	"encoding/binary"
	"fmt"

	"github.com/cespare/xxhash/v2"
)

// StdSeed is MurmurHash::STD_HASH_SEED (source/common/common/hash.h), the
// seed libstdc++'s std::hash<std::string> uses and the one ring hash passes.
const StdSeed uint64 = 0xc70f6907

// Function is the ring hash's hash_function (RingHash.Function and the
// legacy Cluster.RingHashLbConfig.Function).
type Function int

const (
	// HashXX is xxHash64 with seed 0 (DEFAULT_HASH and XX_HASH).
	HashXX Function = iota
	// HashMurmur2 is MurmurHash::murmurHash2 with StdSeed (MURMUR_HASH_2).
	HashMurmur2
)

func (f Function) String() string {
	if f == HashMurmur2 {
		return "MURMUR_HASH_2"
	}
	return "XX_HASH"
}

// ParseFunction reads the proto enum name. Envoy treats every value other
// than MURMUR_HASH_2 as xxHash (ring_hash_lb.cc, Ring::Ring).
func ParseFunction(name string) (Function, error) {
	switch name {
	case "", "DEFAULT_HASH", "XX_HASH":
		return HashXX, nil
	case "MURMUR_HASH_2":
		return HashMurmur2, nil
	}
	return HashXX, fmt.Errorf("unknown hash_function %q", name)
}

// Sum hashes s with the function, with the seed ring hash uses for it.
func (f Function) Sum(s string) uint64 {
	if f == HashMurmur2 {
		return MurmurHash2(s, StdSeed)
	}
	return XXHash64(s)
}

// sumBytes is Sum without converting b to a string (no allocation).
func (f Function) sumBytes(b []byte) uint64 {
	if f == HashMurmur2 {
		return murmurHash2Bytes(b, StdSeed)
	}
	return xxhash.Sum64(b)
}

// XXHash64 is HashUtil::xxHash64(s) (source/common/common/hash.h): plain
// XXH64 with seed 0.
func XXHash64(s string) uint64 { return xxhash.Sum64String(s) }

// XXHash64Seed is HashUtil::xxHash64(s, seed): XXH64 with the given seed.
// Maglev uses seed 1 for a host's skip.
func XXHash64Seed(s string, seed uint64) uint64 {
	if seed == 0 {
		return xxhash.Sum64String(s)
	}
	d := xxhash.NewWithSeed(seed)
	_, _ = d.WriteString(s) // never fails
	return d.Sum64()
}

// XXHash64Chain is HashUtil::xxHash64(absl::Span<string_view>, seed): each
// value is hashed with the previous result as its seed, so it is not the
// hash of the concatenation. An empty list gives the seed itself.
// Envoy's hash_test.cc Hash.xxHashWithVector pins {"foo","bar"}.
func XXHash64Chain(values []string, seed uint64) uint64 {
	h := seed
	for _, v := range values {
		h = XXHash64Seed(v, h)
	}
	return h
}

// MurmurHash2 is MurmurHash::murmurHash2 (source/common/common/hash.cc), the
// 64-bit MurmurHash64A variant of libstdc++'s _Hash_bytes: little-endian
// 8-byte blocks, tail bytes folded in without extra mixing.
func MurmurHash2(s string, seed uint64) uint64 {
	return murmurHash2Bytes([]byte(s), seed)
}

func murmurHash2Bytes(b []byte, seed uint64) uint64 {
	const mul uint64 = 0xc6a4a7935bd1e995
	shiftMix := func(v uint64) uint64 { return v ^ (v >> 47) }
	n := len(b)
	h := seed ^ (uint64(n) * mul)
	full := n &^ 7
	for i := 0; i < full; i += 8 {
		k := binary.LittleEndian.Uint64(b[i:])
		h ^= shiftMix(k*mul) * mul
		h *= mul
	}
	if rest := n - full; rest > 0 {
		var t uint64
		for i := rest - 1; i >= 0; i-- {
			t = t<<8 | uint64(b[full+i])
		}
		h ^= t
		h *= mul
	}
	h = shiftMix(h) * mul
	return shiftMix(h)
}
