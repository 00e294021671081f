package lint

import (
	"testing"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// TestMayHoldAny: walkAny skips only fields that cannot hold an Any.
func TestMayHoldAny(t *testing.T) {
	fields := (&clusterv3.Cluster{}).ProtoReflect().Descriptor().Fields()
	for name, want := range map[protoreflect.Name]bool{
		"load_assignment":                  true, // endpoint metadata.typed_filter_metadata
		"connect_timeout":                  false,
		"name":                             false,
		"cluster_type":                     true, // typed_config
		"typed_extension_protocol_options": true, // map<string, Any>
		"load_balancing_policy":            true, // policies[].typed_extension_config.typed_config
		"transport_socket":                 true,
	} {
		fd := fields.ByName(name)
		if fd == nil {
			t.Fatalf("no field %s", name)
		}
		if got := fd.Message() != nil && mayHoldAny(fd); got != want {
			t.Errorf("%s: mayHoldAny %v, want %v", name, got, want)
		}
	}
}
