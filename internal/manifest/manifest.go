// Package manifest owns .agentos/manifest.json, the record of every file
// agentos wrote into a project (with the asset version and the SHA-256 of
// what was written), and the store of those written versions, the bases of a
// later three-way merge. The installer records a fresh install; the upgrade
// reads the record to tell the project's edits from its own, and rewrites it.
//
// Bases are kept content-addressed under .agentos/state/upgrade/bases/<sha256>,
// beside the reports of the upgrades. They live outside .agentos/.cache/ on
// purpose: a teammate who pulls the project gets them with the manifest, so
// whoever upgrades next can still merge rather than only keep or replace.
package manifest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/project"
)

// Format is the version of the manifest's own layout.
const Format = 1

// Manifest is what .agentos/manifest.json holds.
type Manifest struct {
	Format int `json:"format"`
	// AssetVersion is the version of the standards and workflows last written.
	AssetVersion string `json:"asset_version"`
	// Source names where they came from: "embedded" (the binary's own) or a
	// git repository and commit.
	Source    string    `json:"source"`
	WrittenAt time.Time `json:"written_at"`
	// Files maps project-relative, slash-separated paths to what was written.
	Files map[string]Entry `json:"files"`
}

// Entry is one written file.
type Entry struct {
	SHA256  string `json:"sha256"`
	Version string `json:"version"` // the asset version that wrote it
	// Written is the SHA-256 of the file as written when that differs from
	// the shipped version (a merge of the project's edits with it); the
	// shipped version is the base of the next merge.
	Written string `json:"written_sha256,omitempty"`
}

// Path is where the manifest lives.
func Path(p project.Paths) string { return filepath.Join(p.AgentOS(), "manifest.json") }

// BasesDir is where the written versions are kept, by SHA-256.
func BasesDir(p project.Paths) string { return filepath.Join(p.StateDir(), "upgrade", "bases") }

