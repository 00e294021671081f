package expect

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// shape is how an expect key's value is written.
type shape int

const (
	single  shape = iota // one value
	byIndex              // {PRIORITY: value}
	byName               // {NAME: value}
	budgets              // {PRIORITY: {before_spill: value, ...}}
)

// scope says which tests a key applies to.
type scope int

const (
	clusterTests scope = 1 << iota
	requestTests
)

type keySpec struct {
	kind  kind
	shape shape
	scope scope
}

// expectKeys is every expect key of lbctl's form (contract, "test").
var expectKeys = map[string]keySpec{
	"priority_load":  {kindNumber, byIndex, clusterTests},
	"panic":          {kindBool, byIndex, clusterTests},
	"total_panic":    {kindBool, single, clusterTests},
	"cluster_load":   {kindNumber, byName, clusterTests},
	"locality_share": {kindNumber, byName, clusterTests},
	"host_share":     {kindNumber, byName, clusterTests | requestTests},
	"max_host_share": {kindNumber, single, clusterTests | requestTests},
	"min_host_share": {kindNumber, single, clusterTests | requestTests},
	"budget":         {kindNumber, budgets, clusterTests},
	"moved":          {kindNumber, single, clusterTests},
	"cluster":        {kindString, single, requestTests},
	"host":           {kindString, single, requestTests},
	"route":          {kindString, single, requestTests},
	"virtual_host":   {kindString, single, requestTests},
}

var budgetKeys = []string{"before_spill", "before_panic", "before_total_panic"}

func sortedExpectKeys() []string {
	out := make([]string, 0, len(expectKeys))
	for k := range expectKeys {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// expects reads an expect mapping into one Expect per compared value.
func (p *parser) expects(n *yaml.Node, request bool) []Expect {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "expect: expected a mapping")
		return nil
	}
	var out []Expect
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, v := n.Content[i], n.Content[i+1]
		spec, ok := expectKeys[kn.Value]
		if !ok {
			p.errorf(kn, "unknown expect key %q%s", clean(kn.Value), nearest(kn.Value, sortedExpectKeys(), "expect key"))
			continue
		}
		if request && spec.scope&requestTests == 0 {
			p.errorf(kn, "expect key %q applies to cluster tests, this test has a request", kn.Value)
			continue
		}
		if !request && spec.scope&clusterTests == 0 {
			p.errorf(kn, "expect key %q applies to request tests, this test names a cluster", kn.Value)
			continue
		}
		field := kn.Value
		if spec.shape == single {
			out = p.one(out, Expect{Path: field, Field: field, KeyAt: p.pos(kn)}, v, spec.kind)
			continue
		}
		if v.Kind != yaml.MappingNode {
			p.errorf(v, "%s: expected a mapping of %s to values", field, map[bool]string{true: "priorities", false: "names"}[spec.shape != byName])
			continue
		}
		for j := 0; j+1 < len(v.Content); j += 2 {
			sk, sv := v.Content[j], v.Content[j+1]
			e := Expect{Path: field + "." + sk.Value, Field: field, Key: sk.Value, KeyAt: p.pos(sk)}
			if spec.shape != byName && !isIndex(sk.Value) {
				p.errorf(sk, "%s: %q is not a priority (0, 1, ...)", field, clean(sk.Value))
				continue
			}
			if spec.shape != budgets {
				out = p.one(out, e, sv, spec.kind)
				continue
			}
			if sv.Kind != yaml.MappingNode {
				p.errorf(sv, "budget.%s: expected a mapping of %s", sk.Value, strings.Join(budgetKeys, ", "))
				continue
			}
			p.keys(sv, budgetKeys, "budget key")
			for b := 0; b+1 < len(sv.Content); b += 2 {
				if bk := sv.Content[b]; contains(budgetKeys, bk.Value) {
					be := e
					be.Sub, be.Path = bk.Value, e.Path+"."+bk.Value
					out = p.one(out, be, sv.Content[b+1], kindNumber)
				}
			}
		}
	}
	return out
}

// one appends e with its value read from v, or records why it cannot be.
func (p *parser) one(out []Expect, e Expect, v *yaml.Node, k kind) []Expect {
	w, err := parseWant(v, k)
	if err != nil {
		p.errorf(v, "%s: %s", clean(e.Path), clean(err.Error()))
		return out
	}
	e.Want, e.At = w, p.pos(v)
	return append(out, e)
}

func isIndex(s string) bool {
	if s == "" || len(s) > 3 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// clean makes a string from a file safe to print: control characters
// become \xNN escapes (no raw terminal or workflow-command bytes).
func clean(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 0xfffd:
			b.WriteString(`\ufffd`)
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
