package config

import (
	"os"
	"path/filepath"
	"sort"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// QuickClusterNames lists the cluster names defined in the given files (and
// directories), for shell completion: it parses YAML only, without
// decoding protos, so it stays fast on every TAB. It follows the shapes
// Load reads (bootstraps, cluster lists, config dumps, discovery responses
// and their {name, resource} wrappers); TestQuickClusterNamesMatchLoad
// checks that it offers exactly the clusters Load defines. Standard input
// ("-") is never read, and unreadable, non-regular or oversized files are
// skipped silently: completion must never print errors.
func QuickClusterNames(paths []string) []string {
	seen := map[string]bool{}
	var names []string
	// nest counts the strings read as documents on the way, as the
	// finder's does (embed.go).
	var visit func(n node, depth, nest int)
	embedded := func(s node, depth, nest int) {
		if nest >= maxEmbedNesting || !documentLike(s) {
			return
		}
		inner, _ := parseText("", s.Value(), Limits{MaxInput: int64(len(s.Value()))})
		for _, d := range inner {
			visit(d, depth+1, nest+1)
		}
	}
	visit = func(n node, depth, nest int) {
		n = parse.Resolve(n)
		if !n.OK() || depth > 12 {
			return
		}
		switch n.Kind() {
		case sequenceNode:
			for ci := range n.Len() {
				c := n.Child(ci)
				visit(c, depth+1, nest)
			}
		case mappingNode:
			// A Resource wrapper {name, resource} names its resource,
			// which may be anything: look inside, as discovery() does.
			if inner, _ := parse.MapGet(n, "resource"); inner.OK() {
				visit(inner, depth+1, nest)
				return
			}
			// So does a CSDS generic config {type_url, name, xds_config}.
			if inner, _ := parse.MapGet(n, "xds_config", "xdsConfig"); inner.OK() && parse.Resolve(inner).Kind() == mappingNode {
				visit(inner, depth+1, nest)
				return
			}
			if detectKind(n) == KindCluster || isTypedCluster(n) {
				if v, _ := parse.MapGet(n, "name"); v.OK() && v.Kind() == scalarNode && !seen[v.Value()] {
					seen[v.Value()] = true
					names = append(names, v.Value())
				}
				return
			}
			// A carrier's one document-like string holds the resource
			// (carrier.go).
			if doc := carried(n); doc.OK() {
				embedded(doc, depth, nest)
				return
			}
			// A ConfigMap's data strings hold documents (embed.go).
			if k, _ := parse.MapGet(n, "kind"); isKubernetes(n) && k.Value() == "ConfigMap" {
				data, _ := parse.MapGet(n, "data")
				for i := 1; i < data.Len(); i += 2 {
					if v := parse.Resolve(data.Child(i)); v.Kind() == scalarNode {
						embedded(v, depth, nest)
					}
				}
				return
			}
			for i := 0; i+1 < n.Len(); i += 2 {
				if clusterContainers[n.Child(i).Value()] {
					visit(n.Child(i+1), depth+1, nest)
				}
			}
			// egctl's {xds: {<ns>/<gateway>: dump}}: keys are gateway names.
			for _, d := range egctlDumps(n) {
				visit(d, depth+1, nest)
			}
		}
	}
	for _, p := range paths {
		files := []string{p}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			files = nil
			filepath.WalkDir(p, func(f string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() && ReadInDirectory(f) {
					files = append(files, f)
				}
				return nil
			})
		}
		for _, f := range files {
			if !ReadInDirectory(f) {
				continue
			}
			data, err := parse.ReadFile(f, quickMaxBytes)
			if err != nil {
				continue
			}
			docs, _ := parseDocuments(f, data)
			for _, d := range docs {
				visit(d, 0, 0)
			}
		}
	}
	sort.Strings(names)
	return names
}

func isTypedCluster(n node) bool {
	t, _ := parse.MapGet(n, "@type")
	return t.OK() && (t.Value() == "type.googleapis.com/envoy.config.cluster.v3.Cluster" || t.Value() == "type.googleapis.com/envoy.api.v2.Cluster")
}

// quickMaxBytes bounds the files read on a TAB: a bigger one (a huge
// config dump) would make completion stall, so its names are not offered.
const quickMaxBytes = 16 << 20

// clusterContainers are the keys under which clusters stand in the document
// kinds lbctl reads.
var clusterContainers = map[string]bool{
	"clusters": true, "static_resources": true, "staticResources": true, "resources": true,
	"resource": true, "configs": true, "static_clusters": true, "staticClusters": true,
	"dynamic_active_clusters": true, "dynamicActiveClusters": true, "cluster": true,
	"bootstrap": true, "Clusters": true, "dynamic_warming_clusters": true, "dynamicWarmingClusters": true,
	"spec": true, "items": true, // Cilium(Clusterwide)EnvoyConfig, Kubernetes List
	// CSDS answers: config[].generic_xds_configs[].xds_config, and the
	// per-xDS cluster_config dumps.
	"config": true, "generic_xds_configs": true, "genericXdsConfigs": true, "xds_config": true,
	"xdsConfig": true, "cluster_config": true, "clusterConfig": true,
}
