package quick

import (
	"strings"
	"unicode/utf8"
)

// WrapHelp wraps every line wider than width at spaces. A continuation
// lines up under the text column of its line: after the first run of two
// or more spaces (the usage column of a flag or command list) when that
// is not too deep, else under the line's own indentation plus two. Prose
// that overflows is carried into the next line of its paragraph, so a
// paragraph reflows instead of leaving one-word lines; an example command
// is broken with a shell continuation so it can still be pasted.
func WrapHelp(text string, width int) string {
	var out strings.Builder
	lines := strings.Split(text, "\n")
	section := ""
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if line != "" && line[0] != ' ' {
			section = strings.TrimSuffix(line, ":")
		}
		if utf8.RuneCountInString(line) <= width {
			out.WriteString(line + "\n")
			continue
		}
		lead := indent(line)
		switch {
		case section != "NAME" && strings.HasPrefix(line[lead:], "lbctl ") && !strings.Contains(line[lead:], "  "):
			out.WriteString(wrapCommand(line, width))
		case section != "NAME" && isProse(line) && i+1 < len(lines) && continuesParagraph(lines[i+1], lead):
			head, rest := fitWords(line, width)
			out.WriteString(head + "\n")
			lines[i+1] = line[:lead] + rest + " " + strings.TrimLeft(lines[i+1], " ")
		default:
			out.WriteString(wrapLine(line, width))
		}
	}
	return strings.TrimSuffix(out.String(), "\n")
}

func indent(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }

// isProse: a line of running text, not a two-column flag or command row.
func isProse(line string) bool {
	return !strings.Contains(strings.TrimLeft(line, " "), "  ")
}

// continuesParagraph: next is more of the same paragraph as a line
// indented by lead (not blank, not a list item, an example or a table).
func continuesParagraph(next string, lead int) bool {
	body := strings.TrimLeft(next, " ")
	if body == "" || indent(next) != lead || !isProse(next) {
		return false
	}
	for _, p := range []string{"lbctl ", "- ", "* ", "• "} {
		if strings.HasPrefix(body, p) {
			return false
		}
	}
	return true
}

// fitWords splits line at the last space that keeps the head within width.
func fitWords(line string, width int) (head, rest string) {
	lead := indent(line)
	col, cut := 0, -1
	for i, r := range line {
		if col >= width {
			break
		}
		if r == ' ' && i > lead {
			cut = i
		}
		col++
	}
	if cut < 0 {
		return line, ""
	}
	return line[:cut], strings.TrimLeft(line[cut:], " ")
}

// wrapCommand breaks an example command line before a flag (a flag and
// its value stay together), with a trailing backslash, continuing four
// columns deeper.
func wrapCommand(line string, width int) string {
	lead := indent(line)
	var groups []string
	for _, word := range strings.Fields(line) {
		if len(groups) == 0 || strings.HasPrefix(word, "-") {
			groups = append(groups, word)
		} else {
			groups[len(groups)-1] += " " + word
		}
	}
	var b strings.Builder
	cur := line[:lead] + groups[0]
	for _, g := range groups[1:] {
		if utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(g)+2 > width {
			b.WriteString(cur + " \\\n")
			cur = strings.Repeat(" ", lead+4) + g
			continue
		}
		cur += " " + g
	}
	return b.String() + cur + "\n"
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
