package config

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"web", "web"},
		{"naïve → ok", "naïve → ok"}, // printable Unicode stays
		{"evil\x1b]0;pwned\x07\nline2", `evil\x1b]0;pwned\a\nline2`},
		{"a\tb\rc\x7f", `a\tb\rc\x7f`},
		{"c1\u009b2J", `c1\u009b2J`},
		{"bidi\u202eevil\u2066", `bidi\u202eevil\u2066`},
		{"bad\xffutf8", `bad\xffutf8`},
		// Option delimiters: escaped unless around a known option (which
		// prints as its flag, plain ASCII the input could hold anyway).
		{"\ue000set-health\ue001 x", "\ue000set-health\ue001 x"},
		{"\ue000no-such\ue001", `\ue000no-such\ue001`},
		{"\ue000set-health", `\ue000set-health`},
		{"set-health\ue001", `set-health\ue001`},
		{"\ue000\ue000set-health\ue001", "\\ue000\ue000set-health\ue001"},
	} {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := Escape(Escape(c.in)); got != c.want {
			t.Errorf("Escape is not idempotent on %q: %q", c.in, got)
		}
	}
}

// A value quoted through Safe never carries a reference, known or not.
func TestSafeEscapesReferences(t *testing.T) {
	for _, in := range []string{"\ue000set-health\ue001", "\ue000route\ue001=x", "a\ue001"} {
		if got := Safe(in); strings.ContainsAny(got, "\ue000\ue001") {
			t.Errorf("Safe(%q) = %q: a delimiter got through", in, got)
		}
	}
	if got, want := Quote("\ue000set-health\ue001"), `"\ue000set-health\ue001"`; got != want {
		t.Errorf("Quote = %q, want %q", got, want)
	}
}

func TestSafeTruncates(t *testing.T) {
	long := strings.Repeat("x", 500)
	got := Safe(long)
	if want := strings.Repeat("x", MaxValue) + "…(380 more bytes)"; got != want {
		t.Errorf("Safe(500 x) = %q, want %q", got, want)
	}
	// A cut never splits a character.
	got = Truncate(strings.Repeat("é", 100), 11) // 2 bytes each: cut at 10
	if want := strings.Repeat("é", 5) + "…(190 more bytes)"; got != want {
		t.Errorf("Truncate = %q, want %q", got, want)
	}
	if Safe("short") != "short" {
		t.Error("Safe changed a short value")
	}
}

func TestSecretNames(t *testing.T) {
	for name, want := range map[string]bool{
		"private_key": true, "password": true, "auth_password": true, "session_ticket_keys": true,
		"generic_secret": true, "token_secret": true, "hmac_secret": true, "privateKey": true,
		"certificate_chain": false, "name": false, "hash_key": false, "keys": false, "max_tokens": false,
		"tls_certificate_sds_secret_configs": false, "sds_config": false, "secrets": false, "secret": false,
	} {
		if got := IsSecretField(name); got != want {
			t.Errorf("IsSecretField(%q) = %v, want %v", name, got, want)
		}
	}
	for name, want := range map[string]bool{
		"Authorization": true, "cookie": true, "x-api-key": true, "X-Auth-Token": true, "proxy-authorization": true,
		"x-user": false, "content-type": false, ":path": false,
	} {
		if got := IsSecretHeader(name); got != want {
			t.Errorf("IsSecretHeader(%q) = %v, want %v", name, got, want)
		}
	}
}

const pemBody = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7q8Zr3sQk2nPZ"

// snippetConfig holds secrets in a block scalar, in flow style and in a
// header value, each on a line a finding may point at.
var snippetConfig = `static_resources:
  secrets:
  - name: cert
    tls_certificate:
      private_key:
        inline_string: |
          -----BEGIN PRIVATE KEY-----
          ` + pemBody + `
          -----END PRIVATE KEY-----
      password: {inline_string: "hunter22-zebra", unknown_x: 1}
  clusters:
  - name: web
    connect_timeout: 1s
    load_assignment:
      cluster_name: web
      endpoints:
      - lb_endpoints:
        - endpoint: {address: {socket_address: {address: 10.0.0.1, port_value: 80}}}
`

