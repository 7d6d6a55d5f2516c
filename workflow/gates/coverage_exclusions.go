package gates

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/internal/gitrepo"
	"github.com/agentos-dev/agentos/workflow/baseline"
)

// Coverage exclusions in source — coverage.py's `# pragma: no cover`, V8's,
// c8's and Istanbul's `/* … ignore next|if|else|start|file */` — take code
// out of a coverage report, so the work that adds one can raise its own
// coverage by hiding what no test runs. The coverage check lists those the
// session added and counts the code lines they exclude as uncovered. The
// settings files that exclude code (.coveragerc, [tool.coverage] …) are the
// test harness, which the approval binds.
//
// "Added by the session" is read against the session's recorded base
// (Env.SessionDiff); a session without one is read against the project's
// git HEAD, and in a project that is not a git repository (or has no
// commit) every exclusion counts.

// Exclusion is a coverage exclusion in a source file whose excluded code the
// coverage check counts as uncovered.
type Exclusion struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Marker string `json:"marker"`
	// Lines is how many code lines it excludes that count as uncovered: all
	// of them when the marker is new, else those the session added.
	Lines int `json:"lines"`
	// hidden are the numbers of those lines.
	hidden []int
}

func (x Exclusion) label() string {
	return fmt.Sprintf("%s:%d %s (%s)", x.File, x.Line, x.Marker, plural(x.Lines, "line", "lines"))
}

var (
	// pyNoCoverRe is coverage.py's default exclusion.
	pyNoCoverRe = regexp.MustCompile(`#\s*(?:pragma|PRAGMA)[:\s]?\s*(?:no|NO)\s*(?:cover|COVER)`)
	// jsIgnoreRe is a V8, c8 or Istanbul ignore hint.
	jsIgnoreRe = regexp.MustCompile(`(?:/\*|//)\s*(v8|c8|istanbul)\s+ignore\s+(next|if|else|start|stop|file)\b(?:\s+(\d+))?`)
)

// Bounds of the search: exclusions are looked for in at most this many
// changed source files of at most maxExclusionFileBytes each.
const (
	maxExclusionFiles     = 2000
	maxExclusionFileBytes = 1 << 20
)

// addedLines is what the session added to one file: every line, or the
// 1-based numbers in lines.
type addedLines struct {
	whole bool
	lines map[int]bool
}

func (a addedLines) has(n int) bool { return a.whole || a.lines[n] }

// exclusionPatterns are the files exclusions are looked for in.
var exclusionPatterns = []string{"*.py", "*.js", "*.jsx", "*.ts", "*.tsx", "*.mjs", "*.cjs", "*.mts", "*.cts"}

// sessionChanges returns the source files the session changed, with the
// lines added to each: from env.SessionDiff, the diff from the session's
// recorded base, when there is one; else from the project's git HEAD (a
// line git shows as added, or a file it does not track or ignore); with
// neither, every source file, whole.
func sessionChanges(ctx context.Context, env Env) map[string]addedLines {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if env.SessionDiff != nil {
		if diff, err := env.SessionDiff(ctx, exclusionPatterns); err == nil {
			return addedFromDiff(diff)
		}
	}
	// The project's repository may hold what a test wrote in the weaker
	// mode: gitrepo.Git runs no program its config names.
	git := func(args ...string) ([]byte, error) { return gitrepo.Git(ctx, env.Root, args...) }
	diff, err := git(append([]string{"diff", "--no-color", "--no-ext-diff", "--no-textconv", "--unified=0", "--relative", "HEAD", "--"}, exclusionPatterns...)...)
	if err != nil {
		return allSources(env.Root)
	}
	out := addedFromDiff(diff)
	if others, err := git("ls-files", "--others", "--exclude-standard", "-z"); err == nil {
		for _, p := range strings.Split(string(others), "\x00") {
			if exclusionSource(p) {
				out[p] = addedLines{whole: true}
			}
		}
	}
	return out
}

// addedFromDiff reads the added lines of each source file from a unified
// diff with no context (git diff -U0).
func addedFromDiff(diff []byte) map[string]addedLines {
	return addedFromDiffFunc(diff, exclusionSource)
}

