package installer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentos-dev/agentos/internal/project"
)

// layoutDirs are the folders every installed project has. Their content
// (standards, workflows) is written by other steps; the folders exist so that
// users and tools find the structure in place.
func layoutDirs(p project.Paths) []string {
	return []string{
		filepath.Join(p.Standards(), "universal"),
		filepath.Join(p.Standards(), "development"),
		p.Workflows(),
		p.Specs(),
		p.ConfigDir(),
		p.Bin(),
		p.Scripts(),
		p.IndexDir("standards"),
		p.IndexDir("code"),
	}
}

// planLayout plans one step per layout folder.
func planLayout(p project.Paths) ([]change, error) {
	var changes []change
	for _, dir := range layoutDirs(p) {
		c, err := planDir(p, dir)
		if err != nil {
			return nil, err
		}
		changes = append(changes, c)
	}
	return changes, nil
}

func planDir(p project.Paths, dir string) (change, error) {
	step := Step{Kind: StepFolder, Path: p.Rel(dir), Action: Unchanged}
	fi, err := os.Stat(dir)
	switch {
	case err == nil && fi.IsDir():
		return change{step: step}, nil
	case err == nil:
		return change{}, fmt.Errorf("install: %s exists but is not a folder", dir)
	case !errors.Is(err, fs.ErrNotExist):
		// For example, a file where an ancestor folder should be.
		return change{}, fmt.Errorf("install: %w", err)
	}
	step.Action = Created
	return change{step: step, apply: func() error {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("install: %w", err)
		}
		return nil
	}}, nil
}
