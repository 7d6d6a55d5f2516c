package upgrade

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/agentos-dev/agentos/internal/project"
)

// FaultEnv names the environment variable that makes an upgrade fail at a
// named point, to test that every failure rolls back: "<point>" returns an
// error there, "kill:<point>" ends the process at once, as a power cut or
// SIGKILL would. The points are the step names (after each step) and
// "update-mid" (half-way through writing the files),
// "backup-before-rename" and "restore-mid" (half-way through a rollback).
const FaultEnv = "AGENTOS_UPGRADE_FAULT"

// faultHooks, set by tests in this package, map a project's root to a
// function called at every point instead of reading FaultEnv: keyed by
// project, so that tests running at the same time fault only their own.
var faultHooks sync.Map // string → func(point string) error

// fault injects the failure configured for point in p, if any.
func fault(p project.Paths, point string) error {
	if hook, ok := faultHooks.Load(p.Root); ok {
		return hook.(func(string) error)(point)
	}
	want := os.Getenv(FaultEnv)
	if want == "" {
		return nil
	}
	if kill, ok := strings.CutPrefix(want, "kill:"); ok {
		if kill == point {
			p, _ := os.FindProcess(os.Getpid())
			p.Kill()
			select {} // Kill does not return on success
		}
		return nil
	}
	if want == point {
		return fmt.Errorf("fault injected at %s (%s)", point, FaultEnv)
	}
	return nil
}

type hasher struct{ hash.Hash }

func newHasher() hasher      { return hasher{sha256.New()} }
func (h hasher) sum() string { return hex.EncodeToString(h.Sum(nil)) }

// writeReplacing writes data to path atomically. On Windows a running
// executable cannot be replaced but can be renamed, so the old file is
// moved aside first and deleted when it can be.
func writeReplacing(path string, data []byte, perm os.FileMode) error {
	if runtime.GOOS == "windows" {
		if _, err := os.Stat(path); err == nil {
			old := path + ".old"
			os.Remove(old)
			if err := os.Rename(path, old); err != nil {
				return fmt.Errorf("move %s aside: %w", path, err)
			}
			defer os.Remove(old) // fails while it runs; the next upgrade retries
		}
	}
	return writeAtomic(path, data, perm)
}
