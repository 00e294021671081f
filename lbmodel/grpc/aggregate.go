package grpc

import "fmt"

// Impl names a proxyless gRPC implementation whose behaviour differs.
type Impl int

const (
	// GoImpl is grpc-go (A74 dependency manager, pre-A75 aggregate handling).
	GoImpl Impl = iota
	// CoreImpl is gRPC C-core (A74 and A75 implemented).
	CoreImpl
)

func (i Impl) String() string {
	if i == CoreImpl {
		return "grpc-core"
	}
	return "grpc-go"
}

// MaxAggregateDepth is the aggregate graph depth at which gRPC fails the
// root cluster: grpc-go's aggregateClusterMaxDepth and C-core's
// kMaxXdsAggregateClusterRecursionDepth, both 16, compared with depth >= 16
// where the root is depth 0. The longest working path is therefore 15 edges.
const MaxAggregateDepth = 16

// ClusterKind is a CDS cluster's discovery type as gRPC accepts it.
type ClusterKind int

const (
	ClusterEDS ClusterKind = iota
	ClusterLogicalDNS
	ClusterAggregate
)

// ClusterState says whether the client holds a usable CDS resource.
type ClusterState int

const (
	// ClusterOK: the resource was received and accepted.
	ClusterOK ClusterState = iota
	// ClusterPending: not received yet (watch started). A74 withholds
	// the whole config until it arrives or the does-not-exist timer fires.
	ClusterPending
	// ClusterError: does-not-exist, or NACKed with no cached copy.
	ClusterError
)

// Cluster is what the aggregate resolution needs to know about one CDS
// resource. A name absent from the map given to ResolveAggregate is
// treated as ClusterError (the server never sends it).
type Cluster struct {
	Name     string
	Kind     ClusterKind
	State    ClusterState
	Children []string // aggregate only: ClusterConfig.clusters in order
	// LBPolicy is the gRPC policy name the cluster's own CDS resource
	// converts to (see SelectPolicy); used to report which policy
	// applies to each leaf (LeafPolicies).
	LBPolicy string
}

// Resolution is the outcome of one implementation's graph walk.
type Resolution struct {
	// Leaves are the EDS / LOGICAL_DNS clusters in priority order, each once.
	Leaves []string
	// Pending: some reachable resource has not arrived, so the client
	// delivers no config at all yet (A74 all-or-nothing).
	Pending bool
	// Failure is non-empty when every RPC to the root fails UNAVAILABLE;
	// it holds the gRPC error text.
	Failure string
	// Skipped lists children dropped from the aggregate because their CDS
	// resource is in error (C-core only; grpc-go fails instead).
	Skipped []string
}

// Note records one place where grpc-go and C-core behave differently
// for this graph.
type Note struct {
	Cluster  string
	What     string
	GRPCGo   string
	GRPCCore string
}

// Aggregate is the aggregate resolution for both implementations.
type Aggregate struct {
	Root  string
	Go    Resolution
	Core  Resolution
	Notes []Note
	// Cycles lists each edge "parent -> child" whose child was already on
	// the current path; gRPC cuts it silently (it contributes nothing).
	Cycles []string
	// Duplicates lists children reached again off-path; only their first,
	// highest-priority occurrence counts.
	Duplicates []string
}

// Resolution returns the result for one implementation.
func (a Aggregate) Resolution(impl Impl) Resolution {
	if impl == CoreImpl {
		return a.Core
	}
	return a.Go
}

// ResolveAggregate flattens root's cluster graph as gRPC's xDS
// dependency manager does: grpc-go
// internal/xds/xdsdepmgr/xds_dependency_manager.go populateClusterConfigLocked
// / populateAggregateClusterLocked, and C-core
// XdsDependencyManager::PopulateClusterConfigMap (grpc.md §2.1–2.3).
//
// Depth first, pre-order, children in list order; a cluster already visited
// from this root contributes nothing (first occurrence wins, cycles cut);
// the depth check runs before the visited check, so reaching any node at
// depth >= 16 fails the root; an aggregate whose subtree yields no leaf is
// an error on that aggregate only, and it is the root's failure only when
// the root ends with no leaf. A child whose CDS resource is in error fails
// the whole aggregate in grpc-go (the child's error is returned upward) but
// is skipped in C-core (A74).
func ResolveAggregate(root string, clusters map[string]Cluster) (Aggregate, error) {
	if root == "" {
		return Aggregate{}, fmt.Errorf("grpc aggregate: empty root cluster name")
	}
	out := Aggregate{Root: root}
	for _, impl := range []Impl{GoImpl, CoreImpl} {
		w := aggWalk{clusters: clusters, impl: impl, visited: map[string]bool{}, onPath: map[string]bool{}}
		leaves, err := w.visit(root, 0, "")
		r := Resolution{Leaves: leaves, Pending: w.pending, Skipped: w.skipped}
		switch {
		case err != nil:
			r.Failure, r.Pending, r.Leaves = err.Error(), false, nil
		case w.pending:
			// Nothing is delivered; the leaves found so far are informative.
		case len(leaves) == 0:
			r.Failure = "aggregate cluster graph has no leaf clusters"
		}
		if impl == GoImpl {
			out.Go = r
			out.Cycles, out.Duplicates = w.cycles, w.dups
		} else {
			out.Core = r
		}
	}
	out.Notes = aggregateNotes(out, clusters)
	return out, nil
}

