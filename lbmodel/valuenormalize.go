package lbmodel

import (
	"fmt"
	"maps"
	"slices"
)

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
		for _, k := range slices.Sorted(maps.Keys(x)) {
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
