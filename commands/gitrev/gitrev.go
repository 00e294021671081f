// Package gitrev reads git revisions for `diff --git` and `lint
// --new-from-rev`. A revision comes from the command line, so every call
// goes through Check and passes it after --end-of-options: git never reads
// it as an option (issue 29: --new-from-rev=--output=FILE wrote a file).
package gitrev

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"unicode"
)

// ErrNotRevision is Check's error: callers name their flag around it.
var ErrNotRevision = errors.New("not a revision")

// metachars are the shell's; no revision syntax git documents needs them
// (braces, ^, ~, @ and : stay allowed for HEAD@{1}, REV^{commit}, REV:path).
const metachars = "`$;|&<>()\\'\"*?!#"

// Check refuses a revision git could take for an option (a leading -), an
// empty one, and one holding whitespace, control or format (bidi)
// characters or shell metacharacters.
func Check(rev string) error {
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, metachars) {
		return ErrNotRevision
	}
	for _, r := range rev {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == unicode.ReplacementChar {
			return ErrNotRevision
		}
	}
	return nil
}

// Git runs git with args in the working directory and returns its
// standard output; its error is git's first words on standard error.
func Git(args ...string) (string, error) {
	var out, errb bytes.Buffer
	cmd := exec.Command("git", args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out.String(), nil
}

// Verify reports whether rev names a commit.
func Verify(rev string) error {
	if err := Check(rev); err != nil {
		return err
	}
	_, err := Git("rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	return err
}

// Top is the repository's top directory.
func Top() (string, error) {
	top, err := Git("rev-parse", "--show-toplevel")
	return strings.TrimSpace(top), err
}

// Show is a file's content at rev (path relative to the top).
func Show(rev, path string) ([]byte, error) {
	if err := Check(rev); err != nil {
		return nil, err
	}
	out, err := Git("show", "--end-of-options", rev+":"+path)
	return []byte(out), err
}

// Tree lists the files under pathspecs at rev (repository-relative).
func Tree(rev string, pathspecs []string) (string, error) {
	if err := Check(rev); err != nil {
		return "", err
	}
	args := []string{"ls-tree", "-r", "--name-only", "--full-name", "--end-of-options", rev, "--"}
	return Git(append(args, pathspecs...)...)
}

// Changed lists the files that differ between a and b (b empty: the
// working tree), repository-relative.
func Changed(a, b string) (string, error) {
	args := []string{"diff", "--name-only", "--no-renames", "--end-of-options", a}
	for _, r := range []string{a, b} {
		if r == "" {
			continue
		}
		if err := Check(r); err != nil {
			return "", err
		}
	}
	if b != "" {
		args = append(args, b)
	}
	return Git(append(args, "--", ":/")...)
}
