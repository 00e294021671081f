package test

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/lbctl/lbctl/analyze/expect"
)

// GitHub writes GitHub Actions workflow commands: an ::error per failing
// expectation at its TESTS line, a ::warning per test with fields not
// checked. Every line carries file= and line=.
func GitHub(w io.Writer, res *expect.Results, _ []string) error {
	b := bufio.NewWriter(w)
	for _, t := range res.Tests {
		for _, f := range t.Failures {
			msg := fmt.Sprintf("%s: %s: got %s, want %s", t.Name, f.Expect, gotText(f.Got), f.Want)
			fmt.Fprintf(b, "::error file=%s,line=%d,col=%d,title=%s::%s\n",
				ghProperty(f.Pos.File), f.Pos.Line, f.Pos.Col, ghProperty("lbctl test: "+t.Name), ghData(msg))
		}
		if len(t.NotChecked) > 0 {
			msg := fmt.Sprintf("%s: not checked: %s", t.Name, strings.Join(t.NotChecked, ", "))
			fmt.Fprintf(b, "::warning file=%s,line=%d,col=%d::%s\n", ghProperty(t.Pos.File), t.Pos.Line, t.Pos.Col, ghData(msg))
		}
	}
	return b.Flush()
}

// ghData escapes a workflow command's message (GitHub's toolkit
// escapeData: %, CR, LF), then any other control character.
func ghData(s string) string {
	s = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
	return safe(s)
}

// ghProperty escapes a property value (escapeProperty: also : and ,).
func ghProperty(s string) string {
	s = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
	return safe(s)
}
