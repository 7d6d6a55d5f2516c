package upgrade

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/server"
	"github.com/agentos-dev/agentos/standards"
	"github.com/agentos-dev/agentos/workflow"
)

// validate checks the upgraded project: the config loads, the project's
// workflows parse, the standards this upgrade wrote lint clean, the pinned
// binary is the one meant, client entries launch it, and a server built
// in-process answers tools/list, a search and get_server_info.
func (u *run) validate(ctx context.Context) (string, error) {
	cfg, err := loadConfig(u.p)
	if err != nil {
		return "", err
	}
	invalid, n, err := invalidWorkflows(u.p)
	if err != nil {
		return "", err
	}
	for source, why := range invalid {
		if _, before := u.invalidBefore[source]; !before {
			return "", fmt.Errorf("workflow %s does not parse: %s", source, why)
		}
	}
	deleted := map[string]bool{}
	for _, f := range u.pl.Files {
		if f.Action == StayDeleted {
			deleted[filepath.Join(u.p.Root, filepath.FromSlash(f.Path))] = true
		}
	}
	written := 0
	for _, f := range u.pl.Files {
		switch f.Action {
		case Update, Merge, Add:
		default:
			continue
		}
		if !isStandard(f.Path) {
			continue
		}
		written++
		abs := filepath.Join(u.p.Root, filepath.FromSlash(f.Path))
		had := map[string]bool{} // problems the project's own version had: not the upgrade's doing
		if f.Action == Merge {
			for _, pr := range standards.LintData(abs, f.ours, nil) {
				had[pr.Message] = true
			}
		}
		data, err := os.ReadFile(abs)
		if err != nil {
			return "", fmt.Errorf("standards lint: %w", err)
		}
		exists := func(target string) bool {
			path := filepath.Join(filepath.Dir(abs), filepath.FromSlash(target))
			_, err := os.Stat(path)
			return err == nil || deleted[path] // a link to a file the project deleted is the project's choice
		}
		for _, pr := range standards.LintData(abs, data, exists) {
			if !had[pr.Message] {
				return "", fmt.Errorf("standards lint: %s", pr.String())
			}
		}
	}
	bin := u.pl.launch
	if !u.pl.unpinned {
		sum, err := fileSum(bin)
		if err != nil {
			return "", fmt.Errorf("pinned binary: %w", err)
		}
		if want := u.pl.next.Files[u.p.Rel(bin)].SHA256; sum != want {
			return "", fmt.Errorf("pinned binary %s is not the one written", u.p.Rel(bin))
		}
	}
	if fi, err := os.Stat(bin); err != nil || !binaryModeOK(fi.Mode()) {
		return "", fmt.Errorf("the agentos binary %s is missing or not executable", u.p.Rel(bin))
	}
	if _, err := manifestMatches(u); err != nil {
		return "", err
	}
	entries, err := checkConfigs(u.p, u.pl.env, bin)
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
	search := fmt.Sprintf("search_standards (%d hits over %d files)", res.SearchHits, res.IndexedFiles)
	if res.SearchSkipped != "" {
		search = "no search: " + res.SearchSkipped
	}
	msg := fmt.Sprintf("config loads; %d workflows parse; %d written standards lint clean; binary and %d client entries point at %s; server answered tools/list (%d tools), %s and get_server_info",
		n, written, entries, u.p.Rel(bin), res.Tools, search)
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

// invalidWorkflows parses the project's workflows and returns those that
// fail, and how many there are in all.
func invalidWorkflows(p project.Paths) (map[string]string, int, error) {
	builtin, err := assets.Sub(assets.Workflows)
	if err != nil {
		return nil, 0, err
	}
	lib, err := workflow.LoadLibrary(builtin, os.DirFS(p.Workflows()))
	if err != nil {
		return nil, 0, fmt.Errorf("workflows: %w", err)
	}
	return lib.Invalid(), len(lib.List()), nil
}

// isStandard reports whether a shipped file is a standard the linter checks.
func isStandard(rel string) bool {
	return strings.HasSuffix(rel, ".md") && strings.Contains(rel, "/standards/") && !strings.EqualFold(filepath.Base(rel), "README.md")
}

// loadConfig loads the project's config; a missing file means the defaults.
func loadConfig(p project.Paths) (config.Config, error) {
	cfg, err := config.Load(p.Config())
	if errors.Is(err, fs.ErrNotExist) {
		return config.Default(), nil
	}
	if err != nil {
		return cfg, fmt.Errorf("config: %w", err)
	}
	return cfg, nil
}
