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
