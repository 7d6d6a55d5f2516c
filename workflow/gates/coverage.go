package gates

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// CoverageReport is a parsed coverage report.
type CoverageReport struct {
	Format string `json:"format"`
	// Covered and Total count statements (Go) or lines (the others). Both are 0
	// when a report gives only a rate.
	Covered int64          `json:"covered"`
	Total   int64          `json:"total"`
	Percent float64        `json:"percent"` // unrounded
	Files   []FileCoverage `json:"files,omitempty"`
}

// FileCoverage is the coverage of one file of a report.
type FileCoverage struct {
	File    string  `json:"file"`
	Covered int64   `json:"covered"`
	Total   int64   `json:"total"`
	Percent float64 `json:"percent"` // rounded to 2 decimals
}

// CoverageDetails is the Details of a coverage result.
type CoverageDetails struct {
	File      string         `json:"file"`
	Format    string         `json:"format"`
	Percent   float64        `json:"percent"` // rounded to 2 decimals
	Threshold float64        `json:"threshold"`
	Covered   int64          `json:"covered,omitempty"`
	Total     int64          `json:"total,omitempty"`
	Files     int            `json:"files"`
	Least     []FileCoverage `json:"least_covered,omitempty"` // the 5 least-covered files
	// Excluded lists the coverage exclusions in source whose code counts as
	// uncovered (coverage_exclusions.go).
	Excluded []Exclusion `json:"excluded,omitempty"`
	// Changed is the coverage of the lines the session changed, which the
	// threshold judges when the check says `lines: changed`
	// (coverage_lines.go).
	Changed *ChangedLinesDetails `json:"changed,omitempty"`
}

// ParseCoverage parses a coverage report in format (FormatAuto, or "",
// detects it from the content). ctx may stop a long parse.
func ParseCoverage(ctx context.Context, r io.Reader, format string) (CoverageReport, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if format == "" || format == FormatAuto {
		var err error
		if format, err = detectCoverageFormat(br); err != nil {
			return CoverageReport{}, err
		}
	}
	var (
		rep CoverageReport
		err error
	)
	switch format {
	case FormatGo:
		rep, err = parseGoProfile(ctx, br)
	case FormatCobertura:
		rep, err = parseCobertura(ctx, br)
	case FormatJaCoCo:
		rep, err = parseJaCoCo(ctx, br)
	case FormatLCOV:
		rep, err = parseLCOV(ctx, br)
	case FormatCoveragePy:
		rep, err = parseCoveragePy(br)
	default:
		return CoverageReport{}, fmt.Errorf("unknown coverage format %q", format)
	}
	if err != nil {
		return CoverageReport{}, err
	}
	rep.Format = format
	sort.Slice(rep.Files, func(i, j int) bool { return rep.Files[i].File < rep.Files[j].File })
	return rep, nil
}

// detectCoverageFormat looks at the start of a report to tell its format.
func detectCoverageFormat(br *bufio.Reader) (string, error) {
	head, _ := br.Peek(16 << 10)
	h := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	switch {
	case len(h) == 0:
		return "", errors.New("the report is empty")
	case bytes.HasPrefix(h, []byte("mode:")):
		return FormatGo, nil
	case h[0] == '{':
		return FormatCoveragePy, nil
	case h[0] == '<':
		if bytes.Contains(h, []byte("<coverage")) {
			return FormatCobertura, nil
		}
		if bytes.Contains(h, []byte("<report")) {
			return FormatJaCoCo, nil
		}
		return "", errors.New("the report is XML but neither Cobertura (<coverage>) nor JaCoCo (<report>)")
	case bytes.HasPrefix(h, []byte("TN:")) || bytes.HasPrefix(h, []byte("SF:")) || bytes.Contains(h, []byte("\nSF:")):
		return FormatLCOV, nil
	}
	return "", errors.New("the report's format is not recognised (expected a Go coverprofile, Cobertura or JaCoCo XML, LCOV, or coverage.py JSON)")
}

