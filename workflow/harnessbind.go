package workflow

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agentos-dev/agentos/workflow/harness"
)

// The test harness (package harness: pytest.ini, conftest.py, package.json's
// scripts, go.mod's replace lines, …) decides what the gates' test runs run
// and how they are counted, so it is part of what a person approves and of
// the rules an execution session runs under: a spec's approval records the
// SHA-256 of every part (Binding.Harness), the session records them when it
// starts, and a change while it runs stops it like a changed workflow.yaml,
// until a person confirms it (confirm-rules, which shows the diff).
//
// An approval or a session from before harnesses were recorded has none
// (Harness is nil, and nothing is compared): such a session records the
// harness in force at its next gate, audited as record_harness, and is held
// to it from then on; confirm-rules records it in the approval too.

// harnessTTL is how long a reading of the harness answers reads and checks
// that are not decisive (get_state, the review page's lists): a reading
// walks the project. A gate, an approval and a confirmation read it afresh.
const harnessTTL = 2 * time.Second

// harnessCache holds the last reading of the project's harness.
type harnessCache struct {
	mu     sync.Mutex
	at     time.Time
	parts  []harness.Part
	hashes map[string]string
}

// forget makes the next reading fresh.
func (c *harnessCache) forget() {
	c.mu.Lock()
	c.at = time.Time{}
	c.mu.Unlock()
}

// harnessNow returns the project's harness, each part with its SHA-256;
// fresh reads the files whatever the cache holds.
func (e *Engine) harnessNow(fresh bool) ([]harness.Part, map[string]string, error) {
	c := &e.rules.harness
	c.mu.Lock()
	defer c.mu.Unlock()
	if !fresh && !c.at.IsZero() && time.Since(c.at) < harnessTTL {
		return c.parts, c.hashes, nil
	}
	parts, err := harness.Read(e.set.Root)
	if err != nil {
		return nil, nil, err
	}
	hashes := make(map[string]string, len(parts))
	for _, p := range parts {
		hashes[p.Name] = sha256Hex(p.Data)
	}
	c.parts, c.hashes, c.at = parts, hashes, time.Now()
	return parts, hashes, nil
}

// keepHarness keeps the bytes of every part, as keepApproved keeps a
// spec's, so the person confirming a change later sees its diff.
func (e *Engine) keepHarness(parts []harness.Part) {
	for _, p := range parts {
		e.keepBytes(p.Data)
	}
}

// HarnessPart returns the part of the project's harness called name as it is
// now; ok is false when the project has no such part.
func (e *Engine) HarnessPart(name string) (data []byte, ok bool, err error) {
	parts, _, err := e.harnessNow(false)
	if err != nil {
		return nil, false, err
	}
	for _, p := range parts {
		if p.Name == name {
			return p.Data, true, nil
		}
	}
	return nil, false, nil
}

// HarnessChange is one part of the harness that differs between two
// bindings: the hashes it had and has ("" when it did not or does not
// exist), for a person to be shown the diff (ApprovedFile, HarnessPart).
type HarnessChange struct {
	Part     string
	Was, Now string
}

// HarnessChanges lists the parts of the harness that differ between was
// and now; none when either recorded no harness.
func HarnessChanges(was, now *Binding) []HarnessChange {
	if was == nil || now == nil || was.Harness == nil || now.Harness == nil {
		return nil
	}
	var out []HarnessChange
	for _, k := range sortedKeys(was.Harness) {
		if now.Harness[k] != was.Harness[k] {
			out = append(out, HarnessChange{Part: k, Was: was.Harness[k], Now: now.Harness[k]})
		}
	}
	for _, k := range sortedKeys(now.Harness) {
		if _, ok := was.Harness[k]; !ok {
			out = append(out, HarnessChange{Part: k, Now: now.Harness[k]})
		}
	}
	return out
}

// holdHarness runs before an execution session's gate, with the harness
// read afresh (what get_state compared may be a moment old): a session that
// recorded no harness records it now; any other refuses to run its gate
// under a harness it did not record.
func (e *Engine) holdHarness(s *Session) error {
	def, ok := e.rules.get().lib.Get(s.Workflow)
	if !ok || !(def.RequiresApprovedSpec || def.RunsTests) || s.Rules == nil {
		return nil
	}
	parts, now, err := e.harnessNow(true)
	if err != nil {
		return err
	}
	if s.Rules.Harness == nil {
		e.keepHarness(parts)
		s.Rules.Harness = now
		e.audit(s, CLIActor, "record_harness", s.Current, s.Current, "",
			"the session predates recorded test harnesses: recorded the harness in force now ("+harnessNames(now)+"); a change to it from now on waits for a person")
		return nil
	}
	if ch := appendMapChanges(nil, "test harness ", s.Rules.Harness, now); len(ch) > 0 {
		return refused("%s", rulesChangedMessage(s, ch))
	}
	return nil
}

func harnessNames(h map[string]string) string {
	if len(h) == 0 {
		return "none of its files exist"
	}
	return strings.Join(sortedKeys(h), ", ")
}

// describeHarness writes, for a person about to approve, every part of the
// harness the approval binds.
func describeHarness(w *strings.Builder, b *Binding) {
	if b.Harness == nil {
		return
	}
	w.WriteString("Test harness (what decides which tests run and how they are counted; SHA-256):\n")
	if len(b.Harness) == 0 {
		w.WriteString("  (none: no pytest, coverage, vitest or jest configuration, conftest.py, package.json scripts or go.mod replace)\n")
	}
	for _, k := range sortedKeys(b.Harness) {
		fmt.Fprintf(w, "  %s  %s\n", b.Harness[k], shown(k))
	}
}
