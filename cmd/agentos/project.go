package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
)

// openProject finds the project from dir (see project.Find) and loads its
// configuration; a missing config file means the defaults, and noConfig says
// so. Errors carry the exit code for a missing project or a bad config.
func openProject(dir string) (p project.Paths, cfg config.Config, noConfig bool, err error) {
	p, err = project.Find(dir)
	if err != nil {
		return p, cfg, false, withCode(exitProject, err)
	}
	cfg, err = config.Load(p.Config())
	if errors.Is(err, os.ErrNotExist) {
		return p, config.Default(), true, nil
	}
	if err != nil {
		return p, cfg, false, withCode(exitProject, fmt.Errorf("invalid configuration: %w", err))
	}
	return p, cfg, false, nil
}
