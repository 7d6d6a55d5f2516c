package workflow

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentos-dev/agentos/internal/machinekey"
)

func TestForgedEvidenceIsNeverHolding(t *testing.T) {
	e, _ := testEngine(t)
	e.set.Key = machinekey.New([]byte("a key of this machine"))
	rec := &LivingRecord{Spec: "2026-01-01-x", Session: "s", Tree: "abc", Criteria: []LivingCriterion{{ID: "AC-x-1.1.1"}}}
	rec.LastCheck = &SpecState{Spec: rec.Spec, State: SpecDrifted}
	if err := e.writeLiving(rec); err != nil {
		t.Fatal(err)
	}
	specs, err := e.Specs()
	if err != nil || len(specs) != 1 || specs[0].State != SpecDrifted {
		t.Fatalf("as agentos wrote it: %+v, %v", specs, err)
	}
	path := e.livingPath(rec.Spec)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.Replace(data, []byte(`"state": "drifted"`), []byte(`"state": "holding"`), 1), 0o644)
	specs, _ = e.Specs()
	if specs[0].State != SpecUnverified {
		t.Fatalf("a record edited by hand reads %s", specs[0].State)
	}
	if _, err := e.Converge(context.Background(), rec.Spec, nil, agent); KindOf(err) != KindRefused {
		t.Fatalf("converge from a forged record: %v", err)
	}
	if got, _ := e.CriteriaReached([]ReachedTest{{Path: "x_test.go", Name: "TestX"}}); len(got) != 0 {
		t.Fatalf("a forged record named %+v", got)
	}
	// Another machine's key is not this one's either.
	other := machinekey.New([]byte("another machine"))
	e.set.Key = other
	if specs, _ := e.Specs(); specs[0].State != SpecUnverified {
		t.Fatalf("a record of another key reads %s", specs[0].State)
	}
}

func TestScheduledCheckWaitsWhileAnAgentWorks(t *testing.T) {
	e, _ := testEngine(t)
	if _, err := e.Start(context.Background(), "spec_creation_v1", map[string]string{"feature": "busy"}, agent); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	e.CheckSpecsEvery(ctx, 20*time.Millisecond, slog.New(slog.NewTextHandler(&log, nil)))
	if !strings.Contains(log.String(), "postponed: an agent is working") || strings.Contains(log.String(), "finished spec checked") {
		t.Fatalf("log:\n%s", log.String())
	}
}

func TestConvergeNeedsAFinishedSpec(t *testing.T) {
	e, root := testEngine(t)
	os.MkdirAll(filepath.Join(root, ".agentos", "specs", "2026-01-01-y"), 0o755)
	if _, err := e.Converge(context.Background(), "2026-01-01-y", nil, agent); KindOf(err) != KindNotFound {
		t.Fatalf("converge of an unfinished spec: %v", err)
	}
	if _, err := e.CheckSpecs(context.Background(), []string{"../etc"}); KindOf(err) != KindInvalid {
		t.Fatalf("a spec name that is a path: %v", err)
	}
}
