package lbmodel

// Severity ranks a finding on the one scale lbctl uses everywhere:
// lbmodel's own checks, the loader's problems and lint's findings
// (analyze/config and lint alias this type). Higher is more serious.
// SevNone is the zero value so that a finding that names no severity is
// caught instead of silently meaning error; it also means "fail on
// nothing".
type Severity int

const (
	SevNone Severity = iota
	SevInfo
	SevWarning
	SevError
)

func (s Severity) String() string {
	switch s {
	case SevError:
		return "error"
	case SevWarning:
		return "warning"
	case SevInfo:
		return "info"
	}
	return "none"
}
