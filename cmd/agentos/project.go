package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/internal/trust"
)

// loadedConfig says how openProject came by the configuration.
type loadedConfig struct {
	Missing bool        // no config file: the defaults
	Trust   trust.State // the settings that wait for `agentos trust`, if any
}

// openProject finds the project from dir (see project.Find) and loads the
// configuration to act on (trust.Load: settings the person has not trusted
// are the defaults); a missing config file means the defaults. Errors carry
// the exit code for a missing project or a bad config.
func openProject(dir string) (p project.Paths, cfg config.Config, loaded loadedConfig, err error) {
	p, err = project.Find(dir)
	if err != nil {
		return p, cfg, loaded, withCode(exitProject, err)
	}
	cfg, loaded.Trust, err = trust.Load(p)
	if errors.Is(err, os.ErrNotExist) {
		return p, config.Default(), loadedConfig{Missing: true, Trust: loaded.Trust}, nil
	}
	if err != nil {
		return p, cfg, loaded, withCode(exitProject, fmt.Errorf("invalid configuration: %w", err))
	}
	return p, cfg, loaded, nil
}
