package gates

import (
	"bufio"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agentos-dev/agentos/workflow/baseline"
)

// Coverage of the changed lines. A project's old code may be untested, and
// total coverage then punishes a small change for what it did not write, or
// lets it through because the old code is well tested. With `lines:
// changed`, a coverage check judges only the code lines the session added or
// changed (read from its recorded base, as fail-before reads them): the
// share of them the tests ran must meet the threshold, and a refusal names
// each uncovered changed line.

// Values of a coverage check's `lines` key.
const (
	CoverageLinesAll     = "all"
	CoverageLinesChanged = "changed"
)

// UncoveredLines is one changed file's lines the tests did not run.
type UncoveredLines struct {
	File  string `json:"file"`
	Lines []int  `json:"lines"`
	// Why is set when the lines were not read from the report: "not in the
	// report" (no test loaded the file), "excluded" (an exclusion the work
	// added hides them).
	Why string `json:"why,omitempty"`
}

// ChangedLinesDetails is the part of a coverage check's details about the
// changed lines.
type ChangedLinesDetails struct {
	Files     int              `json:"files"`
	Lines     int              `json:"lines"`   // changed code lines the report measures
	Covered   int              `json:"covered"` // of those, run by a test
	Percent   float64          `json:"percent"` // rounded to 2 decimals; 100 when there is nothing to cover
	Uncovered []UncoveredLines `json:"uncovered,omitempty"`
	// Unmeasured names changed code files the report does not name and
	// that are not counted (a TS/JS file no test loads may hold only types).
	Unmeasured []string `json:"unmeasured,omitempty"`
}

// lineHits is one report file's lines: line -> run by a test.
type lineHits map[int]bool

// maxUncoveredListed caps the uncovered lines kept in a check's details.
const maxUncoveredListed = 200

// codePatterns are the files whose changed lines are judged (git pathspecs).
var codePatterns = []string{"*.go", "*.py", "*.js", "*.jsx", "*.ts", "*.tsx", "*.mjs", "*.cjs", "*.mts", "*.cts", "*.java", "*.kt"}

