// Package rules is `lbctl rules`: the lint rules' list and documentation.
package rules

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/term"
	"github.com/lbctl/lbctl/lint"
)

// New is the rules command.
func New() *cli.Command {
	return cmdutil.Declare(&cli.Command{
		Name:      "rules",
		Usage:     "list the lint rules, or print one rule's documentation",
		ArgsUsage: "[ID|NAME]",
		Description: `Lists every lint rule with its id, name and severity per target, or prints
one rule's documentation: what it detects, why it matters, where the rule comes from.

Examples:
  lbctl rules
  lbctl rules LB1203
  lbctl rules aggregate-unknown-child -o json`,
		Action: runRules,
	}, cmdutil.Support{Output: []string{"json", "yaml"}, Color: true})
}

// ruleDoc is a rule in -o json and -o yaml.
type ruleDoc struct {
	ID       string            `json:"id" yaml:"id"`
	Name     string            `json:"name" yaml:"name"`
	Severity map[string]string `json:"severity" yaml:"severity"` // by target
	Spec     string            `json:"catalogue,omitempty" yaml:"catalogue,omitempty"`
	Doc      string            `json:"doc" yaml:"doc"`
	Hint     string            `json:"hint" yaml:"hint"`
}

func docOf(r *lint.Rule) ruleDoc {
	d := ruleDoc{ID: r.ID, Name: r.Name, Spec: r.Spec, Doc: r.Doc, Hint: r.Hint, Severity: map[string]string{}}
	for t, s := range r.Severity {
		d.Severity[string(t)] = s.String()
	}
	return d
}

func runRules(_ context.Context, cmd *cli.Command) error {
	if cmd.Args().Len() > 1 {
		return cmdutil.UsageErrorf("rules takes at most one rule ID or name")
	}
	var rules []*lint.Rule
	if key := cmd.Args().First(); key != "" {
		r := lint.Lookup(key)
		if r == nil {
			var names []string
			for _, r := range lint.Rules() {
				names = append(names, r.ID, r.Name)
			}
			return cmdutil.UsageErrorf("no rule %q%s (see lbctl rules)", key, cmdutil.DidYouMean(key, names))
		}
		rules = []*lint.Rule{r}
	} else {
		rules = lint.Rules()
	}
	docs := map[string][]ruleDoc{"rules": {}}
	for _, r := range rules {
		docs["rules"] = append(docs["rules"], docOf(r))
	}
	return cmdutil.WriteOutput(cmd, docs, func(t *term.IO) {
		id := t.Style().Bold(true)
		if cmd.Args().Len() == 1 {
			r := rules[0]
			fmt.Fprintf(t.Out, "%s %s\n", id.Render(r.ID), r.Name)
			if r.Spec != "" {
				fmt.Fprintf(t.Out, "catalogue: %s\n", r.Spec)
			}
			fmt.Fprintf(t.Out, "severity: %s\n\n%s\n\nhint: %s\n", severities(t, r), r.Doc, r.Hint)
			return
		}
		for _, r := range rules {
			fmt.Fprintf(t.Out, "%s  %-34s %s\n", id.Render(r.ID), r.Name, severities(t, r))
		}
	})
}

func severities(t *term.IO, r *lint.Rule) string {
	var parts []string
	for _, tg := range []lint.Target{lint.TargetEnvoy, lint.TargetGRPC} {
		if s, ok := r.Severity[tg]; ok {
			parts = append(parts, string(tg)+": "+cmdutil.SeverityStyle(t, s).Render(s.String()))
		}
	}
	return strings.Join(parts, ", ")
}
