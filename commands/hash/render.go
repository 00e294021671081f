package hash

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/hashing"
	"github.com/lbctl/lbctl/analyze/placement"
	"github.com/lbctl/lbctl/commands/cmdutil"
	"github.com/lbctl/lbctl/commands/encode"
	"github.com/lbctl/lbctl/commands/term"
)

// renderHash writes `lbctl hash`'s report as terminal tables.
func renderHash(t *term.IO, r *hashing.HashReport, all bool) {
	title := t.Paint(term.Title).Bold(true).Render(r.Cluster)
	meta := []string{r.LbPolicy}
	if r.RingSize != nil {
		at := 0
		for _, p := range r.Priorities {
			if p.Size > 0 {
				at = p.Priority
				break
			}
		}
		meta = append(meta, fmt.Sprintf("ring of %d entries (P%d)", *r.RingSize, at), r.HashFunction)
	}
	if r.TableSize != nil {
		meta = append(meta, fmt.Sprintf("table size %d", *r.TableSize))
	}
	fmt.Fprint(t.Out, cmdutil.Headline(t, title, meta)+"\n")

	unit := "ENTRIES"
	if r.TableSize != nil {
		unit = "SLOTS"
	}
	rows := make([][]string, 0, len(r.Priorities))
	for _, p := range r.Priorities {
		share := "-"
		if p.InTable > 0 {
			share = cmdutil.FPct(p.MinShare) + "–" + cmdutil.FPct(p.MaxShare)
			if !t.Unicode() {
				share = cmdutil.FPct(p.MinShare) + " - " + cmdutil.FPct(p.MaxShare)
			}
		}
		rows = append(rows, []string{"P" + strconv.Itoa(p.Priority), cmdutil.Pct(p.HealthyLoad + p.DegradedLoad), cmdutil.YesNo(t, p.Panic),
			fmt.Sprintf("%d/%d", p.InTable, p.Hosts), strconv.FormatUint(p.Size, 10), share,
			strconv.FormatFloat(p.StdDev*100, 'f', 2, 64) + "%", p.Verdict})
	}
	if len(rows) > 0 {
		fmt.Fprintln(t.Out)
		fmt.Fprintln(t.Out, encode.Table(t, []string{"PRIORITY", "LOAD", "PANIC", "HOSTS USED", unit, "HOST SHARES", "STDDEV", "VERDICT"}, rows, 1, 3, 4, 6))
	}

	renderHashHosts(t, r.Hosts, unit, all)

	if len(r.Lookups) > 0 {
		lrows := make([][]string, 0, len(r.Lookups))
		for _, l := range r.Lookups {
			hash, host := "-", "(none)"
			if l.Hash != nil {
				hash = strconv.FormatUint(*l.Hash, 10)
			}
			if l.Host != nil {
				host = *l.Host
			}
			prio := "P" + strconv.Itoa(l.Priority)
			if l.Hash == nil {
				prio = "random"
				host = "random"
			} else if l.Degraded {
				prio += " (degraded)"
			}
			lrows = append(lrows, []string{l.Input, hash, prio, host})
		}
		fmt.Fprintln(t.Out)
		fmt.Fprintln(t.Out, encode.Table(t, []string{"LOOKUP", "HASH", "PRIORITY", "HOST"}, lrows, 1))
		if r.HashPolicy != nil && r.HashPolicy.From != "" {
			pol := strings.Join(r.HashPolicy.Policies, "; ")
			if pol == "" {
				pol = "none"
			}
			fmt.Fprintln(t.Out, t.Style().Faint(true).Render("hash policy of "+r.HashPolicy.From+": "+pol))
		}
		for _, l := range r.Lookups {
			if l.Reason != "" {
				fmt.Fprintln(t.Out, cmdutil.Wrap(l.Input+": "+l.Reason, t.Width, "  "))
			}
		}
	}

	if r.Dump != nil {
		fmt.Fprintln(t.Out)
		streamDump(t, *r.Dump)
	}
	if r.Ring != nil {
		drows := make([][]string, len(r.Ring))
		for i, p := range r.Ring {
			drows[i] = []string{strconv.Itoa(i), strconv.FormatUint(p.Hash, 10), p.Host}
		}
		fmt.Fprintln(t.Out)
		fmt.Fprintln(t.Out, encode.Table(t, []string{"ENTRY", "HASH", "HOST"}, drows, 0, 1))
	}
	if r.Table != nil {
		drows := make([][]string, len(r.Table))
		for i, h := range r.Table {
			drows[i] = []string{strconv.Itoa(i), h}
		}
		fmt.Fprintln(t.Out)
		fmt.Fprintln(t.Out, encode.Table(t, []string{"SLOT", "HOST"}, drows, 0))
	}

	if rm := r.Remove; rm != nil {
		renderRemoval(t, rm, all)
	}

	cmdutil.Notes(t, r.Notes, cmdutil.NoteList)
}

