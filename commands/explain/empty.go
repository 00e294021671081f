package explain

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/commands/cmdutil"
)

// nothingToExplain is the input error for a configuration without a
// single cluster: it says what was read and what to add, instead of an
// empty answer with exit 0.
func nothingToExplain(cfg *config.Config) error {
	if len(cfg.Clusters) > 0 {
		return nil
	}
	var read []string
	add := "add the file that defines the clusters (a Cluster, a list of clusters, a Bootstrap, or an admin /config_dump)"
	if n := len(cfg.Routes); n > 0 {
		read = append(read, plural(n, "RouteConfiguration", "RouteConfigurations"))
	}
	if n := len(cfg.Listeners); n > 0 {
		read = append(read, plural(n, "Listener", "Listeners"))
	}
	if n := len(cfg.Bootstraps); n > 0 {
		read = append(read, plural(n, "Bootstrap without static clusters", "Bootstraps without static clusters"))
	}
	if n := len(cfg.Assignments); n > 0 {
		var names []string
		for _, a := range cfg.Assignments {
			names = append(names, a.GetClusterName())
		}
		read = append(read, plural(n, "ClusterLoadAssignment", "ClusterLoadAssignments")+" (EDS, for "+listNames(names)+")")
		add = "EDS endpoints are joined to their cluster by cluster_name: add the file that defines " + listNames(names)
	}
	if n := len(cfg.LiveHealth); n > 0 {
		var names []string
		for name := range cfg.LiveHealth {
			names = append(names, name)
		}
		sort.Strings(names)
		read = append(read, "live host health of "+plural(n, "cluster", "clusters")+" (admin /clusters, for "+listNames(names)+")")
		add = "/clusters?format=json carries host health only: add the admin /config_dump?include_eds of the same Envoy"
	}
	what := "no Envoy resources"
	if len(read) > 0 {
		what = strings.Join(read, ", ")
	}
	return cmdutil.InputErrorf("%s: read %s but no cluster, so there is nothing to explain; %s",
		strings.Join(cfg.Files, ", "), what, add)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// listNames writes up to five names, then how many more.
func listNames(names []string) string {
	if len(names) > 5 {
		return strings.Join(names[:5], ", ") + fmt.Sprintf(" and %d more", len(names)-5)
	}
	return strings.Join(names, ", ")
}
