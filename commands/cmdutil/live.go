package cmdutil

import (
	"time"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/config/fetch"

	"github.com/urfave/cli/v3"
)

// LiveFlags read a running Envoy instead of (or beside) files; nothing is
// fetched unless --admin is given (contract: Live inputs).
func LiveFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "admin", Usage: "read /config_dump?include_eds and /clusters?format=json from this Envoy admin URL (e.g. http://127.0.0.1:9901)"},
		&cli.BoolFlag{Name: "allow-remote", Usage: "allow --admin hosts other than loopback (127.0.0.0/8, ::1, localhost)"},
		&cli.StringFlag{Name: "csds", Usage: "read a proxyless gRPC client's xDS state from its CSDS admin service at HOST:PORT (explained under gRPC semantics)"},
		&cli.DurationFlag{Name: "timeout", Value: 5 * time.Second, Usage: "bound each --admin request, body included", Validator: Positive("timeout")},
	}
}

// AdminFlags are the live flags of commands that compute Envoy's answer
// only (sweep): --admin, not --csds, whose clients follow gRPC semantics.
func AdminFlags() []cli.Flag {
	var out []cli.Flag
	for _, f := range LiveFlags() {
		if f.Names()[0] != "csds" {
			out = append(out, f)
		}
	}
	return out
}

// LiveInputs fetches --admin's answers as inputs (none without --admin);
// a failed fetch is an input error (exit 3).
func LiveInputs(cmd *cli.Command) ([]config.Input, error) {
	opt := fetch.Options{AllowRemote: cmd.Bool("allow-remote"), Timeout: cmd.Duration("timeout"), MaxBytes: Limits(cmd).MaxInput}
	var ins []config.Input
	if base := cmd.String("admin"); base != "" {
		admin, err := fetch.Admin(base, opt)
		if err != nil {
			return nil, InputError(err)
		}
		ins = append(ins, admin...)
	}
	if addr := cmd.String("csds"); addr != "" {
		in, err := fetch.CSDS(addr, opt)
		if err != nil {
			return nil, InputError(err)
		}
		ins = append(ins, in)
	}
	return ins, nil
}

// Live reports whether a live input flag is given (then no FILE is needed).
func Live(cmd *cli.Command) bool { return cmd.String("admin") != "" || cmd.String("csds") != "" }
