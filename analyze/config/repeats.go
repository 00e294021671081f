package config

import (
	"fmt"
	"strconv"
)

// MaxRepeats is how many errors of one code one file lists; the rest
// become one line saying how many more there are, so that a file of
// 100,000 unknown keys prints a screenful in every format (lint's
// findings are made from these problems).
const MaxRepeats = 10

// maxRepeats is MaxRepeats; tests comparing every problem raise it.
var maxRepeats = MaxRepeats

// repeatNouns names a code's problems in the summary line.
var repeatNouns = map[string]string{
	CodeUnknownField: "unknown fields",
	CodeDuplicateKey: "duplicate keys",
	CodeType:         "values of the wrong type",
	CodeInvalidValue: "invalid values",
	CodeUnknownType:  "unknown types",
	CodeReference:    "references to something not loaded",
}

// grouped keeps the first MaxRepeats errors of each file and code (ps
// sorted) and puts one summary, at the first one left out, in place of
// the rest. Warnings and infos stay: commands count them in one line
// each ("270 v2-era settings ...; --verbose to list").
func (ps Problems) grouped() Problems {
	type key struct{ file, code string }
	count := map[key]int{}
	for _, p := range ps {
		if p.Severity == SevError {
			count[key{p.Pos.File, p.Code}]++
		}
	}
	over := false
	for _, n := range count {
		over = over || n > maxRepeats
	}
	if !over {
		return ps
	}
	seen := map[key]int{}
	out := make(Problems, 0, len(ps))
	for _, p := range ps {
		if p.Severity != SevError {
			out = append(out, p)
			continue
		}
		k := key{p.Pos.File, p.Code}
		seen[k]++
		switch n := seen[k]; {
		case n <= maxRepeats:
			out = append(out, p)
		case n == maxRepeats+1:
			noun := repeatNouns[p.Code]
			if noun == "" {
				noun = "problems (" + p.Code + ")"
			}
			out = append(out, Problem{Pos: p.Pos, Severity: SevError, Code: p.Code,
				Msg: fmt.Sprintf("… and %s more %s like this", thousands(count[k]-maxRepeats), noun)})
		}
	}
	return out
}

// thousands writes n with commas: 99,990.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
