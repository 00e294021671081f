package test

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/lbctl/lbctl/analyze/expect"
	"github.com/lbctl/lbctl/commands/encode"
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

// ghData escapes a workflow command's message (encode.GitHubData), then
// any other control character.
func ghData(s string) string { return safe(encode.GitHubData(s)) }

// ghProperty escapes a property value (encode.GitHubProperty), then any
// other control character.
func ghProperty(s string) string { return safe(encode.GitHubProperty(s)) }
