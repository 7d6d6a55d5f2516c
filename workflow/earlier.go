package workflow

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/pathpolicy"
	"github.com/agentos-dev/agentos/internal/sandbox"
	"github.com/agentos-dev/agentos/workflow/baseline"
	"github.com/agentos-dev/agentos/workflow/gates"
)

// PASS_TO_PASS: the tests that passed when an execution session started
// must still hold at each of its gates. Which tests passed is learned once
// per base and test command, by running the command on the base in a
// sandbox, and kept in the state folder (earlierDir). Whether an earlier
// test the session rewrote still holds as it was written is learned at each
// gate that finds one, by running the earlier versions on the code now.

// earlierDir holds, per base tree and test command, the tests that passed
// on that base.
const earlierDir = "earlier"

// earlierRun returns the PASS_TO_PASS run of a gate that sees tree: the
// gate's own test command (run), on the base and on the earlier tests.
func (e *Engine) earlierRun(tree *gateTree, run gates.Check, gate gates.Env) gates.EarlierRun {
	return func(ctx context.Context) (gates.EarlierResult, error) {
		if err := tree.load(ctx); err != nil {
			return gates.EarlierResult{}, err
		}
		changes := tree.changes
		passed, err := e.basePassing(ctx, tree.base, changes, run, gate)
		if err != nil {
			return gates.EarlierResult{}, err
		}
		res := gates.EarlierResult{Passed: passed, Allowed: e.changedTests(gate.Vars["spec_dir"])}
		var rewritten []fileChange
		for _, c := range changes {
			if c.base != "" && baseline.IsTestFile(c.path) {
				rewritten = append(rewritten, c)
			}
		}
		if len(passed) == 0 || len(rewritten) == 0 {
			return res, nil
		}
		tests, output, err := e.runTests(ctx, run, gate, func(sb *sandbox.Sandbox) error {
			return e.putBack(ctx, sb, rewritten)
		})
		if err != nil {
			return gates.EarlierResult{}, fmt.Errorf("running the earlier tests as they were written: %w", err)
		}
		res.Restored, res.RestoredOutput = append([]gates.TestCase{}, tests...), output
		return res, nil
	}
}

// basePassing returns the tests that pass on base with the gate's test
// command, from the state folder when an earlier gate learned them.
func (e *Engine) basePassing(ctx context.Context, base string, changes []fileChange, run gates.Check, gate gates.Env) ([]gates.TestCase, error) {
	command, err := gates.Placeholders(run.Command, gate.Vars)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(command + "\x00" + run.Workdir + "\x00" + run.Report))
	file := filepath.Join(e.set.StateDir, earlierDir, base+"-"+hex.EncodeToString(sum[:8])+".json")
	if data, err := os.ReadFile(file); err == nil {
		var passed []gates.TestCase
		if json.Unmarshal(data, &passed) == nil {
			return passed, nil
		}
	}
	tests, _, err := e.runTests(ctx, run, gate, func(sb *sandbox.Sandbox) error {
		for _, c := range changes {
			if c.base == "" {
				sb.Remove(c.path) // the session added it
			}
		}
		return e.putBack(ctx, sb, changes)
	})
	if err != nil {
		return nil, fmt.Errorf("running the tests on the code the session started from: %w", err)
	}
	passed := []gates.TestCase{}
	for _, tc := range tests {
		if tc.Status == gates.TestPassed {
			passed = append(passed, tc)
		}
	}
	data, err := json.Marshal(passed)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(file, data, 0o644); err != nil {
		return nil, err
	}
	return passed, nil
}

// putBack writes into sb's layer the base's version of every file of
// changes that the base holds, read from the base store.
func (e *Engine) putBack(ctx context.Context, sb *sandbox.Sandbox, changes []fileChange) error {
	for _, c := range changes {
		if c.base == "" {
			continue
		}
		content, err := e.git(ctx, "", "cat-file", "blob", c.base)
		if err != nil {
			return err
		}
		if err := writeLayer(sb.Layer(), c.path, content); err != nil {
			return err
		}
	}
	return nil
}

// writeLayer writes content at rel (with slashes) in a sandbox's layer.
func writeLayer(layer, rel string, content []byte) error {
	dst := filepath.Join(layer, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, content, 0o644)
}

// runTests runs the gate's test command (run) in a sandbox of its own whose
// view of the project fill prepares, read like the gate's own run, and
// returns the tests its report lists and the tail of its output.
func (e *Engine) runTests(ctx context.Context, run gates.Check, gate gates.Env, fill func(*sandbox.Sandbox) error) ([]gates.TestCase, string, error) {
	sb, err := sandbox.New(e.set.Root, gateSandboxOptions)
	if err != nil {
		return nil, "", err
	}
	defer sb.Close()
	if err := fill(sb); err != nil {
		return nil, "", err
	}
	env := gates.Env{Root: gate.Root, Vars: gate.Vars, Tests: &gates.TestRun{}, Sandbox: sb}
	res := run.Run(ctx, env)
	if ctx.Err() != nil {
		return nil, "", ctx.Err()
	}
	_, tests := env.Tests.Results()
	return tests, res.Output, nil
}

// changedTests returns the earlier tests the spec in specDir says its
// change changes (gates.ChangedTests); its tasks.md is part of what the
// person approved.
func (e *Engine) changedTests(specDir string) []string {
	if specDir == "" {
		return nil
	}
	root, err := os.OpenRoot(e.set.Root)
	if err != nil {
		return nil
	}
	defer root.Close()
	f, _, err := pathpolicy.OpenFile(root, path.Join(filepath.ToSlash(specDir), "tasks.md"))
	if err != nil {
		return nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 4<<20))
	if err != nil {
		return nil
	}
	return gates.ChangedTests(data)
}
