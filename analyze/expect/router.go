package expect

import (
	"go.yaml.in/yaml/v3"
)

// Field names of Envoy's test/tools/router_check/validation.proto (the
// newest: code_redirect is field 13, timeout 14; header_fields and
// custom_header_fields are the older proto's); the tool loads JSON
// through protobuf, which also takes lowerCamelCase.
var (
	routerTestKeys  = []string{"test_name", "input", "validate"}
	routerInputKeys = []string{"authority", "path", "method", "random_value", "ssl", "internal",
		"additional_request_headers", "additional_response_headers", "runtime", "dynamic_metadata", "additional_headers"}
	routerValidateKeys = []string{"cluster_name", "virtual_cluster_name", "virtual_host_name",
		"host_rewrite", "path_rewrite", "path_redirect", "code_redirect", "timeout",
		"request_header_fields", "response_header_fields", "request_header_matches",
		"response_header_matches", "header_fields", "custom_header_fields"}
	// routerChecked maps the validate fields lbctl checks to the route
	// result they compare.
	routerChecked = map[string]string{"cluster_name": "cluster", "virtual_host_name": "virtual_host", "path_redirect": "path_redirect"}
)

// snake is a protobuf JSON lowerCamelCase name as the proto's field name.
func snake(s string) string {
	var out []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			out = append(out, '_', c+'a'-'A')
			continue
		}
		out = append(out, c)
	}
	return string(out)
}

// routerKeys checks m's keys against valid (either spelling) and returns
// each value by its proto field name, in file order.
func (p *parser) routerKeys(m *yaml.Node, valid []string, what string) ([]string, map[string]*yaml.Node, map[string]*yaml.Node) {
	var order []string
	vals, keyN := map[string]*yaml.Node{}, map[string]*yaml.Node{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		name := snake(k.Value)
		if !contains(valid, name) {
			p.errorf(k, "unknown %s %q%s", what, clean(k.Value), nearest(k.Value, valid, what))
			continue
		}
		order = append(order, name)
		vals[name], keyN[name] = m.Content[i+1], k
	}
	return order, vals, keyN
}

// routerTest reads one test of Envoy's router_check_tool form.
func (p *parser) routerTest(m *yaml.Node) *Test {
	_, top, _ := p.routerKeys(m, routerTestKeys, "test key")
	nameN := top["test_name"]
	if nameN == nil {
		p.errorf(m, "a router_check test needs a test_name")
		return nil
	}
	name, ok := p.str(nameN, "test_name")
	if !ok || name == "" {
		if ok {
			p.errorf(nameN, "test_name must not be empty")
		}
		return nil
	}
	t := &Test{Name: name, At: p.pos(nameN), Router: true, Request: &Request{Method: "GET"}}
	unexpressible := false
	if in := top["input"]; in == nil || in.Kind != yaml.MappingNode {
		p.errorf(nameN, "test %q: needs an input mapping", clean(name))
	} else {
		unexpressible = p.routerInput(in, t.Request)
	}
	v := top["validate"]
	if v == nil || v.Kind != yaml.MappingNode {
		p.errorf(nameN, "test %q: needs a validate mapping", clean(name))
		return t
	}
	order, vals, keyN := p.routerKeys(v, routerValidateKeys, "validate field")
	for _, f := range order {
		field, checked := routerChecked[f]
		n := vals[f]
		if !checked || unexpressible {
			t.NotChecked = append(t.NotChecked, f)
			continue
		}
		e := Expect{Path: f, Field: field, KeyAt: p.pos(keyN[f])}
		if n.Tag == "!!null" {
			// A StringValue of null is as if absent: nothing to check.
			continue
		}
		t.Expects = p.one(t.Expects, e, n, kindString)
	}
	return t
}

// routerInput fills r from a router_check input; true when the input uses
// something lbctl cannot express (a runtime key, dynamic metadata), so
// nothing is checked.
func (p *parser) routerInput(n *yaml.Node, r *Request) bool {
	order, vals, _ := p.routerKeys(n, routerInputKeys, "input key")
	runtime := false
	for _, k := range order {
		v := vals[k]
		switch k {
		case "authority":
			r.Authority, _ = p.str(v, k)
		case "path":
			r.Path, _ = p.str(v, k)
		case "method":
			r.Method, _ = p.str(v, k)
		case "random_value":
			// protobuf JSON writes uint64 as a string or a number.
			r.RandomValue = p.uint(v, k)
		case "ssl":
			r.SSL = p.bool(v, k)
		case "internal":
			r.Internal = p.bool(v, k)
		case "runtime":
			s, _ := p.str(v, k)
			runtime = runtime || s != ""
		case "dynamic_metadata":
			runtime = runtime || v.Kind != yaml.SequenceNode || len(v.Content) > 0
		case "additional_request_headers", "additional_headers":
			if v.Kind != yaml.SequenceNode {
				p.errorf(v, "%s: expected a list of {key, value}", k)
				continue
			}
			for _, h := range v.Content {
				if h.Kind != yaml.MappingNode {
					p.errorf(h, "%s: expected {key, value}", k)
					continue
				}
				_, hv, _ := p.routerKeys(h, []string{"key", "value", "raw_value"}, "header field")
				var hd Header
				if kn := hv["key"]; kn != nil {
					hd.Name, _ = p.str(kn, "key")
				}
				if vn := hv["value"]; vn != nil {
					hd.Value, _ = p.str(vn, "value")
				}
				r.Headers = append(r.Headers, hd)
			}
		}
	}
	return runtime
}
