package term

import (
	"bytes"
	"io"
	"testing"
)

// benchGuard writes chunk through a Guard as a renderer's buffered
// writer would, many times.
func benchGuard(b *testing.B, chunk []byte) {
	g := &Guard{w: io.Discard}
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		if _, err := g.Write(chunk); err != nil {
			b.Fatal(err)
		}
	}
}

// ASCII explain output, the common case.
func BenchmarkGuardWriteASCII(b *testing.B) {
	benchGuard(b, bytes.Repeat([]byte("  10.0.0.1:80        P0  healthy   w=1    share 12.5%\n"), 80))
}

// Text with lbctl's own box and arrow characters.
func BenchmarkGuardWriteUTF8(b *testing.B) {
	benchGuard(b, bytes.Repeat([]byte("  ├─ 10.0.0.1:80 → P0  healthy   share 12.5% — ok\n"), 80))
}