// finish fills the report's totals from its files, unless a format set them.
// Files with nothing to cover are dropped.
func (rep *CoverageReport) finish(haveTotals bool) {
	kept := rep.Files[:0]
	for _, f := range rep.Files {
		if f.Total > 0 || f.Percent > 0 {
			kept = append(kept, f)
		}
	}
	rep.Files = kept
	if !haveTotals {
		rep.Covered, rep.Total = 0, 0
		for _, f := range rep.Files {
			rep.Covered += f.Covered
			rep.Total += f.Total
		}
		if rep.Total > 0 {
			rep.Percent = 100 * float64(rep.Covered) / float64(rep.Total)
		}
	}
	for i := range rep.Files {
		if rep.Files[i].Total > 0 {
			rep.Files[i].Percent = round2(100 * float64(rep.Files[i].Covered) / float64(rep.Files[i].Total))
		}
	}
}

func round2(f float64) float64 { return math.Round(f*100) / 100 }

// goBlock is one block of a Go coverprofile.
type goBlock struct {
	stmts int64
	count int64
}

// parseGoProfile reads a Go coverprofile ("mode: set" then
// "file:l.c,l.c stmts count" lines). Duplicate blocks, which -coverpkg and
// concatenated profiles produce, are merged as go tool cover does: OR-ed in
// set mode, summed otherwise. Coverage is weighted by statements.
func parseGoProfile(ctx context.Context, r io.Reader) (CoverageReport, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	mode := ""
	blocks := map[string]*goBlock{} // file + "\x00" + position
	line := 0
	for sc.Scan() {
		line++
		if line%4096 == 0 && ctx.Err() != nil {
			return CoverageReport{}, ctx.Err()
		}
		t := strings.TrimSpace(sc.Text())
		if t == "" {
			continue
		}
		if m, ok := strings.CutPrefix(t, "mode:"); ok {
			m = strings.TrimSpace(m)
			if m != "set" && m != "count" && m != "atomic" {
				return CoverageReport{}, fmt.Errorf("line %d: unknown coverprofile mode %q", line, m)
			}
			if mode != "" && m != mode {
				return CoverageReport{}, fmt.Errorf("line %d: the profile mixes modes %s and %s", line, mode, m)
			}
			mode = m
			continue
		}
		if mode == "" {
			return CoverageReport{}, fmt.Errorf("line %d: a Go coverprofile starts with a \"mode: set\" line", line)
		}
		// name.go:line.col,line.col numStmt count, split from the right since
		// a file name may hold spaces.
		fields := make([]string, 3)
		rest := t
		for i := 2; i > 0; i-- {
			sp := strings.LastIndexByte(rest, ' ')
			if sp < 0 {
				return CoverageReport{}, fmt.Errorf("line %d: %q is not a coverprofile block", line, clip(t, 60))
			}
			fields[i], rest = rest[sp+1:], strings.TrimRight(rest[:sp], " ")
		}
		fields[0] = rest
		colon := strings.LastIndexByte(fields[0], ':')
		stmts, err1 := strconv.ParseInt(fields[1], 10, 64)
		count, err2 := strconv.ParseInt(fields[2], 10, 64)
		if colon <= 0 || err1 != nil || err2 != nil || stmts < 0 || count < 0 || !strings.Contains(fields[0][colon:], ",") {
			return CoverageReport{}, fmt.Errorf("line %d: %q is not a coverprofile block", line, clip(t, 60))
		}
		key := fields[0][:colon] + "\x00" + fields[0][colon+1:]
		if b, ok := blocks[key]; ok {
			if b.stmts != stmts {
				return CoverageReport{}, fmt.Errorf("line %d: block %s has %d statements here but %d before", line, fields[0], stmts, b.stmts)
			}
			if mode == "set" {
				b.count |= count
			} else {
				b.count += count
			}
			continue
		}
		blocks[key] = &goBlock{stmts: stmts, count: count}
	}
	if err := sc.Err(); err != nil {
		return CoverageReport{}, fmt.Errorf("the report cannot be read: %w", err)
	}
	if mode == "" {
		return CoverageReport{}, errors.New("the report has no \"mode:\" line, so it is not a Go coverprofile")
	}
	per := map[string]*FileCoverage{}
	for key, b := range blocks {
		file := key[:strings.IndexByte(key, 0)]
		f := per[file]
		if f == nil {
			f = &FileCoverage{File: file}
			per[file] = f
		}
		f.Total += b.stmts
		if b.count > 0 {
			f.Covered += b.stmts
		}
	}
	var rep CoverageReport
	for _, f := range per {
		rep.Files = append(rep.Files, *f)
	}
	rep.finish(false)
	return rep, nil
}

