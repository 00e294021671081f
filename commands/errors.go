package commands

import (
	"errors"
	"fmt"
)

// Exit codes, the same for every command and output format (contract.md).
const (
	ExitOK       = 0
	ExitFindings = 1
	ExitUsage    = 2
	ExitInput    = 3
)

// exitError carries an exit code; its message (possibly several lines of
// FILE:LINE:COL: message) goes to standard error.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &exitError{code: ExitUsage, msg: fmt.Sprintf(format, args...)}
}

func inputError(err error) error {
	return &exitError{code: ExitInput, msg: err.Error()}
}

// silentExit ends with a code after the command printed what it had to say.
func silentExit(code int) error { return &exitError{code: code} }

func exitCode(err error) int {
	if err == nil {
		return ExitOK
	}
	var e *exitError
	if errors.As(err, &e) {
		return e.code
	}
	// Anything else comes from flag parsing in urfave/cli: a usage error.
	return ExitUsage
}
