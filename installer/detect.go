package installer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// maxScannedFiles caps the detection walk so that installing into a huge
// repository stays fast. The cap stops the reading of files, never the
// listing of top-level folders: each folder the walk did not reach still
// gets a quick look (see peekFiles).
var maxScannedFiles = 20000 // a variable so tests can lower it

// peekFiles is how many files the quick look at a top-level folder the
// capped walk did not reach reads before it concludes there is no source.
var peekFiles = 200 // a variable so tests can lower it

// Detection is what Detect found in a project.
type Detection struct {
	SourcePaths  []string       `json:"source_paths"`        // "." or the top-level folders holding source files
	Languages    []string       `json:"languages"`           // most files first, ties by name
	FileCounts   map[string]int `json:"file_counts"`         // source files per language; 0 when only a marker file names it
	FilesScanned int            `json:"files_scanned"`       // files the walk looked at
	Truncated    bool           `json:"truncated,omitempty"` // the walk stopped at its cap
	// Peeked are the source folders found by a quick look after the cap.
	Peeked []string `json:"peeked,omitempty"`
	// LeftOut are the top-level folders not in SourcePaths, and why; hidden
	// ones are not listed. Empty when SourcePaths is ".".
	LeftOut []LeftOut `json:"left_out,omitempty"`
}

// LeftOut is a top-level folder detection did not take as source.
type LeftOut struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Why a top-level folder is left out.
const (
	reasonIgnored  = "ignored by .gitignore"
	reasonDeps     = "dependencies or build output"
	reasonNoSource = "no source files"
)

func reasonNotSeen(n int) string {
	return fmt.Sprintf("no source or build file among the first %d files looked at after the cap", n)
}

// Found reports whether any language was detected.
func (d Detection) Found() bool { return len(d.Languages) > 0 }

// languageByExt maps a lower-case file extension to the language it holds.
// Plain .h headers count as C, since the extension alone cannot tell C from
// C++.
var languageByExt = map[string]string{
	".go":    "go",
	".py":    "python",
	".pyi":   "python",
	".ts":    "typescript",
	".tsx":   "typescript",
	".mts":   "typescript",
	".cts":   "typescript",
	".js":    "javascript",
	".jsx":   "javascript",
	".mjs":   "javascript",
	".cjs":   "javascript",
	".rs":    "rust",
	".java":  "java",
	".kt":    "kotlin",
	".kts":   "kotlin",
	".c":     "c",
	".h":     "c",
	".cc":    "cpp",
	".cpp":   "cpp",
	".cxx":   "cpp",
	".hh":    "cpp",
	".hpp":   "cpp",
	".hxx":   "cpp",
	".cs":    "csharp",
	".rb":    "ruby",
	".php":   "php",
	".swift": "swift",
}

// languageByMarker maps a build manifest to the language it declares. A
// package.json is JavaScript unless a tsconfig.json sits beside it (see
// markerLanguages).
var languageByMarker = map[string]string{
	"go.mod":           "go",
	"pyproject.toml":   "python",
	"setup.py":         "python",
	"requirements.txt": "python",
	"Cargo.toml":       "rust",
	"pom.xml":          "java",
	"build.gradle":     "java",
	"package.json":     "javascript",
}

// skippedDirs are folders that hold dependencies, build output or tool state,
// never the project's own source.
var skippedDirs = map[string]bool{
	".git":         true,
	".agentos":     true,
	"node_modules": true,
	"vendor":       true,
	"dist":         true,
	"build":        true,
	"target":       true,
	".venv":        true,
	"venv":         true,
	"__pycache__":  true,
}

// errWalkCapped stops the walk once maxScannedFiles files have been seen.
var errWalkCapped = errors.New("walk capped")

// scan accumulates what the walk sees.
type scan struct {
	counts   map[string]int  // language -> source files
	topDirs  map[string]bool // top-level folders holding source files
	inRoot   bool            // a source file sits directly in the root
	markers  map[string]bool // languages named by marker files
	files    int
	capped   bool
	lastTop  string // the top-level entry the walk was in when it stopped
	peeked   []string
	ignore   gitignore.Matcher
	rootPath string
}

