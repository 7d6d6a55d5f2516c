// Package scan finds the files an index covers and decides, for one path,
// whether it belongs.
//
// A file belongs when it lies under one of the configured folders, its name
// has an accepted extension, it is not larger than the size limit (1 MiB by
// default), and neither it nor a folder above it is excluded: by the built-in
// list (node_modules, vendor, dist, build, target, .venv and other tool and
// hidden folders), by a .gitignore file at any level from the repository root
// (the project root outside a repository) down (nested files apply to their
// own folder, as git applies them), or by .git/info/exclude. Symbolic links are never followed: not when walking,
// not in a configured path, not when a file is read. Every file is opened
// through the project's path policy (internal/pathpolicy), the same check
// svc_filesystem reads through, so an index never holds a file outside the
// project root, a hard-linked file or a secret. Binary content is caught when
// a file is read (ReadFile).
package scan

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/agentos-dev/agentos/internal/pathpolicy"
)

// DefaultMaxSize is the largest file indexed unless Options.MaxSize says
// otherwise.
const DefaultMaxSize = 1 << 20

// BuiltinExcludes are folder names never walked into.
var BuiltinExcludes = []string{
	"node_modules", "vendor", "dist", "build", "target", ".venv", "venv", "__pycache__",
	".git", ".hg", ".svn", ".tox", ".mypy_cache", ".pytest_cache", ".gradle", ".idea", ".next", ".nuxt",
}

// Options say which files a Scanner covers.
type Options struct {
	Root       string   // the project root; every path is relative to it
	Paths      []string // folders or files under Root to cover, slash-separated; default "."
	Extensions []string // accepted file extensions with the dot (".go"); empty accepts all
	MaxSize    int64    // default DefaultMaxSize
	Gitignore  bool     // honour .gitignore files and .git/info/exclude
	// Hidden also covers files and folders whose name starts with a dot
	// (below the configured Paths; the Paths themselves may be hidden).
	Hidden bool
}

// File is one covered file.
type File struct {
	Path    string // slash-separated, relative to Root
	Size    int64
	ModTime time.Time
}

// Scanner walks and answers for the files under Options.
type Scanner struct {
	opt      Options
	root     string // absolute, clean
	repo     string // absolute git work tree root, or ""
	mu       sync.Mutex
	patterns map[string][]gitignore.Pattern // repo-relative folder -> its .gitignore patterns
	exclude  []gitignore.Pattern            // .git/info/exclude
}

// New returns a Scanner for opt.
func New(opt Options) (*Scanner, error) {
	root, err := filepath.Abs(opt.Root)
	if err != nil {
		return nil, fmt.Errorf("project root %s: %w", opt.Root, err)
	}
	if len(opt.Paths) == 0 {
		opt.Paths = []string{"."}
	}
	opt.Paths = slices.Clone(opt.Paths)
	for i, p := range opt.Paths {
		opt.Paths[i] = path.Clean(filepath.ToSlash(p))
	}
	if opt.MaxSize <= 0 {
		opt.MaxSize = DefaultMaxSize
	}
	s := &Scanner{opt: opt, root: root, patterns: map[string][]gitignore.Pattern{}}
	if opt.Gitignore {
		// Outside a git repository the project's own .gitignore files
		// still say what is not source: a person who wrote one expects it
		// kept, git or not.
		if s.repo = findRepo(root); s.repo == "" {
			s.repo = root
		}
		if s.repo != "" {
			s.exclude = readPatterns(filepath.Join(s.repo, ".git", "info", "exclude"), nil)
		}
	}
	return s, nil
}

// ReloadIgnores forgets the git ignore rules read so far: the next walk or
// check reads them again (after a .gitignore or .git/info/exclude changed).
func (s *Scanner) ReloadIgnores() {
	if s.repo == "" {
		return
	}
	exclude := readPatterns(filepath.Join(s.repo, ".git", "info", "exclude"), nil)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.patterns, s.exclude = map[string][]gitignore.Pattern{}, exclude
}

// Root returns the absolute project root.
func (s *Scanner) Root() string { return s.root }

// findRepo returns the nearest folder at or above dir holding .git, or "".
func findRepo(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func readPatterns(file string, domain []string) []gitignore.Pattern {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		l := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(l, "#") || strings.TrimSpace(l) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(l, domain))
	}
	return ps
}

// repoParts returns the repository-relative parts of a Root-relative path.
func (s *Scanner) repoParts(rel string) []string {
	abs := filepath.Join(s.root, filepath.FromSlash(rel))
	r, err := filepath.Rel(s.repo, abs)
	if err != nil || r == "." {
		return nil
	}
	return strings.Split(filepath.ToSlash(r), "/")
}

