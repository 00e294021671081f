// Package parse holds what reading a configuration file needs before any
// protobuf: for now the one "did you mean" matcher, shared by the loader's
// unknown fields and enum values and the CLI's unknown flags and commands.
package parse

import "strings"

// Closest returns the candidate nearest to s by edit distance (ignoring
// case), or "" when none is near enough to be what was meant: at most 2
// edits, or a third of the length for long names, and fewer than len(s);
// a candidate that s is a prefix of (3 letters or more) counts as 1 edit.
// Ties go to the earlier candidate.
func Closest(s string, candidates []string) string {
	ls := strings.ToLower(s)
	best, bestD := "", 1<<30
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := EditDistance(ls, lc)
		if len(ls) >= 3 && strings.HasPrefix(lc, ls) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > max(2, len(s)/3) || bestD >= len(s) {
		return ""
	}
	return best
}

// EditDistance is the Levenshtein distance between a and b, in bytes.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
