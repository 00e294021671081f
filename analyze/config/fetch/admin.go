// Package fetch reads a running Envoy's admin endpoint and a gRPC client's
// CSDS service into in-memory inputs. It is the only package of analyze/
// that imports net/http or google.golang.org/grpc, so loading files never
// links them.
package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/analyze/option"
)

// Options bound a read from a running Envoy's admin endpoint.
type Options struct {
	// AllowRemote permits hosts other than loopback (127.0.0.0/8, ::1,
	// localhost), for the first request and for redirects.
	AllowRemote bool
	// Timeout bounds each whole request, body included (0: 5s).
	Timeout time.Duration
	// MaxBytes is the largest answer accepted (0: config.DefaultMaxInput).
	MaxBytes int64
}

// AdminPaths are what Admin reads: every config resource with EDS
// endpoints, and live host health.
var AdminPaths = []string{"/config_dump?include_eds", "/clusters?format=json"}

// Admin reads AdminPaths from the Envoy admin endpoint at base (an
// http or https URL, optionally with a path prefix) and returns them as
// in-memory inputs named by host, port and path. The error names the URL
// and the reason: refused, time-out, status, size or a non-loopback host.
func Admin(base string, opt Options) ([]config.Input, error) {
	var out []config.Input
	for _, p := range AdminPaths {
		in, err := AdminPath(base, p, opt)
		if err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, nil
}

// AdminPath reads one admin path (with its query) from base.
func AdminPath(base, p string, opt Options) (config.Input, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return config.Input{}, fmt.Errorf("%s %q: expected an http:// or https:// URL such as http://127.0.0.1:9901", option.Admin, base)
	}
	if err := hostAllowed(u, opt.AllowRemote); err != nil {
		return config.Input{}, err
	}
	timeout, max := opt.Timeout, opt.MaxBytes
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	if max <= 0 {
		max = config.DefaultMaxInput
	}
	client := &http.Client{
		Timeout: timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return errors.New("too many redirects")
			}
			return hostAllowed(req.URL, opt.AllowRemote)
		},
	}
	target := *u
	target.User = nil // never echo credentials
	path, query, _ := strings.Cut(p, "?")
	target.Path = strings.TrimSuffix(u.Path, "/") + path
	target.RawQuery = query
	data, err := fetch(client, &target, max)
	if err != nil {
		return config.Input{}, err
	}
	return config.Input{Path: target.Host + target.Path + "?" + query, Data: data}, nil
}

// fetch GETs u, refusing answers over max bytes or with a status other
// than 200.
func fetch(client *http.Client, u *url.URL, max int64) ([]byte, error) {
	name := u.Host + u.Path
	ctx, cancel := context.WithTimeout(context.Background(), client.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", name, fetchReason(err, client.Timeout))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: answered %s (is the admin prefix right? %s http://HOST:PORT/PREFIX)", name, resp.Status, option.Admin)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %s", name, fetchReason(err, client.Timeout))
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: answer larger than %d bytes (raise %s)", name, max, option.MaxInput)
	}
	return data, nil
}

// fetchReason words a transport error without Go's wrapping.
func fetchReason(err error, timeout time.Duration) string {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return fmt.Sprintf("no complete answer within %s (%s)", timeout, option.Timeout)
	case strings.Contains(err.Error(), "connection refused"):
		return "connection refused: is Envoy's admin listening there?"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// hostAllowed refuses hosts other than loopback unless allowRemote.
func hostAllowed(u *url.URL, allowRemote bool) error {
	if allowRemote || IsLoopback(u.Hostname()) {
		return nil
	}
	return fmt.Errorf("%s: not a loopback address; lbctl reads remote admin endpoints only with %s", u.Host, option.AllowRemote)
}

// IsLoopback reports whether host is localhost, 127.0.0.0/8 or ::1.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