// addedFromDiffFunc reads the added lines of the files keep accepts from a
// unified diff with no context.
func addedFromDiffFunc(diff []byte, keep func(string) bool) map[string]addedLines {
	out := map[string]addedLines{}
	file := ""
	for _, l := range strings.Split(string(diff), "\n") {
		switch {
		case strings.HasPrefix(l, "+++ "):
			file = ""
			if p, ok := strings.CutPrefix(l, "+++ b/"); ok && keep(p) {
				file = p
				out[file] = addedLines{lines: map[int]bool{}}
			}
		case strings.HasPrefix(l, "@@ ") && file != "":
			// @@ -a,b +c,d @@
			f := strings.Fields(l)
			if len(f) < 3 {
				continue
			}
			start, count, _ := strings.Cut(strings.TrimPrefix(f[2], "+"), ",")
			s, err1 := strconv.Atoi(start)
			n := 1
			if count != "" {
				n, _ = strconv.Atoi(count)
			}
			if err1 == nil {
				for i := s; i < s+n; i++ {
					out[file].lines[i] = true
				}
			}
		}
	}
	return out
}

// allSources is every source file of the project, whole: the changes when
// there is no git base.
func allSources(root string) map[string]addedLines {
	out := map[string]addedLines{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= maxExclusionFiles {
			return filepath.SkipDir
		}
		if d.IsDir() {
			switch name := d.Name(); {
			case p == root:
			case strings.HasPrefix(name, "."), name == "node_modules", name == "vendor", name == "venv", name == "__pycache__",
				name == "build", name == "dist", strings.HasSuffix(name, ".egg-info"):
				return filepath.SkipDir
			}
			return nil
		}
		if rel, err := filepath.Rel(root, p); err == nil && exclusionSource(filepath.ToSlash(rel)) {
			out[filepath.ToSlash(rel)] = addedLines{whole: true}
		}
		return nil
	})
	return out
}

// exclusionSource reports whether a file is code whose exclusions count: a
// Python or JS/TS file that is not a test file.
func exclusionSource(p string) bool {
	return p != "" && (strings.HasSuffix(p, ".py") || jsExt(p)) && !baseline.IsTestFile(p)
}

