package model

import "github.com/lbctl/lbctl/analyze/config"

// locate finds every position e's reports read in one pass over the
// sources: its settings', its subset setup's and its problems' (sub).
func (e *Entry) locate(c *config.Config, cl *config.Cluster, sub placed) {
	own := e.Settings.places(cl)
	at := sub.places()
	places := append(own[:], at...)
	if e.Subset != nil {
		places = append(places, e.Subset.at)
	}
	var buf [8]config.Pos
	got := c.Sources.AppendPlaces(buf[:0], places)
	e.Settings.setPos(got[:len(own)])
	e.SubsetProblems = sub.positioned(got[len(own) : len(own)+len(at)])
	if e.Subset != nil {
		e.Subset.Pos = got[len(got)-1]
	}
}

// SettingsPos is where a cluster's settings are written; each falls back
// to the cluster when its message has no position.
type SettingsPos struct {
	Cluster  config.Pos
	Rejected config.Pos // RejectedAt
	Ring     config.Pos // RingFrom
	Maglev   config.Pos // MaglevFrom's table_size
}

// places are the places SettingsPos is read from, in its order.
func (s *LBSettings) places(cl *config.Cluster) [4]config.Place {
	return [4]config.Place{{Msg: cl.Proto}, {Msg: s.RejectedAt}, {Msg: s.RingFrom}, {Msg: s.MaglevFrom, Field: "table_size", Value: true}}
}

// setPos sets Pos from the positions of places.
func (s *LBSettings) setPos(got []config.Pos) {
	p := SettingsPos{Cluster: got[0], Rejected: got[1], Ring: got[0], Maglev: got[0]}
	if p.Rejected.File == "" {
		p.Rejected = p.Cluster
	}
	if s.RingFrom != nil {
		p.Ring = got[2]
	}
	if s.MaglevFrom != nil {
		p.Maglev = got[3]
	}
	s.Pos = p
}

// placed are problems before their positions are found: each at is
// found with the cluster's other places in one pass (Entry.locate).
type placed []placedProblem

type placedProblem struct {
	at config.Place
	config.Problem
}

// places are where the problems are, in order.
func (p placed) places() []config.Place {
	out := make([]config.Place, len(p))
	for i := range p {
		out[i] = p[i].at
	}
	return out
}

// positioned is the problems at got (the positions of places).
func (p placed) positioned(got []config.Pos) config.Problems {
	out := make(config.Problems, len(p))
	for i := range p {
		out[i] = p[i].Problem
		out[i].Pos = got[i]
	}
	return out
}
