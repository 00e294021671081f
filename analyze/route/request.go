package route

import (
	"fmt"
	"strings"
	"unicode"
)

// Request is the one request to route (the command's flags).
type Request struct {
	Authority string
	Path      string
	Method    string // default GET
	Headers   [][2]string
	Cookies   [][2]string
	SourceIP  string
	// RandomValue is the router's random number (weighted clusters,
	// runtime fractions), as router_check_tool's random_value; nil: none.
	RandomValue *uint64
	// SSL: the downstream connection is TLS with a client certificate
	// presented and validated (router_check_tool's ssl input); it also
	// makes x-forwarded-proto https.
	SSL bool
	// Internal sets x-envoy-internal: true (router_check_tool's internal).
	Internal bool
}

// Options choose among several route configurations.
type Options struct {
	RouteConfig string
	Listener    string
}

// UsageError is a request or option the configuration cannot answer
// (an unknown name, or a choice that must be made): exit 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// headers is the request's header map as the router sees it: lower-case
// names, repeated headers kept in order.
type headers map[string][]string

func (h headers) add(name, value string) {
	name = strings.ToLower(name)
	h[name] = append(h[name], value)
}

func (h headers) set(name, value string) { h[strings.ToLower(name)] = []string{value} }

// joined is getAllOfHeaderAsString: several values joined by ",".
func (h headers) joined(name string) (string, bool) {
	v, ok := h[strings.ToLower(name)]
	if !ok || len(v) == 0 {
		return "", false
	}
	return strings.Join(v, ","), true
}

func (h headers) first(name string) string {
	if v := h[strings.ToLower(name)]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// requestHeaders builds the map a router sees: the pseudo-headers, the
// x-forwarded-proto the HCM sets from the connection, the cookies in one
// cookie header, and --internal's x-envoy-internal.
func requestHeaders(req Request) headers {
	h := headers{}
	for _, kv := range req.Headers {
		h.add(kv[0], kv[1])
	}
	h.set(":authority", req.Authority)
	h.set(":path", req.Path)
	method := req.Method
	if method == "" {
		method = "GET"
	}
	h.set(":method", method)
	proto := "http"
	if req.SSL {
		proto = "https"
	}
	if h.first("x-forwarded-proto") == "" {
		h.set("x-forwarded-proto", proto)
	}
	if _, ok := h[":scheme"]; !ok {
		h.set(":scheme", h.first("x-forwarded-proto"))
	}
	if len(req.Cookies) > 0 {
		var parts []string
		for _, c := range req.Cookies {
			parts = append(parts, c[0]+"="+c[1])
		}
		h.add("cookie", strings.Join(parts, "; "))
	}
	if req.Internal {
		h.set("x-envoy-internal", "true")
	}
	return h
}

// cookie returns the named cookie's value (Http::Utility::parseCookieValue:
// the first of that name, in any cookie header).
func (h headers) cookie(name string) (string, bool) {
	for _, line := range h["cookie"] {
		for _, part := range strings.Split(line, ";") {
			k, v, ok := strings.Cut(strings.TrimLeft(part, " "), "=")
			if ok && k == name {
				if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
					v = v[1 : len(v)-1]
				}
				return v, true
			}
		}
	}
	return "", false
}

// sprintf formats a message and escapes control characters, which may
// come from the request or the config.
func sprintf(format string, args ...any) string {
	return clean(fmt.Sprintf(format, args...))
}

func clean(s string) string {
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if isControl(r) {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isControl(r rune) bool { return unicode.IsControl(r) || r == unicode.ReplacementChar }
