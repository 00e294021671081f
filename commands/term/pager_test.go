package term

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"testing"
)

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// fakePager makes t's pager a recorder: the argv it was started with and
// the text it was given.
func fakePager(t *IO) (argv *[]string, text *bytes.Buffer) {
	var a []string
	var b bytes.Buffer
	t.spawn = func(args []string, _ io.Writer) (io.WriteCloser, func() error, error) {
		a = args
		return nopCloser{&b}, func() error { return nil }, nil
	}
	return &a, &b
}

func TestPagerOnlyOnTerminal(t *testing.T) {
	env := func(k string) string { return map[string]string{"PAGER": "more -s"}[k] }
	for _, c := range []struct {
		tty, off bool
		paged    bool
	}{{true, false, true}, {false, false, false}, {true, true, false}} {
		io, out := Test()
		io.Out = NewGuard(io.Out)
		if c.tty {
			io.SetTerminal(80)
		}
		argv, paged := fakePager(io)
		io.StartPager(env, c.off)
		fmt.Fprintln(io.Out, "row\x1b]8;;x")
		io.StopPager()
		fmt.Fprintln(io.Out, "after")
		if c.paged {
			if !reflect.DeepEqual(*argv, []string{"more", "-s"}) || paged.String() != "row\\x1b]8;;x\n" || out.String() != "after\n" {
				t.Errorf("tty: argv %q, paged %q, direct %q", *argv, paged, out)
			}
		} else if *argv != nil || out.String() != "row\\x1b]8;;x\nafter\n" {
			t.Errorf("tty %v off %v: pager %q started, direct %q", c.tty, c.off, *argv, out)
		}
	}
}

func TestPagerCommand(t *testing.T) {
	none := func(string) (string, error) { return "", errors.New("not found") }
	found := func(string) (string, error) { return "/usr/bin/less", nil }
	for _, c := range []struct {
		env  map[string]string
		look func(string) (string, error)
		want string
	}{
		{map[string]string{"LBCTL_PAGER": "most", "PAGER": "more"}, none, "most"},
		{map[string]string{"PAGER": "more"}, found, "more"},
		{map[string]string{"PAGER": "cat"}, found, ""},
		{nil, found, "less -FRX"},
		{nil, none, ""},
	} {
		if got := PagerCommand(func(k string) string { return c.env[k] }, c.look); got != c.want {
			t.Errorf("%v: %q, want %q", c.env, got, c.want)
		}
	}
	for cmd, want := range map[string][]string{
		"less -FRX":          {"less", "-FRX"},
		"less -R | tee x":    {"sh", "-c", "less -R | tee x"},
		"LESS=R less":        {"sh", "-c", "LESS=R less"},
		"  most  ":           {"most"},
		"$HOME/bin/pager -x": {"sh", "-c", "$HOME/bin/pager -x"},
	} {
		if got := PagerArgv(cmd); !reflect.DeepEqual(got, want) {
			t.Errorf("PagerArgv(%q) = %q, want %q", cmd, got, want)
		}
	}
}
