package commands

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"

	"github.com/urfave/cli/v3"
)

// Shell completion. The scripts in completions/ (printed by `lbctl
// completion SHELL`) call
//
//	lbctl completion __complete --current=WORD [WORD_BEFORE_CURSOR ...]
//
// and read one candidate per line, "VALUE" or "VALUE<TAB>DESCRIPTION",
// then a last line ":files" (also complete file names) or ":nofiles".
// The current word travels inside --current= so that an empty word is
// never an empty argument (PowerShell drops those before 7.3).
//
// Everything is driven by the command tree: commands, flags and whether a
// flag takes a value come from the urfave/cli definitions, so commands
// added later complete without changes here. Only flag values need
// knowledge: flagValues below, keyed by flag name, then the "expected one
// of a, b, c" message of the flag's oneOf validator, then cluster names
// read from the FILE arguments on the line (config.QuickClusterNames:
// YAML only, never the full model, so a TAB stays fast).

// completeDirective is the last line of a completion answer.
const (
	directiveFiles   = ":files"
	directiveNoFiles = ":nofiles"
)

// flagValues are the values of the flags that take one of a fixed set,
// keyed by flag name, so that any command defining such a flag completes
// its values.
var flagValues = map[string][]string{
	"output":    {"text", "json", "yaml"},
	"format":    {"text", "json", "sarif", "github"},
	"fail-on":   {"error", "warning", "info", "none"},
	"semantics": {"envoy", "grpc", "both"},
	"target":    {"envoy", "grpc", "both"},
	"color":     {"auto", "always", "never"},
	"kind":      config.Kinds,
}

// clusterFlags take a cluster name: their values are the clusters defined
// in the FILE arguments already typed.
var clusterFlags = map[string]bool{"cluster": true, "local-cluster": true}

// candidate is one completion: a value and an optional description.
type candidate struct{ value, desc string }

// completion is the answer to one request.
type completion struct {
	cands []candidate
	files bool
}

// completeLine answers a completion request: words are the arguments
// before the cursor (without the program name), cur the word being typed.
func completeLine(root *cli.Command, words []string, cur string) completion {
	cmd := root
	chain := []*cli.Command{root}
	var files []string
	var pending cli.Flag // a flag that still waits for its value
	dashdash := false
	positional := false // a positional argument was seen for cmd
	for _, w := range words {
		switch {
		case pending != nil:
			pending = nil
		case dashdash:
			files = append(files, w)
		case w == "--":
			dashdash = true
		case strings.HasPrefix(w, "-") && len(w) > 1:
			name, _, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
			if f := lookupFlag(chain, name); f != nil && takesValue(f) && !hasValue {
				pending = f
			}
		default:
			if sub := subcommand(cmd, w); sub != nil && !positional {
				cmd = sub
				chain = append(chain, sub)
				continue
			}
			positional = true
			files = append(files, w)
		}
	}
	switch {
	case pending != nil:
		return flagValueCompletion(pending, files, "", cur)
	case dashdash:
		return completion{files: true}
	case strings.HasPrefix(cur, "-") && strings.Contains(cur, "="):
		name, value, _ := strings.Cut(strings.TrimLeft(cur, "-"), "=")
		if f := lookupFlag(chain, name); f != nil && takesValue(f) {
			prefix := cur[:len(cur)-len(value)]
			return flagValueCompletion(f, files, prefix, value)
		}
		return completion{}
	case strings.HasPrefix(cur, "-"):
		return completion{cands: flagCandidates(chain, cur)}
	}
	var c completion
	if !positional {
		leaf := true
		for _, sub := range cmd.Commands {
			leaf = leaf && (sub.Hidden || sub.Name == "help")
		}
		for _, sub := range cmd.Commands {
			if leaf {
				break // only urfave/cli's "help": offer the FILE arguments
			}
			if !sub.Hidden && strings.HasPrefix(sub.Name, cur) && !hasCandidate(c.cands, sub.Name) {
				c.cands = append(c.cands, candidate{sub.Name, sub.Usage})
			}
		}
	}
	c.files = acceptsFiles(cmd)
	return c
}

// flagValueCompletion offers the values of flag f starting with cur, each
// prefixed with prefix (the "--flag=" part when the value is typed in
// the same word).
func flagValueCompletion(f cli.Flag, files []string, prefix, cur string) completion {
	name := f.Names()[0]
	var values []string
	switch {
	case clusterFlags[name]:
		values = config.QuickClusterNames(files)
	case flagValues[name] != nil:
		values = flagValues[name]
	default:
		values = validatorValues(f)
	}
	var c completion
	for _, v := range values {
		// A name with control characters is not offered: a shell would
		// take its newline as the end of the candidate.
		if strings.HasPrefix(v, cur) && config.Escape(v) == v {
			c.cands = append(c.cands, candidate{value: prefix + v})
		}
	}
	return c
}

