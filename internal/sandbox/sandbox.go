// Package sandbox owns running code agentos does not trust: the commands a
// workflow gate runs, which execute tests an agent wrote. A Sandbox shows the
// command the project, but every write it makes lands in a throwaway layer
// or copy of the Sandbox's own; it has no network at all, cannot read
// agentos's secrets or the person's credential folders, cannot write anywhere
// else but a private temporary folder and private copies of the build caches,
// and every process it starts ends when the command ends.
//
// On Linux that is unprivileged user, mount, network, PID, IPC and UTS
// namespaces set up by agentos itself (it starts itself again as the
// sandbox's first process, see Init), an overlay file system over the project
// and the caches, and Landlock, which confines writes and forbids undoing the
// mounts; the command sees the project at its real path. No root and no
// helper binary are needed. Where the kernel refuses any of it, Check says
// why and no command runs sandboxed; the caller decides whether a weaker mode
// was chosen by the person.
//
// On macOS and Windows there is no overlay: the command runs in a copy of
// the project in the private folder, made before the first command with the
// layer over it (copy.go, copied.go), under a Seatbelt profile applied by
// /usr/bin/sandbox-exec on macOS (seatbelt.go, run_darwin.go) and in an
// AppContainer and a job object on Windows (run_windows.go). Neither is
// taken on trust: Check runs a probe inside one (probe.go) and reports the
// system unsupported unless it refuses all it must. docs/security.md says
// what each system guarantees and what it does not. Other systems are not
// supported: Check says so.
package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Sandbox is one confined place to run commands in: a project seen through a
// throwaway layer, and the private folders that hold what its commands wrote.
// Close removes it all.
type Sandbox struct {
	project string // the real project, absolute and clean
	dir     string // the private folder: layers, temp, caches
	// hidden are project-relative folders the command sees empty, and
	// outputs the project-relative folder whose content is readable after
	// the run at Path (agentos's cache holds the gates' reports).
	hidden  []string
	outputs string
	absent  []string // project-relative files the command sees removed
	owner   *os.File // holds the lock that marks dir as this process's (sweep)
	plat    osState  // what this system's sandbox keeps
}

// Options says what a Sandbox hides and keeps.
type Options struct {
	// Hidden lists project-relative folders the command sees as empty
	// (agentos's state and backups: approvals, sessions).
	Hidden []string
	// Outputs is a project-relative folder the command sees empty and
	// writable; what it writes there is read back with Path like any other
	// output (agentos's own cache, which holds the auth token, is one).
	Outputs string
}

// New prepares a sandbox for project, an existing folder. Nothing runs yet.
func New(project string, opt Options) (*Sandbox, error) {
	abs, err := filepath.Abs(project)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	abs, err = filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("sandbox: the project: %w", err)
	}
	sweep(os.TempDir())
	dir, err := os.MkdirTemp("", "agentos-gate-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: a private folder: %w", err)
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real // Path compares against resolved paths
	}
	s := &Sandbox{project: abs, dir: dir, hidden: opt.Hidden, outputs: opt.Outputs}
	if s.owner, err = own(dir); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("sandbox: marking the private folder as this process's: %w", err)
	}
	for _, sub := range privateDirs {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o700); err != nil {
			_ = s.Close()
			return nil, fmt.Errorf("sandbox: %w", err)
		}
	}
	if err := s.prepare(); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return s, nil
}

// Project is the real project's path. Command takes folders of the project
// by this path.
func (s *Sandbox) Project() string { return s.project }

// Seen is the path the command sees the project at, where absolute paths in
// what it writes (a coverage report's file names) start: the project's own
// on Linux, its copy's on macOS and Windows.
func (s *Sandbox) Seen() string { return s.seen() }

// Layer is a folder whose files the command sees in place of the project's,
// at the same relative paths (fail-before puts the code as it was there).
// Fill it before the first command runs; it starts empty.
func (s *Sandbox) Layer() string { return filepath.Join(s.dir, "layer") }

// Remove makes the command see no file at rel (project-relative, with
// slashes), whatever the project and the layer hold there: the run of the
// tests as they were at a session's start hides the files it added. Call it
// before the first command runs.
func (s *Sandbox) Remove(rel string) { s.absent = append(s.absent, rel) }

// Path returns where a file the command wrote at rel (relative to the project)
// can be read after the run, and whether the command wrote it: only what the
// run itself created or changed is there, so a stale file of the real project
// never passes for a fresh one.
func (s *Sandbox) Path(rel string) (string, bool) {
	rel = filepath.Clean(filepath.FromSlash(rel))
	if rel == "." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || rel == ".." || filepath.IsAbs(rel) {
		return "", false
	}
	return s.find(rel)
}

// Close removes everything the sandbox's commands wrote.
func (s *Sandbox) Close() error {
	s.release()
	err := removePrivate(s.dir)
	if s.owner != nil {
		s.owner.Close() // after the removal: until then the folder is owned
	}
	return err
}

// removePrivate removes a sandbox's private folder. The overlay's work
// folder holds a folder only its owner may enter; everything is made
// removable first (no link is followed: WalkDir does not).
func removePrivate(dir string) error {
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700)
		}
		return nil
	})
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("sandbox: removing %s: %w", dir, err)
	}
	return nil
}

// Check reports whether commands can run sandboxed here, and if not, why,
// in words a person can act on. Each system's checked tries once per
// process.
func Check() error {
	if err := checked(); err != nil {
		return fmt.Errorf("%w: %v", ErrUnsupported, err)
	}
	return nil
}

// ErrUnsupported is what Check wraps on a system agentos cannot sandbox on.
var ErrUnsupported = errors.New("no sandbox on this system")
