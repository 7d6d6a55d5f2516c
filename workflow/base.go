package workflow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/internal/sandbox"
	"github.com/agentos-dev/agentos/workflow/baseline"
	"github.com/agentos-dev/agentos/workflow/gates"
)

// The base of an execution session is the project's working tree as it was
// when the session started: what fail-before compares the session's work
// with. It is kept as a git tree in a repository of agentos's own under
// .agentos/state/bases.git, never in the project's .git, so it works in a
// project without git and writes nothing the person owns. The tree holds what
// `git add -A` would (the project's .gitignore applies), less agentos's own
// folder and dependency folders, which no session's code is in.

// baseVar is the session variable that holds the base tree's id.
const baseVar = "base_tree"

// AgentVars are the session's variables as an agent is shown them: all but
// the base's id, which only the engine reads.
func (s *Session) AgentVars() map[string]string {
	if _, ok := s.Vars[baseVar]; !ok {
		return s.Vars
	}
	vars := maps.Clone(s.Vars)
	delete(vars, baseVar)
	return vars
}

// baseExcludes are the pathspecs no base holds.
var baseExcludes = []string{
	":(exclude).agentos", ":(exclude,glob)**/node_modules", ":(exclude,glob)**/.venv", ":(exclude,glob)**/venv",
	":(exclude,glob)**/__pycache__", ":(exclude,glob)**/.tox", ":(exclude,glob)**/.pytest_cache", ":(exclude,glob)**/.mypy_cache",
}

// baseStoreName is the repository bases are kept in, in the state folder.
const baseStoreName = "bases.git"

func (e *Engine) baseStore() string { return filepath.Join(e.set.StateDir, baseStoreName) }

// git runs git on the base store with root as its work tree and index as
// its index (empty: none), and returns what it printed.
func (e *Engine) git(ctx context.Context, index string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "gc.auto=0"}, args...)...)
	cmd.Dir = e.set.Root
	cmd.Env = append(os.Environ(), "GIT_DIR="+e.baseStore(), "GIT_WORK_TREE="+e.set.Root,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0", "GIT_AUTHOR_NAME=agentos", "GIT_AUTHOR_EMAIL=agentos@localhost",
		"GIT_COMMITTER_NAME=agentos", "GIT_COMMITTER_EMAIL=agentos@localhost")
	if index != "" {
		cmd.Env = append(cmd.Env, "GIT_INDEX_FILE="+index)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", args[0], err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// snapshot writes the working tree into the base store and returns its tree
// id. Each session keeps an index of its own, so a later snapshot hashes only
// the files that changed.
func (e *Engine) snapshot(ctx context.Context, id string) (string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", errors.New("git is not installed")
	}
	if _, err := os.Stat(filepath.Join(e.baseStore(), "HEAD")); err != nil {
		if err := os.MkdirAll(e.set.StateDir, 0o755); err != nil {
			return "", err
		}
		if out, err := exec.CommandContext(ctx, "git", "init", "--quiet", "--bare", e.baseStore()).CombinedOutput(); err != nil {
			return "", fmt.Errorf("git init: %w: %s", err, strings.TrimSpace(string(out)))
		}
	}
	index := filepath.Join(e.baseStore(), "index-"+id)
	if _, err := e.git(ctx, index, append([]string{"add", "--all", "--ignore-errors", "--", "."}, baseExcludes...)...); err != nil {
		return "", err
	}
	out, err := e.git(ctx, index, "write-tree")
	if err != nil {
		return "", err
	}
	tree := strings.TrimSpace(string(out))
	// A ref keeps the tree from being pruned while the session lives.
	if _, err := e.git(ctx, "", "update-ref", "refs/bases/"+id+"/"+tree, tree); err != nil {
		return "", err
	}
	return tree, nil
}

// fileChange is a file that differs between the base and now.
type fileChange struct {
	path   string // relative, with slashes
	status byte   // 'A' added, 'M' modified, 'D' deleted
}

// changesSince lists the files the session changed since base.
func (e *Engine) changesSince(ctx context.Context, id, base string) ([]fileChange, error) {
	now, err := e.snapshot(ctx, id)
	if err != nil {
		return nil, err
	}
	out, err := e.git(ctx, "", "diff-tree", "-r", "-z", "--no-renames", "--name-status", base, now)
	if err != nil {
		return nil, err
	}
	var changes []fileChange
	fields := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		if fields[i] == "" {
			continue
		}
		changes = append(changes, fileChange{path: fields[i+1], status: fields[i][0]})
	}
	return changes, nil
}

// fillBeforeLayer writes into layer the code as the before-run sees it: the
// project now, with the session's test files, but every function the session
// added or changed emptied (present, same signature, zero results) and every
// source file it deleted restored. A criterion's test must then fail by its
// assertions, not because a name is missing. It returns the names emptied.
func (e *Engine) fillBeforeLayer(ctx context.Context, id, base, layer string) ([]string, error) {
	changes, err := e.changesSince(ctx, id, base)
	if err != nil {
		return nil, err
	}
	var emptied []string
	for _, c := range changes {
		if baseline.IsTestFile(c.path) {
			continue
		}
		var baseSrc []byte
		if c.status != 'A' {
			if baseSrc, err = e.git(ctx, "", "cat-file", "blob", base+":"+c.path); err != nil {
				return nil, err
			}
		}
		var content []byte
		switch c.status {
		case 'D':
			if _, _, err := baseline.Stub("", c.path, baseSrc, baseSrc); errors.Is(err, baseline.ErrUnsupported) {
				continue // not code: it stays as the session left it
			}
			content = baseSrc
		default:
			current, err := os.ReadFile(filepath.Join(e.set.Root, filepath.FromSlash(c.path)))
			if err != nil {
				return nil, err
			}
			stubbed, names, err := baseline.Stub("", c.path, baseSrc, current)
			if errors.Is(err, baseline.ErrUnsupported) || len(names) == 0 {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("emptying the new code of %s: %w", c.path, err)
			}
			content = stubbed
			for _, n := range names {
				emptied = append(emptied, c.path+": "+n)
			}
		}
		dst := filepath.Join(layer, filepath.FromSlash(c.path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(dst, content, 0o644); err != nil {
			return nil, err
		}
	}
	return emptied, nil
}

// beforeRun returns the fail-before run of a gate of session id: the
// session's test command, in a sandbox of its own whose layer holds the code
// as it was before the change (fillBeforeLayer), read like the gate's run.
func (e *Engine) beforeRun(id, base string, gate gates.Env) gates.BeforeRun {
	return func(ctx context.Context) (gates.BeforeResult, error) {
		sb, err := sandbox.New(e.set.Root, gateSandboxOptions)
		if err != nil {
			return gates.BeforeResult{}, err
		}
		defer sb.Close()
		emptied, err := e.fillBeforeLayer(ctx, id, base, sb.Layer())
		if err != nil {
			return gates.BeforeResult{}, err
		}
		env := gates.Env{Root: gate.Root, Vars: gate.Vars, Tests: &gates.TestRun{}, Sandbox: sb}
		run := gates.Check{Type: gates.TypeCommand, Command: "{test_command}", Report: "{test_report}", Timeout: beforeRunTimeout}
		res := run.Run(ctx, env)
		if ctx.Err() != nil {
			return gates.BeforeResult{}, ctx.Err()
		}
		_, tests := env.Tests.Results()
		return gates.BeforeResult{Tests: tests, Emptied: emptied, Output: res.Output}, nil
	}
}

// beforeRunTimeout bounds the before-run as spec_execution_v1 bounds the
// gate's own.
const beforeRunTimeout = 20 * time.Minute
