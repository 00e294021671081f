package encode

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/traffic"
	"go.yaml.in/yaml/v3"
)

// asciiText replaces the typographic characters lbctl's prose uses.
var asciiText = strings.NewReplacer("→", "->", "×", "x", "—", "-", "–", "-", "·", ",", "…", "...", "≥", ">=", "≤", "<=")

// ASCII writes text with asciiText applied. lbctl writes whole
// strings, so a character is never split across writes.
type ASCII struct{ W io.Writer }

func (a ASCII) Write(p []byte) (int, error) {
	if _, err := io.WriteString(a.W, asciiText.Replace(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// JSONOutput is -o json: lists [] when empty, a traffic report
// written directly (json_traffic.go), anything else by encoding/json.
func JSONOutput(w io.Writer, v any) error {
	if r, ok := v.(*traffic.Report); ok {
		return TrafficJSON(w, r)
	}
	EmptySlices(v)
	return JSON(w, v)
}

// JSON writes v indented by two spaces.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// YAML writes v indented by two spaces, escaped strings double-quoted.
func YAML(w io.Writer, v any) error {
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
