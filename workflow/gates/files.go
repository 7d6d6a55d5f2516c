package gates

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"unicode"
)

// FilesDetails is the Details of a files_exist result.
type FilesDetails struct {
	Checked  int         `json:"checked"`
	Problems []FileIssue `json:"problems,omitempty"`
}

// FileIssue is one path that did not pass, and why.
type FileIssue struct {
	Path    string `json:"path"`
	Problem string `json:"problem"` // missing, empty, not a regular file, outside the project, …
}

func (c Check) runFilesExist(ctx context.Context, env Env) Result {
	d := FilesDetails{Checked: len(c.Paths)}
	var names []string
	for _, p := range c.Paths {
		if ctx.Err() != nil {
			return failf(c.Type, "Run the gate again.", "The files_exist check was cancelled.")
		}
		abs, rel, err := resolve(env.Root, p, env.Vars)
		if err != nil {
			d.Problems = append(d.Problems, FileIssue{Path: rel, Problem: trimDot(err.Error())})
			names = append(names, rel)
			continue
		}
		if problem := regularNonEmpty(abs); problem != "" {
			d.Problems = append(d.Problems, FileIssue{Path: rel, Problem: problem})
			names = append(names, rel)
		}
	}
	if len(d.Problems) == 0 {
		r := pass(c.Type, "%s.", upperFirst(every(len(c.Paths), "required file exists and has content", "required files exist and have content")))
		r.Details = d
		return r
	}
	first := d.Problems[0]
	r := failf(c.Type, fmt.Sprintf("Create %s with real content (%s now), then run the gate again.", first.Path, first.Problem),
		"%d of %s %s missing, empty or not allowed: %s.", len(d.Problems), plural(len(c.Paths), "required file", "required files"), isAre(len(d.Problems)), listNames(names, 5))
	r.Details = d
	return r
}

// regularNonEmpty returns "" when path is a regular file holding something
// other than white space, else what is wrong with it.
func regularNonEmpty(path string) string {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "missing"
	}
	if err != nil {
		return "cannot be read"
	}
	if !fi.Mode().IsRegular() {
		if fi.IsDir() {
			return "a folder, not a file"
		}
		return "not a regular file"
	}
	if fi.Size() == 0 {
		return "empty"
	}
	f, err := os.Open(path)
	if err != nil {
		return "cannot be read"
	}
	defer f.Close()
	br := bufio.NewReader(io.LimitReader(f, 1<<20))
	for {
		r, _, err := br.ReadRune()
		if err != nil {
			// Only white space in the first MiB counts as empty.
			return "empty (only white space)"
		}
		if !unicode.IsSpace(r) {
			return ""
		}
	}
}
