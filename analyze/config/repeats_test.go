package config

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Issue 29: 100,000 unknown keys (6 MB) took 14 s, most of it "did you
// mean" on each, and listed 100,000 problems. The load is now timed
// against a file of the same size whose keys are known (metadata), and
// the problems are capped.
func TestManyUnknownKeysLinearAndCapped(t *testing.T) {
	const n = 100_000
	var unknown, known strings.Builder
	unknown.WriteString("name: c\ntype: STATIC\n")
	known.WriteString("name: c\ntype: STATIC\nmetadata:\n  filter_metadata:\n    x:\n")
	for i := range n {
		fmt.Fprintf(&unknown, "unknown_field_with_a_rather_long_name_number_%07d_xxxxxx: 1\n", i)
		fmt.Fprintf(&known, "      unknown_field_with_a_rather_long_name_number_%07d: 1\n", i)
	}
	timed := func(data string) (*Config, time.Duration) {
		start := time.Now()
		cfg, _ := LoadBytes("in.yaml", []byte(data), "")
		return cfg, time.Since(start)
	}
	_, base := timed(known.String())
	cfg, took := timed(unknown.String())
	if took > 3*base+time.Second {
		t.Errorf("100,000 unknown keys took %v, the same size of known keys %v", took, base)
	}
	if len(cfg.Problems) != MaxRepeats+1 {
		t.Fatalf("%d problems, want %d", len(cfg.Problems), MaxRepeats+1)
	}
	last := cfg.Problems[MaxRepeats]
	if last.Pos.String() != "in.yaml:13:1" || last.Msg != "… and 99,990 more unknown fields like this" || last.Severity != SevError || last.Code != CodeUnknownField {
		t.Errorf("summary %+v", last)
	}
	if first := cfg.Problems[0].Msg; !strings.Contains(first, `"unknown_field_with_a_rather_long_name_number_0000000_xxxxxx"`) {
		t.Errorf("first %q", first)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 99990: "99,990", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q", n, got)
		}
	}
}
