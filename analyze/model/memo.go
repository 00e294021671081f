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

// memo is a config's clusters' Model and Settings, each built once and
// shared by every report and by lint. Only the no-what-if model is
// memoized: With copies the hosts before applying --set-health.
type memo struct {
	clusters sync.Map // weak.Pointer[config.Cluster] -> *memoEntry
}

type memoEntry struct {
	model    sync.Once
	m        *Model
	settings sync.Once
	s        LBSettings
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

// Get is cl's Model, built once per loaded config. The hosts are shared:
// the caller gets its own Model (and table cache) but must copy Hosts
// before changing one (With does).
func Get(c *config.Config, cl *config.Cluster) *Model {
	e := memoOf(c).entry(cl)
	e.model.Do(func() {
		e.m = Of(c, cl)
		// Appending to a shared slice must never write into its array.
		e.m.Hosts = slices.Clip(e.m.Hosts)
	})
	m := *e.m
	return &m
}

// Settings is cl's load-balancer settings, read once per loaded config.
func Settings(c *config.Config, cl *config.Cluster) LBSettings {
	e := memoOf(c).entry(cl)
	e.settings.Do(func() { e.s = settingsOf(c, cl) })
	return e.s
}

// IsAggregate reports whether cl is an aggregate cluster (cluster_type
// envoy.clusters.aggregate), without building its hosts.
func IsAggregate(cl *config.Cluster) bool {
	return cl.Proto.GetClusterType().GetName() == AggregateType
}
