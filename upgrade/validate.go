package upgrade

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/installer"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/server"
	"github.com/agentos-dev/agentos/standards"
	"github.com/agentos-dev/agentos/workflow"
)

// validate checks the upgraded project: the config loads, the project's
// workflows parse, the standards this upgrade wrote lint clean, the pinned
// binary is the one meant, client entries launch it, and a server built
// in-process answers tools/list, a search and get_server_info.
func (u *run) validate(ctx context.Context) (string, error) {
	cfg, err := config.Load(u.p.Config())
	if os.IsNotExist(err) {
		cfg, err = config.Default(), nil
	}
	if err != nil {
		return "", fmt.Errorf("config: %w", err)
	}
	builtin, err := assets.Sub(assets.Workflows)
	if err != nil {
		return "", err
	}
	lib, err := workflow.LoadLibrary(builtin, os.DirFS(u.p.Workflows()))
	if err != nil {
		return "", fmt.Errorf("workflows: %w", err)
	}
	for source, why := range lib.Invalid() {
		return "", fmt.Errorf("workflow %s does not parse: %s", source, why)
	}
	var written []string
	for _, f := range u.pl.Files {
		switch f.Action {
		case Update, Merge, Add:
			if strings.HasSuffix(f.Path, ".md") && strings.Contains(f.Path, "/standards/") && !strings.EqualFold(filepath.Base(f.Path), "README.md") {
				written = append(written, filepath.Join(u.p.Root, filepath.FromSlash(f.Path)))
			}
		}
	}
	if problems := standards.Lint(written); len(problems) > 0 {
		return "", fmt.Errorf("standards lint: %d problems, first %s", len(problems), problems[0].String())
	}
	bin := installer.PinnedBinary(u.p)
	sum, err := fileSum(bin)
	if err != nil {
		return "", fmt.Errorf("pinned binary: %w", err)
	}
	if want := u.pl.next.Files[u.p.Rel(bin)].SHA256; sum != want {
		return "", fmt.Errorf("pinned binary %s is not the one written", u.p.Rel(bin))
	}
	if fi, err := os.Stat(bin); err != nil || !binaryModeOK(fi.Mode()) {
		return "", fmt.Errorf("pinned binary %s is not executable", u.p.Rel(bin))
	}
	if _, err := manifestMatches(u); err != nil {
		return "", err
	}
	entries, err := checkConfigs(u.p, u.pl.env)
	if err != nil {
		return "", err
	}
	timeout := u.opts.ValidateTimeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := server.SelfTest(tctx, server.Options{Project: u.p, Config: cfg})
	if err != nil {
		return "", fmt.Errorf("server: %w", err)
	}
	msg := fmt.Sprintf("config loads; %d workflows parse; %d written standards lint clean; binary and %d client entries point at %s; server answered tools/list (%d tools), search_standards (%d hits over %d files) and get_server_info",
		len(lib.List()), len(written), entries, u.p.Rel(bin), res.Tools, res.SearchHits, res.IndexedFiles)
	u.r.Validated = msg
	return msg, nil
}

// manifestMatches checks every file the manifest says agentos wrote, as the
// project now holds it, against its recorded sum (files the project edited,
// kept or deleted are the project's and are not checked).
func manifestMatches(u *run) (int, error) {
	n := 0
	for _, f := range u.pl.Files {
		switch f.Action {
		case Update, Merge, Add:
		default:
			continue
		}
		e := u.pl.next.Files[f.Path]
		sum, err := fileSum(filepath.Join(u.p.Root, filepath.FromSlash(f.Path)))
		if err != nil {
			return n, fmt.Errorf("%s: %w", f.Path, err)
		}
		if sum != writtenSum(e) {
			return n, fmt.Errorf("%s does not hold what was written", f.Path)
		}
		n++
	}
	return n, nil
}
