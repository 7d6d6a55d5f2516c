// Package harness holds the one rule for which parts of a project decide
// what its tests run and how they are counted — the test harness. A person
// approving a spec approves the harness with it, and a change to the harness
// while the spec is executed stops the session until a person confirms it:
// otherwise the agent being judged could edit the judge (an `addopts` that
// deselects the failing test, a conftest hook that reports every test
// passed, a coverage omit, a package.json test script that prints a report).
//
// Dedicated files count whole, wherever they are in the project:
//
//   - pytest: conftest.py, pytest.ini, .pytest.ini, tox.ini
//   - coverage.py: .coveragerc
//   - vitest, vite, jest: vitest.config.*, vitest.workspace.*, vite.config.*,
//     jest.config.*, babel.config.*, .babelrc*, and every file of the project
//     these configs (or package.json's "jest" section) name by a path, such as
//     setup, teardown and reporter files (named files are not followed further)
//   - c8, nyc: .c8rc*, .nycrc*
//
// Shared files count only by the sections that configure tests, so an honest
// edit elsewhere in them (adding a dependency) changes nothing:
//
//   - pyproject.toml: the [tool.pytest*], [tool.coverage*] and [tool.tox*] tables
//   - setup.cfg: the [tool:pytest] and [coverage:*] sections
//   - package.json: "scripts", "jest", "vitest", "c8", "nyc", "overrides",
//     "resolutions", "pnpm", and dependencies given by a local path (file:,
//     link:, portal:), which swap a package as go.mod's replace does
//   - go.mod, go.work: the replace directives
//
// Folders that test runners do not collect from, or that hold other people's
// code, are not searched: hidden folders (.git, .agentos, .venv, …),
// node_modules, vendor, venv, __pycache__, build, dist and *.egg-info.
package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/agentos-dev/agentos/internal/pathpolicy"
)

// Part is one piece of the harness: Name says where it is ("pytest.ini",
// "tests/conftest.py", "pyproject.toml [tool.pytest]", "package.json
// scripts", "go.mod replace"), Data is what decides — the whole file, or
// the section in a canonical form that a diff shows well.
type Part struct {
	Name string
	Data []byte
}

// maxFileBytes bounds what one file may add: configuration files are small,
// and a larger one is hashed by its first bytes and its size.
const maxFileBytes = 4 << 20

// skipDir reports whether the folder name holds nothing a test runner
// collects harness from (pytest's default norecursedirs, and vendored code).
func skipDir(name string) bool {
	switch name {
	case "node_modules", "vendor", "venv", "__pycache__", "build", "dist":
		return true
	}
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".egg-info") || strings.HasSuffix(name, ".egg")
}

