//go:build windows

package browser

import (
	"os"
	"os/exec"
)

func prepareCmd(*exec.Cmd) {}

// killGroup kills the browser process; its helpers end with it.
func killGroup(p *os.Process) {
	if p != nil {
		p.Kill()
	}
}

func killUsing(string) int { return 0 }

func sweepProfiles(func(string)) {}
