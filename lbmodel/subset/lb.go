package subset

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/lbctl/lbctl/lbmodel"
)

// Entry is one initialized subset: the sorted key/value path that
// names it and its member hosts.
type Entry struct {
	// Path is the sorted (key, value) pairs. With list_as_any a list value
	// contributes one element per path.
	Path []lbmodel.Criterion
	// Selector is the index (in Config.Selectors) of the selector
	// that initialized the entry and so fixed its type.
	Selector int
	// SingleHost marks a single_host_per_subset entry.
	SingleHost bool
	// Hosts are the members, priority by priority, each in host order. A
	// single-host entry keeps only the first host of each priority, so
	// Hosts[0] is the one it returns.
	Hosts []lbmodel.Host
	// Duplicates counts hosts a single-host entry dropped
	// (lb_subsets_single_host_per_subset_duplicate).
	Duplicates int

	members map[int]bool // indexes into the LB's hosts
	hostIdx []int        // the index of each of Hosts, same order
	dropped []int        // hosts a single-host entry dropped, for UnreachedWhy
}

// Keys returns the entry's path keys.
func (e *Entry) Keys() []string {
	out := make([]string, len(e.Path))
	for i, c := range e.Path {
		out[i] = c.Name
	}
	return out
}

// Values returns the entry's path as a struct.
func (e *Entry) Values() map[string]any {
	return (&lbmodel.MatchCriteria{Entries: e.Path}).Map()
}

// selectorNode is a SubsetSelectorMap node (initSubsetSelectorMap).
type selectorNode struct {
	children     map[string]*selectorNode
	policy       SelectorFallbackPolicy
	fallbackKeys []string
	selector     int // configuration index that set the policy, -1 if none
}

// LB is the static state of Envoy's SubsetLoadBalancer for one host
// set: every subset, the special any-endpoint and default subsets, and the
// selector-fallback trie. It is built once; Select answers match criteria.
type LB struct {
	cfg       Config
	selectors []normSelector
	hosts     []lbmodel.Host
	// entries by canonical path (see pathKey); order keeps them listable.
	entries map[string]*Entry
	order   []string
	// any is non-nil when the any-endpoint subset is built, def likewise
	// for the default subset.
	any, def     []lbmodel.Host
	anyB, defB   bool
	selectorRoot *selectorNode
	// LostSelectorPolicies lists configuration indexes of selectors whose
	// fallback_policy initSubsetSelectorMap ignores (see buildSelectorTrie).
	LostSelectorPolicies []int
}

// ErrDisabled is returned for a configuration with no selectors.
var ErrDisabled = errors.New("subset load balancing is disabled: subset_selectors is empty")

// NewLB builds the subsets of hosts under cfg as
// SubsetLoadBalancer's constructor and update (updateFallbackSubset, then
// processSubsets, per priority) do (source/extensions/load_balancing_policies/
// subset/subset_lb.cc). hosts are in EDS order; Host.Metadata is the
// envoy.lb struct.
func NewLB(cfg Config, hosts []lbmodel.Host) (*LB, error) {
	if !cfg.Enabled() {
		return nil, ErrDisabled
	}
	if cfg.FallbackPolicy < FallbackNoFallback || cfg.FallbackPolicy > FallbackDefault {
		return nil, fmt.Errorf("unknown fallback_policy %d", int(cfg.FallbackPolicy))
	}
	if cfg.MetadataFallback != MetadataNoFallback && cfg.MetadataFallback != MetadataFallbackList {
		return nil, fmt.Errorf("unknown metadata_fallback_policy %d", int(cfg.MetadataFallback))
	}
	sels, err := normalizeSelectors(cfg)
	if err != nil {
		return nil, err
	}
	for i, h := range hosts {
		if h.Priority < 0 {
			return nil, fmt.Errorf("host %d (%s): negative priority %d", i, h.Address, h.Priority)
		}
	}
	lb := &LB{cfg: cfg, selectors: sels, hosts: hosts, entries: map[string]*Entry{}}

	// Constructor: which special subsets exist.
	switch cfg.FallbackPolicy {
	case FallbackAnyEndpoint:
		lb.anyB = true
	case FallbackDefault:
		lb.defB = true
	}
	if cfg.PanicModeAny {
		lb.anyB = true
	}
	lb.buildSelectorTrie()

	// update(): per priority, fallback subsets then processSubsets. Since
	// every priority is rebuilt from scratch here, processing priorities in
	// order gives each entry its hosts in priority-major, host order.
	maxP := -1
	for _, h := range hosts {
		maxP = max(maxP, h.Priority)
	}
	for p := 0; p <= maxP; p++ {
		var ph []lbmodel.Host
		var idx []int
		for i, h := range hosts {
			if h.Priority == p {
				ph = append(ph, h)
				idx = append(idx, i)
			}
		}
		if lb.anyB {
			lb.any = append(lb.any, ph...)
		}
		if lb.defB {
			for _, h := range ph {
				if labelMatch(cfg.DefaultSubset, h.Metadata, cfg.ListAsAny) {
					lb.def = append(lb.def, h)
				}
			}
		}
		lb.processSubsets(ph, idx)
	}
	// Envoy purges entries with no hosts; uninitialized entries are never
	// recorded here, so nothing is left to purge.
	sort.Strings(lb.order)
	return lb, nil
}

