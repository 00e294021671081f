package hash

import (
	"testing"

	"github.com/cespare/xxhash/v2"
)

// Envoy test/common/common/hash_test.cc, Hash.xxHash.
func TestXXHash64EnvoyHashTest(t *testing.T) {
	for in, want := range map[string]uint64{
		"foo":      3728699739546630719,
		"bar":      5234164152756840025,
		"foo\nbar": 8917841378505826757,
		"lyft":     4400747396090729504,
		"":         17241709254077376921,
	} {
		if got := XXHash64(in); got != want {
			t.Errorf("XXHash64(%q) = %d, want %d", in, got, want)
		}
		if got := XXHash64Seed(in, 0); got != want {
			t.Errorf("XXHash64Seed(%q, 0) = %d, want %d", in, got, want)
		}
	}
}

// Envoy hash_test.cc Hash.xxHashWithVector: the span overload chains seeds.
func TestXXHash64ChainEnvoyHashTest(t *testing.T) {
	if got := XXHash64Chain([]string{"foo", "bar"}, 0); got != 17745830980996999794 {
		t.Errorf("chain(foo,bar) = %d, want 17745830980996999794", got)
	}
	if got := XXHash64Chain([]string{"foo"}, 0); got != XXHash64("foo") {
		t.Errorf("chain of one value must equal plain xxHash64")
	}
	if got := XXHash64Chain(nil, 7); got != 7 {
		t.Errorf("empty chain = %d, want the seed", got)
	}
	// Not the concatenation (hash_test: XXH64("foobar") differs).
	if XXHash64("foobar") != 11721187498075204345 {
		t.Errorf("XXHash64(foobar) = %d", XXHash64("foobar"))
	}
}

// The seeded form must agree with an independent streaming digest, and with
// itself across seeds 0 and 1 (Maglev's offset and skip).
func TestXXHash64SeedAgainstDigest(t *testing.T) {
	for _, s := range []string{"", "a", "127.0.0.1:90", "0123456789abcdef0123456789abcdef-long-key"} {
		for _, seed := range []uint64{0, 1, 42, ^uint64(0)} {
			d := xxhash.NewWithSeed(seed)
			_, _ = d.Write([]byte(s))
			if got, want := XXHash64Seed(s, seed), d.Sum64(); got != want {
				t.Errorf("XXHash64Seed(%q,%d) = %d, want %d", s, seed, got, want)
			}
		}
	}
	if XXHash64Seed("127.0.0.1:90", 1) == XXHash64("127.0.0.1:90") {
		t.Error("seed 1 must change the hash")
	}
}

// Envoy hash_test.cc Hash.murmurHash2 (default seed STD_HASH_SEED).
func TestMurmurHash2EnvoyHashTest(t *testing.T) {
	for in, want := range map[string]uint64{
		"foo":      9631199822919835226,
		"bar":      11474628671133349555,
		"foo\nbar": 16306510975912980159,
		"lyft":     12847078931730529320,
		"":         6142509188972423790,
	} {
		if got := MurmurHash2(in, StdSeed); got != want {
			t.Errorf("MurmurHash2(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestParseHashFunction(t *testing.T) {
	for name, want := range map[string]Function{"": HashXX, "DEFAULT_HASH": HashXX, "XX_HASH": HashXX, "MURMUR_HASH_2": HashMurmur2} {
		got, err := ParseFunction(name)
		if err != nil || got != want {
			t.Errorf("ParseHashFunction(%q) = %v, %v", name, got, err)
		}
	}
	if _, err := ParseFunction("CRC"); err == nil {
		t.Error("unknown name must be an error")
	}
}
