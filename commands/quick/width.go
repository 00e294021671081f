package quick

import (
	"os"
	"strconv"

	"github.com/charmbracelet/x/term"
)

// helpWidth is the width help wraps to off a terminal (and the least it
// wraps to on one).
const helpWidth = 80

// HelpWidth is the width help written to f may take: the terminal's width
// when f is one, COLUMNS when a positive integer (also in a pipe), else
// 80; never under 40. f is nil for output that is not a file. This is the
// width commands' Term measures, for help.
func HelpWidth(f *os.File, getenv func(string) string) int {
	w := 0
	if f != nil && term.IsTerminal(f.Fd()) {
		if tw, _, err := term.GetSize(f.Fd()); err == nil && tw > 0 {
			w = tw
		}
	}
	if c, err := strconv.Atoi(getenv("COLUMNS")); err == nil && c > 0 {
		w = c
	}
	if w <= 0 {
		return helpWidth
	}
	return max(w, 40)
}
