package installer

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/internal/project"
)

// standardFile is one standard the installer ensures in the project.
type standardFile struct {
	target string // absolute path in the project
	data   []byte // what agentos ships or generates
}

// planUniversalStandards plans copying the embedded universal standards to
// .agentos/standards/universal/, keeping their domain folders.
func planUniversalStandards(p project.Paths) ([]change, error) {
	return planShipped(p, assets.UniversalStandards, filepath.Join(p.Standards(), "universal"))
}

// planWorkflows plans copying the built-in workflow definitions to
// .agentos/workflows/, where people read them, search indexes them, and a
// project may adapt them (a project's copy takes precedence).
func planWorkflows(p project.Paths) ([]change, error) {
	return planShipped(p, assets.Workflows, p.Workflows())
}

// planShipped plans copying an embedded tree into the project, never
// overwriting a file the project changed.
func planShipped(p project.Paths, root, targetDir string) ([]change, error) {
	files, err := shippedFiles(root, targetDir)
	if err != nil {
		return nil, err
	}
	changes := make([]change, 0, len(files))
	for _, f := range files {
		c, err := planStandardFile(p, f, "differs from the shipped version, so it was kept as you left it")
		if err != nil {
			return nil, err
		}
		changes = append(changes, c)
	}
	return changes, nil
}

// shippedFiles lists the embedded files under root with their targets
// under targetDir, sorted by path.
func shippedFiles(root, targetDir string) ([]standardFile, error) {
	var files []standardFile
	err := fs.WalkDir(assets.FS(), root, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(assets.FS(), name)
		if err != nil {
			return err
		}
		rel := name[len(root)+1:]
		target := filepath.Join(targetDir, filepath.FromSlash(rel))
		files = append(files, standardFile{target: target, data: data})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("install: read the shipped %s: %w", root, err)
	}
	return files, nil
}

// planStandardFile plans writing one standard. A file that is missing is
// created; one that holds what agentos would write is unchanged; any other
// is the user's and is kept, with keptDetail as the reason. A standard is
// never overwritten: merging edits with a newer shipped version is the
// upgrade's job.
func planStandardFile(p project.Paths, f standardFile, keptDetail string) (change, error) {
	step := Step{Kind: StepStandard, Path: p.Rel(f.target), Action: Unchanged}
	_, err := os.Lstat(f.target)
	if errors.Is(err, fs.ErrNotExist) {
		step.Action = Created
		return change{step: step, apply: func() error { return writeFile(f.target, f.data, 0o644) }}, nil
	}
	if err != nil {
		return change{}, fmt.Errorf("install: %w", err)
	}
	fi, err := os.Stat(f.target) // a symlink to a file is the user's way of sharing it: compare through it
	switch {
	case err != nil || !fi.Mode().IsRegular():
		return change{}, fmt.Errorf("install: %s exists but is not a regular file; move it away and run install again", f.target)
	}
	have, err := os.ReadFile(f.target)
	if err != nil {
		return change{}, fmt.Errorf("install: %w", err)
	}
	if !sameText(have, f.data) {
		step.Action = Kept
		step.Detail = keptDetail
	}
	return change{step: step}, nil
}

// sameText compares two text files ignoring the difference between CRLF and
// LF line endings, which git may introduce on checkout.
func sameText(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	crlf, lf := []byte("\r\n"), []byte("\n")
	return bytes.Equal(bytes.ReplaceAll(a, crlf, lf), bytes.ReplaceAll(b, crlf, lf))
}

// standardsGroup names the folder a shipped document's step is summarised
// under: ".agentos/standards/universal/", ".agentos/standards/development/"
// or ".agentos/workflows/".
func standardsGroup(rel string) string {
	dir := rel
	for {
		parent := path.Dir(dir)
		if parent == ".agentos/standards" || parent == ".agentos" || parent == "." || parent == dir {
			return dir + "/"
		}
		dir = parent
	}
}
