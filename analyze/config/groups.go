package config

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/lbctl/lbctl/analyze/config/parse"
)

// LoadGroups reads inputs as separate configurations, the way they were
// produced: each bootstrap or admin config_dump document is one Envoy's
// whole configuration, so it is its own; loose xDS resources (clusters,
// assignments, routes, listeners, discovery responses, wrappers of them)
// from one directory form one, as a control plane writes them; merge puts
// everything into one. All configurations share one Sources. The slice is
// never empty; the error holds the errors of every configuration.
func LoadGroups(inputs []Input, kind string, merge bool) ([]*Config, error) {
	return LoadGroupsLimited(inputs, kind, merge, Limits{})
}

// LoadGroupsLimited is LoadGroups with lim in place of the default limits.
func LoadGroupsLimited(inputs []Input, kind string, merge bool, lim Limits) ([]*Config, error) {
	r := &reader{src: newSources(), kind: kind, merge: merge, byKey: map[string]*group{}, lim: lim}
	for _, in := range inputs {
		r.input(in)
	}
	r.joinLiveHealth()
	r.joinSections()
	if len(r.groups) == 0 {
		r.group("")
	}
	var cfgs []*Config
	var errs Problems
	for _, g := range r.groups {
		cfg := g.load(r.src, kind)
		errs = append(errs, cfg.Problems.Errors()...)
		cfgs = append(cfgs, cfg)
	}
	if len(errs) > 0 {
		errs.Sort()
		return cfgs, errs
	}
	return cfgs, nil
}

// Load reads inputs as one configuration. kind forces the document kind
// ("" detects it). The returned Config is never nil; its Problems hold every
// problem found, and the returned error is non-nil when a file could not be
// read or parsed as Envoy config (the errors among Problems).
func Load(inputs []Input, kind string) (*Config, error) {
	return LoadLimited(inputs, kind, Limits{})
}

// LoadLimited is Load with lim in place of the default limits.
func LoadLimited(inputs []Input, kind string, lim Limits) (*Config, error) {
	cfgs, err := LoadGroupsLimited(inputs, kind, true, lim)
	return cfgs[0], err
}

// reader reads files and sorts their documents into groups.
type reader struct {
	src    *Sources
	kind   string
	merge  bool
	groups []*group
	byKey  map[string]*group
	lim    Limits
	total  int64 // bytes read so far, bounded by lim.maxInput()
	buf    []byte
	// skippable: the input being read may hold no Envoy config (a
	// directory's file, or --skip-non-envoy); it is then skipped.
	skippable bool
}

// group is the documents (and file problems) of one configuration.
type group struct {
	files []string
	seen  map[string]bool
	docs  []unit
	probs Problems
}

type unit struct {
	file string
	node node
	kind string // found inside a container (find.go); "" detects it
	// own: one of several configurations in one document (egctl's
	// gateways), whose dump sections are not another file's (sections.go).
	own bool
}

func (r *reader) group(key string) *group {
	if r.merge {
		key = ""
	}
	g := r.byKey[key]
	if g == nil {
		g = &group{seen: map[string]bool{}}
		r.byKey[key] = g
		r.groups = append(r.groups, g)
	}
	return g
}

func (g *group) addFile(file string) {
	if !g.seen[file] {
		g.seen[file] = true
		g.files = append(g.files, file)
	}
}

// looseKey is the group of loose resources of file's directory.
func looseKey(file string) string { return "dir:" + filepath.Dir(file) }

// problem files p under file's directory group.
func (r *reader) problem(p Problem) {
	p.Msg = safeMsg(p.Msg)
	g := r.group(looseKey(p.Pos.File))
	g.addFile(p.Pos.File)
	g.probs = append(g.probs, p)
}

func (r *reader) input(in Input) {
	r.skippable = in.SkipNonEnvoy
	if in.Data != nil {
		if r.admit(in.Path, int64(len(in.Data))) {
			r.data(in.Path, string(in.Data))
		}
		return
	}
	if in.Path == "-" {
		rd := in.Stdin
		if rd == nil {
			rd = os.Stdin
		}
		data, err := r.readText(io.LimitReader(rd, r.lim.maxInput()+1), 0)
		if err != nil {
			r.problem(Problem{Pos: Pos{File: "<stdin>"}, Severity: SevError, Code: CodeIO, Msg: "cannot read standard input: " + err.Error()})
			return
		}
		if r.admit("<stdin>", int64(len(data))) {
			r.data("<stdin>", data)
		}
		return
	}
	st, err := os.Stat(in.Path)
	if err != nil {
		r.problem(Problem{Pos: Pos{File: in.Path}, Severity: SevError, Code: CodeIO, Msg: ioMessage(err)})
		return
	}
	if !st.IsDir() {
		r.file(in.Path)
		return
	}
	var files, bare []string
	err = filepath.WalkDir(in.Path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			r.problem(Problem{Pos: Pos{File: p}, Severity: SevError, Code: CodeIO, Msg: ioMessage(err)})
			return nil
		}
		if !d.IsDir() && ReadInDirectory(p) {
			files = append(files, p)
		} else if !d.IsDir() && bareTemplate(p) {
			bare = append(bare, p)
		}
		return nil
	})
	if err != nil {
		r.problem(Problem{Pos: Pos{File: in.Path}, Severity: SevError, Code: CodeIO, Msg: ioMessage(err)})
	}
	sort.Strings(files)
	r.skippable = true
	if len(files) == 0 {
		r.problem(Problem{Pos: Pos{File: in.Path}, Severity: SevWarning, Code: CodeIO, Msg: "directory has no .yaml, .yml or .json file"})
	}
	for _, f := range files {
		r.file(f)
	}
	for _, f := range bare {
		r.problem(Problem{Pos: Pos{File: f}, Severity: SevInfo, Code: CodeSkipped, Msg: "a template not named .yaml, .yml or .json before its suffix; not read"})
	}
}

