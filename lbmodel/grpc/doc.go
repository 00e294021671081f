// Package grpc is proxyless gRPC's load-balancing arithmetic: xDS policy
// selection, priority failover, aggregate clusters, shares, stateful sessions
// (gRFC A75) and where gRPC's behaviour diverges from Envoy's.
package grpc
