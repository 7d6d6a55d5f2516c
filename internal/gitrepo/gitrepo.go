// Package gitrepo reads what the search needs of a project's git
// repository: the commit it is at (from the files under .git, cheaply
// enough to ask on every answer), the files that tell a branch switch, a
// pull, a revert or a stash (to watch), and the lines a diff changes. Its
// Git is how agentos runs git on a project's repository, which is input:
// no program the repository's config names runs.
//
// A worktree's .git is a file naming its own git folder ("gitdir: …"),
// which holds its HEAD and index; that folder's commondir names the
// repository's shared folder, which holds the branches.
package gitrepo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Repo is a git work tree and its git folders.
type Repo struct {
	Top       string // the work tree's top folder
	GitDir    string // HEAD and index: .git, or a worktree's own folder
	CommonDir string // refs and packed-refs: the same as GitDir but for a worktree
}

// ErrNotRepo says a folder is in no git work tree.
var ErrNotRepo = errors.New("not in a git work tree")

// Find returns the repository whose work tree holds dir: dir or the
// nearest folder above it with a .git folder or file.
func Find(dir string) (*Repo, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	for d := dir; ; d = filepath.Dir(d) {
		dotgit := filepath.Join(d, ".git")
		fi, err := os.Stat(dotgit)
		if err == nil {
			return open(d, dotgit, fi.IsDir())
		}
		if filepath.Dir(d) == d {
			return nil, ErrNotRepo
		}
	}
}

func open(top, dotgit string, isDir bool) (*Repo, error) {
	r := &Repo{Top: top, GitDir: dotgit}
	if !isDir {
		b, err := os.ReadFile(dotgit)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", dotgit, err)
		}
		line, _, _ := strings.Cut(string(b), "\n")
		gd, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !ok {
			return nil, fmt.Errorf("%s names no gitdir", dotgit)
		}
		gd = strings.TrimSpace(gd)
		if !filepath.IsAbs(gd) {
			gd = filepath.Join(top, gd)
		}
		r.GitDir = filepath.Clean(gd)
	}
	r.CommonDir = r.GitDir
	if b, err := os.ReadFile(filepath.Join(r.GitDir, "commondir")); err == nil {
		cd := strings.TrimSpace(string(b))
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(r.GitDir, cd)
		}
		r.CommonDir = filepath.Clean(cd)
	}
	if _, err := os.Stat(filepath.Join(r.GitDir, "HEAD")); err != nil {
		return nil, fmt.Errorf("%s is no git folder: %w", r.GitDir, err)
	}
	return r, nil
}

// State is where a repository is: enough to tell that it moved.
type State struct {
	Commit string // HEAD's commit; empty on a branch with no commit yet
	Branch string // the branch HEAD names; empty when detached
	// Index is the index file's size and modification time: a stash, a
	// reset or a checkout of files rewrites it.
	Index string
}

// State reads HEAD, the ref it names and the index's size and time.
func (r *Repo) State() (State, error) {
	var st State
	b, err := os.ReadFile(filepath.Join(r.GitDir, "HEAD"))
	if err != nil {
		return st, fmt.Errorf("read HEAD: %w", err)
	}
	head := strings.TrimSpace(string(b))
	if ref, ok := strings.CutPrefix(head, "ref:"); ok {
		ref = strings.TrimSpace(ref)
		st.Branch = strings.TrimPrefix(ref, "refs/heads/")
		st.Commit, err = r.resolve(ref)
		if err != nil {
			return st, err
		}
	} else {
		st.Commit = head
	}
	if fi, err := os.Stat(filepath.Join(r.GitDir, "index")); err == nil {
		st.Index = strconv.FormatInt(fi.Size(), 10) + "@" + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
	}
	return st, nil
}

