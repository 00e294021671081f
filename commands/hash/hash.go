// Package hash is `lbctl hash`: where a ring hash or Maglev cluster sends
// each key, and what a host's removal remaps.
package hash

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/hashing"
	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/term"

	"github.com/urfave/cli/v3"
)

// New is the hash command.
func New() *cli.Command {
	return cmdutil.Declare(&cli.Command{
		Name:      "hash",
		Usage:     "show a RING_HASH or MAGLEV cluster's placement, where hashes go, and what moves when hosts are removed",
		ArgsUsage: "[FILE ...]",
		Description: `Builds each priority's ring or Maglev table exactly as Envoy does and looks
hashes up in it: the hash first picks the priority (hash % 100 + 1 against the
priority loads), then the same hash is looked up in that priority's ring/table.

--key hashes a string with xxHash64 (seed 0), as a header hash policy does;
--hash takes a raw 64-bit hash; --header, --cookie, --source-ip and --path
together describe ONE request, hashed through the route's hash_policy (or the
cluster's own consistent_hashing_lb_config.hash_policy, which Envoy prefers).

Examples:
  lbctl hash fixtures/hash/ring-basic.yaml --cluster ring --key alice --hash 0
  lbctl hash fixtures/hash/routes.yaml --cluster sessions --route by-user --header x-user=alice
  lbctl hash fixtures/hash/maglev-basic.yaml --cluster maglev --dump
  lbctl hash fixtures/hash/ring-16.yaml --cluster ring16 --remove 10.0.0.3:80`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "cluster", Aliases: []string{"c"}, Usage: "the RING_HASH or MAGLEV cluster (required when the input holds more than one)"},
			&cli.StringSliceFlag{Name: "key", Usage: "look up xxHash64(STRING) (repeatable)"},
			&cli.StringSliceFlag{Name: "hash", Usage: "look up a raw unsigned 64-bit hash (repeatable)"},
			&cli.StringSliceFlag{Name: "header", Usage: "request header NAME=VALUE (repeatable; one request)"},
			&cli.StringSliceFlag{Name: "cookie", Usage: "request cookie NAME=VALUE (repeatable; one request)"},
			&cli.StringSliceFlag{Name: "source-ip", Usage: "the request's downstream IP (one request)"},
			&cli.StringFlag{Name: "path", Usage: "the request's :path with query string, for query_parameter policies (one request)"},
			&cli.StringFlag{Name: "route", Usage: "the route (by name) whose hash_policy applies (default: the routes targeting the cluster)"},
			&cli.BoolFlag{Name: "dump", Usage: "list the whole ring (hash order) or Maglev table (slot order)"},
			&cli.IntFlag{Name: "priority", Usage: "the priority whose ring or table --dump lists", Value: 0},
			&cli.StringSliceFlag{Name: "remove", Usage: "what moves when host ADDRESS is removed, ring hash vs Maglev (repeatable)"},
			&cli.BoolFlag{Name: "all", Usage: "list every host (text output shows the top 10 by default)"},
			cmdutil.KindFlag(),
		}, cmdutil.LiveFlags()...),
		ShellComplete: cmdutil.Complete,
		Action:        runHash,
	}, cmdutil.Support{Output: []string{"json", "yaml"}, Color: true, Semantics: []string{"grpc"}})
}

func runHash(ctx context.Context, cmd *cli.Command) error {
	opt, err := hashOptions(cmd)
	if err != nil {
		return err
	}
	if cmd.String("semantics") == "both" {
		return cmdutil.UsageErrorf("hash: --semantics both is not supported; run it once with envoy and once with grpc")
	}
	name := cmd.String("cluster") // may be empty when the input holds one cluster
	cfg, cl, err := cmdutil.LoadCluster(cmd, name)
	if err != nil {
		return err
	}
	report, err := hashing.Build(cfg, cl, opt)
	if err != nil {
		var ue *model.UsageError
		if errors.As(err, &ue) {
			return cmdutil.UsageErrorf("%s", ue.Msg)
		}
		return cmdutil.InputError(err)
	}
	return cmdutil.WriteOutput(cmd, report, func(t *term.IO) { renderHash(t, report, cmd.Bool("all")) })
}

// hashOptions parses the lookup flags; a malformed value is a usage error.
func hashOptions(cmd *cli.Command) (hashing.HashOptions, error) {
	opt := hashing.HashOptions{
		Keys:            cmd.StringSlice("key"),
		Route:           cmd.String("route"),
		Dump:            cmd.Bool("dump"),
		DumpPriority:    int(cmd.Int("priority")),
		DumpPrioritySet: cmd.IsSet("priority"),
		Stream:          cmd.String("output") == "text",
		GRPC:            cmd.String("semantics") == "grpc",
		Remove:          cmd.StringSlice("remove"),
	}
	for _, s := range cmd.StringSlice("hash") {
		h, err := strconv.ParseUint(strings.TrimSpace(s), 0, 64)
		if err != nil {
			return opt, cmdutil.UsageErrorf("--hash %q: expected an unsigned 64-bit integer (0 to 18446744073709551615, or 0x… hex)", s)
		}
		opt.Hashes = append(opt.Hashes, h)
	}
	var rq hashing.HashRequest
	any := false
	for _, flag := range []string{"header", "cookie"} {
		for _, s := range cmd.StringSlice(flag) {
			k, v, ok := strings.Cut(s, "=")
			if !ok || k == "" {
				return opt, cmdutil.UsageErrorf("--%s %q: expected NAME=VALUE", flag, s)
			}
			if flag == "header" {
				rq.Headers = append(rq.Headers, [2]string{k, v})
			} else {
				rq.Cookies = append(rq.Cookies, [2]string{k, v})
			}
			any = true
		}
	}
	switch ips := cmd.StringSlice("source-ip"); len(ips) {
	case 0:
	case 1:
		rq.SourceIP, any = ips[0], true
	default:
		return opt, cmdutil.UsageErrorf("--source-ip given %d times: the header, cookie and source-ip flags describe one request, which has one source address", len(ips))
	}
	if p := cmd.String("path"); p != "" {
		rq.Path, any = p, true
	}
	if any {
		opt.Request = &rq
	} else if opt.Route != "" {
		return opt, cmdutil.UsageErrorf("--route %q: it applies to a request; give --header, --cookie, --source-ip or --path", opt.Route)
	}
	return opt, nil
}
