package help

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

// The scripts in completions/ are what `lbctl completion SHELL` prints
// (regenerate them with go generate ./completions).
func TestCompletionScriptsCurrent(t *testing.T) {
	for _, sh := range completionShells {
		for _, name := range append([]string{sh.name}, sh.aliases...) {
			var out bytes.Buffer
			root := &cli.Command{Name: "lbctl", Writer: &out, Commands: []*cli.Command{Completion()}}
			if err := root.Run(context.Background(), []string{"lbctl", "completion", name}); err != nil {
				t.Fatalf("completion %s: %v", name, err)
			}
			file, err := os.ReadFile(filepath.Join("..", "..", "completions", sh.file))
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != string(file) {
				t.Errorf("completions/%s differs from `lbctl completion %s`: run go generate ./completions", sh.file, name)
			}
			if !strings.Contains(out.String(), "completion __complete") {
				t.Errorf("%s script does not call the completion engine", name)
			}
		}
	}
}
