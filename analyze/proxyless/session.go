package proxyless

import (
	"fmt"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"
	"github.com/lbctl/lbctl/analyze/traffic"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/grpc"
)

// SessionOptions are `lbctl session`'s inputs.
type SessionOptions struct {
	model.Options
	// Cookie lists the session cookie's addresses in order.
	Cookie []string
	// States sets subchannel states by endpoint address; see Session for
	// the default.
	States map[string]grpc.Connectivity
	// Ready sets priorities' connectivity, as for explain.
	Ready []ReadyOverride
}

// SessionEndpoint is one entry of xds_override_host's address map.
type SessionEndpoint struct {
	Address  string `json:"address" yaml:"address"`
	Priority int    `json:"priority" yaml:"priority"`
	Health   string `json:"health" yaml:"health"`
	State    string `json:"state" yaml:"state"`
}

// SessionReport is `lbctl session`'s result (contract: result, host,
// action, reason; the rest says what the pick was computed from).
type SessionReport struct {
	Cluster            string            `json:"cluster" yaml:"cluster"`
	Result             string            `json:"result" yaml:"result"`
	Host               *string           `json:"host" yaml:"host"`
	Action             string            `json:"action" yaml:"action"`
	Reason             string            `json:"reason" yaml:"reason"`
	OverrideHostStatus []string          `json:"override_host_status" yaml:"override_host_status"`
	IdleTimeout        string            `json:"idle_timeout" yaml:"idle_timeout"`
	IdleTimeoutSeconds float64           `json:"idle_timeout_seconds" yaml:"idle_timeout_seconds"`
	Endpoints          []SessionEndpoint `json:"endpoints" yaml:"endpoints"`
	Notes              []string          `json:"notes" yaml:"notes"`
}

