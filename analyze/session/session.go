// Package session answers which host a request of an Envoy stateful
// session goes to (the stateful_session HTTP filter and the cluster's
// override_host_status). gRPC's answer (gRFC A75) is analyze/proxyless's.
package session

import (
	"fmt"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"

	"github.com/lbctl/lbctl/lbmodel"
)

// Report is Envoy's answer for one request carrying session state.
type Report struct {
	Result             string   `json:"result" yaml:"result"` // pick | delegate | fail
	Host               *string  `json:"host" yaml:"host"`
	Reason             string   `json:"reason" yaml:"reason"`
	Strict             bool     `json:"strict" yaml:"strict"`
	OverrideHostStatus []string `json:"override_host_status" yaml:"override_host_status"`
	// Filter is where the stateful_session filter was found, "" if none.
	Filter string   `json:"filter" yaml:"filter"`
	Notes  []string `json:"notes" yaml:"notes"`
}

// Envoy answers for a request whose session state holds cookie's
// addresses (Envoy's cookie and header session states hold one address,
// so more than one is a value no host has).
func Envoy(c *config.Config, cl *config.Cluster, cookie []string, opt model.Options) (*Report, error) {
	m, _, err := model.With(c, cl, opt)
	if err != nil {
		return nil, err
	}
	rep := &Report{Notes: []string{}, OverrideHostStatus: []string{}}
	var allowed []lbmodel.HealthStatus
	if set := cl.Proto.GetCommonLbConfig().GetOverrideHostStatus(); set != nil {
		allowed = []lbmodel.HealthStatus{}
		for _, s := range set.GetStatuses() {
			allowed = append(allowed, lbmodel.HealthStatus(s))
		}
	} else {
		allowed = lbmodel.EnvoyDefaultOverrideHostStatus
	}
	for _, s := range allowed {
		rep.OverrideHostStatus = append(rep.OverrideHostStatus, s.String())
	}
	filters := statefulSessions(c)
	if len(filters) == 0 {
		rep.Notes = append(rep.Notes, "no stateful_session HTTP filter in the loaded listeners: without one Envoy sets no override host and the load balancer picks; the answer assumes a non-strict filter")
	} else {
		rep.Strict, rep.Filter = filters[0].strict, filters[0].where
		for _, f := range filters[1:] {
			if f.strict != rep.Strict {
				rep.Notes = append(rep.Notes, fmt.Sprintf("the stateful_session filters disagree on strict (%s: %v, %s: %v); the answer uses the first", rep.Filter, rep.Strict, f.where, f.strict))
				break
			}
		}
	}
	if model.IsHashPolicy(m.Policy) || m.IsAggregate {
		rep.Notes = append(rep.Notes, "Envoy checks the override host before the cluster's load balancer runs, whatever its policy")
	}
	res := lbmodel.EnvoySessionPick(strings.Join(cookie, ","), m.Hosts, allowed, rep.Strict)
	rep.Result, rep.Reason = res.Result, res.Reason
	if res.Host != "" {
		h := res.Host
		rep.Host = &h
	}
	return rep, nil
}

type filter struct {
	where  string
	strict bool
}

// statefulSessions is model.StatefulSessions with where each is written.
func statefulSessions(c *config.Config) []filter {
	var out []filter
	for _, ss := range model.StatefulSessions(c) {
		if ss.Config != nil {
			out = append(out, filter{where: c.Sources.Pos(ss.Filter).String(), strict: ss.Config.GetStrict()})
		}
	}
	return out
}