// xmlAttr returns the value of a start element's attribute.
func xmlAttr(se xml.StartElement, name string) (string, bool) {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value, true
		}
	}
	return "", false
}

func xmlInt(se xml.StartElement, name string) (int64, bool) {
	v, ok := xmlAttr(se, name)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	return n, err == nil
}

func xmlFloat(se xml.StartElement, name string) (float64, bool) {
	v, ok := xmlAttr(se, name)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
}

// parseCobertura reads a Cobertura XML report. The total comes from the root's
// lines-covered/lines-valid, else its line-rate, else the lines; each file
// from its class's <lines> (a method's lines repeat them and are skipped), or
// its line-rate when it lists none.
func parseCobertura(ctx context.Context, r io.Reader) (CoverageReport, error) {
	type fileLines struct {
		hits   map[int64]bool // line -> covered
		rate   float64
		noRate bool
	}
	files := map[string]*fileLines{}
	var order []string
	var currentFile string
	var rep CoverageReport
	haveTotals, rootSeen := false, false
	rootRate, haveRootRate := 0.0, false
	err := walkXML(ctx, r, "Cobertura", func(t xml.StartElement, stack []string) {
		name := t.Name.Local
		parent := ""
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		switch {
		case name == "coverage" && len(stack) == 0:
			rootSeen = true
			valid, ok1 := xmlInt(t, "lines-valid")
			covered, ok2 := xmlInt(t, "lines-covered")
			if ok1 && ok2 && valid > 0 {
				rep.Covered, rep.Total = covered, valid
				rep.Percent = 100 * float64(covered) / float64(valid)
				haveTotals = true
			}
			rootRate, haveRootRate = xmlFloat(t, "line-rate")
		case name == "class":
			currentFile, _ = xmlAttr(t, "filename")
			if currentFile == "" {
				currentFile, _ = xmlAttr(t, "name")
			}
			if files[currentFile] == nil {
				rate, ok := xmlFloat(t, "line-rate")
				files[currentFile] = &fileLines{hits: map[int64]bool{}, rate: rate, noRate: !ok}
				order = append(order, currentFile)
			}
		case name == "line" && parent == "lines" && len(stack) >= 2 && stack[len(stack)-2] == "class":
			num, ok1 := xmlInt(t, "number")
			hits, ok2 := xmlInt(t, "hits")
			if ok1 && ok2 && files[currentFile] != nil {
				fl := files[currentFile]
				fl.hits[num] = fl.hits[num] || hits > 0
			}
		}
	})
	if err != nil {
		return CoverageReport{}, err
	}
	if !rootSeen {
		return CoverageReport{}, errors.New("the XML has no <coverage> root element, so it is not a Cobertura report")
	}
	var rateOnly []FileCoverage
	for _, name := range order {
		fl := files[name]
		if len(fl.hits) == 0 {
			if !fl.noRate {
				rateOnly = append(rateOnly, FileCoverage{File: name, Percent: round2(100 * fl.rate)})
			}
			continue
		}
		f := FileCoverage{File: name, Total: int64(len(fl.hits))}
		for _, hit := range fl.hits {
			if hit {
				f.Covered++
			}
		}
		rep.Files = append(rep.Files, f)
	}
	if !haveTotals && haveRootRate {
		rep.Percent = 100 * rootRate
		haveTotals = true
	}
	rep.finish(haveTotals)
	for _, f := range rateOnly {
		if f.Percent > 0 {
			rep.Files = append(rep.Files, f)
		}
	}
	if !haveTotals && rep.Total == 0 {
		return CoverageReport{}, errors.New("the Cobertura report has no line counts and no line-rate")
	}
	return rep, nil
}