// dirPatterns returns the patterns in force inside a repository-relative
// folder: info/exclude, then every .gitignore from the repository root down.
func (s *Scanner) dirPatterns(dir []string) []gitignore.Pattern {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := slices.Clip(s.exclude)
	for i := 0; i <= len(dir); i++ {
		key := strings.Join(dir[:i], "/")
		p, ok := s.patterns[key]
		if !ok {
			p = readPatterns(filepath.Join(s.repo, filepath.FromSlash(key), ".gitignore"), dir[:i])
			s.patterns[key] = p
		}
		ps = append(ps, p...)
	}
	return ps
}

// ignored reports whether git ignores the Root-relative path, given that its
// parent folders are not ignored.
func (s *Scanner) ignored(rel string, isDir bool) bool {
	if s.repo == "" {
		return false
	}
	parts := s.repoParts(rel)
	if len(parts) == 0 || parts[0] == ".." {
		return false
	}
	return gitignore.NewMatcher(s.dirPatterns(parts[:len(parts)-1])).Match(parts, isDir)
}

func (s *Scanner) excludedName(name string) bool {
	if slices.Contains(BuiltinExcludes, name) {
		return true
	}
	return !s.opt.Hidden && strings.HasPrefix(name, ".") && name != "." && name != ".."
}

func (s *Scanner) acceptName(name string) bool {
	if len(s.opt.Extensions) == 0 {
		return true
	}
	ext := strings.ToLower(path.Ext(name))
	return slices.Contains(s.opt.Extensions, ext)
}

// under returns the configured path that covers rel, if any.
func (s *Scanner) under(rel string) (string, bool) {
	for _, p := range s.opt.Paths {
		if p == "." || rel == p || strings.HasPrefix(rel, p+"/") {
			return p, true
		}
	}
	return "", false
}

// Accept reports whether the Root-relative, slash-separated path rel is a
// file this Scanner covers, checking its name, its folders and ignore rules
// (not its size or content). The reason says why not.
func (s *Scanner) Accept(rel string) (ok bool, reason string) {
	rel = path.Clean(rel)
	if rel == "." || strings.HasPrefix(rel, "../") || path.IsAbs(rel) {
		return false, "outside the project"
	}
	base, ok := s.under(rel)
	if !ok {
		return false, "not under a source path"
	}
	if !s.acceptName(path.Base(rel)) {
		return false, "extension not indexed"
	}
	if base != "." && s.opt.Gitignore {
		if ok, why := s.folderAccepted(base); !ok {
			return false, why
		}
	}
	var below []string
	if base == "." {
		below = strings.Split(rel, "/")
	} else if rel != base {
		below = strings.Split(strings.TrimPrefix(rel, base+"/"), "/")
	}
	prefix := base
	for i, name := range below {
		isDir := i < len(below)-1
		if isDir && s.excludedName(name) || !isDir && !s.opt.Hidden && strings.HasPrefix(name, ".") {
			return false, "excluded folder or hidden name"
		}
		if prefix == "." {
			prefix = name
		} else {
			prefix += "/" + name
		}
		if s.opt.Gitignore && s.ignored(prefix, isDir) {
			return false, "ignored by git"
		}
	}
	return true, ""
}

