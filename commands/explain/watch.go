package explain

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/explain"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/analyze/proxyless"
	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/analyze/watch"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"

	"github.com/urfave/cli/v3"
)

func watchFlag() cli.Flag {
	return &cli.DurationFlag{Name: "watch", Usage: "with --admin or --csds: fetch again every DURATION and show what changed (clusters, host health, loads, host shares) until interrupted", Validator: cmdutil.Positive("watch")}
}

// checkWatch validates --watch against the other flags.
func checkWatch(cmd *cli.Command, semantics string) error {
	if cmd.Duration("watch") <= 0 {
		return nil
	}
	switch {
	case !cmdutil.Live(cmd):
		return cmdutil.UsageErrorf("--watch needs --admin URL or --csds ADDR (it fetches the live state again)")
	case cmd.Duration("observe") > 0:
		return cmdutil.UsageErrorf("--watch and --observe cannot be combined")
	case semantics == "both":
		return cmdutil.UsageErrorf("--watch shows one semantics: give --semantics envoy or grpc")
	case cmd.String("output") != "text" && cmd.String("output") != "json":
		return cmdutil.UsageErrorf("--watch writes text or JSON (the first report, then one JSON object per fetch)")
	}
	return nil
}

// explainSnapshot fetches the live inputs again and builds the report of
// the --cluster names that exist now (all clusters without --cluster): a
// cluster that went away is a change, not an error.
func explainSnapshot(cmd *cli.Command, opt model.Options, semantics string) (*traffic.Report, error) {
	cfg, err := cmdutil.LoadInputs(cmd, cmd.Args().Slice())
	if err != nil {
		return nil, err
	}
	clusters := cfg.Clusters
	if names := cmd.StringSlice("cluster"); len(names) > 0 {
		clusters = nil
		for _, n := range names {
			// A name or pattern matching nothing now is no error here.
			if cls, err := cmdutil.SelectClusters(cfg, []string{n}); err == nil {
				clusters = append(clusters, cls...)
			}
		}
	}
	return buildTraffic(cmd, cfg, clusters, opt, semantics)
}

func buildTraffic(cmd *cli.Command, cfg *config.Config, clusters []*config.Cluster, opt model.Options, semantics string) (*traffic.Report, error) {
	if semantics == "grpc" {
		g, err := grpcOptions(cmd, opt)
		if err != nil {
			return nil, err
		}
		return proxyless.Build(cfg, clusters, g)
	}
	return explain.Build(cfg, clusters, opt)
}

// runExplainWatch is explain --watch: the report of this fetch, then the
// changes of each later one.
func runExplainWatch(ctx context.Context, cmd *cli.Command, cfg *config.Config, clusters []*config.Cluster, opt model.Options, semantics string) error {
	report, err := buildTraffic(cmd, cfg, clusters, opt, semantics)
	if err != nil {
		if semantics == "grpc" {
			return cmdutil.UsageErrorf("%v", err) // --ready problems, as runExplainGRPC
		}
		return cmdutil.InputError(err)
	}
	render := func(t *term.IO) { renderExplain(t, report, cmd.Bool("all")) }
	if semantics == "grpc" {
		g, _ := grpcOptions(cmd, opt) // buildTraffic has checked them
		render = func(t *term.IO) { renderExplainGRPC(t, report, g.Impl, cmd.Bool("all")) }
	}
	return runWatch(ctx, cmd, report, render, func() (*traffic.Report, error) { return explainSnapshot(cmd, opt, semantics) })
}

