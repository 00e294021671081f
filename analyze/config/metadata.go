package config

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/lbctl/lbctl/lbmodel"
)

// StructMap converts a decoded Struct to lbmodel's plain values; nil stays
// nil (absent), an empty Struct gives an empty, non-nil map.
func StructMap(s *structpb.Struct) map[string]any {
	if s == nil {
		return nil
	}
	out := map[string]any{}
	for k, v := range s.GetFields() {
		// AsInterface yields float64, string, bool, nil, []any and
		// map[string]any, which NormalizeValue keeps as they are.
		n, err := lbmodel.NormalizeValue(v.AsInterface())
		if err != nil {
			continue
		}
		out[k] = n
	}
	return out
}

// MetadataMatch returns m's filter_metadata["envoy.lb"] as criteria input
// (nil when absent) and the Struct for positions.
func MetadataMatch(m *corev3.Metadata) (map[string]any, *structpb.Struct) {
	s := m.GetFilterMetadata()["envoy.lb"]
	return StructMap(s), s
}
