// Package cmdutil is what lbctl's commands share: exit codes and errors,
// the global flags each command declares it supports, the terminal and
// guard of a command, loading inputs and common flags. It imports no
// command package.
package cmdutil

import (
	"errors"
	"fmt"
	"strings"
)

// Exit codes, the same for every command and output format (contract.md).
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitUsage    = 2
	ExitInput    = 3
)

// ExitError carries an exit code; its message (possibly several lines of
// FILE:LINE:COL: message) goes to standard error.
type ExitError struct {
	Code int
	Msg  string
}

func (e *ExitError) Error() string { return e.Msg }

// UsageErrorf is a usage error (exit 2): the command line is wrong.
func UsageErrorf(format string, args ...any) error {
	return &ExitError{Code: ExitUsage, Msg: fmt.Sprintf(format, args...)}
}

// InputError is an input error (exit 3): a file could not be used.
func InputError(err error) error {
	return &ExitError{Code: ExitInput, Msg: err.Error()}
}

// InputErrorf is InputError with a message.
func InputErrorf(format string, args ...any) error {
	return &ExitError{Code: ExitInput, Msg: fmt.Sprintf(format, args...)}
}

// SilentExit ends with a code after the command printed what it had to say.
func SilentExit(code int) error { return &ExitError{Code: code} }

// ExitCode is the process exit code for a command's error.
func ExitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var e *ExitError
	if errors.As(err, &e) {
		return e.Code
	}
	// Anything else comes from flag parsing in urfave/cli: a usage error.
	return ExitUsage
}

// Closest returns the candidate nearest to s by edit distance, or "" when
// none is near enough to be what was meant (at most 2 edits, or a third of
// the length for long names; a prefix of at least 3 letters also counts).
// urfave/cli's own suggester always returns something, however far.
func Closest(s string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		d := EditDistance(s, c)
		if len(s) >= 3 && strings.HasPrefix(c, s) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > max(2, len(s)/3) || bestD >= len(s) {
		return ""
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b, in bytes.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// DidYouMean is " (did you mean X?)" when a candidate is close to s.
func DidYouMean(s string, candidates []string) string {
	if c := Closest(s, candidates); c != "" {
		return "; did you mean " + c + "?"
	}
	return ""
}
