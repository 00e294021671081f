package cmdutil

import (
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/lbmodel"

	"github.com/urfave/cli/v3"
)

// WhatIfFlags are explain's --set-health, --zone and --active-requests,
// for commands that compose explain's host shares (route).
func WhatIfFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "zone", Usage: "this Envoy's locality REGION/ZONE[/SUB_ZONE] (default: the bootstrap's node.locality)"},
		&cli.StringSliceFlag{Name: "active-requests", Usage: "ADDRESS=N active requests on a host, for least request (repeatable)"},
		&cli.StringSliceFlag{Name: "set-health", Usage: "what-if: CLUSTER[/PRIORITY]=PERCENT or =HEALTHY/TOTAL makes that share of hosts healthy (repeatable)"},
	}
}

// WhatIfOptions parses WhatIfFlags as explain does; a malformed value is
// a usage error.
func WhatIfOptions(cmd *cli.Command) (model.Options, error) {
	var opt model.Options
	if z := cmd.String("zone"); z != "" {
		parts := strings.Split(z, "/")
		if len(parts) < 2 || len(parts) > 3 {
			return opt, UsageErrorf("--zone %q: expected REGION/ZONE or REGION/ZONE/SUB_ZONE", z)
		}
		l := lbmodel.Locality{Region: parts[0], Zone: parts[1]}
		if len(parts) == 3 {
			l.SubZone = parts[2]
		}
		opt.Zone = &l
	}
	for _, a := range cmd.StringSlice("active-requests") {
		i := strings.LastIndexByte(a, '=')
		if i <= 0 {
			return opt, UsageErrorf("--active-requests %q: expected ADDRESS=N, e.g. 10.0.0.1:80=5", a)
		}
		v, err := strconv.ParseUint(a[i+1:], 10, 64)
		if err != nil {
			return opt, UsageErrorf("--active-requests %q: expected ADDRESS=N, e.g. 10.0.0.1:80=5", a)
		}
		if opt.ActiveRequests == nil {
			opt.ActiveRequests = map[string]uint64{}
		}
		opt.ActiveRequests[a[:i]] = v
	}
	for _, s := range cmd.StringSlice("set-health") {
		o, err := model.ParseHealthOverride(s)
		if err != nil {
			return opt, UsageErrorf("%v", err)
		}
		opt.SetHealth = append(opt.SetHealth, o)
	}
	return opt, nil
}
