package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	adminv3 "github.com/envoyproxy/go-control-plane/envoy/admin/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
)

// A parallel decode (fanout.go) must give exactly what a sequential one
// gives: messages, problems in order, positions, secrets, unpacked Anys.

// fanoutDump is an admin config_dump in YAML with n clusters (one of them
// with n hosts) and n routes, every seventh item carrying a problem:
// unknown fields, bad types, oneof clashes, v2 syntax, unknown Any types,
// secrets in Any payloads and credential headers, anchors and merge keys.
func fanoutDump(n int) string {
	var b strings.Builder
	b.WriteString("configs:\n- \"@type\": type.googleapis.com/envoy.admin.v3.ClustersConfigDump\n  dynamic_active_clusters:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - version_info: \"%d\"\n    cluster:\n      \"@type\": type.googleapis.com/envoy.config.cluster.v3.Cluster\n      name: c%d\n", i, i)
		switch i % 7 {
		case 1:
			b.WriteString("      bogus_field: 1\n      connect_timeout: 5\n")
		case 2:
			b.WriteString("      lb_policy: ORIGINAL_DST_LB\n      hosts: [{socket_address: {address: 10.0.0.1, port_value: 80}}]\n")
		case 3:
			fmt.Fprintf(&b, "      transport_socket:\n        name: tls\n        typed_config:\n          \"@type\": type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext\n          common_tls_context:\n            tls_certificates:\n            - private_key: {inline_string: \"secret-key-%08d\"}\n              certificate_chain: {inline_string: 42x}\n", i)
		case 4:
			b.WriteString("      typed_extension_protocol_options:\n        x: {\"@type\": type.googleapis.com/no.such.Type, a: 1}\n      lb_policy: NO_SUCH_POLICY\n")
		case 5:
			b.WriteString("      load_assignment: &la\n        cluster_name: shared\n        endpoints: [{lb_endpoints: [{endpoint: {address: {socket_address: {address: 1.2.3.4, port_value: -1}}}, endpoint_name: x}]}]\n")
		case 6:
			b.WriteString("      metadata: {filter_metadata: {m: {k: [1, two, {x: null}]}}}\n      circuit_breakers: {thresholds: [{max_connections: abc}]}\n")
		}
		if i == n/2 {
			b.WriteString("      load_assignment:\n        cluster_name: big\n        endpoints:\n        - lb_endpoints:\n")
			for j := range n {
				fmt.Fprintf(&b, "          - endpoint: {address: {socket_address: {address: 10.0.%d.%d, port_value: %d}}}\n", j>>8&255, j&255, 80+j%3)
				if j%11 == 3 {
					b.WriteString("            bad: 1\n")
				}
			}
		}
	}
	b.WriteString("- \"@type\": type.googleapis.com/envoy.admin.v3.RoutesConfigDump\n  dynamic_route_configs:\n  - route_config:\n      \"@type\": type.googleapis.com/envoy.config.route.v3.RouteConfiguration\n      name: r\n      virtual_hosts:\n      - name: all\n        domains: [\"*\"]\n        routes:\n")
	for i := range n {
		fmt.Fprintf(&b, "        - match: {prefix: /p%d}\n          route: {cluster: c%d}\n", i, i)
		switch i % 5 {
		case 1:
			fmt.Fprintf(&b, "          request_headers_to_add: [{header: {key: Authorization, value: \"Bearer tok-%08d\"}}]\n", i)
		case 2:
			b.WriteString("          typo_field: {a: 1}\n          timeout: soon\n")
		case 3:
			b.WriteString("          <<: {name: merged}\n          decorator: {operation: op, propagate: maybe}\n")
		}
	}
	return b.String()
}

