package model

import (
	"runtime"
	"slices"
	"sync"
	"weak"

	"github.com/lbctl/lbctl/analyze/config"
)

// memos holds one memo per loaded config, weakly: a config's entry goes
// when the config does (explain --watch loads one per reading).
var memos sync.Map // weak.Pointer[config.Config] -> *memo

// memo is a config's clusters' entries, each built once and shared by
// every report and by lint. Only the no-what-if model is memoized: With
// copies the hosts before applying --set-health.
type memo struct {
	clusters sync.Map // weak.Pointer[config.Cluster] -> *memoEntry
}

type memoEntry struct {
	once sync.Once
	e    Entry
}

// Entry is what the config says of one cluster, read in one pass: its
// model, settings and subset setup, and every position their reports
// point at.
type Entry struct {
	Model          *Model // shared: copy Hosts before changing one
	Settings       LBSettings
	Subset         *SubsetSetup // nil without a subset configuration
	SubsetProblems config.Problems
}

func memoOf(c *config.Config) *memo {
	k := weak.Make(c)
	if v, ok := memos.Load(k); ok {
		return v.(*memo)
	}
	v, loaded := memos.LoadOrStore(k, &memo{})
	if !loaded {
		runtime.AddCleanup(c, func(k weak.Pointer[config.Config]) { memos.Delete(k) }, k)
	}
	return v.(*memo)
}

func (mm *memo) entry(cl *config.Cluster) *memoEntry {
	k := weak.Make(cl)
	if v, ok := mm.clusters.Load(k); ok {
		return v.(*memoEntry)
	}
	v, _ := mm.clusters.LoadOrStore(k, &memoEntry{})
	return v.(*memoEntry)
}

// Lookup is cl's Entry, built once per loaded config.
func Lookup(c *config.Config, cl *config.Cluster) *Entry {
	me := memoOf(c).entry(cl)
	me.once.Do(func() {
		e := &me.e
		e.Model = Of(c, cl)
		// Appending to a shared slice must never write into its array.
		e.Model.Hosts = slices.Clip(e.Model.Hosts)
		e.Settings = settingsOf(c, cl)
		var sub placed
		e.Subset, sub = subsetOf(c, cl, e.Model)
		e.locate(c, cl, sub)
	})
	return &me.e
}

// Get is cl's Model, built once per loaded config. The hosts are shared:
// the caller gets its own Model (and table cache) but must copy Hosts
// before changing one (With does).
func Get(c *config.Config, cl *config.Cluster) *Model {
	m := *Lookup(c, cl).Model
	return &m
}

// Settings is cl's load-balancer settings, read once per loaded config.
func Settings(c *config.Config, cl *config.Cluster) LBSettings {
	return Lookup(c, cl).Settings
}

// Subset is cl's subset setup and its problems, read once per loaded
// config (see subsetOf); the problems are shared: append to a copy.
func Subset(c *config.Config, cl *config.Cluster) (*SubsetSetup, config.Problems) {
	e := Lookup(c, cl)
	return e.Subset, e.SubsetProblems
}

// IsAggregate reports whether cl is an aggregate cluster (cluster_type
// envoy.clusters.aggregate), without building its hosts.
func IsAggregate(cl *config.Cluster) bool {
	return cl.Proto.GetClusterType().GetName() == AggregateType
}