// file reads one regular file (parse.Open refuses anything else: opening
// a FIFO blocks, and a device such as /dev/zero never ends).
func (r *reader) file(path string) {
	f, st, err := parse.Open(path)
	if err != nil {
		msg := ioMessage(err)
		if _, ok := err.(*parse.NotRegularError); ok {
			msg = err.Error()
		}
		r.problem(Problem{Pos: Pos{File: path}, Severity: SevError, Code: CodeIO, Msg: msg})
		return
	}
	if !r.admit(path, st.Size()) {
		f.Close()
		return
	}
	defer f.Close()
	// Bounded even if the file grew since its Stat.
	data, err := r.readText(io.LimitReader(f, r.lim.maxInput()-r.total+st.Size()+1), st.Size())
	if err != nil {
		r.problem(Problem{Pos: Pos{File: path}, Severity: SevError, Code: CodeIO, Msg: ioMessage(err)})
		return
	}
	if int64(len(data)) > st.Size() {
		r.total -= st.Size()
		if !r.admit(path, int64(len(data))) {
			return
		}
	}
	r.data(path, data)
}

// admit counts size bytes of file against --max-input, per file and in
// total, and reports the limit when it is passed.
func (r *reader) admit(file string, size int64) bool {
	max := r.lim.maxInput()
	switch {
	case size > max:
		r.problem(Problem{Pos: Pos{File: file}, Severity: SevError, Code: CodeIO, Msg: fmt.Sprintf("larger than %d bytes (%s)", max, r.lim.hint())})
		return false
	case r.total+size > max:
		r.problem(Problem{Pos: Pos{File: file}, Severity: SevError, Code: CodeIO, Msg: fmt.Sprintf("inputs together larger than %d bytes (%s)", max, r.lim.hint())})
		return false
	}
	r.total += size
	return true
}

// readText reads all of rd into a string without the doublings of
// io.ReadAll or a copy from bytes: a large input is held once, by Sources
// and the tree. size is the expected length; the copy goes through the
// reader's one buffer (io.Copy would allocate one per file).
func (r *reader) readText(rd io.Reader, size int64) (string, error) {
	if r.buf == nil {
		r.buf = make([]byte, 32<<10)
	}
	var b strings.Builder
	b.Grow(int(size) + 1)
	_, err := io.CopyBuffer(&b, rd, r.buf)
	return b.String(), err
}

// data parses one file and files each document under its configuration.
// The file's own problems (syntax) go with its first document.
func (r *reader) data(file, text string) {
	r.src.addFile(file, text)
	clean, tpl := detemplate(text)
	docs, probs := parseText(file, clean, r.lim)
	if tpl != nil {
		probs = append(probs, tpl.notice(file))
	}
	if len(docs) > 0 {
		r.src.expect(treeOf(docs[0]).Maps)
	}
	var first *group
	f := &finder{file: file, src: r.src}
	for i, doc := range docs {
		units, own := r.split(file, doc, f)
		for j, u := range units {
			key := looseKey(file)
			if own || r.standalone(u) {
				key = file + "#" + strconv.Itoa(i) + "." + strconv.Itoa(j)
			}
			g := r.group(key)
			g.addFile(file)
			g.docs = append(g.docs, u)
			if first == nil {
				first = g
			}
		}
	}
	if first == nil {
		first = r.group(looseKey(file))
		first.addFile(file)
		if len(probs) == 0 && len(docs) == 0 {
			probs = append(probs, Problem{Pos: Pos{File: file, Line: 1, Col: 1}, Severity: SevWarning, Code: CodeUnknownKind, Msg: "file has no document"})
		}
	}
	first.probs = append(first.probs, probs...)
	first.probs = append(first.probs, f.probs...)
	if r.kind == "" && len(docs) > 0 {
		first.probs = append(first.probs, r.unfound(file, docs[0], f)...)
	}
}

// split gives the documents of one YAML document that are configurations
// of their own (own): each gateway's config dump in egctl's `x translate`
// output.
func (r *reader) split(file string, doc node, f *finder) (units []unit, own bool) {
	if r.kind == "" {
		if dumps := egctlDumps(parse.Resolve(doc)); dumps != nil {
			for _, d := range dumps {
				units = append(units, unit{file: file, node: d, own: true})
			}
			f.units = append(f.units, units...)
			return units, true
		}
		before := len(f.units)
		f.document(doc)
		return f.units[before:], false
	}
	return []unit{{file: file, node: doc}}, false
}

// standalone reports a document that is one Envoy's whole configuration.
func (r *reader) standalone(u unit) bool {
	kind := r.kind
	if kind == "" {
		kind = u.kind
	}
	if kind == "" {
		kind = detectKind(parse.Resolve(u.node))
	}
	return kind == KindBootstrap || kind == KindConfigDump || kind == kindBootstrapDump
}

// load reads the group's documents as one configuration.
func (g *group) load(src *Sources, kind string) *Config {
	cfg := &Config{Sources: src, Files: g.files, Problems: g.probs, byName: map[string]*Cluster{}, LiveHealth: map[string]map[string]LiveHost{}}
	l := &loader{collector: collector{cfg: cfg}, kind: kind}
	for _, u := range g.docs {
		if kind != "" {
			u.kind = kind
		}
		l.units = append(l.units, u)
		readUnit(l, u)
	}
	l.linker().link()
	l.dupConsequences()
	cfg.Problems.sanitize()
	cfg.Problems.Sort()
	cfg.Problems = cfg.Problems.grouped()
	return cfg
}
