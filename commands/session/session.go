// Package session is `lbctl session`: the host a stateful-session
// request goes to.
package session

import (
	"context"
	"fmt"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/option"
	"github.com/lbctl/lbctl/analyze/proxyless"
	envoysession "github.com/lbctl/lbctl/analyze/session"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"
	lbgrpc "github.com/lbctl/lbctl/lbmodel/grpc"

	"github.com/urfave/cli/v3"
)

// New is the session command.
func New() *cli.Command {
	return cmdutil.Declare(&cli.Command{
		Name:      "session",
		Usage:     "stateful session affinity: which host a request with a session cookie goes to (gRFC A75, and Envoy's override host)",
		ArgsUsage: "[FILE ...]",
		Description: `Runs proxyless gRPC's xds_override_host pick (gRFC A75, C-core) for a request
whose session cookie lists ADDRESS[,ADDRESS...]: pick (a READY cookie host),
queue (an IDLE host gets a connection attempt, a CONNECTING one is awaited, or
a subchannel is created), or delegate (the child policy picks).

By default the usable endpoints of the priority gRPC routes to have READY
subchannels and every other endpoint has none; --state sets any of them.

Unless --semantics grpc is given, Envoy's answer to the same request follows
(HostUtility::selectOverrideHost): the session host if its health is in
override_host_status, else the cluster's load balancer, or a 503 with a strict
stateful_session filter.

Examples:
  lbctl session fixtures/grpc/session.yaml --cluster svc --cookie 10.40.0.2:80
  lbctl session fixtures/grpc/session.yaml --cluster svc --cookie 10.40.1.1:80,10.40.0.1:80 --state 10.40.0.1:80=IDLE`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cluster", Aliases: []string{"c"}, Usage: "the (leaf) cluster the session belongs to", Required: true},
			&cli.StringSliceFlag{Name: "cookie", Usage: "the cookie's addresses, ADDRESS[,ADDRESS...] in order (repeatable)"},
			&cli.StringSliceFlag{Name: "state", Usage: "ADDRESS=READY|IDLE|CONNECTING|TRANSIENT_FAILURE|NONE: an endpoint's subchannel state (repeatable)"},
			&cli.StringSliceFlag{Name: "ready", Usage: "gRPC connectivity of a priority: CLUSTER[/PRIORITY]=yes|no (repeatable)"},
			&cli.StringSliceFlag{Name: "set-health", Usage: "what-if: CLUSTER[/PRIORITY]=PERCENT or =HEALTHY/TOTAL makes that share of hosts healthy (repeatable)"},
			&cli.StringFlag{Name: "grpc-impl", Value: "core", Usage: "gRPC implementation: core (C-core, gRFC A75) or go (grpc-go: no stateful session affinity)",
				Validator: cmdutil.OneOf("grpc-impl", "core", "go")},
			cmdutil.KindFlag(),
		},
		ShellComplete: cmdutil.Complete,
		Action:        runSession,
	}, cmdutil.Support{
		Output: []string{"json", "yaml"}, Color: true, Semantics: []string{"grpc"},
		// gRFC A75 is gRPC's: no other --semantics applies.
		OnlySemantics: "--semantics %s: lbctl session models gRPC's override-host pick (gRFC A75) only; use --semantics grpc",
	})
}

func runSession(_ context.Context, cmd *cli.Command) error {
	opt := proxyless.SessionOptions{States: map[string]lbgrpc.Connectivity{}}
	for _, c := range cmd.StringSlice("cookie") {
		for _, a := range strings.Split(c, ",") {
			if a = strings.TrimSpace(a); a != "" {
				opt.Cookie = append(opt.Cookie, a)
			}
		}
	}
	for _, s := range cmd.StringSlice("state") {
		i := strings.LastIndexByte(s, '=')
		if i <= 0 {
			return cmdutil.UsageErrorf("--state %q: expected ADDRESS=READY|IDLE|CONNECTING|TRANSIENT_FAILURE|NONE", s)
		}
		st, err := lbgrpc.ParseConnectivity(s[i+1:])
		if err != nil {
			return cmdutil.UsageErrorf("--state %q: %v", s, err)
		}
		opt.States[s[:i]] = st
	}
	for _, s := range cmd.StringSlice("ready") {
		o, err := proxyless.ParseReady(s)
		if err != nil {
			return cmdutil.UsageErrorf("%v", err)
		}
		opt.Ready = append(opt.Ready, o)
	}
	for _, s := range cmd.StringSlice("set-health") {
		o, err := model.ParseHealthOverride(s)
		if err != nil {
			return cmdutil.UsageErrorf("%v", err)
		}
		opt.SetHealth = append(opt.SetHealth, o)
	}
	cfg, cl, err := cmdutil.LoadCluster(cmd, cmd.String("cluster"))
	if err != nil {
		return err
	}
	for _, o := range opt.Ready {
		if cfg.Cluster(o.Cluster) == nil {
			return cmdutil.UsageErrorf("--ready %s: no such cluster", o.Spec)
		}
	}
	if cmd.String("grpc-impl") == "go" {
		// grpc-go implements gRFC A74 (cookie config) but not A75's
		// xds_override_host policy: the cookie never selects a host.
		rep := &proxyless.SessionReport{Cluster: cl.Name(), Result: "delegate", Reason: "grpc-go has no stateful session affinity (gRFC A75 is implemented by C-core only): the session cookie is ignored and the cluster's LB policy picks the host",
			OverrideHostStatus: []string{}, Endpoints: []proxyless.SessionEndpoint{}, Notes: []string{}}
		return writeSession(cmd, cfg, cl, opt, rep)
	}
	rep, err := proxyless.Session(cfg, cl, opt)
	if err != nil {
		var pos string
		if cl.Proto != nil {
			pos = cfg.Sources.Pos(cl.Proto).String() + ": "
		}
		// An error that starts with an option (--state …) is about the
		// command line.
		if strings.HasPrefix(err.Error(), option.Open) || strings.Contains(err.Error(), "aggregate cluster") {
			return cmdutil.UsageErrorf("%v", err)
		}
		return cmdutil.InputError(fmt.Errorf("%scluster %q: %w", pos, cl.Name(), err))
	}
	return writeSession(cmd, cfg, cl, opt, rep)
}

