package help

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/lbctl/lbctl/commands/cmdutil"

	"github.com/urfave/cli/v3"
)

// Man is `lbctl man`: the manual page, in roff, generated from the
// command tree, so every command and flag other engineers add is in it.
// Hidden commands and hidden flags are left out, as in --help.
func Man() *cli.Command {
	return cmdutil.Declare(&cli.Command{
		Name:  "man",
		Usage: "print lbctl's manual page (roff) generated from its commands and flags",
		Description: `Prints the manual page for lbctl(1). View it with man -l, or install it.

Examples:
  lbctl man | man -l -
  lbctl man > /usr/local/share/man/man1/lbctl.1`,
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return cmdutil.UsageErrorf("man: unexpected argument %q", cmd.Args().First())
			}
			writeMan(cmd.Root().Writer, cmd.Root())
			return nil
		},
	}, cmdutil.Support{})
}

// writeMan writes root's manual page.
func writeMan(w io.Writer, root *cli.Command) {
	name := root.Name
	fmt.Fprintf(w, ".TH %s 1 \"\" %s \"User Commands\"\n", strings.ToUpper(name), roffQuote(name+" "+root.Version))
	fmt.Fprintf(w, ".SH NAME\n%s \\- %s\n", roffText(name), roffText(root.Usage))
	fmt.Fprintf(w, ".SH SYNOPSIS\n.B %s\n%s\n", name, roffText(strings.TrimSpace(strings.TrimPrefix(root.UsageText, name))))
	if root.Description != "" {
		fmt.Fprintln(w, ".SH DESCRIPTION")
		manBlock(w, root.Description)
	}
	fmt.Fprintln(w, ".SH GLOBAL OPTIONS")
	manFlags(w, root.Flags)
	fmt.Fprintln(w, ".SH COMMANDS")
	for _, c := range root.Commands {
		manCommandSection(w, name, c)
	}
	fmt.Fprint(w, `.SH EXIT STATUS
.TP
.B 0
Success; for lint, no finding at or above \-\-fail\-on.
.TP
.B 1
lint found findings at or above \-\-fail\-on.
.TP
.B 2
Usage error: unknown flag, unknown cluster name, bad flag value.
.TP
.B 3
Input error: a file cannot be read or does not parse as Envoy configuration.
.SH ENVIRONMENT
.TP
.B NO_COLOR
When set and not empty, no colour (unless \-\-color always).
.TP
.B CLICOLOR_FORCE
When set and not "0", colour even when standard output is not a terminal.
.TP
.B TERM
"dumb" means no colour and no box drawing.
.TP
.B COLUMNS
The width tables are fitted to, instead of the terminal's.
`)
	fmt.Fprintf(w, ".SH SEE ALSO\n%s completion \\-\\-help, %s COMMAND \\-\\-help\n", name, name)
}

// manCommandSection documents a visible command and, below it, its
// visible subcommands.
func manCommandSection(w io.Writer, path string, c *cli.Command) {
	if c.Hidden || c.Name == "help" {
		return
	}
	full := path + " " + c.Name
	fmt.Fprintf(w, ".SS %s\n", roffText(strings.TrimSpace(full+" "+c.ArgsUsage)))
	if c.Usage != "" {
		fmt.Fprintf(w, "%s\n", roffText(capitalize(c.Usage)+"."))
	}
	if len(c.Aliases) > 0 {
		fmt.Fprintf(w, "Also: %s.\n", roffText(strings.Join(c.Aliases, ", ")))
	}
	if c.Description != "" {
		fmt.Fprintln(w, ".PP")
		manBlock(w, c.Description)
	}
	var flags []cli.Flag
	for _, f := range c.Flags {
		if isVisible(f) && f.Names()[0] != "help" {
			flags = append(flags, f)
		}
	}
	if len(flags) > 0 {
		fmt.Fprintln(w, ".PP\nOptions:")
		manFlags(w, flags)
	}
	for _, sub := range c.Commands {
		manCommandSection(w, full, sub)
	}
}

// manFlags lists flags as tagged paragraphs.
func manFlags(w io.Writer, flags []cli.Flag) {
	for _, f := range flags {
		if !isVisible(f) {
			continue
		}
		var names []string
		for _, n := range f.Names() {
			dash := "\\-\\-"
			if len([]rune(n)) == 1 {
				dash = "\\-"
			}
			names = append(names, "\\fB"+dash+roffText(n)+"\\fR")
		}
		head := strings.Join(names, ", ")
		usage, def := "", ""
		if d, ok := f.(cli.DocGenerationFlag); ok {
			usage = d.GetUsage()
			if d.TakesValue() {
				head += " \\fIvalue\\fR"
				if d.IsDefaultVisible() {
					def = strings.Trim(d.GetValue(), `"`)
				}
			}
		}
		if m, ok := f.(cli.DocGenerationMultiValueFlag); ok && m.IsMultiValueFlag() {
			usage += " (repeatable)"
			usage = strings.Replace(usage, " (repeatable) (repeatable)", " (repeatable)", 1)
		}
		if def != "" {
			usage += " (default: " + def + ")"
		}
		fmt.Fprintf(w, ".TP\n%s\n%s\n", head, roffText(usage))
	}
}

// manBlock writes a description: indented lines (examples) verbatim,
// the rest as filled text, blank lines as paragraph breaks.
func manBlock(w io.Writer, text string) {
	verbatim := false
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		indented := strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")
		switch {
		case indented && !verbatim:
			fmt.Fprintln(w, ".PP\n.nf\n.RS 4")
			verbatim = true
		case !indented && verbatim && strings.TrimSpace(line) != "":
			fmt.Fprintln(w, ".RE\n.fi")
			verbatim = false
		}
		switch {
		case strings.TrimSpace(line) == "" && !verbatim:
			fmt.Fprintln(w, ".PP")
		case verbatim:
			fmt.Fprintln(w, roffText(strings.TrimPrefix(strings.TrimPrefix(line, "  "), "\t")))
		default:
			fmt.Fprintln(w, roffText(line))
		}
	}
	if verbatim {
		fmt.Fprintln(w, ".RE\n.fi")
	}
}

// roffText escapes text for roff: backslashes, and a '.' or '\” that
// would start a request at the beginning of a line.
func roffText(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}

// roffQuote makes s one argument of a roff request.
func roffQuote(s string) string {
	return `"` + strings.ReplaceAll(roffText(s), `"`, `\(dq`) + `"`
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
