package expect

import "fmt"

// requestLookup asks the route engine about a request test's request.
func requestLookup(t *Test, rep Reports) (lookup, InputErrors) {
	if len(t.Expects) == 0 {
		// Nothing checked (a router_check test lbctl cannot express):
		// the request is not asked.
		return func(Expect) (got, *InputError) { return got{none: true}, nil }, nil
	}
	if rep.Request == nil {
		return nil, InputErrors{{At: t.At, Msg: "request tests need the route engine"}}
	}
	if errs := setHealthErrors(t, rep); len(errs) > 0 {
		return nil, errs
	}
	rr, err := rep.Request(*t.Request, t.Given)
	if err != nil {
		return nil, InputErrors{{At: t.At, Msg: fmt.Sprintf("test %q: %s", clean(t.Name), clean(err.Error()))}}
	}
	return func(e Expect) (got, *InputError) {
		switch e.Field {
		case "cluster":
			// router_check_tool compares names without the clusters
			// (route-only configs): a wrong one fails, it is no input error.
			if !t.Router && rep.Clusters != nil && e.Want.Str != "" && !contains(rep.Clusters, e.Want.Str) {
				return got{}, &InputError{At: e.At, Msg: fmt.Sprintf("%s: no cluster %q%s", clean(e.Path), clean(e.Want.Str), nearest(e.Want.Str, rep.Clusters, "cluster"))}
			}
			return str(rr.Cluster), nil
		case "virtual_host":
			return str(rr.VirtualHost), nil
		case "route":
			if !rr.Found {
				return got{none: true}, nil
			}
			return str(rr.Route), nil
		case "path_redirect":
			return str(rr.PathRedirect), nil
		case "host":
			return str(rr.Host), nil
		}
		hs := make([]hostRow, len(rr.Hosts))
		for i, h := range rr.Hosts {
			hs[i] = hostRow{addr: h.Address, share: h.Share, live: true}
		}
		return hostFigure(hs, e)
	}, nil
}

func str(s string) got { return got{str: s, none: s == ""} }
