package installer

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/internal/buildinfo"
	"github.com/agentos-dev/agentos/internal/filesum"
	"github.com/agentos-dev/agentos/internal/manifest"
	"github.com/agentos-dev/agentos/internal/project"
)

// AssetVersion is the version of the standards and workflows this binary
// ships: its release version, with the commit for a development build.
func AssetVersion() string {
	bi := buildinfo.Get()
	if bi.Version == "dev" && bi.Commit != "" {
		return bi.Version + "+" + bi.Commit[:min(12, len(bi.Commit))]
	}
	return bi.Version
}

// ShippedTrees maps each embedded tree the installer copies as it is to its
// folder in the project, relative to the root.
func ShippedTrees(p project.Paths) map[string]string {
	return map[string]string{
		assets.UniversalStandards: p.Rel(filepath.Join(p.Standards(), "universal")),
		assets.Workflows:          p.Rel(p.Workflows()),
	}
}

// recordManifest records in .agentos/manifest.json every shipped file that
// holds what this binary ships, and the pinned binary. A file the project
// changed keeps the entry an earlier install or upgrade recorded for it, so
// a later upgrade can still tell the project's edit from ours. pinnedFrom
// is the binary the pinned copy holds the bytes of ("" when install did not
// pin): its digest is remembered per build, the new copy's is not yet.
func recordManifest(p project.Paths, pinnedFrom string) error {
	old, _, err := manifest.Load(p)
	if err != nil {
		return fmt.Errorf("install: %w", err)
	}
	m := manifest.New(AssetVersion(), "embedded")
	maps.Copy(m.Files, old.Files)
	for root, target := range ShippedTrees(p) {
		files, err := shippedFiles(root, filepath.Join(p.Root, filepath.FromSlash(target)))
		if err != nil {
			return err
		}
		for _, f := range files {
			have, err := os.ReadFile(f.target)
			if err != nil || string(have) != string(f.data) {
				continue
			}
			rel := p.Rel(f.target)
			if e, ok := old.Files[rel]; ok && e.SHA256 == manifest.Sum(f.data) && manifest.Base(p, e.SHA256) != nil {
				continue // recorded already, by this or an earlier version that shipped the same text
			}
			if err := manifest.Record(p, &m, rel, f.data); err != nil {
				return fmt.Errorf("install: %w", err)
			}
		}
	}
	if pinnedFrom == "" {
		pinnedFrom = PinnedBinary(p)
	}
	if sum, err := filesum.Sum(pinnedFrom); err == nil {
		m.Files[p.Rel(PinnedBinary(p))] = manifest.Entry{SHA256: sum, Version: m.AssetVersion}
	}
	if maps.Equal(m.Files, old.Files) {
		return nil
	}
	if err := manifest.Save(p, m); err != nil {
		return fmt.Errorf("install: %w", err)
	}
	return nil
}

// RefreshedGitignore returns the project's .gitignore as it is and as it is
// with the managed block refreshed (added when missing); before is nil when
// the file does not exist. Every line outside the block is kept.
func RefreshedGitignore(p project.Paths) (path string, before, after []byte, perm os.FileMode, err error) {
	path = filepath.Join(p.Root, ".gitignore")
	before, perm, exists, err := readOptional(path)
	if err != nil {
		return path, nil, nil, 0, err
	}
	if !exists {
		return path, nil, renderBlock("\n"), 0o644, nil
	}
	after, err = mergeGitignore(before)
	if err != nil {
		return path, nil, nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return path, before, after, perm, nil
}
