package grpc

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/lbctl/lbctl/lbmodel"
)

// SessionEndpoint is one entry of xds_override_host's address map: an
// endpoint of the cluster (any priority, post-A75) with its EDS health and
// its subchannel's state (ConnNone: the entry has no subchannel).
type SessionEndpoint struct {
	// Addresses: the endpoint's address list (first address plus
	// additional_addresses); a cookie entry matches any of them.
	Addresses []string
	Status    lbmodel.HealthStatus
	State     Connectivity
}

// SessionResult is the override-host picker's decision (contract
// `session`). Result is "pick", "queue" or "delegate"; Action is "",
// "connect" or "create_subchannel"; Host is "" when none is named.
type SessionResult struct {
	Result, Host, Action, Reason string
}

// DefaultOverrideHostStatus is the override_host_status gRPC uses when
// common_lb_config.override_host_status is unset: UNKNOWN and HEALTHY
// (C-core xds_cluster_parser; Envoy's default adds DEGRADED). gRPC only
// understands UNKNOWN, HEALTHY and DRAINING in that set.
var DefaultOverrideHostStatus = []lbmodel.HealthStatus{lbmodel.StatusUnknown, lbmodel.StatusHealthy}

// SessionPick is the xds_override_host picker of gRFC A75 ("Changes in
// xds_override_host LB Policy", pseudo-code Pick), for a request whose
// session cookie lists cookie addresses in order.
//
// Walking the cookie: an entry found in the map whose health is in
// overrideHostStatus (nil = DefaultOverrideHostStatus) and whose
// subchannel is READY is picked at once; otherwise the first IDLE one gets a
// connection attempt and the pick queues; else any CONNECTING one makes the
// pick queue; else the first entry without a subchannel gets one created and
// the pick queues; else (TRANSIENT_FAILURE only, nothing matching, or no
// cookie) the child policy picks ("delegate").
func SessionPick(cookie []string, endpoints []SessionEndpoint, overrideHostStatus []lbmodel.HealthStatus) SessionResult {
	if len(cookie) == 0 {
		return SessionResult{Result: "delegate", Reason: "no session cookie: the child policy picks"}
	}
	allowed := overrideHostStatus
	if allowed == nil {
		allowed = DefaultOverrideHostStatus
	}
	byAddr := map[string]int{}
	for i, e := range endpoints {
		for _, a := range e.Addresses {
			if _, dup := byAddr[a]; !dup {
				byAddr[a] = i
			}
		}
	}
	idle, noSubchannel := "", ""
	var connecting, skipped []string
	for _, addr := range cookie {
		i, found := byAddr[addr]
		if !found {
			skipped = append(skipped, addr+" (not an endpoint of the cluster)")
			continue
		}
		e := endpoints[i]
		if !slices.Contains(allowed, e.Status) {
			skipped = append(skipped, fmt.Sprintf("%s (health %s not in override_host_status)", addr, e.Status))
			continue
		}
		switch e.State {
		case ConnReady:
			return SessionResult{Result: "pick", Host: addr,
				Reason: fmt.Sprintf("cookie address %s has a READY subchannel", addr)}
		case ConnIdle:
			if idle == "" {
				idle = addr
			}
		case ConnConnecting:
			connecting = append(connecting, addr)
		case ConnNone:
			if noSubchannel == "" {
				noSubchannel = addr
			}
		default:
			skipped = append(skipped, addr+" (TRANSIENT_FAILURE)")
		}
	}
	switch {
	case idle != "":
		return SessionResult{Result: "queue", Host: idle, Action: "connect",
			Reason: fmt.Sprintf("no READY cookie address; %s is IDLE: a connection attempt is triggered and the pick queues", idle)}
	case len(connecting) > 0:
		return SessionResult{Result: "queue",
			Reason: fmt.Sprintf("no READY or IDLE cookie address; waiting for CONNECTING %s", strings.Join(connecting, ", "))}
	case noSubchannel != "":
		return SessionResult{Result: "queue", Host: noSubchannel, Action: "create_subchannel",
			Reason: fmt.Sprintf("no READY, IDLE or CONNECTING cookie address; a subchannel is created for %s and the pick queues", noSubchannel)}
	}
	reason := "no usable cookie address: the child policy picks"
	if len(skipped) > 0 {
		reason += "; skipped " + strings.Join(skipped, ", ")
	}
	return SessionResult{Result: "delegate", Reason: reason}
}

// DefaultSessionIdleTimeout is A75's idle_timeout default: 1 hour.
const DefaultSessionIdleTimeout = time.Hour

// IdleTimeoutInput describes Cluster.upstream_config as A75 reads it.
type IdleTimeoutInput struct {
	// UpstreamConfigSet: Cluster.upstream_config is present; TypeURL is its
	// Any type (with or without the type.googleapis.com/ prefix).
	UpstreamConfigSet bool
	TypeURL           string
	// CommonHTTPOptionsSet: HttpProtocolOptions.common_http_protocol_options
	// is present; IdleTimeoutSet: its idle_timeout is set to Seconds/Nanos.
	CommonHTTPOptionsSet bool
	IdleTimeoutSet       bool
	Seconds              int64
	Nanos                int32
}

const httpProtocolOptionsType = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions"

// SessionIdleTimeout validates and returns A75's idle_timeout ("Reading
// the idle_timeout field in CDS", C-core xds_cluster_parser): upstream_config
// absent, common_http_protocol_options absent or idle_timeout unset give the
// 1 h default; an upstream_config of another type, seconds outside
// [0, 315576000000] or nanos outside [0, 999999999] NACK the cluster (the
// returned error). Values beyond time.Duration's range saturate.
func SessionIdleTimeout(in IdleTimeoutInput) (time.Duration, error) {
	if !in.UpstreamConfigSet {
		return DefaultSessionIdleTimeout, nil
	}
	if strings.TrimPrefix(in.TypeURL, "type.googleapis.com/") != httpProtocolOptionsType {
		return 0, fmt.Errorf("upstream_config: unsupported type %q (gRPC requires %s)", in.TypeURL, httpProtocolOptionsType)
	}
	if !in.CommonHTTPOptionsSet || !in.IdleTimeoutSet {
		return DefaultSessionIdleTimeout, nil
	}
	if in.Seconds < 0 || in.Seconds > 315576000000 {
		return 0, fmt.Errorf("idle_timeout: seconds %d outside [0, 315576000000]", in.Seconds)
	}
	if in.Nanos < 0 || in.Nanos > 999999999 {
		return 0, fmt.Errorf("idle_timeout: nanos %d outside [0, 999999999]", in.Nanos)
	}
	if in.Seconds > (math.MaxInt64-int64(in.Nanos))/int64(time.Second) {
		return time.Duration(math.MaxInt64), nil
	}
	return time.Duration(in.Seconds)*time.Second + time.Duration(in.Nanos), nil
}