// Walk lists every covered file, sorted by path, skipping files over the size
// limit. Unreadable folders are skipped; only a missing or unreadable
// configured path is an error.
func (s *Scanner) Walk() ([]File, error) {
	seen := map[string]bool{}
	var out []File
	for _, p := range s.opt.Paths {
		start := filepath.Join(s.root, filepath.FromSlash(p))
		fi, err := s.CheckPath(p)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			if ok, _ := s.Accept(p); ok && fi.Size() <= s.opt.MaxSize && !seen[p] {
				seen[p] = true
				out = append(out, File{Path: p, Size: fi.Size(), ModTime: fi.ModTime()})
			}
			continue
		}
		if p != "." && s.opt.Gitignore {
			// The configured folder itself may be ignored.
			if ok, _ := s.folderAccepted(p); !ok {
				continue
			}
		}
		err = filepath.WalkDir(start, func(abs string, d fs.DirEntry, err error) error {
			if err != nil {
				if abs == start {
					return err
				}
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if abs == start {
				return nil
			}
			r, _ := filepath.Rel(s.root, abs)
			rel := filepath.ToSlash(r)
			name := d.Name()
			if d.Type()&fs.ModeSymlink != 0 {
				return nil
			}
			if d.IsDir() {
				if s.excludedName(name) || s.opt.Gitignore && s.ignored(rel, true) {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || !s.acceptName(name) || !s.opt.Hidden && strings.HasPrefix(name, ".") {
				return nil
			}
			if s.opt.Gitignore && s.ignored(rel, false) {
				return nil
			}
			info, err := d.Info()
			if err != nil || info.Size() > s.opt.MaxSize || seen[rel] {
				return nil
			}
			seen[rel] = true
			out = append(out, File{Path: rel, Size: info.Size(), ModTime: info.ModTime()})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("walk %s: %w", p, err)
		}
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// folderAccepted checks that no folder from Root down to the configured
// folder p is ignored by git.
func (s *Scanner) folderAccepted(p string) (bool, string) {
	parts := strings.Split(p, "/")
	for i := range parts {
		if s.ignored(strings.Join(parts[:i+1], "/"), true) {
			return false, "ignored by git"
		}
	}
	return true, ""
}

// CheckPath checks a configured path p before it is walked or watched: it
// must exist and be reached through real folders only. It returns what p is.
func (s *Scanner) CheckPath(p string) (fs.FileInfo, error) {
	r, err := os.OpenRoot(s.root)
	if err != nil {
		return nil, fmt.Errorf("project root: %w", err)
	}
	defer r.Close()
	var fi fs.FileInfo
	for _, prefix := range prefixes(p) {
		if fi, err = r.Lstat(prefix); err != nil {
			return nil, fmt.Errorf("source path %s: %w", p, err)
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("source path %s: %s is a symbolic link, and the indexes do not follow links; configure the folder it points to: %w",
				p, prefix, ErrNotFollowed)
		}
	}
	if fi == nil { // the root itself
		return r.Stat(".")
	}
	return fi, nil
}

// prefixes returns a/b/c's a, a/b and a/b/c; none for ".".
func prefixes(p string) []string {
	p = path.Clean(p)
	if p == "." {
		return nil
	}
	var out []string
	for i, c := range p {
		if c == '/' {
			out = append(out, p[:i])
		}
	}
	return append(out, p)
}

// Errors from ReadFile for files that are not indexed.
var (
	ErrTooBig = errors.New("file is over the size limit")
	ErrBinary = errors.New("file is binary")
	// ErrNotFollowed: the file is, or is reached through, a symbolic link,
	// or it is a secret; the indexes never read those. Other refusals of the
	// path policy (a second hard link, not a regular file) are reported as
	// unreadable: the person may expect the file to be found.
	ErrNotFollowed = errors.New("a symbolic link or a secret, which the indexes never read")
)

// IsFile reports whether a Root-relative path is a regular file (not a
// link).
func (s *Scanner) IsFile(rel string) bool {
	fi, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(rel)))
	return err == nil && fi.Mode().IsRegular()
}

// Open opens a Root-relative file for reading through the project's path
// policy (pathpolicy.OpenFile), with ErrNotFollowed for a link or a secret.
func (s *Scanner) Open(rel string) (*os.File, fs.FileInfo, error) {
	r, err := os.OpenRoot(s.root)
	if err != nil {
		return nil, nil, fmt.Errorf("project root: %w", err)
	}
	defer r.Close() // an open file outlives the root it was opened through
	f, fi, err := pathpolicy.OpenFile(r, rel)
	var ref *pathpolicy.Refusal
	if errors.As(err, &ref) && (ref.Kind == pathpolicy.Symlink || ref.Kind == pathpolicy.Hidden) {
		err = fmt.Errorf("%w: %w", ErrNotFollowed, err)
	}
	return f, fi, err
}

// ReadFile reads a Root-relative file that Accept covers, refusing one over
// the size limit or with binary content (a NUL byte in its first 8000 bytes)
// and one the path policy refuses (see Open). It returns the file's size and
// modification time as read.
func (s *Scanner) ReadFile(rel string) ([]byte, File, error) {
	f, fi, err := s.Open(rel)
	if err != nil {
		return nil, File{}, err
	}
	defer f.Close()
	info := File{Path: rel, Size: fi.Size(), ModTime: fi.ModTime()}
	if fi.Size() > s.opt.MaxSize {
		return nil, info, ErrTooBig
	}
	data, err := io.ReadAll(io.LimitReader(f, s.opt.MaxSize+1))
	if err != nil {
		return nil, info, err
	}
	if int64(len(data)) > s.opt.MaxSize {
		return nil, info, ErrTooBig
	}
	if IsBinary(data) {
		return nil, info, ErrBinary
	}
	return data, info, nil
}

// IsBinary reports whether data looks binary: a NUL byte in its first 8000
// bytes, as git decides.
func IsBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0
}
