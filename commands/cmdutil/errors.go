// Package cmdutil is what lbctl's commands share: exit codes and errors,
// the global flags each command declares it supports, the terminal and
// guard of a command, loading inputs and common flags. It imports no
// command package.
package cmdutil

import (
	"errors"
	"fmt"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/config/parse"
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

// DidYouMean is " (did you mean X?)" when a candidate is close to s.
func DidYouMean(s string, candidates []string) string {
	if c := parse.Closest(s, candidates); c != "" {
		return "; did you mean " + Name(c) + "?"
	}
	return ""
}

// Name is how every message embeds a name or value from an input or the
// command line: escaped (no newline, tab, bidi, separator or zero-width
// character gets through raw) and capped (config.Safe).
func Name(s string) string { return config.Safe(s) }
