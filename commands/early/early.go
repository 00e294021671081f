// Package early answers `lbctl --help`, `lbctl COMMAND --help` and
// `lbctl completion SHELL` from its init function and exits. Go
// initialises packages in import-path order as their imports allow (the
// spec's package initialisation rule), so this one, needing only the
// standard library and commands/quick, runs before google.golang.org/protobuf
// and the Envoy API packages that wait for it: their registration is most
// of lbctl's start-up and none of help's. Only main imports it.
package early

import (
	"os"

	"github.com/lbctl/lbctl/commands/quick"
)

func init() {
	if out, ok := quick.Answer(os.Args[1:], os.Getenv, os.Stdout); ok {
		os.Stdout.WriteString(out)
		os.Exit(0)
	}
}