// resolve reads a ref: its loose file (the worktree's own, then the
// shared one), else its line in packed-refs; "" when it has no commit yet.
func (r *Repo) resolve(ref string) (string, error) {
	for _, d := range []string{r.GitDir, r.CommonDir} {
		b, err := os.ReadFile(filepath.Join(d, filepath.FromSlash(ref)))
		if err == nil {
			v := strings.TrimSpace(string(b))
			if next, ok := strings.CutPrefix(v, "ref:"); ok { // a symbolic ref
				return r.resolve(strings.TrimSpace(next))
			}
			return v, nil
		}
	}
	f, err := os.Open(filepath.Join(r.CommonDir, "packed-refs"))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read packed-refs: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sha, name, ok := strings.Cut(sc.Text(), " ")
		if ok && name == ref {
			return sha, nil
		}
	}
	return "", sc.Err()
}

// WatchDirs returns the folders to watch to see the repository move: the
// git folder (HEAD, index), the shared one (packed-refs) and the folder of
// the branch's ref. Files change there by a rename of a lock file, so the
// folders are watched, not the files.
func (r *Repo) WatchDirs(st State) []string {
	dirs := []string{r.GitDir}
	if r.CommonDir != r.GitDir {
		dirs = append(dirs, r.CommonDir)
	}
	if st.Branch != "" {
		d := filepath.Dir(filepath.Join(r.CommonDir, "refs", "heads", filepath.FromSlash(st.Branch)))
		dirs = append(dirs, d)
	}
	return dirs
}

// Moves reports whether a file event at abs may mean the repository moved
// (HEAD, the index, a ref or packed-refs changed), not a lock file or a log.
func (r *Repo) Moves(abs string) bool {
	base := filepath.Base(abs)
	if strings.HasSuffix(base, ".lock") {
		return false
	}
	dir := filepath.Dir(abs)
	switch {
	case dir == r.GitDir && (base == "HEAD" || base == "index"):
		return true
	case dir == r.CommonDir && base == "packed-refs":
		return true
	}
	heads := filepath.Join(r.CommonDir, "refs", "heads")
	return dir == heads || strings.HasPrefix(dir, heads+string(filepath.Separator))
}

// Change is what a diff changed in one file, on the work tree's side.
type Change struct {
	Path    string      // relative to the folder the diff was asked in, slash-separated
	Lines   []LineRange // lines changed or next to lines removed
	Whole   bool        // a file git does not track, or one the diff adds: all of it is new
	Deleted bool        // the file is gone
}

// LineRange is a span of lines, both ends included.
type LineRange struct{ Start, End int }

// Diff returns the changes of the work tree under dir against rev (HEAD
// when empty): committed since rev, staged, not staged, and files git
// does not track (and does not ignore). It takes no lock on the index.
func (r *Repo) Diff(ctx context.Context, dir, rev string) ([]Change, error) {
	if rev == "" {
		rev = "HEAD"
	}
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("%q is not a revision", rev)
	}
	out, err := Git(ctx, dir, "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", "--unified=0", "--relative", rev, "--")
	if err != nil {
		return nil, err
	}
	changes := parseDiff(out)
	untracked, err := Git(ctx, dir, "ls-files", "--others", "--exclude-standard", "-z", "--", ".")
	if err != nil {
		return nil, err
	}
	for _, p := range bytes.Split(untracked, []byte{0}) {
		if len(p) > 0 {
			changes = append(changes, Change{Path: string(p), Whole: true})
		}
	}
	return changes, nil
}

// FilesBetween returns how many files differ between two commits.
func (r *Repo) FilesBetween(ctx context.Context, a, b string) (int, error) {
	out, err := Git(ctx, r.Top, "diff", "--name-only", "--no-renames", "-z", a, b, "--")
	if err != nil {
		return 0, err
	}
	return bytes.Count(out, []byte{0}), nil
}

