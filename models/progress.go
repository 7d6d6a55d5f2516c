package models

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// ProgressPrinter returns a Progress callback for a command's output: on a
// terminal (tty) a bar redrawn in place at most ten times a second, otherwise
// one plain line per finished file.
func ProgressPrinter(w io.Writer, tty bool) func(Progress) {
	var last time.Time
	return func(p Progress) {
		if !tty {
			if p.Finished {
				fmt.Fprintf(w, "%-18s %9s  %s\n", p.File, Size(p.Done), verified(p))
			}
			return
		}
		if !p.Finished && p.Done > 0 && time.Since(last) < 100*time.Millisecond {
			return
		}
		last = time.Now()
		line := fmt.Sprintf("%-18s %9s", p.File, Size(p.Done))
		if p.Total > 0 {
			frac := float64(p.Done) / float64(p.Total)
			filled := int(frac * 24)
			line = fmt.Sprintf("%-18s [%s%s] %9s / %-9s %3d%%", p.File, strings.Repeat("#", filled),
				strings.Repeat(".", 24-filled), Size(p.Done), Size(p.Total), int(frac*100))
		}
		if p.Finished {
			fmt.Fprintf(w, "\r%s  %s\x1b[K\n", line, verified(p))
			return
		}
		fmt.Fprintf(w, "\r%s\x1b[K", line)
	}
}

func verified(p Progress) string {
	if p.Verified {
		return "sha256 verified"
	}
	return "no checksum to verify"
}

// Size formats a byte count for people (decimal units, as the hub shows them).
func Size(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}