type aggWalk struct {
	clusters        map[string]Cluster
	impl            Impl
	visited, onPath map[string]bool
	pending         bool
	skipped         []string
	cycles, dups    []string
}

// errChildResource marks an error that came from a child's CDS resource, so
// C-core can skip that child while still propagating depth errors.
type errChildResource struct{ name string }

func (e errChildResource) Error() string {
	return fmt.Sprintf("cluster %q: CDS resource does not exist or was rejected", e.name)
}

func (w *aggWalk) visit(name string, depth int, parent string) ([]string, error) {
	if depth >= MaxAggregateDepth {
		return nil, fmt.Errorf("aggregate cluster graph exceeds max depth (%d)", MaxAggregateDepth)
	}
	if w.visited[name] {
		if w.onPath[name] {
			w.cycles = append(w.cycles, parent+" -> "+name)
		} else {
			w.dups = append(w.dups, parent+" -> "+name)
		}
		return nil, nil
	}
	c, ok := w.clusters[name]
	if ok && c.State == ClusterPending {
		w.pending = true
		return nil, nil
	}
	if !ok || c.State == ClusterError {
		return nil, errChildResource{name}
	}
	w.visited[name] = true
	if c.Kind != ClusterAggregate {
		return []string{name}, nil
	}
	w.onPath[name] = true
	defer delete(w.onPath, name)
	var leaves []string
	for _, child := range c.Children {
		got, err := w.visit(child, depth+1, name)
		if err != nil {
			if _, isRes := err.(errChildResource); isRes && w.impl == CoreImpl {
				w.skipped = append(w.skipped, child)
				continue
			}
			return nil, err
		}
		leaves = append(leaves, got...)
	}
	// An aggregate with no leaves records its own error but returns no
	// error upward: its parent carries on with its other children.
	return leaves, nil
}

func aggregateNotes(a Aggregate, clusters map[string]Cluster) []Note {
	var notes []Note
	if a.Go.Failure != a.Core.Failure || len(a.Core.Skipped) > 0 {
		notes = append(notes, Note{
			Cluster:  a.Root,
			What:     "aggregate child whose CDS resource is missing or rejected",
			GRPCGo:   describeResolution(a.Go),
			GRPCCore: describeResolution(a.Core),
		})
	}
	root, ok := clusters[a.Root]
	if ok && root.Kind == ClusterAggregate && len(a.Core.Leaves)+len(a.Go.Leaves) > 0 {
		notes = append(notes, Note{
			Cluster:  a.Root,
			What:     "LB policy used inside the aggregate",
			GRPCGo:   "the aggregate (root) cluster's policy for every leaf (pre-A75)",
			GRPCCore: "each leaf cluster's own policy; the aggregate's is ignored (A75), unless GRPC_XDS_AGGREGATE_CLUSTER_BACKWARD_COMPAT=true",
		}, Note{
			Cluster:  a.Root,
			What:     "outlier detection and stateful session affinity scope",
			GRPCGo:   "per priority (pre-A75): session affinity breaks on failover",
			GRPCCore: "per leaf cluster, across its priorities (A75)",
		})
	}
	return notes
}

func describeResolution(r Resolution) string {
	switch {
	case r.Failure != "":
		return "cluster fails: " + r.Failure
	case r.Pending:
		return "config withheld until pending resources arrive"
	case len(r.Skipped) > 0:
		return fmt.Sprintf("skips %v, leaves %v", r.Skipped, r.Leaves)
	}
	return fmt.Sprintf("leaves %v", r.Leaves)
}

// LeafPolicy is the LB policy that applies to one leaf's priorities.
type LeafPolicy struct {
	Cluster string
	Policy  string
	From    string // the cluster whose CDS resource supplied Policy
}

// LeafPolicies says which cluster's LB policy applies to each leaf
// (grpc.md §2.4). Pre-A75 (grpc-go today, or C-core with
// GRPC_XDS_AGGREGATE_CLUSTER_BACKWARD_COMPAT=true) the root cluster's policy
// drives every leaf (grpc-go cdsbalancer: "The LB policy is configured by the
// root cluster"); post-A75 (C-core) each leaf uses its own.
func LeafPolicies(root string, leaves []string, clusters map[string]Cluster, impl Impl, backwardCompat bool) []LeafPolicy {
	out := make([]LeafPolicy, 0, len(leaves))
	preA75 := impl == GoImpl || backwardCompat
	for _, l := range leaves {
		from := l
		if preA75 {
			from = root
		}
		out = append(out, LeafPolicy{Cluster: l, Policy: clusters[from].LBPolicy, From: from})
	}
	return out
}
