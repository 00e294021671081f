package help

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/quick"
)

// completionShells are the shells `lbctl completion` writes a script for,
// with the file name of that script in completions/ and its aliases.
var completionShells = []struct {
	name, file string
	aliases    []string
	script     string
}{
	{"bash", "lbctl.bash", nil, quick.BashScript},
	{"zsh", "_lbctl", nil, quick.ZshScript},
	{"fish", "lbctl.fish", nil, quick.FishScript},
	{"powershell", "lbctl.ps1", []string{"pwsh"}, quick.PowershellScript},
}

// Completion is `lbctl completion SHELL`. It takes the place of
// urfave/cli's built-in (hidden) completion command, whose scripts depend
// on bash-completion, split candidates at ':' (host:port, some cluster
// names) and name PowerShell only "pwsh"; being first in the command list,
// it is the one `lbctl completion` finds.
func Completion() *cli.Command {
	c := &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh, fish or powershell",
		ArgsUsage: "bash|zsh|fish|powershell",
		Description: `Prints a script that completes lbctl's commands, flags, flag values
(-o, --format, --fail-on, --semantics, --color, ...) and, after --cluster,
the names of the clusters defined in the FILE arguments already typed.
The same scripts are in the repository's completions/ directory.

Examples:
  lbctl completion bash
  lbctl completion zsh
  lbctl completion fish
  lbctl completion powershell

Install (the bash and PowerShell lines go in ~/.bashrc and $PROFILE):
  bash        source <(lbctl completion bash)
  zsh         lbctl completion zsh > "${fpath[1]}/_lbctl"
  fish        lbctl completion fish > ~/.config/fish/completions/lbctl.fish
  powershell  lbctl completion powershell | Out-String | Invoke-Expression`,
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() == 0 {
				return cmdutil.UsageErrorf("completion: name a shell: bash, zsh, fish or powershell")
			}
			sh := cmd.Args().First()
			return cmdutil.UsageErrorf("completion: unknown shell %q: expected bash, zsh, fish or powershell%s", sh, cmdutil.DidYouMean(sh, cmdutil.CommandNames(cmd)))
		},
	}
	for _, sh := range completionShells {
		script := sh.script
		c.Commands = append(c.Commands, &cli.Command{
			Name:    sh.name,
			Aliases: sh.aliases,
			Usage:   fmt.Sprintf("print the %s completion script", sh.name),
			Action: func(_ context.Context, cmd *cli.Command) error {
				if cmd.Args().Len() > 0 {
					return cmdutil.UsageErrorf("completion %s: unexpected argument %q", cmd.Name, cmd.Args().First())
				}
				_, err := fmt.Fprint(cmd.Root().Writer, script)
				return err
			},
		})
	}
	c.Commands = append(c.Commands, &cli.Command{
		Name:            "__complete",
		Hidden:          true,
		Usage:           "answer a completion request from the scripts (--current=WORD WORD...)",
		SkipFlagParsing: true,
		Action: func(_ context.Context, cmd *cli.Command) error {
			args := cmd.Args().Slice()
			cur := ""
			if len(args) > 0 && strings.HasPrefix(args[0], "--current=") {
				cur, args = strings.TrimPrefix(args[0], "--current="), args[1:]
			}
			Line(cmd.Root(), args, cur).Write(cmd.Root().Writer)
			return nil
		},
	})
	return cmdutil.Declare(c, cmdutil.Support{})
}
