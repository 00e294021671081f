package term

import "bytes"

// Test is an IO for tests: not a terminal, no colour, unlimited width,
// writing to the returned buffer.
func Test() (*IO, *bytes.Buffer) {
	var b bytes.Buffer
	t := &IO{Out: &b}
	t.setRenderer()
	return t, &b
}

// SetTerminal makes a test IO behave as a terminal of width columns.
func (t *IO) SetTerminal(width int) {
	t.TTY, t.Width = true, width
}
