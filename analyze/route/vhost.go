package route

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
)

// vhostIndex is RouteMatcher's domain tables: exact domains, then
// wildcard suffixes and prefixes keyed by their length without the '*',
// longest first, then the single "*" virtual host.
type vhostIndex struct {
	exact              map[string]*routev3.VirtualHost
	suffixes, prefixes map[int]map[string]*routev3.VirtualHost
	suffixLens         []int
	prefixLens         []int
	def                *routev3.VirtualHost
}

// newVhostIndex builds the tables as the RouteMatcher constructor does,
// refusing what Envoy refuses (a duplicate domain, a second "*").
func newVhostIndex(rc *routev3.RouteConfiguration) (*vhostIndex, error) {
	x := &vhostIndex{exact: map[string]*routev3.VirtualHost{},
		suffixes: map[int]map[string]*routev3.VirtualHost{}, prefixes: map[int]map[string]*routev3.VirtualHost{}}
	add := func(tab map[int]map[string]*routev3.VirtualHost, n int, key string, vh *routev3.VirtualHost) bool {
		if tab[n] == nil {
			tab[n] = map[string]*routev3.VirtualHost{}
		}
		if _, dup := tab[n][key]; dup {
			return false
		}
		tab[n][key] = vh
		return true
	}
	for _, vh := range rc.GetVirtualHosts() {
		for _, d := range vh.GetDomains() {
			d = strings.ToLower(d)
			ok := true
			switch {
			case d == "*":
				if x.def != nil {
					return nil, fmt.Errorf("Only a single wildcard domain is permitted in route %s", rc.GetName())
				}
				x.def = vh
			case strings.HasPrefix(d, "*"):
				ok = add(x.suffixes, len(d)-1, d[1:], vh)
			case strings.HasSuffix(d, "*"):
				ok = add(x.prefixes, len(d)-1, d[:len(d)-1], vh)
			default:
				if _, dup := x.exact[d]; dup {
					ok = false
				} else {
					x.exact[d] = vh
				}
			}
			if !ok {
				return nil, fmt.Errorf("Only unique values for domains are permitted. Duplicate entry of domain %s in route %s", d, rc.GetName())
			}
		}
	}
	x.suffixLens, x.prefixLens = descKeys(x.suffixes), descKeys(x.prefixes)
	return x, nil
}

func descKeys(m map[int]map[string]*routev3.VirtualHost) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(out)))
	return out
}

// find is RouteMatcher::findVirtualHost for an already port-handled host.
func (x *vhostIndex) find(host string, ignorePort bool) (*routev3.VirtualHost, string) {
	if len(x.exact) == 0 && len(x.suffixes) == 0 && len(x.prefixes) == 0 {
		return x.def, "the only virtual host is the \"*\" one"
	}
	if ignorePort {
		if i := portStart(host); i >= 0 {
			host = host[:i]
		}
	}
	host = strings.ToLower(host)
	if vh, ok := x.exact[host]; ok {
		return vh, sprintf("exact domain %q", host)
	}
	// A wildcard must be shorter than the host: "*.foo.com" does not
	// match ".foo.com".
	for _, n := range x.suffixLens {
		if n < len(host) {
			if vh, ok := x.suffixes[n][host[len(host)-n:]]; ok {
				return vh, sprintf("wildcard domain %q (longest suffix)", "*"+host[len(host)-n:])
			}
		}
	}
	for _, n := range x.prefixLens {
		if n < len(host) {
			if vh, ok := x.prefixes[n][host[:n]]; ok {
				return vh, sprintf("wildcard domain %q (longest prefix)", host[:n]+"*")
			}
		}
	}
	if x.def != nil {
		return x.def, "no domain matches; the \"*\" virtual host"
	}
	return nil, "no domain matches and there is no \"*\" virtual host"
}

// portStart is HeaderUtility::getPortStart: the last ':' unless it is
// inside an IPv6 literal's brackets; -1 for none.
func portStart(host string) int {
	i := strings.LastIndexByte(host, ':')
	if i < 0 {
		return -1
	}
	if j := strings.LastIndexByte(host, ']'); j >= 0 && j > i {
		return -1
	}
	return i
}

// normalizeHost is ConnectionManagerUtility::maybeNormalizeHost (and the
// trailing-dot stripping before it): strip_any_host_port strips any
// numeric port, strip_matching_host_port only the listener's own port
// (HeaderUtility::stripPortFromHost); CONNECT keeps its port. It returns
// the host and what was done ("" for nothing).
func normalizeHost(host, method string, hcm *hcmv3.HttpConnectionManager, listenerPort uint32, hasPort bool) (string, string) {
	if hcm == nil {
		return host, ""
	}
	var did []string
	if hcm.GetStripTrailingHostDot() {
		h, port := host, ""
		if i := portStart(host); i >= 0 {
			h, port = host[:i], host[i:]
		}
		if strings.HasSuffix(h, ".") {
			host = strings.TrimSuffix(h, ".") + port
			did = append(did, "strip_trailing_host_dot removed the host's trailing dot")
		}
	}
	any, matching := hcm.GetStripAnyHostPort(), hcm.GetStripMatchingHostPort()
	if (!any && !matching) || method == "CONNECT" {
		return host, strings.Join(did, "; ")
	}
	i := portStart(host)
	if i < 0 {
		return host, strings.Join(did, "; ")
	}
	port, err := strconv.ParseUint(host[i+1:], 10, 32)
	if err != nil {
		return host, strings.Join(did, "; ")
	}
	switch {
	case any:
		did = append(did, sprintf("strip_any_host_port removed port %d", port))
	case !hasPort:
		did = append(did, "strip_matching_host_port is set but the listener's port is unknown: the port is kept")
		return host, strings.Join(did, "; ")
	case uint32(port) != listenerPort:
		did = append(did, sprintf("strip_matching_host_port keeps port %d (the listener's is %d)", port, listenerPort))
		return host, strings.Join(did, "; ")
	default:
		did = append(did, sprintf("strip_matching_host_port removed the listener's port %d", port))
	}
	return host[:i], strings.Join(did, "; ")
}
