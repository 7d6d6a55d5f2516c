package workflow

import (
	"encoding/json"
	"fmt"

	"github.com/agentos-dev/agentos/internal/machinekey"
)

// Seal is the signature agentos puts on a session's state.json: the id of
// the machine key that signed it (not the key), that machine's name, and an
// HMAC-SHA256 of the state's content.
type Seal struct {
	KeyID string `json:"key_id"`
	Host  string `json:"host,omitempty"`
	MAC   string `json:"mac"`
}

// Integrity verdicts: why a session is read-only until a person acts.
const (
	// IntegrityChanged: this machine signed it, and it no longer matches.
	IntegrityChanged = "changed outside agentos"
	// IntegrityOtherMachine: another machine's agentos signed it (a
	// teammate's, shared through git); this one cannot check it.
	IntegrityOtherMachine = "written by another machine"
	// IntegrityUnsigned: written before agentos signed state.
	IntegrityUnsigned = "not signed"
)

// Integrity says why a session read from disk cannot be trusted as this
// machine's agentos left it; nil when it can.
type Integrity struct {
	Verdict string `json:"verdict"`
	Detail  string `json:"detail"`
}

// Advice says, for session id, what is wrong and what a person can do.
func (i *Integrity) Advice(id string) string {
	switch i.Verdict {
	case IntegrityChanged:
		return fmt.Sprintf("session %s was changed outside agentos (%s does not match the signature agentos wrote); it is read-only until a person reviews it and runs `agentos workflow accept %s`, or starts it over with `agentos workflow reset %s`", id, i.Detail, id, id)
	case IntegrityOtherMachine:
		return fmt.Sprintf("session %s was written by agentos on another machine (%s); it is read-only here until a person accepts it on this machine with `agentos workflow accept %s`", id, i.Detail, id)
	}
	return fmt.Sprintf("session %s was written before agentos signed its state; it is read-only until a person accepts it with `agentos workflow accept %s`", id, id)
}

func (i *Integrity) refusal(id string) error { return refused("%s", i.Advice(id)) }

// canonical returns the JSON object in data without its "seal" member, in a
// canonical form (members sorted, no insignificant space), and the seal.
// Signing that form rather than the file's bytes lets a person's editor
// re-indent the file without it reading as tampered.
func canonical(data []byte) ([]byte, *Seal, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return nil, nil, err
	}
	var seal *Seal
	if raw, ok := members["seal"]; ok {
		if err := json.Unmarshal(raw, &seal); err != nil {
			return nil, nil, fmt.Errorf("its seal: %w", err)
		}
		delete(members, "seal")
	}
	out, err := json.Marshal(members)
	return out, seal, err
}

func stateMAC(k *machinekey.Key, id string, canon []byte) string {
	return k.MAC([]byte("agentos state v1"), []byte(id), canon)
}

func auditMAC(k *machinekey.Key, id, prev string, line []byte) string {
	return k.MAC([]byte("agentos audit v1"), []byte(id), []byte(prev), line)
}

// seal signs sess and returns the JSON to write.
func (s *Store) seal(sess *Session) ([]byte, error) {
	sess.Seal = nil
	data, err := json.MarshalIndent(sess, "", "  ")
	if err != nil || s.key == nil {
		return data, err
	}
	canon, _, err := canonical(data)
	if err != nil {
		return nil, err
	}
	sess.Seal = &Seal{KeyID: s.key.ID, Host: s.key.Host, MAC: stateMAC(s.key, sess.ID, canon)}
	return json.MarshalIndent(sess, "", "  ")
}

// check returns what is wrong with the signatures of session sess, read
// as data from state.json; nil when this machine signed it all.
func (s *Store) check(sess *Session, data []byte) *Integrity {
	if s.key == nil {
		return nil
	}
	canon, seal, err := canonical(data)
	switch {
	case err != nil || seal == nil:
		return &Integrity{Verdict: IntegrityUnsigned, Detail: "state.json has no signature"}
	case seal.KeyID != s.key.ID:
		return &Integrity{Verdict: IntegrityOtherMachine, Detail: fmt.Sprintf("signed on %q with key %s", seal.Host, seal.KeyID)}
	case !s.key.Verify(seal.MAC, []byte("agentos state v1"), []byte(sess.ID), canon):
		return &Integrity{Verdict: IntegrityChanged, Detail: "state.json"}
	}
	return s.checkAudit(sess)
}

// checkAudit verifies the audit log's chain: each line this machine signed
// must match, and must follow the line before it, and the log must still
// hold the lines the state says it held. Lines before
// sess.AuditAccepted were accepted by a person as they are (they may be
// another machine's, which this one cannot check); every later line must be
// this machine's.
func (s *Store) checkAudit(sess *Session) *Integrity {
	lines, err := s.readAuditLines(sess.ID)
	if err != nil {
		return &Integrity{Verdict: IntegrityChanged, Detail: "audit.jsonl cannot be read: " + err.Error()}
	}
	prev := ""
	for i, e := range lines {
		// Since the person last accepted the session, only this machine wrote it.
		if i >= sess.AuditAccepted && (e.KeyID != s.key.ID || !s.key.Verify(e.MAC, []byte("agentos audit v1"), []byte(sess.ID), []byte(prev), e.signed())) {
			return &Integrity{Verdict: IntegrityChanged, Detail: fmt.Sprintf("audit.jsonl line %d", i+1)}
		}
		prev = e.MAC
	}
	if n := sess.AuditLines; n > 0 && (len(lines) < n || lines[n-1].MAC != sess.AuditHead) {
		return &Integrity{Verdict: IntegrityChanged, Detail: fmt.Sprintf("audit.jsonl lost lines (it held %d, now %d)", n, len(lines))}
	}
	return nil
}

// signed is the content of an audit line its MAC covers.
func (e AuditEntry) signed() []byte {
	e.MAC = ""
	data, _ := json.Marshal(e)
	return data
}

// Accept is a person vouching for a session as it now is — changed by hand,
// written on another machine, or from before state was signed — after
// reading it: it is signed by this machine and can advance again. actor is
// how they did (CLIActor, ReviewActor).
func (e *Engine) Accept(id string, actor Actor) (*Session, error) {
	if err := e.refuseWhileGate("accept", id, actor, "an acceptance of session "+id); err != nil {
		return nil, err
	}
	var was *Integrity
	sess, err := e.change(id, CLIActor, true, true, func(s *Session) error {
		if s.Integrity == nil {
			return refused("session %s is as agentos on this machine signed it; there is nothing to accept", s.ID)
		}
		was = s.Integrity
		if err := e.acceptAudit(s); err != nil {
			return err
		}
		e.audit(s, actor, "accept", s.Current, s.Current, was.Verdict, was.Detail)
		return nil
	})
	return sess, err
}

// acceptAudit takes the audit log's lines as they are, from now on.
func (e *Engine) acceptAudit(s *Session) error {
	lines, err := e.store.readAuditLines(s.ID)
	if err != nil {
		return fmt.Errorf("read the audit log of %s: %w", s.ID, err)
	}
	s.AuditAccepted = len(lines)
	s.AuditLines, s.AuditHead = 0, ""
	if len(lines) > 0 {
		s.AuditLines, s.AuditHead = len(lines), lines[len(lines)-1].MAC
	}
	return nil
}
