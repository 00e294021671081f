package term

import (
	"encoding/json"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/lbctl/lbctl/analyze/config"
	"github.com/lbctl/lbctl/commands/term/size"
)

// Guard is the last gate before bytes leave lbctl, on stdout and stderr
// alike (gh's iostreams/untrusted.go has the same job): it spells every
// option reference (analyze/option) as its flag, redacts every secret
// value the loaded configuration holds and escapes control characters,
// whatever code path printed them. Renderers escape and mask at the
// source too; the guard is what makes "never" hold.
type Guard struct {
	w io.Writer
	// ansi lets lbctl's own colour (SGR) and line-erase sequences and \r
	// through: set when colour is on or the writer is a terminal.
	ansi bool
	// mu guards the fields and orders writes (held carries over).
	mu sync.Mutex
	// secrets are replaced longest first, with their JSON spellings, by
	// rep (nil when there are none).
	secrets []string
	rep     *strings.Replacer
	// held is the start of a reference a Write ended inside of (a
	// streamed writer's flush can split one): written with the next
	// Write, or by Flush.
	held []byte
}

// NewGuard wraps w; a terminal's own escape sequences are let through.
func NewGuard(w io.Writer) *Guard {
	return &Guard{w: w, ansi: IsTerminal(w)}
}

// AllowANSI lets lbctl's own colour through (Write reads ansi under mu).
func (g *Guard) AllowANSI() {
	g.mu.Lock()
	g.ansi = true
	g.mu.Unlock()
}

// Redacted stands in for a secret value.
const Redacted = "[redacted]"

func (g *Guard) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	data := p
	if len(g.held) > 0 {
		data = append(g.held, p...)
		g.held = nil
	}
	plain, opener := scan(data)
	if opener {
		if cut := heldFrom(data); cut < len(data) {
			g.held = append([]byte(nil), data[cut:]...)
			data = data[:cut]
			if !plain {
				plain = Plain(data)
			}
		}
	}
	if err := g.emit(data, plain); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what a Write held back (an unfinished reference, escaped
// as it is). Run flushes its guards at exit; StopPager before it
// retargets.
func (g *Guard) Flush() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.flush()
}

func (g *Guard) flush() error {
	data := g.held
	g.held = nil
	return g.emit(data, Plain(data))
}

// emit spells, redacts and escapes data to g.w (under mu); plain is
// Plain(data).
func (g *Guard) emit(data []byte, plain bool) error {
	if len(data) == 0 {
		return nil
	}
	if g.rep == nil && plain {
		// Nothing to spell, redact or escape (most output): no copy, no
		// rescan.
		_, err := g.w.Write(data)
		return err
	}
	s := Spell(string(data))
	if g.rep != nil {
		s = g.rep.Replace(s)
	}
	_, err := io.WriteString(g.w, Escape(s, g.ansi))
	return err
}

// retarget makes the guard write to w (the pager's input) and returns
// the writer it wrote to before, after writing there what it held.
func (g *Guard) retarget(w io.Writer) io.Writer {
	g.mu.Lock()
	defer g.mu.Unlock()
	_ = g.flush() // the old writer's error is not the new one's
	prev := g.w
	g.w = w
	return prev
}

// AddSecrets registers values never to print.
func (g *Guard) AddSecrets(vals []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	seen := map[string]bool{}
	for _, s := range g.secrets {
		seen[s] = true
	}
	for _, v := range vals {
		j, _ := json.Marshal(v)
		for _, s := range []string{v, string(j[1 : len(j)-1])} {
			if !seen[s] {
				seen[s] = true
				g.secrets = append(g.secrets, s)
			}
		}
	}
	// Longest first, so a value that contains another goes whole.
	slices.SortStableFunc(g.secrets, func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(g.secrets))
	for _, s := range g.secrets {
		pairs = append(pairs, s, Redacted)
	}
	g.rep = strings.NewReplacer(pairs...)
}

