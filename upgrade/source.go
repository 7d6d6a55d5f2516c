package upgrade

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/installer"
	"github.com/agentos-dev/agentos/internal/project"
)

// Source is the new version of what agentos ships into a project.
type Source struct {
	// Name says where it came from: "embedded", or a repository and commit.
	Name    string
	Version string
	// Trees maps each project folder (relative, slash-separated) the source
	// carries to its files, by path relative to the project root. A folder
	// the source does not carry is left as it is.
	Trees map[string]map[string][]byte
	// Binary is the agentos binary to pin in .agentos/bin/.
	Binary string
}

// EmbeddedSource is what the running binary carries: its assets and itself.
func EmbeddedSource(p project.Paths) (Source, error) {
	exe, err := os.Executable()
	if err != nil {
		return Source{}, fmt.Errorf("find the running agentos binary: %w", err)
	}
	src := Source{Name: "embedded", Version: installer.AssetVersion(), Trees: map[string]map[string][]byte{}, Binary: exe}
	for root, target := range installer.ShippedTrees(p) {
		files, err := readTree(assets.FS(), root, target)
		if err != nil {
			return Source{}, err
		}
		src.Trees[target] = files
	}
	return src, nil
}

// readTree reads every file under root in fsys, keyed by target/<relative path>.
func readTree(fsys fs.FS, root, target string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(fsys, root, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		if data == nil {
			data = []byte{}
		}
		files[path.Join(target, strings.TrimPrefix(name, root+"/"))] = data
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", root, err)
	}
	return files, nil
}

// gitLayouts are where a repository may keep the trees, tried in order: an
// installed project's own .agentos/, or the trees at the repository's top.
var gitLayouts = [][2]string{
	{".agentos/standards/universal", ".agentos/workflows"},
	{"standards/universal", "workflows"},
}

// GitSource fetches spec (a local path or URL, optionally ending in @REF)
// with git into a temporary repository of its own and reads its standards
// and workflows at that commit. The binary pinned is still the running one.
func GitSource(ctx context.Context, p project.Paths, spec string) (Source, error) {
	url, ref := splitRef(spec)
	if url == "" {
		return Source{}, fmt.Errorf("--from: no repository given")
	}
	if local, ok := localRepo(url); ok {
		url = local
	}
	repo, err := fetchCommit(ctx, url, ref)
	if err != nil {
		return Source{}, fmt.Errorf("--from %s: %w", spec, err)
	}
	defer repo.remove()
	exe, err := os.Executable()
	if err != nil {
		return Source{}, fmt.Errorf("find the running agentos binary: %w", err)
	}
	src := Source{Name: url + "@" + repo.commit, Version: "git-" + repo.commit[:12], Trees: map[string]map[string][]byte{}, Binary: exe}
	targets := installer.ShippedTrees(p)
	for _, layout := range gitLayouts {
		for i, dir := range layout {
			target := targets[[]string{assets.UniversalStandards, assets.Workflows}[i]]
			files, found, err := repo.readTree(ctx, dir, target)
			if err != nil {
				return Source{}, fmt.Errorf("--from %s: %s: %w", spec, dir, err)
			}
			if found {
				src.Trees[target] = files
			}
		}
		if len(src.Trees) > 0 {
			return src, nil
		}
	}
	return Source{}, fmt.Errorf("--from %s: the repository has neither standards/universal/ nor workflows/ (nor .agentos/standards/universal/ or .agentos/workflows/) at commit %s", spec, repo.commit[:12])
}

var hexRef = regexp.MustCompile(`^[0-9a-f]{7,40}$`)

// splitRef splits "URL@REF". An @ belongs to the URL when what follows it
// holds a / or : (git@host:org/repo.git).
func splitRef(spec string) (url, ref string) {
	i := strings.LastIndex(spec, "@")
	if i <= 0 || strings.ContainsAny(spec[i+1:], "/:") {
		return spec, ""
	}
	return spec[:i], spec[i+1:]
}

// localRepo returns the absolute path of a repository given as a local
// path (or file:// URL): git runs in a folder of its own.
func localRepo(url string) (string, bool) {
	if strings.Contains(url, "://") && !strings.HasPrefix(url, "file://") {
		return "", false
	}
	dir := strings.TrimPrefix(url, "file://")
	if _, err := os.Stat(dir); err != nil {
		return "", false
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	return abs, true
}

// fetchedCommit is one commit of a repository, fetched into a bare
// repository of agentos's own in a temporary folder. Only git's plumbing
// reads it (ls-tree, cat-file): no checkout, so neither the fetched
// repository's attributes (filters, export-subst) nor its hooks apply, and
// every file is read as committed.
type fetchedCommit struct {
	dir    string
	commit string
	limit  int // the most bytes a tree read may hold: maxSourceBytes
}

// maxSourceBytes bounds what a source's trees may hold: standards and
// workflows are text of kilobytes, and a repository is input, so one that
// carries more is refused (by the sizes ls-tree gives) before any of it is
// read into memory.
const maxSourceBytes = 64 << 20

// fetchCommit fetches ref of the repository at url — a branch, a tag or a
// commit; "" for the default branch — with its files but not its history
// where the server allows.
func fetchCommit(ctx context.Context, url, ref string) (*fetchedCommit, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, errors.New("git is not installed, and upgrade --from fetches the repository with it")
	}
	dir, err := os.MkdirTemp("", "agentos-upgrade-source-")
	if err != nil {
		return nil, err
	}
	f := &fetchedCommit{dir: dir, limit: maxSourceBytes}
	// --template= : no hooks, not even the samples a system's template has.
	if _, err := f.git(ctx, nil, "init", "--quiet", "--bare", "--template=", "."); err != nil {
		f.remove()
		return nil, err
	}
	if err := f.fetch(ctx, url, ref); err != nil {
		f.remove()
		return nil, err
	}
	return f, nil
}

