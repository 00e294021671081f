package config

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lbctl/lbctl/lbmodel"
)

// Pos is a place in an input file; Line and Col count from 1.
type Pos struct {
	File      string
	Line, Col int
}

// String is FILE:LINE:COL, the file escaped: a path holding a newline
// must not forge a second error line.
func (p Pos) String() string {
	if p.Line == 0 {
		return Escape(p.File)
	}
	return fmt.Sprintf("%s:%d:%d", Escape(p.File), p.Line, p.Col)
}

// Severity of a loader's problem or a lint finding: lbmodel's one scale
// (higher is more serious; SevNone, the zero value, names none).
type Severity = lbmodel.Severity

const (
	SevNone    = lbmodel.SevNone
	SevInfo    = lbmodel.SevInfo
	SevWarning = lbmodel.SevWarning
	SevError   = lbmodel.SevError
)

// Problem is something wrong with the input, found while loading it. Errors
// make the input unusable as Envoy config; warnings (legacy syntax, unknown
// extension types) are reported and loading goes on.
type Problem struct {
	Pos      Pos
	Severity Severity
	// Code is a stable short name of the kind of problem (used by lint).
	Code string
	Msg  string
}

func (p Problem) Error() string { return Escape(p.Pos.String()) + ": " + safeMsg(p.Msg) }

// Problem codes.
const (
	CodeSyntax       = "syntax"        // YAML/JSON does not parse
	CodeDuplicateKey = "duplicate-key" // a mapping repeats a key
	CodeUnknownField = "unknown-field" // a key the proto does not have
	CodeType         = "type"          // a value of the wrong type
	CodeUnknownType  = "unknown-type"  // an Any whose @type is not linked in
	// CodeUnknownLBType is an unknown @type where it decides load
	// balancing (an LB policy, a custom cluster type, a cluster specifier
	// plugin): lbctl cannot model how that traffic is spread.
	CodeUnknownLBType = "unknown-lb-type"
	CodeLegacy        = "legacy"         // v2-era syntax read through a translation
	CodeUnknownKind   = "unknown-kind"   // a document that is no known Envoy resource
	CodeReference     = "reference"      // a reference to something not loaded
	CodeIO            = "io"             // a file that cannot be read
	CodeOneof         = "oneof"          // two members of one oneof set
	CodeInvalidValue  = "invalid-value"  // a value out of its allowed range
	CodeDuplicateName = "duplicate-name" // two resources with one name
	// CodePriorityRange is a priority above 128. lint reports it through
	// go-control-plane's validation (LB1008), so it has no load rule.
	CodePriorityRange = "priority-range"
	// CodePortRange is an endpoint port above 65535, reported by lint
	// through go-control-plane's validation (LB1099) like priorities.
	CodePortRange = "port-range"
)

// Problems is a list of problems that sorts by position.
type Problems []Problem

func (ps Problems) Sort() {
	sort.SliceStable(ps, func(i, j int) bool {
		a, b := ps[i].Pos, ps[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Errors returns the problems of severity error.
func (ps Problems) Errors() Problems {
	var out Problems
	for _, p := range ps {
		if p.Severity == SevError {
			out = append(out, p)
		}
	}
	return out
}

func (ps Problems) Error() string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.Error())
	}
	return b.String()
}
