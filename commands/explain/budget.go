package explain

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/term"

	"github.com/lbctl/lbctl/lbmodel/failure"
	"github.com/urfave/cli/v3"
)

// budgetOrderFlag is explain's --budget-order.
func budgetOrderFlag() cli.Flag {
	return &cli.StringFlag{Name: "budget-order", Value: "file",
		Usage:     "order in which failure budgets fail healthy hosts: file (last in file order first, as --set-health) or weight (heaviest first)",
		Validator: cmdutil.OneOf("budget-order", "file", "weight")}
}

func budgetOrder(cmd *cli.Command) failure.FailOrder {
	if cmd.String("budget-order") == "weight" {
		return failure.FailHeaviestFirst
	}
	return failure.FailFileOrder
}

// renderBudgets writes one line per level: how many of its healthy hosts
// can fail before its traffic moves, it panics, and the cluster (or the
// aggregate) is in total panic or fails over; under each priority, one
// line per locality (its hosts failing alone).
func renderBudgets(t *term.IO, c traffic.ClusterReport) {
	var lines []string
	for _, p := range c.Priorities {
		if p.Budget != nil {
			lines = append(lines, budgetLine(t, fmt.Sprintf("  P%d (%d healthy)", p.Priority, p.Healthy), "", *p.Budget))
		}
		for _, l := range p.Localities {
			if l.Budget != nil {
				head := fmt.Sprintf("    %s (%d healthy)", localityName(l.Region, l.Zone, l.SubZone), l.Healthy)
				shift := "traffic never shifts to other localities"
				if v := l.Budget.BeforeShift; v != nil {
					shift = strconv.Itoa(*v) + " before traffic shifts to other localities"
				}
				lines = append(lines, budgetLine(t, head, shift, l.Budget.Budget))
			}
		}
	}
	if a := c.Aggregate; a != nil {
		for _, l := range a.Levels {
			if l.Budget != nil {
				b := l.Budget
				lines = append(lines, budgetLine(t, fmt.Sprintf("  %s/P%d", l.Cluster, l.Priority), "", b.Budget, budgetFact(b.BeforeFailover, "failover")))
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

// budgetFact is "2 before WHAT" or "never WHAT".
func budgetFact(v *int, what string) string {
	if v == nil {
		return "never " + what
	}
	return strconv.Itoa(*v) + " before " + what
}

// budgetLine is "  P0 (5 healthy): 2 before spill · 5 before panic ·
// never total panic", after the lead fact (if any) and before the extra
// ones, broken between facts to fit the terminal (continuations indented
// under the head).
func budgetLine(t *term.IO, head, lead string, b traffic.Budget, extra ...string) string {
	var facts []string
	if lead != "" {
		facts = append(facts, lead)
	}
	facts = append(facts, budgetFact(b.BeforeSpill, "spill"), budgetFact(b.BeforePanic, "panic"), budgetFact(b.BeforeTotalPanic, "total panic"))
	facts = append(facts, extra...)
	indent := head[:len(head)-len(strings.TrimLeft(head, " "))]
	return strings.Replace(cmdutil.Headline(t, head+":", facts), "\n  ", "\n"+indent+"  ", -1)
}
