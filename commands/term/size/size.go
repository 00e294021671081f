// Package size is commands/term's measure of a terminal: whether a file is
// one, how wide it is, and the COLUMNS override. It imports only the
// standard library and the terminal-size package, so that commands/quick
// (help that commands/early answers before the protobuf packages
// initialise) takes its width from the same place as all other output.
package size

import (
	"os"
	"strconv"

	"github.com/charmbracelet/x/term"
)

// helpWidth is the width help wraps to off a terminal (and the least it
// wraps to on one).
const helpWidth = 80

// Terminal reports whether f is a terminal, and its width in columns (0
// when unknown). f is nil for output that is not a file.
func Terminal(f *os.File) (tty bool, width int) {
	if f == nil || !term.IsTerminal(f.Fd()) {
		return false, 0
	}
	if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
		width = w
	}
	return true, width
}

// Columns is COLUMNS when it is a positive integer, else 0: it overrides
// the measured width, also in a pipe.
func Columns(getenv func(string) string) int {
	if c, err := strconv.Atoi(getenv("COLUMNS")); err == nil && c > 0 {
		return c
	}
	return 0
}

// Help is the width help written to f may take: the terminal's width when
// f is one, COLUMNS when set (also in a pipe), else 80; never under 40.
func Help(f *os.File, getenv func(string) string) int {
	_, w := Terminal(f)
	if c := Columns(getenv); c > 0 {
		w = c
	}
	if w <= 0 {
		return helpWidth
	}
	return max(w, 40)
}
