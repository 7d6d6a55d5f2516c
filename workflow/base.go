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
	"sync"

	"github.com/agentos-dev/agentos/internal/sandbox"
	"github.com/agentos-dev/agentos/workflow/baseline"
	"github.com/agentos-dev/agentos/workflow/gates"
	"github.com/agentos-dev/agentos/workflow/testcmd"
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
// its index (empty: none), and returns what it printed. The project is
// input, not instructions: only agentos's own store is git's repository (the
// project's .git and its config are never read), and no system or global
// config applies, so no filter, hook or fsmonitor a config names runs.
func (e *Engine) git(ctx context.Context, index string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "gc.auto=0"}, args...)...)
	cmd.Dir = e.set.Root
	cmd.Env = append(os.Environ(), "GIT_DIR="+e.baseStore(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_TERMINAL_PROMPT=0", "GIT_AUTHOR_NAME=agentos", "GIT_AUTHOR_EMAIL=agentos@localhost",
		"GIT_COMMITTER_NAME=agentos", "GIT_COMMITTER_EMAIL=agentos@localhost")
	if args[0] != "init" {
		cmd.Env = append(cmd.Env, "GIT_WORK_TREE="+e.set.Root)
	}
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
		if _, err := e.git(ctx, "", "init", "--quiet", "--bare", e.baseStore()); err != nil {
			return "", err
		}
	}
	index := e.baseIndex(id)
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

// baseIndex is session id's index in the base store.
func (e *Engine) baseIndex(id string) string { return filepath.Join(e.baseStore(), "index-"+id) }

// dropBaseIndex removes the index of a session that ended (megabytes on a
// large tree); its base tree and ref stay, for what a finished spec may still
// be checked against.
func (e *Engine) dropBaseIndex(id string) { _ = os.Remove(e.baseIndex(id)) }

// fileChange is a regular file that differs between the base and now (a
// link or a submodule never counts: its target is no code of the session's).
type fileChange struct {
	path      string // relative, with slashes
	base, now string // the blobs' ids; "" where the file is not (added, deleted)
}

// gateTree is a session's working tree as one gate sees it: written to the
// base store once, at its first use, so that the fail-before, pass-to-pass
// and coverage checks of a gate judge the same tree, hashed once.
type gateTree struct {
	e        *Engine
	id, base string
	once     sync.Once
	now      string       // the tree's id
	changes  []fileChange // since base
	err      error
}

func (e *Engine) gateTree(id, base string) *gateTree { return &gateTree{e: e, id: id, base: base} }

// load snapshots the tree and lists the changes since the base.
func (g *gateTree) load(ctx context.Context) error {
	g.once.Do(func() {
		if g.now, g.err = g.e.snapshot(ctx, g.id); g.err == nil {
			g.changes, g.err = g.e.changesBetween(ctx, g.base, g.now)
		}
	})
	return g.err
}

// changesBetween lists the files that differ between trees base and now.
func (e *Engine) changesBetween(ctx context.Context, base, now string) ([]fileChange, error) {
	// Raw records: ":100644 100644 <base blob> <now blob> M", NUL, path, NUL;
	// an added or deleted file's missing side is mode 000000, id 0000….
	out, err := e.git(ctx, "", "diff-tree", "-r", "-z", "--no-renames", "--no-abbrev", base, now)
	if err != nil {
		return nil, err
	}
	var changes []fileChange
	fields := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		meta := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		if len(meta) != 5 || !regularOrNone(meta[0]) || !regularOrNone(meta[1]) {
			continue
		}
		c := fileChange{path: fields[i+1], base: meta[2], now: meta[3]}
		for _, blob := range []*string{&c.base, &c.now} {
			if strings.Trim(*blob, "0") == "" {
				*blob = "" // git's id of no file
			}
		}
		changes = append(changes, c)
	}
	return changes, nil
}

// regularOrNone reports whether a git mode is a regular file's, or none.
func regularOrNone(mode string) bool { return mode == "000000" || mode == "100644" || mode == "100755" }

// sessionDiff returns the session's change since its base, for
// Env.SessionDiff: both sides are read from the base store.
func (g *gateTree) sessionDiff(ctx context.Context, patterns []string) ([]byte, error) {
	if err := g.load(ctx); err != nil {
		return nil, err
	}
	args := []string{"diff-tree", "-r", "-p", "--unified=0", "--no-renames", "--no-color", "--no-ext-diff", "--no-textconv", g.base, g.now, "--"}
	return g.e.git(ctx, "", append(args, patterns...)...)
}

// fillBeforeLayer writes into layer the code as the before-run sees it: the
// project now, with the session's test files, but every function the session
// added or changed emptied (present, same signature, zero results) and every
// source file it deleted restored. A criterion's test must then fail by its
// assertions, not because a name is missing. It returns the names emptied.
func (e *Engine) fillBeforeLayer(ctx context.Context, tree *gateTree, layer string) ([]string, error) {
	if err := tree.load(ctx); err != nil {
		return nil, err
	}
	var emptied []string
	for _, c := range tree.changes {
		if baseline.IsTestFile(c.path) || !baseline.Supports(c.path) {
			continue // a test, or no code: it stays as the session left it
		}
		// Both sides come from the store, never through the file system,
		// where a path could lead elsewhere.
		var baseSrc, content []byte
		if c.base != "" {
			var err error
			if baseSrc, err = e.git(ctx, "", "cat-file", "blob", c.base); err != nil {
				return nil, err
			}
		}
		if c.now == "" {
			content = baseSrc // deleted: restored
		} else {
			current, err := e.git(ctx, "", "cat-file", "blob", c.now)
			if err != nil {
				return nil, err
			}
			stubbed, names, err := baseline.Stub("", c.path, baseSrc, current)
			if err != nil {
				return nil, fmt.Errorf("emptying the new code of %s: %w", c.path, err)
			}
			if len(names) == 0 {
				continue
			}
			content = stubbed
			for _, n := range names {
				emptied = append(emptied, c.path+": "+n)
			}
		}
		if err := writeLayer(layer, c.path, content); err != nil {
			return nil, err
		}
	}
	return emptied, nil
}

// beforeCommandVar holds the before-run's narrowed command.
const beforeCommandVar = "before_command"

// beforeRun returns the fail-before run of a gate that sees tree: the gate's
// own test command (run), in a sandbox of its own whose layer holds the code
// as it was before the change (fillBeforeLayer).
func (e *Engine) beforeRun(tree *gateTree, run gates.Check, gate gates.Env) gates.BeforeRun {
	return func(ctx context.Context, tests []gates.TestCase) (gates.BeforeResult, error) {
		// Only the tests that prove a criterion matter there. The narrowed
		// command is already resolved, so it goes in as a value.
		run, gate := run, gate
		if command, err := gates.Placeholders(run.Command, gate.Vars); err == nil {
			if narrowed, ok := testcmd.Narrow(command, tests); ok {
				gate.Vars = maps.Clone(gate.Vars)
				gate.Vars[beforeCommandVar] = narrowed
				run.Command = "{" + beforeCommandVar + "}"
			}
		}
		var emptied []string
		tests, output, err := e.runTests(ctx, run, gate, func(sb *sandbox.Sandbox) (err error) {
			emptied, err = e.fillBeforeLayer(ctx, tree, sb.Layer())
			return err
		})
		if err != nil {
			return gates.BeforeResult{}, err
		}
		return gates.BeforeResult{Tests: tests, Emptied: emptied, Output: output}, nil
	}
}