// ParseLineCoverage reads the per-line coverage of a report, by the file
// names the report gives. JaCoCo and Cobertura reports name files relative
// to their source roots; the others by path or, for Go, import path.
func ParseLineCoverage(ctx context.Context, r io.Reader, format string) (map[string]lineHits, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if format == "" || format == FormatAuto {
		var err error
		if format, err = detectCoverageFormat(br); err != nil {
			return nil, err
		}
	}
	out := map[string]lineHits{}
	mark := func(file string, line int, hit bool) {
		if line <= 0 {
			return
		}
		h := out[file]
		if h == nil {
			h = lineHits{}
			out[file] = h
		}
		h[line] = h[line] || hit
	}
	switch format {
	case FormatGo:
		sc := bufio.NewScanner(br)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for n := 0; sc.Scan(); n++ {
			if n%4096 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			t := strings.TrimSpace(sc.Text())
			if t == "" || strings.HasPrefix(t, "mode:") {
				continue
			}
			// file:l1.c1,l2.c2 stmts count
			f := strings.Fields(t)
			if len(f) < 3 {
				continue
			}
			loc := strings.Join(f[:len(f)-2], " ")
			count, err := strconv.ParseInt(f[len(f)-1], 10, 64)
			colon := strings.LastIndexByte(loc, ':')
			if err != nil || colon <= 0 {
				continue
			}
			from, to, ok := strings.Cut(loc[colon+1:], ",")
			l1, err1 := strconv.Atoi(strings.Split(from, ".")[0])
			l2, err2 := strconv.Atoi(strings.Split(to, ".")[0])
			if !ok || err1 != nil || err2 != nil || l2 < l1 || l2-l1 > 100000 {
				continue
			}
			for l := l1; l <= l2; l++ {
				mark(loc[:colon], l, count > 0)
			}
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("the report cannot be read: %w", err)
		}
	case FormatLCOV:
		sc := bufio.NewScanner(br)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		file := ""
		for n := 0; sc.Scan(); n++ {
			if n%4096 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			key, val, _ := strings.Cut(strings.TrimSpace(sc.Text()), ":")
			switch key {
			case "SF":
				file = val
			case "DA":
				parts := strings.Split(val, ",")
				if file == "" || len(parts) < 2 {
					continue
				}
				num, err1 := strconv.Atoi(parts[0])
				hits, err2 := strconv.ParseFloat(parts[1], 64)
				if err1 == nil && err2 == nil {
					mark(file, num, hits > 0)
				}
			}
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("the report cannot be read: %w", err)
		}
	case FormatCoveragePy:
		var doc struct {
			Files map[string]struct {
				Executed []int `json:"executed_lines"`
				Missing  []int `json:"missing_lines"`
			} `json:"files"`
		}
		if err := json.NewDecoder(br).Decode(&doc); err != nil {
			return nil, fmt.Errorf("the coverage.py JSON cannot be parsed: %w", err)
		}
		for name, f := range doc.Files {
			for _, l := range f.Missing {
				mark(name, l, false)
			}
			for _, l := range f.Executed {
				mark(name, l, true)
			}
		}
	case FormatCobertura, FormatJaCoCo:
		var sources []string
		file, pkg := "", ""
		inSource := false
		dec := xml.NewDecoder(br)
		dec.Strict = false
		for n := 0; ; n++ {
			if n%4096 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("the XML cannot be parsed: %w", err)
			}
			switch t := tok.(type) {
			case xml.StartElement:
				inSource = t.Name.Local == "source"
				switch t.Name.Local {
				case "class": // Cobertura
					file, _ = xmlAttr(t, "filename")
				case "package": // JaCoCo
					pkg, _ = xmlAttr(t, "name")
				case "sourcefile": // JaCoCo
					name, _ := xmlAttr(t, "name")
					file = strings.TrimPrefix(pkg+"/"+name, "/")
				case "line":
					if format == FormatCobertura {
						num, ok1 := xmlInt(t, "number")
						hits, ok2 := xmlInt(t, "hits")
						if ok1 && ok2 && file != "" {
							mark(file, int(num), hits > 0)
						}
					} else {
						num, ok1 := xmlInt(t, "nr")
						ci, ok2 := xmlInt(t, "ci")
						if ok1 && ok2 && file != "" {
							mark(file, int(num), ci > 0)
						}
					}
				}
			case xml.CharData:
				if inSource {
					if s := strings.TrimSpace(string(t)); s != "" {
						sources = append(sources, s)
					}
				}
			case xml.EndElement:
				inSource = false
			}
		}
		// Cobertura names files relative to its <source> roots: an
		// absolute root joined to the name is the file.
		if len(sources) > 0 {
			joined := map[string]lineHits{}
			for name, h := range out {
				for _, s := range sources {
					if filepath.IsAbs(s) && !filepath.IsAbs(name) {
						joined[filepath.ToSlash(filepath.Join(s, name))] = h
					}
				}
				joined[name] = h
			}
			out = joined
		}
	default:
		return nil, fmt.Errorf("unknown coverage format %q", format)
	}
	return out, nil
}

