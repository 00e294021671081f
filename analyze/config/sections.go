package config

import (
	"path/filepath"

	"github.com/lbctl/lbctl/analyze/config/parse"
	"google.golang.org/protobuf/types/known/anypb"
)

// An admin /config_dump is a list of independent sections: Envoy's
// ConfigDumpHandler::addAllConfigToDump (source/server/admin/
// config_dump_handler.cc) calls each ConfigTracker callback ("bootstrap",
// "clusters", "endpoints", "listeners", "routes", … in key order) and packs
// the message it returns as one entry of ConfigDump.configs. Tools that save
// a dump as several files (istioctl/hgctl proxy-config, egctl) write those
// same sections one per file. So sections saved alone, from files read
// together, are joined as one dump's sections: a bootstrap static cluster
// named again under ClustersConfigDump.static_clusters is one resource,
// whichever file holds which section.

// section reads a dump section saved outside a whole config_dump into the
// joined scope of every such section (flushed by flushSections).
func (l *loader) section(file string, a *anypb.Any) {
	markWritten(l.cfg, file)
	if l.sections == nil {
		l.sections = &dumpScope{}
	}
	d := l.sections
	if len(d.files) == 0 || d.files[len(d.files)-1] != file {
		d.files = append(d.files, file)
	}
	l.dump = d
	l.typed(file, a)
	l.dump = nil
}

// markWritten records file as Envoy-written (Config.EnvoyWritten): it
// holds a dump or dump sections.
func markWritten(cfg *Config, file string) {
	if cfg.written == nil {
		cfg.written = map[string]bool{}
	}
	cfg.written[file] = true
}

// flushSections hands the joined sections' resources to the loader, once,
// after every document is read.
func (l *loader) flushSections() {
	d := l.sections
	if d == nil {
		return
	}
	l.sections = nil
	if d.bootstrapSection && !d.clustersSection {
		l.bareSections(d)
	}
	l.flushDump(d.files[0], d)
}

// bareSections marks as Envoy-written the files beside a dumped bootstrap
// whose dump has no clusters section: they are its other sections saved as
// bare lists of resources (`istioctl proxy-config cluster -o json`), read
// as a whole dump reads them (assignments as Envoy's current hosts).
func (l *loader) bareSections(d *dumpScope) {
	dirs := map[string]bool{}
	for _, f := range d.files {
		dirs[filepath.Dir(f)] = true
	}
	for _, f := range l.cfg.Files {
		if dirs[filepath.Dir(f)] {
			markWritten(l.cfg, f)
		}
	}
}

// joinSections files a bare BootstrapConfigDump (otherwise a configuration
// of its own, as a bootstrap is) with the resources saved in its directory,
// when there are any: the dump's other sections, as sections or as bare
// lists of their resources.
func (r *reader) joinSections() {
	if r.merge {
		return
	}
	kept := r.groups[:0]
	for _, g := range r.groups {
		if len(g.docs) == 1 && isBootstrapDump(parse.Resolve(g.docs[0].node)) {
			file := g.docs[0].file
			if loose := r.byKey[looseKey(file)]; loose != nil && loose != g && len(loose.docs) > 0 {
				loose.docs = append([]unit{g.docs[0]}, loose.docs...)
				files := append([]string{}, g.files...)
				for _, f := range loose.files {
					if !g.seen[f] {
						files = append(files, f)
					}
				}
				for _, f := range g.files {
					loose.seen[f] = true
				}
				loose.files = files
				loose.probs = append(g.probs, loose.probs...)
				for k, v := range r.byKey {
					if v == g {
						delete(r.byKey, k)
					}
				}
				continue
			}
		}
		kept = append(kept, g)
	}
	r.groups = kept
}

// fromBootstrap marks cl as a dumped bootstrap's static cluster.
func (l *linker) fromBootstrap(cl *Cluster) {
	if l.bootstrap == nil {
		l.bootstrap = map[*Cluster]bool{}
	}
	l.bootstrap[cl] = true
}

// sameResource reports a cluster defined twice only because a dump lists
// it twice: a dumped bootstrap's static cluster is listed again, as Envoy
// serves it, by the clusters section (ClusterManagerImpl's
// dumpClusterConfigs lists every static cluster), which tools also save as
// a bare list of clusters. The clusters section's copy is kept, in the
// bootstrap's place, as one dump's sections give it.
func (l *linker) sameResource(prev *Cluster, p *pendingCluster) bool {
	switch {
	case l.bootstrap[prev] && !p.bootstrap:
		prev.Proto = p.c
		delete(l.bootstrap, prev)
		return true
	case p.bootstrap && !l.bootstrap[prev]:
		return true
	}
	return false
}
