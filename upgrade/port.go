package upgrade

import (
	"context"
	"fmt"
	"os"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/ports"
)

// planPort decides whether the upgrade records server.port in mcp.yaml: a
// project installed before there was one gets it, so the agents that reach
// its server over HTTP keep the same address across restarts. A missing or
// invalid config is left alone (preflight refuses an invalid one).
func (pl *Plan) planPort() {
	data, err := os.ReadFile(pl.p.Config())
	if err != nil {
		return
	}
	cfg, err := config.Parse(data)
	if err != nil || cfg.Server.Port != 0 {
		return
	}
	lo, _, _ := cfg.Ports()
	if _, err := config.SetPort(data, lo); err != nil {
		return // laid out in a way only a person should edit; the server says how
	}
	pl.Port = Add
}

// recordPort chooses the project's port (internal/ports) and writes it into
// mcp.yaml, changing only the lines of that key. The backup holds the file.
func (u *run) recordPort(ctx context.Context) error {
	if u.pl.Port == Unchanged {
		return nil
	}
	path := u.p.Config()
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("record server.port: %w", err)
	}
	cfg, err := config.Parse(data)
	if err != nil {
		return fmt.Errorf("record server.port: %s: %w", path, err)
	}
	lo, hi, _ := cfg.Ports()
	port, err := ports.Choose(ctx, u.p.Root, lo, hi)
	if err != nil {
		return fmt.Errorf("record server.port: %w", err)
	}
	out, err := config.SetPort(data, port)
	if err != nil {
		return fmt.Errorf("record server.port: %s: %w", path, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("record server.port: %w", err)
	}
	if err := writeAtomic(path, out, fi.Mode().Perm()); err != nil {
		return fmt.Errorf("record server.port: %w", err)
	}
	u.r.Port = port
	return nil
}

// planAuth decides whether the upgrade moves server.auth from the block an
// earlier install wrote (auth: none) to today's default (config.MigrateAuth).
func (pl *Plan) planAuth() {
	data, err := os.ReadFile(pl.p.Config())
	if err != nil {
		return
	}
	if _, ok := config.MigrateAuth(data); ok {
		pl.Auth = Update
	}
}

// migrateAuth writes that change, only that block's lines. The backup
// holds the file.
func (u *run) migrateAuth() error {
	if u.pl.Auth == Unchanged {
		return nil
	}
	path := u.p.Config()
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("move server.auth to user: %w", err)
	}
	out, ok := config.MigrateAuth(data)
	if !ok {
		return nil // changed since the plan: the person's now
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("move server.auth to user: %w", err)
	}
	if err := writeAtomic(path, out, fi.Mode().Perm()); err != nil {
		return fmt.Errorf("move server.auth to user: %w", err)
	}
	return nil
}
