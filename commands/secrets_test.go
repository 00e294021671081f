package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The credentials of the hostile configurations below: fixtures of ours,
// written by the test. No output of any command may hold 8 bytes of them.
const (
	secretKeyLine1 = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7q8Zr3sQk2nPZ"
	secretKeyLine2 = "l5F0dW1xYbR4mVtJcE9uHkLgTfAsQw7Yp1ZxKc3vN8eRm2TbUj6WdHoGf0aLiEyS"
	secretKeyB64   = "TUlJRXZRSUJBREFOQmdrcWhraUc5dzBCQVFFRkFBU0NCS2N3Z2dTakFnRUFBb0lC"
	secretPassword = "Pa55w0rd-Hunter2-Zebra"
	secretToken    = "Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXRva2Vu"
)

// hostileConfig is a bootstrap with a TLS private key (a PEM block and
// inline bytes), a key password, an Authorization header added by a
// virtual host and matched by a route, and terminal escapes, newlines and
// a bidi override in names, hostnames and metadata.
var hostileConfig = `static_resources:
  secrets:
  - name: server-cert
    tls_certificate:
      certificate_chain: {filename: /etc/cert.pem}
      private_key:
        inline_string: |
          -----BEGIN PRIVATE KEY-----
          ` + secretKeyLine1 + `
          ` + secretKeyLine2 + `
          -----END PRIVATE KEY-----
      password: {inline_string: "` + secretPassword + `"}
  listeners:
  - name: ingress
    address: {socket_address: {address: 0.0.0.0, port_value: 8080}}
    filter_chains:
    - filters:
      - name: envoy.filters.network.http_connection_manager
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
          stat_prefix: ingress
          http_filters:
          - name: envoy.filters.http.router
            typed_config: {"@type": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router}
          route_config:
            name: "routes\u001b[2J"
            virtual_hosts:
            - name: "vh\u001b]0;title\u0007"
              domains: ["*"]
              request_headers_to_add:
              - header: {key: authorization, value: "` + secretToken + `"}
              routes:
              - match:
                  prefix: /
                  headers:
                  - name: Authorization
                    string_match: {exact: "` + secretToken + `"}
                route:
                  cluster: web
                  hash_policy: [{header: {header_name: x-user}}]
                  metadata_match: {filter_metadata: {envoy.lb: {version: v1}}}
  clusters:
  - name: web
    type: STATIC
    lb_policy: RING_HASH
    ring_hash_lb_config: {minimum_ring_size: 64, maximum_ring_size: 64}
    lb_subset_config:
      fallback_policy: ANY_ENDPOINT
      subset_selectors: [{keys: [version]}]
    load_assignment:
      cluster_name: web
      endpoints:
      - locality: {zone: "z\u001b[31m\nx"}
        lb_endpoints:
        - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}, hostname: "host\u001b]0;title\u0007\nx"}
          metadata: {filter_metadata: {envoy.lb: {version: "v1\u001b[31m"}}}
        - endpoint: {address: {socket_address: {address: 10.0.0.2, port_value: 80}}}
          metadata: {filter_metadata: {envoy.lb: {version: v1}}}
    transport_socket:
      name: envoy.transport_sockets.tls
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext
        common_tls_context:
          tls_certificates:
          - private_key: {inline_bytes: "` + secretKeyB64 + `"}
            password: {inline_string: "` + secretPassword + `"}
  - name: "esc\u001b[2J\nname\u202e"
    type: STATIC
    lb_policy: RING_HASH
    ring_hash_lb_config: {minimum_ring_size: 128, maximum_ring_size: 64}
    load_assignment:
      cluster_name: esc
      endpoints:
      - lb_endpoints:
        - endpoint: {address: {socket_address: {address: 10.0.1.1, port_value: 80}}}
`

// wrongTypeConfig puts the same secrets where a value of another type is
// expected: the errors must name the field, never quote the value.
func wrongTypeConfig() string {
	r := strings.NewReplacer(
		`inline_bytes: "`+secretKeyB64+`"`, `inline_bytes: "`+secretKeyB64+`!!"`,
		`password: {inline_string: "`+secretPassword+`"}`, `password: {inline_string: ["`+secretPassword+`"]}`,
		`value: "`+secretToken+`"`, `value: ["`+secretToken+`"]`,
		`exact: "`+secretToken+`"`, `exact: {x: "`+secretToken+`"}`,
		"- name: web\n", "- name: web\n    connect_timeout: \""+secretPassword+"\"\n    per_connection_buffer_limit_bytes: \""+strings.Repeat("A", 5000)+"\"\n")
	return r.Replace(hostileConfig)
}

