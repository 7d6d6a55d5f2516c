package installer

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/markedblock"
	"github.com/agentos-dev/agentos/internal/project"
)

// The managed .gitignore block: agentos's private, machine-specific files.
const (
	gitignoreBegin = "# agentos:begin (managed by agentos install; edits inside are replaced)"
	gitignoreEnd   = "# agentos:end"
)

// gitignoreBlockLines are the block's lines, markers included: agentos's
// private folders, and the clients' machine-only config files (Devin's
// config.local.json, Continue's agentos block file), which hold this
// machine's paths. The list is the same on every machine, so the committed
// .gitignore does not change from one teammate's install to the next.
func gitignoreBlockLines() []string {
	lines := []string{
		gitignoreBegin,
		".agentos/.cache/",
		".agentos/bin/",
		".agentos/.mcp_server_state.json",
		".agentos/backups/",
	}
	for _, f := range agentconfig.LocalFiles() {
		lines = append(lines, "/"+f)
	}
	return append(lines, gitignoreEnd)
}

// planGitignore plans the managed block in the root .gitignore. Every line
// outside the block is kept byte for byte.
func planGitignore(p project.Paths) (change, error) {
	path := filepath.Join(p.Root, ".gitignore")
	step := Step{Kind: StepGitignore, Path: p.Rel(path), Action: Unchanged}
	original, perm, exists, err := readOptional(path)
	if err != nil {
		return change{}, err
	}
	if !exists {
		step.Action = Created
		data := renderBlock("\n")
		return change{step: step, apply: func() error { return writeFile(path, data, 0o644) }}, nil
	}
	merged, err := mergeGitignore(original)
	if err != nil {
		return change{}, fmt.Errorf("install: %s: %w", path, err)
	}
	if bytes.Equal(merged, original) {
		return change{step: step}, nil
	}
	bak, err := planBackup(p, ".gitignore", original, perm)
	if err != nil {
		return change{}, err
	}
	step.Action = Updated
	step.Backup = bak.rel(p)
	step.Before, step.After = original, merged // for the plan's diff
	return change{step: step, apply: func() error {
		if err := bak.write(); err != nil {
			return err
		}
		return writeFile(path, merged, perm)
	}}, nil
}

// ignoreBlock marks the managed block in .gitignore.
var ignoreBlock = markedblock.Markers{Begin: "# agentos:begin", End: gitignoreEnd}

// mergeGitignore returns data with the managed block replaced in place, or
// appended when absent. The block uses the file's own line ending.
func mergeGitignore(data []byte) ([]byte, error) {
	return ignoreBlock.Replace(data, renderBlock("\n"))
}

// renderBlock returns the managed block, each line ended by eol.
func renderBlock(eol string) []byte {
	var b bytes.Buffer
	for _, line := range gitignoreBlockLines() {
		b.WriteString(line)
		b.WriteString(eol)
	}
	return b.Bytes()
}
