package term

import (
	"io"
	"os"
	"os/exec"
	"strings"
)

// shellMeta are the characters that make git run a pager command through
// `sh -c` (run-command.c, prepare_shell_cmd); blanks only split arguments.
const shellMeta = "|&;<>()$`\\\"'*?[#~=%\n"

// PagerCommand is the pager the environment asks for: LBCTL_PAGER, then
// PAGER, else "less -FRX" when less is on PATH (lookPath); "" or "cat"
// means none.
func PagerCommand(getenv func(string) string, lookPath func(string) (string, error)) string {
	for _, k := range []string{"LBCTL_PAGER", "PAGER"} {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			if v == "cat" {
				return ""
			}
			return v
		}
	}
	if _, err := lookPath("less"); err == nil {
		return "less -FRX"
	}
	return ""
}

// PagerArgv is how the pager command runs: its words when it has no shell
// metacharacter, else `sh -c COMMAND` as git does. Nothing else ever
// reaches its argv (the text goes to its standard input).
func PagerArgv(command string) []string {
	if strings.ContainsAny(command, shellMeta) {
		return []string{"sh", "-c", command}
	}
	return strings.Fields(command)
}

// spawnFunc starts argv writing to out and returns its standard input and
// a wait for it to end.
type spawnFunc func(argv []string, out io.Writer) (io.WriteCloser, func() error, error)

func spawnProcess(argv []string, out io.Writer) (io.WriteCloser, func() error, error) {
	c := exec.Command(argv[0], argv[1:]...)
	c.Stdout, c.Stderr = out, os.Stderr
	in, err := c.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := c.Start(); err != nil {
		return nil, nil, err
	}
	return in, c.Wait, nil
}

// pager is a running pager: its input, and the guard retargeted to it
// (with the writer it had) or the Out it replaced.
type pager struct {
	in    io.WriteCloser
	wait  func() error
	guard *Guard
	prev  io.Writer
}

// StartPager sends what follows on t.Out through the pager the
// environment names (PagerCommand), on a terminal only and unless off
// (--no-pager). Without a pager, or if it cannot start, output goes
// straight to the terminal. StopPager ends it.
func (t *IO) StartPager(getenv func(string) string, off bool) {
	if off || !t.TTY || t.pager != nil {
		return
	}
	command := PagerCommand(getenv, exec.LookPath)
	argv := PagerArgv(command)
	if len(argv) == 0 {
		return
	}
	spawn := t.spawn
	if spawn == nil {
		spawn = spawnProcess
	}
	in, wait, err := spawn(argv, Unguard(t.Out))
	if err != nil {
		return
	}
	p := &pager{in: in, wait: wait}
	if g, ok := t.Out.(*Guard); ok {
		p.guard, p.prev = g, g.retarget(in) // every byte still passes the guard
	} else {
		p.prev, t.Out = t.Out, NewGuard(in)
	}
	t.pager = p
	t.setRenderer()
}

// StopPager closes the pager's input and waits for the reader to quit.
func (t *IO) StopPager() {
	p := t.pager
	if p == nil {
		return
	}
	t.pager = nil
	if p.guard != nil {
		p.guard.retarget(p.prev) // writes what it held to the pager first
	} else {
		_ = t.Out.(*Guard).Flush()
		t.Out = p.prev
	}
	p.in.Close()
	p.wait() // the pager's exit status (q, a closed pipe) is not ours
	t.setRenderer()
}
