// Package help is what lbctl says about itself, generated from the command
// tree: urfave/cli's help fitted to the terminal, `lbctl man`, and
// `lbctl completion` with the engine that answers completion requests
// (flags, flag values, cluster and route names). commands/quick holds the
// generated copies early's fast start-up answers with.
package help

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/urfave/cli/v3"

	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/quick"
	"github.com/lbctl/lbctl/commands/term"
)

var helpOnce sync.Once

// UsePrinter makes urfave/cli's help fit the terminal: 80 columns in
// a pipe or file (or COLUMNS), the terminal's width on a terminal. It also
// drops the "[ --flag string ]" repetition urfave/cli adds to repeatable
// flags, which doubled the width of the flag column.
func UsePrinter() {
	helpOnce.Do(func() {
		render := cli.HelpPrinterCustom
		cli.HelpPrinter = func(w io.Writer, templ string, data any) {
			var b bytes.Buffer
			render(&b, templ, data, nil)
			c, _ := data.(*cli.Command)
			io.WriteString(w, quick.WrapHelp(b.String(), term.HelpWidth(w, cmdutil.Getenv(c))))
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

// versionBlock is the VERSION section of urfave/cli's root help template.
const versionBlock = "{{if .Version}}{{if not .HideVersion}}\n\nVERSION:\n   {{.Version}}{{end}}{{end}}"

// RootTemplate is urfave/cli's root help without its VERSION section
// (TestRootHelpHasNoVersion fails if the template changes under it).
var RootTemplate = strings.Replace(cli.RootCommandHelpTemplate, versionBlock, "", 1)