// fanoutCluster is a JSON cluster with n hosts, some with problems, and a
// duplicate key.
func fanoutCluster(n int) string {
	var b strings.Builder
	b.WriteString(`{"name":"big","name":"again","type":"STATIC","load_assignment":{"cluster_name":"big","endpoints":[{"lb_endpoints":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		switch i % 13 {
		case 1:
			fmt.Fprintf(&b, `{"endpoint":{"address":{"socket_address":{"address":"10.0.0.%d","port_value":"x"}}}}`, i&255)
		case 2:
			b.WriteString(`{"endpoint":{"address":{"pipe":{"path":"/p"}}},"endpointName":"e","unknownThing":[1]}`)
		case 3:
			b.WriteString(`{"endpoint":{"address":{"socket_address":{"address":"a","port_value":1}},"health_check_config":{"port_value":1,"port_value":2}},"metadata":{"typed_filter_metadata":{"t":{"@type":"type.googleapis.com/google.protobuf.Struct","value":{"a":1}}}}}`)
		default:
			fmt.Fprintf(&b, `{"endpoint":{"address":{"socket_address":{"address":"10.0.%d.%d","port_value":8080}}},"load_balancing_weight":%d}`, i>>8&255, i&255, 1+i%3)
		}
	}
	b.WriteString(`]}]}}`)
	return b.String()
}

// fanoutDiscovery is a DiscoveryResponse in JSON with n resources: clusters,
// some in Resource wrappers, some with problems, v2 and unknown types, and
// listeners with inline routes (VHDS: the loader looks up positions while
// reading them).
func fanoutDiscovery(n int) string {
	var b strings.Builder
	b.WriteString(`{"version_info":"1","resources":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		switch i % 9 {
		case 1:
			fmt.Fprintf(&b, `{"name":"w%d","resource":{"@type":"type.googleapis.com/envoy.config.cluster.v3.Cluster","name":"w%d","lb_policy":"RING_HASH","ring_hash_lb_config":{"minimum_ring_size":"x"}}}`, i, i)
		case 2:
			fmt.Fprintf(&b, `{"@type":"type.googleapis.com/envoy.api.v2.Cluster","name":"v%d","hosts":[{"socket_address":{"address":"1.1.1.1","port_value":1}}]}`, i)
		case 3:
			fmt.Fprintf(&b, `{"@type":"type.googleapis.com/no.such.Thing","x":%d}`, i)
		case 4:
			fmt.Fprintf(&b, `{"@type":"type.googleapis.com/envoy.config.listener.v3.Listener","name":"l%d","filter_chains":[{"filters":[{"name":"hcm","typed_config":{"@type":"type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager","stat_prefix":"s","route_config":{"name":"r%d","vhds":{"config_source":{"ads":{}}},"virtual_hosts":[{"name":"v","domains":["*"],"routes":[{"match":{"prefix":"/"},"route":{"cluster":"c%d"},"request_headers_to_add":[{"header":{"key":"Cookie","value":"session-%08d"}}]}]}]}}}]}]}`, i, i, i, i)
		case 5:
			fmt.Fprintf(&b, `{"@type":"type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment","cluster_name":"c%d","endpoints":[{"lb_endpoints":[{"endpoint":{"address":{"socket_address":{"address":"10.0.0.1","port_value":99999}}}}]}],"oops":1}`, i)
		default:
			fmt.Fprintf(&b, `{"@type":"type.googleapis.com/envoy.config.cluster.v3.Cluster","name":"c%d","type":"EDS","eds_cluster_config":{"eds_config":{"ads":{}}},"lb_policy":"LEAST_REQUEST"}`, i)
		}
	}
	b.WriteString("]}\n")
	return b.String()
}

// loadBoth loads inputs sequentially and then in parallel from lists of
// min items on.
func loadBoth(t *testing.T, inputs []Input, min int) (seq, par *Config) {
	t.Helper()
	defer func(p bool, m int) { parallelDecode, parallelMin = p, m }(parallelDecode, parallelMin)
	parallelDecode = false
	seq, errS := Load(inputs, "")
	parallelDecode, parallelMin = true, min
	par, errP := Load(inputs, "")
	if fmt.Sprint(errS) != fmt.Sprint(errP) {
		t.Fatalf("errors differ: %v / %v", errS, errP)
	}
	if seq == nil || par == nil {
		t.Fatalf("no config: %v", errS)
	}
	return seq, par
}

