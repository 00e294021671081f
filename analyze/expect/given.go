package expect

import (
	"fmt"
	"strings"
	"time"

	"github.com/lbctl/lbctl/analyze/model"
	"github.com/lbctl/lbctl/lbmodel"
)

// Given is a test's what-ifs, as the flags of explain (and hash --remove).
type Given struct {
	SetHealth      []string
	Zone           string
	ActiveRequests map[string]uint64
	HostAge        map[string]time.Duration
	// Remove is the hosts gone: every expectation reads the cluster
	// without them, and `moved` is the key space they move (hash --remove).
	Remove []string
	// at is where each what-if is written, for errors about its value.
	setHealthAt []Pos
	zoneAt      Pos
	addrAt      map[string]Pos
}

// Options is the explain options the what-ifs stand for; the parser has
// already checked every spec, so an error here is a caller's Given.
func (g Given) Options() (model.Options, error) {
	var opt model.Options
	if g.Zone != "" {
		l, err := parseZone(g.Zone)
		if err != nil {
			return opt, err
		}
		opt.Zone = &l
	}
	for _, s := range g.SetHealth {
		o, err := model.ParseHealthOverride(s)
		if err != nil {
			return opt, err
		}
		opt.SetHealth = append(opt.SetHealth, o)
	}
	opt.Remove = g.Remove
	opt.ActiveRequests = g.ActiveRequests
	opt.HostAges = g.HostAge
	return opt, nil
}

func parseZone(z string) (lbmodel.Locality, error) {
	parts := strings.Split(z, "/")
	if len(parts) < 2 || len(parts) > 3 {
		return lbmodel.Locality{}, fmt.Errorf("zone %q: expected REGION/ZONE or REGION/ZONE/SUB_ZONE", z)
	}
	l := lbmodel.Locality{Region: parts[0], Zone: parts[1]}
	if len(parts) == 3 {
		l.SubZone = parts[2]
	}
	return l, nil
}

// addresses is every host address the what-ifs name, with its position.
func (g Given) addresses() map[string]Pos { return g.addrAt }
