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
	limit := min(max(2, len(s)/3), len(s)-1) // the farthest a suggestion may be
	best, bestD := "", limit+1
	for _, c := range candidates {
		// Only a candidate nearer than both the limit and the best so far
		// can change the answer: the distance is at least the difference
		// in length, and the rows are cut off past it, so a long key (a
		// file of 100,000 of them) costs little.
		within := bestD - 1
		lc := strings.ToLower(c)
		d := within + 1
		switch {
		case lc == ls:
			d = 0
		case len(ls) >= 3 && strings.HasPrefix(lc, ls):
			d = 1
		case abs(len(lc)-len(ls)) <= within && bagDistance(ls, lc) <= within:
			d = editDistanceWithin(ls, lc, within)
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func abs(x int) int { return max(x, -x) }

// bagDistance is a lower bound of the edit distance of a and b: each edit
// changes at most one byte of each side's multiset of bytes.
func bagDistance(a, b string) int {
	var count [256]int32
	for i := 0; i < len(a); i++ {
		count[a[i]]++
	}
	for i := 0; i < len(b); i++ {
		count[b[i]]--
	}
	more, fewer := 0, 0
	for _, c := range count {
		if c > 0 {
			more += int(c)
		} else {
			fewer -= int(c)
		}
	}
	return max(more, fewer)
}

// editDistanceWithin is EditDistance(a, b) when it is at most k, else
// more than k: it stops once a whole row is past k.
func editDistanceWithin(a, b string, k int) int {
	if k < 0 {
		return 0x7fffffff
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > k {
			return k + 1
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
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