// projectLines renames a report's files to paths relative to root: an
// absolute path under root (or under seen, where a sandbox showed the run
// the project), a Go import path under the module of go.mod, or a relative
// path as it is. Names outside the project are dropped.
func projectLines(root, seen string, rep map[string]lineHits) map[string]lineHits {
	module := projectModule(root)
	out := map[string]lineHits{}
	for name, h := range rep {
		p := filepath.ToSlash(name)
		switch {
		case filepath.IsAbs(filepath.FromSlash(p)) || strings.HasPrefix(p, "/"):
			rel := ""
			for _, r := range []string{seen, root} {
				if r == "" {
					continue
				}
				if x, err := filepath.Rel(r, filepath.FromSlash(p)); err == nil && x != ".." && !strings.HasPrefix(x, ".."+string(filepath.Separator)) {
					rel = filepath.ToSlash(x)
					break
				}
			}
			if rel == "" {
				continue
			}
			p = rel
		case module != "" && strings.HasPrefix(p, module+"/"):
			p = strings.TrimPrefix(p, module+"/")
		default:
			p = path.Clean(p)
		}
		if prev, ok := out[p]; ok {
			for l, hit := range h {
				prev[l] = prev[l] || hit
			}
			continue
		}
		out[p] = maps.Clone(h)
	}
	return out
}

// projectModule is the module path of root's go.mod, or "".
func projectModule(root string) string {
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
			return strings.Trim(f[1], `"`)
		}
	}
	return ""
}

// changedCode returns the code files (not tests) the session changed, with
// their added lines, as sessionChanges does for the exclusions. ok is false
// when there is no base to read them against.
func changedCode(ctx context.Context, env Env) (map[string]addedLines, bool) {
	keep := func(p string) bool {
		return p != "" && slices.ContainsFunc(codePatterns, func(g string) bool { return strings.HasSuffix(p, g[1:]) }) && !baseline.IsTestFile(p)
	}
	if env.SessionDiff == nil {
		return nil, false
	}
	diff, err := env.SessionDiff(ctx, codePatterns)
	if err != nil {
		return nil, false
	}
	out := map[string]addedLines{}
	for p, a := range addedFromDiffFunc(diff, keep) {
		if len(a.lines) > 0 {
			out[p] = a
		}
	}
	return out, true
}

// judgeChangedLines measures the changed code lines against the report's
// lines (rep, by project-relative path). Lines the report does not measure
// (blank, comments, declarations) are not counted, nor a line holding only
// closing brackets. A changed file the report does not name counts whole as
// uncovered when no test can have loaded it: a Go file's function bodies, a
// Python file in a folder whose other files the report names. Lines hidden
// by an exclusion the work added count as uncovered.
func judgeChangedLines(root string, rep map[string]lineHits, changes map[string]addedLines, excluded []Exclusion) ChangedLinesDetails {
	hidden := map[string]map[int]bool{}
	for _, x := range excluded {
		if hidden[x.File] == nil {
			hidden[x.File] = map[int]bool{}
		}
		for _, l := range x.hidden {
			hidden[x.File][l] = true
		}
	}
	dirs := map[string]bool{}
	for name := range rep {
		dirs[path.Dir(name)] = true
	}
	var d ChangedLinesDetails
	listed := 0
	for _, file := range slices.Sorted(maps.Keys(changes)) {
		src, err := readSource(root, file)
		if err != nil {
			continue // deleted since, or not a regular file
		}
		lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
		changed := slices.Sorted(maps.Keys(changes[file].lines))
		hits, named := rep[file]
		if !named {
			hits, named = suffixMatch(rep, file)
		}
		var uncovered []int
		why := ""
		counted := 0
		if h := hidden[file]; len(h) > 0 {
			rest := changed[:0:0]
			for _, l := range changed {
				if h[l] {
					counted++
					uncovered = append(uncovered, l)
					why = "excluded"
				} else {
					rest = append(rest, l)
				}
			}
			changed = rest
		}
		switch {
		case len(changed) == 0:
		case named:
			for _, l := range changed {
				if l > len(lines) || !judgedLine(lines[l-1]) {
					continue
				}
				hit, measured := hits[l]
				if !measured {
					continue
				}
				counted++
				if hit {
					d.Covered++
				} else {
					uncovered = append(uncovered, l)
				}
			}
		case strings.HasSuffix(file, ".go"):
			for _, l := range goBodyLines(root, file, src, changed) {
				if judgedLine(lines[l-1]) {
					counted++
					uncovered = append(uncovered, l)
				}
			}
			why = "not in the report"
		case strings.HasSuffix(file, ".py") && dirs[path.Dir(file)]:
			for _, l := range changed {
				if l <= len(lines) && judgedLine(lines[l-1]) && isCode(lines[l-1], true) {
					counted++
					uncovered = append(uncovered, l)
				}
			}
			why = "not in the report"
		default:
			d.Unmeasured = append(d.Unmeasured, file)
		}
		if counted > 0 {
			d.Files++
			d.Lines += counted
		}
		if len(uncovered) > 0 && listed < maxUncoveredListed {
			if len(uncovered) > maxUncoveredListed-listed {
				uncovered = uncovered[:maxUncoveredListed-listed]
			}
			listed += len(uncovered)
			d.Uncovered = append(d.Uncovered, UncoveredLines{File: file, Lines: uncovered, Why: why})
		}
	}
	d.Percent = 100
	if d.Lines > 0 {
		d.Percent = round2(100 * float64(d.Covered) / float64(d.Lines))
	}
	return d
}

