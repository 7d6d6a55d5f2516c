package searchtool

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/search"
	"github.com/agentos-dev/agentos/search/chunk"
)

// Index names.
const (
	Standards = "standards"
	Code      = "code"
)

// spec is what an index covers: its engine options, or why there is
// nothing to index, and notes on what of the configuration was left out.
type spec struct {
	name     string
	opt      search.Options
	disabled string // non-empty: nothing to index, and why
	notes    []string
}

// standardsSpec covers .agentos/standards and .agentos/workflows.
func standardsSpec(p project.Paths) spec {
	std, wf := p.Rel(p.Standards()), p.Rel(p.Workflows())
	s := spec{name: Standards, opt: search.StandardsOptions(p.Root, std, wf)}
	s.opt.Dir = p.IndexDir(Standards)
	var paths []string
	for _, d := range []string{std, wf} {
		if isDir(filepath.Join(p.Root, filepath.FromSlash(d))) {
			paths = append(paths, d)
		}
	}
	if len(paths) == 0 {
		s.disabled = fmt.Sprintf("neither %s nor %s exists; run `agentos install` to add the standards", std, wf)
	}
	s.opt.Paths = paths
	return s
}

// codeSpec covers code.source_paths in code.languages. Languages without a
// parser and paths that do not exist or leave the project are left out, with
// a note; when nothing is left the index is disabled.
func codeSpec(p project.Paths, src config.Sources) spec {
	s := spec{name: Code}
	var langs, unknown []string
	for _, l := range src.Languages {
		l = strings.ToLower(strings.TrimSpace(l))
		switch {
		case chunk.Languages[l] != nil:
			if !slices.Contains(langs, l) {
				langs = append(langs, l)
			}
		case l != "":
			unknown = append(unknown, l)
		}
	}
	if len(unknown) > 0 {
		s.notes = append(s.notes, "no parser for "+strings.Join(unknown, ", ")+" (supported: "+strings.Join(supportedLanguages(), ", ")+")")
	}
	if len(src.Languages) > 0 && len(langs) == 0 {
		s.disabled = "none of code.languages can be indexed: " + strings.Join(unknown, ", ") + "; supported: " + strings.Join(supportedLanguages(), ", ")
	}
	var paths, missing []string
	for _, sp := range src.SourcePaths {
		c := path.Clean(filepath.ToSlash(strings.TrimSpace(sp)))
		switch {
		case c == ".." || strings.HasPrefix(c, "../") || path.IsAbs(c) || filepath.IsAbs(sp):
			missing = append(missing, sp+" (outside the project)")
		case !exists(filepath.Join(p.Root, filepath.FromSlash(c))):
			missing = append(missing, sp+" (not found)")
		case !slices.Contains(paths, c):
			paths = append(paths, c)
		}
	}
	if len(src.SourcePaths) == 0 {
		paths = []string{"."}
	}
	if len(missing) > 0 {
		s.notes = append(s.notes, "source paths left out: "+strings.Join(missing, ", "))
	}
	if len(paths) == 0 && s.disabled == "" {
		s.disabled = "none of code.source_paths can be indexed: " + strings.Join(missing, ", ")
	}
	s.opt = search.CodeOptions(p.Root, paths, langs)
	s.opt.Dir = p.IndexDir(Code)
	return s
}

func supportedLanguages() []string {
	var out []string
	for l := range chunk.Languages {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// sameSources reports whether two configurations cover the same code.
func sameSources(a, b config.Sources) bool {
	return slices.Equal(a.SourcePaths, b.SourcePaths) && slices.Equal(a.Languages, b.Languages)
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
