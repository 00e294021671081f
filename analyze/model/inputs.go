package model

import (
	"fmt"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/lbmodel"
)

// ClusterInputOf is cl's lbmodel input with opt's what-ifs applied: what
// explain computes a plain cluster from.
func ClusterInputOf(c *config.Config, cl *config.Cluster, opt Options) (lbmodel.ClusterInput, error) {
	e := Lookup(c, cl)
	m, _, err := e.With(opt)
	if err != nil {
		return lbmodel.ClusterInput{}, err
	}
	in, _, err := Input(cl, m, e.Settings, LocalOf(c, opt), opt)
	return in, err
}

// AggregateInputs is the input of each of aggregate cluster m's children,
// in order, as explain builds them: a missing child and a nested aggregate
// carry only their kind.
func AggregateInputs(c *config.Config, m *Model, opt Options) ([]lbmodel.AggregateChildInput, error) {
	children := make([]lbmodel.AggregateChildInput, len(m.Aggregate))
	for i, name := range m.Aggregate {
		children[i] = lbmodel.AggregateChildInput{Name: name}
		ccl := c.Cluster(name)
		switch {
		case ccl == nil:
			children[i].Kind = lbmodel.ChildMissing
			continue
		case IsAggregate(ccl):
			children[i].Kind = lbmodel.ChildAggregate
			continue
		}
		in, err := ClusterInputOf(c, ccl, opt)
		if err != nil {
			return nil, fmt.Errorf("child %q: %w", name, err)
		}
		children[i].Cluster = in
	}
	return children, nil
}
