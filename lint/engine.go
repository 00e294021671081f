package lint

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/config/parse"
	"github.com/lbctl/lbctl/analyze/model"

	"go.yaml.in/yaml/v3"
)

// Finding is one problem a rule found.
type Finding struct {
	Rule     string // LBnnnn
	Name     string // the rule's kebab-case name
	Severity Severity
	Pos      config.Pos
	Message  string
	Hint     string
	// Target is the data plane the finding is about.
	Target Target
}

// Options select what Run checks.
type Options struct {
	// Targets to judge for; empty means envoy.
	Targets []Target
	// Disable lists rule IDs or names not to run.
	Disable []string
	// Strict reports every unknown type, field and v2 spelling one by one,
	// also in files Envoy wrote, as proto validation would.
	Strict bool
}

// Pass is what a rule's Check sees: the configuration, the target, shared
// derived data (models, routes, proto validation results) and Report.
type Pass struct {
	Cfg    *config.Config
	Target Target
	rule   *Rule
	out    *[]Finding
	*shared
}

// Report records a finding of the rule's severity at pos.
func (p *Pass) Report(pos config.Pos, format string, args ...any) {
	p.ReportSev(p.rule.Severity[p.Target], pos, format, args...)
}

// maxArg caps one quoted value in a finding's message, maxList any other
// string argument.
const (
	maxArg  = 256
	maxList = 4096
)

// verbs lists the verbs of format's arguments in order (no explicit
// argument indexes are used in lint's messages).
func verbs(format string) []byte {
	var out []byte
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		for i++; i < len(format) && strings.IndexByte("+-# 0123456789.*", format[i]) >= 0; i++ {
		}
		if i < len(format) && format[i] != '%' {
			out = append(out, format[i])
		}
	}
	return out
}

// ReportSev records a finding with an explicit severity (rules whose
// consequence depends on the input, e.g. load problems).
func (p *Pass) ReportSev(sev Severity, pos config.Pos, format string, args ...any) {
	// Names and values from the input are capped: a 1 MB cluster name
	// must not make every finding about it 1 MB. A quoted (%q) argument is
	// one value; others are lists lbctl joined, allowed more.
	for i, verb := range verbs(format) {
		if i >= len(args) {
			break
		}
		if s, ok := args[i].(string); ok {
			limit := maxList
			if verb == 'q' {
				limit = maxArg
			}
			args[i] = config.Truncate(s, limit)
		}
	}
	*p.out = append(*p.out, Finding{
		Rule: p.rule.ID, Name: p.rule.Name, Severity: sev, Pos: pos,
		Message: fmt.Sprintf(format, args...), Hint: p.rule.Hint, Target: p.Target,
	})
}

// Run checks cfg with every enabled rule and returns the findings sorted
// by position, after inline suppressions; suppressions nothing used are
// reported as LB0013 unused-suppression.
func Run(cfg *config.Config, opts Options) []Finding {
	return RunGroups([]*config.Config{cfg}, opts)
}

// RunGroups checks each configuration on its own (cross-resource rules see
// one configuration only) and returns all findings, suppressed and sorted
// once. The configurations must come from one config.LoadGroups call, so
// that they share one Sources.
func RunGroups(cfgs []*config.Config, opts Options) []Finding {
	targets := opts.Targets
	if len(targets) == 0 {
		targets = []Target{TargetEnvoy}
	}
	disabled := map[string]bool{}
	for _, d := range opts.Disable {
		if r := Lookup(d); r != nil {
			disabled[r.ID] = true
		}
	}
	// Configurations are independent (each has its own shared data; the
	// Sources they share are read-only): check them on every core and
	// join their findings in input order.
	perCfg := make([][]Finding, len(cfgs))
	rules := Rules()
	model.Parallel(len(cfgs), func(i int) {
		cfg := cfgs[i]
		sh := newShared(cfg)
		sh.strict = opts.Strict
		if len(cfgs) == 1 {
			sh.warm()
		}
		for _, r := range rules {
			if disabled[r.ID] || r.Check == nil {
				continue
			}
			for _, t := range targets {
				if !r.Applies(t) {
					continue
				}
				p := &Pass{Cfg: cfg, Target: t, rule: r, out: &perCfg[i], shared: sh}
				r.Check(p)
			}
		}
	})
	var raw []Finding
	for _, fs := range perCfg {
		raw = append(raw, fs...)
	}
	raw = dedupe(raw)
	raw = withoutUnknown(cfgs, raw)
	kept := suppress(unionFiles(cfgs), raw, disabled)
	sortFindings(kept)
	return kept
}

