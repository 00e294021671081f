package commands

import (
	"io"

	gojson "github.com/goccy/go-json"

	"github.com/lbctl/lbctl/analyze/traffic"
)

// explain -o json of a mesh dump is tens of MB; encoding/json spends most
// of its time on reflection and on re-indenting what it wrote (125 ms for
// a 10,000-cluster dump's report, against 30 ms here). The traffic report
// goes through goccy/go-json, which writes the same bytes
// (json_traffic_test.go compares the two on every fixture and on hostile
// values).

// writeTrafficJSON writes r as writeJSON does.
func writeTrafficJSON(w io.Writer, r *traffic.Report) error {
	emptyTrafficSlices(r)
	enc := gojson.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// emptyTrafficSlices is emptySlices for a traffic report, without
// reflection: nil lists the contract prints become [].
func emptyTrafficSlices(r *traffic.Report) {
	if r.Clusters == nil {
		r.Clusters = []traffic.ClusterReport{}
	}
	for i := range r.Clusters {
		c := &r.Clusters[i]
		if c.Priorities == nil {
			c.Priorities = []traffic.PriorityReport{}
		}
		if c.Hosts == nil {
			c.Hosts = []traffic.HostReport{}
		}
		if c.Notes == nil {
			c.Notes = []string{}
		}
		if a := c.Aggregate; a != nil {
			if a.Clusters == nil {
				a.Clusters = []string{}
			}
			if a.Levels == nil {
				a.Levels = []traffic.AggregateLevel{}
			}
			if a.ClusterLoad == nil {
				a.ClusterLoad = []traffic.AggregateClusterLd{}
			}
		}
		if z := c.ZoneRouting; z != nil && z.Localities == nil {
			z.Localities = []traffic.ZoneLocalityReport{}
		}
	}
}