func TestSnippetMasksSecrets(t *testing.T) {
	cfg, _ := LoadBytes("s.yaml", []byte(snippetConfig), "")
	src := cfg.Sources
	for line := 1; line <= len(src.Lines("s.yaml")); line++ {
		text, _, _ := src.Snippet("s.yaml", line, 1)
		for _, secret := range []string{pemBody[:8], "BEGIN", "hunter22"} {
			if strings.Contains(text, secret) {
				t.Errorf("line %d snippet %q shows %q", line, text, secret)
			}
		}
	}
	// The keys stay readable; every value under the secret field is masked.
	if text, _, _ := src.Snippet("s.yaml", 10, 7); text != `      password: {inline_string: ****************, unknown_x: *}` {
		t.Errorf("password line: %q", text)
	}
	if text, _, _ := src.Snippet("s.yaml", 12, 3); text != "  - name: web" {
		t.Errorf("line after the secrets is masked: %q", text)
	}
	got := src.Secrets()
	if len(got) == 0 || !contains(got, pemBody) || !contains(got, "hunter22-zebra") {
		t.Errorf("Secrets() = %q", got)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestSnippetWindow: on a one-line JSON dump a snippet is a window of
// SnippetWidth bytes around the column, and the caret stays under it.
func TestSnippetWindow(t *testing.T) {
	pad := strings.Repeat(`"x":1,`, 400)
	line := `{` + pad + `"clusters":[{"name":"web\u001b[2J","type":"STATIC"}],` + pad + `"y":2}`
	cfg, _ := LoadBytes("d.json", []byte(line+"\n"), "")
	col := strings.Index(line, `"type"`) + 1
	text, caret, ok := cfg.Sources.Snippet("d.json", 1, col)
	if !ok {
		t.Fatal("no snippet")
	}
	if len(text) > SnippetWidth+6+4 { // two "...", and \u001b escaped as itself
		t.Errorf("snippet is %d bytes, want at most %d: %q", len(text), SnippetWidth+10, text)
	}
	if !strings.HasPrefix(text, "...") || !strings.HasSuffix(text, "...") {
		t.Errorf("a cut snippet says so: %q", text)
	}
	if !strings.HasPrefix(text[caret:], `"type"`) {
		t.Errorf("caret at %d points at %q, want \"type\"", caret, text[caret:])
	}
	// Short lines are shown whole.
	if text, caret, _ := cfg.Sources.Snippet("d.json", 1, 1); caret != 0 || !strings.HasPrefix(text, `{"x":1,`) {
		t.Errorf("column 1: %q caret %d", text, caret)
	}
}

// TestSnippetRuneEdges: a window whose edges fall inside multi-byte runes,
// or among bytes that are not UTF-8 at all (the fuzzer's line: 60 digits
// and 61 lone continuation bytes), cuts between runes, at every column.
func TestSnippetRuneEdges(t *testing.T) {
	for _, line := range []string{
		strings.Repeat("0", 60) + strings.Repeat("\xa3", 61),
		strings.Repeat("é", 130),
		"# " + strings.Repeat("a中😀", 40),
		strings.Repeat("\xe4\xb8", 70),
	} {
		src := newSources()
		src.files["s.yaml"] = &fileText{text: "name: x\n" + line + "\n"}
		for col := 1; col <= len(line)+1; col++ {
			text, caret, ok := src.Snippet("s.yaml", 2, col)
			if !ok {
				continue
			}
			if caret < 0 || caret > len(text) || len(text) > 4*SnippetWidth+6 {
				t.Fatalf("col %d: %d bytes, caret %d", col, len(text), caret)
			}
			if utf8.ValidString(line) && !utf8.ValidString(text) {
				t.Fatalf("col %d: a rune cut in two: %q", col, text)
			}
		}
	}
}

// TestSnippetEscapesControlCharacters: a raw escape in the source (YAML
// allows them in comments and plain scalars) is shown escaped, and the
// caret moves with the escaped text.
func TestSnippetEscapesControlCharacters(t *testing.T) {
	cfg, _ := LoadBytes("e.yaml", []byte("clusters:\n- name: a # \x1b]0;x\x07 here\n  type: STATIC\n"), "")
	text, caret, ok := cfg.Sources.Snippet("e.yaml", 2, 20)
	if !ok || strings.ContainsAny(text, "\x1b\x07") {
		t.Fatalf("snippet %q", text)
	}
	if !strings.HasPrefix(text[caret:], "here") {
		t.Errorf("caret at %d of %q", caret, text)
	}
}

// TestSecretsAreOnlyCredentials: SDS references and a secret's public parts
// (CA, SANs, names) are no secrets; masking them would redact cluster
// names and hosts all over the output (the corpus has such dumps).
func TestSecretsAreOnlyCredentials(t *testing.T) {
	cfg, _ := LoadBytes("p.yaml", []byte(`static_resources:
  secrets:
  - name: validation-context-name
    validation_context:
      trusted_ca: {inline_string: "-----BEGIN CERTIFICATE-----PUBLICCA"}
      match_typed_subject_alt_names: [{san_type: DNS, matcher: {exact: envoy-gateway-san}}]
  clusters:
  - name: web
    type: STATIC
    transport_socket:
      name: envoy.transport_sockets.tls
      typed_config:
        "@type": type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext
        common_tls_context:
          tls_certificate_sds_secret_configs: [{name: default-cert-name, sds_config: {ads: {}}}]
          tls_certificates: [{private_key: {inline_string: "the-private-key"}}]
`), "")
	if got := cfg.Sources.Secrets(); len(got) != 1 || got[0] != "the-private-key" {
		t.Errorf("Secrets() = %q, want only the private key", got)
	}
}

func TestProblemsSanitized(t *testing.T) {
	ps := Problems{{Pos: Pos{File: "f\x1b.yaml", Line: 1, Col: 1}, Msg: "bad \x1b[2J" + strings.Repeat("v", 2000)}}
	ps.sanitize()
	if m := ps[0].Msg; strings.Contains(m, "\x1b") || len(m) > maxMsg+30 {
		t.Errorf("message %d bytes: %.60q", len(m), m)
	}
	if e := ps[0].Error(); strings.Contains(e, "\x1b") || !strings.HasPrefix(e, `f\x1b.yaml:1:1: bad \x1b[2J`) {
		t.Errorf("Error() = %.60q", e)
	}
}

// TestSafeMsgIdempotent: a problem message is capped at maxMsg bytes, note
// included, and the stages that cap it again leave it as it is (the count
// of bytes left out stays right).
func TestSafeMsgIdempotent(t *testing.T) {
	for _, n := range []int{maxMsg, maxMsg + 1, 2000, 123456} {
		s := strings.Repeat("a", n)
		once := safeMsg(s)
		if len(once) > maxMsg || safeMsg(once) != once {
			t.Errorf("%d bytes: once %d bytes, twice differs: %q", n, len(once), safeMsg(once)[max(0, len(once)-30):])
		}
		if cut := strings.Count(once, "a"); n > maxMsg && !strings.HasSuffix(once, "…("+strconv.Itoa(n-cut)+" more bytes)") {
			t.Errorf("%d bytes: wrong count: %q", n, once[len(once)-30:])
		}
	}
}
