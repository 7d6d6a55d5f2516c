package workflow

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/internal/machinekey"
)

func signedEngine(t *testing.T, root string, key *machinekey.Key) *Engine {
	t.Helper()
	builtin, _ := assets.Sub(assets.Workflows)
	lib, err := LoadLibrary(builtin, nil)
	if err != nil {
		t.Fatal(err)
	}
	return NewEngine(lib, Settings{Root: root, StateDir: filepath.Join(root, ".agentos", "state"), Key: key})
}

func keyOf(b byte) *machinekey.Key { return machinekey.New(bytes.Repeat([]byte{b}, 32)) }

func editFile(t *testing.T, path string, edit func(string) string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(edit(string(data))), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A hand edit of state.json or of the audit log is noticed at the next read
// and makes the session read-only, for agents and the CLI alike, until a
// person accepts it or resets it; re-indenting the file is not an edit.
func TestHandEditIsChangedOutsideAgentos(t *testing.T) {
	root := t.TempDir()
	e := signedEngine(t, root, keyOf(1))
	s, err := e.Start(context.Background(), "spec_creation_v1", map[string]string{"feature": "seal"}, agent)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.CompleteTask(s.ID, "1.1", "", agent, false); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, ".agentos", "state", "workflows", s.ID)
	state := filepath.Join(dir, "state.json")

	editFile(t, state, func(s string) string {
		var buf bytes.Buffer
		json.Indent(&buf, []byte(s), "", "\t")
		return buf.String()
	})
	if got, _ := e.Get(s.ID); got.Integrity != nil {
		t.Fatalf("re-indented state reads as %+v", got.Integrity)
	}

	editFile(t, state, func(s string) string { return strings.Replace(s, `"status": "active"`, `"status": "completed"`, 1) })
	got, err := e.Get(s.ID)
	if err != nil || got.Integrity == nil || got.Integrity.Verdict != IntegrityChanged || got.Integrity.Detail != "state.json" {
		t.Fatalf("edited state: %v %+v", err, got.Integrity)
	}
	for name, err := range map[string]error{
		"agent":        func() error { _, err := e.CompleteTask(s.ID, "1.2", "", agent, true); return err }(),
		"cli":          func() error { _, err := e.Rollback(s.ID, 1, CLIActor, true); return err }(),
		"agent delete": e.Delete(s.ID, agent, true),
	} {
		if err == nil || !strings.Contains(err.Error(), "changed outside agentos") || !strings.Contains(err.Error(), "agentos workflow accept "+s.ID) {
			t.Errorf("%s changed a tampered session: %v", name, err)
		}
	}
	if _, err := e.Accept(s.ID, CLIActor); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.Get(s.ID); got.Integrity != nil || got.Status != StatusCompleted {
		t.Fatalf("accepted: %+v", got)
	}

	// The audit log: a line written since the acceptance edited, then a reset.
	editFile(t, filepath.Join(dir, "audit.jsonl"), func(s string) string { return strings.Replace(s, `"action":"accept"`, `"action":"approve"`, 1) })
	if got, _ := e.Get(s.ID); got.Integrity == nil || !strings.Contains(got.Integrity.Detail, "audit.jsonl line") {
		t.Fatalf("edited audit: %+v", got.Integrity)
	}
	if _, err := e.Reset(s.ID, CLIActor); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.Get(s.ID); got.Integrity != nil || got.Current != 1 {
		t.Fatalf("reset: %+v", got)
	}
	// A line appended by hand.
	editFile(t, filepath.Join(dir, "audit.jsonl"), func(s string) string { return s + `{"actor":"agentos-cli","action":"approve"}` + "\n" })
	if got, _ := e.Get(s.ID); got.Integrity == nil || got.Integrity.Verdict != IntegrityChanged {
		t.Fatalf("forged audit line: %+v", got.Integrity)
	}
}