// buildSelectorTrie is initSubsetSelectorMap: one level per sorted key; a
// selector's fallback params are stored only on a node its own walk created
// as the last node of its path. A selector whose path already existed (as an
// intermediate of an earlier, longer selector, or from an earlier selector
// with the same keys) loses its fallback_policy: first selector wins.
// initSelectorFallbackSubset builds the any/default subsets for stored
// policies only.
func (lb *LB) buildSelectorTrie() {
	lb.selectorRoot = &selectorNode{children: map[string]*selectorNode{}, selector: -1}
	for _, s := range lb.selectors {
		n := lb.selectorRoot
		stored := false
		for i, k := range s.keys {
			child, ok := n.children[k]
			if !ok {
				child = &selectorNode{children: map[string]*selectorNode{}, selector: -1}
				n.children[k] = child
				if i == len(s.keys)-1 {
					child.policy = s.policy
					child.fallbackKeys = s.fallbackKeys
					child.selector = s.index
					stored = true
					switch s.policy {
					case SelectorAnyEndpoint:
						lb.anyB = true
					case SelectorDefault:
						lb.defB = true
					}
				}
			}
			n = child
		}
		if !stored && s.policy != SelectorNotDefined {
			lb.LostSelectorPolicies = append(lb.LostSelectorPolicies, s.index)
		}
	}
}

// pathKey is the canonical identity of a subset path: names and hashed
// values (see HashedEqual).
func pathKey(path []lbmodel.Criterion) string {
	var b strings.Builder
	for _, c := range path {
		b.WriteString(fmt.Sprintf("%q=", c.Name))
		lbmodel.WriteValueKey(&b, c.Value)
		b.WriteString(";")
	}
	return b.String()
}

// processSubsets runs processSubsets for one priority's hosts: for each host
// in order, for each selector in order, every key/value combination finds or
// creates its entry, the first selector to reach an entry fixes its type,
// and a single-host entry keeps only the first host of this priority.
// Membership is a set (HostHashSet), so a host reaching one entry twice
// (two selectors with the same keys, or a list with repeated elements) is a
// member once.
func (lb *LB) processSubsets(ph []lbmodel.Host, idx []int) {
	singleSeen := map[*Entry]bool{}
	for hi, h := range ph {
		for _, s := range lb.selectors {
			for _, path := range extractMetadata(s.keys, h.Metadata, lb.cfg.ListAsAny) {
				k := pathKey(path)
				e, ok := lb.entries[k]
				if !ok {
					e = &Entry{Path: path, Selector: s.index, SingleHost: s.singleHost, members: map[int]bool{}}
					lb.entries[k] = e
					lb.order = append(lb.order, k)
				}
				if e.SingleHost {
					if singleSeen[e] {
						e.Duplicates++
						e.dropped = append(e.dropped, idx[hi])
						continue
					}
					singleSeen[e] = true
				}
				if !e.members[idx[hi]] {
					e.members[idx[hi]] = true
					e.Hosts = append(e.Hosts, h)
					e.hostIdx = append(e.hostIdx, idx[hi])
				}
			}
		}
	}
}

