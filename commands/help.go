package commands

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/urfave/cli/v3"
)

// helpWidth is the width help wraps to off a terminal (and the least it
// wraps to on one).
const helpWidth = 80

var helpOnce sync.Once

// useHelpPrinter makes urfave/cli's help fit the terminal: 80 columns in
// a pipe or file (or COLUMNS), the terminal's width on a terminal. It also
// drops the "[ --flag string ]" repetition urfave/cli adds to repeatable
// flags, which doubled the width of the flag column.
func useHelpPrinter() {
	helpOnce.Do(func() {
		render := cli.HelpPrinterCustom
		cli.HelpPrinter = func(w io.Writer, templ string, data any) {
			var b bytes.Buffer
			render(&b, templ, data, nil)
			io.WriteString(w, wrapHelp(b.String(), helpWidthFor(w)))
		}
		stringer := cli.FlagStringer
		cli.FlagStringer = func(f cli.Flag) string {
			names, usage, ok := strings.Cut(stringer(f), "\t")
			if !ok {
				return names
			}
			return repeatable.ReplaceAllString(names, "") + "\t" + usage
		}
	})
}

var repeatable = regexp.MustCompile(` \[ [^\]]*\]`)

// helpWidthFor is the width help written to w may take.
func helpWidthFor(w io.Writer) int {
	t := newTerm(w, "never")
	if t.Width <= 0 {
		return helpWidth
	}
	return max(t.Width, 40)
}

// wrapHelp wraps every line wider than width at spaces. A continuation
// lines up under the text column of its line: after the first run of two
// or more spaces (the usage column of a flag or command list) when that
// is not too deep, else under the line's own indentation plus two.
func wrapHelp(text string, width int) string {
	var out strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if utf8.RuneCountInString(line) <= width {
			out.WriteString(line + "\n")
			continue
		}
		out.WriteString(wrapLine(line, width))
	}
	return strings.TrimSuffix(out.String(), "\n")
}

func wrapLine(line string, width int) string {
	lead := len(line) - len(strings.TrimLeft(line, " "))
	hang := lead
	if i := strings.Index(line[lead:], "  "); i > 0 {
		j := lead + i
		for j < len(line) && line[j] == ' ' {
			j++
		}
		if j <= width/2 && j+longestWord(line[j:]) <= width {
			hang = j
		} else {
			// A deep column: the head alone, the text under it.
			head := strings.TrimRight(line[:lead+i], " ")
			return head + "\n" + wrapLine(strings.Repeat(" ", lead+6)+line[j:], width)
		}
	}
	start := hang // the text before it is kept as it is
	if i := strings.Index(line, " - "); hang == lead && i > 0 && i+3 <= width/2 {
		hang = i + 3 // NAME: "lbctl explain - what it does"
	}
	var b strings.Builder
	b.WriteString(line[:start])
	col := utf8.RuneCountInString(line[:start])
	first := true
	for _, word := range strings.Fields(line[start:]) {
		n := utf8.RuneCountInString(word)
		switch {
		case first:
			first = false
		case col+1+n > width && col > hang:
			b.WriteString("\n" + strings.Repeat(" ", hang))
			col = hang
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += n
	}
	return b.String() + "\n"
}

func longestWord(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		n = max(n, utf8.RuneCountInString(w))
	}
	return n
}