// parseJaCoCo reads a JaCoCo XML report: LINE counters of the report (total)
// and of each sourcefile (per file).
func parseJaCoCo(ctx context.Context, r io.Reader) (CoverageReport, error) {
	var rep CoverageReport
	pkg, source := "", ""
	haveTotals, rootSeen := false, false
	err := walkXML(ctx, r, "JaCoCo", func(t xml.StartElement, stack []string) {
		name := t.Name.Local
		parent := ""
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		switch {
		case name == "report" && len(stack) == 0:
			rootSeen = true
		case name == "package":
			pkg, _ = xmlAttr(t, "name")
		case name == "sourcefile":
			source, _ = xmlAttr(t, "name")
		case name == "counter" && (parent == "report" || parent == "sourcefile"):
			if typ, _ := xmlAttr(t, "type"); typ != "LINE" {
				break
			}
			missed, ok1 := xmlInt(t, "missed")
			covered, ok2 := xmlInt(t, "covered")
			if !ok1 || !ok2 {
				break
			}
			if parent == "report" {
				rep.Covered, rep.Total = covered, covered+missed
				if rep.Total > 0 {
					rep.Percent = 100 * float64(covered) / float64(rep.Total)
				}
				haveTotals = true
			} else {
				rep.Files = append(rep.Files, FileCoverage{File: strings.TrimPrefix(pkg+"/"+source, "/"), Covered: covered, Total: covered + missed})
			}
		}
	})
	if err != nil {
		return CoverageReport{}, err
	}
	if !rootSeen {
		return CoverageReport{}, errors.New("the XML has no <report> root element, so it is not a JaCoCo report")
	}
	rep.finish(haveTotals)
	return rep, nil
}

// parseLCOV reads an LCOV tracefile: per SF record, LF/LH, or the DA lines
// when LF/LH are absent or the same file has several records (then the DA
// lines are merged).
func parseLCOV(ctx context.Context, r io.Reader) (CoverageReport, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	type record struct {
		lf, lh         int64
		haveLF, haveLH bool
		da             map[int64]bool
		records        int
	}
	files := map[string]*record{}
	var order []string
	var cur *record
	var curLF, curLH int64
	var curHaveLF, curHaveLH bool
	line := 0
	for sc.Scan() {
		line++
		if line%4096 == 0 && ctx.Err() != nil {
			return CoverageReport{}, ctx.Err()
		}
		t := strings.TrimSpace(sc.Text())
		key, val, _ := strings.Cut(t, ":")
		switch {
		case key == "SF":
			rec := files[val]
			if rec == nil {
				rec = &record{da: map[int64]bool{}}
				files[val] = rec
				order = append(order, val)
			}
			rec.records++
			cur = rec
			curLF, curLH, curHaveLF, curHaveLH = 0, 0, false, false
		case cur == nil:
			// TN: and anything before the first SF.
		case key == "DA":
			parts := strings.Split(val, ",")
			if len(parts) < 2 {
				return CoverageReport{}, fmt.Errorf("line %d: %q is not an LCOV DA line", line, clip(t, 60))
			}
			num, err1 := strconv.ParseInt(parts[0], 10, 64)
			hits, err2 := strconv.ParseFloat(parts[1], 64)
			if err1 != nil || err2 != nil {
				return CoverageReport{}, fmt.Errorf("line %d: %q is not an LCOV DA line", line, clip(t, 60))
			}
			cur.da[num] = cur.da[num] || hits > 0
		case key == "LF":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil {
				return CoverageReport{}, fmt.Errorf("line %d: LF %q is not a number", line, val)
			}
			curLF, curHaveLF = n, true
		case key == "LH":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil {
				return CoverageReport{}, fmt.Errorf("line %d: LH %q is not a number", line, val)
			}
			curLH, curHaveLH = n, true
		case t == "end_of_record":
			if curHaveLF && curHaveLH {
				cur.lf += curLF
				cur.lh += curLH
				cur.haveLF, cur.haveLH = true, true
			}
			cur = nil
		}
	}
	if err := sc.Err(); err != nil {
		return CoverageReport{}, fmt.Errorf("the report cannot be read: %w", err)
	}
	if len(files) == 0 {
		return CoverageReport{}, errors.New("the LCOV report has no SF records")
	}
	var rep CoverageReport
	for _, name := range order {
		rec := files[name]
		f := FileCoverage{File: name}
		if rec.haveLF && rec.haveLH && (rec.records == 1 || len(rec.da) == 0) {
			f.Total, f.Covered = rec.lf, rec.lh
		} else {
			f.Total = int64(len(rec.da))
			for _, hit := range rec.da {
				if hit {
					f.Covered++
				}
			}
		}
		rep.Files = append(rep.Files, f)
	}
	rep.finish(false)
	return rep, nil
}

