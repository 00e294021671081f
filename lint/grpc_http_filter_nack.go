package lint

import (
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"
	"github.com/lbctl/lbctl/lbmodel/grpc"
)

// LB1712 grpc-http-filter-nack (GRPC-HTTP-FILTER-NACK).
var _ = register(&Rule{
	ID: "LB1712", Name: "grpc-http-filter-nack", Spec: "GRPC-HTTP-FILTER-NACK",
	Severity: map[Target]Severity{TargetGRPC: SevError},
	Doc: "An api_listener (a proxyless gRPC client's Listener) whose http_filters gRPC rejects, so it NACKs " +
		"the whole Listener and, with no earlier accepted version, every RPC fails: a filter that is not " +
		"is_optional and whose config type the client has no implementation for (grpc-go registers router " +
		"and fault; C-core also stateful_session and gcp_authn), or that is server-side only (rbac); a " +
		"filter without a name or with a repeated name; no filter left; or the router not last " +
		"(grpc-go processHTTPFilters in xdsresource/unmarshal_lds.go, C-core XdsHttpFilterRegistry). " +
		"lbctl model.GRPCListenerNACKs; explain " + option.Semantics.String() + " grpc shows no traffic for the clusters only " +
		"such listeners route to.",
	Hint: "Mark filters gRPC does not need is_optional: true, or serve gRPC clients a Listener with only the filters they implement and the router last.",
	Check: func(p *Pass) {
		type key struct {
			pos, reason string
		}
		found := map[key][]string{}
		var order []key
		var nacks []model.ListenerNACK
		for _, impl := range []grpc.Impl{grpc.GoImpl, grpc.CoreImpl} {
			for _, n := range model.GRPCListenerNACKs(p.Cfg, impl) {
				k := key{p.Cfg.Sources.Pos(n.At).String(), n.Reason}
				if _, ok := found[k]; !ok {
					order = append(order, k)
					nacks = append(nacks, n)
				}
				found[k] = append(found[k], impl.String())
			}
		}
		for i, k := range order {
			who, verb := found[k][0], "NACKs"
			if len(found[k]) == 2 {
				who, verb = "grpc-go and grpc-core", "NACK"
			}
			n := nacks[i]
			p.Report(p.Cfg.Sources.Pos(n.At), "listener %q: %s %s it: %s", n.Listener, who, verb, n.Reason)
		}
	},
})
