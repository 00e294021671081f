// Package route answers where one request goes: the route configuration,
// virtual host and route Envoy's router picks for it, the route's action,
// and the hosts that receive it after each target cluster's load balancing.
// It follows source/common/router/config_impl.cc (RouteMatcher::route,
// VirtualHostImpl::getRouteFromEntries) and the weighted cluster specifier.
package route

// Report is `lbctl route`'s result; JSON names are contract.md's "route".
type Report struct {
	Request       RequestReport   `json:"request" yaml:"request"`
	RouteConfig   string          `json:"route_config" yaml:"route_config"`
	VirtualHost   *string         `json:"virtual_host" yaml:"virtual_host"`
	Route         *RouteReport    `json:"route" yaml:"route"`
	Action        string          `json:"action" yaml:"action"`
	Clusters      []ClusterChoice `json:"clusters" yaml:"clusters"`
	Cluster       string          `json:"cluster,omitempty" yaml:"cluster,omitempty"`
	Hosts         []HostShare     `json:"hosts" yaml:"hosts"`
	Hash          *HashPick       `json:"hash,omitempty" yaml:"hash,omitempty"`
	MetadataMatch map[string]any  `json:"metadata_match,omitempty" yaml:"metadata_match,omitempty"`
	Direct        *DirectResponse `json:"direct_response,omitempty" yaml:"direct_response,omitempty"`
	Redirect      *Redirect       `json:"redirect,omitempty" yaml:"redirect,omitempty"`
	Notes         []string        `json:"notes" yaml:"notes"`
	steps         []string
}

// Actions, as the contract names them.
const (
	ActionCluster          = "cluster"
	ActionWeighted         = "weighted_clusters"
	ActionClusterHeader    = "cluster_header"
	ActionPlugin           = "cluster_specifier_plugin"
	ActionDirect           = "direct_response"
	ActionRedirect         = "redirect"
	ActionNoRoute          = "no_route"
	ActionNoVirtualHost    = "no_virtual_host"
	ActionNonForwarding    = "non_forwarding"
	ActionFilter           = "filter_action"
	ActionSSLRedirect      = "redirect" // require_tls answers with a redirect too
	defaultClusterNotFound = 503
)

// RequestReport echoes the request as the router saw it (after the HCM's
// port stripping).
type RequestReport struct {
	Authority string            `json:"authority" yaml:"authority"`
	Path      string            `json:"path" yaml:"path"`
	Method    string            `json:"method" yaml:"method"`
	Headers   map[string]string `json:"headers" yaml:"headers"`
}

// RouteReport names the matched route.
type RouteReport struct {
	Name  string `json:"name" yaml:"name"`
	Match string `json:"match" yaml:"match"`
	At    string `json:"at" yaml:"at"`
}

// ClusterChoice is one cluster the request may go to and its share.
type ClusterChoice struct {
	Name   string  `json:"name" yaml:"name"`
	Share  float64 `json:"share" yaml:"share"`
	Weight uint32  `json:"weight" yaml:"weight"`
}

// HostShare is one host's share of the request's traffic.
type HostShare struct {
	Cluster string  `json:"cluster" yaml:"cluster"`
	Address string  `json:"address" yaml:"address"`
	Share   float64 `json:"share" yaml:"share"`
}

// HashPick is the one host a hashing cluster maps this request to.
type HashPick struct {
	Cluster string `json:"cluster" yaml:"cluster"`
	Policy  string `json:"policy" yaml:"policy"`
	Hash    string `json:"hash" yaml:"hash"`
	Host    string `json:"host" yaml:"host"`
}

// DirectResponse is a direct_response action; the body is never shown
// (it may hold secrets), only its length.
type DirectResponse struct {
	Status     uint32 `json:"status" yaml:"status"`
	BodyLength *int   `json:"body_length,omitempty" yaml:"body_length,omitempty"`
}

// Redirect is a redirect action's answer (RouteEntryImplBase::newUri).
type Redirect struct {
	Status   int    `json:"status" yaml:"status"`
	Location string `json:"location" yaml:"location"`
}

// Steps is the decision path, one step a line, for a text rendering.
func (r *Report) Steps() []string { return r.steps }

func (r *Report) step(format string, args ...any) {
	r.steps = append(r.steps, sprintf(format, args...))
}

func (r *Report) note(format string, args ...any) {
	r.Notes = append(r.Notes, sprintf(format, args...))
}