func (f *fetchedCommit) fetch(ctx context.Context, url, ref string) error {
	wants := []string{"HEAD"}
	if ref != "" {
		wants = []string{"refs/heads/" + ref, "refs/tags/" + ref}
	}
	var firstErr error
	for _, want := range wants {
		_, err := f.git(ctx, nil, "fetch", "--quiet", "--depth=1", "--no-tags", "--", url, want)
		if err == nil {
			return f.resolve(ctx, "FETCH_HEAD")
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if ref == "" {
		return firstErr
	}
	if !hexRef.MatchString(ref) {
		return fmt.Errorf("no branch or tag %q: %w", ref, firstErr)
	}
	// A commit: the history of every branch and tag, where it must be.
	if _, err := f.git(ctx, nil, "fetch", "--quiet", "--no-tags", "--", url, "+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"); err != nil {
		return err
	}
	if err := f.resolve(ctx, ref); err != nil {
		return fmt.Errorf("no branch, tag or commit %q: %w", ref, err)
	}
	return nil
}

// resolve sets the commit rev names.
func (f *fetchedCommit) resolve(ctx context.Context, rev string) error {
	out, err := f.git(ctx, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return err
	}
	f.commit = strings.TrimSpace(string(out))
	return nil
}

// readTree reads every regular file under dir at the commit, keyed by
// target/<path below dir>; found is false when the commit has no such
// folder. Symbolic links and submodules are left out: what upgrade writes
// into a project is files.
func (f *fetchedCommit) readTree(ctx context.Context, dir, target string) (files map[string][]byte, found bool, err error) {
	out, err := f.git(ctx, nil, "ls-tree", "-r", "-z", "--long", "--full-tree", f.commit, "--", dir+"/")
	if err != nil {
		return nil, false, err
	}
	var ids, names []string
	total := 0
	for _, entry := range strings.Split(string(out), "\x00") {
		meta, name, ok := strings.Cut(entry, "\t")
		if !ok {
			continue
		}
		found = true
		fields := strings.Fields(meta) // mode, type, id, size
		if len(fields) != 4 || fields[1] != "blob" || (fields[0] != "100644" && fields[0] != "100755") {
			continue
		}
		// Sizes are summed before any content is read.
		size, err := strconv.Atoi(fields[3])
		if err != nil {
			return nil, false, fmt.Errorf("git ls-tree: unexpected output for %s", name)
		}
		if total += size; total > f.limit {
			return nil, false, fmt.Errorf("%s holds more than %d MiB; standards and workflows are text", dir, f.limit>>20)
		}
		ids = append(ids, fields[2])
		names = append(names, strings.TrimPrefix(name, dir+"/"))
	}
	files = map[string][]byte{}
	if len(ids) == 0 {
		return files, found, nil
	}
	out, err = f.git(ctx, strings.NewReader(strings.Join(ids, "\n")+"\n"), "cat-file", "--batch")
	if err != nil {
		return nil, false, err
	}
	for i, name := range names {
		// Each blob comes as "<id> blob <size>\n<content>\n".
		header, rest, ok := bytes.Cut(out, []byte("\n"))
		fields := strings.Fields(string(header))
		if !ok || len(fields) != 3 || fields[0] != ids[i] {
			return nil, false, fmt.Errorf("git cat-file: unexpected output for %s", name)
		}
		size, err := strconv.Atoi(fields[2])
		if err != nil || size < 0 || size+1 > len(rest) {
			return nil, false, fmt.Errorf("git cat-file: unexpected output for %s", name)
		}
		files[path.Join(target, name)] = append([]byte{}, rest[:size]...)
		out = rest[size+1:]
	}
	return files, found, nil
}

// git runs git on the fetched repository, with stdin when not nil, and
// returns what it printed. Configuration comes from the user's and the
// system's files (credentials, proxies, insteadOf), never the source's.
func (f *fetchedCommit) git(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "gc.auto=0", "-c", "protocol.ext.allow=never"}, args...)...)
	cmd.Dir = f.dir
	cmd.Env = append(os.Environ(), "GIT_DIR="+f.dir)
	cmd.Stdin = stdin
	// A transport git started (ssh, a remote helper) may hold its output
	// open after git is killed: give up on it after a while.
	cmd.WaitDelay = 5 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return out, nil
}

func (f *fetchedCommit) remove() { os.RemoveAll(f.dir) }
