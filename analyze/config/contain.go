package config

import "github.com/lbctl/lbctl/analyze/config/parse"

// CodeSkipped marks an input skipped for holding no Envoy config (a file
// found in a directory, or named with --skip-non-envoy): not a finding,
// counted on one line of standard error.
const CodeSkipped = "skipped"

// unfound is what a file's search found missing: one error when nothing in
// a named file is Envoy config, a skip when the file may be skipped, one
// notice naming the parts skipped beside Envoy config.
func (r *reader) unfound(file string, doc node, f *finder) Problems {
	switch {
	case len(f.units) > 0 && len(f.skipped) > 0:
		return Problems{{Pos: f.skipPos, Severity: SevInfo, Code: CodeUnknownKind, Msg: skippedMsg(f.skipped)}}
	case len(f.units) > 0:
		return nil
	case r.skippable:
		return Problems{{Pos: Pos{File: file}, Severity: SevInfo, Code: CodeSkipped, Msg: "holds no Envoy config; skipped"}}
	}
	msg := notResourcesMsg
	if d := parse.Resolve(doc); egctlWithoutXDS(d) {
		msg = egctlWithoutXDSMsg
	} else if len(f.skipped) > 0 {
		msg += "; found only " + joinParts(f.skipped)
	}
	return Problems{{Pos: nodePos(file, parse.Resolve(doc)), Severity: SevError, Code: CodeUnknownKind, Msg: msg}}
}

func joinParts(parts []string) string {
	m := skippedMsg(parts)
	return m[len("skipped what is not Envoy config: "):]
}

// readInto loads what f found, and its one notice of what it skipped.
func (f *finder) readInto(l *loader) {
	for _, p := range f.probs {
		l.problem(p)
	}
	for _, u := range f.units {
		l.document(u.file, u.node, u.kind)
	}
	if len(f.skipped) > 0 {
		l.problem(Problem{Pos: f.skipPos, Severity: SevInfo, Code: CodeUnknownKind, Msg: skippedMsg(f.skipped)})
	}
}
