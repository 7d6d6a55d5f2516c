package upgrade

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	gitserver "github.com/go-git/go-git/v5/plumbing/transport/server"
	"github.com/go-git/go-git/v5/storage/memory"

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

var installFileProtocol sync.Once

// GitSource clones spec (a local path or URL, optionally ending in @REF)
// into memory and reads its standards and workflows. No git binary is
// needed. The binary pinned is still the running one.
func GitSource(ctx context.Context, p project.Paths, spec string) (Source, error) {
	url, ref := splitRef(spec)
	if url == "" {
		return Source{}, fmt.Errorf("--from: no repository given")
	}
	depth := 1
	if local, ok := localRepo(url); ok {
		depth = 0 // the in-process file transport cannot make shallow clones
		// Serve file:// in-process, so that no git binary is needed.
		installFileProtocol.Do(func() { client.InstallProtocol("file", gitserver.DefaultServer) })
		url = local
	}
	repo, hash, err := clone(ctx, url, ref, depth)
	if err != nil {
		return Source{}, fmt.Errorf("--from %s: %w", spec, err)
	}
	commit, err := repo.CommitObject(hash)
	if err != nil {
		return Source{}, fmt.Errorf("--from %s: %w", spec, err)
	}
	tree, err := commit.Tree()
	if err != nil {
		return Source{}, fmt.Errorf("--from %s: %w", spec, err)
	}
	exe, err := os.Executable()
	if err != nil {
		return Source{}, fmt.Errorf("find the running agentos binary: %w", err)
	}
	src := Source{Name: url + "@" + hash.String(), Version: "git-" + hash.String()[:12], Trees: map[string]map[string][]byte{}, Binary: exe}
	targets := installer.ShippedTrees(p)
	for _, layout := range gitLayouts {
		for i, dir := range layout {
			sub, err := tree.Tree(dir)
			if errors.Is(err, object.ErrDirectoryNotFound) {
				continue
			}
			if err != nil {
				return Source{}, fmt.Errorf("--from %s: %s: %w", spec, dir, err)
			}
			target := targets[[]string{assets.UniversalStandards, assets.Workflows}[i]]
			files, err := readGitTree(sub, target)
			if err != nil {
				return Source{}, fmt.Errorf("--from %s: %w", spec, err)
			}
			src.Trees[target] = files
		}
		if len(src.Trees) > 0 {
			return src, nil
		}
	}
	return Source{}, fmt.Errorf("--from %s: the repository has neither standards/universal/ nor workflows/ (nor .agentos/standards/universal/ or .agentos/workflows/) at commit %s", spec, hash.String()[:12])
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

// localRepo returns the git folder of a local repository path.
func localRepo(url string) (string, bool) {
	if strings.Contains(url, "://") && !strings.HasPrefix(url, "file://") {
		return "", false
	}
	dir := strings.TrimPrefix(url, "file://")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", false
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	if fi, err := os.Stat(filepath.Join(abs, ".git")); err == nil && fi.IsDir() {
		abs = filepath.Join(abs, ".git")
	}
	return abs, true
}

// clone fetches ref (a branch, a tag or a commit; "" for the default
// branch) into memory and returns the commit.
func clone(ctx context.Context, url, ref string, depth int) (*git.Repository, plumbing.Hash, error) {
	try := func(name plumbing.ReferenceName) (*git.Repository, plumbing.Hash, error) {
		repo, err := git.CloneContext(ctx, memory.NewStorage(), nil, &git.CloneOptions{
			URL: url, ReferenceName: name, SingleBranch: true, Depth: depth, Tags: git.NoTags,
		})
		if err != nil {
			return nil, plumbing.ZeroHash, err
		}
		head, err := repo.Head()
		if err != nil {
			return nil, plumbing.ZeroHash, err
		}
		return repo, head.Hash(), nil
	}
	if ref == "" {
		return try("")
	}
	var firstErr error
	for _, name := range []plumbing.ReferenceName{plumbing.NewBranchReferenceName(ref), plumbing.NewTagReferenceName(ref)} {
		repo, hash, err := try(name)
		if err == nil {
			return repo, hash, nil
		}
		if ctx.Err() != nil {
			return nil, plumbing.ZeroHash, ctx.Err()
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if !hexRef.MatchString(ref) {
		return nil, plumbing.ZeroHash, fmt.Errorf("no branch or tag %q: %w", ref, firstErr)
	}
	repo, err := git.CloneContext(ctx, memory.NewStorage(), nil, &git.CloneOptions{URL: url, Tags: git.NoTags})
	if err != nil {
		return nil, plumbing.ZeroHash, err
	}
	hash, err := repo.ResolveRevision(plumbing.Revision(ref))
	if err != nil {
		return nil, plumbing.ZeroHash, fmt.Errorf("no branch, tag or commit %q: %w", ref, err)
	}
	return repo, *hash, nil
}

// readGitTree reads every file of tree, keyed by target/<path>.
func readGitTree(tree *object.Tree, target string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := tree.Files().ForEach(func(f *object.File) error {
		if !f.Mode.IsFile() {
			return nil
		}
		r, err := f.Reader()
		if err != nil {
			return err
		}
		defer r.Close()
		data, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		if data == nil {
			data = []byte{}
		}
		files[path.Join(target, f.Name)] = data
		return nil
	})
	return files, err
}