// readSource reads a project file that is a regular file of at most
// maxExclusionFileBytes.
func readSource(root, rel string) ([]byte, error) {
	p := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxExclusionFileBytes {
		return nil, errors.New("not a regular file of a readable size")
	}
	return os.ReadFile(p)
}

// suffixMatch finds the report file a project file is, when the report
// names it relative to a source root (Cobertura, JaCoCo): the longest name
// the path ends with.
func suffixMatch(rep map[string]lineHits, file string) (lineHits, bool) {
	best := ""
	for name := range rep {
		if !strings.HasPrefix(name, "/") && strings.HasSuffix(file, "/"+name) && len(name) > len(best) {
			best = name
		}
	}
	if best == "" {
		return nil, false
	}
	return rep[best], true
}

// judgedLine reports whether a line is judged: not blank, and not only
// brackets and punctuation (the closing brace of a block, which a Go
// profile counts inside the block).
func judgedLine(l string) bool {
	t := strings.TrimSpace(l)
	if t == "" || strings.HasPrefix(t, "//") {
		return false
	}
	return strings.Trim(t, "{}()[];, ") != ""
}

// goBodyLines returns the changed lines inside function bodies of a Go file
// the report does not name: code the build compiles and no test ran. A
// file the build leaves out on this system has none.
func goBodyLines(root, rel string, src []byte, changed []int) []int {
	ctxt := build.Default
	if ok, err := ctxt.MatchFile(filepath.Join(root, filepath.FromSlash(path.Dir(rel))), path.Base(rel)); err != nil || !ok {
		return nil
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var bodies [][2]int
	ast.Inspect(f, func(n ast.Node) bool {
		var body *ast.BlockStmt
		switch fn := n.(type) {
		case *ast.FuncDecl:
			body = fn.Body
		case *ast.FuncLit:
			body = fn.Body
		}
		if body != nil {
			bodies = append(bodies, [2]int{fset.Position(body.Lbrace).Line, fset.Position(body.Rbrace).Line})
		}
		return true
	})
	var out []int
	for _, l := range changed {
		for _, b := range bodies {
			if l >= b[0] && l <= b[1] {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

// lineRanges writes lines as ranges: 3, 7-9.
func lineRanges(lines []int) string {
	var parts []string
	for i := 0; i < len(lines); {
		j := i
		for j+1 < len(lines) && lines[j+1] == lines[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", lines[i], lines[j]))
		} else {
			parts = append(parts, strconv.Itoa(lines[i]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// uncoveredLabels names each file's uncovered lines: greet.go:12, 14-15.
func uncoveredLabels(u []UncoveredLines) []string {
	out := make([]string, 0, len(u))
	for _, f := range u {
		label := f.File + ":" + lineRanges(f.Lines)
		if f.Why != "" {
			label += " (" + f.Why + ")"
		}
		out = append(out, label)
	}
	return out
}
