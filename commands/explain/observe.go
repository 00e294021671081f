package explain

import (
	"fmt"
	"strconv"
	"time"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/config/fetch"
	"github.com/lbctl/lbctl/analyze/observe"
	"github.com/lbctl/lbctl/analyze/traffic"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"

	"github.com/urfave/cli/v3"
)

// observeFlag compares predicted with observed shares (explain --admin).
func observeFlag() cli.Flag {
	return &cli.DurationFlag{Name: "observe", Usage: "with --admin: read /clusters again after DURATION and show each host's observed share of requests beside the predicted one"}
}

// runObserve reads /clusters a second time, window after the first read
// (held in cfg.LiveHealth), and compares the counters with report.
func runObserve(cmd *cli.Command, cfg *config.Config, report *traffic.Report, window time.Duration) error {
	time.Sleep(window)
	in, err := fetch.AdminPath(cmd.String("admin"), "/clusters?format=json",
		fetch.Options{AllowRemote: cmd.Bool("allow-remote"), Timeout: cmd.Duration("timeout"), MaxBytes: cmdutil.Limits(cmd).MaxInput})
	if err != nil {
		return cmdutil.InputError(err)
	}
	after, err := config.LoadBytes(in.Path, in.Data, config.KindAdmin)
	if err != nil {
		return cmdutil.InputError(err)
	}
	r := observe.Build(report, cfg.LiveHealth, after.LiveHealth, window)
	return cmdutil.WriteOutput(cmd, r, func(t *term.IO) { renderObserve(t, r) })
}

func renderObserve(t *term.IO, r *observe.Report) {
	for i, c := range r.Clusters {
		if i > 0 {
			fmt.Fprintln(t.Out)
		}
		title := t.Paint(term.Title).Bold(true).Render(c.Name)
		fmt.Fprint(t.Out, cmdutil.Headline(t, title, []string{c.Policy, strconv.FormatUint(c.Requests, 10) + " requests in " + r.Window})+"\n\n")
		rows := make([][]string, 0, len(c.Hosts))
		for _, h := range c.Hosts {
			pred, z := "-", "-"
			if h.Predicted != nil {
				pred = cmdutil.FPct(*h.Predicted)
			}
			if h.Z != nil {
				z = strconv.FormatFloat(*h.Z, 'f', 1, 64)
			}
			rows = append(rows, []string{h.Address, pred, cmdutil.FPct(h.Observed), strconv.FormatUint(h.Requests, 10), z, h.Verdict})
		}
		fmt.Fprintln(t.Out, encode.Table(t, []string{"HOST", "PREDICTED", "OBSERVED", "REQUESTS", "Z", "VERDICT"}, rows, 1, 2, 3, 4))
		cmdutil.Notes(t, c.Notes, cmdutil.NoteList)
	}
	cmdutil.Notes(t, r.Notes, cmdutil.NoteList)
}