// sameDecode fails t where the two loads differ.
func sameDecode(t *testing.T, seq, par *Config) {
	t.Helper()
	if !reflect.DeepEqual(seq.Problems, par.Problems) {
		for i := range min(len(seq.Problems), len(par.Problems)) {
			if seq.Problems[i] != par.Problems[i] {
				t.Fatalf("problem %d: %v / %v", i, seq.Problems[i], par.Problems[i])
			}
		}
		t.Fatalf("%d problems / %d", len(seq.Problems), len(par.Problems))
	}
	// The position logs, before the walk's lookups index them (the loader
	// may have indexed part already: by address, which differs by run).
	sp, pp := &seq.Sources.pos, &par.Sources.pos
	// (A DiscoveryResponse's resources are all decoded before the loader
	// looks any up: how much is indexed may differ, not what is found.)
	if len(sp.sids)+len(pp.sids) == 0 && !slices.Equal(sp.ids, pp.ids) {
		t.Fatalf("position logs differ: %d/%d records", len(sp.ids), len(pp.ids))
	}
	recS, recP := records(sp), records(pp)
	if !reflect.DeepEqual(seq.Sources.secrets, par.Sources.secrets) {
		t.Fatalf("secret spans differ")
	}
	if len(seq.Sources.unpacked) != len(par.Sources.unpacked) {
		t.Fatalf("%d unpacked Anys / %d", len(seq.Sources.unpacked), len(par.Sources.unpacked))
	}
	var roots [][2]proto.Message
	for i, c := range seq.Clusters {
		roots = append(roots, [2]proto.Message{c.Proto, par.Clusters[i].Proto})
		if c.Assignment != nil {
			roots = append(roots, [2]proto.Message{c.Assignment, par.Clusters[i].Assignment})
		}
	}
	if len(seq.Clusters) != len(par.Clusters) || len(seq.Assignments) != len(par.Assignments) ||
		len(seq.Routes) != len(par.Routes) || len(seq.Listeners) != len(par.Listeners) || len(seq.Bootstraps) != len(par.Bootstraps) {
		t.Fatalf("different resources read")
	}
	for i := range seq.Assignments {
		roots = append(roots, [2]proto.Message{seq.Assignments[i], par.Assignments[i]})
	}
	for i := range seq.Routes {
		roots = append(roots, [2]proto.Message{seq.Routes[i], par.Routes[i]})
	}
	for i := range seq.Listeners {
		roots = append(roots, [2]proto.Message{seq.Listeners[i], par.Listeners[i]})
	}
	for i := range seq.Bootstraps {
		roots = append(roots, [2]proto.Message{seq.Bootstraps[i], par.Bootstraps[i]})
	}
	pairs := map[unsafe.Pointer]unsafe.Pointer{}
	for _, r := range roots {
		if !proto.Equal(r[0], r[1]) {
			t.Fatalf("messages differ: %v", r[0].ProtoReflect().Descriptor().FullName())
		}
		walkSame(t, seq.Sources, par.Sources, r[0].ProtoReflect(), r[1].ProtoReflect(), pairs)
	}
	// Every message has the same first record (as far as the walk reaches).
	if len(recS) != len(recP) {
		t.Fatalf("%d messages recorded / %d", len(recS), len(recP))
	}
	for k, id := range recS {
		if p, ok := pairs[k]; ok && recP[p] != id {
			t.Fatalf("a message recorded at node %d / %d", id, recP[p])
		}
	}
}

// records is the first node recorded for each message.
func records(p *positions) map[unsafe.Pointer]uint32 {
	out := map[unsafe.Pointer]uint32{}
	for i, k := range p.sorted {
		out[k] = p.sids[i]
	}
	for i, k := range p.keys {
		if _, ok := out[k]; !ok {
			out[k] = p.ids[i]
		}
	}
	return out
}

// walkSame compares the positions of a and b and of all they hold.
func walkSame(t *testing.T, ss, ps *Sources, a, b protoreflect.Message, pairs map[unsafe.Pointer]unsafe.Pointer) {
	t.Helper()
	ka, kb := msgKey(a.Interface()), msgKey(b.Interface())
	if _, seen := pairs[ka]; seen {
		return
	}
	pairs[ka] = kb
	if ss.Pos(a.Interface()) != ps.Pos(b.Interface()) {
		t.Fatalf("%s at %v / %v", a.Descriptor().FullName(), ss.Pos(a.Interface()), ps.Pos(b.Interface()))
	}
	fields := a.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		name := string(fd.Name())
		if ss.FieldPos(a.Interface(), name) != ps.FieldPos(b.Interface(), name) || ss.ValuePos(a.Interface(), name) != ps.ValuePos(b.Interface(), name) {
			t.Fatalf("%s.%s at %v / %v", a.Descriptor().FullName(), name, ss.FieldPos(a.Interface(), name), ps.FieldPos(b.Interface(), name))
		}
		if fd.Message() == nil || !a.Has(fd) {
			continue
		}
		switch {
		case fd.IsList():
			la, lb := a.Get(fd).List(), b.Get(fd).List()
			for j := range la.Len() {
				walkSame(t, ss, ps, la.Get(j).Message(), lb.Get(j).Message(), pairs)
			}
		case fd.IsMap():
			if fd.MapValue().Message() != nil {
				mb := b.Get(fd).Map()
				a.Get(fd).Map().Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
					walkSame(t, ss, ps, v.Message(), mb.Get(k).Message(), pairs)
					return true
				})
			}
		default:
			walkSame(t, ss, ps, a.Get(fd).Message(), b.Get(fd).Message(), pairs)
		}
	}
	if anyA, ok := a.Interface().(*anypb.Any); ok {
		ua, ub := ss.Unpacked(anyA), ps.Unpacked(b.Interface().(*anypb.Any))
		if (ua == nil) != (ub == nil) || ua != nil && !proto.Equal(ua, ub) {
			t.Fatalf("unpacked %s differs", anyA.GetTypeUrl())
		}
		if ua != nil {
			walkSame(t, ss, ps, ua.ProtoReflect(), ub.ProtoReflect(), pairs)
		}
	}
}