// Sum returns the hex SHA-256 of data.
func Sum(data []byte) string {
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// Edited reports whether the file at rel (project-relative, slash-separated)
// is one the manifest records and no longer holds what was recorded: the
// project edited it since install or upgrade wrote it. A file that cannot
// be read is not called edited.
func (m Manifest) Edited(p project.Paths, rel string) (recorded, edited bool) {
	e, ok := m.Files[rel]
	if !ok {
		return false, false
	}
	data, err := os.ReadFile(filepath.Join(p.Root, filepath.FromSlash(rel)))
	return true, err == nil && Sum(data) != e.SHA256
}

// New returns an empty manifest for the given version and source.
func New(version, source string) Manifest {
	return Manifest{Format: Format, AssetVersion: version, Source: source, Files: map[string]Entry{}}
}

// Load reads the project's manifest; found is false when there is none (a
// project installed before manifests existed, or never installed).
func Load(p project.Paths) (m Manifest, found bool, err error) {
	data, err := os.ReadFile(Path(p))
	if errors.Is(err, fs.ErrNotExist) {
		return Manifest{Format: Format, Files: map[string]Entry{}}, false, nil
	}
	if err != nil {
		return Manifest{}, false, fmt.Errorf("read %s: %w", p.Rel(Path(p)), err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return Manifest{}, false, fmt.Errorf("%s is damaged (%v); restore it from .agentos/backups/ or delete it to treat every file as yours", p.Rel(Path(p)), err)
	}
	if m.Format > Format {
		return Manifest{}, false, fmt.Errorf("%s has format %d, newer than this agentos understands (%d); use a newer agentos", p.Rel(Path(p)), m.Format, Format)
	}
	if m.Files == nil {
		m.Files = map[string]Entry{}
	}
	for _, rel := range m.Paths() {
		if err := checkEntry(rel, m.Files[rel]); err != nil {
			return Manifest{}, false, fmt.Errorf("%s: entry %q is refused: %w; nothing was changed (fix or delete the entry, or restore the manifest from .agentos/backups/)", p.Rel(Path(p)), rel, err)
		}
	}
	return m, true, nil
}

// checkEntry checks one entry as it was read. The manifest is a file in the
// project, which a cloned repository or a test run by a gate writes as it
// likes: an entry naming a path outside the project would have an upgrade
// read, replace or delete a file there, and a sum that is not a sum would
// have it read any file as a base.
func checkEntry(rel string, e Entry) error {
	if err := CheckPath(rel); err != nil {
		return err
	}
	if e.SHA256 != "" && !isSum(e.SHA256) {
		return fmt.Errorf("sha256 %q is not a SHA-256", e.SHA256)
	}
	if e.Written != "" && !isSum(e.Written) {
		return fmt.Errorf("written_sha256 %q is not a SHA-256", e.Written)
	}
	return nil
}

// CheckPath checks that rel is a path a manifest may record: relative to
// the project root, slash-separated, clean, and local (filepath.IsLocal), so
// that joined to the root it names a file in the project. Whether a folder
// on the way is a link out of the project is the caller's to check, on disk.
func CheckPath(rel string) error {
	switch {
	case rel == "":
		return errors.New("the path is empty")
	case strings.Contains(rel, `\`):
		return errors.New("the path has a backslash; manifest paths are slash-separated")
	case path.Clean(rel) != rel:
		return errors.New("the path is not clean (it has .., . or a doubled or trailing slash)")
	case !filepath.IsLocal(filepath.FromSlash(rel)):
		return errors.New("the path leaves the project (absolute, .., or a reserved name)")
	}
	return nil
}

// isSum reports whether s is a hex SHA-256 as Sum writes it.
func isSum(s string) bool {
	if len(s) != sha256.Size*2 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// Save writes the manifest atomically.
func Save(p project.Paths, m Manifest) error {
	m.Format = Format
	if m.WrittenAt.IsZero() {
		m.WrittenAt = time.Now().UTC()
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encode manifest: %w", err)
	}
	if err := os.MkdirAll(p.AgentOS(), 0o755); err != nil {
		return fmt.Errorf("write manifest: %w", err)
	}
	return atomicfile.WriteFile(Path(p), append(data, '\n'), 0o644)
}

// Record adds a written file to m and keeps its content as a base.
func Record(p project.Paths, m *Manifest, rel string, data []byte) error {
	sum, err := PutBase(p, data)
	if err != nil {
		return err
	}
	m.Files[rel] = Entry{SHA256: sum, Version: m.AssetVersion}
	return nil
}

// PutBase stores data under its SHA-256 unless it is there already, and
// returns the sum.
func PutBase(p project.Paths, data []byte) (string, error) {
	sum := Sum(data)
	path := filepath.Join(BasesDir(p), sum)
	if have, err := os.ReadFile(path); err == nil && Sum(have) == sum {
		return sum, nil
	}
	if err := os.MkdirAll(BasesDir(p), 0o755); err != nil {
		return "", fmt.Errorf("store base: %w", err)
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return "", fmt.Errorf("store base: %w", err)
	}
	return sum, nil
}

// Base returns the stored content with this SHA-256, or nil when it is
// missing or does not match its name (a damaged base is no base).
func Base(p project.Paths, sum string) []byte {
	if !isSum(sum) {
		return nil // not a name in the store: never a path to read
	}
	data, err := os.ReadFile(filepath.Join(BasesDir(p), sum))
	if err != nil || Sum(data) != sum {
		return nil
	}
	return data
}

// PruneBases deletes the stored bases m no longer names.
func PruneBases(p project.Paths, m Manifest) error {
	keep := map[string]bool{}
	for _, e := range m.Files {
		keep[e.SHA256] = true
	}
	entries, err := os.ReadDir(BasesDir(p))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("prune bases: %w", err)
	}
	for _, e := range entries {
		if !keep[e.Name()] {
			if err := os.Remove(filepath.Join(BasesDir(p), e.Name())); err != nil {
				return fmt.Errorf("prune bases: %w", err)
			}
		}
	}
	return nil
}

// Paths returns the recorded paths, sorted.
func (m Manifest) Paths() []string {
	out := make([]string, 0, len(m.Files))
	for k := range m.Files {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