// extractMetadata is extractMetadata: the host's key/value
// combinations for sorted keys. A missing key gives none. With list_as_any
// a list value branches the combinations, one per element (cartesian
// product, list order); quirk: an empty list empties the set, and the next
// key starts a fresh one, so the host lands on a path lacking the earlier
// keys.
func extractMetadata(keys []string, md map[string]any, listAsAny bool) [][]lbmodel.Criterion {
	var all [][]lbmodel.Criterion
	if md == nil {
		return nil
	}
	for _, k := range keys {
		v, ok := md[k]
		if !ok {
			return nil
		}
		if list, isList := v.([]any); listAsAny && isList {
			if len(all) == 0 {
				for _, e := range list {
					all = append(all, []lbmodel.Criterion{{Name: k, Value: e}})
				}
			} else {
				var next [][]lbmodel.Criterion
				for _, kvs := range all {
					for _, e := range list {
						c := append(append([]lbmodel.Criterion(nil), kvs...), lbmodel.Criterion{Name: k, Value: e})
						next = append(next, c)
					}
				}
				all = next
			}
			continue
		}
		if len(all) == 0 {
			all = append(all, []lbmodel.Criterion{{Name: k, Value: v}})
		} else {
			for i := range all {
				all[i] = append(all[i], lbmodel.Criterion{Name: k, Value: v})
			}
		}
	}
	return all
}

// labelMatch is Config::Metadata::metadataLabelMatch (metadata.cc) as
// hostMatches uses it for the default subset: an empty label set matches
// every host (even without metadata); otherwise every key must be present
// with a ValueEqual value, or with list_as_any and a list host value, equal
// to any element. Quirk: in that case the whole list is never compared, so
// a list-valued label cannot match a list host value.
func labelMatch(labels map[string]any, md map[string]any, listAsAny bool) bool {
	if len(labels) == 0 {
		return true
	}
	if md == nil {
		return false
	}
	for k, want := range labels {
		got, ok := md[k]
		if !ok {
			return false
		}
		if list, isList := got.([]any); listAsAny && isList {
			found := false
			for _, e := range list {
				if lbmodel.ValueEqual(e, want) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		} else if !lbmodel.ValueEqual(got, want) {
			return false
		}
	}
	return true
}

// Subsets returns every active subset, ordered by path (keys, then the
// canonical value encoding).
func (lb *LB) Subsets() []*Entry {
	out := make([]*Entry, 0, len(lb.order))
	for _, k := range lb.order {
		if e := lb.entries[k]; len(e.Hosts) > 0 {
			out = append(out, e)
		}
	}
	return out
}

// AnyEndpointSubset returns the any-endpoint subset's hosts and whether
// Envoy builds it (fallback_policy ANY_ENDPOINT, panic_mode_any, or a
// selector whose ANY_ENDPOINT policy was stored).
func (lb *LB) AnyEndpointSubset() ([]lbmodel.Host, bool) { return lb.any, lb.anyB }

// DefaultSubset returns the default subset's hosts and whether Envoy builds
// it (fallback_policy DEFAULT_SUBSET, or a stored selector DEFAULT_SUBSET
// policy, even under a top-level NO_FALLBACK).
func (lb *LB) DefaultSubset() ([]lbmodel.Host, bool) { return lb.def, lb.defB }

// findSubset is findSubset: the entry at exactly the criteria's path, if it
// is initialized and active.
func (lb *LB) findSubset(c *lbmodel.MatchCriteria) *Entry {
	if c == nil || len(c.Entries) == 0 {
		return nil
	}
	e, ok := lb.entries[pathKey(c.Entries)]
	if !ok || len(e.Hosts) == 0 {
		return nil
	}
	for i, pc := range e.Path { // NaN: same hash, never equal
		if !lbmodel.HashedEqual(pc.Value, c.Entries[i].Value) {
			return nil
		}
	}
	return e
}

// selectorParams is tryFindSelectorFallbackParams: walk the selector trie
// with the criteria names in order; defined only if every name is consumed.
func (lb *LB) selectorParams(c *lbmodel.MatchCriteria) (*selectorNode, bool) {
	if c == nil || len(c.Entries) == 0 {
		return nil, false
	}
	n := lb.selectorRoot
	for _, e := range c.Entries {
		child, ok := n.children[e.Name]
		if !ok {
			return nil, false
		}
		n = child
	}
	return n, true
}
