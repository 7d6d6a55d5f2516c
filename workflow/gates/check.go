package gates

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/internal/sandbox"
)

// Check types.
const (
	TypeFilesExist         = "files_exist"
	TypeMarkdownSections   = "markdown_sections"
	TypeTasksFormat        = "tasks_format"
	TypeCommand            = "command"
	TypeCoverage           = "coverage"
	TypeAcceptanceCriteria = "acceptance_criteria"
	TypeEvidence           = "evidence"
	TypeApproval           = "approval"
)

// Limits and defaults of the command and coverage checks.
const (
	DefaultCommandTimeout    = 10 * time.Minute
	MaxCommandTimeout        = time.Hour
	DefaultCoverageThreshold = 80.0
	// OutputTailBytes is how much of a command's output a Result keeps.
	OutputTailBytes = 4096
)

// Coverage report formats.
const (
	FormatAuto       = "auto"
	FormatGo         = "go"
	FormatCobertura  = "cobertura"
	FormatLCOV       = "lcov"
	FormatCoveragePy = "coveragepy"
	FormatJaCoCo     = "jacoco"
)

// CoverageFormats lists the accepted values of a coverage check's format.
var CoverageFormats = []string{FormatAuto, FormatGo, FormatCobertura, FormatLCOV, FormatCoveragePy, FormatJaCoCo}

// Check is one gate check as written in a workflow.yaml phase's `gate:` list.
// Which fields apply depends on Type; see the package documentation.
type Check struct {
	Type        string `yaml:"type" json:"type"`
	Description string `yaml:"description,omitempty" json:"description,omitempty"`

	// files_exist
	Paths []string `yaml:"paths,omitempty" json:"paths,omitempty"`
	// markdown_sections, tasks_format, coverage, acceptance_criteria
	File string `yaml:"file,omitempty" json:"file,omitempty"`
	// markdown_sections: the required headings; MinWords holds the minimums
	// given as {name, min_words} (others need DefaultMinWords); Template names
	// the embedded spec template (TemplateNames) whose guidance may not be
	// passed off as a section's content.
	Sections []string       `yaml:"sections,omitempty" json:"sections,omitempty"`
	MinWords map[string]int `yaml:"-" json:"min_words,omitempty"`
	Template string         `yaml:"template,omitempty" json:"template,omitempty"`
	// tasks_format: the requirements file whose FR-n every task list must serve
	Requirements string `yaml:"requirements,omitempty" json:"requirements,omitempty"`

	// command: Command is the `run:` string, run through the platform shell.
	Command string        `yaml:"run,omitempty" json:"run,omitempty"`
	Timeout time.Duration `yaml:"-" json:"timeout,omitempty"` // `timeout: 10m`; 0 means DefaultCommandTimeout
	Workdir string        `yaml:"workdir,omitempty" json:"workdir,omitempty"`
	// Report is the test report the command's result is read from:
	// go-test-json, junit:PATH or exit-status; "" reads the exit status only.
	Report string `yaml:"report,omitempty" json:"report,omitempty"`
	// Produces lists files the command must write: removed before it runs,
	// required after, dated after its start.
	Produces []string `yaml:"produces,omitempty" json:"produces,omitempty"`

	// coverage
	Format    string   `yaml:"format,omitempty" json:"format,omitempty"`       // "" means auto
	Threshold *float64 `yaml:"threshold,omitempty" json:"threshold,omitempty"` // percent; nil means Env.CoverageThreshold
	// Lines is what the threshold applies to: "all" (the default), the
	// whole report, or "changed", the code lines the session changed.
	Lines string `yaml:"lines,omitempty" json:"lines,omitempty"`

	// evidence
	Fields []EvidenceField `yaml:"fields,omitempty" json:"fields,omitempty"`

	// Params holds the keys of a registered (Extension) check type.
	Params map[string]string `yaml:"-" json:"params,omitempty"`
}

// Approval is a person's approval of a phase, recorded by the CLI.
type Approval struct {
	By   string    `json:"by"`
	At   time.Time `json:"at"`
	Note string    `json:"note,omitempty"`
	// Via says how the person approved: "terminal", "non-interactive
	// (--yes)", or "elicitation by CLIENT".
	Via string `json:"via,omitempty"`
}

