package workflow

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/gofrs/flock"
)

// While a gate runs, it runs the project's tests: code the agent wrote, with
// the person's authority. That code could connect to the server and answer
// an approval prompt, call the review page's API with the token, or run
// `agentos workflow approve --yes`. So while any gate of the project runs,
// the actions only a person may take — approving a spec, confirming changed
// rules, accepting a session changed outside agentos — are refused on every
// channel (the IDE's elicitation, the review page, the terminal), and each
// refusal is written to the audit log.
//
// The engine knows the gates it runs itself. Another process (the CLI) sees
// them by a lock file per running gate under .agentos/state/gates/, held
// for the gate's run: a lock, unlike a file's mere presence, ends with the
// process that holds it, so a crashed server leaves no gate "running".
// A test that deletes the file is caught by the gate's rules check, which
// covers .agentos/state/.

// runningGates are the gates this engine runs now: session id → how many.
type runningGates struct {
	mu  sync.Mutex
	ids map[string]int
}

func (e *Engine) gatesDir() string { return filepath.Join(e.set.StateDir, "gates") }

// gateRunning marks the gate of session id as running until the returned
// function is called: in this engine, and by a locked file for other
// processes. Call it before the gate records the rules, so the lock file is
// among them.
func (e *Engine) gateRunning(id string) (done func()) {
	g := &e.gates
	g.mu.Lock()
	if g.ids == nil {
		g.ids = map[string]int{}
	}
	g.ids[id]++
	g.mu.Unlock()
	path := filepath.Join(e.gatesDir(), id)
	var fl *flock.Flock
	if os.MkdirAll(e.gatesDir(), 0o755) == nil {
		fl = flock.New(path)
		if fl.Lock() == nil {
			// Another session's gate, running meanwhile, must not take it for tampering.
			e.store.own.note(path)
		} else {
			fl = nil // this process still refuses; other processes cannot see the gate
		}
	}
	return func() {
		if fl != nil {
			fl.Unlock() // first: Windows removes no locked file
			os.Remove(path)
			e.store.own.note(path)
		}
		g.mu.Lock()
		if g.ids[id]--; g.ids[id] <= 0 {
			delete(g.ids, id)
		}
		g.mu.Unlock()
	}
}

// RunningGates returns the sessions whose gate runs now, in this process or
// another; none when no gate runs.
func (e *Engine) RunningGates() []string {
	var ids []string
	e.gates.mu.Lock()
	for id := range e.gates.ids {
		ids = append(ids, id)
	}
	e.gates.mu.Unlock()
	entries, _ := os.ReadDir(e.gatesDir())
	for _, d := range entries {
		if !d.Type().IsRegular() || !ValidID(d.Name()) || slices.Contains(ids, d.Name()) {
			continue
		}
		// Held: a gate runs. Not held: a gate ended without removing it
		// (its process died), or one is only starting and runs no test yet.
		fl := flock.New(filepath.Join(e.gatesDir(), d.Name()))
		if ok, err := fl.TryRLock(); err == nil && ok {
			fl.Unlock()
			continue
		}
		ids = append(ids, d.Name())
	}
	slices.Sort(ids)
	return ids
}

// refuseWhileGate refuses an action only a person takes (approve,
// confirm_rules, accept) while a gate of the project runs, and writes the
// refusal to the audit log of the session it was for (target, "" when none)
// and of the session whose gate runs.
func (e *Engine) refuseWhileGate(action, target string, actor Actor, what string) error {
	running := e.RunningGates()
	if len(running) == 0 {
		return nil
	}
	gate := running[0]
	detail := fmt.Sprintf("refused while the gate of session %s ran: %s", gate, what)
	logged := map[string]bool{}
	for _, id := range []string{target, gate} {
		if id == "" || logged[id] || !ValidID(id) {
			continue
		}
		if _, err := os.Stat(e.store.sessionDir(id)); err != nil {
			continue
		}
		logged[id] = true
		// The line is signed and chained; the session's state learns its
		// count at its next change, which checkAudit allows.
		e.store.Audit(id, AuditEntry{At: e.set.Now().UTC(), Actor: actor.String(), Action: action, Result: "refused", Detail: detail})
	}
	return &Error{Kind: KindForbidden, Msg: fmt.Sprintf("nothing was done: the gate of session %s is running the project's tests now, and while a gate runs no approval, confirmation of rules or acceptance is taken on any channel (code the gate runs could give it). The attempt is in the audit log. Try again once the gate has finished", gate)}
}
