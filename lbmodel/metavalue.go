package lbmodel

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// ValueKind is the kind of a google.protobuf.Value as lbmodel holds it in
// plain Go values.
type ValueKind int

const (
	// KindInvalid is a Go value that no google.protobuf.Value can hold
	// (an int, a []string, ...). It never equals anything, itself included.
	KindInvalid ValueKind = iota
	KindNull
	KindNumber
	KindString
	KindBool
	KindStruct
	KindList
)

var kindNames = [...]string{"invalid", "null", "number", "string", "bool", "struct", "list"}

func (k ValueKind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("ValueKind(%d)", int(k))
}

// KindOf maps a Go value to the google.protobuf.Value kind it stands for:
// nil, float64, string, bool, map[string]any, []any. Anything else is
// KindInvalid (see ValidateValue).
func KindOf(v any) ValueKind {
	switch v.(type) {
	case nil:
		return KindNull
	case float64:
		return KindNumber
	case string:
		return KindString
	case bool:
		return KindBool
	case map[string]any:
		return KindStruct
	case []any:
		return KindList
	}
	return KindInvalid
}

// ValueEqual is ValueUtil::equal (source/common/protobuf/utility.cc): kinds
// must match (string "1" is not number 1), numbers compare as float64 with ==
// (so 1 == 1.0, -0 == 0 and NaN != NaN), lists element-wise in order, structs
// as key sets with recursively equal values.
func ValueEqual(a, b any) bool {
	ka, kb := KindOf(a), KindOf(b)
	if ka != kb || ka == KindInvalid {
		return false
	}
	switch ka {
	case KindNull:
		return true
	case KindNumber:
		return a.(float64) == b.(float64)
	case KindString:
		return a.(string) == b.(string)
	case KindBool:
		return a.(bool) == b.(bool)
	case KindList:
		la, lb := a.([]any), b.([]any)
		if len(la) != len(lb) {
			return false
		}
		for i := range la {
			if !ValueEqual(la[i], lb[i]) {
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
			vb, ok := sb[k]
			if !ok || !ValueEqual(va, vb) {
				return false
			}
		}
		return true
	}
	return false
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

// ValidateValue reports why v can never take part in a match: a Go type that
// is not a google.protobuf.Value kind, or a NaN number (ValueUtil::equal uses
// ==, so NaN equals nothing). It looks inside lists and structs.
func ValidateValue(v any) error {
	switch x := v.(type) {
	case nil, string, bool:
		return nil
	case float64:
		if math.IsNaN(x) {
			return fmt.Errorf("NaN never equals any value")
		}
		return nil
	case []any:
		for i, e := range x {
			if err := ValidateValue(e); err != nil {
				return fmt.Errorf("[%d]: %w", i, err)
			}
		}
		return nil
	case map[string]any:
		for _, k := range sortedKeys(x) {
			if err := ValidateValue(x[k]); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
		}
		return nil
	}
	return fmt.Errorf("a value of Go type %T is not a google.protobuf.Value kind", v)
}

// FormatValue renders a value as compact JSON-like text for decision paths.
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return strconv.Quote(x)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = FormatValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := sortedKeys(x)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + FormatValue(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("<%T>", v)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// NormalizeValue converts a decoded YAML/JSON value to the Go values a
// google.protobuf.Value holds, as protobuf's JSON/YAML loading would: every
// integer and float32 becomes float64 (Struct numbers are doubles, so YAML
// `1` and `1.0` are the same number), map[any]any with string keys becomes
// map[string]any, []T becomes []any. Other types are an error.
func NormalizeValue(v any) (any, error) {
	switch x := v.(type) {
	case nil, string, bool, float64:
		return v, nil
	case float32:
		return float64(x), nil
	case int:
		return float64(x), nil
	case int8:
		return float64(x), nil
	case int16:
		return float64(x), nil
	case int32:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case uint:
		return float64(x), nil
	case uint8:
		return float64(x), nil
	case uint16:
		return float64(x), nil
	case uint32:
		return float64(x), nil
	case uint64:
		return float64(x), nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			n, err := NormalizeValue(e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = n
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(x))
		for _, k := range sortedKeys(x) {
			n, err := NormalizeValue(x[k])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			out[k] = n
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			ks, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("struct key %v is not a string", k)
			}
			n, err := NormalizeValue(e)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", ks, err)
			}
			out[ks] = n
		}
		return out, nil
	}
	return nil, fmt.Errorf("a value of Go type %T is not a google.protobuf.Value kind", v)
}
