package parse

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// NotRegularError is the refusal of a path that is not a regular file (a
// FIFO, a device, a socket, a directory, or a symlink to one of them).
type NotRegularError struct{ Kind string }

func (e *NotRegularError) Error() string {
	return "not a regular file (" + e.Kind + "); lbctl reads only regular files"
}

// Open opens path for reading only if it is a regular file, symlinks
// followed. The mode is checked before opening (opening a FIFO blocks) and
// again on the open file, which is opened non-blocking in case path was
// swapped in between; every file lbctl reads goes through here.
func Open(path string) (*os.File, fs.FileInfo, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Kind: FileKind(st.Mode())}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err = f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = &NotRegularError{Kind: FileKind(st.Mode())}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, st, nil
}

// ReadFile reads the regular file path whole, refusing it when it holds
// more than max bytes (it reads at most max+1 to tell).
func ReadFile(path string, max int64) ([]byte, error) {
	f, _, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("larger than %d bytes", max)
	}
	return data, nil
}

// FileKind names a mode that is not a regular file.
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "mode " + m.String()
}
