package installer

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/filecmp"
	"github.com/agentos-dev/agentos/internal/project"
)

// binaryMode is the mode of the pinned binary: runnable by everyone, as an
// installed program is.
const binaryMode = 0o755

// PinnedBinary returns the path of the project's pinned agentos binary, the
// command the launch entries run.
func PinnedBinary(p project.Paths) string { return agentconfig.PinnedBinary(p) }

// sourceBinary is the agentos binary the install pins, or with NoPin the one
// the entries run: opts.BinaryPath, else the running executable; absolute.
func sourceBinary(opts Options) (string, error) {
	src := opts.BinaryPath
	if src == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("install: find the running agentos binary: %w", err)
		}
		src = exe
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return "", fmt.Errorf("install: binary %s: %w", src, err)
	}
	return abs, nil
}

// launchBinary is what the agents' entries run: the pinned copy, or with
// NoPin the binary that runs the install, where it is.
func launchBinary(p project.Paths, opts Options) (string, error) {
	if !opts.NoPin {
		return PinnedBinary(p), nil
	}
	return sourceBinary(opts)
}

// planBinary plans copying the agentos binary (sourceBinary) to the
// project. Pinning a copy keeps the project's server on the version it was
// installed with, whatever happens to the binary on PATH. With NoPin there
// is nothing to do: an existing pinned copy is left where it is.
func planBinary(p project.Paths, opts Options) (change, error) {
	target := PinnedBinary(p)
	step := Step{Kind: StepBinary, Path: p.Rel(target), Action: Unchanged}
	src, err := sourceBinary(opts)
	if err != nil {
		return change{}, err
	}
	if opts.NoPin {
		if agentconfig.TransientBinary(src) {
			return change{}, fmt.Errorf("install: --no-pin would point the agents at %s, a temporary build of `go run` that Go deletes or replaces; install without --no-pin (a copy is pinned in .agentos/bin/), or run an installed agentos (`go install ./cmd/agentos`)", src)
		}
		if fi, err := os.Stat(src); err != nil || !fi.Mode().IsRegular() {
			return change{}, fmt.Errorf("install: the agentos binary %s, which the agents would run, is not a regular file", src)
		}
		step.Action = Skipped
		step.Detail = "Not pinned (--no-pin): the agents run " + src + "."
		return change{step: step}, nil
	}
	srcInfo, err := os.Stat(src)
	if err != nil {
		return change{}, fmt.Errorf("install: binary to pin: %w", err)
	}
	if !srcInfo.Mode().IsRegular() {
		return change{}, fmt.Errorf("install: binary to pin %s is not a regular file", src)
	}
	targetInfo, targetErr := os.Stat(target)
	if targetErr == nil && os.SameFile(srcInfo, targetInfo) {
		return change{step: step}, nil // running the pinned copy itself
	}
	if targetErr == nil {
		same, err := filecmp.Same(src, target)
		if err != nil {
			return change{}, fmt.Errorf("install: %w", err)
		}
		if same && modeOK(targetInfo.Mode()) {
			return change{step: step}, nil
		}
		step.Action = Updated
	} else {
		step.Action = Created
	}
	step.Detail = "Copied from " + src + "."
	if agentconfig.TransientBinary(src) {
		step.Detail = "Copied from " + src + ", a temporary build of `go run` that Go deletes or replaces: the agents run this copy."
	}
	return change{step: step, apply: func() error {
		// Streamed, not read whole: the kernel copies the file where it can.
		f, err := os.Open(src)
		if err != nil {
			return fmt.Errorf("install: read binary to pin: %w", err)
		}
		defer f.Close()
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return fmt.Errorf("install: %w", err)
		}
		if err := atomicfile.Copy(target, f, binaryMode); err != nil {
			return fmt.Errorf("install: %w", err)
		}
		return nil
	}}, nil
}

// modeOK reports whether the pinned binary can be run as installed. Windows
// has no execute bits to check.
func modeOK(mode os.FileMode) bool {
	return runtime.GOOS == "windows" || mode.Perm() == binaryMode
}
