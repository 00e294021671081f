package commands

import (
	"encoding/json"
	"io"
	"os"

	"github.com/urfave/cli/v3"
	"go.yaml.in/yaml/v3"
)

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func writeYAML(w io.Writer, v any) error {
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	defer enc.Close()
	return enc.Encode(v)
}

// stdinHasData reports whether standard input is a pipe or file rather
// than a terminal or nothing, so `lbctl explain` alone can fall back to the
// built-in example while `cat x.yaml | lbctl explain` reads the pipe.
func stdinHasData(cmd *cli.Command) bool {
	r := cmd.Root().Reader
	if l, ok := r.(interface{ Len() int }); ok {
		return l.Len() > 0
	}
	f, ok := r.(*os.File)
	if !ok {
		return r != nil
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	return st.Mode()&os.ModeCharDevice == 0 && (st.Mode()&os.ModeNamedPipe != 0 || st.Mode().IsRegular() && st.Size() > 0)
}