// Env is what a check may look at.
type Env struct {
	// Root is the project root, an absolute path.
	Root string
	// Vars holds the placeholder values, e.g. "spec_dir" ->
	// ".agentos/specs/2026-11-22-login", written {spec_dir} in paths and commands.
	Vars map[string]string
	// Evidence is what the agent supplied for this phase, JSON-decoded.
	Evidence map[string]any
	// Approved is a person's approval recorded by the CLI; nil if none.
	Approved *Approval
	// TasksPhase is the tasks.md phase (1-based) an acceptance_criteria check
	// covers; 0 means every phase.
	TasksPhase int
	// Strict turns traceability warnings into errors.
	Strict bool
	// CoverageThreshold applies when a coverage check gives none; 0 means 80.
	CoverageThreshold float64
	// Tests receives what a command check with a report learned about the
	// tests it ran, for the checks after it; nil keeps nothing.
	Tests *TestRun
	// Sandbox is where command checks run: the project behind a throwaway
	// layer, no network, no secrets (package internal/sandbox). What they
	// write, reports and coverage included, is read from it, and the real
	// project is never touched. Nil runs them in the project itself, which
	// only a person's choice of the weaker mode allows.
	Sandbox *sandbox.Sandbox
	// Before runs the tests on the code before the session's change, for
	// the acceptance_criteria check's fail-before; nil checks no such thing.
	Before BeforeRun
	// Earlier runs the tests as they were when the session started, for
	// the command check that reads a test report: every test that passed
	// then must still hold (PASS_TO_PASS); nil checks no such thing.
	Earlier EarlierRun
	// SessionDiff returns the session's change since its recorded base, as
	// a unified diff with no context of the files matching patterns (git
	// pathspecs); nil when the session has no base.
	SessionDiff func(ctx context.Context, patterns []string) ([]byte, error)
	// Only, when set, are the criterion IDs this gate proves (lower case):
	// a converge session's broken criteria. The phase's other criteria were
	// proven when the spec was finished and must stay checked; their tests
	// are held by the earlier-tests check, not proven again.
	Only map[string]bool
}

// written returns where to read the file a command of this gate wrote at
// abs (rel to the root), and false when no command of this gate wrote it:
// with a sandbox only the run's own layer counts, so a file left in the
// project, by an earlier run or an agent, never passes for a fresh one.
func (env Env) written(abs, rel string) (string, bool) {
	if env.Sandbox == nil {
		return abs, true
	}
	return env.Sandbox.Path(rel)
}

// Result is the outcome of one check.
type Result struct {
	Type        string   `json:"type"`
	Passed      bool     `json:"passed"`
	Message     string   `json:"message"`               // one sentence: what was found
	Remediation string   `json:"remediation,omitempty"` // one line: what to do to pass; empty when passed
	Details     any      `json:"details,omitempty"`     // small, check-specific: see the *Details types
	Output      string   `json:"output,omitempty"`      // command output tail, at most OutputTailBytes
	Warnings    []string `json:"warnings,omitempty"`
}

// builtinKeys lists the keys (besides type and description) each built-in
// check type takes, and which of them are required.
var builtinKeys = map[string]struct{ allowed, required []string }{
	TypeFilesExist:         {[]string{"paths"}, []string{"paths"}},
	TypeMarkdownSections:   {[]string{"file", "sections", "template"}, []string{"file", "sections"}},
	TypeTasksFormat:        {[]string{"file", "requirements"}, []string{"file"}},
	TypeCommand:            {[]string{"run", "timeout", "workdir", "report", "produces"}, []string{"run"}},
	TypeCoverage:           {[]string{"file", "format", "threshold", "lines"}, []string{"file"}},
	TypeAcceptanceCriteria: {[]string{"file"}, []string{"file"}},
	TypeEvidence:           {[]string{"fields"}, []string{"fields"}},
	TypeApproval:           {nil, nil},
}

// setKeys names the type-specific fields c has set, by their YAML key.
func (c Check) setKeys() []string {
	var keys []string
	add := func(set bool, key string) {
		if set {
			keys = append(keys, key)
		}
	}
	add(c.Paths != nil, "paths")
	add(c.File != "", "file")
	add(c.Sections != nil, "sections")
	add(c.Template != "", "template")
	add(c.Requirements != "", "requirements")
	add(c.Command != "", "run")
	add(c.Timeout != 0, "timeout")
	add(c.Workdir != "", "workdir")
	add(c.Report != "", "report")
	add(c.Produces != nil, "produces")
	add(c.Format != "", "format")
	add(c.Threshold != nil, "threshold")
	add(c.Lines != "", "lines")
	add(c.Fields != nil, "fields")
	return keys
}