// sessionOutput is gRFC A75's answer (the contract's fields) and, unless
// --semantics grpc, Envoy's answer to the same request under "envoy".
type sessionOutput struct {
	*proxyless.SessionReport `yaml:",inline"`
	Envoy                    *envoysession.Report `json:"envoy,omitempty" yaml:"envoy,omitempty"`
}

func writeSession(cmd *cli.Command, cfg *config.Config, cl *config.Cluster, opt proxyless.SessionOptions, rep *proxyless.SessionReport) error {
	out := sessionOutput{SessionReport: rep}
	if cmd.String("semantics") != "grpc" {
		env, err := envoysession.Envoy(cfg, cl, opt.Cookie, opt.Options)
		if err != nil {
			return cmdutil.InputError(err)
		}
		out.Envoy = env
	}
	return cmdutil.WriteOutput(cmd, out, func(t *term.IO) {
		renderSession(t, rep)
		if out.Envoy != nil {
			renderEnvoySession(t, out.Envoy)
		}
	})
}

// renderEnvoySession writes Envoy's answer below gRPC's.
func renderEnvoySession(t *term.IO, r *envoysession.Report) {
	res := t.Paint(resultColor(r.Result)).Bold(true).Render(strings.ToUpper(r.Result))
	filter := "no stateful_session filter loaded"
	switch {
	case r.Filter != "" && r.Strict:
		filter = "strict stateful_session filter"
	case r.Filter != "":
		filter = "stateful_session filter"
	}
	fmt.Fprintf(t.Out, "\nEnvoy on the same request (%s): %s", filter, res)
	if r.Host != nil {
		fmt.Fprintf(t.Out, " %s", *r.Host)
	}
	fmt.Fprintln(t.Out)
	fmt.Fprintln(t.Out, cmdutil.Wrap(r.Reason, t.Width, ""))
	cmdutil.Notes(t, r.Notes, cmdutil.NoteList)
}

func renderSession(t *term.IO, r *proxyless.SessionReport) {
	host := "-"
	if r.Host != nil {
		host = *r.Host
	}
	res := t.Paint(resultColor(r.Result)).Bold(true).Render(strings.ToUpper(r.Result))
	fmt.Fprintf(t.Out, "%s  %s", t.Style().Bold(true).Render(r.Cluster), res)
	if r.Host != nil {
		fmt.Fprintf(t.Out, " %s", host)
	}
	if r.Action != "" {
		fmt.Fprintf(t.Out, " (action: %s)", r.Action)
	}
	fmt.Fprintln(t.Out)
	fmt.Fprintln(t.Out, cmdutil.Wrap(r.Reason, t.Width, ""))
	fmt.Fprintf(t.Out, "override_host_status [%s]%sidle_timeout %s\n", strings.Join(r.OverrideHostStatus, ", "), t.Sep(), r.IdleTimeout)
	rows := make([][]string, 0, len(r.Endpoints))
	for _, e := range r.Endpoints {
		rows = append(rows, []string{e.Address, "P" + fmt.Sprint(e.Priority), e.Health, e.State})
	}
	fmt.Fprintln(t.Out)
	fmt.Fprintln(t.Out, encode.Table(t, []string{"ENDPOINT", "PRIORITY", "HEALTH", "SUBCHANNEL"}, rows))
	cmdutil.Notes(t, r.Notes, cmdutil.NoteList)
}

// resultColor colours a session result: pick green, queue yellow,
// delegate blue.
func resultColor(result string) term.Color {
	switch result {
	case "pick":
		return term.Good
	case "queue":
		return term.Title
	}
	return term.Heading
}
