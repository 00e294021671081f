package help

import (
	"bytes"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

// Hidden commands and hidden flags stay out of the page; special
// characters are escaped.
func TestManHiddenAndEscaping(t *testing.T) {
	root := &cli.Command{
		Name: "tool", Usage: "does -things", UsageText: "tool [flags]", Version: "v1",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "shown", Usage: `a \ backslash`, Value: "x"},
			&cli.BoolFlag{Name: "secret-flag", Hidden: true},
		},
		Commands: []*cli.Command{
			{Name: "visible", Usage: "runs", Description: ".starts with a dot\n\nExamples:\n  tool visible 'a'", Aliases: []string{"v"},
				Flags: []cli.Flag{&cli.StringSliceFlag{Name: "many", Usage: "m"}, &cli.IntFlag{Name: "hidden-int", Hidden: true}}},
			{Name: "secret-cmd", Hidden: true},
		},
	}
	var b bytes.Buffer
	writeMan(&b, root)
	page := b.String()
	for _, bad := range []string{"secret-flag", "secret\\-flag", "secret-cmd", "secret\\-cmd", "hidden\\-int"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains hidden %q", bad)
		}
	}
	for _, want := range []string{`tool \- does \-things`, `a \e backslash (default: x)`, "\n\\&.starts with a dot\n",
		`\fB\-\-many\fR \fIvalue\fR`, "m (repeatable)", "Also: v.", ".nf\n.RS 4\ntool visible 'a'\n.RE\n.fi"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q:\n%s", want, page)
		}
	}
}