// wholeFile reports whether a file of this name counts whole.
func wholeFile(name string) bool {
	switch name {
	case "conftest.py", "pytest.ini", ".pytest.ini", "tox.ini", ".coveragerc", ".babelrc", ".c8rc", ".nycrc":
		return true
	}
	for _, prefix := range []string{"vitest.config.", "vitest.workspace.", "vite.config.", "jest.config.", "babel.config.", ".babelrc.", ".c8rc.", ".nycrc."} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// namesFiles reports whether a whole file is a JavaScript runner config whose
// named files count too.
func namesFiles(name string) bool {
	for _, prefix := range []string{"vitest.config.", "vitest.workspace.", "vite.config.", "jest.config."} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// Read returns the harness of the project at root, sorted by name.
func Read(root string) ([]Part, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, fmt.Errorf("read the test harness: %w", err)
	}
	defer r.Close()
	parts := map[string][]byte{}
	var named []namedBy // files named by a config, read once the walk is done
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // an unreadable folder holds nothing a runner reads either
		}
		if d.IsDir() {
			if p != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		name := d.Name()
		if !wholeFile(name) && !slices.Contains([]string{"pyproject.toml", "setup.cfg", "package.json", "go.mod", "go.work"}, name) {
			return nil
		}
		rel := relSlash(root, p)
		data, err := readFile(r, rel)
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed since the folder was listed (an editor saving it anew)
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", rel, err)
		}
		switch {
		case wholeFile(name):
			parts[rel] = data
			if namesFiles(name) {
				named = append(named, namedBy{dir: filepath.Dir(p), text: data})
			}
		case name == "pyproject.toml":
			pyproject(parts, rel, data)
		case name == "setup.cfg":
			iniSections(parts, rel, data, func(s string) bool { return s == "tool:pytest" || strings.HasPrefix(s, "coverage:") })
		case name == "package.json":
			if jest := packageJSON(parts, rel, data); jest != nil {
				named = append(named, namedBy{dir: filepath.Dir(p), text: jest})
			}
		default: // go.mod, go.work
			if r := goReplace(data); len(r) > 0 {
				parts[rel+" replace"] = r
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the test harness: %w", err)
	}
	for _, n := range named {
		for _, file := range n.files(root) {
			rel := relSlash(root, file)
			if _, ok := parts[rel]; ok {
				continue
			}
			if data, err := readFile(r, rel); err == nil {
				parts[rel] = data
			}
		}
	}
	out := make([]Part, 0, len(parts))
	for name, data := range parts {
		out = append(out, Part{Name: name, Data: data})
	}
	slices.SortFunc(out, func(a, b Part) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func relSlash(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}

// readFile reads rel through the path policy, as every file read for an
// agent is: a link, a pipe or a file with another hard link is not followed
// or opened (it could lead outside the project, or never end), and the part
// holds what it is instead, so a change to it is still seen.
func readFile(r *os.Root, rel string) ([]byte, error) {
	f, _, err := pathpolicy.OpenFile(r, rel)
	var refusal *pathpolicy.Refusal
	if errors.As(err, &refusal) {
		what := "(not read: " + refusal.Error() + ")"
		if target, lerr := r.Readlink(rel); lerr == nil {
			what = "(a symbolic link to " + target + ", not followed)"
		}
		return []byte(what), nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	n, err := b.ReadFrom(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if n > maxFileBytes {
		fi, _ := f.Stat()
		return append(b.Bytes()[:maxFileBytes], fmt.Sprintf("\n… (%d bytes in all)", fi.Size())...), nil
	}
	return b.Bytes(), nil
}

// pyproject adds the test tables of a pyproject.toml. A file that is not
// TOML counts whole: pytest would not read it either, and what it means
// once fixed cannot be known.
func pyproject(parts map[string][]byte, rel string, data []byte) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		parts[rel+" (not TOML: the whole file)"] = data
		return
	}
	tool, _ := doc["tool"].(map[string]any)
	for k, v := range tool {
		if strings.HasPrefix(k, "pytest") || strings.HasPrefix(k, "coverage") || strings.HasPrefix(k, "tox") {
			parts[rel+" [tool."+k+"]"] = canonicalJSON(v)
		}
	}
}

// iniSections adds the sections of an INI file that keep says count: each
// from its header to the next header at the start of a line, as
// configparser reads them (an indented line continues a value).
func iniSections(parts map[string][]byte, rel string, data []byte, keep func(string) bool) {
	var cur string
	var buf []byte
	flush := func() {
		if cur != "" && keep(cur) {
			parts[rel+" ["+cur+"]"] = append(parts[rel+" ["+cur+"]"], buf...)
		}
	}
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if strings.HasPrefix(line, "[") {
			if end := strings.Index(line, "]"); end > 0 {
				flush()
				cur, buf = strings.TrimSpace(line[1:end]), nil
			}
		}
		buf = append(buf, line...)
	}
	flush()
}

// packageKeys are the members of package.json that decide how tests run.
var packageKeys = []string{"scripts", "jest", "vitest", "c8", "nyc", "overrides", "resolutions", "pnpm"}

// packageJSON adds the test members of a package.json and returns its
// "jest" member (nil when there is none), whose named files count too.
func packageJSON(parts map[string][]byte, rel string, data []byte) []byte {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		parts[rel+" (not JSON: the whole file)"] = data
		return nil
	}
	var jest []byte
	for _, k := range packageKeys {
		if raw, ok := doc[k]; ok {
			parts[rel+" "+k] = canonicalJSON(raw)
			if k == "jest" {
				jest = raw
			}
		}
	}
	local := map[string]string{}
	for _, k := range []string{"dependencies", "devDependencies", "optionalDependencies", "peerDependencies"} {
		var deps map[string]any
		json.Unmarshal(doc[k], &deps)
		for name, v := range deps {
			if s, ok := v.(string); ok && localSpec(s) {
				local[k+" "+name] = s
			}
		}
	}
	if len(local) > 0 {
		parts[rel+" local dependencies"] = canonicalJSON(local)
	}
	return jest
}

// localSpec reports whether a dependency's version names a path on disk.
func localSpec(s string) bool {
	for _, p := range []string{"file:", "link:", "portal:", "./", "../", "/", "~/"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// canonicalJSON is v (or the JSON in v, a json.RawMessage) indented with
// sorted keys: the same settings hash the same however they are written.
func canonicalJSON(v any) []byte {
	if raw, ok := v.(json.RawMessage); ok {
		var decoded any
		if json.Unmarshal(raw, &decoded) == nil {
			v = decoded
		}
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return []byte(fmt.Sprint(v))
	}
	return append(data, '\n')
}

var goComment = regexp.MustCompile(`//.*$`)

// goReplace returns the replace directives of a go.mod or go.work, one to a
// line with their spacing and comments dropped.
func goReplace(data []byte) []byte {
	var out []string
	block := false
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(goComment.ReplaceAllString(line, ""))
		switch {
		case len(f) == 0:
		case block && f[0] == ")":
			block = false
		case block:
			out = append(out, "replace "+strings.Join(f, " "))
		case f[0] == "replace" && len(f) == 2 && f[1] == "(":
			block = true
		case f[0] == "replace" && len(f) > 1 && f[1] == "(": // replace ( a => b ) on one line is not Go syntax, but count it
			out = append(out, strings.Join(f, " "))
		case f[0] == "replace":
			out = append(out, strings.Join(f, " "))
		}
	}
	if len(out) == 0 {
		return nil
	}
	return []byte(strings.Join(out, "\n") + "\n")
}

// namedBy is a JavaScript config, or package.json's "jest" member, whose
// named files count: setupFiles, globalSetup, reporters and the like.
type namedBy struct {
	dir  string // where its relative paths start
	text []byte
}

var quoted = regexp.MustCompile("['\"`]([^'\"`\\n]{1,300})['\"`]")

// jsExtensions are tried after a name as written, as the runners resolve
// modules.
var jsExtensions = []string{"", ".ts", ".js", ".mjs", ".cjs", ".mts", ".cts", ".tsx", ".jsx", "/index.ts", "/index.js"}

// files returns every file of the project under root that a string of the
// config names, relative to the config's folder (or to <rootDir>).
func (n namedBy) files(root string) []string {
	var out []string
	for _, m := range quoted.FindAllSubmatch(n.text, -1) {
		s := strings.TrimPrefix(string(m[1]), "<rootDir>/")
		if strings.Contains(s, "://") || strings.ContainsAny(s, "*?{}") || s == "." {
			continue
		}
		base := filepath.Join(n.dir, filepath.FromSlash(path.Clean(s)))
		for _, ext := range jsExtensions {
			p := base + filepath.FromSlash(ext)
			if !inside(root, p) {
				break
			}
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