// dedupe merges findings reported identically for several targets,
// keeping the most severe.
func dedupe(fs []Finding) []Finding {
	type key struct {
		rule, msg string
		pos       config.Pos
	}
	idx := map[key]int{}
	var out []Finding
	for _, f := range fs {
		k := key{f.Rule, f.Message, f.Pos}
		if i, ok := idx[k]; ok {
			if f.Severity > out[i].Severity {
				out[i] = f
			}
			continue
		}
		idx[k] = len(out)
		out = append(out, f)
	}
	return out
}

func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Pos.File != b.Pos.File {
			return a.Pos.File < b.Pos.File
		}
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line < b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col < b.Pos.Col
		}
		return a.Rule < b.Rule
	})
}

// ignoreMarker starts an inline suppression comment:
// "# lbctl:ignore LB1203[,LB1501] reason".
const ignoreMarker = "lbctl:ignore"

type suppression struct {
	pos  config.Pos
	ids  []string // rule IDs (names are resolved to IDs)
	used bool
	// noReason: the comment names rules but says not why (LB0014).
	noReason bool
}

// suppress drops findings that a "# lbctl:ignore ID reason" comment on the
// finding's line or the line above names, then reports every suppression
// that silenced nothing (unless it names only disabled rules).
func suppress(cfg *config.Config, fs []Finding, disabled map[string]bool) []Finding {
	byLine := map[config.Pos]*suppression{} // keyed by file and line (Col 0)
	var all []*suppression
	for _, file := range cfg.Files {
		for n0, line := range cfg.Sources.Lines(file) {
			n := n0 + 1
			i := strings.Index(line, "#")
			if i < 0 {
				continue
			}
			text := strings.TrimSpace(line[i+1:])
			if !strings.HasPrefix(text, ignoreMarker) {
				continue
			}
			fields := strings.Fields(strings.TrimPrefix(text, ignoreMarker))
			s := &suppression{pos: config.Pos{File: file, Line: n, Col: i + 1}, noReason: len(fields) == 1}
			if len(fields) > 0 {
				for _, id := range strings.Split(fields[0], ",") {
					if r := Lookup(strings.TrimSpace(id)); r != nil {
						s.ids = append(s.ids, r.ID)
					} else {
						s.ids = append(s.ids, strings.TrimSpace(id))
					}
				}
			}
			byLine[config.Pos{File: file, Line: n}] = s
			all = append(all, s)
		}
	}
	var out []Finding
	for _, f := range fs {
		if s := matchSuppression(byLine, f); s != nil {
			s.used = true
			continue
		}
		out = append(out, f)
	}
	if r := registry[noReasonSuppressionID]; r != nil && !disabled[r.ID] {
		for _, s := range all {
			if s.used && s.noReason {
				out = append(out, Finding{Rule: r.ID, Name: r.Name, Severity: r.Severity[TargetEnvoy], Pos: s.pos,
					Message: "suppression \"lbctl:ignore " + strings.Join(s.ids, ",") + "\" gives no reason", Hint: r.Hint, Target: TargetEnvoy})
			}
		}
	}
	r := registry[unusedSuppressionID]
	if r == nil || disabled[r.ID] {
		return out
	}
	for _, s := range all {
		if s.used {
			continue
		}
		onlyDisabled := len(s.ids) > 0
		for _, id := range s.ids {
			onlyDisabled = onlyDisabled && disabled[id]
		}
		if onlyDisabled {
			continue
		}
		msg := "suppression \"lbctl:ignore " + strings.Join(s.ids, ",") + "\" silences no finding"
		if len(s.ids) == 0 {
			msg = "suppression names no rule: write \"# lbctl:ignore ID reason\""
		}
		out = append(out, Finding{Rule: r.ID, Name: r.Name, Severity: r.Severity[TargetEnvoy], Pos: s.pos,
			Message: msg, Hint: r.Hint, Target: TargetEnvoy})
	}
	return out
}

