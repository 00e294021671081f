package lbmodel

// Prepared is a cluster's priority levels, localities and locality shares
// computed once, for callers that re-evaluate one priority at a time as
// hosts fail (lbmodel/failure's locality budgets).
type Prepared struct{ m *preparedCluster }

// Prepare computes c's levels and localities (ClusterShares' first step).
func Prepare(c ClusterInput) (Prepared, error) {
	m, err := prepareCluster(c)
	return Prepared{m}, err
}

// Levels is the cluster's priority levels.
func (p Prepared) Levels() []Level { return p.m.levels }

// Localities is priority prio's localities.
func (p Prepared) Localities(prio int) Localities { return p.m.locs[prio] }

// PriorityShares is priority prio's locality and host shares.
func (p Prepared) PriorityShares(prio int) (PriorityShares, error) { return p.m.priorityShares(prio) }
