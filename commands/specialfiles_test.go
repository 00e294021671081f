//go:build unix

package commands

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// specials makes, in dir, each kind of path lbctl must refuse to read as a
// file (a FIFO, a socket, a directory, a device) and a symlink to each.
func specials(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	out["fifo"] = fifo
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip("no unix sockets here:", err)
	}
	t.Cleanup(func() { l.Close() })
	out["socket"] = sock
	sub := filepath.Join(dir, "dir")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	out["directory"] = sub
	out["device"] = "/dev/zero"
	for _, k := range []string{"fifo", "socket", "directory", "device"} {
		link := filepath.Join(dir, "link-to-"+k)
		if err := os.Symlink(out[k], link); err != nil {
			t.Fatal(err)
		}
		out["symlink to "+k] = link
	}
	return out
}

// runBounded runs lbctl with args and fails the test rather than hang.
func runBounded(t *testing.T, args ...string) (int, string) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errs := termRun(t, nil, args...)
		done <- result{code, out, errs}
	}()
	limit := 10 * time.Second
	if d, ok := t.Deadline(); ok && time.Until(d) < 2*limit {
		limit = time.Until(d) / 2
	}
	select {
	case r := <-done:
		return r.code, r.out + r.err
	case <-time.After(limit):
		t.Fatalf("lbctl %v did not answer within %v", args, limit)
		return 0, ""
	}
}

func TestSpecialFilesRefused(t *testing.T) {
	good, err := filepath.Abs("../fixtures/lint/LB1203-good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for kind, path := range specials(t, t.TempDir()) {
		if strings.HasSuffix(kind, "directory") { // an input may be a directory: it is read as one
			continue
		}
		if code, out := runBounded(t, "lint", path); code != ExitInput || !strings.Contains(out, "not a regular file") {
			t.Errorf("input %s: exit %d, %q", kind, code, out)
		}
		if code, out := runBounded(t, "explain", path); code != ExitInput || !strings.Contains(out, "not a regular file") {
			t.Errorf("explain input %s: exit %d, %q", kind, code, out)
		}
	}
	for kind, path := range specials(t, t.TempDir()) {
		if code, out := runBounded(t, "lint", "--baseline", path, good); code != ExitInput || !strings.Contains(out, "--baseline "+path+": not a regular file") {
			t.Errorf("--baseline %s: exit %d, %q", kind, code, out)
		}
	}
}

// TestSpecialConfigFileRefused puts each special kind in place of a
// .lbctl.yaml two directories up from where lint runs.
func TestSpecialConfigFileRefused(t *testing.T) {
	good, err := filepath.Abs("../fixtures/lint/LB1203-good.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for kind, target := range specials(t, t.TempDir()) {
		root := t.TempDir()
		if err := os.Symlink(target, filepath.Join(root, ".lbctl.yaml")); err != nil {
			t.Fatal(err)
		}
		if kind == "fifo" { // also the FIFO itself, not through a link
			os.Remove(filepath.Join(root, ".lbctl.yaml"))
			if err := syscall.Mkfifo(filepath.Join(root, ".lbctl.yaml"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		sub := filepath.Join(root, "a", "b")
		if err := os.MkdirAll(sub, 0o700); err != nil {
			t.Fatal(err)
		}
		t.Chdir(sub)
		code, out := runBounded(t, "lint", good)
		if code != ExitUsage || !strings.Contains(out, ".lbctl.yaml: not a regular file") {
			t.Errorf(".lbctl.yaml as %s: exit %d, %q", kind, code, out)
		}
	}
}