// Git runs a git command in dir that takes no optional lock (so that it
// does not rewrite the index a watcher sees), and returns its output. It is
// how agentos reads a project's repository, wherever it does.
//
// The repository is input: its own config (a project handed over with its
// .git, or one an agent edited) may name programs git runs while reading
// it. None runs: no fsmonitor hook, no filter the repository's config
// names (each such driver is given an empty command, which git takes as
// none, and is not required, so a file it would clean is read as it is),
// and the diffs asked for here pass --no-ext-diff and --no-textconv. The
// person's own filters (Git LFS's, set in their global config) still run.
func Git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	safe := []string{"--no-optional-locks", "-c", "core.quotePath=false", "-c", "core.fsmonitor=false"}
	// A config git cannot read fails the command below as well.
	drivers, _ := output(ctx, dir, append(safe, "config", "--local", "--null", "--get-regexp", `^filter\.`)...)
	for _, name := range filterDrivers(drivers) {
		safe = append(safe, "-c", "filter."+name+".clean=", "-c", "filter."+name+".process=", "-c", "filter."+name+".required=false")
	}
	out, err := output(ctx, dir, append(safe, args...)...)
	if err != nil {
		return nil, fmt.Errorf("git %s: %w", args[0], err)
	}
	return out, nil
}

// filterDrivers returns the names of the filter drivers in the output of
// `git config --local --null --get-regexp ^filter\.` ("filter.<name>.<key>\n<value>\0").
func filterDrivers(out []byte) []string {
	seen := map[string]bool{}
	var names []string
	for _, entry := range bytes.Split(out, []byte{0}) {
		key, _, _ := bytes.Cut(entry, []byte("\n"))
		rest, ok := strings.CutPrefix(string(key), "filter.")
		if i := strings.LastIndexByte(rest, '.'); ok && i > 0 && !seen[rest[:i]] {
			seen[rest[:i]] = true
			names = append(names, rest[:i])
		}
	}
	return names
}

// output runs git with args in dir and returns what it printed; an error
// says what it printed on stderr. (`git config --get-regexp` finding
// nothing exits 1 and prints nothing, which Git takes as no driver.)
func output(ctx context.Context, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return out, errors.New(msg)
	}
	return out, nil
}

// parseDiff reads a unified diff with no context lines.
func parseDiff(out []byte) []Change {
	var changes []Change
	var cur *Change
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			changes = append(changes, Change{})
			cur = &changes[len(changes)-1]
		case cur == nil:
		case strings.HasPrefix(line, "new file mode"):
			cur.Whole = true
		case strings.HasPrefix(line, "deleted file mode"):
			cur.Deleted = true
		case strings.HasPrefix(line, "--- "):
			if p, ok := strings.CutPrefix(line[4:], "a/"); ok && cur.Path == "" {
				cur.Path = unquote(p)
			}
		case strings.HasPrefix(line, "+++ "):
			if p, ok := strings.CutPrefix(line[4:], "b/"); ok {
				cur.Path = unquote(p)
			}
		case strings.HasPrefix(line, "@@ "):
			if lr, ok := hunkLines(line); ok {
				cur.Lines = append(cur.Lines, lr)
			}
		}
	}
	// A binary file's diff names it only on its diff line.
	out2 := changes[:0]
	for _, c := range changes {
		if c.Path != "" {
			out2 = append(out2, c)
		}
	}
	return out2
}

// unquote undoes git's quoting of a path with unusual characters.
func unquote(p string) string {
	p = strings.TrimRight(p, "\t")
	if strings.HasPrefix(p, `"`) {
		if u, err := strconv.Unquote(p); err == nil {
			return u
		}
	}
	return p
}

// hunkLines reads "@@ -a,b +c,d @@": the new side's lines c to c+d-1, or,
// for lines only removed (d = 0), line c, after which they were.
func hunkLines(h string) (LineRange, bool) {
	fields := strings.Fields(h)
	if len(fields) < 3 || !strings.HasPrefix(fields[2], "+") {
		return LineRange{}, false
	}
	startS, countS, hasCount := strings.Cut(fields[2][1:], ",")
	start, err := strconv.Atoi(startS)
	if err != nil {
		return LineRange{}, false
	}
	count := 1
	if hasCount {
		if count, err = strconv.Atoi(countS); err != nil {
			return LineRange{}, false
		}
	}
	if count == 0 {
		start = max(start, 1)
		return LineRange{start, start}, true
	}
	return LineRange{start, start + count - 1}, true
}
