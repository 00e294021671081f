package grpc

import (
	"fmt"
	"strings"
	"time"

	"github.com/lbctl/lbctl/lbmodel"
)

// Connectivity is a gRPC connectivity state. ConnNone means "no state":
// for a priority child, derive it from its endpoints; for a session
// endpoint, the address has no subchannel.
type Connectivity int

const (
	ConnNone Connectivity = iota
	ConnIdle
	ConnConnecting
	ConnReady
	ConnTransientFailure
)

var connNames = [...]string{"NONE", "IDLE", "CONNECTING", "READY", "TRANSIENT_FAILURE"}

func (c Connectivity) String() string {
	if c >= 0 && int(c) < len(connNames) {
		return connNames[c]
	}
	return fmt.Sprintf("Connectivity(%d)", int(c))
}

// ParseConnectivity reads a state name as the session command takes it.
func ParseConnectivity(s string) (Connectivity, error) {
	for i, n := range connNames {
		if strings.EqualFold(n, s) {
			return Connectivity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown connectivity state %q (want READY, IDLE, CONNECTING, TRANSIENT_FAILURE or NONE)", s)
}

// PriorityFailoverTimeout is the priority policy's per-child failover
// timer (A56; grpc-go DefaultPriorityInitTimeout). It starts when the child
// is created, and again when the child goes to CONNECTING having reported
// READY or IDLE more recently than TRANSIENT_FAILURE; READY, IDLE and
// TRANSIENT_FAILURE cancel it. While it runs the policy waits on that child.
const PriorityFailoverTimeout = 10 * time.Second

// PriorityChildRetention is how long a deactivated (lower) priority
// child lingers before it is destroyed (A56 "Child Lifetime Management").
const PriorityChildRetention = 15 * time.Minute

// PriorityChild is one priority as gRPC's priority policy sees it: a
// leaf cluster's EDS priority, in the flattened order (grpc.md §2.2).
type PriorityChild struct {
	Name string // e.g. "cluster/priority-0", for reasons
	// Usable counts endpoints gRPC keeps (HEALTHY or UNKNOWN, in a
	// locality with non-zero weight).
	Usable int
	// State is the child's reported state; ConnNone derives it: READY when
	// Usable > 0, else TRANSIENT_FAILURE (an empty child fails at once).
	State Connectivity
	// FailoverTimerPending: the child's 10 s timer is still running. Only
	// meaningful in CONNECTING (other states cancel the timer).
	FailoverTimerPending bool
}

// PriorityChoice is the priority gRPC routes every RPC to.
type PriorityChoice struct {
	// Chosen is the index of the child in use, -1 for an empty list.
	Chosen int
	// State is the chosen child's state: READY or IDLE serve RPCs,
	// CONNECTING queues them, TRANSIENT_FAILURE fails them.
	State Connectivity
	// Load has Envoy's shape: the chosen level carries HealthyLoad 100,
	// every other level 0. gRPC computes no health, no overprovisioning
	// factor and no panic, so those fields stay zero.
	Load   lbmodel.PriorityLoad
	Reason string
}

func (c PriorityChild) state() Connectivity {
	if c.State != ConnNone {
		return c.State
	}
	if c.Usable > 0 {
		return ConnReady
	}
	return ConnTransientFailure
}

// ChoosePriority runs the priority policy's choice.
//
// C-core and the A56 pseudo-code (ChoosePriority): the first child READY or
// IDLE, else whose failover timer is pending; failing that the first child
// in CONNECTING; failing that the last child. grpc-go
// (internal/xds/balancer/priority/balancer_priority.go syncPriority) does a
// single pass: the first child READY, IDLE, or CONNECTING with its init timer
// running, else the last child; it has no second CONNECTING pass.
//
// All traffic goes to one priority: no spill-over, no overprovisioning factor
// (gRPC advertises envoy.lb.does_not_support_overprovisioning), no panic.
func ChoosePriority(children []PriorityChild, impl Impl) PriorityChoice {
	n := len(children)
	out := PriorityChoice{Chosen: -1, Load: lbmodel.PriorityLoad{Levels: make([]lbmodel.LevelLoad, n)}}
	if n == 0 {
		out.State = ConnTransientFailure
		out.Reason = "priority policy has empty priority list: RPCs fail UNAVAILABLE"
		return out
	}
	pick := func(i int, why string) PriorityChoice {
		out.Chosen, out.State = i, children[i].state()
		out.Load.Levels[i].HealthyLoad = 100
		out.Reason = fmt.Sprintf("%s: %s", label(children, i), why)
		return out
	}
	for i, c := range children {
		switch s := c.state(); {
		case s == ConnReady || s == ConnIdle:
			return pick(i, "first priority in "+s.String()+"; lower priorities deactivated")
		case s == ConnConnecting && c.FailoverTimerPending:
			return pick(i, "CONNECTING with its failover timer (10 s) running: waiting before failing over")
		}
	}
	if impl == CoreImpl {
		for i, c := range children {
			if c.state() == ConnConnecting {
				return pick(i, "no priority READY, IDLE or with a pending timer; first in CONNECTING (RPCs queue)")
			}
		}
	}
	return pick(n-1, "no priority usable: the last priority is used and its picker decides ("+children[n-1].state().String()+")")
}

func label(children []PriorityChild, i int) string {
	if children[i].Name != "" {
		return children[i].Name
	}
	return fmt.Sprintf("priority %d", i)
}
