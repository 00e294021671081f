package commands

import (
	"encoding/json"
	"io"
	"os"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/urfave/cli/v3"
	"go.yaml.in/yaml/v3"
)

// writeOutput writes v in the -o format: JSON, YAML, or text through render.
func writeOutput(cmd *cli.Command, v any, render func(t *term.IO)) error {
	t := cmdutil.Term(cmd)
	switch cmd.String("output") {
	case "json":
		return writeJSONOutput(t.Out, v)
	case "yaml":
		emptySlices(v)
		return writeYAML(t.Out, v)
	case "csv":
		return cmdutil.UsageErrorf("-o csv: only lbctl sweep writes CSV")
	}
	if r, ok := v.(*traffic.Report); ok {
		escapeTrafficStrings(r)
	} else {
		escapeStrings(v)
	}
	if !t.Unicode() {
		// Notes and decision paths are prose with a few typographic
		// characters; in a pipe they become ASCII like the tables.
		t = t.WithOut(asciiWriter{t.Out})
	}
	render(t)
	return nil
}

// asciiText replaces the typographic characters lbctl's prose uses.
var asciiText = strings.NewReplacer("→", "->", "×", "x", "—", "-", "–", "-", "·", ",", "…", "...", "≥", ">=", "≤", "<=")

// asciiWriter writes text with asciiText applied. lbctl writes whole
// strings, so a character is never split across writes.
type asciiWriter struct{ w io.Writer }

func (a asciiWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(a.w, asciiText.Replace(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// writeJSONOutput is -o json: lists [] when empty, a traffic report
// written directly (json_traffic.go), anything else by encoding/json.
func writeJSONOutput(w io.Writer, v any) error {
	if r, ok := v.(*traffic.Report); ok {
		return writeTrafficJSON(w, r)
	}
	emptySlices(v)
	return writeJSON(w, v)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func writeYAML(w io.Writer, v any) error {
	var n yaml.Node
	if err := n.Encode(v); err != nil {
		return err
	}
	quoteEscaped(&n)
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	defer enc.Close()
	return enc.Encode(&n)
}

// quoteEscaped double-quotes every string the output guard will escape
// (yaml.v3 writes C1 controls and bidi marks bare, as printable): inside
// double quotes the guard's \u202e reads back as the character itself,
// as it does in JSON, instead of as six characters of a plain scalar.
func quoteEscaped(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" && config.Escape(n.Value) != n.Value {
		n.Style = yaml.DoubleQuotedStyle
	}
	for _, c := range n.Content {
		quoteEscaped(c)
	}
}

// stdinHasData reports whether standard input is a pipe or file rather
// than a terminal or nothing, so `lbctl explain` alone can fall back to the
// built-in example while `cat x.yaml | lbctl explain` reads the pipe.
func stdinHasData(cmd *cli.Command) bool {
	r := cmd.Root().Reader
	if l, ok := r.(interface{ Len() int }); ok {
		return l.Len() > 0
	}
	f, ok := r.(*os.File)
	if !ok {
		return r != nil
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeCharDevice == 0 && (st.Mode()&os.ModeNamedPipe != 0 || st.Mode().IsRegular() && st.Size() > 0)
}
