package workflow

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
)

// While a gate runs, it runs the project's tests: code the agent wrote, with
// the person's authority. That code could connect to the server and answer
// an approval prompt, call the review page's API with the token, or run
// `agentos workflow approve --yes`. So while any gate of the project runs,
// the decisions only a person takes — approving a spec or requesting changes
// to it, confirming changed rules, accepting or resetting a session changed
// outside agentos — are refused on every channel (the IDE's elicitation,
// the review page, the terminal), and each refusal is written to the audit
// log.
//
// The engine knows the gates it runs itself. Another process (the CLI,
// another server of the same project) sees them by a lock file per running
// gate under .agentos/.cache/gates/, held for the gate's run: a lock, unlike
// a file's mere presence, ends with the process that holds it, so a crashed
// server leaves no gate "running". The folder is not among the rules a
// gate's run may not change (.agentos/state, config, workflows), so a
// person's refused attempt from another process does not fail the gate;
// a test that deletes the lock file to approve from the CLI still writes
// the approval under .agentos/state/, which the gate's rules check undoes.
//
// Another process does not write the audit log of a session whose gate
// runs — that would change the state the gate is judged by. It leaves its
// refusal in the gate's spool (<id>.refused next to the lock), and the
// engine running the gate writes it to the audit log when the gate ends.

// runningGates are the gates this engine runs now: session id → how many.
type runningGates struct {
	mu  sync.Mutex
	ids map[string]int
}

func (e *Engine) gatesDir() string {
	return filepath.Join(filepath.Dir(e.set.StateDir), ".cache", "gates")
}

// refusal is one refused attempt another process left for the engine
// running the gate to audit.
type refusal struct {
	Target string    `json:"target,omitempty"`
	Actor  string    `json:"actor"`
	Action string    `json:"action"`
	Detail string    `json:"detail"`
	At     time.Time `json:"at"`
}

// gateRunning marks the gate of session s as running until the returned
// function is called: in this engine, and by a locked file for other
// processes. When it ends, the attempts other processes made meanwhile
// go to the audit log.
func (e *Engine) gateRunning(s *Session) (done func()) {
	g := &e.gates
	g.mu.Lock()
	if g.ids == nil {
		g.ids = map[string]int{}
	}
	g.ids[s.ID]++
	g.mu.Unlock()
	path := filepath.Join(e.gatesDir(), s.ID)
	var fl *flock.Flock
	if os.MkdirAll(e.gatesDir(), 0o755) == nil {
		fl = flock.New(path)
		if fl.Lock() != nil {
			fl = nil // this process still refuses; other processes cannot see the gate
		}
	}
	return func() {
		if fl != nil {
			fl.Unlock() // first: Windows removes no locked file
			os.Remove(path)
		}
		g.mu.Lock()
		if g.ids[s.ID]--; g.ids[s.ID] <= 0 {
			delete(g.ids, s.ID)
		}
		g.mu.Unlock()
		e.auditSpooled(s)
	}
}

// auditSpooled writes the refusals other processes left for the gate of s
// to the audit logs: the gate's session's, and the one each was for.
func (e *Engine) auditSpooled(s *Session) {
	spool := filepath.Join(e.gatesDir(), s.ID+".refused")
	// Taken aside first: an attempt made while it is read lands in a new
	// spool, for the next gate, rather than being lost.
	taken := fmt.Sprintf("%s.%d", spool, time.Now().UnixNano())
	if os.Rename(spool, taken) != nil {
		return
	}
	defer os.Remove(taken)
	data, err := os.ReadFile(taken)
	if err != nil {
		return
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r refusal
		if json.Unmarshal([]byte(line), &r) != nil {
			continue
		}
		detail := r.Detail + " (from another process, audited when the gate ended)"
		e.audit(s, Actor{Client: r.Actor}, r.Action, s.Current, s.Current, "refused", detail)
		if r.Target != "" && r.Target != s.ID && ValidID(r.Target) {
			if _, err := os.Stat(e.store.sessionDir(r.Target)); err == nil {
				e.store.Audit(r.Target, AuditEntry{At: r.At, Actor: r.Actor, Action: r.Action, Result: "refused", Detail: detail})
			}
		}
	}
}

// RunningGates returns the sessions whose gate runs now, in this process or
// another; none when no gate runs.
func (e *Engine) RunningGates() []string {
	mine, others := e.runningGates()
	return slices.Sorted(slices.Values(append(mine, others...)))
}

// runningGates returns the sessions whose gate this engine runs, and those
// whose gate another process runs.
func (e *Engine) runningGates() (mine, others []string) {
	e.gates.mu.Lock()
	for id := range e.gates.ids {
		mine = append(mine, id)
	}
	e.gates.mu.Unlock()
	slices.Sort(mine)
	entries, _ := os.ReadDir(e.gatesDir())
	for _, d := range entries {
		if !d.Type().IsRegular() || !ValidID(d.Name()) || slices.Contains(mine, d.Name()) {
			continue
		}
		// Held: a gate runs. Not held: a gate ended without removing it
		// (its process died), or one is only starting and runs no test yet.
		fl := flock.New(filepath.Join(e.gatesDir(), d.Name()))
		if ok, err := fl.TryRLock(); err == nil && ok {
			fl.Unlock()
			continue
		}
		others = append(others, d.Name())
	}
	return mine, others
}

// refuseWhileGate refuses a decision only a person takes (approve, reject,
// confirm_rules, accept, reset) while a gate of the project runs, and
// audits the refusal in the session it was for (target, "" when none) and
// in the session whose gate runs: at once when this engine runs the gate, else
// through the gate's spool.
func (e *Engine) refuseWhileGate(action, target string, actor Actor, what string) error {
	mine, others := e.runningGates()
	if len(mine)+len(others) == 0 {
		return nil
	}
	var gate string
	if len(mine) > 0 {
		gate = mine[0]
	} else {
		gate = others[0]
	}
	detail := fmt.Sprintf("refused while the gate of session %s ran: %s", gate, what)
	refused := &Error{Kind: KindForbidden, Msg: fmt.Sprintf("nothing was done: the gate of session %s is running the project's tests now, and while a gate runs no approval, request for changes, confirmation of rules, acceptance or reset is taken on any channel (code the gate runs could give it). The attempt is in the audit log. Try again once the gate has finished", gate)}
	if len(mine) == 0 {
		line, _ := json.Marshal(refusal{Target: target, Actor: actor.String(), Action: action, Detail: detail, At: e.set.Now().UTC()})
		f, err := os.OpenFile(filepath.Join(e.gatesDir(), gate+".refused"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err == nil {
			f.Write(append(line, '\n'))
			f.Close()
		}
		return refused
	}
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
	return refused
}