// Validate reports whether c is a well-formed check: a known type, the keys
// that type needs, none it does not take, and values in range.
func (c Check) Validate() error {
	allowed, required, ok := keySpec(c.Type)
	if !ok {
		if c.Type == "" {
			return errors.New("the check has no type")
		}
		return fmt.Errorf("unknown check type %q%s (known: %s)", c.Type, suggest(c.Type, Types()), strings.Join(Types(), ", "))
	}
	set := c.setKeys()
	if ext, isExt := extension(c.Type); isExt {
		if len(set) > 0 {
			return fmt.Errorf("%s check does not take %q%s", aType(c.Type), set[0], knownKeys(c.Type))
		}
		return c.validateExtension(ext)
	}
	if len(c.Params) > 0 {
		k := slices.Sorted(maps.Keys(c.Params))[0]
		return fmt.Errorf("%s check does not take %q%s", aType(c.Type), k, knownKeys(c.Type))
	}
	for _, k := range set {
		if !slices.Contains(allowed, k) {
			return fmt.Errorf("%s check does not take %q%s", aType(c.Type), k, knownKeys(c.Type))
		}
	}
	for _, k := range required {
		if !slices.Contains(set, k) {
			return fmt.Errorf("%s check needs %q", aType(c.Type), k)
		}
	}
	for _, p := range append(append(slices.Clone(c.Paths), c.Produces...), c.File, c.Workdir, c.Command, c.Report, c.Requirements) {
		if err := checkPlaceholderSyntax(p); err != nil {
			return err
		}
	}
	switch c.Type {
	case TypeFilesExist:
		if len(c.Paths) == 0 {
			return errors.New("a files_exist check needs at least one path")
		}
		for _, p := range c.Paths {
			if strings.TrimSpace(p) == "" {
				return errors.New("a files_exist path is empty")
			}
		}
	case TypeMarkdownSections:
		if len(c.Sections) == 0 {
			return errors.New("a markdown_sections check needs at least one section")
		}
		seen := map[string]bool{}
		for _, s := range c.Sections {
			n := normalizeHeading(s)
			if n == "" {
				return fmt.Errorf("section name %q is empty once numbering and punctuation are removed", s)
			}
			if seen[n] {
				return fmt.Errorf("section %q is listed twice", s)
			}
			seen[n] = true
		}
		for name, n := range c.MinWords {
			if !slices.Contains(c.Sections, name) {
				return fmt.Errorf("min_words is given for %q, which is not a listed section", name)
			}
			if n < 1 || n > MaxMinWords {
				return fmt.Errorf("min_words %d for %q is out of range: give 1 to %d", n, name, MaxMinWords)
			}
		}
		if c.Template != "" {
			if _, err := specTemplate(c.Template); err != nil {
				return err
			}
		}
	case TypeCommand:
		if strings.TrimSpace(c.Command) == "" {
			return errors.New("a command check needs a non-empty run")
		}
		if c.Timeout < 0 || c.Timeout > MaxCommandTimeout {
			return fmt.Errorf("timeout %s is out of range: give one above 0 and at most %s", c.Timeout, MaxCommandTimeout)
		}
		if c.Report != "" && !strings.Contains(c.Report, "{") {
			if _, _, err := parseReportSpec(c.Report); err != nil {
				return err
			}
		}
		for _, p := range c.Produces {
			if strings.TrimSpace(p) == "" {
				return errors.New("a command's produces path is empty")
			}
		}
	case TypeCoverage:
		if c.Format != "" && !slices.Contains(CoverageFormats, c.Format) {
			return fmt.Errorf("unknown coverage format %q%s (known: %s)", c.Format, suggest(c.Format, CoverageFormats), strings.Join(CoverageFormats, ", "))
		}
		if c.Threshold != nil && (*c.Threshold < 0 || *c.Threshold > 100 || math.IsNaN(*c.Threshold)) {
			return fmt.Errorf("threshold %v is out of range: give a percentage from 0 to 100", *c.Threshold)
		}
		if c.Lines != "" && c.Lines != CoverageLinesAll && c.Lines != CoverageLinesChanged {
			return fmt.Errorf("lines %q is not known: give %s (the whole report) or %s (the lines the session changed)", c.Lines, CoverageLinesAll, CoverageLinesChanged)
		}
	case TypeEvidence:
		if len(c.Fields) == 0 {
			return errors.New("an evidence check needs at least one field")
		}
		seen := map[string]bool{}
		for _, f := range c.Fields {
			if err := f.Validate(); err != nil {
				return err
			}
			if seen[f.Name] {
				return fmt.Errorf("evidence field %q is declared twice", f.Name)
			}
			seen[f.Name] = true
		}
	}
	return nil
}