// Detect walks the project at root and reports its languages and the folders
// that hold its source, for the defaults of code.* in mcp.yaml. It skips
// dependency and build folders, hidden folders and whatever the root
// .gitignore ignores.
func Detect(ctx context.Context, root string) (Detection, error) {
	s := &scan{
		counts:   map[string]int{},
		topDirs:  map[string]bool{},
		markers:  map[string]bool{},
		rootPath: root,
	}
	ignore, err := rootIgnore(root)
	if err != nil {
		return Detection{}, err
	}
	s.ignore = ignore
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil // an unreadable corner of the project must not stop the install
		}
		return s.visit(ctx, path, d)
	})
	if err != nil && !errors.Is(err, errWalkCapped) {
		return Detection{}, fmt.Errorf("install: detect languages in %s: %w", root, err)
	}
	leftOut, err := s.listTop(ctx)
	if err != nil {
		return Detection{}, err
	}
	d := s.result()
	if !slices.Equal(d.SourcePaths, []string{"."}) {
		d.LeftOut = leftOut
	}
	return d, nil
}

// listTop lists every top-level entry, however early the walk stopped. When
// it stopped at the cap, a source file or build file at the root, which the
// walk may not have reached, still counts, and each folder it did not read
// to the end gets a quick look. It returns the folders not taken as source,
// with why.
func (s *scan) listTop(ctx context.Context) ([]LeftOut, error) {
	entries, err := os.ReadDir(s.rootPath)
	if err != nil {
		return nil, fmt.Errorf("install: list %s: %w", s.rootPath, err)
	}
	var out []LeftOut
	for _, e := range entries {
		name := e.Name()
		// WalkDir visits entries in this order: those before lastTop were
		// read to the end, lastTop in part, those after not at all.
		unread := s.capped && name >= s.lastTop
		if !e.IsDir() {
			if unread && e.Type().IsRegular() && !s.ignore.Match([]string{name}, false) {
				s.noteMarker(filepath.Join(s.rootPath, name), name)
				if lang, ok := languageByExt[strings.ToLower(filepath.Ext(name))]; ok {
					s.counts[lang]++
					s.inRoot = true
				}
			}
			continue
		}
		switch {
		case strings.HasPrefix(name, "."):
			continue // tool state (.git, .agentos, .vscode): not worth a line
		case s.ignore.Match([]string{name}, true):
			out = append(out, LeftOut{name, reasonIgnored})
		case skippedDirs[name]:
			out = append(out, LeftOut{name, reasonDeps})
		case s.topDirs[name]:
		case !unread:
			out = append(out, LeftOut{name, reasonNoSource})
		default:
			found, err := s.peek(ctx, name)
			if err != nil {
				return nil, err
			}
			if found {
				s.topDirs[name] = true
				s.peeked = append(s.peeked, name)
			} else {
				out = append(out, LeftOut{name, reasonNotSeen(peekFiles)})
			}
		}
	}
	return out, nil
}

// errPeekDone ends a quick look.
var errPeekDone = errors.New("peek done")

