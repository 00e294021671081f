package expect

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/lbctl/lbctl/analyze/model"
	"go.yaml.in/yaml/v3"
)

// parser reads one TESTS file, collecting every error with its position.
type parser struct {
	path string
	errs InputErrors
}

func (p *parser) pos(n *yaml.Node) Pos { return Pos{File: p.path, Line: n.Line, Col: n.Column} }

func (p *parser) errorf(n *yaml.Node, format string, a ...any) {
	p.errs = append(p.errs, &InputError{At: p.pos(n), Msg: fmt.Sprintf(format, a...)})
}

// Parse reads a TESTS file (YAML or JSON) in either form. Every problem is
// an InputError at its TESTS:LINE:COL; all are returned together.
func Parse(path string, data []byte) (*File, error) {
	p := &parser{path: path}
	f := &File{Path: path}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, InputErrors{{At: Pos{File: path, Line: 1, Col: 1}, Msg: "not YAML or JSON: " + clean(err.Error())}}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	tests := p.lookup(root, "tests")
	if root.Kind != yaml.MappingNode || tests == nil {
		at := root
		if root.Kind == 0 {
			at = &yaml.Node{Line: 1, Column: 1}
		}
		p.errorf(at, "a TESTS file is a mapping with a list under \"tests\"")
		return nil, p.errs
	}
	p.keys(root, []string{"tests"}, "top-level key")
	if tests.Kind != yaml.SequenceNode {
		p.errorf(tests, "\"tests\" must be a list, found a %s", nodeKind(tests))
		return nil, p.errs
	}
	seen := map[string]Pos{}
	for _, item := range tests.Content {
		if item.Kind != yaml.MappingNode {
			p.errorf(item, "a test is a mapping, found a %s", nodeKind(item))
			continue
		}
		var t *Test
		if p.lookup(item, "test_name", "testName") != nil || p.lookup(item, "validate") != nil {
			t = p.routerTest(item)
		} else {
			t = p.lbctlTest(item)
		}
		if t == nil {
			continue
		}
		if first, dup := seen[t.Name]; dup {
			p.errs = append(p.errs, &InputError{At: t.At, Msg: fmt.Sprintf("test %q is already defined at %s", clean(t.Name), first)})
			continue
		}
		seen[t.Name] = t.At
		f.Tests = append(f.Tests, t)
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return f, nil
}

// lookup is the value of the first of names present in mapping m.
func (p *parser) lookup(m *yaml.Node, names ...string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if slices.Contains(names, m.Content[i].Value) {
			return m.Content[i+1]
		}
	}
	return nil
}

// keys reports every key of m that is not in valid, with the nearest one.
func (p *parser) keys(m *yaml.Node, valid []string, what string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; !slices.Contains(valid, k.Value) {
			p.errorf(k, "unknown %s %q%s", what, clean(k.Value), nearest(k.Value, valid, what))
		}
	}
}

// str reads a scalar string; ok false (with an error) otherwise.
func (p *parser) str(n *yaml.Node, what string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		p.errorf(n, "%s: expected a string", what)
		return "", false
	}
	return n.Value, true
}

var lbctlTestKeys = []string{"name", "cluster", "request", "given", "expect"}

// lbctlTest reads a test in lbctl's form.
func (p *parser) lbctlTest(m *yaml.Node) *Test {
	before := len(p.errs)
	p.keys(m, lbctlTestKeys, "test key")
	typo := len(p.errs) > before
	nameN := p.lookup(m, "name")
	if nameN == nil {
		p.errorf(m, "a test needs a name")
		return nil
	}
	name, ok := p.str(nameN, "name")
	if !ok || name == "" {
		if ok {
			p.errorf(nameN, "a test's name must not be empty")
		}
		return nil
	}
	t := &Test{Name: name, At: p.pos(nameN)}
	cl, req := p.lookup(m, "cluster"), p.lookup(m, "request")
	switch {
	case cl != nil && req != nil:
		p.errorf(req, "test %q: give either cluster or request, not both", clean(name))
	case cl != nil:
		t.Cluster, _ = p.str(cl, "cluster")
		t.ClusterAt = p.pos(cl)
	case req != nil:
		t.Request = p.request(req)
	case !typo:
		// With a misspelt key, its error says what is wrong.
		p.errorf(nameN, "test %q: needs a cluster or a request", clean(name))
	}
	if g := p.lookup(m, "given"); g != nil {
		t.Given = p.given(g)
	}
	if e := p.lookup(m, "expect"); e != nil {
		t.Expects = p.expects(e, t.Request != nil)
	}
	if len(t.Expects) == 0 && p.lookup(m, "expect") == nil {
		p.errorf(nameN, "test %q: nothing to check (no expect)", clean(name))
	}
	return t
}

