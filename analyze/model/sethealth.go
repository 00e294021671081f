package model

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/option"
)

// ParseHealthOverride reads CLUSTER[/PRIORITY]=PERCENT or
// CLUSTER[/PRIORITY]=HEALTHY/TOTAL.
func ParseHealthOverride(spec string) (HealthOverride, error) {
	o := HealthOverride{Spec: spec, Priority: -1}
	lhs, rhs, ok := strings.Cut(spec, "=")
	if !ok || lhs == "" || rhs == "" {
		return o, fmt.Errorf("%s %q: expected CLUSTER[/PRIORITY]=PERCENT or =HEALTHY/TOTAL", option.SetHealth, spec)
	}
	o.Cluster = lhs
	if i := strings.LastIndexByte(lhs, '/'); i >= 0 {
		p, err := strconv.Atoi(strings.TrimPrefix(lhs[i+1:], "P"))
		if err != nil || p < 0 || p > 128 {
			return o, fmt.Errorf("%s %q: %q is not a priority (0 to 128)", option.SetHealth, spec, lhs[i+1:])
		}
		o.Cluster, o.Priority = lhs[:i], p
	}
	if h, t, ok := strings.Cut(rhs, "/"); ok {
		hv, err1 := strconv.Atoi(h)
		tv, err2 := strconv.Atoi(t)
		if err1 != nil || err2 != nil || tv <= 0 || hv < 0 || hv > tv {
			return o, fmt.Errorf("%s %q: %q is not HEALTHY/TOTAL with 0 ≤ HEALTHY ≤ TOTAL", option.SetHealth, spec, rhs)
		}
		o.Healthy, o.Total = hv, tv
		return o, nil
	}
	pct, err := strconv.ParseFloat(strings.TrimSuffix(rhs, "%"), 64)
	if err != nil || !(pct >= 0 && pct <= 100) { // NaN fails both
		return o, fmt.Errorf("%s %q: %q is not a percentage from 0 to 100", option.SetHealth, spec, rhs)
	}
	o.Percent = pct
	return o, nil
}
