package installer

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/agentos-dev/agentos/internal/project"
)

// binaryMode is the mode of the pinned binary: runnable by everyone, as an
// installed program is.
const binaryMode = 0o755

// PinnedBinary returns the path of the project's pinned agentos binary, the
// command .mcp.json runs.
func PinnedBinary(p project.Paths) string {
	name := "agentos"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return filepath.Join(p.Bin(), name)
}

// planBinary plans copying the binary at src (the running executable when
// empty) to the project. Pinning a copy keeps the project's server on the
// version it was installed with, whatever happens to the binary on PATH.
func planBinary(p project.Paths, src string) (change, error) {
	target := PinnedBinary(p)
	step := Step{Kind: StepBinary, Path: p.Rel(target), Action: Unchanged}
	if src == "" {
		exe, err := os.Executable()
		if err != nil {
			return change{}, fmt.Errorf("install: find the running agentos binary: %w", err)
		}
		src = exe
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
	data, err := os.ReadFile(src)
	if err != nil {
		return change{}, fmt.Errorf("install: read binary to pin: %w", err)
	}
	if targetErr == nil {
		same, err := sameContent(target, data)
		if err != nil {
			return change{}, err
		}
		if same && modeOK(targetInfo.Mode()) {
			return change{step: step}, nil
		}
		step.Action = Updated
	} else {
		step.Action = Created
	}
	step.Detail = "Copied from " + src + "."
	return change{step: step, apply: func() error {
		return writeFile(target, data, binaryMode)
	}}, nil
}

// sameContent reports whether the file at path holds exactly data, by sha256.
func sameContent(path string, data []byte) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, fmt.Errorf("install: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, fmt.Errorf("install: read %s: %w", path, err)
	}
	want := sha256.Sum256(data)
	return bytes.Equal(h.Sum(nil), want[:]), nil
}

// modeOK reports whether the pinned binary can be run as installed. Windows
// has no execute bits to check.
func modeOK(mode os.FileMode) bool {
	return runtime.GOOS == "windows" || mode.Perm() == binaryMode
}
