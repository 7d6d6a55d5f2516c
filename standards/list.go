package standards

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Listed is one standard of a folder, as List gives it.
type Listed struct {
	Path     string   `json:"path"` // slash-separated, relative to the folder listed
	Title    string   `json:"title"`
	Keywords []string `json:"keywords"`
}

// maxListed caps what List returns: a project has tens of standards.
const maxListed = 500

// List returns the standards under root (every regular .md file but
// README.md, as Files finds them; links are left out, so a listing never
// reads through one), in path order, at most 500. A root that does not
// exist holds none; a folder or file below it that cannot be read is left
// out.
func List(root string) ([]Listed, error) {
	out := []Listed{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && path == root:
			if os.IsNotExist(err) {
				return filepath.SkipAll
			}
			return err
		case err != nil:
			return filepath.SkipDir
		case len(out) == maxListed:
			return filepath.SkipAll
		case d.IsDir():
			if path != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		case !d.Type().IsRegular() || !isStandardName(d.Name()):
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		st := Parse(path, data)
		rel, _ := filepath.Rel(root, path)
		out = append(out, Listed{Path: filepath.ToSlash(rel), Title: st.Title, Keywords: st.Keywords})
		return nil
	})
	return out, err
}
