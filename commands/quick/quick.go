// Package quick answers the invocations that need none of lbctl's Envoy
// types — help and the completion scripts — so that commands/early can
// answer them before Go initialises those types' packages (about 3 ms of
// protobuf registration that `lbctl --help` would otherwise wait for).
// It imports only the standard library and commands/term/size (the width);
// its answers are the command tree's (TestQuickMatchesMain).
package quick

import (
	"os"
	"strings"

	"github.com/lbctl/lbctl/commands/term/size"
)

// Answer is what lbctl prints for args (os.Args[1:]) when that needs no
// Envoy types: `--help`, `-h` or `help` alone, `COMMAND… --help` (or -h),
// `help COMMAND`, `completion SHELL` and completion requests
// (`completion __complete …`) that need no cluster names. ok is false for anything else,
// which the command tree answers. out is the standard output file (its
// width sets help's), nil when not a file.
func Answer(args []string, getenv func(string) string, out *os.File) (text string, ok bool) {
	if len(args) == 2 && args[0] == "completion" {
		if s, ok := scripts[args[1]]; ok {
			return s, true
		}
	}
	if len(args) >= 2 && args[0] == "completion" && args[1] == "__complete" {
		return completeRequest(args[2:])
	}
	var path []string
	switch {
	case len(args) == 1 && (args[0] == "--help" || args[0] == "-h" || args[0] == "help"):
	case len(args) == 2 && args[0] == "help" && !strings.HasPrefix(args[1], "-"):
		path = args[1:2]
	case len(args) >= 2 && (args[len(args)-1] == "--help" || args[len(args)-1] == "-h"):
		path = args[:len(args)-1]
	default:
		return "", false
	}
	for _, p := range path {
		if p == "" || strings.ContainsAny(p, " \t\n") { // one argument is one name
			return "", false
		}
	}
	raw, ok := helpTexts[strings.Join(path, " ")]
	if !ok {
		return "", false
	}
	return WrapHelp(raw, size.Help(out, getenv)), true
}

// completeRequest answers `completion __complete [--current=WORD] WORD…`
// from the generated tree, unless cluster names (which need the loader)
// are asked for.
func completeRequest(args []string) (string, bool) {
	cur := ""
	if len(args) > 0 && strings.HasPrefix(args[0], "--current=") {
		cur, args = strings.TrimPrefix(args[0], "--current="), args[1:]
	}
	c, ok := Complete(tree, args, cur, nil)
	if !ok {
		return "", false
	}
	var b strings.Builder
	c.Write(&b)
	return b.String(), true
}

var scripts = map[string]string{
	"bash": BashScript, "zsh": ZshScript, "fish": FishScript,
	"powershell": PowershellScript, "pwsh": PowershellScript,
}
