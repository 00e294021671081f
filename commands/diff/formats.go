package diff

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/diff"
	"github.com/lbctl/lbctl/commands/encode"
)

// mdText escapes config text for a Markdown table cell or list item: no
// HTML, no pipes (control characters are escaped before: writeDiff).
func mdText(s string) string {
	return strings.NewReplacer("|", "\\|", "<", "&lt;", ">", "&gt;", "`", "'", "*", "\\*", "[", "\\[", "]", "\\]").Replace(s)
}

// diffMarkdown is a pull-request comment: a compact table, one row per
// changed cluster, and each cluster's details folded.
func diffMarkdown(r *diff.Report) string {
	var b strings.Builder
	b.WriteString("### lbctl diff\n\n")
	writeDiffMarkdown(&b, r)
	if r.GRPC != nil {
		b.WriteString("\n#### gRPC semantics\n\n")
		writeDiffMarkdown(&b, r.GRPC)
	}
	fmt.Fprintf(&b, "\n**%s**\n", findingsLine(r))
	if len(r.Findings.New)+len(r.Findings.Fixed) > 0 {
		b.WriteString("\n<details><summary>findings</summary>\n\n")
		for _, f := range r.Findings.New {
			fmt.Fprintf(&b, "- new %s **%s** %s (%s:%d)\n", f.Severity, f.Rule, mdText(f.Message), mdText(f.File), f.Line)
		}
		for _, f := range r.Findings.Fixed {
			fmt.Fprintf(&b, "- fixed %s **%s** %s\n", f.Severity, f.Rule, mdText(f.Message))
		}
		b.WriteString("\n</details>\n")
	}
	return b.String()
}

func writeDiffMarkdown(b *strings.Builder, r *diff.Report) {
	fmt.Fprintf(b, "%s.\n", mdText(diffHeadline(r)))
	if !r.Changed {
		return
	}
	b.WriteString("\n| cluster | change | policy | priorities | max host shift | key space moved |\n|---|---|---|---|---|---|\n")
	for _, c := range r.Clusters {
		policy, prio, moved := "", "", ""
		if c.LbPolicy != nil {
			policy = mdText(arrow(c.LbPolicy))
		}
		var ps []string
		for _, p := range c.Priorities {
			ps = append(ps, fmt.Sprintf("P%d %s → %s", p.Priority, loadPct(p.HealthyLoad.Old), loadPct(p.HealthyLoad.New)))
		}
		prio = strings.Join(ps, ", ")
		if c.Hash != nil {
			moved = sharePct(c.Hash.Moved)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s pp | %s |\n", mdText(c.Name), c.Change, policy, prio, strings.TrimSuffix(sharePct(c.MaxShift), "%"), moved)
	}
	b.WriteString("\n")
	for _, c := range r.Clusters {
		lines := diffLines(c, false)
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintf(b, "<details><summary>%s: %s</summary>\n\n", mdText(c.Name), c.Change)
		for _, l := range lines {
			if l[0] == "" {
				fmt.Fprintf(b, "  - %s\n", mdText(mdRow(l[1])))
			} else {
				fmt.Fprintf(b, "- %s: %s\n", l[0], mdText(l[1]))
			}
		}
		b.WriteString("\n</details>\n")
	}
}

// mdRow is a host row without the text output's column marks ("+ new",
// "- gone", "~"), which Markdown would read as list bullets.
func mdRow(s string) string {
	f := strings.Fields(s)
	switch {
	case len(f) > 2 && f[0] == "+" && f[1] == "new":
		f = append([]string{"added"}, f[2:]...)
	case len(f) > 2 && f[0] == "-" && f[1] == "gone":
		f = append([]string{"removed"}, f[2:]...)
	case len(f) > 1 && f[0] == "~":
		f = f[1:]
	}
	return strings.Join(f, " ")
}

// diffGitHub writes workflow-command annotations: a notice on each changed
// cluster's definition in NEW (a removed cluster's without a file)
// and each new lint finding at its line.
func diffGitHub(r *diff.Report) string {
	var b strings.Builder
	for _, c := range r.Clusters {
		file, line := splitPos(c.At) // "" when the cluster is removed
		var facts []string
		for _, l := range diffLines(c, false) {
			if l[0] != "" {
				facts = append(facts, l[0]+" "+l[1])
			}
		}
		// A removed cluster has no line in NEW: a notice without a file.
		props := "title=" + encode.GitHubProperty("lbctl diff: "+c.Name+" "+c.Change)
		if file != "" {
			props = "file=" + encode.GitHubProperty(file) + ",line=" + strconv.Itoa(max(line, 1)) + "," + props
		}
		fmt.Fprintf(&b, "::notice %s::%s\n", props, encode.GitHubData(strings.Join(facts, "; ")))
	}
	for _, f := range r.Findings.New {
		kind := map[string]string{"error": "error", "warning": "warning"}[f.Severity]
		if kind == "" {
			kind = "notice"
		}
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", kind, encode.GitHubProperty(f.File), max(f.Line, 1), max(f.Column, 1),
			encode.GitHubProperty("new "+f.Rule+" "+f.Name), encode.GitHubData(f.Message))
	}
	return b.String()
}

// splitPos reads FILE:LINE:COL back (FILE alone when there is no line).
func splitPos(s string) (string, int) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, 0
	}
	j := strings.LastIndexByte(s[:i], ':')
	if j < 0 {
		return s, 0
	}
	n, err := strconv.Atoi(s[j+1 : i])
	if err != nil {
		return s, 0
	}
	return s[:j], n
}
