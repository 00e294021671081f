package config

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lbctl/lbctl/analyze/option"
)

// Output safety: values read from a file are printed by every command, and
// the file may come from a stranger (a pull request) or carry credentials
// (an admin dump). This file is the one sanitiser; it lives in the loader,
// which every other package already imports (architecture_test.go).

// MaxValue is how many bytes of one input value a message quotes.
const MaxValue = 120

// Escape makes s safe to print on one line of a terminal: control
// characters (C0, DEL, C1), bidirectional overrides and invalid UTF-8 are
// written as Go escapes (\n, \x1b, \u202e), so a value can neither move the
// cursor, rewrite the terminal nor start a new finding line. An option
// reference's delimiters (option.Open, option.Close) are escaped too,
// except around a known option: renderers escape lbctl's own messages,
// whose references must stay whole, and such a reference prints as the
// flag, the same ASCII the value could hold anyway.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		ref := 0
		if r == openRune {
			ref = knownRef(s[i:])
		}
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case ref > 0: // a known reference: kept whole
			n = ref
			b.WriteString(s[i : i+n])
		case r == openRune || r == closeRune:
			b.WriteString(`\u` + strconv.FormatInt(int64(r), 16))
		case unsafeRune(r):
			q := strconv.QuoteRuneToASCII(r) // 'x1b' style escapes, quotes stripped
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			if c >= 0x80 {
				return !utf8.ValidString(s) || strings.IndexFunc(s, unsafeRune) >= 0 || strayDelimiter(s)
			}
			return true
		}
	}
	return false
}

const openRune, closeRune = '\ue000', '\ue001'

// refs are the references to known options (option.All).
var refs = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range option.All {
		m[n.String()] = true
	}
	return m
}()

// knownRef is the length of the reference to a known option s starts
// with, or 0.
func knownRef(s string) int {
	end := strings.Index(s, option.Close)
	if end < 0 || !refs[s[:end+len(option.Close)]] {
		return 0
	}
	return end + len(option.Close)
}

// strayDelimiter reports whether s has an option delimiter outside a
// reference to a known option.
func strayDelimiter(s string) bool {
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], option.Open+option.Close)
		if j < 0 {
			return false
		}
		i += j
		n := knownRef(s[i:])
		if n == 0 {
			return true
		}
		i += n
	}
	return false
}

// unsafeRune: control characters, the bidi controls that reorder text
// on screen (CVE-2021-42574, "Trojan Source"), the line and paragraph
// separators (a new line to many viewers) and the zero-width characters
// that make two different names look the same.
func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f ||
		r == 0x2028 || r == 0x2029 || (r >= 0x200b && r <= 0x200d) || r == 0x2060 || r == 0xfeff
}

// Safe is Escape plus a cap: a value longer than MaxValue bytes is cut at a
// character boundary and says how much was left out. It is for input
// values, so every option delimiter is escaped: a value quoted in a
// message cannot pass for a reference.
func Safe(s string) string {
	return Truncate(escapeInput(s), MaxValue)
}

// escapeInput is Escape for input text, uncapped: every option delimiter
// is escaped too, known reference or not.
func escapeInput(s string) string {
	return escapeDelimiters(Escape(s))
}

// delimiters escapes every option delimiter, known reference or not.
var delimiters = strings.NewReplacer(option.Open, `\ue000`, option.Close, `\ue001`)

// escapeDelimiters is s with every option delimiter escaped: input text
// must not pass for an option reference.
func escapeDelimiters(s string) string {
	if strings.Contains(s, option.Open) || strings.Contains(s, option.Close) {
		return delimiters.Replace(s)
	}
	return s
}

// Truncate cuts s to at most max bytes (at a rune boundary) and appends
// "…(N more bytes)" when it cut.
func Truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…(" + strconv.Itoa(len(s)-cut) + " more bytes)"
}

// List joins names for a message, each through Safe, at most max of them
// and then "… and N more", so a message stays one line of bounded size.
func List(names []string, max int) string {
	n := min(len(names), max)
	out := make([]string, 0, n+1)
	for _, s := range names[:n] {
		out = append(out, Safe(s))
	}
	if len(names) > n {
		out = append(out, "… and "+strconv.Itoa(len(names)-n)+" more")
	}
	return strings.Join(out, ", ")
}

// Quote is Safe in double quotes, for messages that cite a value.
func Quote(s string) string { return `"` + Safe(s) + `"` }

// secretFields are field names whose value is a credential wherever they
// appear: TLS private keys and their passwords, session ticket keys,
// generic, OAuth and HMAC secrets, Redis and other passwords, API keys.
// SDS references (tls_certificate_sds_secret_configs, sds_config) only
// name a secret, and a dump's "secret" holds a whole Secret (certificates,
// SANs): not among them; their private keys and passwords are.
var secretFields = map[string]bool{
	"private_key": true, "password": true, "passwd": true, "auth_password": true,
	"session_ticket_keys": true, "generic_secret": true,
	"token_secret": true, "hmac_secret": true, "client_secret": true, "api_key": true,
	"bearer_token": true, "access_token": true, "id_token": true, "refresh_token": true,
	"htpasswd": true,
}

// secretMessages are messages whose every value is a credential.
var secretMessages = map[string]bool{
	"envoy.extensions.transport_sockets.tls.v3.TlsSessionTicketKeys": true,
	"envoy.extensions.transport_sockets.tls.v3.GenericSecret":        true,
	"envoy.extensions.filters.http.basic_auth.v3.BasicAuth":          true,
}

// IsSecretField reports whether a field of this name (proto or JSON
// spelling) holds a secret: its value is never printed.
func IsSecretField(name string) bool {
	n := strings.ToLower(name)
	if secretFields[n] || strings.Contains(n, "sds") {
		return secretFields[n]
	}
	for _, w := range []string{"password", "passwd", "private_key", "privatekey"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// IsSecretHeader reports whether a header of this name carries a
// credential (Authorization, Cookie, API keys, tokens), so the value a
// matcher compares it with, or a route adds, is never printed.
func IsSecretHeader(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, w := range []string{"authorization", "cookie", "token", "secret", "password", "api-key", "apikey", "api_key", "x-auth", "credential", "session"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}