func matchSuppression(byLine map[config.Pos]*suppression, f Finding) *suppression {
	for _, n := range []int{f.Pos.Line, f.Pos.Line - 1} {
		s := byLine[config.Pos{File: f.Pos.File, Line: n}]
		if s == nil {
			continue
		}
		for _, id := range s.ids {
			if id == f.Rule {
				return s
			}
		}
	}
	return nil
}

// FileConfig is a .lbctl.yaml file:
//
//	disable: [LB1504, hash-no-policy]
//	fail-on: warning
//	target: envoy
type FileConfig struct {
	Path    string   `yaml:"-"`
	Disable []string `yaml:"disable"`
	FailOn  string   `yaml:"fail-on"`
	Target  string   `yaml:"target"`
}

// ConfigFileName is the name FindConfig looks for.
const ConfigFileName = ".lbctl.yaml"

// FindConfig reads the first .lbctl.yaml found in dir or a parent of it
// (a regular file of at most max bytes: parse.ReadFile); it returns nil,
// nil when there is none.
func FindConfig(dir string, max int64) (*FileConfig, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for {
		p := filepath.Join(dir, ConfigFileName)
		data, err := parse.ReadFile(p, max)
		if err == nil {
			return ParseConfig(p, data)
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, nil
		}
		dir = parent
	}
}

// ParseConfig reads a .lbctl.yaml document; unknown keys, unknown rules and
// bad values are errors, so a typo does not silently enable everything.
func ParseConfig(path string, data []byte) (*FileConfig, error) {
	fc := &FileConfig{Path: path}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(fc); err != nil && err.Error() != "EOF" {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	for _, d := range fc.Disable {
		if Lookup(d) == nil {
			return nil, fmt.Errorf("%s: disable: unknown rule %q", path, d)
		}
	}
	if fc.FailOn != "" {
		if _, ok := ParseSeverity(fc.FailOn); !ok {
			return nil, fmt.Errorf("%s: fail-on: want error, warning, info or none, got %q", path, fc.FailOn)
		}
	}
	if fc.Target != "" {
		if _, err := ParseTargets(fc.Target); err != nil {
			return nil, fmt.Errorf("%s: target: %v", path, err)
		}
	}
	return fc, nil
}

// ParseTargets reads envoy, grpc or both.
func ParseTargets(s string) ([]Target, error) {
	switch strings.ToLower(s) {
	case "envoy", "":
		return []Target{TargetEnvoy}, nil
	case "grpc":
		return []Target{TargetGRPC}, nil
	case "both":
		return []Target{TargetEnvoy, TargetGRPC}, nil
	}
	return nil, fmt.Errorf("want envoy, grpc or both, got %q", s)
}

// Summary counts findings by severity.
func Summary(fs []Finding) map[Severity]int {
	m := map[Severity]int{SevError: 0, SevWarning: 0, SevInfo: 0}
	for _, f := range fs {
		m[f.Severity]++
	}
	return m
}

// Fails reports whether any finding is at or above failOn (0 = none).
func Fails(fs []Finding, failOn Severity) bool {
	if failOn == 0 {
		return false
	}
	for _, f := range fs {
		if f.Severity >= failOn {
			return true
		}
	}
	return false
}