// Session runs gRFC A75's xds_override_host pick (C-core; grpc-go has no
// stateful session affinity) for a request carrying opt.Cookie.
//
// The address map holds every endpoint of the cluster, all priorities
// (post-A75 the policy sits above the priority policy). By default an
// endpoint gRPC uses (HEALTHY or UNKNOWN, weighted locality) in the
// priority gRPC routes to has a READY subchannel, owned by the child
// policy; every other endpoint has none. --state overrides either.
func Session(c *config.Config, cl *config.Cluster, opt SessionOptions) (*SessionReport, error) {
	m := model.Get(c, cl)
	if m.IsAggregate {
		return nil, fmt.Errorf("%s is an aggregate cluster: after gRFC A75 session affinity works per leaf cluster (its xds_override_host sits above that cluster's priorities); run session with %s set to one of %s", cl.Name(), option.Cluster, strings.Join(m.Aggregate, ", "))
	}
	cds := grpcCDSOf(c, cl, grpc.CoreImpl)
	if cds.nack != "" {
		return nil, fmt.Errorf("gRPC (C-core) NACKs cluster %s: %s", cl.Name(), cds.nack)
	}
	idle, err := grpc.SessionIdleTimeout(model.IdleTimeoutInput(cl.Proto))
	if err != nil {
		return nil, err
	}
	leaf, err := grpcLeafOf(c, cl, cds.kind == grpc.ClusterLogicalDNS, opt.Options)
	if err != nil {
		return nil, err
	}
	rep := &SessionReport{Cluster: cl.Name(), IdleTimeout: idle.String(), IdleTimeoutSeconds: idle.Seconds(),
		Endpoints: []SessionEndpoint{}, Notes: []string{}, OverrideHostStatus: []string{}}
	note := func(format string, args ...any) { rep.Notes = append(rep.Notes, fmt.Sprintf(format, args...)) }

	var allowed []lbmodel.HealthStatus
	if set := cl.Proto.GetCommonLbConfig().GetOverrideHostStatus(); set != nil {
		allowed = []lbmodel.HealthStatus{}
		for _, s := range set.GetStatuses() {
			hs := lbmodel.HealthStatus(s)
			if hs == lbmodel.StatusUnknown || hs == lbmodel.StatusHealthy || hs == lbmodel.StatusDraining {
				allowed = append(allowed, hs)
			} else {
				note("override_host_status %s is ignored: gRPC understands only UNKNOWN, HEALTHY and DRAINING", hs)
			}
		}
	} else {
		note("override_host_status is unset: gRPC uses [UNKNOWN, HEALTHY] (Envoy's default adds DEGRADED)")
	}
	for _, s := range allowed {
		rep.OverrideHostStatus = append(rep.OverrideHostStatus, s.String())
	}
	if allowed == nil {
		for _, s := range grpc.DefaultOverrideHostStatus {
			rep.OverrideHostStatus = append(rep.OverrideHostStatus, s.String())
		}
	}
	if _, ok := cl.Proto.GetTypedExtensionProtocolOptions()[model.HTTPProtocolOptionsType]; ok && cl.Proto.GetUpstreamConfig() == nil {
		note("the idle_timeout in typed_extension_protocol_options is Envoy's; gRPC reads it only from upstream_config, so the session idle timeout is the %s default", grpc.DefaultSessionIdleTimeout)
	}

	// The priority gRPC routes to, with --ready applied.
	r := grpcRun{c: c, opt: GRPCOptions{Options: opt.Options, Impl: grpc.CoreImpl, Ready: opt.Ready}, cr: &traffic.ClusterReport{}}
	lvs := r.levels(leaf, cds.policy, cds.failure)
	children := make([]grpc.PriorityChild, len(lvs))
	for i, lv := range lvs {
		children[i] = grpc.PriorityChild{Name: lv.name(), Usable: lv.usable}
		for _, o := range opt.Ready {
			if o.Cluster == leaf.name && (o.Priority < 0 || o.Priority == lv.priority) {
				children[i].State = o.State
			}
		}
	}
	choice := grpc.ChoosePriority(children, grpc.CoreImpl)
	active := -1
	if choice.Chosen >= 0 && leaf.nack == "" && leaf.priorities > 0 {
		active = lvs[choice.Chosen].priority
	}

	known := map[string]bool{}
	eps := make([]grpc.SessionEndpoint, 0, len(leaf.hosts))
	addrs := endpointAddresses(c, cl)
	for _, h := range leaf.hosts {
		st := grpc.ConnNone
		if h.Priority == active && h.LocalityWeight > 0 && grpc.KeepsEndpoint(h.Status) {
			st = grpc.ConnReady
		}
		list := addrs[h.Address]
		if len(list) == 0 {
			list = []string{h.Address}
		}
		for _, a := range list {
			known[a] = true
			if s, ok := opt.States[a]; ok {
				st = s
			}
		}
		eps = append(eps, grpc.SessionEndpoint{Addresses: list, Status: h.Status, State: st})
		rep.Endpoints = append(rep.Endpoints, SessionEndpoint{Address: h.Address, Priority: h.Priority, Health: h.Status.String(), State: st.String()})
	}
	for a := range opt.States {
		if !known[a] {
			return nil, fmt.Errorf("%s %s: not an endpoint address of cluster %s", option.State, a, cl.Name())
		}
	}
	res := grpc.SessionPick(opt.Cookie, eps, allowed)
	rep.Result, rep.Action, rep.Reason = res.Result, res.Action, res.Reason
	if res.Host != "" {
		h := res.Host
		rep.Host = &h
	}
	if res.Result == "delegate" {
		note("the child policy picks within %s: %s", cl.Name(), choice.Reason)
	}
	note("grpc-go does not implement xds_override_host: it ignores the cookie and its child policy picks")
	note("entries without a recent session use are dropped after idle_timeout %s", idle)
	return rep, nil
}

// endpointAddresses maps each endpoint's address to its full address list
// (the address, then additional_addresses; gRFC A61).
func endpointAddresses(c *config.Config, cl *config.Cluster) map[string][]string {
	out := map[string][]string{}
	for _, g := range cl.Assignment.GetEndpoints() {
		for _, ep := range g.GetLbEndpoints() {
			first := config.FormatAddress(ep.GetEndpoint().GetAddress())
			if _, dup := out[first]; dup {
				continue
			}
			list := []string{first}
			for _, aa := range ep.GetEndpoint().GetAdditionalAddresses() {
				list = append(list, config.FormatAddress(aa.GetAddress()))
			}
			out[first] = list
		}
	}
	return out
}