func renderHashHosts(t *term.IO, hosts []placement.HashHost, unit string, all bool) {
	if len(hosts) == 0 {
		return
	}
	shown := hosts
	if !all && len(hosts) > cmdutil.TopHosts {
		shown = hosts[:cmdutil.TopHosts]
	}
	rows := make([][]string, 0, len(shown))
	for _, h := range shown {
		rows = append(rows, []string{h.Address, "P" + strconv.Itoa(h.Priority), cmdutil.HealthText(h.Health),
			strconv.FormatUint(h.Entries, 10), cmdutil.FPct(h.Share), cmdutil.FPct(h.Expected), t.Bar(h.Share, 10)})
	}
	fmt.Fprintln(t.Out)
	fmt.Fprintln(t.Out, encode.Table(t, []string{"HOST", "PRIORITY", "HEALTH", unit, "SHARE", "EXPECTED", ""}, rows, 3, 4, 5))
	if len(shown) < len(hosts) {
		fmt.Fprintln(t.Out, t.Style().Faint(true).Render(fmt.Sprintf("… %d more hosts (--all lists every host)", len(hosts)-len(shown))))
	}
}

// renderRemoval shows what removing hosts moves; the hosts that gain the
// most of the removed hash space first, the top 10 unless all.
func renderRemoval(t *term.IO, rm *hashing.HashRemoval, all bool) {
	fmt.Fprintf(t.Out, "\nRemoving %s\n", strings.Join(rm.Addresses, ", "))
	var rows [][]string
	for _, m := range []struct {
		name string
		r    *hashing.MovedReport
	}{{"ring hash", rm.RingHash}, {"Maglev", rm.Maglev}} {
		if m.r == nil {
			continue
		}
		if m.r.Error != "" {
			rows = append(rows, []string{m.name, m.r.Config, "-", "-", "-", m.r.Error})
			continue
		}
		rows = append(rows, []string{m.name, m.r.Config, cmdutil.FPct(m.r.Moved), cmdutil.FPct(m.r.Removed),
			cmdutil.FPct(max(0, m.r.Moved-m.r.Removed)), t.Bar(m.r.Moved, 10)})
	}
	fmt.Fprintln(t.Out, encode.Table(t, []string{"ALGORITHM", "CONFIG", "MOVED", "FROM REMOVED", "CHURN", ""}, rows, 2, 3, 4))
	if rm.MaglevOverRing > 0 {
		fmt.Fprintln(t.Out, cmdutil.Wrap(fmt.Sprintf("Maglev moves %.2f× as much of the hash space as ring hash (FROM REMOVED: what the removed hosts answered; CHURN: keys that move between hosts that stay).", rm.MaglevOverRing), t.Width, ""))
	}
	dest := map[string][2]float64{}
	var order []string
	for i, r := range []*hashing.MovedReport{rm.RingHash, rm.Maglev} {
		if r == nil {
			continue
		}
		for _, d := range r.To {
			v, ok := dest[d.Host]
			if !ok {
				order = append(order, d.Host)
			}
			v[i] = d.Share
			dest[d.Host] = v
		}
	}
	if len(order) == 0 {
		return
	}
	gain := func(h string) float64 { return max(dest[h][0], dest[h][1]) }
	sort.SliceStable(order, func(i, j int) bool { return gain(order[i]) > gain(order[j]) })
	shown := order
	if !all && len(order) > cmdutil.TopHosts {
		shown = order[:cmdutil.TopHosts]
	}
	rows = rows[:0]
	for _, h := range shown {
		v := dest[h]
		rows = append(rows, []string{h, cmdutil.FPct(v[0]), cmdutil.FPct(v[1])})
	}
	fmt.Fprintln(t.Out)
	fmt.Fprintln(t.Out, encode.Table(t, []string{"MOVED TO", "RING HASH", "MAGLEV"}, rows, 1, 2))
	if len(shown) < len(order) {
		fmt.Fprintln(t.Out, t.Style().Faint(true).Render(fmt.Sprintf("… %d more hosts gain hash space (--all lists every host)", len(order)-len(shown))))
	}
}
