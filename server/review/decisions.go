package review

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"sync"
	"time"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/workflow"
)

// The person's decisions on specs, as the review page records them: what
// they approved or asked changes on, when, and the bytes of each file they
// decided on. The next review shows each file against the version the
// person last decided on (rejected versions too, which the workflow's
// approval record does not keep), and the history of their decisions with
// what changed each time.
//
// It lives under .agentos/.cache/review/, not .agentos/state/: the person's
// page writes it at any time, and a gate's run must not take that for a
// change of the rules it is judged by. No agent tool reads or writes
// .agentos/.cache/. It is a record for the person's eyes; nothing an
// approval binds depends on it.

// maxDecisions bounds the history kept per spec.
const maxDecisions = 50

// decision is one decision a person made on a spec from the page.
type decision struct {
	Action  string            `json:"action"` // decidedApproved, decidedChanges or decidedSeen
	By      string            `json:"by"`
	Via     string            `json:"via"`
	At      time.Time         `json:"at"`
	Session string            `json:"session,omitempty"`
	Comment string            `json:"comment,omitempty"`
	Files   map[string]string `json:"files"` // path → SHA-256 of the version decided on
	// Comments are the comments on lines sent with a request for changes.
	Comments []workflow.LineComment `json:"comments,omitempty"`
}

// Decision actions.
const (
	decidedApproved = "approved"
	decidedChanges  = "changes requested"
	// decidedSeen is no decision: the person marked the version as read.
	decidedSeen = "marked as seen"
)

// decisions is the record of one person (one file per user of the machine).
type decisions struct {
	mu   sync.Mutex
	dir  string // .agentos/.cache/review
	user string
}

type decisionFile struct {
	Specs map[string][]decision `json:"specs"`
}

var safeUser = regexp.MustCompile(`[^A-Za-z0-9._-]`)

func newDecisions(cacheDir, user string) *decisions {
	return &decisions{dir: filepath.Join(cacheDir, "review"), user: safeUser.ReplaceAllString(user, "_")}
}

func (d *decisions) path() string { return filepath.Join(d.dir, d.user+".json") }

func (d *decisions) load() (*decisionFile, error) {
	f := &decisionFile{Specs: map[string][]decision{}}
	data, err := os.ReadFile(d.path())
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the review page's record of decisions: %w", err)
	}
	if err := json.Unmarshal(data, f); err != nil {
		return nil, fmt.Errorf("read the review page's record of decisions (%s): %w", d.path(), err)
	}
	if f.Specs == nil {
		f.Specs = map[string][]decision{}
	}
	return f, nil
}

// of returns the decisions on spec, oldest first.
func (d *decisions) of(spec string) ([]decision, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, err := d.load()
	if err != nil {
		return nil, err
	}
	return f.Specs[spec], nil
}

// add records dec on spec and keeps the bytes of each file it names whose
// hash files holds (the spec as the page showed it).
func (d *decisions) add(spec string, dec decision, files map[string]workflow.SpecFile) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := os.MkdirAll(filepath.Join(d.dir, "files"), 0o700); err != nil {
		return fmt.Errorf("record a decision: %w", err)
	}
	for path, sum := range dec.Files {
		if f, ok := files[path]; ok && sha256Hex(f.Bound) == sum {
			d.keep(sum, f.Bound)
		}
	}
	rec, err := d.load()
	if err != nil {
		return err
	}
	list := append(rec.Specs[spec], dec)
	sort.SliceStable(list, func(i, j int) bool { return list[i].At.Before(list[j].At) })
	if len(list) > maxDecisions {
		list = list[len(list)-maxDecisions:]
	}
	rec.Specs[spec] = list
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the decisions: %w", err)
	}
	if err := atomicfile.WriteFile(d.path(), append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("record a decision: %w", err)
	}
	return nil
}

// keep stores data under its SHA-256, once. Failing loses only a diff.
func (d *decisions) keep(sum string, data []byte) {
	path := filepath.Join(d.dir, "files", sum)
	if _, err := os.Stat(path); err == nil {
		return
	}
	atomicfile.WriteFile(path, data, 0o600)
}

// file returns the bytes kept under sum, checked against it.
func (d *decisions) file(sum string) ([]byte, bool) {
	if !hexSum.MatchString(sum) {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join(d.dir, "files", sum))
	if err != nil || sha256Hex(data) != sum {
		return nil, false
	}
	return data, true
}

var hexSum = regexp.MustCompile(`^[0-9a-f]{64}$`)

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
