package commands

import (
	"encoding/json"
	"fmt"
	"testing"
)

// TestSweepHostsHashMatchesSetHealth: a sweep's host shares for a RING_HASH
// or MAGLEV cluster at each step are explain's with the same health set by
// --set-health (the table is built over the step's healthy hosts, not the
// file's).
func TestSweepHostsHashMatchesSetHealth(t *testing.T) {
	for _, c := range []struct{ file, cluster string }{
		{"../fixtures/hash/ring-basic.yaml", "ring"},
		{"../fixtures/hash/maglev-basic.yaml", "maglev"},
	} {
		out, errs, code := run(t, "", "sweep", c.file, "--cluster", c.cluster, "--hosts", "--step", "25", "-o", "json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.file, code, errs)
		}
		var sw struct {
			Rows []struct {
				Healthy, Total int
				Hosts          []struct {
					Address string
					Share   float64
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &sw); err != nil {
			t.Fatal(err)
		}
		if len(sw.Rows) < 3 {
			t.Fatalf("%s: %d rows", c.file, len(sw.Rows))
		}
		for _, row := range sw.Rows {
			spec := fmt.Sprintf("%s/0=%d/%d", c.cluster, row.Healthy, row.Total)
			out, errs, code := run(t, "", "explain", c.file, "--cluster", c.cluster, "--set-health", spec, "-o", "json")
			if code != 0 {
				t.Fatalf("explain --set-health %s: exit %d: %s", spec, code, errs)
			}
			var ex struct {
				Clusters []struct {
					Hosts []struct {
						Address string
						Share   *float64
					}
				}
			}
			if err := json.Unmarshal([]byte(out), &ex); err != nil {
				t.Fatal(err)
			}
			want := map[string]float64{}
			for _, h := range ex.Clusters[0].Hosts {
				if h.Share != nil {
					want[h.Address] = *h.Share
				}
			}
			for _, h := range row.Hosts {
				if h.Share != want[h.Address] {
					t.Errorf("%s, %d of %d healthy: %s has %v in the sweep, %v in explain", c.file, row.Healthy, row.Total, h.Address, h.Share, want[h.Address])
				}
			}
		}
	}
}