var requestKeys = []string{"authority", "path", "method", "headers", "random_value", "ssl", "internal"}

func (p *parser) request(n *yaml.Node) *Request {
	r := &Request{Method: "GET"}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "request: expected a mapping")
		return r
	}
	p.keys(n, requestKeys, "request key")
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		switch k {
		case "authority":
			r.Authority, _ = p.str(v, k)
		case "path":
			r.Path, _ = p.str(v, k)
		case "method":
			r.Method, _ = p.str(v, k)
		case "headers":
			if v.Kind != yaml.MappingNode {
				p.errorf(v, "headers: expected a mapping NAME: VALUE")
				continue
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				val, _ := p.str(v.Content[j+1], "header "+clean(v.Content[j].Value))
				r.Headers = append(r.Headers, Header{Name: v.Content[j].Value, Value: val})
			}
		case "random_value":
			r.RandomValue = p.uint(v, k)
		case "ssl":
			r.SSL = p.bool(v, k)
		case "internal":
			r.Internal = p.bool(v, k)
		}
	}
	if r.Path == "" {
		p.errorf(n, "request: needs a path")
	}
	return r
}

func (p *parser) uint(n *yaml.Node, what string) uint64 {
	v, err := strconv.ParseUint(n.Value, 10, 64)
	if n.Kind != yaml.ScalarNode || err != nil {
		p.errorf(n, "%s: expected a non-negative integer", what)
	}
	return v
}

func (p *parser) bool(n *yaml.Node, what string) bool {
	v, err := strconv.ParseBool(n.Value)
	if n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || err != nil {
		p.errorf(n, "%s: expected true or false", what)
	}
	return v
}

var givenKeys = []string{"set_health", "zone", "active_requests", "host_age", "remove"}

func (p *parser) given(n *yaml.Node) Given {
	g := Given{addrAt: map[string]Pos{}}
	if n.Kind != yaml.MappingNode {
		p.errorf(n, "given: expected a mapping")
		return g
	}
	p.keys(n, givenKeys, "given key")
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		switch k {
		case "set_health", "remove":
			items := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode {
				items = v.Content
			}
			for _, it := range items {
				s, ok := p.str(it, k)
				if !ok {
					continue
				}
				if k == "remove" {
					g.Remove = append(g.Remove, s)
					g.addrAt[s] = p.pos(it)
					continue
				}
				if _, err := model.ParseHealthOverride(s); err != nil {
					p.errorf(it, "%s", clean(err.Error()))
				}
				g.SetHealth = append(g.SetHealth, s)
				g.setHealthAt = append(g.setHealthAt, p.pos(it))
			}
		case "zone":
			g.Zone, _ = p.str(v, k)
			g.zoneAt = p.pos(v)
			if _, err := parseZone(g.Zone); err != nil {
				p.errorf(v, "%s", clean(err.Error()))
			}
		case "active_requests", "host_age":
			if v.Kind != yaml.MappingNode {
				p.errorf(v, "%s: expected a mapping ADDRESS: VALUE", k)
				continue
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				addr, val := v.Content[j].Value, v.Content[j+1]
				g.addrAt[addr] = p.pos(v.Content[j])
				if k == "active_requests" {
					if g.ActiveRequests == nil {
						g.ActiveRequests = map[string]uint64{}
					}
					g.ActiveRequests[addr] = p.uint(val, k)
					continue
				}
				d, err := time.ParseDuration(val.Value)
				if err != nil || d < 0 {
					p.errorf(val, "host_age: expected a duration such as 30s, found %q", clean(val.Value))
				}
				if g.HostAge == nil {
					g.HostAge = map[string]time.Duration{}
				}
				g.HostAge[addr] = d
			}
		}
	}
	return g
}
