package explain

import (
	"fmt"

	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"
	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/lbmodel"
	"github.com/lbctl/lbctl/lbmodel/failure"
)

// addBudgets fills the failure budget of each priority of cr, cluster
// cl's report, from the model and input explain computed it from
// (--set-health applied). The levels are recomputed by lbmodel with one
// more host failed at a time, so the budgets carry Envoy's integer
// rounding.
func addBudgets(in lbmodel.ClusterInput, opt model.Options, cr *traffic.ClusterReport) error {
	bs := failure.ClusterBudgets(in, opt.BudgetOrder)
	if len(bs) > 0 && !cr.EndpointsMissing {
		cr.Notes = append(cr.Notes, orderNote(opt.BudgetOrder))
	}
	for i := range cr.Priorities {
		if p := cr.Priorities[i].Priority; p < len(bs) {
			b := budgetReport(bs[p])
			cr.Priorities[i].Budget = &b
		}
	}
	return addLocalityBudgets(in, opt.BudgetOrder, cr)
}

// addAggregateBudgets fills the budget of each linearized level of
// aggregate cluster m's report from its children's inputs (--set-health
// applied), as explainAggregate built them.
func addAggregateBudgets(m *model.Model, children []lbmodel.AggregateChildInput, opt model.Options, cr *traffic.ClusterReport) {
	if cr.Aggregate == nil {
		return
	}
	bs := failure.AggregateBudgets(children, m.PanicThreshold, opt.BudgetOrder)
	if !cr.EndpointsMissing {
		cr.Notes = append(cr.Notes, orderNote(opt.BudgetOrder))
	}
	for i := range cr.Aggregate.Levels {
		if i < len(bs) {
			cr.Aggregate.Levels[i].Budget = &traffic.AggregateBudget{Budget: budgetReport(bs[i].Budget), BeforeFailover: bs[i].BeforeFailover}
		}
	}
}

// addLocalityBudgets fills the budget of each locality explain lists
// (locality-weighted or zone-aware clusters).
func addLocalityBudgets(in lbmodel.ClusterInput, order failure.FailOrder, cr *traffic.ClusterReport) error {
	listed := false
	for _, p := range cr.Priorities {
		listed = listed || len(p.Localities) > 0
	}
	if !listed {
		return nil
	}
	lbs, ok, err := failure.LocalityBudgets(in, order)
	if err != nil {
		return err
	}
	if !ok {
		cr.Notes = append(cr.Notes, "locality failure budgets are left out: the cluster is too large to recompute once per host failure")
		return nil
	}
	for i := range cr.Priorities {
		p := cr.Priorities[i].Priority
		for j := range cr.Priorities[i].Localities {
			if p < len(lbs) && j < len(lbs[p]) {
				lb := lbs[p][j]
				cr.Priorities[i].Localities[j].Budget = &traffic.LocalityBudget{Budget: budgetReport(lb.Budget), BeforeShift: lb.BeforeShift}
			}
		}
	}
	cr.Notes = append(cr.Notes, fmt.Sprintf("a locality's failure budget fails that locality's healthy hosts alone (the last in file order first unless %s weight); "+
		"with %s it can be checked for the locality whose hosts come last in its priority", option.BudgetOrder, option.SetHealth))
	return nil
}

// orderNote says in which order the budgets fail hosts.
func orderNote(o failure.FailOrder) string {
	if o == failure.FailHeaviestFirst {
		return fmt.Sprintf("failure budgets fail each level's healthy hosts heaviest first (%s weight; equal weights: the last in file order first)", option.BudgetOrder)
	}
	return fmt.Sprintf("failure budgets fail each level's healthy hosts the last in file order first, as %s removes them; check one with %s CLUSTER/PRIORITY=HEALTHY/TOTAL", option.SetHealth, option.SetHealth)
}

func budgetReport(b failure.Budget) traffic.Budget {
	return traffic.Budget{BeforeSpill: b.BeforeSpill, BeforePanic: b.BeforePanic, BeforeTotalPanic: b.BeforeTotalPanic}
}
