package lbmodel

import "fmt"

// HealthStatus is an endpoint's EDS health_status (envoy.config.core.v3.HealthStatus),
// with the same numbering as the proto enum.
type HealthStatus int

const (
	StatusUnknown   HealthStatus = 0
	StatusHealthy   HealthStatus = 1
	StatusUnhealthy HealthStatus = 2
	StatusDraining  HealthStatus = 3
	StatusTimeout   HealthStatus = 4
	StatusDegraded  HealthStatus = 5
)

var statusNames = [...]string{"UNKNOWN", "HEALTHY", "UNHEALTHY", "DRAINING", "TIMEOUT", "DEGRADED"}

func (s HealthStatus) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("HealthStatus(%d)", int(s))
}

// ParseHealthStatus reads an EDS health_status name (upper case, as the proto enum).
func ParseHealthStatus(name string) (HealthStatus, bool) {
	for i, n := range statusNames {
		if n == name {
			return HealthStatus(i), true
		}
	}
	return 0, false
}

// Coarse is Envoy's coarse host health (Host::Health).
type Coarse int

const (
	Healthy Coarse = iota
	Degraded
	Unhealthy
)

func (c Coarse) String() string {
	switch c {
	case Healthy:
		return "healthy"
	case Degraded:
		return "degraded"
	}
	return "unhealthy"
}

// Coarse maps an EDS status to coarse health as HostImplBase::setEdsHealthFlag
// and coarseHealth (source/common/upstream/upstream_impl.cc) do: UNHEALTHY,
// TIMEOUT and DRAINING are unhealthy, DEGRADED is degraded, the rest healthy.
func (s HealthStatus) Coarse() Coarse {
	switch s {
	case StatusUnhealthy, StatusTimeout, StatusDraining:
		return Unhealthy
	case StatusDegraded:
		return Degraded
	}
	return Healthy
}

// Excluded reports whether Envoy keeps the host out of health denominators
// (excludeBasedOnHealthFlag: EDS_STATUS_DRAINING, default since about v1.31).
func (s HealthStatus) Excluded() bool { return s == StatusDraining }

// Locality is an endpoint group's region/zone/sub_zone.
type Locality struct {
	Region, Zone, SubZone string
}

func (l Locality) String() string {
	if l.SubZone != "" {
		return l.Region + "/" + l.Zone + "/" + l.SubZone
	}
	if l.Zone != "" || l.Region != "" {
		return l.Region + "/" + l.Zone
	}
	return ""
}

// Host is one upstream endpoint as the load balancer sees it.
type Host struct {
	// Address is written as Envoy writes it: ip:port, IPv6 as [ip]:port;
	// a pipe or internal address keeps its own form.
	Address  string
	Hostname string
	Priority int
	Locality Locality
	// LocalityWeight is the load_balancing_weight of the host's
	// LocalityLbEndpoints; 0 when unset or when that group has no locality
	// field (initializePriorityFor: has_locality() && has_load_balancing_weight();
	// an explicit empty locality {} counts).
	LocalityWeight uint32
	// Weight is the endpoint's load_balancing_weight; Envoy's default is 1.
	Weight uint32
	Status HealthStatus
	// Metadata is filter_metadata["envoy.lb"] as plain Go values
	// (nil, bool, float64, string, []any, map[string]any), as
	// google.protobuf.Struct holds them.
	Metadata map[string]any
}

// Health is the host's coarse health.
func (h Host) Health() Coarse { return h.Status.Coarse() }

// HostWeight is the effective load_balancing_weight: 0 means unset, i.e. 1.
func HostWeight(h Host) uint64 {
	if h.Weight == 0 {
		return 1
	}
	return uint64(h.Weight)
}
