package expect

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// kind is the type of value an expectation compares.
type kind int

const (
	kindNumber kind = iota
	kindBool
	kindString
)

// Want is an expectation's value: OP NUMBER, or a bare number, boolean or
// string meaning equality.
type Want struct {
	Op   string // ==, !=, <, <=, >, >=
	Num  float64
	Bool bool
	Str  string
	// Text is the value as written, printed as "want".
	Text string
	kind kind
}

// equalTol is how close two numbers must be to be equal: loads are
// integers, shares floats rounded to 12 digits.
const equalTol = 1e-9

var ops = []string{"==", "!=", "<=", ">=", "<", ">"}

// parseWant reads a scalar node as a value of kind k.
func parseWant(n *yaml.Node, k kind) (Want, error) {
	if n.Kind != yaml.ScalarNode {
		return Want{}, fmt.Errorf("expected a value, found a %s", nodeKind(n))
	}
	w := Want{Op: "==", Text: n.Value, kind: k}
	switch k {
	case kindBool:
		b, err := strconv.ParseBool(n.Value)
		if err != nil || n.Tag != "!!bool" {
			return w, fmt.Errorf("expected true or false, found %q", n.Value)
		}
		w.Bool = b
	case kindString:
		if n.Tag == "!!null" {
			return w, fmt.Errorf("expected a name, found null")
		}
		w.Str = n.Value
	case kindNumber:
		if n.Tag == "!!null" {
			// A budget of null means never: +infinity.
			w.Num, w.Text = math.Inf(1), "null"
			return w, nil
		}
		s := strings.TrimSpace(n.Value)
		for _, op := range ops {
			if strings.HasPrefix(s, op) {
				w.Op, s = op, strings.TrimSpace(s[len(op):])
				break
			}
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(v) || s == "" {
			return w, fmt.Errorf("expected a number or a comparison \"OP NUMBER\" (OP one of == != < <= > >=), found %q", n.Value)
		}
		w.Num = v
	}
	return w, nil
}

// holdsNum compares a number got (+Inf for a budget of never) with w.
func (w Want) holdsNum(got float64) bool {
	eq := got == w.Num || math.Abs(got-w.Num) <= equalTol
	switch w.Op {
	case "!=":
		return !eq
	case "<":
		return got < w.Num
	case "<=":
		return got <= w.Num
	case ">":
		return got > w.Num
	case ">=":
		return got >= w.Num
	}
	return eq
}

func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	case yaml.AliasNode:
		return "alias"
	}
	return "scalar"
}
