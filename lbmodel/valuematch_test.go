package lbmodel

import (
	"math"
	"testing"
)

// kindEqual is ValueUtil::equal stated by kinds (utility.cc): kinds must
// match and be valid, then contents compare. ValueEqual's type switch must
// agree with it on every pair.
func kindEqual(a, b any) bool {
	ka, kb := KindOf(a), KindOf(b)
	if ka != kb || ka == KindInvalid {
		return false
	}
	switch ka {
	case KindList:
		la, lb := a.([]any), b.([]any)
		if len(la) != len(lb) {
			return false
		}
		for i := range la {
			if !kindEqual(la[i], lb[i]) {
				return false
			}
		}
		return true
	case KindStruct:
		sa, sb := a.(map[string]any), b.(map[string]any)
		if len(sa) != len(sb) {
			return false
		}
		for k, va := range sa {
			if vb, ok := sb[k]; !ok || !kindEqual(va, vb) {
				return false
			}
		}
		return true
	case KindNull:
		return true
	}
	return a == b
}

func TestValueEqualByKinds(t *testing.T) {
	vals := []any{nil, 0.0, math.Copysign(0, -1), 1.0, math.NaN(), "1", "", true, false, 1, []string{"a"},
		[]any{}, []any{1.0}, []any{"1"}, []any{nil}, map[string]any{}, map[string]any(nil), []any(nil),
		map[string]any{"a": 1.0}, map[string]any{"a": "1"}, map[string]any{"b": 1.0}, map[string]any{"a": []any{1.0}}}
	for _, a := range vals {
		for _, b := range vals {
			if got, want := ValueEqual(a, b), kindEqual(a, b); got != want {
				t.Errorf("ValueEqual(%#v, %#v) = %v, want %v", a, b, got, want)
			}
		}
	}
}