// peek reads files of the top-level folder dir, by the walk's rules, until
// one is source or a build file (counted, and reported) or peekFiles were
// read.
func (s *scan) peek(ctx context.Context, dir string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	seen, found := 0, false
	err := filepath.WalkDir(filepath.Join(s.rootPath, dir), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, err := filepath.Rel(s.rootPath, path)
		if err != nil {
			return nil
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		name := d.Name()
		if d.IsDir() {
			if len(parts) > 1 && (skippedDirs[name] || strings.HasPrefix(name, ".") || s.ignore.Match(parts, true)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || s.ignore.Match(parts, false) {
			return nil
		}
		if seen >= peekFiles {
			return errPeekDone
		}
		seen++
		if _, ok := languageByMarker[name]; ok {
			s.noteMarker(path, name)
			found = true
		}
		if lang, ok := languageByExt[strings.ToLower(filepath.Ext(name))]; ok {
			s.counts[lang]++
			found = true
		}
		if found {
			return errPeekDone
		}
		return nil
	})
	if err != nil && !errors.Is(err, errPeekDone) {
		return false, fmt.Errorf("install: look into %s: %w", dir, err)
	}
	return found, nil
}

// visit handles one walk entry.
func (s *scan) visit(ctx context.Context, path string, d fs.DirEntry) error {
	if path == s.rootPath {
		return nil
	}
	rel, err := filepath.Rel(s.rootPath, path)
	if err != nil {
		return nil
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	s.lastTop = parts[0]
	name := d.Name()
	if d.IsDir() {
		if skippedDirs[name] || strings.HasPrefix(name, ".") || s.ignore.Match(parts, true) {
			return filepath.SkipDir
		}
		return nil
	}
	if !d.Type().IsRegular() || s.ignore.Match(parts, false) {
		return nil
	}
	if s.files >= maxScannedFiles {
		s.capped = true
		return errWalkCapped
	}
	s.files++
	if s.files%1000 == 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	s.noteMarker(path, name)
	lang, ok := languageByExt[strings.ToLower(filepath.Ext(name))]
	if !ok {
		return nil
	}
	s.counts[lang]++
	if len(parts) == 1 {
		s.inRoot = true
	} else {
		s.topDirs[parts[0]] = true
	}
	return nil
}

// noteMarker records the language a build manifest declares.
func (s *scan) noteMarker(path, name string) {
	lang, ok := languageByMarker[name]
	if !ok {
		return
	}
	if name == "package.json" && fileExists(filepath.Join(filepath.Dir(path), "tsconfig.json")) {
		lang = "typescript"
	}
	s.markers[lang] = true
}

// result ranks the languages and picks the source paths.
func (s *scan) result() Detection {
	d := Detection{FileCounts: map[string]int{}, FilesScanned: s.files, Truncated: s.capped, Peeked: s.peeked}
	for lang, n := range s.counts {
		d.FileCounts[lang] = n
	}
	// A manifest names a language even when the walk saw none of its files,
	// for example when the cap cut the walk short.
	for lang := range s.markers {
		if _, ok := d.FileCounts[lang]; !ok {
			d.FileCounts[lang] = 0
		}
	}
	for lang := range d.FileCounts {
		d.Languages = append(d.Languages, lang)
	}
	sort.Slice(d.Languages, func(i, j int) bool {
		a, b := d.Languages[i], d.Languages[j]
		if d.FileCounts[a] != d.FileCounts[b] {
			return d.FileCounts[a] > d.FileCounts[b]
		}
		return a < b
	})
	if d.Languages == nil {
		d.Languages = []string{}
	}
	d.SourcePaths = []string{"."}
	if !s.inRoot && len(s.topDirs) > 0 {
		d.SourcePaths = make([]string, 0, len(s.topDirs))
		for dir := range s.topDirs {
			d.SourcePaths = append(d.SourcePaths, dir)
		}
		sort.Strings(d.SourcePaths)
	}
	return d
}

// rootIgnore reads the patterns of the project's root .gitignore; a missing
// file ignores nothing.
func rootIgnore(root string) (gitignore.Matcher, error) {
	data, err := os.ReadFile(filepath.Join(root, ".gitignore"))
	if errors.Is(err, fs.ErrNotExist) {
		return gitignore.NewMatcher(nil), nil
	}
	if err != nil {
		return nil, fmt.Errorf("install: read .gitignore: %w", err)
	}
	var patterns []gitignore.Pattern
	for _, line := range bytes.Split(data, []byte("\n")) {
		text := strings.TrimSuffix(string(line), "\r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		patterns = append(patterns, gitignore.ParsePattern(text, nil))
	}
	return gitignore.NewMatcher(patterns), nil
}

func fileExists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
