package model

import (
	"strings"
	"testing"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel/grpc"
)

func listenerDoc(filters string) string {
	return `name: lis
api_listener:
  api_listener:
    "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
    route_config:
      virtual_hosts:
      - name: vh
        domains: ["*"]
        routes:
        - match: {prefix: ""}
          route: {weighted_clusters: {clusters: [{name: a, weight: 1}, {name: b, weight: 1}]}}
    http_filters:` + filters
}

const (
	router  = "\n    - {name: r, typed_config: {\"@type\": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router}}"
	fault   = "\n    - {name: f, typed_config: {\"@type\": type.googleapis.com/envoy.extensions.filters.http.fault.v3.HTTPFault}}"
	session = "\n    - {name: s, typed_config: {\"@type\": type.googleapis.com/envoy.extensions.filters.http.stateful_session.v3.StatefulSession}}"
	rbac    = "\n    - {name: z, typed_config: {\"@type\": type.googleapis.com/envoy.extensions.filters.http.rbac.v3.RBAC}}"
	typed   = "\n    - {name: t, typed_config: {\"@type\": type.googleapis.com/xds.type.v3.TypedStruct, type_url: type.googleapis.com/envoy.extensions.filters.http.fault.v3.HTTPFault}}"
)

// processHTTPFilters (grpc-go unmarshal_lds.go) and C-core's registry:
// each case is the reason grpc-go and C-core give ("" = accepted).
func TestGRPCListenerNACKs(t *testing.T) {
	cases := []struct {
		name, filters, goWhy, coreWhy string
	}{
		{"router only", router, "", ""},
		{"fault then router", fault + router, "", ""},
		{"typed struct fault", typed + router, "", ""},
		{"stateful_session: C-core only", session + router, `no filter implementation found for "envoy.extensions.filters.http.stateful_session.v3.StatefulSession"`, ""},
		{"optional unknown skipped", strings.Replace(session, "{name: s,", "{name: s, is_optional: true,", 1) + router, "", ""},
		{"rbac is server-side", rbac + router, "is not supported client-side", "is not supported client-side"},
		{"empty", " []\n", "the HTTP filter list is empty", "the HTTP filter list is empty"},
		{"router not last", router + fault, `"r" is a terminal filter but it is not last`, `"r" is a terminal filter but it is not last`},
		{"no router", fault, `"f" is not a terminal filter`, `"f" is not a terminal filter`},
		{"duplicate", router + router, `duplicate HTTP filter name "r"`, `duplicate HTTP filter name "r"`},
	}
	for _, tc := range cases {
		cfg, err := config.LoadBytes("l.yaml", []byte(listenerDoc(tc.filters)), "")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for impl, want := range map[grpc.Impl]string{grpc.GoImpl: tc.goWhy, grpc.CoreImpl: tc.coreWhy} {
			got := GRPCListenerNACKs(cfg, impl)
			switch {
			case want == "" && len(got) != 0:
				t.Errorf("%s, %s: NACK %q", tc.name, impl, got[0].Reason)
			case want != "" && (len(got) != 1 || !strings.Contains(got[0].Reason, want)):
				t.Errorf("%s, %s: got %+v, want a NACK with %q", tc.name, impl, got, want)
			case want != "" && strings.Join(got[0].Clusters, ",") != "a,b":
				t.Errorf("%s: clusters %v", tc.name, got[0].Clusters)
			}
		}
	}
}
