package review

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/workflow"
)

// The person's drafts: what they typed on a spec and did not send yet, the
// comment of their decision and their comments on lines. The page keeps
// them here, on the server, per person and spec, not only in the browser:
// they survive a refused decision, a reload, a closed link and a stopped
// server, and a new link on another port finds them (a browser keeps
// what a page stores by its origin, port included). They are emptied when
// a decision on the spec goes through. Like the decisions, they live
// under .agentos/.cache/review/, which no agent tool reads or writes.

// draft is one spec's drafts.
type draft struct {
	// UpdatedAt is when the page last changed it (the page's clock):
	// the page takes the newer of this and the copy in the browser.
	UpdatedAt int64         `json:"updated_at"`
	Comment   string        `json:"comment,omitempty"`
	Comments  []lineComment `json:"comments,omitempty"`
}

// lineComment is a comment on lines as the page drafts and sends it: the
// engine's, with the page's id for it.
type lineComment struct {
	ID string `json:"id"`
	workflow.LineComment
}

func (d *draft) empty() bool {
	return d == nil || (strings.TrimSpace(d.Comment) == "" && len(d.Comments) == 0)
}

// Bounds of a draft: a spec is a handful of files.
const (
	maxDraftBytes = 1 << 20
	maxDraftIDLen = 64
)

type drafts struct {
	mu  sync.Mutex
	dir string // .agentos/.cache/review/drafts/<user>
}

func newDrafts(cacheDir, user string) *drafts {
	return &drafts{dir: filepath.Join(cacheDir, "review", "drafts", safeUser.ReplaceAllString(user, "_"))}
}

func (d *drafts) path(spec string) (string, error) {
	if _, err := workflow.SpecDir(spec); err != nil {
		return "", err
	}
	return filepath.Join(d.dir, spec+".json"), nil
}

// of returns the drafts on spec; nil when there are none.
func (d *drafts) of(spec string) (*draft, error) {
	path, err := d.path(spec)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the drafts on %s: %w", spec, err)
	}
	var dr draft
	if err := json.Unmarshal(data, &dr); err != nil {
		return nil, fmt.Errorf("read the drafts on %s (%s): %w", spec, path, err)
	}
	return &dr, nil
}

// save keeps dr as the drafts on spec, replacing what was; an empty one
// removes them.
func (d *drafts) save(spec string, dr *draft) error {
	path, err := d.path(spec)
	if err != nil {
		return err
	}
	if dr.empty() {
		return d.drop(spec)
	}
	for _, c := range dr.Comments {
		if c.ID == "" || len(c.ID) > maxDraftIDLen || c.File == "" || c.Line < 1 {
			return &workflow.Error{Kind: workflow.KindInvalid, Field: "comments", Msg: "a draft comment needs an id, a file and a line"}
		}
	}
	if len(dr.Comments) > workflow.MaxLineComments {
		return &workflow.Error{Kind: workflow.KindInvalid, Field: "comments", Msg: fmt.Sprintf("at most %d comments on lines go with one request", workflow.MaxLineComments)}
	}
	if dr.UpdatedAt == 0 {
		dr.UpdatedAt = time.Now().UnixMilli()
	}
	data, err := json.MarshalIndent(dr, "", "  ")
	if err != nil {
		return err
	}
	if len(data) > maxDraftBytes {
		return &workflow.Error{Kind: workflow.KindInvalid, Field: "comments", Msg: "the drafts on this spec are over 1 MiB: send or delete some"}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := os.MkdirAll(d.dir, 0o700); err != nil {
		return fmt.Errorf("keep the drafts: %w", err)
	}
	if err := atomicfile.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("keep the drafts: %w", err)
	}
	return nil
}

// drop removes the drafts on spec.
func (d *drafts) drop(spec string) error {
	path, err := d.path(spec)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("empty the drafts on %s: %w", spec, err)
	}
	return nil
}
