package lbmodel

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// When two metadata values match: the equality Envoy's subset load balancer
// and metadata matchers use, and the canonical key its hash maps stand on.

// ValueEqual is ValueUtil::equal (source/common/protobuf/utility.cc): kinds
// must match (string "1" is not number 1), numbers compare as float64 with ==
// (so 1 == 1.0, -0 == 0 and NaN != NaN), lists element-wise in order, structs
// as key sets with recursively equal values.
func ValueEqual(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !ValueEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, va := range x {
			vb, ok := y[k]
			if !ok || !ValueEqual(va, vb) {
				return false
			}
		}
		return true
	}
	return false // KindInvalid equals nothing, itself included
}

// HashedEqual is HashedValue::operator== (utility.h), the equality the
// subset trie's hash maps use: equal hashes AND ValueUtil::equal. The hash
// is MessageUtil::hash of the value's deterministic serialization, so two
// numbers hash alike only when their bits do: -0 and 0 are ValueEqual but
// never find each other in the trie, and NaN never matches at all.
func HashedEqual(a, b any) bool {
	return valueKey(a) == valueKey(b) && ValueEqual(a, b)
}

// valueKey is a canonical encoding standing in for the value's hash: kind,
// then content; numbers by their IEEE bits, struct keys sorted (protobuf's
// deterministic serialization sorts map entries).
func valueKey(v any) string {
	var b strings.Builder
	WriteValueKey(&b, v)
	return b.String()
}

func WriteValueKey(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("n")
	case float64:
		b.WriteString("d")
		b.WriteString(strconv.FormatUint(math.Float64bits(x), 16))
	case string:
		b.WriteString("s")
		b.WriteString(strconv.Quote(x))
	case bool:
		if x {
			b.WriteString("T")
		} else {
			b.WriteString("F")
		}
	case []any:
		b.WriteString("[")
		for i, e := range x {
			if i > 0 {
				b.WriteString(",")
			}
			WriteValueKey(b, e)
		}
		b.WriteString("]")
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("{")
		for i, k := range keys {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(strconv.Quote(k))
			b.WriteString(":")
			WriteValueKey(b, x[k])
		}
		b.WriteString("}")
	default:
		// Unique per call site is not needed: invalid values are rejected by
		// ValueEqual, so any encoding works.
		fmt.Fprintf(b, "?%T", v)
	}
}
