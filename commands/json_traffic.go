package commands

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/lbctl/lbctl/analyze/traffic"
)

// explain -o json of a mesh dump is tens of MB; encoding/json spends most
// of its time on reflection and on re-indenting what it wrote. The traffic
// report is written here directly, indented, byte for byte as
// json.Encoder with SetIndent("", "  ") writes it (json_traffic_test.go
// compares the two).

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

// trafficJSONSize is about how many bytes appendTrafficJSON writes for r
// (a little more as a rule), so the buffer is allocated once.
func trafficJSONSize(r *traffic.Report) int {
	n := 64
	for i := range r.Clusters {
		c := &r.Clusters[i]
		n += 640 + 2*(len(c.Name)+len(c.File))
		for _, s := range c.Notes {
			n += len(s) + 16
		}
		for _, p := range c.Priorities {
			n += 400 + 480*len(p.Localities)
		}
		for j := range c.Hosts {
			h := &c.Hosts[j]
			n += 300 + len(h.Cluster) + len(h.Address) + len(h.Hostname) + len(h.Region) + len(h.Zone) + len(h.SubZone)
		}
		if a := c.Aggregate; a != nil {
			n += 200 + 300*len(a.Levels) + 100*len(a.ClusterLoad) + 64*len(a.Clusters)
		}
		if z := c.ZoneRouting; z != nil {
			n += 200 + 160*len(z.Localities)
		}
	}
	return n
}

// appendTrafficJSON appends r as writeJSON writes it (with the final
// newline); ok is false if r holds a value encoding/json refuses (NaN, an
// infinity), for the caller to let encoding/json report it.
func appendTrafficJSON(b []byte, r *traffic.Report) (_ []byte, ok bool) {
	w := jsonWriter{b: b, ok: true}
	w.open('{')
	if r.Semantics != "" {
		w.key("semantics")
		w.str(r.Semantics)
	}
	w.key("clusters")
	w.open('[')
	for i := range r.Clusters {
		w.elem()
		w.cluster(&r.Clusters[i])
	}
	w.close(']')
	w.close('}')
	w.b = append(w.b, '\n')
	return w.b, w.ok
}

// jsonWriter writes indented JSON: first says whether the open object or
// array has no member yet, so the next one needs no comma.
type jsonWriter struct {
	b     []byte
	depth int
	first bool
	ok    bool
}

func (w *jsonWriter) open(c byte) {
	w.b = append(w.b, c)
	w.depth++
	w.first = true
}

// close ends an object or array; an empty one stays "[]" / "{}".
func (w *jsonWriter) close(c byte) {
	w.depth--
	if !w.first {
		w.newline()
	}
	w.b = append(w.b, c)
	w.first = false
}

func (w *jsonWriter) newline() {
	w.b = append(w.b, '\n')
	for range w.depth {
		w.b = append(w.b, ' ', ' ')
	}
}

// elem starts an array element.
func (w *jsonWriter) elem() {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.newline()
}

// key starts an object member; k is one of the contract's field names,
// which need no escaping.
func (w *jsonWriter) key(k string) {
	w.elem()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':', ' ')
}

func (w *jsonWriter) int(v int)         { w.b = strconv.AppendInt(w.b, int64(v), 10) }
func (w *jsonWriter) uint(v uint64)     { w.b = strconv.AppendUint(w.b, v, 10) }
func (w *jsonWriter) bool(v bool)       { w.b = strconv.AppendBool(w.b, v) }
func (w *jsonWriter) null()             { w.b = append(w.b, "null"...) }
func (w *jsonWriter) intPtr(v *int)     { ptr(w, v, w.int) }
func (w *jsonWriter) f64Ptr(v *float64) { ptr(w, v, w.float) }

func ptr[T any](w *jsonWriter, v *T, f func(T)) {
	if v == nil {
		w.null()
		return
	}
	f(*v)
}

