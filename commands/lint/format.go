package lint

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"

	"github.com/lbctl/lbctl/lint"
)

// lintFormats are the values --format accepts.
var lintFormats = []string{"text", "json", "sarif", "github"}

// writeFindings writes findings in format; src gives source lines for the
// text format's snippet, t its colours, version SARIF's tool version.
func writeFindings(t *term.IO, format string, fs []lint.Finding, src *config.Sources, version string) error {
	w := t.Out
	switch format {
	case "json":
		return writeLintJSON(w, fs)
	case "sarif":
		return writeSARIF(w, fs, version)
	case "github":
		return writeGitHub(w, fs)
	}
	return writeLintText(t, fs, src)
}

// writeLintText: FILE:LINE:COL: SEVERITY ID message [name], the source line
// with a caret under the column, and the hint.
func writeLintText(t *term.IO, fs []lint.Finding, src *config.Sources) error {
	var b strings.Builder
	bold, caret := t.Style().Bold(true), t.Paint(term.Good).Bold(true)
	for _, f := range fs {
		fmt.Fprintf(&b, "%s: %s %s %s [%s]\n", bold.Render(config.Escape(f.Pos.String())), cmdutil.SeverityStyle(t, f.Severity).Render(f.Severity.String()),
			bold.Render(f.Rule), config.Escape(f.Message), f.Name)
		// The snippet is a window around the column with secrets masked:
		// a one-line JSON dump is never repeated whole (actionlint's
		// error.go also leaves the cut to the formatter).
		if line, at, ok := src.Snippet(f.Pos.File, f.Pos.Line, f.Pos.Col); ok {
			fmt.Fprintf(&b, "    %s\n    %s%s\n", line, strings.Repeat(" ", at), caret.Render("^"))
		}
		if f.Hint != "" {
			fmt.Fprintf(&b, "    hint: %s\n", config.Escape(f.Hint))
		}
	}
	_, err := io.WriteString(t.Out, b.String())
	return err
}

type jsonFinding struct {
	Rule     string `json:"rule"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Message  string `json:"message"`
	Hint     string `json:"hint"`
}

type jsonLint struct {
	Findings []jsonFinding `json:"findings"`
	Summary  struct {
		Error   int `json:"error"`
		Warning int `json:"warning"`
		Info    int `json:"info"`
	} `json:"summary"`
}

func writeLintJSON(w io.Writer, fs []lint.Finding) error {
	out := jsonLint{Findings: []jsonFinding{}}
	for _, f := range fs {
		out.Findings = append(out.Findings, jsonFinding{Rule: f.Rule, Name: f.Name, Severity: f.Severity.String(),
			File: f.Pos.File, Line: f.Pos.Line, Column: f.Pos.Col, Message: f.Message, Hint: f.Hint})
	}
	s := lint.Summary(fs)
	out.Summary.Error, out.Summary.Warning, out.Summary.Info = s[lint.SevError], s[lint.SevWarning], s[lint.SevInfo]
	return encode.JSON(w, out)
}

// sarifLevel maps a severity to SARIF's result level.
func sarifLevel(s lint.Severity) string {
	switch s {
	case lint.SevError:
		return "error"
	case lint.SevWarning:
		return "warning"
	}
	return "note"
}

// writeSARIF writes a SARIF 2.1.0 log with one run; every rule is
// described in tool.driver.rules, results point at them by ruleIndex.
func writeSARIF(w io.Writer, fs []lint.Finding, version string) error {
	rules := lint.Rules()
	index := map[string]int{}
	var descs []map[string]any
	for i, r := range rules {
		index[r.ID] = i
		level := lint.SevInfo
		if s, ok := r.Severity[lint.TargetEnvoy]; ok {
			level = s
		} else {
			for _, s := range r.Severity {
				level = s
			}
		}
		props := map[string]any{"tags": []string{"load-balancing"}}
		if r.Spec != "" {
			props["spec"] = r.Spec
		}
		descs = append(descs, map[string]any{
			"id":                   r.ID,
			"name":                 r.Name,
			"shortDescription":     map[string]any{"text": r.Name},
			"fullDescription":      map[string]any{"text": r.Doc},
			"help":                 map[string]any{"text": r.Doc + "\nHint: " + r.Hint},
			"defaultConfiguration": map[string]any{"level": sarifLevel(level)},
			"properties":           props,
		})
	}
	results := []map[string]any{}
	for _, f := range fs {
		phys := map[string]any{"artifactLocation": map[string]any{"uri": sarifURI(f.Pos.File)}}
		if f.Pos.Line > 0 {
			region := map[string]any{"startLine": f.Pos.Line}
			if f.Pos.Col > 0 {
				region["startColumn"] = f.Pos.Col
			}
			phys["region"] = region
		}
		res := map[string]any{
			"ruleId":    f.Rule,
			"level":     sarifLevel(f.Severity),
			"message":   map[string]any{"text": f.Message},
			"locations": []any{map[string]any{"physicalLocation": phys}},
		}
		if i, ok := index[f.Rule]; ok {
			res["ruleIndex"] = i
		}
		results = append(results, res)
	}
	log := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name":           "lbctl",
				"version":        version,
				"informationUri": "https://github.com/lbctl/lbctl",
				"rules":          descs,
			}},
			"results": results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(log)
}

// sarifURI writes a file path as a relative URI reference (forward
// slashes, spaces escaped); "<stdin>" stays as it is.
func sarifURI(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	return strings.ReplaceAll(p, " ", "%20")
}

// writeGitHub writes GitHub Actions workflow commands
// (::error file=F,line=L,col=C,title=T::message); info is a notice.
func writeGitHub(w io.Writer, fs []lint.Finding) error {
	var b strings.Builder
	for _, f := range fs {
		kind := "notice"
		switch f.Severity {
		case lint.SevError:
			kind = "error"
		case lint.SevWarning:
			kind = "warning"
		}
		fmt.Fprintf(&b, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", kind, encode.GitHubProperty(config.Escape(f.Pos.File)), max(f.Pos.Line, 1), max(f.Pos.Col, 1),
			encode.GitHubProperty(f.Rule+" "+f.Name), encode.GitHubData(config.Escape(f.Message+" (hint: "+f.Hint+")")))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
