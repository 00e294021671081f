package test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/expect"
)

// Text writes one line per test (PASS, FAIL, or NOT CHECKED when nothing
// was checked) and under a failure each expectation that did not hold.
func Text(w io.Writer, res *expect.Results, _ []string) error {
	b := bufio.NewWriter(w)
	for _, t := range res.Tests {
		state := "NOT CHECKED"
		if t.Passed != nil {
			state = map[bool]string{true: "PASS", false: "FAIL"}[*t.Passed]
		}
		fmt.Fprintf(b, "%s %s", state, safe(t.Name))
		if len(t.NotChecked) > 0 {
			fmt.Fprintf(b, " (not checked: %s)", safe(strings.Join(t.NotChecked, ", ")))
		}
		b.WriteString("\n")
		for _, f := range t.Failures {
			fmt.Fprintf(b, "  %s: got %s, want %s  (%s)\n", safe(f.Expect), gotText(f.Got), safe(f.Want), safe(f.At))
		}
	}
	s := res.Summary
	fmt.Fprintf(b, "%d passed, %d failed", s.Passed, s.Failed)
	if s.NotChecked > 0 {
		fmt.Fprintf(b, ", %d fields not checked", s.NotChecked)
	}
	b.WriteString("\n")
	return b.Flush()
}

// gotText is a failure's actual value as text: null for none (no value,
// or a budget that never runs out).
func gotText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return "null"
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return strconv.Quote(x)
	}
	return safe(fmt.Sprint(v))
}

// JSON writes the results as the contract's JSON.
func JSON(w io.Writer, res *expect.Results, _ []string) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}

// safe replaces control characters with \xNN escapes: nothing printed
// carries a raw control character, whatever a TESTS file holds.
func safe(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x2028 || r == 0x2029
}