// float is encoding/json's float64 encoding (floatEncoder.encode): 'f'
// unless tiny or huge, then 'e' with a one-digit negative exponent
// trimmed of its leading zero.
func (w *jsonWriter) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		w.ok = false
		w.null()
		return
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	w.b = strconv.AppendFloat(w.b, f, format, -1, 64)
	if format == 'e' {
		n := len(w.b)
		if n >= 4 && w.b[n-4] == 'e' && w.b[n-3] == '-' && w.b[n-2] == '0' {
			w.b[n-2] = w.b[n-1]
			w.b = w.b[:n-1]
		}
	}
}

// str writes s quoted: directly when encoding/json would copy it as is
// (printable ASCII other than " \\ < > &, valid UTF-8 other than U+2028
// and U+2029), else through encoding/json itself.
func (w *jsonWriter) str(s string) {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 || r == '\u2028' || r == '\u2029' {
				w.marshal(s)
				return
			}
			i += n
			continue
		}
		if c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			w.marshal(s)
			return
		}
		i++
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, s...)
	w.b = append(w.b, '"')
}

func (w *jsonWriter) marshal(s string) {
	q, _ := json.Marshal(s) // a string always encodes
	w.b = append(w.b, q...)
}

func (w *jsonWriter) strs(v []string) {
	w.open('[')
	for _, s := range v {
		w.elem()
		w.str(s)
	}
	w.close(']')
}

func (w *jsonWriter) cluster(c *traffic.ClusterReport) {
	w.open('{')
	w.key("name")
	w.str(c.Name)
	w.key("lb_policy")
	w.str(c.LbPolicy)
	w.key("overprovisioning_factor")
	w.uint(uint64(c.OverprovisioningFactor))
	w.key("panic_threshold")
	w.int(c.PanicThreshold)
	w.key("normalized_total_availability")
	w.int(c.NormalizedTotalAvailability)
	w.key("total_panic")
	w.bool(c.TotalPanic)
	w.key("priorities")
	w.open('[')
	for i := range c.Priorities {
		w.elem()
		w.priority(&c.Priorities[i])
	}
	w.close(']')
	w.key("hosts")
	w.open('[')
	for i := range c.Hosts {
		w.elem()
		w.host(&c.Hosts[i])
	}
	w.close(']')
	w.key("no_host_share")
	w.float(c.NoHostShare)
	if c.Aggregate != nil {
		w.key("aggregate")
		w.aggregate(c.Aggregate)
	}
	if c.ZoneRouting != nil {
		w.key("zone_routing")
		w.zoneRouting(c.ZoneRouting)
	}
	w.key("notes")
	w.strs(c.Notes)
	if c.File != "" {
		w.key("file")
		w.str(c.File)
	}
	if c.EndpointsMissing {
		w.key("endpoints_missing")
		w.bool(true)
	}
	w.close('}')
}

func (w *jsonWriter) priority(p *traffic.PriorityReport) {
	w.open('{')
	w.key("priority")
	w.int(p.Priority)
	w.key("hosts")
	w.int(p.Hosts)
	w.key("healthy")
	w.int(p.Healthy)
	w.key("degraded")
	w.int(p.Degraded)
	w.key("excluded")
	w.int(p.Excluded)
	w.key("health")
	w.int(p.Health)
	w.key("degraded_availability")
	w.int(p.DegradedAvailability)
	w.key("panic")
	w.bool(p.Panic)
	w.key("healthy_load")
	w.int(p.HealthyLoad)
	w.key("degraded_load")
	w.int(p.DegradedLoad)
	if len(p.Localities) > 0 {
		w.key("localities")
		w.open('[')
		for i := range p.Localities {
			w.elem()
			w.locality(&p.Localities[i])
		}
		w.close(']')
	}
	if p.Budget != nil {
		w.key("budget")
		w.open('{')
		w.budget(p.Budget)
		w.close('}')
	}
	w.close('}')
}

