package upgrade

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/upgrade/upgradetest"
)

// withoutPort makes the project's config one written before server.port
// existed, and returns its text.
func withoutPort(t *testing.T, f *fixture) string {
	t.Helper()
	path := f.p.Config()
	text := regexp.MustCompile(`(?m)^  #.*\n(  #.*\n)*  port: \d+\n`).ReplaceAllString(read(t, path), "")
	text = regexp.MustCompile(`(?m)^  port: \d+\n`).ReplaceAllString(text, "")
	write(t, path, text)
	if cfg, err := config.Load(path); err != nil || cfg.Server.Port != 0 {
		t.Fatalf("the config still names a port (%v): %s", err, text)
	}
	return text
}

// An upgrade records server.port in a config that has none, changing only
// the lines of that key.
func TestUpgradeRecordsThePort(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	before := withoutPort(t, f)
	pl, err := MakePlan(context.Background(), f.opts())
	if err != nil {
		t.Fatal(err)
	}
	if pl.Port != Add || !pl.Changes() {
		t.Fatalf("plan: port %s, changes %v", pl.Port, pl.Changes())
	}
	r, err := Run(context.Background(), f.opts())
	if err != nil {
		t.Fatal(err)
	}
	after := read(t, f.p.Config())
	cfg, err := config.Parse([]byte(after))
	if err != nil || r.Port == 0 || cfg.Server.Port != r.Port {
		t.Fatalf("report port %d, config port %d (%v)", r.Port, cfg.Server.Port, err)
	}
	for _, line := range strings.SplitAfter(before, "\n") {
		if !strings.Contains(after, line) {
			t.Errorf("line %q of the config was lost", line)
		}
	}
	if again, _ := MakePlan(context.Background(), f.opts()); again.Port != Unchanged {
		t.Errorf("a second upgrade plans the port again: %s", again.Port)
	}
}

// A failed upgrade puts the config back as it was.
func TestUpgradeRollsBackThePort(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	withoutPort(t, f)
	before := f.snapshot(t)
	setFault(t, f, func(at string) error {
		if at == StepValidate {
			return errors.New("injected")
		}
		return nil
	})
	if _, err := Run(context.Background(), f.opts()); err == nil {
		t.Fatal("no error")
	}
	if d := upgradetest.Diff(before, f.snapshot(t)); len(d) > 0 {
		t.Fatalf("after the rollback the project differs: %v", d)
	}
}

// An upgrade moves the server.auth block an earlier install wrote (any
// local process) to today's default (only the server's own user), changing
// only that block; a block the person edited stays theirs.
func TestUpgradeMovesAuthToUser(t *testing.T) {
	t.Parallel()
	f := newInstalled(t)
	path := f.p.Config()
	current := read(t, path)
	const newBlock = "  # Who may call the HTTP transport:\n  #   user  - only processes of the OS user the server runs as (the kernel\n  #           tells the owner of each connection; on Linux. Elsewhere,\n  #           choose token to keep other users out).\n  #   token - only callers that send the bearer token agentos keeps in\n  #           .agentos/.cache/auth_token.\n  #   none  - any process on this machine, other users' included.\n  auth: user\n"
	const oldBlock = "  # Who may call the HTTP transport:\n  #   none  - any process on this machine.\n  #   token - only callers that send the bearer token agentos keeps in\n  #           .agentos/.cache/auth_token.\n  auth: none\n"
	if !strings.Contains(current, newBlock) {
		t.Fatalf("install no longer writes the block this test knows:\n%s", current)
	}
	before := strings.Replace(current, newBlock, oldBlock, 1)
	write(t, path, before)
	pl, err := MakePlan(context.Background(), f.opts())
	if err != nil {
		t.Fatal(err)
	}
	if pl.Auth != Update || !pl.Changes() {
		t.Fatalf("plan: auth %s", pl.Auth)
	}
	if _, err := Run(context.Background(), f.opts()); err != nil {
		t.Fatal(err)
	}
	if after := read(t, path); after != current {
		t.Errorf("the config after the upgrade:\n%s\nwant:\n%s", after, current)
	}
	// The person's own "none" stays.
	mine := strings.Replace(before, "any process on this machine.", "any process: a shared build box, on purpose.", 1)
	write(t, path, mine)
	if pl, _ := MakePlan(context.Background(), f.opts()); pl.Auth != Unchanged {
		t.Errorf("a person's own block is planned to change: %s", pl.Auth)
	}
}
