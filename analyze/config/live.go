package config

import (
	adminv3 "github.com/envoyproxy/go-control-plane/envoy/admin/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"

	"github.com/lbctl/lbctl/lbmodel"
)

// LiveHost is a host as an admin /clusters dump reports it.
type LiveHost struct {
	Status   lbmodel.HealthStatus
	Priority int
	Weight   uint32
	// Requests is the host's rq_total counter: requests sent to it since
	// it was added (what --observe compares between two reads).
	Requests uint64
	// Locality and Hostname, for a cluster whose endpoints are known
	// only from /clusters (an EDS assignment not in the input).
	Locality lbmodel.Locality
	Hostname string
}

// liveStatus maps a host's admin health flags to the EDS status with the
// same effect on balancing (HostImplBase::coarseHealth and
// excludeBasedOnHealthFlag, upstream_impl.h): pending or immediately failed
// active health checks exclude the host like DRAINING does; failed checks
// make it unhealthy; a degraded check makes it degraded.
func liveStatus(h *adminv3.HostHealthStatus) lbmodel.HealthStatus {
	switch {
	case h.GetPendingActiveHc() || h.GetExcludedViaImmediateHcFail() || h.GetEdsHealthStatus() == corev3.HealthStatus_DRAINING:
		return lbmodel.StatusDraining
	case h.GetFailedActiveHealthCheck() || h.GetFailedOutlierCheck() || h.GetActiveHcTimeout():
		return lbmodel.StatusUnhealthy
	case h.GetEdsHealthStatus() == corev3.HealthStatus_UNHEALTHY || h.GetEdsHealthStatus() == corev3.HealthStatus_TIMEOUT:
		return lbmodel.StatusUnhealthy
	case h.GetFailedActiveDegradedCheck() || h.GetEdsHealthStatus() == corev3.HealthStatus_DEGRADED:
		return lbmodel.StatusDegraded
	}
	return lbmodel.StatusHealthy
}

func (l *collector) addLiveHealth(cs *adminv3.Clusters) {
	for _, c := range cs.GetClusterStatuses() {
		hosts := l.cfg.LiveHealth[c.GetName()]
		if hosts == nil {
			hosts = map[string]LiveHost{}
			l.cfg.LiveHealth[c.GetName()] = hosts
		}
		for _, h := range c.GetHostStatuses() {
			hosts[FormatAddress(h.GetAddress())] = LiveHost{
				Status:   liveStatus(h.GetHealthStatus()),
				Priority: int(h.GetPriority()),
				Weight:   h.GetWeight(),
				Requests: counter(h.GetStats(), "rq_total"),
				Locality: lbmodel.Locality{Region: h.GetLocality().GetRegion(), Zone: h.GetLocality().GetZone(), SubZone: h.GetLocality().GetSubZone()},
				Hostname: h.GetHostname(),
			}
		}
	}
}

// counter is the value of the named stat, 0 when absent.
func counter(stats []*adminv3.SimpleMetric, name string) uint64 {
	for _, m := range stats {
		if m.GetName() == name {
			return m.GetValue()
		}
	}
	return 0
}