// parseCoveragePy reads coverage.py's JSON report (`coverage json`): the total
// from totals.percent_covered, else computed from the files' summaries.
func parseCoveragePy(r io.Reader) (CoverageReport, error) {
	type summary struct {
		CoveredLines   *int64   `json:"covered_lines"`
		NumStatements  *int64   `json:"num_statements"`
		PercentCovered *float64 `json:"percent_covered"`
	}
	var doc struct {
		Files map[string]struct {
			Summary summary `json:"summary"`
		} `json:"files"`
		Totals *summary `json:"totals"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return CoverageReport{}, fmt.Errorf("the coverage.py JSON cannot be parsed: %w", err)
	}
	if doc.Totals == nil && len(doc.Files) == 0 {
		return CoverageReport{}, errors.New("the JSON has neither totals nor files, so it is not a coverage.py report")
	}
	var rep CoverageReport
	for name, f := range doc.Files {
		fc := FileCoverage{File: name}
		if f.Summary.CoveredLines != nil && f.Summary.NumStatements != nil {
			fc.Covered, fc.Total = *f.Summary.CoveredLines, *f.Summary.NumStatements
		} else if f.Summary.PercentCovered != nil {
			fc.Percent = round2(*f.Summary.PercentCovered)
		}
		rep.Files = append(rep.Files, fc)
	}
	if t := doc.Totals; t != nil && t.PercentCovered != nil {
		rep.Percent = *t.PercentCovered
		if t.CoveredLines != nil && t.NumStatements != nil {
			rep.Covered, rep.Total = *t.CoveredLines, *t.NumStatements
		}
		rep.finish(true)
		return rep, nil
	}
	rep.finish(false)
	if rep.Total == 0 {
		return CoverageReport{}, errors.New("the coverage.py report has no totals and no file summaries with statement counts")
	}
	return rep, nil
}

// leastCovered returns the n files with the lowest coverage, the most
// uncovered first among equals.
func leastCovered(files []FileCoverage, n int) []FileCoverage {
	out := slices.Clone(files)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Percent != out[j].Percent {
			return out[i].Percent < out[j].Percent
		}
		if ui, uj := out[i].Total-out[i].Covered, out[j].Total-out[j].Covered; ui != uj {
			return ui > uj
		}
		return out[i].File < out[j].File
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// produceHint says how to produce a report of format, guessing from the file
// name when the format is auto.
func produceHint(format, file string) string {
	if format == "" || format == FormatAuto {
		switch strings.ToLower(filepath.Ext(file)) {
		case ".out", ".cov", ".txt":
			format = FormatGo
		case ".info":
			format = FormatLCOV
		case ".json":
			format = FormatCoveragePy
		case ".xml":
			format = FormatCobertura
		}
	}
	switch format {
	case FormatGo:
		return fmt.Sprintf("go test -coverprofile=%s ./...", file)
	case FormatLCOV:
		return fmt.Sprintf("your test runner's LCOV output, e.g. npx jest --coverage --coverageReporters=lcov (then point file at %s)", file)
	case FormatCoveragePy:
		// One pytest run that erases the data of earlier runs first (a
		// separate `coverage json` reads whatever .coverage holds).
		return fmt.Sprintf("python3 -m pytest --cov=. --cov-report=json:%s (pytest-cov 4.1 or later; 4.0 writes Cobertura XML instead: --cov-report=xml:%s)",
			file, strings.TrimSuffix(file, filepath.Ext(file))+".xml")
	case FormatCobertura:
		return fmt.Sprintf("a Cobertura XML report, e.g. python3 -m pytest --cov=. --cov-report=xml:%s", file)
	case FormatJaCoCo:
		return "a JaCoCo XML report, e.g. mvn test jacoco:report (target/site/jacoco/jacoco.xml)"
	}
	return fmt.Sprintf("a coverage report, e.g. go test -coverprofile=%s ./... for Go", file)
}

func (c Check) runCoverage(ctx context.Context, env Env) Result {
	threshold := DefaultCoverageThreshold
	switch {
	case c.Threshold != nil:
		threshold = *c.Threshold
	case env.CoverageThreshold > 0:
		threshold = env.CoverageThreshold
	}
	abs, rel, err := resolve(env.Root, c.File, env.Vars)
	if err != nil {
		return failf(c.Type, "Point the check at a report inside the project.", "The coverage report path cannot be used: %s.", trimDot(err.Error()))
	}
	hint := produceHint(c.Format, rel)
	abs, written := env.written(abs, rel)
	if !written {
		return failf(c.Type, "Make the gate's test command write it ("+hint+"), then run the gate again.", "The coverage report %s was not written by the gate's own run (a report in the project is never read).", rel)
	}
	f, err := os.Open(abs)
	if err != nil {
		what := "cannot be read"
		if errors.Is(err, fs.ErrNotExist) {
			what = "does not exist"
		}
		return failf(c.Type, "Produce it with "+hint+", then run the gate again.", "The coverage report %s %s.", rel, what)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		return failf(c.Type, "Produce it with "+hint+", then run the gate again.", "The coverage report %s is not a regular file.", rel)
	}
	rep, err := ParseCoverage(ctx, f, c.Format)
	if err != nil {
		if ctx.Err() != nil {
			return failf(c.Type, "Run the gate again.", "The coverage check was cancelled.")
		}
		return failf(c.Type, "Regenerate it with "+hint+", then run the gate again.", "The coverage report %s cannot be used: %s.", rel, trimDot(err.Error()))
	}
	if env.Sandbox != nil {
		rep.rebase(env.Sandbox.Seen(), env.Root)
	}
	var excluded []Exclusion // coverage_exclusions.go
	if rep.Format != FormatGo && rep.Format != FormatJaCoCo {
		excluded = sessionExclusions(env.Root, sessionChanges(ctx, env))
		rep.withExclusions(excluded)
	}
	d := CoverageDetails{File: rel, Format: rep.Format, Percent: round2(rep.Percent), Threshold: threshold,
		Covered: rep.Covered, Total: rep.Total, Files: len(rep.Files), Least: leastCovered(rep.Files, 5), Excluded: excluded}
	if rep.Total == 0 && rep.Percent == 0 && len(rep.Files) == 0 {
		r := failf(c.Type, "Run the tests with coverage over the project's code: "+hint+".", "The coverage report %s covers no code.", rel)
		r.Details = d
		return r
	}
	if missing := filesNotInProject(env.Root, rep); len(missing) > 0 {
		r := failf(c.Type, "Regenerate the report from this project's tests with "+hint+", then run the gate again.",
			"The coverage report %s names %s that the project does not have: %s.", rel, plural(len(missing), "file", "files"), listNames(missing, 5))
		r.Details = d
		return r
	}
	var warnings []string
	if c.Lines == CoverageLinesChanged {
		if r, ok := c.judgeChanged(ctx, env, abs, rel, hint, &d); ok {
			return r
		}
		warnings = append(warnings, "The session has no recorded base to read its changed lines from, so the whole report is judged.")
	}
	if d.Percent >= threshold {
		r := pass(c.Type, "Coverage is %.2f%%, meeting the %s%% threshold.%s", d.Percent, fmtPercent(threshold), exclusionsSentence(excluded))
		r.Details = d
		r.Warnings = warnings
		return r
	}
	fix := "Add tests for the least-covered code"
	if len(d.Least) > 0 {
		fix = fmt.Sprintf("Add tests for the least-covered files (%s is at %.2f%%)", d.Least[0].File, d.Least[0].Percent)
	}
	if len(excluded) > 0 {
		fix = "Remove the coverage exclusions the work added and test that code; " + strings.ToLower(fix[:1]) + fix[1:]
	}
	r := failf(c.Type, fix+", regenerate the report and run the gate again.", "Coverage is %.2f%%, below the %s%% threshold.%s", d.Percent, fmtPercent(threshold), exclusionsSentence(excluded))
	r.Details = d
	r.Warnings = warnings
	return r
}

// rebase renames the files a report names by absolute path under seen,
// where a sandbox showed the run the project (a copy of it, on macOS and
// Windows), to the same files under root.
func (r *CoverageReport) rebase(seen, root string) {
	if seen == "" || seen == root {
		return
	}
	prefix := filepath.ToSlash(seen) + "/"
	for i, f := range r.Files {
		if name := filepath.ToSlash(f.File); strings.HasPrefix(name, prefix) {
			r.Files[i].File = filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(name, prefix)))
		}
	}
}

// maxCoverageFilesChecked caps the files of a report looked up in the project.
const maxCoverageFilesChecked = 5000

// filesNotInProject returns the files a Go, LCOV or coverage.py report names
// that are not in the project, so a report made up or copied from another
// project is not read as this one's. A Go profile names files by import
// path: the module path from go.mod is taken off. JaCoCo and Cobertura name
// files relative to source roots the report may not list, so they are not
// looked up.
func filesNotInProject(root string, rep CoverageReport) []string {
	if rep.Format != FormatGo && rep.Format != FormatLCOV && rep.Format != FormatCoveragePy {
		return nil
	}
	module := ""
	if data, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "module" {
				module = strings.Trim(f[1], `"`)
			}
		}
	}
	exists := func(p string) bool {
		fi, err := os.Stat(p)
		return err == nil && fi.Mode().IsRegular()
	}
	var missing []string
	for i, f := range rep.Files {
		if i == maxCoverageFilesChecked {
			break
		}
		name := filepath.FromSlash(f.File)
		switch {
		case filepath.IsAbs(name):
			if rel, err := filepath.Rel(root, name); err == nil && !strings.HasPrefix(rel, "..") && exists(name) {
				continue
			}
		case exists(filepath.Join(root, name)):
			continue
		case module != "" && strings.HasPrefix(f.File, module+"/") && exists(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(f.File, module+"/")))):
			continue
		}
		missing = append(missing, f.File)
	}
	return missing
}

