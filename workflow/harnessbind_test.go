package workflow

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// executionUnderHarness starts an execution session of an approved spec in
// a project with a pytest.ini and a package.json, its first task done.
func executionUnderHarness(t *testing.T) (*Engine, string, *Session) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, ".agentos", "specs", "greet")
	writeFile(t, filepath.Join(dir, "README.md"), "# Greet\n")
	writeFile(t, filepath.Join(dir, "tasks.md"), approvalTasks)
	writeFile(t, filepath.Join(root, "pytest.ini"), "[pytest]\ntestpaths = tests\n")
	writeFile(t, filepath.Join(root, "package.json"), `{"name": "p", "dependencies": {}, "scripts": {"test": "vitest run"}}`)
	e := engineAt(t, root, "true", nil)
	if _, err := e.ApproveSpec("greet", person, "", nil); err != nil {
		t.Fatal(err)
	}
	rec, _ := e.SpecApproval("greet")
	if rec.Binding.Harness["pytest.ini"] == "" || rec.Binding.Harness["package.json scripts"] == "" {
		t.Fatalf("the approval binds no harness: %+v", rec.Binding.Harness)
	}
	if d := e.Describe(".agentos/specs/greet", rec.Binding, nil); !strings.Contains(d, "Test harness") || !strings.Contains(d, "package.json scripts") {
		t.Errorf("what the person is shown names no harness:\n%s", d)
	}
	s, err := e.Start(context.Background(), "spec_execution_v1", map[string]string{"spec": "greet"}, agent)
	if err != nil {
		t.Fatal(err)
	}
	if s.Rules.Harness["pytest.ini"] != rec.Binding.Harness["pytest.ini"] {
		t.Fatalf("the session did not record the approved harness: %+v", s.Rules.Harness)
	}
	if _, err := e.CompleteTask(s.ID, "1.1", "", agent, false); err != nil {
		t.Fatal(err)
	}
	return e, root, s
}

// A change to the harness while a spec is executed stops the session until
// a person confirms it; the confirmation binds the approval to it too.
func TestHarnessChangeWaitsForConfirmation(t *testing.T) {
	e, root, s := executionUnderHarness(t)
	ctx := context.Background()

	// An honest edit outside the test sections: the gate runs.
	writeFile(t, filepath.Join(root, "package.json"), `{"name": "p", "dependencies": {"left-pad": "1.0.0"}, "scripts": {"test": "vitest run"}}`)
	if _, _, err := e.CompletePhase(ctx, s.ID, nil, agent, false); err != nil {
		t.Fatalf("adding a dependency stopped the session: %v", err)
	}

	// The agent's tests print their own report now: refused before any test runs.
	writeFile(t, filepath.Join(root, "package.json"), `{"name": "p", "dependencies": {"left-pad": "1.0.0"}, "scripts": {"test": "echo ok"}}`)
	writeFile(t, filepath.Join(root, "conftest.py"), "def pytest_runtest_makereport(item, call): pass\n")
	_, _, err := e.RetryPhase(ctx, s.ID, agent, false)
	mustRefuse(t, err, "test harness package.json scripts changed", "test harness conftest.py added", "agentos workflow confirm-rules "+s.ID)
	// Every other change waits too, once the cached reading has expired.
	e.rules.harness.forget()
	_, err = e.Pause(s.ID, agent, false)
	mustRefuse(t, err, "test harness package.json scripts changed")
	if got, _ := e.Get(s.ID); !strings.Contains(got.RulesChanged, "confirm-rules") {
		t.Errorf("a read does not say why nothing advances: %q", got.RulesChanged)
	}

	_, changes, shown, err := e.PendingRules(s.ID)
	if err != nil || len(changes) != 2 {
		t.Fatalf("pending = %v, %v", changes, err)
	}
	// What was recorded is kept, so the person sees the diff.
	rec, _ := e.SpecApproval("greet")
	diffed := false
	for _, c := range HarnessChanges(s.Rules, shown) {
		if c.Part != "package.json scripts" {
			continue
		}
		diffed = true
		was, ok, err := e.ApprovedFile(c.Was)
		now, _, _ := e.HarnessPart(c.Part)
		if !ok || err != nil || !strings.Contains(string(was), "vitest run") || !strings.Contains(string(now), "echo ok") {
			t.Errorf("no diff to show: %q (%v, %v) → %q", was, ok, err, now)
		}
	}
	if !diffed {
		t.Errorf("HarnessChanges names no package.json scripts: %+v", HarnessChanges(s.Rules, shown))
	}
	if _, err := e.ConfirmRules(s.ID, person, shown); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.RetryPhase(ctx, s.ID, agent, false); err != nil {
		t.Fatalf("the confirmed harness still stops the session: %v", err)
	}
	after, _ := e.SpecApproval("greet")
	if after.Binding.Harness["conftest.py"] == "" || after.Binding.Harness["package.json scripts"] == rec.Binding.Harness["package.json scripts"] {
		t.Errorf("the approval is not bound to the confirmed harness: %+v", after.Binding.Harness)
	}
}

// A session whose rules hold no harness (recorded before harnesses were)
// records the harness at its next gate, says so, and is held to it.
func TestSessionWithoutHarnessRecordsItAtItsGate(t *testing.T) {
	e, root, s := executionUnderHarness(t)
	if _, err := e.store.Update(s.ID, func(s *Session) error { s.Rules.Harness = nil; return nil }); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "pytest.ini"), "[pytest]\naddopts = -k nothing\n")
	e.rules.harness.forget()
	if _, err := e.Pause(s.ID, agent, false); err != nil {
		t.Fatalf("a session without a recorded harness compared one: %v", err)
	}
	if _, err := e.Resume(s.ID, agent, false); err != nil {
		t.Fatal(err)
	}
	// An approval from before harnesses were recorded binds none, so the
	// edit does not void it; the session's recording holds it from here.
	rec, _ := e.SpecApproval("greet")
	rec.Binding.Harness = nil
	if err := e.writeApproval(rec); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.CompletePhase(context.Background(), s.ID, nil, agent, false); err != nil {
		t.Fatalf("the first gate: %v", err)
	}
	audit, _ := e.Store().ReadAudit(s.ID)
	found := false
	for _, l := range audit {
		found = found || (l.Action == "record_harness" && strings.Contains(l.Detail, "pytest.ini"))
	}
	if !found {
		t.Fatalf("no record_harness in the audit log: %+v", audit)
	}
	writeFile(t, filepath.Join(root, "pytest.ini"), "[pytest]\naddopts = -p no:cacheprovider\n")
	_, _, err := e.RetryPhase(context.Background(), s.ID, agent, false)
	mustRefuse(t, err, "test harness pytest.ini changed")
}

// A change undone goes unnoticed: the session goes on at once, whatever
// reading of the harness is cached.
func TestHarnessChangeUndoneGoesOn(t *testing.T) {
	e, root, s := executionUnderHarness(t)
	ctx := context.Background()
	writeFile(t, filepath.Join(root, "pytest.ini"), "[pytest]\naddopts = -k nothing\n")
	_, _, err := e.CompletePhase(ctx, s.ID, nil, agent, false)
	mustRefuse(t, err, "test harness pytest.ini changed")
	writeFile(t, filepath.Join(root, "pytest.ini"), "[pytest]\ntestpaths = tests\n")
	if _, _, err := e.CompletePhase(ctx, s.ID, nil, agent, false); err != nil {
		t.Fatalf("the undone change still stops the session: %v", err)
	}
}
