package term

import (
	"bytes"
	"strings"

	"github.com/lbctl/lbctl/analyze/option"
)

// Spelling is how lbctl's command line spells an option analyze names:
// its long flag. Guard spells every reference with it; a test checks each
// spelling is a flag some command declares.
func Spelling(n option.Name) string { return "--" + n.ID() }

// spell replaces each reference to a known option by its spelling.
var spell = func() *strings.Replacer {
	pairs := make([]string, 0, 2*len(option.All))
	for _, n := range option.All {
		pairs = append(pairs, n.String(), Spelling(n))
	}
	return strings.NewReplacer(pairs...)
}()

// Spell is s with every option reference spelled, for text that reaches
// the user without passing a Guard (generated documentation).
func Spell(s string) string {
	if !strings.Contains(s, option.Open) {
		return s
	}
	return spell.Replace(s)
}

// maxRef bounds a reference a Write may end inside of: a longer tail
// after an Open is not a reference and is written as is.
const maxRef = 64

var openBytes, closeBytes = []byte(option.Open), []byte(option.Close)

// heldFrom is where an unfinished reference starts at the end of b (an
// Open without its Close, or the first bytes of an Open), or len(b).
func heldFrom(b []byte) int {
	n := len(b)
	if i := bytes.LastIndex(b, openBytes); i >= 0 && n-i <= maxRef && !bytes.Contains(b[i:], closeBytes) {
		return i
	}
	for k := min(len(openBytes)-1, n); k > 0; k-- {
		if bytes.HasPrefix(openBytes, b[n-k:]) {
			return n - k
		}
	}
	return n
}
