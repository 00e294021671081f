// Package test is `lbctl test`: it reads TESTS files, checks them with
// analyze/expect against reports the caller injects, and renders the
// results as text, JSON, JUnit XML or GitHub workflow commands.
package test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lbctl/lbctl/analyze/expect"
)

// Exit codes (contract, "Exit codes").
const (
	ExitPass  = 0
	ExitFail  = 1
	ExitUsage = 2
	ExitInput = 3
)

// Options is one `lbctl test` run; the command fills it from its flags and
// the loaded configuration.
type Options struct {
	// Tests are the TESTS files (--tests), in order.
	Tests []string
	// Format is text (default), json, junit or github.
	Format string
	// Init prints a TESTS file for InitClusters instead of running tests.
	Init         bool
	InitClusters []expect.InitCluster
	// Reports are the reports tests read (explain, hash, route).
	Reports expect.Reports
	// ReadFile reads a TESTS file; nil: os.ReadFile.
	ReadFile       func(string) ([]byte, error)
	Stdout, Stderr io.Writer
}

// Run does what opt asks and returns the exit code. Errors go to Stderr
// as TESTS:LINE:COL: message, one per line; Stdout carries only output.
func Run(opt Options) int {
	if opt.Init {
		out, err := expect.Init(opt.InitClusters, opt.Reports)
		if err != nil {
			fmt.Fprintf(opt.Stderr, "lbctl: %s\n", safe(err.Error()))
			return ExitInput
		}
		opt.Stdout.Write(out)
		return ExitPass
	}
	render, ok := renderers[opt.Format]
	if opt.Format == "" {
		render, ok = Text, true
	}
	if !ok {
		fmt.Fprintf(opt.Stderr, "lbctl: --format %q: expected text, json, junit or github\n", safe(opt.Format))
		return ExitUsage
	}
	if len(opt.Tests) == 0 {
		fmt.Fprintln(opt.Stderr, "lbctl: test needs --tests TESTS (or --init)")
		return ExitUsage
	}
	read := opt.ReadFile
	if read == nil {
		read = os.ReadFile
	}
	var files []*expect.File
	var errs []error
	for _, path := range opt.Tests {
		data, err := read(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		f, err := expect.Parse(path, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		files = append(files, f)
	}
	// Files that parsed are checked too, so one run reports every name
	// that matches nothing.
	res, err := expect.Run(files, opt.Reports)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		for _, err := range errs {
			// expect.InputErrors are one per line; each line is escaped alone.
			for _, line := range strings.Split(err.Error(), "\n") {
				fmt.Fprintln(opt.Stderr, safe(line))
			}
		}
		return ExitInput
	}
	if err := render(opt.Stdout, res, opt.Tests); err != nil {
		fmt.Fprintf(opt.Stderr, "lbctl: %s\n", safe(err.Error()))
		return ExitInput
	}
	if res.Summary.Failed > 0 {
		return ExitFail
	}
	return ExitPass
}

// renderers are the --format values; each writes a whole result.
var renderers = map[string]func(io.Writer, *expect.Results, []string) error{
	"text":   Text,
	"json":   JSON,
	"junit":  JUnit,
	"github": GitHub,
}