// runWatch prints first as explain does, then every interval fetches again
// and prints what changed since the last fetch that worked, until ctx ends
// (Ctrl-C). A failed fetch is reported and the watch goes on: the proxy may
// be restarting.
func runWatch(ctx context.Context, cmd *cli.Command, first *traffic.Report, render func(*term.IO), snapshot func() (*traffic.Report, error)) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	if err := cmdutil.WriteOutput(cmd, first, render); err != nil {
		return err
	}
	if cmd.String("output") != "json" {
		// writeOutput escaped first's strings in place for the text
		// report: escape each fetch alike, or a name holding a control
		// character would differ from itself.
		fetch := snapshot
		snapshot = func() (*traffic.Report, error) {
			cur, err := fetch()
			if err == nil {
				encode.EscapeStrings(cur)
			}
			return cur, err
		}
	}
	t := cmdutil.Term(cmd)
	if !t.Unicode() {
		t = t.WithOut(encode.ASCII{W: t.Out})
	}
	env := cmdutil.EnvOf(cmd)
	return watchLoop(ctx, cmd.Duration("watch"), env.WatchRounds, env.Now, first, snapshot, func(f watch.Fetch) error {
		if cmd.String("output") != "json" {
			encode.EscapeStrings(&f) // fetch errors too; Escape leaves escaped names as they are
			renderFetch(t, f)
			return nil
		}
		b, err := json.Marshal(f)
		if err == nil {
			_, err = fmt.Fprintf(t.Out, "%s\n", b)
		}
		return err
	})
}

// watchLoop fetches every interval (rounds times, or until ctx ends when
// rounds is 0) and emits each fetch's changes against the last good one,
// stamped by now.
func watchLoop(ctx context.Context, every time.Duration, rounds int, now func() time.Time, first *traffic.Report, snapshot func() (*traffic.Report, error), emit func(watch.Fetch) error) error {
	prev := first
	for n := 2; rounds == 0 || n <= rounds+1; n++ {
		if ctx.Err() != nil {
			return nil
		}
		timer := time.NewTimer(every)
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil
		case <-timer.C:
		}
		f := watch.Fetch{Fetch: n, Time: now().UTC().Format(time.RFC3339), Changes: []watch.Change{}} // a failed fetch has [] changes, not null
		if cur, err := snapshot(); err != nil {
			f.Error = err.Error()
		} else {
			f.Changes, prev = watch.Changes(prev, cur), cur
		}
		if err := emit(f); err != nil {
			return err
		}
	}
	return nil
}

// renderFetch writes "[15:04:05Z] fetch 2: 1 change" and one line per change.
func renderFetch(t *term.IO, f watch.Fetch) {
	stamp := f.Time
	if tm, err := time.Parse(time.RFC3339, f.Time); err == nil {
		stamp = tm.Format("15:04:05Z")
	}
	head := t.Style().Bold(true).Render(fmt.Sprintf("[%s] fetch %d: ", stamp, f.Fetch))
	switch {
	case f.Error != "":
		fmt.Fprintln(t.Out, "\n"+head+"failed: "+f.Error)
		return
	case len(f.Changes) == 0:
		fmt.Fprintln(t.Out, "\n"+head+"no change")
		return
	case len(f.Changes) == 1:
		fmt.Fprintln(t.Out, "\n"+head+"1 change")
	default:
		fmt.Fprintf(t.Out, "\n%s%d changes\n", head, len(f.Changes))
	}
	for _, c := range f.Changes {
		fmt.Fprintln(t.Out, "  "+changeText(c))
	}
}

func changeText(c watch.Change) string {
	host := c.Host
	if c.Child != "" {
		host = c.Child + " " + c.Host
	}
	switch c.Change {
	case watch.ClusterAdded:
		return fmt.Sprintf("+ cluster %s (%v)", c.Cluster, c.New)
	case watch.ClusterRemoved:
		return fmt.Sprintf("- cluster %s", c.Cluster)
	case watch.HostAdded:
		return fmt.Sprintf("%s: + host %s (share %s)", c.Cluster, host, shareText(c.New))
	case watch.HostRemoved:
		return fmt.Sprintf("%s: - host %s (had %s)", c.Cluster, host, shareText(c.Old))
	case watch.Load:
		pct := func(v any) string {
			if v == nil {
				return "-"
			}
			return fmt.Sprintf("%v%%", v)
		}
		return fmt.Sprintf("%s: P%d load %s → %s", c.Cluster, *c.Priority, pct(c.Old), pct(c.New))
	case watch.Health:
		return fmt.Sprintf("%s: %s %v → %v", c.Cluster, host, c.Old, c.New)
	}
	return fmt.Sprintf("%s: %s share %s → %s", c.Cluster, host, shareText(c.Old), shareText(c.New))
}

func shareText(v any) string {
	f, ok := v.(float64)
	if !ok {
		return "-"
	}
	return strings.TrimSpace(cmdutil.FPct(f))
}
