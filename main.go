// Command lbctl explains and lints Envoy load-balancing configuration.
package main

import (
	"os"

	"github.com/lbctl/lbctl/commands"
	_ "github.com/lbctl/lbctl/commands/early" // help before the Envoy types initialise
)

func main() {
	os.Exit(commands.Main(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
