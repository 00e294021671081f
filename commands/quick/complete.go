package quick

import (
	"io"
	"sort"
	"strings"
)

// Shell completion. The scripts (scripts.go) call
//
//	lbctl completion __complete --current=WORD [WORD_BEFORE_CURSOR ...]
//
// and read one candidate per line, "VALUE" or "VALUE<TAB>DESCRIPTION",
// then a last line ":files" (also complete file names) or ":nofiles".
// The current word travels inside --current= so that an empty word is
// never an empty argument (PowerShell drops those before 7.3).
//
// Everything is driven by the command tree (commands builds a Cmd from its
// urfave/cli definitions, and tree_gen.go holds the same for early
// answers), so commands added later complete without changes here.

const (
	directiveFiles   = ":files"
	directiveNoFiles = ":nofiles"
)

// Cmd is a command as completion sees it.
type Cmd struct {
	Name     string
	Aliases  []string
	Usage    string
	Hidden   bool
	Files    bool // its positional arguments are files
	Flags    []Flag
	Commands []*Cmd
}

// Flag is a flag as completion sees it.
type Flag struct {
	Names      []string
	Usage      string
	TakesValue bool
	Local      bool // not inherited by subcommands
	Hidden     bool
	// Cluster: the value is a cluster name defined in the FILE arguments.
	Cluster bool
	// Defined: the value is another name defined in the FILE arguments,
	// of this kind ("route-config", "listener", "authority").
	Defined string
	// Values is the fixed set of values the flag takes, if any.
	Values []string
}

// Candidate is one completion: a value and an optional description.
type Candidate struct{ Value, Desc string }

// Completion is the answer to one request.
type Completion struct {
	Cands []Candidate
	Files bool
}

// Complete answers a completion request: words are the arguments before
// the cursor (without the program name), cur the word being typed.
// names lists the names of a kind ("cluster", or a Flag's Defined) defined
// in files (names a shell could not show already left out); when it is
// nil and names are asked for, ok is false.
func Complete(root *Cmd, words []string, cur string, names func(kind string, files []string) []string) (c Completion, ok bool) {
	cmd := root
	chain := []*Cmd{root}
	var files []string
	var pending *Flag // a flag that still waits for its value
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
			if f := lookupFlag(chain, name); f != nil && f.TakesValue && !hasValue {
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
		return flagValueCompletion(pending, files, "", cur, names)
	case dashdash:
		return Completion{Files: true}, true
	case strings.HasPrefix(cur, "-") && strings.Contains(cur, "="):
		name, value, _ := strings.Cut(strings.TrimLeft(cur, "-"), "=")
		if f := lookupFlag(chain, name); f != nil && f.TakesValue {
			prefix := cur[:len(cur)-len(value)]
			return flagValueCompletion(f, files, prefix, value, names)
		}
		return Completion{}, true
	case strings.HasPrefix(cur, "-"):
		return Completion{Cands: flagCandidates(chain, cur)}, true
	}
	if !positional {
		leaf := true
		for _, sub := range cmd.Commands {
			leaf = leaf && (sub.Hidden || sub.Name == "help")
		}
		for _, sub := range cmd.Commands {
			if leaf {
				break // only urfave/cli's "help": offer the FILE arguments
			}
			if !sub.Hidden && strings.HasPrefix(sub.Name, cur) && !hasCandidate(c.Cands, sub.Name) {
				c.Cands = append(c.Cands, Candidate{sub.Name, sub.Usage})
			}
		}
	}
	c.Files = cmd.Files
	return c, true
}

// flagValueCompletion offers the values of flag f starting with cur, each
// prefixed with prefix (the "--flag=" part when the value is typed in
// the same word).
func flagValueCompletion(f *Flag, files []string, prefix, cur string, names func(string, []string) []string) (Completion, bool) {
	values := f.Values
	if f.Cluster || f.Defined != "" {
		if names == nil {
			return Completion{}, false
		}
		kind := f.Defined
		if f.Cluster {
			kind = "cluster"
		}
		values = names(kind, files)
	}
	var c Completion
	for _, v := range values {
		if strings.HasPrefix(v, cur) {
			c.Cands = append(c.Cands, Candidate{Value: prefix + v})
		}
	}
	return c, true
}

// lookupFlag finds a flag by any of its names on the last command of
// chain or, unless it is local, on one of its ancestors.
func lookupFlag(chain []*Cmd, name string) *Flag {
	for i := len(chain) - 1; i >= 0; i-- {
		for k := range chain[i].Flags {
			f := &chain[i].Flags[k]
			if i < len(chain)-1 && f.Local {
				continue
			}
			for _, n := range f.Names {
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
func flagCandidates(chain []*Cmd, cur string) []Candidate {
	var out []Candidate
	for i := len(chain) - 1; i >= 0; i-- {
		for _, f := range chain[i].Flags {
			if (i < len(chain)-1 && f.Local) || f.Hidden {
				continue
			}
			for _, n := range f.Names {
				spelled := "--" + n
				if len([]rune(n)) == 1 {
					spelled = "-" + n
				}
				if strings.HasPrefix(spelled, cur) && !hasCandidate(out, spelled) {
					out = append(out, Candidate{spelled, f.Usage})
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Value < out[j].Value })
	return out
}

func subcommand(cmd *Cmd, name string) *Cmd {
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

func hasCandidate(cs []Candidate, v string) bool {
	for _, c := range cs {
		if c.Value == v {
			return true
		}
	}
	return false
}

// Write prints the answer in the scripts' format. Descriptions are kept
// to their first line and without tabs, so one candidate is one line.
func (c Completion) Write(w io.Writer) {
	var b strings.Builder
	for _, cand := range c.Cands {
		if strings.ContainsAny(cand.Value, "\n\t") {
			continue
		}
		b.WriteString(cand.Value)
		if desc := strings.ReplaceAll(strings.SplitN(cand.Desc, "\n", 2)[0], "\t", " "); desc != "" {
			b.WriteString("\t" + desc)
		}
		b.WriteByte('\n')
	}
	if c.Files {
		b.WriteString(directiveFiles + "\n")
	} else {
		b.WriteString(directiveNoFiles + "\n")
	}
	io.WriteString(w, b.String())
}