// plainByte marks the bytes Escape passes through whatever follows
// them: printable ASCII, newline, tab, and lead bytes below 0xc2 (which
// no C1 or bidi control starts with).
var plainByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 0x20 && c != 0x7f && c < 0xc2 || c == '\n' || c == '\t'
	}
	return t
}()

// Plain reports whether Escape would return p unchanged (a
// conservative test: \r and ESC take the full path). A multi-byte
// character is judged as Escape judges it.
func Plain(p []byte) bool {
	plain, _ := scan(p)
	return plain
}

// scan is Plain's one pass over p, which also tells whether p may hold
// a reference, whole or cut off at its end (heldFrom): only if it holds
// Open's lead byte, or is not plain (scan stops at the first byte
// Escape changes). An Open is never plain (Escape spells it).
func scan(p []byte) (plain, opener bool) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if plainByte[c] {
			continue
		}
		if c < 0xc2 {
			return false, true
		}
		opener = opener || c == openBytes[0]
		j := i + 1
		for j < len(p) && p[j]&0xc0 == 0x80 {
			j++
		}
		if ch := string(p[i:j]); escapesChar(ch) {
			return false, true
		}
		i = j - 1
	}
	return true, opener
}

// Escape escapes control characters except newline and tab (DEL as
// \u007f, the spelling valid in JSON too); with ansi, also \r and
// well-formed CSI sequences ending in m (colour) or K (erase line), which
// are what lbctl itself writes.
func Escape(s string, ansi bool) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != 0x7f && c < 0xc2 || c == '\n' || c == '\t' || ansi && c == '\r' {
			continue
		}
		if ansi && c == 0x1b {
			if n := csiLen(s[i:]); n > 0 {
				i += n - 1
				continue
			}
		}
		if c >= 0xc2 { // a multi-byte character: only C1 and bidi controls are unsafe
			j := i + 1
			for j < len(s) && s[j]&0xc0 == 0x80 {
				j++
			}
			if escapesChar(s[i:j]) {
				e := config.Escape(s[i:j])
				b.WriteString(s[last:i])
				b.WriteString(e)
				last = j
			}
			i = j - 1
			continue
		}
		b.WriteString(s[last:i])
		if c == 0x7f {
			// DEL is the one control character encoding/json leaves raw,
			// and \x7f inside a JSON string is invalid: spell it as JSON
			// does, which reads as an escape in text too.
			b.WriteString(`\u007f`)
		} else {
			b.WriteString(config.Escape(s[i : i+1]))
		}
		last = i + 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// escapesChar says whether Escape escapes the multi-byte character
// ch: only C1 and bidi controls, which config.Escape spells \uXXXX.
func escapesChar(ch string) bool {
	e := config.Escape(ch)
	return e != ch && strings.HasPrefix(e, `\u`)
}

// csiLen is the length of an SGR or erase-line sequence at the start of s,
// or 0.
func csiLen(s string) int {
	if len(s) < 3 || s[1] != '[' {
		return 0
	}
	for i := 2; i < len(s) && i < 64; i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9' || c == ';':
		case c == 'm' || c == 'K':
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// Secrets registers values never to print with every Guard among ws.
func Secrets(secrets []string, ws ...io.Writer) {
	if len(secrets) == 0 {
		return
	}
	for _, w := range ws {
		if g, ok := w.(*Guard); ok {
			g.AddSecrets(secrets)
		}
	}
}

// Unguard returns the writer a Guard wraps, for terminal detection.
func Unguard(w io.Writer) io.Writer {
	if g, ok := w.(*Guard); ok {
		return g.w
	}
	return w
}

// IsTerminal reports whether w (or the writer its Guard wraps) is a
// terminal: the one TTY test of lbctl.
func IsTerminal(w io.Writer) bool {
	f, _ := Unguard(w).(*os.File)
	tty, _ := size.Terminal(f)
	return tty
}