// validatorValues reads the allowed values of a string flag from the
// message of its oneOf validator ("... expected one of a, b, c"), so a
// flag defined with oneOf completes even without a flagValues entry.
func validatorValues(f cli.Flag) []string {
	sf, ok := f.(*cli.StringFlag)
	if !ok || sf.Validator == nil {
		return nil
	}
	err := sf.Validator("\x00")
	if err == nil {
		return nil
	}
	_, list, ok := strings.Cut(err.Error(), "expected one of ")
	if !ok {
		return nil
	}
	return strings.Split(list, ", ")
}

// lookupFlag finds a flag by any of its names on the last command of
// chain or, unless it is local, on one of its ancestors.
func lookupFlag(chain []*cli.Command, name string) cli.Flag {
	for i := len(chain) - 1; i >= 0; i-- {
		for _, f := range chain[i].Flags {
			if i < len(chain)-1 && isLocal(f) {
				continue
			}
			for _, n := range f.Names() {
				if n == name {
					return f
				}
			}
		}
	}
	return nil
}

// flagCandidates lists the visible flags of the command and the
// persistent flags of its ancestors whose spelling starts with cur:
// "--name" for long names, "-x" for one-letter ones (only when cur does
// not already start with "--").
func flagCandidates(chain []*cli.Command, cur string) []candidate {
	var out []candidate
	for i := len(chain) - 1; i >= 0; i-- {
		for _, f := range chain[i].Flags {
			if (i < len(chain)-1 && isLocal(f)) || !isVisible(f) {
				continue
			}
			for _, n := range f.Names() {
				spelled := "--" + n
				if len([]rune(n)) == 1 {
					spelled = "-" + n
				}
				if strings.HasPrefix(spelled, cur) && !hasCandidate(out, spelled) {
					out = append(out, candidate{spelled, flagUsage(f)})
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].value < out[j].value })
	return out
}

func subcommand(cmd *cli.Command, name string) *cli.Command {
	for _, sub := range cmd.Commands {
		if sub.Name == name {
			return sub
		}
		for _, a := range sub.Aliases {
			if a == name {
				return sub
			}
		}
	}
	return nil
}

// acceptsFiles reports whether a command's positional arguments are files
// (its ArgsUsage names FILE).
func acceptsFiles(cmd *cli.Command) bool { return strings.Contains(cmd.ArgsUsage, "FILE") }

func takesValue(f cli.Flag) bool {
	d, ok := f.(cli.DocGenerationFlag)
	return ok && d.TakesValue()
}

func isLocal(f cli.Flag) bool {
	l, ok := f.(cli.LocalFlag)
	return ok && l.IsLocal()
}

func isVisible(f cli.Flag) bool {
	v, ok := f.(cli.VisibleFlag)
	return !ok || v.IsVisible()
}

func flagUsage(f cli.Flag) string {
	if d, ok := f.(cli.DocGenerationFlag); ok {
		return d.GetUsage()
	}
	return ""
}

func hasCandidate(cs []candidate, v string) bool {
	for _, c := range cs {
		if c.value == v {
			return true
		}
	}
	return false
}

// write prints the answer in the scripts' format. Descriptions are kept
// to their first line and without tabs, so one candidate is one line.
func (c completion) write(w io.Writer) {
	for _, cand := range c.cands {
		if strings.ContainsAny(cand.value, "\n\t") {
			continue
		}
		desc := strings.ReplaceAll(strings.SplitN(cand.desc, "\n", 2)[0], "\t", " ")
		if desc != "" {
			fmt.Fprintf(w, "%s\t%s\n", cand.value, desc)
		} else {
			fmt.Fprintln(w, cand.value)
		}
	}
	if c.files {
		fmt.Fprintln(w, directiveFiles)
	} else {
		fmt.Fprintln(w, directiveNoFiles)
	}
}

// completeClusters answers urfave/cli's own completion requests (`lbctl
// explain … --generate-shell-completion`, the protocol of its built-in
// scripts) with the same engine, so they also offer cluster names and
// flag values. Any command may use it as its ShellComplete.
func completeClusters(_ context.Context, cmd *cli.Command) {
	lineage := cmd.Lineage() // cmd first, the root last
	chain := make([]*cli.Command, len(lineage))
	for i, c := range lineage {
		chain[len(lineage)-1-i] = c
	}
	words := make([]string, 0, len(chain)+cmd.Args().Len())
	for _, c := range chain[1:] {
		words = append(words, c.Name)
	}
	args := cmd.Args().Slice()
	cur := ""
	if n := len(args); n > 0 && strings.HasPrefix(args[n-1], "-") && lookupFlag(chain, strings.TrimLeft(args[n-1], "-")) == nil {
		cur, args = args[n-1], args[:n-1] // a flag being typed
	}
	words = append(words, args...)
	for _, cand := range completeLine(cmd.Root(), words, cur).cands {
		fmt.Fprintln(cmd.Root().Writer, cand.value)
	}
}

// validateFlagValue runs a string flag's own validator on v (other flag
// kinds accept any text here).
func validateFlagValue(f cli.Flag, v string) (bool, error) {
	if sf, ok := f.(*cli.StringFlag); ok && sf.Validator != nil {
		return true, sf.Validator(v)
	}
	return false, nil
}
