//go:build !linux && !darwin && !windows

package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"runtime"
)

// checked says that commands cannot be sandboxed here: agentos confines
// them on Linux, macOS and Windows only (docs/security.md says what that
// leaves open).
var checked = func() error {
	return fmt.Errorf("agentos sandboxes gate commands on Linux, macOS and Windows only, not on %s", runtime.GOOS)
}

// Command always fails on this system; see Check.
func (s *Sandbox) Command(ctx context.Context, workdir, command string) (*exec.Cmd, error) {
	return nil, Check()
}

// privateDirs holds the layer only: nothing runs here.
var privateDirs = []string{"layer"}

type osState struct{}

func (s *Sandbox) prepare() error { return nil }

func (s *Sandbox) release() {}

// find finds nothing: no command ran.
func (s *Sandbox) find(string) (string, bool) { return "", false }

func systemSecrets(string) []string { return nil }

func probeEnviron(int) error { return ErrUnsupported }

func probeSignal(int) error { return ErrUnsupported }

var systemRefusals []string

func probeClone(string, string) error { return errors.ErrUnsupported }

func (s *Sandbox) seen() string { return s.project }

// Remedy says what a person can do where Check fails here.
const Remedy = "run the gates on Linux, macOS or Windows"
