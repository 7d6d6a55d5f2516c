// Package testbin builds the agentos binary once for every test that runs it.
//
// The end-to-end tests and the benchmarks start the real binary many times;
// building it in each test package cost a link of tens of seconds per package
// and per run. Build keys a binary by a hash of everything it is built from —
// the contents of the module's own files in the command's dependency closure
// (Go files and embedded assets), go.mod and go.sum (which pin every other
// module), the Go version, the target platform and the build flags — and keeps
// it in the user's cache folder (os.UserCacheDir()/agentos/testbin/<key>/).
// Any edit to a source gives a new key, so a stale binary is never reused.
// A file lock makes test packages running at the same time build it once.
package testbin

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// Spec is one build of a main package.
type Spec struct {
	Dir     string   // the module's root folder
	Package string   // the main package, as `go build` takes it (./cmd/agentos)
	Flags   []string // extra `go build` flags
	Env     []string // extra environment (CGO_ENABLED=0)
}

// Release is the agentos binary as a release builds it (goreleaser.yaml):
// cgo off, no symbol table; no VCS stamp, so that a binary keyed by its
// sources does not carry a commit it may outlive. Its paths are not
// trimmed, as a release's are: -trimpath changes nothing the binary does
// (only the file names its stacks show) but gives every package a build of
// its own, which on empty caches cost 112 s of CPU more than this build
// (docs/decisions.md).
func Release(moduleDir string) Spec {
	return Spec{
		Dir:     moduleDir,
		Package: "./cmd/agentos",
		Flags:   []string{"-buildvcs=false", "-ldflags=-s -w"},
		Env:     []string{"CGO_ENABLED=0"},
	}
}

// keep is how long an unused binary stays in the cache.
const keep = 72 * time.Hour

// Agentos returns the path of the release-built agentos binary of the
// module that holds the current folder (a test's package folder), building it
// when its sources changed.
func Agentos(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("testbin: find the module: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("testbin: the current folder is not in a Go module")
	}
	return Build(ctx, Release(filepath.Dir(gomod)))
}

// Main builds the agentos binary (Agentos), hands its path to use, and runs
// the package's tests with a configuration folder of their own in
// AGENTOS_CONFIG_HOME, removed after: the servers they start sign workflow
// state and record their ports there, never in the real user's folder. It
// returns the exit code for os.Exit.
func Main(m *testing.M, use func(binary string)) int {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	bin, err := Agentos(ctx)
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "build agentos:", err)
		return 1
	}
	use(bin)
	config, err := os.MkdirTemp("", "agentos-test-config-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(config)
	os.Setenv("AGENTOS_CONFIG_HOME", config)
	// The cache folder stays the user's one when a test gives agentos a HOME
	// of its own (to keep the agents' configs apart): a person has one cache,
	// and install remembers there the digest of the binary it pins
	// (internal/filesum). Without it every such install hashed the 28 MB
	// binary again — a sixteenth of the end-to-end tests' CPU. Where the
	// system ignores XDG_CACHE_HOME (macOS, Windows) this changes nothing.
	if os.Getenv("XDG_CACHE_HOME") == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			os.Setenv("XDG_CACHE_HOME", dir)
		}
	}
	return m.Run()
}

// Build returns the path of the binary spec describes, from the cache when
// one was built from the same sources, else built now under a lock.
func Build(ctx context.Context, spec Spec) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("testbin: %w", err)
	}
	return buildIn(ctx, spec, filepath.Join(cache, "agentos", "testbin"))
}

