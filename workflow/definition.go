// Package workflow owns phase-gated workflows: their definitions
// (workflow.yaml plus markdown instructions, embedded and per project), the
// sessions that run them (persisted under .agentos/state/workflows/, shared by
// every agent and process), and the engine rules: phases and tasks strictly in
// order, gates evaluated by the server itself, every transition audited.
package workflow

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"regexp/syntax"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/agentos-dev/agentos/workflow/gates"
)

// Definition is one workflow as written in its workflow.yaml.
type Definition struct {
	Name        string            `yaml:"name"`
	Version     string            `yaml:"version"`
	Title       string            `yaml:"title"`
	Description string            `yaml:"description"`
	Overview    string            `yaml:"overview"` // markdown file, relative to the workflow folder
	Inputs      []Input           `yaml:"inputs"`
	Vars        map[string]string `yaml:"vars"`
	Phases      []PhaseDef        `yaml:"phases"`
	// PhasesFromTasks makes the phases those of a spec's tasks.md, each with
	// the same gate (spec_execution_v1).
	PhasesFromTasks *TasksPhases `yaml:"phases_from_tasks"`
	// RequiresApprovedSpec refuses to start unless the spec named by the
	// "spec" input was approved by a person.
	RequiresApprovedSpec bool `yaml:"requires_approved_spec"`
	// Scaffold names a var (such as spec_dir) whose folder receives the spec
	// templates when a session starts.
	Scaffold string `yaml:"scaffold"`
	// RunsTests makes a workflow of listed phases judge code as an
	// execution does: its session records the code's base at start, takes
	// the test command, coverage report and threshold from the
	// configuration, binds the test harness, and its gates run the tests
	// in the sandbox with fail-before and earlier tests (quick_change_v1,
	// bugfix_v1).
	RunsTests bool `yaml:"runs_tests"`

	files  fs.FS  // the workflow's folder, for instructions
	Source string `yaml:"-"` // "builtin" or the project path it came from
	// Digest is the SHA-256 of the workflow.yaml it was read from: what an
	// approval binds of the rules that will judge the work.
	Digest string `yaml:"-"`
}

// Input is a value given when a session starts.
type Input struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Required    bool   `yaml:"required"`
	Pattern     string `yaml:"pattern"`
}

// inputPatterns holds the inputs' patterns compiled, by their text: a
// pattern is checked when its workflow is loaded but compiled only when a
// value is matched against it, since every start of the server loads every
// workflow and "^[^\n]{1,1000}$" alone took 5 ms to compile.
var inputPatterns sync.Map // string → *regexp.Regexp

// matches reports whether v matches the input's pattern (any v when it has
// none; no v when the pattern, which parsed, does not compile).
func (in *Input) matches(v string) bool {
	if in.Pattern == "" {
		return true
	}
	re, ok := inputPatterns.Load(in.Pattern)
	if !ok {
		compiled, err := regexp.Compile(in.Pattern)
		if err != nil {
			return false
		}
		re, _ = inputPatterns.LoadOrStore(in.Pattern, compiled)
	}
	return re.(*regexp.Regexp).MatchString(v)
}

// PhaseDef is one phase: instructions, ordered tasks, and the gate that closes it.
type PhaseDef struct {
	Name         string        `yaml:"name"`
	Instructions string        `yaml:"instructions"`
	Tasks        []TaskDef     `yaml:"tasks"`
	Gate         []gates.Check `yaml:"gate"`
	// ApprovalIf, "setting=value", keeps the phase's approval checks only
	// when the workflow setting has that value (the default's value when
	// unset): where a person approves is theirs to choose (see
	// approvalSettings).
	ApprovalIf string `yaml:"approval_if"`
}

// TaskDef is one task of a phase.
type TaskDef struct {
	ID           string `yaml:"id"`
	Title        string `yaml:"title"`
	Instructions string `yaml:"instructions"`
}

// TasksPhases describes phases generated from a tasks.md file.
type TasksPhases struct {
	File         string        `yaml:"file"`
	Instructions string        `yaml:"instructions"`
	Gate         []gates.Check `yaml:"gate"`
}

var namePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,62}_v[0-9]+$`)

// ParseDefinition decodes and validates a workflow.yaml; files is the
// workflow's folder. Errors name the file and line.
func ParseDefinition(data []byte, files fs.FS, source string) (*Definition, error) {
	var d Definition
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	d.files, d.Source = files, source
	sum := sha256.Sum256(data)
	d.Digest = hex.EncodeToString(sum[:])
	if err := d.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return &d, nil
}

func (d *Definition) validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !namePattern.MatchString(d.Name) {
		bad("name %q must be lower_snake_case ending in a version such as _v1", d.Name)
	}
	if d.Version == "" {
		bad("version is required")
	}
	if (len(d.Phases) == 0) == (d.PhasesFromTasks == nil) {
		bad("give either phases or phases_from_tasks")
	}
	for i := range d.Inputs {
		in := &d.Inputs[i]
		if in.Name == "" {
			bad("inputs[%d] has no name", i)
		}
		if in.Pattern != "" {
			// Parsed, as regexp.Compile parses it, to find what is wrong
			// with it; compiled when used (matches).
			if _, err := syntax.Parse(in.Pattern, syntax.Perl); err != nil {
				bad("input %s: pattern: %v", in.Name, err)
			}
		}
	}
	for i, p := range d.Phases {
		if p.Name == "" {
			bad("phases[%d] has no name", i)
		}
		seen := map[string]bool{}
		for _, t := range p.Tasks {
			if t.ID == "" || seen[t.ID] {
				bad("phase %q: every task needs a unique id", p.Name)
			}
			seen[t.ID] = true
		}
		if len(p.Gate) == 0 {
			bad("phase %q has no gate: every phase must be closed by at least one check", p.Name)
		}
		if p.ApprovalIf != "" {
			if err := checkApprovalIf(p.ApprovalIf); err != nil {
				bad("phase %q: approval_if: %v", p.Name, err)
			}
		}
		errs = append(errs, d.checkFile(p.Instructions))
		for _, t := range p.Tasks {
			errs = append(errs, d.checkFile(t.Instructions))
		}
	}
	if d.RunsTests && d.PhasesFromTasks != nil {
		bad("runs_tests is for a workflow of listed phases: phases_from_tasks runs the tests already")
	}
	if tp := d.PhasesFromTasks; tp != nil {
		if tp.File == "" || len(tp.Gate) == 0 {
			bad("phases_from_tasks needs a file and a gate")
		}
		errs = append(errs, d.checkFile(tp.Instructions))
	}
	errs = append(errs, d.checkFile(d.Overview))
	return errors.Join(errs...)
}

func (d *Definition) checkFile(name string) error {
	if name == "" || d.files == nil {
		return nil
	}
	if _, err := fs.Stat(d.files, name); err != nil {
		return fmt.Errorf("instructions file %s is missing", name)
	}
	return nil
}

// Text reads one of the workflow's markdown files ("" when none).
func (d *Definition) Text(name string) string {
	if name == "" || d.files == nil {
		return ""
	}
	data, err := fs.ReadFile(d.files, name)
	if err != nil {
		return ""
	}
	return string(data)
}

// Library is the set of known workflow definitions.
type Library struct {
	defs    map[string]*Definition
	invalid map[string]error // project definitions that failed to load, by folder
}

// LoadLibrary reads the built-in definitions (one folder per workflow in
// builtin) and then the project's (in project, may be nil), which add to or
// replace built-in ones of the same name. An invalid project definition is
// recorded, not fatal: the others stay usable.
func LoadLibrary(builtin, project fs.FS) (*Library, error) {
	lib := &Library{defs: map[string]*Definition{}, invalid: map[string]error{}}
	if err := lib.load(builtin, "builtin", true); err != nil {
		return nil, err
	}
	if project != nil {
		lib.load(project, ".agentos/workflows", false)
	}
	return lib, nil
}

func (l *Library) load(root fs.FS, label string, strict bool) error {
	entries, err := fs.ReadDir(root, ".")
	if err != nil {
		if strict {
			return fmt.Errorf("read workflows: %w", err)
		}
		return nil
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		data, err := fs.ReadFile(root, path.Join(e.Name(), "workflow.yaml"))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		sub, _ := fs.Sub(root, e.Name())
		source := label + "/" + e.Name() + "/workflow.yaml"
		var d *Definition
		if err == nil {
			d, err = ParseDefinition(data, sub, source)
		}
		if err != nil {
			if strict {
				return err
			}
			l.invalid[source] = err
			continue
		}
		l.defs[d.Name] = d
	}
	return nil
}

// Get returns the definition named name.
func (l *Library) Get(name string) (*Definition, bool) {
	d, ok := l.defs[name]
	return d, ok
}

// List returns every definition, by name.
func (l *Library) List() []*Definition {
	out := make([]*Definition, 0, len(l.defs))
	for _, d := range l.defs {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Invalid returns the project definitions that failed to load, with why.
func (l *Library) Invalid() map[string]string {
	out := map[string]string{}
	for k, err := range l.invalid {
		out[k] = err.Error()
	}
	return out
}

// Names lists the known workflow names, for error messages.
func (l *Library) Names() string {
	var names []string
	for n := range l.defs {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
