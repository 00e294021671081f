package term

import "testing"

func TestDecideTerm(t *testing.T) {
	for _, tc := range []struct {
		name      string
		d         Decision
		env       map[string]string
		color     bool
		dumb      bool
		width     int
		wantTTY   bool
		skipWidth bool
	}{
		{name: "tty auto", d: Decision{TTY: true, TTYWidth: 120, Color: "auto"}, color: true, width: 120, wantTTY: true},
		{name: "pipe auto", d: Decision{Color: "auto"}, color: false, width: 0},
		{name: "pipe ignores a stale tty width", d: Decision{TTYWidth: 120, Color: "auto"}, width: 0},
		{name: "tty NO_COLOR", d: Decision{TTY: true, TTYWidth: 80, Color: "auto"}, env: map[string]string{"NO_COLOR": "1"}, width: 80, wantTTY: true},
		{name: "NO_COLOR empty means unset", d: Decision{TTY: true, Color: "auto"}, env: map[string]string{"NO_COLOR": ""}, color: true, wantTTY: true},
		{name: "NO_COLOR beats CLICOLOR_FORCE", d: Decision{TTY: true, Color: "auto"}, env: map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, wantTTY: true},
		{name: "pipe CLICOLOR_FORCE", d: Decision{Color: "auto"}, env: map[string]string{"CLICOLOR_FORCE": "1"}, color: true},
		{name: "CLICOLOR_FORCE=0 is not forcing", d: Decision{Color: "auto"}, env: map[string]string{"CLICOLOR_FORCE": "0"}},
		{name: "tty TERM=dumb", d: Decision{TTY: true, TTYWidth: 80, Color: "auto"}, env: map[string]string{"TERM": "dumb"}, dumb: true, width: 80, wantTTY: true},
		{name: "TERM=dumb with CLICOLOR_FORCE", d: Decision{TTY: true, Color: "auto"}, env: map[string]string{"TERM": "dumb", "CLICOLOR_FORCE": "1"}, color: true, dumb: true, wantTTY: true},
		{name: "--color always beats NO_COLOR", d: Decision{Color: "always"}, env: map[string]string{"NO_COLOR": "1"}, color: true},
		{name: "--color always on dumb terminal", d: Decision{TTY: true, Color: "always"}, env: map[string]string{"TERM": "dumb"}, color: true, dumb: true, wantTTY: true},
		{name: "--color never beats CLICOLOR_FORCE", d: Decision{TTY: true, Color: "never"}, env: map[string]string{"CLICOLOR_FORCE": "1"}, wantTTY: true},
		{name: "COLUMNS overrides tty width", d: Decision{TTY: true, TTYWidth: 200, Color: "never"}, env: map[string]string{"COLUMNS": "80"}, width: 80, wantTTY: true},
		{name: "COLUMNS applies in a pipe", d: Decision{Color: "auto"}, env: map[string]string{"COLUMNS": "100"}, width: 100},
		{name: "COLUMNS garbage ignored", d: Decision{TTY: true, TTYWidth: 90, Color: "auto"}, env: map[string]string{"COLUMNS": "wide"}, color: true, width: 90, wantTTY: true},
		{name: "COLUMNS zero ignored", d: Decision{TTY: true, TTYWidth: 90, Color: "auto"}, env: map[string]string{"COLUMNS": "0"}, color: true, width: 90, wantTTY: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tty, color, dumb, width := Decide(tc.d, func(k string) string { return tc.env[k] })
			if tty != tc.wantTTY || color != tc.color || dumb != tc.dumb || width != tc.width {
				t.Errorf("Decide = tty %v color %v dumb %v width %d; want tty %v color %v dumb %v width %d",
					tty, color, dumb, width, tc.wantTTY, tc.color, tc.dumb, tc.width)
			}
		})
	}
}

// A share bar is the same in every table: eighth blocks on a terminal,
// '#' and '.' in a pipe.
func TestBar(t *testing.T) {
	pipe, _ := Test()
	if got := pipe.Bar(0.7, 10); got != "#######..." {
		t.Errorf("pipe Bar(0.7) = %q", got)
	}
	if got := pipe.Bar(-1, 4); got != "...." {
		t.Errorf("pipe bar(-1) = %q", got)
	}
	tty, _ := Test()
	tty.SetTerminal(0)
	if got := tty.Bar(0.34, 10); got != "███▍      " {
		t.Errorf("tty bar(0.34) = %q", got)
	}
	if got := tty.Bar(2, 3); got != "███" {
		t.Errorf("tty bar(2) = %q", got)
	}
	if got := tty.Bar(0.5, 0); got != "" {
		t.Errorf("bar width 0 = %q", got)
	}
}
