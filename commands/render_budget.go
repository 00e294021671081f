package commands

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/traffic"

	"github.com/lbctl/lbctl/lbmodel"
	"github.com/urfave/cli/v3"
)

// budgetOrderFlag is explain's --budget-order.
func budgetOrderFlag() cli.Flag {
	return &cli.StringFlag{Name: "budget-order", Value: "file",
		Usage:     "order in which failure budgets fail healthy hosts: file (last in file order first, as --set-health) or weight (heaviest first)",
		Validator: oneOf("budget-order", "file", "weight")}
}

func budgetOrder(cmd *cli.Command) lbmodel.FailOrder {
	if cmd.String("budget-order") == "weight" {
		return lbmodel.FailHeaviestFirst
	}
	return lbmodel.FailFileOrder
}

// renderBudgets writes one line per level: how many of its healthy hosts
// can fail before its traffic moves, it panics, and the cluster (or the
// aggregate) is in total panic or fails over.
func renderBudgets(t *Term, c traffic.ClusterReport) {
	var lines []string
	for _, p := range c.Priorities {
		if p.Budget != nil {
			lines = append(lines, budgetLine(t, fmt.Sprintf("P%d", p.Priority), p.Healthy, *p.Budget, nil))
		}
	}
	if a := c.Aggregate; a != nil {
		for _, l := range a.Levels {
			if l.Budget != nil {
				b := l.Budget
				lines = append(lines, budgetLine(t, fmt.Sprintf("%s/P%d", l.Cluster, l.Priority), -1, b.Budget, b.BeforeFailover))
			}
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintln(t.Out)
	fmt.Fprintln(t.Out, t.Style().Bold(true).Render("Failure budget")+t.Style().Faint(true).Render(" (healthy hosts of a level that can fail, all else unchanged)"))
	for _, l := range lines {
		fmt.Fprintln(t.Out, l)
	}
}

// budgetLine is "  P0 (5 healthy)  2 before spill · 5 before panic ·
// never total panic", broken between facts to fit the terminal.
func budgetLine(t *Term, level string, healthy int, b traffic.Budget, failover *int) string {
	n := func(v *int, what string) string {
		if v == nil {
			return "never " + what
		}
		return strconv.Itoa(*v) + " before " + what
	}
	facts := []string{n(b.BeforeSpill, "spill"), n(b.BeforePanic, "panic"), n(b.BeforeTotalPanic, "total panic")}
	if healthy < 0 { // an aggregate level
		facts = append(facts, n(failover, "failover"))
	}
	head := "  " + level
	if healthy >= 0 {
		head += fmt.Sprintf(" (%d healthy)", healthy)
	}
	return strings.Replace(headline(t, head+":", facts), "\n  ", "\n    ", -1)
}