// sessionExclusions finds the coverage exclusions that hide code the
// session added or that the session added itself, in the files changes
// names.
func sessionExclusions(root string, changes map[string]addedLines) []Exclusion {
	var out []Exclusion
	n := 0
	for _, rel := range slices.Sorted(maps.Keys(changes)) {
		if n++; n > maxExclusionFiles {
			break
		}
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxExclusionFileBytes {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		out = append(out, fileExclusions(rel, src, changes[rel])...)
	}
	return out
}

// fileExclusions finds the exclusions of one file and what each excludes.
func fileExclusions(rel string, src []byte, added addedLines) []Exclusion {
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	py := strings.HasSuffix(rel, ".py")
	var out []Exclusion
	for i, l := range lines {
		var marker string
		var from, to int // 0-based, inclusive
		if py {
			m := pyNoCoverRe.FindString(l)
			if m == "" {
				continue
			}
			marker, from, to = m, i, pyBlockEnd(lines, i)
		} else {
			m := jsIgnoreRe.FindStringSubmatch(l)
			if m == nil || m[2] == "stop" {
				continue
			}
			marker = m[0]
			if strings.HasPrefix(marker, "/*") {
				marker += " */"
			}
			switch m[2] {
			case "file":
				from, to = 0, len(lines)-1
			case "start":
				from, to = i, len(lines)-1
				for j := i + 1; j < len(lines); j++ {
					if s := jsIgnoreRe.FindStringSubmatch(lines[j]); s != nil && s[2] == "stop" {
						to = j
						break
					}
				}
			default: // next [N], if, else: the statements after the hint
				times := 1
				if m[3] != "" {
					times, _ = strconv.Atoi(m[3])
				}
				from, to = i, i
				if !jsCodeAfter(l, m[0]) {
					to = i + 1
					for to < len(lines) && !isCode(lines[to], false) {
						to++
					}
				}
				for k := 0; k < times && to < len(lines); k++ {
					if k > 0 {
						to++
					}
					to = jsStatementEnd(lines, to)
				}
			}
		}
		x := Exclusion{File: rel, Line: i + 1, Marker: strings.TrimSpace(marker)}
		newMarker := added.has(i + 1)
		for j := from; j <= to && j < len(lines); j++ {
			if isCode(lines[j], py) && (newMarker || added.has(j+1)) {
				x.Lines++
				x.hidden = append(x.hidden, j+1)
			}
		}
		if newMarker || x.Lines > 0 {
			out = append(out, x)
		}
	}
	return out
}

// isCode reports whether a line holds code: not blank, not only a comment.
func isCode(l string, py bool) bool {
	t := strings.TrimSpace(l)
	if t == "" {
		return false
	}
	if py {
		return !strings.HasPrefix(t, "#")
	}
	if strings.HasPrefix(t, "//") || strings.HasPrefix(t, "*") {
		return false
	}
	if strings.HasPrefix(t, "/*") {
		end := strings.Index(t, "*/")
		return end >= 0 && strings.TrimSpace(t[end+2:]) != ""
	}
	return true
}

// jsCodeAfter reports whether code follows the hint on its own line.
func jsCodeAfter(l, hint string) bool {
	rest := l[strings.Index(l, hint)+len(hint):]
	if i := strings.Index(rest, "*/"); i >= 0 && strings.HasPrefix(strings.TrimSpace(hint), "/*") {
		rest = rest[i+2:]
	}
	return strings.TrimSpace(rest) != ""
}

// jsStatementEnd is the last line of the statement that starts on line i:
// as far as the braces opened on it close, and an else or catch that
// follows a closing brace.
func jsStatementEnd(lines []string, i int) int {
	depth := 0
	for j := i; j < len(lines); j++ {
		code := stripCode(lines[j], '/')
		depth += strings.Count(code, "{") + strings.Count(code, "(") + strings.Count(code, "[") -
			strings.Count(code, "}") - strings.Count(code, ")") - strings.Count(code, "]")
		if depth <= 0 {
			if j+1 < len(lines) && depth == 0 && strings.HasSuffix(strings.TrimSpace(code), "}") {
				next := strings.TrimSpace(lines[j+1])
				if strings.HasPrefix(next, "else") || strings.HasPrefix(next, "catch") || strings.HasPrefix(next, "finally") {
					continue
				}
			}
			return j
		}
	}
	return len(lines) - 1
}

// pyBlockEnd is the last line a `# pragma: no cover` on line i excludes:
// the line, and when it opens a block (a decorator, or a line ending in a
// colon) every line indented deeper after it.
func pyBlockEnd(lines []string, i int) int {
	code := strings.TrimRight(pyNoCoverRe.Split(lines[i], 2)[0], " \t")
	if !strings.HasSuffix(code, ":") && !strings.HasPrefix(strings.TrimSpace(code), "@") {
		return i
	}
	indent := len(lines[i]) - len(strings.TrimLeft(lines[i], " \t"))
	end := i
	for j := i + 1; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if t == "" {
			continue
		}
		ind := len(lines[j]) - len(strings.TrimLeft(lines[j], " \t"))
		// A decorator's function starts at its own indentation.
		if ind <= indent && !(end == j-1 && strings.HasPrefix(strings.TrimSpace(lines[end]), "@")) {
			break
		}
		end = j
	}
	return end
}

// withExclusions counts the code the exclusions hide as uncovered in rep:
// in its totals, when it has them, and in each file's.
func (rep *CoverageReport) withExclusions(xs []Exclusion) {
	hidden := map[string]int64{}
	var all int64
	for _, x := range xs {
		hidden[x.File] += int64(x.Lines)
		all += int64(x.Lines)
	}
	if all == 0 {
		return
	}
	for _, file := range slices.Sorted(maps.Keys(hidden)) {
		found := false
		for i := range rep.Files {
			f := &rep.Files[i]
			if name := filepath.ToSlash(f.File); name == file || strings.HasSuffix(name, "/"+file) {
				f.Total += hidden[file]
				f.Percent = round2(100 * float64(f.Covered) / float64(f.Total))
				found = true
				break
			}
		}
		if !found {
			rep.Files = append(rep.Files, FileCoverage{File: file, Total: hidden[file]})
		}
	}
	if rep.Total > 0 {
		rep.Total += all
		rep.Percent = 100 * float64(rep.Covered) / float64(rep.Total)
	}
}

// exclusionsSentence says what the exclusions hid, for the check's message.
func exclusionsSentence(xs []Exclusion) string {
	if len(xs) == 0 {
		return ""
	}
	var b bytes.Buffer
	total := 0
	labels := make([]string, 0, len(xs))
	for _, x := range xs {
		total += x.Lines
		labels = append(labels, x.label())
	}
	fmt.Fprintf(&b, " The work excludes code from coverage, and the %s it hides are counted as uncovered: %s.",
		plural(total, "code line", "code lines"), listNames(labels, 5))
	return b.String()
}
