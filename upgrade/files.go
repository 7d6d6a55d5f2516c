package upgrade

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agentos-dev/agentos/internal/manifest"
	"github.com/agentos-dev/agentos/internal/project"
)

// NewSuffix is appended to a file's name for the new version of a file the
// project edited where the merge conflicts.
const NewSuffix = ".agentos-new"

// FilePlan is the plan for one shipped file.
type FilePlan struct {
	Path   string `json:"path"` // relative to the project root, slash-separated
	Action Action `json:"action"`
	// text is what to write: the new version (update, add), the merge, or
	// for a conflict the new version to write beside the file.
	text []byte
	// theirs is the new version, recorded as the next base.
	theirs []byte
	// ours is the project's version, kept for a merge's validation.
	ours []byte
	// needsWrite is set for a conflict whose .agentos-new must be (re)written.
	needsWrite bool
}

// Changes reports whether carrying the plan out writes anything.
func (f FilePlan) Changes() bool {
	switch f.Action {
	case Update, Merge, Add, Remove:
		return true
	case Conflict:
		return f.needsWrite
	}
	return false
}

// planFiles decides every file of the source's trees against the manifest
// and the project, and returns the manifest the project has once the plan
// is carried out. Only the trees the source carries are looked at.
func planFiles(p project.Paths, src Source, old manifest.Manifest) ([]FilePlan, manifest.Manifest, error) {
	// Every path is checked before any is planned, so that a refused one
	// stops the upgrade before it writes anything.
	for _, rel := range old.Paths() {
		if err := checkFilePath(p, rel); err != nil {
			return nil, manifest.Manifest{}, fmt.Errorf("%s: entry %q is refused: %w; nothing was changed", p.Rel(manifest.Path(p)), rel, err)
		}
	}
	for tree, files := range src.Trees {
		for rel := range files {
			if _, recorded := old.Files[rel]; recorded {
				continue
			}
			if err := checkFilePath(p, rel); err != nil {
				return nil, manifest.Manifest{}, fmt.Errorf("%s: %s file %q is refused: %w; nothing was changed", src.Name, tree, rel, err)
			}
		}
	}
	next := manifest.New(src.Version, src.Name)
	for rel, e := range old.Files {
		if !inTrees(rel, src.Trees) {
			next.Files[rel] = e // a folder this source does not carry
		}
	}
	var plans []FilePlan
	for tree, files := range src.Trees {
		paths := map[string]bool{}
		for rel := range files {
			paths[rel] = true
		}
		for rel := range old.Files {
			if strings.HasPrefix(rel, tree+"/") {
				paths[rel] = true
			}
		}
		for rel := range paths {
			fp, entry, keep, err := planFile(p, rel, old.Files[rel], files[rel], src.Version)
			if err != nil {
				return nil, manifest.Manifest{}, err
			}
			if keep {
				next.Files[rel] = entry
			}
			plans = append(plans, fp)
		}
	}
	sort.Slice(plans, func(i, j int) bool { return plans[i].Path < plans[j].Path })
	return plans, next, nil
}

// checkFilePath checks a project-relative path the upgrade may read, write
// or delete: clean and local (manifest.CheckPath), and, with every symbolic
// link resolved, the file (or the folder a write would create it in) still
// in the project. Manifest entries are read from a file in the project, so
// neither a ".." nor a linked folder may take the upgrade outside it.
func checkFilePath(p project.Paths, rel string) error {
	if err := manifest.CheckPath(rel); err != nil {
		return err
	}
	return resolvedInside(p.Root, filepath.Join(p.Root, filepath.FromSlash(rel)))
}

func inTrees(rel string, trees map[string]map[string][]byte) bool {
	for tree := range trees {
		if strings.HasPrefix(rel, tree+"/") {
			return true
		}
	}
	return false
}

// planFile decides one file and the manifest entry it leaves (keep false:
// no entry, the file is no longer ours).
func planFile(p project.Paths, rel string, old manifest.Entry, theirs []byte, version string) (FilePlan, manifest.Entry, bool, error) {
	abs := filepath.Join(p.Root, filepath.FromSlash(rel))
	ours, err := readRegular(abs)
	if err != nil {
		return FilePlan{}, manifest.Entry{}, false, err
	}
	var base []byte
	if old.SHA256 != "" {
		base = manifest.Base(p, old.SHA256)
		if base == nil && ours != nil && manifest.Sum(ours) == writtenSum(old) {
			base = ours // the base is lost, but the file is as we wrote it
		}
	}
	if base != nil && ours != nil && !bytes.Equal(base, ours) && sameIgnoringCR(base, ours) {
		ours = base // only line endings differ (a Windows checkout): untouched
	}
	d := Decide(base, ours, theirs)
	fp := FilePlan{Path: rel, Action: d.Action, text: d.Text, theirs: theirs}
	if d.Action == Merge {
		fp.ours = ours
	}
	newEntry := manifest.Entry{SHA256: manifest.Sum(theirs), Version: version}
	switch d.Action {
	case Update, Add:
		return fp, newEntry, true, nil
	case Merge:
		newEntry.Written = manifest.Sum(d.Text)
		return fp, newEntry, true, nil
	case Unchanged:
		if theirs == nil {
			return fp, old, old.SHA256 != "", nil
		}
		return fp, newEntry, true, nil // ours is theirs: record it, base and all
	case Keep:
		return fp, old, true, nil
	case Conflict:
		have, err := readRegular(abs + NewSuffix)
		if err != nil {
			return FilePlan{}, manifest.Entry{}, false, err
		}
		fp.needsWrite = !bytes.Equal(have, theirs)
		// The old base stays, so the conflict is found again until the
		// project resolves it; a resolution that took our lines merges cleanly.
		return fp, old, old.SHA256 != "", nil
	case StayDeleted:
		return fp, old, true, nil
	default: // Remove, KeepRemoved: no longer ours
		return fp, manifest.Entry{}, false, nil
	}
}

// writtenSum is the SHA-256 of what was written for e.
func writtenSum(e manifest.Entry) string {
	if e.Written != "" {
		return e.Written
	}
	return e.SHA256
}

// readRegular reads a file that may not exist (nil, nil). Anything but a
// regular file where a shipped file belongs is an error: the upgrade does not
// guess what a folder or a device there means.
func readRegular(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file; move it away and run the upgrade again", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// sameIgnoringCR compares two texts ignoring the difference between CRLF
// and LF line endings, which git may introduce on checkout.
func sameIgnoringCR(a, b []byte) bool {
	crlf, lf := []byte("\r\n"), []byte("\n")
	return bytes.Equal(bytes.ReplaceAll(a, crlf, lf), bytes.ReplaceAll(b, crlf, lf))
}
