package lbmodel

import (
	"fmt"
	"maps"
	"math"
	"slices"
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
		for _, k := range slices.Sorted(maps.Keys(x)) {
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
		keys := slices.Sorted(maps.Keys(x))
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ": " + FormatValue(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("<%T>", v)
}
