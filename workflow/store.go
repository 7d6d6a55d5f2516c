package workflow

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/machinekey"
)

// Store keeps sessions under dir/<id>/: state.json (written atomically, so a
// crash leaves the old or the new state, never a torn one) and audit.jsonl
// (one line per transition). Changes are serialised per session by a mutex
// within the process and a file lock across processes (the server and the
// CLI), so no update is lost however many clients write at once.
//
// With a key, state.json and every audit line are signed, and a session
// whose signatures do not check out is returned with its Integrity set.
type Store struct {
	root string // the project root, to name files in errors
	dir  string
	key  *machinekey.Key // nil: nothing is signed or checked

	mu    sync.Mutex
	locks map[string]*sync.Mutex
	// own tells the rules check of a gate what the store wrote meanwhile.
	own *ownWrites
}

// NewStore returns a store of the project at root whose sessions live in dir
// (created on first write), signed with key (nil: unsigned).
func NewStore(root, dir string, key *machinekey.Key) *Store {
	return &Store{root: root, dir: dir, key: key, locks: map[string]*sync.Mutex{}, own: &ownWrites{}}
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// ValidID reports whether id is a well-formed session id: at most 64
// letters, digits, '-' and '_' — nothing that could name another path.
func ValidID(id string) bool { return idPattern.MatchString(id) }

func (s *Store) sessionDir(id string) string { return filepath.Join(s.dir, id) }

// ErrNoSession is returned for an unknown session id.
var ErrNoSession = errors.New("no such session")

// CorruptError says a session's state.json holds no usable session: it is
// not JSON, or not the shape of a session. Such a session can only be
// removed (Engine.Delete).
type CorruptError struct {
	ID     string
	File   string // state.json, relative to the project root, with slashes
	Reason string // what is wrong with it
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("session %s cannot be read: %s %s. Remove the session with `agentos workflow reset %s` in a terminal, or with svc_workflow delete_session and force: true, and start a new one",
		e.ID, e.File, e.Reason, e.ID)
}

// Get reads a session. A state.json that holds no usable session is a
// *CorruptError.
func (s *Store) Get(id string) (*Session, error) {
	if !ValidID(id) {
		return nil, ErrNoSession
	}
	path := filepath.Join(s.sessionDir(id), "state.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNoSession
	}
	if err != nil {
		return nil, fmt.Errorf("read session %s: %w", id, err)
	}
	var sess Session
	reason := ""
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch err := json.Unmarshal(data, &sess); {
	case errors.As(err, &syntax):
		reason = fmt.Sprintf("is not valid JSON (%s at byte %d)", syntax, syntax.Offset)
	case errors.As(err, &typ):
		reason = fmt.Sprintf("is not a session: its field %s is a JSON %s", typ.Field, typ.Value)
	case err != nil:
		reason = fmt.Sprintf("is not valid JSON (%s)", err)
	default:
		if wrong := sess.shapeError(id); wrong != "" {
			reason = "is not a session: " + wrong
		}
	}
	if reason != "" {
		rel, relErr := filepath.Rel(s.root, path)
		if relErr != nil {
			rel = path
		}
		return nil, &CorruptError{ID: id, File: filepath.ToSlash(rel), Reason: reason}
	}
	sess.Integrity = s.check(&sess, data)
	return &sess, nil
}

// Create writes a new session; it fails if the id exists.
func (s *Store) Create(sess *Session) error {
	dir := s.sessionDir(sess.ID)
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return fmt.Errorf("create session store: %w", err)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("create session %s: %w", sess.ID, err)
	}
	return s.write(sess)
}

// Update applies fn to the session under its locks and writes the result if
// fn returns nil. fn may run for a long time (a gate runs the tests); other
// writers of the same session wait, readers do not.
func (s *Store) Update(id string, fn func(*Session) error) (*Session, error) {
	if !ValidID(id) {
		return nil, ErrNoSession
	}
	unlock, err := s.lock(id)
	if err != nil {
		return nil, err
	}
	defer unlock()
	sess, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	if err := fn(sess); err != nil {
		return sess, err
	}
	sess.Revision++
	if err := s.write(sess); err != nil {
		return nil, err
	}
	return sess, nil
}

