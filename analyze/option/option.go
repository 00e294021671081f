// Package option names what a caller of analyze can set: a what-if, a
// selector, a limit. analyze names what can be set; the command that
// renders the message spells it (commands/term's Guard, every byte of
// output passes it, turns a reference into the flag). So reports and lint
// never hard-code a command line, and a flag renamed in commands cannot
// leave a stale spelling in a message.
//
// The package imports nothing of the module: any package may name an
// option.
package option

// Name is an option a message refers to. It formats (%s, %v, String) as a
// reference: Open, the option's id, Close.
type Name string

// Open and Close delimit a reference inside a message: private-use runes,
// one terminal column each, so a reference is as wide as its spelling
// ("--" and the id) and text wraps the same before and after spelling.
// Input never carries them: config.Escape escapes both.
const (
	Open  = "\uE000"
	Close = "\uE001"
)

// String is the reference Guard spells: Open, the id, Close.
func (n Name) String() string { return Open + string(n) + Close }

// ID is the option's id: its flag's long name without the dashes.
func (n Name) ID() string { return string(n) }

// The options analyze and lint mention, by id.
const (
	// Reading inputs.
	Admin       Name = "admin"
	CSDS        Name = "csds"
	AllowRemote Name = "allow-remote"
	Timeout     Name = "timeout"
	MaxInput    Name = "max-input"
	Kind        Name = "kind"
	Strict      Name = "strict"
	Semantics   Name = "semantics"

	// What-ifs.
	SetHealth      Name = "set-health"
	Ready          Name = "ready"
	HostWeight     Name = "host-weight"
	HostAge        Name = "host-age"
	ActiveRequests Name = "active-requests"
	LocalCluster   Name = "local-cluster"
	Zone           Name = "zone"
	BudgetOrder    Name = "budget-order"

	// Selecting a cluster, a route, a request.
	Cluster     Name = "cluster"
	Route       Name = "route"
	RouteConfig Name = "route-config"
	Listener    Name = "listener"
	Authority   Name = "authority"
	RandomValue Name = "random-value"
	SourceIP    Name = "source-ip"
	Match       Name = "match"
	State       Name = "state"

	// Report shapes.
	Remove   Name = "remove"
	Dump     Name = "dump"
	Priority Name = "priority"
	Step     Name = "step"
	Grid     Name = "grid"
	Child    Name = "child"
	Hosts    Name = "hosts"
	Init     Name = "init"
)

// All lists every Name, for the table that spells them and its test.
var All = []Name{
	Admin, CSDS, AllowRemote, Timeout, MaxInput, Kind, Strict, Semantics,
	SetHealth, Ready, HostWeight, HostAge, ActiveRequests, LocalCluster, Zone, BudgetOrder,
	Cluster, Route, RouteConfig, Listener, Authority, RandomValue, SourceIP, Match, State,
	Remove, Dump, Priority, Step, Grid, Child, Hosts, Init,
}