func knownKeys(typ string) string {
	allowed, _, _ := keySpec(typ)
	if len(allowed) == 0 {
		return " (it takes only type and description)"
	}
	return " (it takes " + strings.Join(allowed, ", ") + ", description)"
}

// Run runs the check against the project described by env. It never panics: a
// bad check, a bad environment, a cancelled context or an internal error is a
// failed Result saying so. ctx bounds everything the check does.
func (c Check) Run(ctx context.Context, env Env) (res Result) {
	defer func() {
		if r := recover(); r != nil {
			res = failf(c.Type, "Report this as a bug in agentos, with the check that caused it.",
				"The %s check stopped on an internal error: %v.", c.Type, r)
			res.Details = map[string]string{"stack": tail(string(debug.Stack()), 2048)}
		}
		res.Type = c.Type
	}()
	if ctx == nil {
		ctx = context.Background()
	}
	if err := c.Validate(); err != nil {
		return failf(c.Type, "Fix this check in the workflow definition.", "The gate check is invalid: %s.", trimDot(err.Error()))
	}
	root, err := projectRoot(env.Root)
	if err != nil {
		return failf(c.Type, "Run the gate with the project's absolute root folder.", "%s.", upperFirst(trimDot(err.Error())))
	}
	env.Root = root
	if err := ctx.Err(); err != nil {
		return failf(c.Type, "Run the gate again.", "The %s check was cancelled before it ran.", c.Type)
	}
	switch c.Type {
	case TypeFilesExist:
		return c.runFilesExist(ctx, env)
	case TypeMarkdownSections:
		return c.runMarkdownSections(ctx, env)
	case TypeTasksFormat:
		return c.runTasksFormat(ctx, env)
	case TypeCommand:
		return c.runCommand(ctx, env)
	case TypeCoverage:
		return c.runCoverage(ctx, env)
	case TypeAcceptanceCriteria:
		return c.runAcceptanceCriteria(ctx, env)
	case TypeEvidence:
		return c.runEvidence(ctx, env)
	case TypeApproval:
		return c.runApproval(env)
	}
	if ext, ok := extension(c.Type); ok {
		return ext.Run(ctx, c, env)
	}
	return failf(c.Type, "Fix this check in the workflow definition.", "Unknown check type %q.", c.Type)
}

// projectRoot checks that root is an absolute, existing folder and returns it
// cleaned.
func projectRoot(root string) (string, error) {
	if root == "" {
		return "", errors.New("the project root is not set")
	}
	if !filepath.IsAbs(root) {
		return "", fmt.Errorf("the project root %q is not an absolute path", root)
	}
	root = filepath.Clean(root)
	fi, err := os.Stat(root)
	if err != nil {
		return "", fmt.Errorf("the project root %s cannot be read", root)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("the project root %s is not a folder", root)
	}
	return root, nil
}

// aType is the check type with its article: "a command", "an approval".
func aType(typ string) string {
	if typ != "" && strings.ContainsRune("aeiou", rune(typ[0])) {
		return "an " + typ
	}
	return "a " + typ
}

func pass(typ, format string, args ...any) Result {
	return Result{Type: typ, Passed: true, Message: fmt.Sprintf(format, args...)}
}

func failf(typ, remediation, format string, args ...any) Result {
	return Result{Type: typ, Message: fmt.Sprintf(format, args...), Remediation: remediation}
}

func trimDot(s string) string { return strings.TrimRight(s, ".") }

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// tail returns at most n bytes from the end of s, starting on a rune boundary.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	for i := 0; i < len(s) && i < 4; i++ {
		if s[i]&0xC0 != 0x80 {
			return s[i:]
		}
	}
	return s
}

// clip shortens s to about n bytes for a message, marking the cut.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// listNames joins up to max names for a message, saying how many more there are.
func listNames(names []string, max int) string {
	if len(names) <= max {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:max], ", "), len(names)-max)
}

// every says "the X" of one thing and "all N Xs" of more, verb included, so
// a summary never reads "all 1 required file exist".
func every(n int, one, many string) string {
	if n == 1 {
		return "the " + one
	}
	return fmt.Sprintf("all %d %s", n, many)
}

// isAre agrees a verb with a count: "1 of 2 files is", "2 of 3 files are".
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// suggest returns ` (did you mean "x"?)` for the closest known word, if close.
func suggest(word string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := editDistance(strings.ToLower(word), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
