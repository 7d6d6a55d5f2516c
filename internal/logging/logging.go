// Package logging owns the server's logs: structured lines to stderr (never
// stdout, which is the protocol on stdio) and to a file under
// .agentos/.cache/logs/, rotated once it grows past a size.
package logging

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// MaxFileBytes is the size at which the log file is rotated at start.
const MaxFileBytes = 10 << 20

// ParseLevel maps DEBUG, INFO, WARN and ERROR (any case) to a slog level.
func ParseLevel(s string) (slog.Level, error) {
	var l slog.Level
	switch strings.ToUpper(s) {
	case "DEBUG":
		l = slog.LevelDebug
	case "INFO", "":
		l = slog.LevelInfo
	case "WARN", "WARNING":
		l = slog.LevelWarn
	case "ERROR":
		l = slog.LevelError
	default:
		return 0, fmt.Errorf("unknown log level %q: use DEBUG, INFO, WARN or ERROR", s)
	}
	return l, nil
}

// New returns a logger writing to stderr and, when file is not empty, to
// that file too (created with its folder, rotated to file.1 when large). The
// returned close function flushes and closes the file.
func New(level slog.Level, stderr io.Writer, file string) (*slog.Logger, func() error, error) {
	w := stderr
	closeFn := func() error { return nil }
	if file != "" {
		f, err := open(file)
		if err != nil {
			return nil, nil, err
		}
		// The file first, and stderr's errors ignored: a client that has
		// closed its end of stderr must not cost the file its lines.
		w = io.MultiWriter(f, ignoreErrors{stderr})
		closeFn = f.Close
	}
	h := slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})
	return slog.New(h), closeFn, nil
}

// ignoreErrors is a writer whose failures do not count.
type ignoreErrors struct{ w io.Writer }

func (i ignoreErrors) Write(p []byte) (int, error) {
	i.w.Write(p)
	return len(p), nil
}

func open(file string) (*os.File, error) {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return nil, fmt.Errorf("create log folder: %w", err)
	}
	if fi, err := os.Stat(file); err == nil && fi.Size() > MaxFileBytes {
		os.Rename(file, file+".1")
	}
	f, err := os.OpenFile(file, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open log file: %w", err)
	}
	return f, nil
}