// oneLineJSON is the hostile bootstrap as one line of JSON, as an admin
// config_dump often is: a finding's snippet must be a window of it.
func oneLineJSON(t *testing.T) string {
	var v any
	if err := yaml.Unmarshal([]byte(hostileConfig), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// leaks reports the first 8-byte window of a secret found in out.
func leaks(out string) string {
	for _, s := range []string{secretKeyLine1, secretKeyLine2, secretKeyB64, secretPassword, secretToken} {
		for i := 0; i+8 <= len(s); i++ {
			if strings.Contains(out, s[i:i+8]) {
				return s[i : i+8]
			}
		}
	}
	return ""
}

// rawControl reports the first raw control character in out: a C0
// character other than newline and tab, DEL, a C1 character or a bidi
// override (the runs are uncoloured: --color never).
func rawControl(out string) (rune, bool) {
	for _, r := range out {
		if r == '\n' || r == '\t' {
			continue
		}
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			return r, true
		}
	}
	return 0, false
}

// TestNoSecretOrControlCharacterInAnyOutput runs every command in every
// output format over configurations holding a private key, a password and
// a token, valid and with wrong types, as YAML and as one-line JSON, and
// greps stdout and stderr.
func TestNoSecretOrControlCharacterInAnyOutput(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"hostile.yaml": hostileConfig, "wrongtype.yaml": wrongTypeConfig(), "oneline.json": oneLineJSON(t)}
	for name, data := range files {
		if !strings.Contains(data, secretPassword) || !strings.Contains(data, secretToken) {
			t.Fatalf("%s does not hold the secrets it is meant to", name)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var runs [][]string
	for name := range files {
		f := filepath.Join(dir, name)
		for _, o := range []string{"text", "json", "yaml"} {
			for _, sem := range []string{"envoy", "grpc", "both"} {
				runs = append(runs, []string{"-o", o, "--semantics", sem, "explain", "--all", f})
			}
			runs = append(runs,
				[]string{"-o", o, "hash", "--cluster", "web", f},
				[]string{"-o", o, "hash", "--cluster", "web", "--dump", f},
				[]string{"-o", o, "subset", "--cluster", "web", f},
				[]string{"-o", o, "--semantics", "grpc", "session", "--cluster", "web", "--cookie", "10.0.0.1:80", f},
				[]string{"-o", o, "sweep", "--cluster", "web", f},
				[]string{"-o", o, "explain", "--cluster", "nope", f})
		}
		runs = append(runs, []string{"-o", "csv", "sweep", "--cluster", "web", f},
			[]string{"sweep", "--cluster", "web", "--svg", filepath.Join(dir, name+".svg"), f})
		for _, format := range []string{"text", "json", "sarif", "github"} {
			runs = append(runs, []string{"lint", "--format", format, f})
		}
		runs = append(runs, []string{"-o", "json", "lint", f},
			[]string{"completion", "__complete", "--current=", "explain", f, "--cluster"})
	}
	runs = append(runs, []string{"rules"}, []string{"rules", "LB0004"})
	defer func() {
		// The SVG files sweep wrote hold neither secrets nor control
		// characters either.
		svgs, _ := filepath.Glob(filepath.Join(dir, "*.svg"))
		if len(svgs) == 0 {
			t.Error("sweep --svg wrote no file")
		}
		for _, p := range svgs {
			b, _ := os.ReadFile(p)
			if w := leaks(string(b)); w != "" {
				t.Errorf("%s holds %q of a secret", p, w)
			}
			if r, bad := rawControl(string(b)); bad {
				t.Errorf("%s holds a raw control character %U", p, r)
			}
		}
	}()
	for _, args := range runs {
		args = append([]string{"--color", "never"}, args...)
		out, errs, _ := run(t, "", args...)
		for stream, s := range map[string]string{"stdout": out, "stderr": errs} {
			if w := leaks(s); w != "" {
				t.Errorf("lbctl %s: %s holds %q of a secret:\n%s", strings.Join(args, " "), stream, w, s)
			}
			if r, bad := rawControl(s); bad {
				t.Errorf("lbctl %s: %s holds a raw control character %U", strings.Join(args, " "), stream, r)
			}
			if !utf8.ValidString(s) {
				t.Errorf("lbctl %s: %s is not valid UTF-8", strings.Join(args, " "), stream)
			}
		}
	}
}

// TestWrongTypeErrorsNameTheFieldNotTheSecret: explain's errors and lint's
// findings for wrong types cite the field and the expected type; a secret
// field's value is withheld, any other value is capped.
func TestWrongTypeErrorsNameTheFieldNotTheSecret(t *testing.T) {
	f := filepath.Join(t.TempDir(), "wrongtype.yaml")
	if err := os.WriteFile(f, []byte(wrongTypeConfig()), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errs, code := run(t, "", "explain", f)
	if code != ExitInput {
		t.Fatalf("exit %d, want %d:\n%s", code, ExitInput, errs)
	}
	for _, want := range []string{
		`expected base64 bytes for "inline_bytes" (under "private_key"), found a value that is not shown ("private_key" holds a secret)`,
		`expected a string for "inline_string" (under "password"), found a list`,
		`expected a duration such as "5s" or "0.25s", found a string "[redacted]"`,       // not a secret field, but a known secret value
		`wrongtype.yaml:45:40: expected a non-negative integer for "value", found "AAAA`, // a UInt32Value's value
		`(4880 more bytes)`,
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}