func (s *Store) lock(id string) (func(), error) {
	if _, err := os.Stat(s.sessionDir(id)); err != nil {
		return nil, ErrNoSession
	}
	s.mu.Lock()
	m, ok := s.locks[id]
	if !ok {
		m = &sync.Mutex{}
		s.locks[id] = m
	}
	s.mu.Unlock()
	m.Lock()
	fl := flock.New(filepath.Join(s.sessionDir(id), "lock"))
	if err := fl.Lock(); err != nil {
		m.Unlock()
		return nil, fmt.Errorf("lock session %s: %w", id, err)
	}
	s.own.note(fl.Path())
	return func() { fl.Unlock(); m.Unlock() }, nil
}

func (s *Store) write(sess *Session) error {
	sess.Integrity = nil // whoever writes it vouches for it
	data, err := s.seal(sess)
	if err != nil {
		return fmt.Errorf("encode session: %w", err)
	}
	path := filepath.Join(s.sessionDir(sess.ID), "state.json")
	defer s.own.note(path)
	return atomicfile.WriteFile(path, append(data, '\n'), 0o644)
}

// AuditEntry is one line of a session's audit log.
type AuditEntry struct {
	At     time.Time `json:"at"`
	Actor  string    `json:"actor"`
	Action string    `json:"action"`
	From   int       `json:"from_phase,omitempty"`
	To     int       `json:"to_phase,omitempty"`
	Result string    `json:"result,omitempty"`
	Detail string    `json:"detail,omitempty"`
	// KeyID and MAC sign the line and, through the previous line's MAC,
	// its place in the log.
	KeyID string `json:"key_id,omitempty"`
	MAC   string `json:"mac,omitempty"`
}

// Audit appends an entry to the session's audit log, signed and chained
// to the line before it. With a key, it returns how many lines the log now
// holds and the new line's MAC, for the state to record (checkAudit).
func (s *Store) Audit(id string, e AuditEntry) (lines int, mac string, err error) {
	if s.key != nil {
		before, err := s.readAuditLines(id)
		if err != nil {
			return 0, "", fmt.Errorf("audit %s: %w", id, err)
		}
		prev := ""
		if len(before) > 0 {
			prev = before[len(before)-1].MAC
		}
		e.KeyID, e.MAC = s.key.ID, ""
		e.MAC = auditMAC(s.key, id, prev, e.signed())
		lines = len(before) + 1
	}
	path := filepath.Join(s.sessionDir(id), "audit.jsonl")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return 0, "", fmt.Errorf("audit %s: %w", id, err)
	}
	defer s.own.note(path)
	defer f.Close()
	line, _ := json.Marshal(e)
	if _, err := f.Write(append(line, '\n')); err != nil {
		return 0, "", fmt.Errorf("audit %s: %w", id, err)
	}
	if err := f.Sync(); err != nil {
		return 0, "", fmt.Errorf("audit %s: %w", id, err)
	}
	return lines, e.MAC, nil
}

// ReadAudit returns a session's audit log.
func (s *Store) ReadAudit(id string) ([]AuditEntry, error) {
	return s.readAuditLines(id)
}

func (s *Store) readAuditLines(id string) ([]AuditEntry, error) {
	f, err := os.Open(filepath.Join(s.sessionDir(id), "audit.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []AuditEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var e AuditEntry
		if json.Unmarshal(sc.Bytes(), &e) == nil { // a line torn by a crash is skipped
			out = append(out, e)
		}
	}
	return out, sc.Err()
}

// List returns every session, newest first, and the sessions whose
// state.json holds none.
func (s *Store) List() ([]*Session, []*CorruptError, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("list sessions: %w", err)
	}
	var out []*Session
	var corrupt []*CorruptError
	for _, e := range entries {
		if !e.IsDir() || !ValidID(e.Name()) {
			continue
		}
		sess, err := s.Get(e.Name())
		var ce *CorruptError
		switch {
		case err == nil:
			out = append(out, sess)
		case errors.As(err, &ce):
			corrupt = append(corrupt, ce)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CreatedAt.After(out[j].CreatedAt) })
	return out, corrupt, nil
}

// Delete removes a session and its audit log.
func (s *Store) Delete(id string) error {
	if !ValidID(id) {
		return ErrNoSession
	}
	unlock, err := s.lock(id)
	if err != nil {
		return err
	}
	defer unlock()
	if _, err := os.Stat(filepath.Join(s.sessionDir(id), "state.json")); err != nil {
		return ErrNoSession
	}
	err = os.RemoveAll(s.sessionDir(id))
	for _, name := range []string{"state.json", "audit.jsonl", "lock"} {
		s.own.note(filepath.Join(s.sessionDir(id), name))
	}
	return err
}
