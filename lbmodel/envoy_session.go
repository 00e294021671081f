package lbmodel

import (
	"fmt"
	"slices"
	"strings"
)

// EnvoyDefaultOverrideHostStatus is the override_host_status Envoy uses
// when common_lb_config.override_host_status is unset
// (HostUtility::createOverrideHostStatus: UNKNOWN, HEALTHY, DEGRADED).
var EnvoyDefaultOverrideHostStatus = []HealthStatus{StatusUnknown, StatusHealthy, StatusDegraded}

// EnvoySessionResult is Envoy's answer for one request of a stateful
// session: "pick" (the session's host), "delegate" (the cluster's load
// balancer picks) or "fail" (strict mode, no valid host: 503).
type EnvoySessionResult struct {
	Result string
	Host   string
	Reason string
}

// EnvoySessionPick is Envoy's override-host selection for a request whose
// stateful session state (cookie or header) holds value
// (HostUtility::selectOverrideHost and allowLBChooseHost, called from
// ClusterEntry::chooseHost). The value is looked up as one address in the
// cluster's cross-priority host map (hosts of every priority, by address);
// the host is used when its health status is in overrideHostStatus (nil =
// EnvoyDefaultOverrideHostStatus). Otherwise the load balancer picks,
// unless the stateful_session filter is strict.
func EnvoySessionPick(value string, hosts []Host, overrideHostStatus []HealthStatus, strict bool) EnvoySessionResult {
	allowed := overrideHostStatus
	if allowed == nil {
		allowed = EnvoyDefaultOverrideHostStatus
	}
	miss := func(why string) EnvoySessionResult {
		if strict {
			return EnvoySessionResult{Result: "fail", Reason: why + "; the stateful_session filter is strict, so the request fails (503) instead of being load balanced"}
		}
		return EnvoySessionResult{Result: "delegate", Reason: why + ": the cluster's load balancer picks"}
	}
	if value == "" {
		return EnvoySessionResult{Result: "delegate", Reason: "no session state on the request: the cluster's load balancer picks"}
	}
	for _, h := range hosts {
		if h.Address != value {
			continue
		}
		if !slices.Contains(allowed, h.Status) {
			return miss(fmt.Sprintf("session host %s is %s, not in override_host_status [%s]", value, h.Status, statusList(allowed)))
		}
		return EnvoySessionResult{Result: "pick", Host: value,
			Reason: fmt.Sprintf("session host %s (P%d) is %s, in override_host_status [%s]", value, h.Priority, h.Status, statusList(allowed))}
	}
	if strings.Contains(value, ",") {
		return miss(fmt.Sprintf("Envoy's session state holds one address and %q is not a host of the cluster", value))
	}
	return miss(fmt.Sprintf("session host %s is not a host of the cluster", value))
}

func statusList(l []HealthStatus) string {
	s := make([]string, len(l))
	for i, h := range l {
		s[i] = h.String()
	}
	return strings.Join(s, ", ")
}