// Lines cut from the end of the audit log (a failed gate, say) leave a
// chain that still checks out; the state, which records how long the log
// was, shows them. Transitions from many goroutines at once keep both
// consistent, and a person accepting the shortened log makes it whole.
func TestAuditLinesCutFromTheEnd(t *testing.T) {
	root := t.TempDir()
	e := signedEngine(t, root, keyOf(1))
	s, err := e.Start(context.Background(), "spec_creation_v1", map[string]string{"feature": "cut"}, agent)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, task := range []string{"1.1", "1.2", "1.1", "1.2", "1.1"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.CompleteTask(s.ID, task, "", agent, false)
		}()
	}
	wg.Wait()
	if _, err := e.Pause(s.ID, agent, false); err != nil {
		t.Fatal(err)
	}
	if got, _ := e.Get(s.ID); got.Integrity != nil || got.AuditLines < 3 {
		t.Fatalf("after concurrent transitions: %+v, %d lines recorded", got.Integrity, got.AuditLines)
	}
	audit := filepath.Join(root, ".agentos", "state", "workflows", s.ID, "audit.jsonl")
	editFile(t, audit, func(s string) string {
		lines := strings.SplitAfter(s, "\n")
		return strings.Join(lines[:len(lines)-2], "") // the last line ("pause") cut
	})
	got, err := e.Get(s.ID)
	if err != nil || got.Integrity == nil || got.Integrity.Verdict != IntegrityChanged || !strings.Contains(got.Integrity.Detail, "lost lines") {
		t.Fatalf("cut audit log: %v %+v", err, got.Integrity)
	}
	if _, err := e.Resume(s.ID, agent, false); err == nil || !strings.Contains(err.Error(), "changed outside agentos") {
		t.Fatalf("resumed a session whose audit log lost lines: %v", err)
	}
	if _, err := e.Accept(s.ID, CLIActor); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Resume(s.ID, agent, false); err != nil {
		t.Fatalf("after accepting: %v", err)
	}
	if got, _ := e.Get(s.ID); got.Integrity != nil {
		t.Fatalf("accepted and resumed: %+v", got.Integrity)
	}
}

// State a teammate's agentos signed reads as another machine's — shown, not
// an error — and state from before signing as unsigned; both are read-only
// until a person accepts them here.
func TestOtherMachineAndUnsignedState(t *testing.T) {
	root := t.TempDir()
	ctx := context.Background()
	theirs := signedEngine(t, root, keyOf(2))
	s, err := theirs.Start(ctx, "spec_creation_v1", map[string]string{"feature": "team"}, agent)
	if err != nil {
		t.Fatal(err)
	}
	old := signedEngine(t, root, nil)
	u, err := old.Start(ctx, "spec_creation_v1", map[string]string{"feature": "old"}, agent)
	if err != nil {
		t.Fatal(err)
	}

	mine := signedEngine(t, root, keyOf(1))
	sessions, _, err := mine.Store().List()
	if err != nil || len(sessions) != 2 {
		t.Fatalf("list: %v %d", err, len(sessions))
	}
	verdicts := map[string]string{}
	for _, x := range sessions {
		verdicts[x.ID] = x.Integrity.Verdict
	}
	if verdicts[s.ID] != IntegrityOtherMachine || verdicts[u.ID] != IntegrityUnsigned {
		t.Fatalf("verdicts: %v", verdicts)
	}
	if _, err := mine.CompleteTask(s.ID, "1.1", "", agent, false); err == nil || !strings.Contains(err.Error(), "another machine") {
		t.Errorf("advanced another machine's session: %v", err)
	}
	for _, id := range []string{s.ID, u.ID} {
		if _, err := mine.Accept(id, CLIActor); err != nil {
			t.Fatal(err)
		}
		if _, err := mine.CompleteTask(id, "1.1", "", agent, false); err != nil {
			t.Errorf("after accepting %s: %v", id, err)
		}
	}
	if _, err := mine.Accept(s.ID, CLIActor); err == nil {
		t.Error("accepted a session with nothing to accept")
	}
}