func fmtPercent(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// walkXML calls start for every start element of an XML document, with the
// names of the elements it is nested in (outermost first), and stops early
// when ctx ends.
func walkXML(ctx context.Context, r io.Reader, format string, start func(t xml.StartElement, stack []string)) error {
	return walkXMLText(ctx, r, format, start, nil)
}

// walkXMLText is walkXML that also hands text to text (when not nil), with
// the stack of the elements it is in.
func walkXMLText(ctx context.Context, r io.Reader, format string, start func(t xml.StartElement, stack []string), text func(data []byte, stack []string)) error {
	dec := xml.NewDecoder(r)
	dec.Strict = false
	var stack []string
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("the %s XML cannot be parsed: %w", format, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			start(t, stack)
			stack = append(stack, t.Name.Local)
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			if text != nil {
				text(t, stack)
			}
		}
	}
}

// judgeChanged judges the coverage of the lines the session changed, for a
// check with `lines: changed`. ok is false when the session has no recorded
// base to read its change from: the whole report is judged then, with a
// warning.
func (c Check) judgeChanged(ctx context.Context, env Env, abs, rel, hint string, d *CoverageDetails) (r Result, ok bool) {
	changes, ok := changedCode(ctx, env)
	if !ok {
		return Result{}, false
	}
	f, err := os.Open(abs)
	if err != nil {
		return failf(c.Type, "Produce it with "+hint+", then run the gate again.", "The coverage report %s cannot be read: %s.", rel, trimDot(err.Error())), true
	}
	defer f.Close()
	lines, err := ParseLineCoverage(ctx, f, c.Format)
	if err != nil {
		return failf(c.Type, "Regenerate it with "+hint+", then run the gate again.", "The coverage report %s cannot be used: %s.", rel, trimDot(err.Error())), true
	}
	seen := ""
	if env.Sandbox != nil {
		seen = env.Sandbox.Seen()
	}
	ch := judgeChangedLines(env.Root, projectLines(env.Root, seen, lines), changes, d.Excluded)
	d.Changed = &ch
	var warnings []string
	if len(ch.Unmeasured) > 0 {
		warnings = append(warnings, fmt.Sprintf("The coverage report does not name %s the session changed, so %s not judged: %s.",
			plural(len(ch.Unmeasured), "code file", "code files"), map[bool]string{true: "it is", false: "they are"}[len(ch.Unmeasured) == 1], listNames(ch.Unmeasured, 5)))
	}
	if ch.Lines == 0 {
		r = pass(c.Type, "The session changed no code line the coverage report measures (total coverage %.2f%%).", d.Percent)
	} else if ch.Percent >= d.Threshold {
		r = pass(c.Type, "Coverage of the changed lines is %.2f%% (%d of %d), meeting the %s%% threshold.%s",
			ch.Percent, ch.Covered, ch.Lines, fmtPercent(d.Threshold), exclusionsSentence(d.Excluded))
	} else {
		r = failf(c.Type, "Add tests that run the uncovered changed lines (or remove the code no test needs), then run the gate again.",
			"Coverage of the changed lines is %.2f%% (%d of %d), below the %s%% threshold; not run by any test: %s.%s",
			ch.Percent, ch.Covered, ch.Lines, fmtPercent(d.Threshold), listNames(uncoveredLabels(ch.Uncovered), 10), exclusionsSentence(d.Excluded))
	}
	r.Details = *d
	r.Warnings = warnings
	return r, true
}