// budget writes Budget's members; the types that embed it add theirs.
func (w *jsonWriter) budget(b *traffic.Budget) {
	w.key("before_spill")
	w.intPtr(b.BeforeSpill)
	w.key("before_panic")
	w.intPtr(b.BeforePanic)
	w.key("before_total_panic")
	w.intPtr(b.BeforeTotalPanic)
}

func (w *jsonWriter) locality(l *traffic.LocalityReport) {
	w.open('{')
	w.key("region")
	w.str(l.Region)
	w.key("zone")
	w.str(l.Zone)
	w.key("sub_zone")
	w.str(l.SubZone)
	w.key("weight")
	w.uint(uint64(l.Weight))
	w.key("hosts")
	w.int(l.Hosts)
	w.key("healthy")
	w.int(l.Healthy)
	w.key("degraded")
	w.int(l.Degraded)
	w.key("effective_weight")
	w.float(l.EffectiveWeight)
	w.key("share")
	w.float(l.Share)
	if l.Budget != nil {
		w.key("budget")
		w.open('{')
		w.budget(&l.Budget.Budget)
		w.key("before_shift")
		w.intPtr(l.Budget.BeforeShift)
		w.close('}')
	}
	w.close('}')
}

func (w *jsonWriter) host(h *traffic.HostReport) {
	w.open('{')
	if h.Cluster != "" {
		w.key("cluster")
		w.str(h.Cluster)
	}
	w.key("address")
	w.str(h.Address)
	w.key("hostname")
	w.str(h.Hostname)
	w.key("priority")
	w.int(h.Priority)
	w.key("region")
	w.str(h.Region)
	w.key("zone")
	w.str(h.Zone)
	w.key("sub_zone")
	w.str(h.SubZone)
	w.key("health")
	w.str(h.Health)
	w.key("weight")
	w.uint(uint64(h.Weight))
	w.key("share")
	w.f64Ptr(h.Share)
	w.close('}')
}

func (w *jsonWriter) aggregate(a *traffic.AggregateReport) {
	w.open('{')
	w.key("clusters")
	w.strs(a.Clusters)
	w.key("levels")
	w.open('[')
	for i := range a.Levels {
		l := &a.Levels[i]
		w.elem()
		w.open('{')
		w.key("cluster")
		w.str(l.Cluster)
		w.key("priority")
		w.int(l.Priority)
		w.key("health")
		w.int(l.Health)
		w.key("healthy_load")
		w.int(l.HealthyLoad)
		w.key("degraded_load")
		w.int(l.DegradedLoad)
		w.key("panic")
		w.bool(l.Panic)
		w.key("child_panic")
		w.bool(l.ChildPanic)
		if l.Budget != nil {
			w.key("budget")
			w.open('{')
			w.budget(&l.Budget.Budget)
			w.key("before_failover")
			w.intPtr(l.Budget.BeforeFailover)
			w.close('}')
		}
		w.close('}')
	}
	w.close(']')
	w.key("cluster_load")
	w.open('[')
	for _, l := range a.ClusterLoad {
		w.elem()
		w.open('{')
		w.key("cluster")
		w.str(l.Cluster)
		w.key("load")
		w.int(l.Load)
		w.close('}')
	}
	w.close(']')
	w.key("total_panic")
	w.bool(a.TotalPanic)
	w.close('}')
}

func (w *jsonWriter) zoneRouting(z *traffic.ZoneRoutingReport) {
	w.open('{')
	w.key("state")
	w.str(z.State)
	w.key("local_percent")
	w.uint(z.LocalPercent)
	w.key("localities")
	w.open('[')
	for _, l := range z.Localities {
		w.elem()
		w.open('{')
		w.key("region")
		w.str(l.Region)
		w.key("zone")
		w.str(l.Zone)
		w.key("sub_zone")
		w.str(l.SubZone)
		w.key("share")
		w.float(l.Share)
		w.close('}')
	}
	w.close(']')
	if z.Reason != "" {
		w.key("reason")
		w.str(z.Reason)
	}
	w.close('}')
}