func TestParallelDecodeSameAsSequential(t *testing.T) {
	const n = 1200 // over parallelMin, at the top (clusters, routes) and nested (hosts)
	if n < 2*parallelMin {
		t.Fatalf("inputs too short for parallelMin %d", parallelMin)
	}
	defer func(m int) { maxRepeats = m }(maxRepeats)
	maxRepeats = 1 << 30 // every problem compared, none grouped
	inputs := []Input{
		{Path: "dump.yaml", Data: []byte(fanoutDump(n))},
		{Path: "big.json", Data: []byte(fanoutCluster(n))},
		{Path: "xds.json", Data: []byte(fanoutDiscovery(n))},
	}
	for _, in := range inputs {
		t.Run(in.Path, func(t *testing.T) {
			seq, par := loadBoth(t, []Input{in}, parallelMin)
			if len(seq.Problems) < n/10 {
				t.Fatalf("only %d problems: the input does not exercise them", len(seq.Problems))
			}
			sameDecode(t, seq, par)
		})
	}
	// Load sorts problems by position: the decoder's own order too.
	t.Run("problem order", func(t *testing.T) {
		defer func(p bool) { parallelDecode = p }(parallelDecode)
		raw := func(par bool) Problems {
			parallelDecode = par
			docs, _ := parseText("dump.yaml", fanoutDump(n), Limits{})
			d := &decoder{file: "dump.yaml", src: newSources(), lenient: true}
			d.src.addFile("dump.yaml", fanoutDump(n))
			d.message(docs[0], (&adminv3.ConfigDump{}).ProtoReflect())
			return d.probs
		}
		seq, par := raw(false), raw(true)
		if len(seq) < n/10 || !reflect.DeepEqual(seq, par) {
			t.Fatalf("%d problems / %d, or in another order", len(seq), len(par))
		}
	})
	t.Run("secrets", func(t *testing.T) {
		seq, _ := loadBoth(t, inputs[:1], parallelMin)
		if s := seq.Sources.Secrets(); !slices.Contains(s, "secret-key-00000003") || !slices.Contains(s, "Bearer tok-00000001") {
			t.Fatalf("secrets not recorded: %d values", len(s))
		}
		if len(seq.Sources.unpacked) < n {
			t.Fatalf("only %d Anys unpacked", len(seq.Sources.unpacked))
		}
	})
}

// TestParallelDecodeCorpus splits every list of two items or more, on the
// repository's fixtures and on the corpus (LBCTL_CORPUS, or beside the
// repository).
func TestParallelDecodeCorpus(t *testing.T) {
	dir := os.Getenv("LBCTL_CORPUS")
	if dir == "" {
		dir = corpusDir
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	fixtures, _ := filepath.Glob("../../fixtures/*/*")
	more, _ := filepath.Glob("../../fixtures/*/*/*")
	files = append(append(files, fixtures...), more...)
	n := 0
	for _, f := range files {
		if !yamlOrJSON(f) {
			continue
		}
		n++
		t.Run(f, func(t *testing.T) {
			seq, par := loadBoth(t, []Input{{Path: f}}, 2)
			sameDecode(t, seq, par)
		})
	}
	if n == 0 {
		t.Fatal("no fixtures")
	}
}