// buildIn is Build with the cache in root.
func buildIn(ctx context.Context, spec Spec, root string) (string, error) {
	key, err := Key(ctx, spec)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, key)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("testbin: %w", err)
	}
	name := filepath.Base(filepath.FromSlash(spec.Package))
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	bin := filepath.Join(dir, name)

	lock := flock.New(filepath.Join(dir, "lock"))
	if _, err := lock.TryLockContext(ctx, 50*time.Millisecond); err != nil {
		return "", fmt.Errorf("testbin: lock %s: %w", dir, err)
	}
	defer lock.Unlock()
	now := time.Now()
	if _, err := os.Stat(bin); err == nil {
		os.Chtimes(dir, now, now) // in use: see prune
		return bin, nil
	}
	// Built beside its final name and renamed: a build cut short leaves no
	// binary that a later run would take for a whole one.
	tmp := bin + ".tmp"
	args := append(append([]string{"build", "-o", tmp}, spec.Flags...), spec.Package)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = spec.Dir
	cmd.Env = append(os.Environ(), spec.Env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("testbin: go %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	// Read-only: every test shares it, and one that wrote to it by mistake
	// would change what the others run.
	if err := os.Chmod(tmp, 0o555); err != nil {
		return "", fmt.Errorf("testbin: %w", err)
	}
	if err := os.Rename(tmp, bin); err != nil {
		return "", fmt.Errorf("testbin: %w", err)
	}
	prune(root, key, now)
	return bin, nil
}

// prune removes the binaries of other keys nobody used for a while (each
// test run touches the one it takes), so the cache does not grow with
// every edit; one in use by another checkout is younger than keep.
func prune(root, current string, now time.Time) {
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if !e.IsDir() || e.Name() == current {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > keep {
			os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}

// listed is what Key reads of `go list -deps -json`.
type listed struct {
	ImportPath string
	Dir        string
	Standard   bool
	Module     *struct {
		Path    string
		Version string
		Main    bool
		Replace *struct{ Path, Version string }
	}
	GoFiles, CgoFiles, CFiles, HFiles, SFiles, SysoFiles, EmbedFiles []string
	Error                                                            *struct{ Err string }
}

// Key hashes what the binary is built from. Files of the main module (and
// of modules replaced by a local folder) count by content; other modules by
// their path and version, which go.sum pins to one content; the standard
// library by the Go version. The folder the module sits in does not count:
// two clones of one commit share a binary.
func Key(ctx context.Context, spec Spec) (string, error) {
	env := append(os.Environ(), spec.Env...)
	goenv := exec.CommandContext(ctx, "go", "env", "GOVERSION", "GOOS", "GOARCH", "CGO_ENABLED", "GOFLAGS", "GOEXPERIMENT")
	goenv.Dir, goenv.Env = spec.Dir, env
	settings, err := goenv.Output()
	if err != nil {
		return "", fmt.Errorf("testbin: go env: %w", err)
	}
	// With the build's flags, so that build tags pick the same files.
	list := exec.CommandContext(ctx, "go", append(append([]string{"list", "-deps", "-json"}, spec.Flags...), spec.Package)...)
	list.Dir, list.Env = spec.Dir, env
	var stderr bytes.Buffer
	list.Stderr = &stderr
	out, err := list.Output()
	if err != nil {
		return "", fmt.Errorf("testbin: go list %s: %w\n%s", spec.Package, err, stderr.Bytes())
	}

	h := sha256.New()
	fmt.Fprintf(h, "flags %q\nenv %q\n%s", spec.Flags, spec.Env, settings)
	for _, name := range []string{"go.mod", "go.sum"} {
		if err := hashFile(h, spec.Dir, name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return "", fmt.Errorf("testbin: read go list: %w", err)
		}
		if p.Error != nil {
			return "", fmt.Errorf("testbin: package %s: %s", p.ImportPath, p.Error.Err)
		}
		if p.Standard {
			continue
		}
		fmt.Fprintf(h, "package %s\n", p.ImportPath)
		if m := p.Module; m != nil && !m.Main && (m.Replace == nil || m.Replace.Version != "") {
			fmt.Fprintf(h, "module %s %s\n", m.Path, m.Version)
			if m.Replace != nil {
				fmt.Fprintf(h, "replaced by %s %s\n", m.Replace.Path, m.Replace.Version)
			}
			continue
		}
		for _, files := range [][]string{p.GoFiles, p.CgoFiles, p.CFiles, p.HFiles, p.SFiles, p.SysoFiles, p.EmbedFiles} {
			for _, f := range files {
				if err := hashFile(h, p.Dir, f); err != nil {
					return "", err
				}
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:32], nil
}

// hashFile adds a file's name, size and content to h.
func hashFile(h io.Writer, dir, name string) error {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return fmt.Errorf("testbin: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("testbin: %w", err)
	}
	fmt.Fprintf(h, "file %s %d\n", filepath.ToSlash(name), info.Size())
	if _, err := io.Copy(h, f); err != nil {
		return fmt.Errorf("testbin: read %s: %w", name, err)
	}
	return nil
}
