package main

import (
	"strings"
	"testing"
)

// commandsShared are the packages under commands/ that are not a command:
// every command may import them; they import no command.
var commandsShared = map[string]bool{
	"commands/term": true, "commands/encode": true, "commands/cmdutil": true, "commands/gitrev": true,
	"commands/quick": true, "commands/early": true, "commands/term/size": true,
}

// layer orders the commands packages: each imports only lower layers
// (root 3 → a command 2 → cmdutil 1 → encode, gitrev 0.5 → term 0 →
// term/size -1, which quick also takes help's width from).
func layer(pkg string) float64 {
	switch {
	case pkg == "commands":
		return 3
	case pkg == "commands/cmdutil":
		return 1
	case pkg == "commands/encode" || pkg == "commands/gitrev":
		return 0.5
	case pkg == "commands/term":
		return 0
	case pkg == "commands/term/size":
		return -1
	case commandsShared[pkg]:
		return 1
	}
	return 2
}

func commandsDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, d := range goDirs(t) {
		if d == "commands" || strings.HasPrefix(d, "commands/") {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// TestCommandsLayers: no command imports another command's package, and
// imports go strictly down root → commands/<cmd> → cmdutil → encode/gitrev
// → term (then analyze, lint, lbmodel).
func TestCommandsLayers(t *testing.T) {
	for _, dir := range commandsDirs(t) {
		for _, imp := range imports(t, dir) {
			if !strings.HasPrefix(imp, "commands") || imp == dir {
				continue
			}
			if !commandsShared[dir] && dir != "commands" && !commandsShared[imp] {
				t.Errorf("%s imports %s: a command never imports another command", dir, imp)
			} else if layer(imp) >= layer(dir) && !(dir == "commands/early" && imp == "commands/quick") {
				t.Errorf("%s imports %s: imports go down root → command → cmdutil → encode/gitrev → term", dir, imp)
			}
		}
	}
}

// TestOnlyTermWritesStdout: commands/term owns the process's stdout and
// stderr. commands/early is the exception: it answers help before the
// protobuf packages initialise, so it cannot import term.
func TestOnlyTermWritesStdout(t *testing.T) {
	for _, dir := range commandsDirs(t) {
		if dir == "commands/term" || dir == "commands/early" {
			continue
		}
		for f, s := range nonTestSources(t, dir) {
			if strings.Contains(s, "os.Stdout") || strings.Contains(s, "os.Stderr") {
				t.Errorf("%s names os.Stdout or os.Stderr: write through commands/term", f)
			}
		}
	}
}
