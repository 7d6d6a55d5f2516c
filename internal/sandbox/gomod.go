package sandbox

// Where the command cannot read the person's Go module cache (Windows: an
// AppContainer reads nothing under the user's profile), the modules the
// project's go.sum files name are copied from that cache's downloads into a
// folder the command reads as its module proxy. go.sum is the project's,
// which the agent writes: a name in it reaches no file but a module's
// download.

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"
)

// modVersion is a module's version a go.sum names; goMod when it names only
// the module's go.mod.
type modVersion struct {
	Path, Version string
	GoMod         bool
}

// parseGoSum returns the module versions of a go.sum file, leaving out every
// line whose module path or version is not one a module can have.
func parseGoSum(data []byte) []modVersion {
	var out []modVersion
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 {
			continue
		}
		m := modVersion{Path: f[0], Version: f[1]}
		if v, ok := strings.CutSuffix(m.Version, "/go.mod"); ok {
			m.Version, m.GoMod = v, true
		}
		if validModulePath(m.Path) && validModuleVersion(m.Version) {
			out = append(out, m)
		}
	}
	return out
}

// validModulePath accepts what a module path may be made of: letters,
// digits and -._~+ in slash-separated elements, none empty, none starting
// with a dot.
func validModulePath(p string) bool {
	if p == "" || len(p) > 1024 {
		return false
	}
	for _, elem := range strings.Split(p, "/") {
		if elem == "" || elem[0] == '.' {
			return false
		}
		for _, r := range elem {
			if r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-._~+", r)) {
				return false
			}
		}
	}
	return true
}

// validModuleVersion accepts a version: v, then letters, digits and .-+.
func validModuleVersion(v string) bool {
	if len(v) < 2 || v[0] != 'v' || len(v) > 256 || strings.Contains(v, "..") {
		return false
	}
	for _, r := range v {
		if r > unicode.MaxASCII || !(unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(".-+", r)) {
			return false
		}
	}
	return true
}

// escapeModule is the module cache's spelling of a path or version: each
// capital letter becomes ! and the letter in lower case.
func escapeModule(s string) string {
	var b strings.Builder
	for _, r := range s {
		if 'A' <= r && r <= 'Z' {
			b.WriteByte('!')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// goSumModules returns the module versions every go.sum of the project at
// root names, once each; vendor, node_modules, testdata and hidden folders
// are not searched.
func goSumModules(root string) []modVersion {
	seen := map[modVersion]bool{}
	var out []modVersion
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (n == "vendor" || n == "node_modules" || n == "testdata" || strings.HasPrefix(n, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != "go.sum" || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		for _, m := range parseGoSum(data) {
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
		return nil
	})
	return out
}

// copyModules copies from download (a module cache's cache/download) into
// dst, at the same places, what a proxy serves for mods: each version's
// .info and .mod, and its .zip unless go.sum names only its go.mod. It
// returns how many files it copied; a file the cache lacks is left out.
func copyModules(download, dst string, mods []modVersion) (int, error) {
	n := 0
	for _, m := range mods {
		dir := path.Join(escapeModule(m.Path), "@v")
		exts := []string{".info", ".mod"}
		if !m.GoMod {
			exts = append(exts, ".zip")
		}
		for _, ext := range exts {
			rel := path.Join(dir, escapeModule(m.Version)+ext)
			from := filepath.Join(download, filepath.FromSlash(rel))
			to := filepath.Join(dst, filepath.FromSlash(rel))
			if r, err := filepath.Rel(download, from); err != nil || cleanRel(r) == "" {
				continue // cannot happen with a valid path; never outside
			}
			fi, err := os.Lstat(from)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			if _, err := os.Lstat(to); err == nil {
				continue
			}
			if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
				return n, err
			}
			if err := copyFile(from, to, fi); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return n, err
			}
			n++
		}
	}
	return n, nil
}
