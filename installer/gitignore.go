package installer

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/agentos-dev/agentos/internal/project"
)

// The managed .gitignore block: agentos's private, machine-specific files.
const (
	gitignoreBegin = "# agentos:begin (managed by agentos install; edits inside are replaced)"
	gitignoreEnd   = "# agentos:end"
)

// gitignoreBlockLines are the block's lines, markers included.
func gitignoreBlockLines() []string {
	return []string{
		gitignoreBegin,
		".agentos/.cache/",
		".agentos/bin/",
		".agentos/.mcp_server_state.json",
		".agentos/backups/",
		gitignoreEnd,
	}
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
	return change{step: step, apply: func() error {
		if err := bak.write(); err != nil {
			return err
		}
		return writeFile(path, merged, perm)
	}}, nil
}

// mergeGitignore returns data with the managed block replaced in place, or
// appended when absent. The block uses the file's own line ending.
func mergeGitignore(data []byte) ([]byte, error) {
	eol := lineEnding(data)
	block := renderBlock(eol)
	begin, end, found, err := findBlock(data)
	if err != nil {
		return nil, err
	}
	if found {
		out := append([]byte{}, data[:begin]...)
		out = append(out, block...)
		return append(out, data[end:]...), nil
	}
	out := append([]byte{}, data...)
	if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, eol...)
	}
	if len(bytes.TrimSpace(out)) > 0 && !bytes.HasSuffix(out, []byte(eol+eol)) {
		out = append(out, eol...) // a blank line sets the block apart
	}
	return append(out, block...), nil
}

// findBlock locates the managed block: from the start of its begin line to
// just past its end line's line ending (or the end of the file).
func findBlock(data []byte) (begin, end int, found bool, err error) {
	begin = -1
	for start := 0; start < len(data); {
		next := len(data)
		if i := bytes.IndexByte(data[start:], '\n'); i >= 0 {
			next = start + i + 1
		}
		line := string(bytes.TrimRight(data[start:next], " \t\r\n"))
		switch {
		case begin < 0 && bytes.HasPrefix([]byte(line), []byte("# agentos:begin")):
			begin = start
		case begin >= 0 && line == gitignoreEnd:
			return begin, next, true, nil
		}
		start = next
	}
	if begin >= 0 {
		return 0, 0, false, fmt.Errorf("the agentos block starts but has no %q line; remove the block or add that line, then run install again", gitignoreEnd)
	}
	return 0, 0, false, nil
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

// lineEnding returns the file's line ending, taken from its first line:
// "\r\n" for a Windows-style file, "\n" otherwise.
func lineEnding(data []byte) string {
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}
