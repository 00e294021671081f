package hash

import (
	"bufio"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/placement"
	"github.com/lbctl/lbctl/commands/term"

	"github.com/charmbracelet/lipgloss"
)

// streamDump writes a ring or Maglev table as newTable lays it out (header,
// rule, right-aligned numbers) but row by row from the ring or table
// itself: Envoy's largest ring has 8M entries, and a table of them would
// hold every cell in memory at once.
func streamDump(t *term.IO, v placement.DumpView) {
	n := v.Len()
	headers := []string{"SLOT", "HOST"}
	if v.IsRing() {
		headers = []string{"ENTRY", "HASH", "HOST"}
	}
	widths := make([]int, len(headers))
	for i, h := range headers {
		widths[i] = len(h)
	}
	widths[0] = max(widths[0], len(strconv.Itoa(max(n-1, 0))))
	// Addresses come from the input: escaped once here, not per row.
	escaped := map[string]string{}
	for _, a := range v.Addresses() {
		if e := config.Escape(a); e != a {
			escaped[a] = e
			a = e
		}
		widths[len(widths)-1] = max(widths[len(widths)-1], lipgloss.Width(a))
	}
	if v.IsRing() {
		for k := range n {
			h, _ := v.Entry(k)
			widths[1] = max(widths[1], digits(h))
		}
	}
	w := bufio.NewWriterSize(t.Out, 1<<16)
	defer w.Flush()
	// Styled as lipgloss renders a table: the style covers the text, the
	// alignment padding and the gap stay outside it.
	head := t.Paint(term.Heading).Bold(true)
	for i, h := range headers {
		if i < len(headers)-1 {
			w.WriteString(strings.Repeat(" ", widths[i]-len(h)))
			w.WriteString(head.Render(h))
			w.WriteString("  ")
		} else {
			w.WriteString(head.Render(h))
		}
	}
	w.WriteByte('\n')
	rule, ruleStyle := "-", t.Paint(term.Rule)
	if t.Unicode() {
		rule = "─"
	}
	for i, wd := range widths {
		if i < len(widths)-1 {
			wd += 2
		}
		w.WriteString(ruleStyle.Render(strings.Repeat(rule, wd)))
	}
	w.WriteByte('\n')
	var buf []byte
	pad := func(width, n int) {
		for ; n < width; n++ {
			buf = append(buf, ' ')
		}
	}
	for k := range n {
		h, host := v.Entry(k)
		buf = buf[:0]
		pad(widths[0], digits(uint64(k)))
		buf = strconv.AppendInt(buf, int64(k), 10)
		buf = append(buf, ' ', ' ')
		if v.IsRing() {
			pad(widths[1], digits(h))
			buf = strconv.AppendUint(buf, h, 10)
			buf = append(buf, ' ', ' ')
		}
		if e, ok := escaped[host]; ok {
			host = e
		}
		buf = append(buf, host...)
		buf = append(buf, '\n')
		w.Write(buf)
	}
}

// digits is the length of h in decimal.
func digits(h uint64) int {
	n := 1
	for ; h >= 10; h /= 10 {
		n++
	}
	return n
}
