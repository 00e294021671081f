package term

import (
	"bytes"
	"testing"
)

// Off a terminal progress writes nothing; on one it rewrites one line
// and clears it when done.
func TestProgress(t *testing.T) {
	var b bytes.Buffer
	p := &Progress{w: &b, on: IsTerminal(&b), label: "reading"}
	p.Update(1, 10)
	p.Done()
	if b.Len() != 0 {
		t.Errorf("in a pipe: %q", b.String())
	}
	p = &Progress{w: &b, on: true, label: "reading"}
	p.Update(3, 10)
	p.Update(4, 10) // within 100 ms: not drawn
	p.Done()
	if got := b.String(); got != "\r\x1b[Kreading 3/10\r\x1b[K" {
		t.Errorf("on a terminal: %q", got)
	}
}
