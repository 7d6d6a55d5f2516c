package installer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"text/template"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/ports"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/internal/sandbox"
	"github.com/agentos-dev/agentos/internal/trust"
	"github.com/agentos-dev/agentos/workflow/testcmd"
)

// configData fills the mcp.yaml template.
type configData struct {
	SourcePaths []string
	Languages   []string
	PortRange   string
	Auth        string
	LogLevel    string
	Test        testcmd.Default // the test command for the runner detected
}

// planConfig plans .agentos/config/mcp.yaml. An existing file is the user's:
// it is never rewritten, only validated, and an invalid one stops the install
// so that the project is not set up around a config the server will refuse.
// For a new file it also returns the port the file will record (0 for an
// existing one), which the secondary entries of the same plan name.
func planConfig(ctx context.Context, p project.Paths, opts Options) (change, *Detection, int, error) {
	path := p.Config()
	step := Step{Kind: StepConfig, Path: p.Rel(path), Action: Unchanged}
	_, err := os.Stat(path)
	if err == nil {
		cfg, err := config.Load(path)
		if err != nil {
			return change{}, nil, 0, fmt.Errorf("install: %w; fix it, or delete it to have agentos write a fresh one", err)
		}
		// A config install did not write (a cloned repository's) is not
		// trusted by installing: what in it runs code or sends data waits
		// for `agentos trust`, and the plan says so.
		if st := trust.Check(p.Root, cfg); !st.Trusted {
			step.Detail = "Not trusted on this machine yet: " + settingList(st.Settings) + ". agentos uses its defaults for them until you run `agentos trust`, which shows them."
		}
		return change{step: step}, nil, 0, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return change{}, nil, 0, fmt.Errorf("install: %w", err)
	}
	detected, err := Detect(ctx, p.Root)
	if err != nil {
		return change{}, nil, 0, err
	}
	if opts.Languages != nil {
		detected.Languages = opts.Languages
	}
	// Detection decides the languages, not the folders: the index covers
	// the whole project (.gitignore and the dependency and build folders
	// left out by the scanner), so a folder added later is indexed when it
	// appears. A person narrows it with --source-paths or in the file.
	written := detected
	written.SourcePaths = []string{"."}
	if len(opts.SourcePaths) > 0 {
		written.SourcePaths = opts.SourcePaths
	}
	test := testcmd.For(p.Root)
	data, err := renderConfig(written, test)
	if err != nil {
		return change{}, nil, 0, err
	}
	if data, err = withCoverageThreshold(data, opts.CoverageThreshold); err != nil {
		return change{}, nil, 0, err
	}
	// The port is chosen when the install is planned, so the secondary
	// entries planned with it name it, and recorded machine-wide when it
	// is applied, so a dry run records nothing.
	lo, hi, _ := config.Default().Ports()
	port, err := ports.Propose(ctx, p.Root, lo, hi)
	if err != nil {
		return change{}, nil, 0, fmt.Errorf("install: choose the server's port: %w", err)
	}
	if data, err = config.SetPort(data, port); err != nil {
		return change{}, nil, 0, fmt.Errorf("install: %w", err)
	}
	step.Action = Created
	step.Detail = describeDetection(detected) + describeIndex(written.SourcePaths) + describeTest(ctx, p.Root, test) + describeSandbox()
	return change{step: step, apply: func() error {
		if err := ports.Claim(ctx, p.Root, port); err != nil {
			return fmt.Errorf("install: record the server's port: %w", err)
		}
		if err := writeFile(path, data, 0o644); err != nil {
			return err
		}
		// What install itself wrote is trusted: the person ran it.
		cfg, err := config.Parse(data)
		if err == nil {
			err = trust.Record(ctx, p.Root, cfg)
		}
		if err != nil {
			return fmt.Errorf("install: trust the config it wrote: %w", err)
		}
		return nil
	}}, &detected, port, nil
}

// renderConfig fills the embedded template with the detected sources and the
// defaults of package config, and checks that the result loads.
func renderConfig(d Detection, test testcmd.Default) ([]byte, error) {
	text, err := assets.Read(assets.ConfigTemplate)
	if err != nil {
		return nil, fmt.Errorf("install: %w", err)
	}
	tmpl, err := template.New("mcp.yaml").
		Option("missingkey=error").
		Funcs(template.FuncMap{"list": yamlList, "quote": yamlString}).
		Parse(string(text))
	if err != nil {
		return nil, fmt.Errorf("install: config template: %w", err)
	}
	def := config.Default()
	data := configData{
		SourcePaths: d.SourcePaths,
		Languages:   d.Languages,
		PortRange:   def.Server.PortRange,
		Auth:        def.Server.Auth,
		LogLevel:    def.Logging.Level,
		Test:        test,
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("install: config template: %w", err)
	}
	// A config the server would refuse is a bug here, not the user's problem.
	if _, err := config.Parse(buf.Bytes()); err != nil {
		return nil, fmt.Errorf("install: the generated config does not load: %w", err)
	}
	return buf.Bytes(), nil
}

// withCoverageThreshold sets workflow.coverage_threshold in a rendered
// config, and checks that the result loads with that value.
func withCoverageThreshold(data []byte, threshold float64) ([]byte, error) {
	def := config.Default().Workflow.CoverageThreshold
	if threshold <= 0 || threshold == def {
		return data, nil
	}
	old := fmt.Sprintf("coverage_threshold: %s", strconv.FormatFloat(def, 'f', -1, 64))
	out := bytes.Replace(data, []byte(old), []byte("coverage_threshold: "+strconv.FormatFloat(threshold, 'f', -1, 64)), 1)
	cfg, err := config.Parse(out)
	if err != nil {
		return nil, fmt.Errorf("install: coverage threshold: %w", err)
	}
	if cfg.Workflow.CoverageThreshold != threshold {
		return nil, fmt.Errorf("install: could not set the coverage threshold in the config template")
	}
	return out, nil
}

// yamlString quotes s as a YAML double-quoted scalar; JSON string syntax is
// a subset of it, so any path or name survives intact.
func yamlString(s string) string {
	b, _ := json.Marshal(s) // marshalling a string cannot fail
	return string(b)
}

// yamlList renders items as a YAML flow sequence of quoted strings.
func yamlList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = yamlString(s)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// describeDetection says in one sentence what the config was seeded with.
func describeDetection(d Detection) string {
	if !d.Found() {
		return "No source code was detected; set code.source_paths and code.languages (and ast.*) in this file when there is some."
	}
	langs := make([]string, len(d.Languages))
	for i, l := range d.Languages {
		switch n := d.FileCounts[l]; n {
		case 0:
			langs[i] = l + " (from its build file)"
		case 1:
			langs[i] = l + " (1 file)"
		default:
			langs[i] = fmt.Sprintf("%s (%d files)", l, n)
		}
	}
	where := "in " + strings.Join(d.SourcePaths, ", ")
	if len(d.SourcePaths) == 1 && d.SourcePaths[0] == "." {
		where = "at the project's top" // not "in .."
	}
	s := fmt.Sprintf("Detected %s %s.", strings.Join(langs, ", "), where)
	if d.Truncated {
		s += fmt.Sprintf(" The scan stopped reading after %d files; the top-level folders it had not read were looked into briefly", d.FilesScanned)
		if len(d.Peeked) > 0 {
			s += " (" + strings.Join(d.Peeked, ", ") + " hold source)"
		}
		s += "; check the result."
	}
	if len(d.LeftOut) > 0 {
		var order []string
		byReason := map[string][]string{}
		for _, l := range d.LeftOut {
			if byReason[l.Reason] == nil {
				order = append(order, l.Reason)
			}
			byReason[l.Reason] = append(byReason[l.Reason], l.Path)
		}
		parts := make([]string, len(order))
		for i, r := range order {
			parts[i] = strings.Join(byReason[r], ", ") + " (" + r + ")"
		}
		s += " Left out: " + strings.Join(parts, "; ") + "."
	}
	return s
}

// describeTest says which test command the config names and, when the
// runner or a package its reports need is missing, exactly what to install,
// so the person sees it before approving a spec rather than at its first
// gate.
// describeSandbox warns, where this system cannot sandbox the gates'
// commands, that execution gates will fail until the person allows it or
// chooses the weaker mode; elsewhere it says nothing.
func describeSandbox() string {
	if err := sandbox.Check(); err != nil {
		return " The gates cannot run tests sandboxed here (" + err.Error() + "), so execution gates fail until you allow it or set workflow.sandbox: unsandboxed (docs/security.md#the-gate-sandbox)."
	}
	return ""
}

func describeTest(ctx context.Context, root string, test testcmd.Default) string {
	switch {
	case test.Command != "":
	case test.Runner != "":
		return fmt.Sprintf(" The tests run with %s, for which agentos has no default: set workflow.test_command, workflow.coverage_file and workflow.test_report before executing a spec.", test.Runner)
	case testcmd.HasTests(root) != "":
		return " No test runner was detected although the project has tests: set workflow.test_command, workflow.coverage_file and workflow.test_report before executing a spec."
	default:
		return ""
	}
	s := fmt.Sprintf(" Test command (%s, from %s): %s.", test.Runner, test.From, test.Command)
	r := testcmd.Check(ctx, root, test)
	for _, p := range r.Problems {
		s += fmt.Sprintf(" Before the first gate: %s; fix: %s.", p.What, p.Fix)
	}
	return s
}

// settingList names settings with their values, quoted so that every byte
// of a value a repository chose is visible.
func settingList(settings []trust.Setting) string {
	parts := make([]string, len(settings))
	for i, set := range settings {
		parts[i] = set.Key + " " + strconv.Quote(set.Value)
	}
	return strings.Join(parts, ", ")
}

// describeIndex says what the code index covers.
func describeIndex(paths []string) string {
	if len(paths) == 1 && paths[0] == "." {
		return " The code index covers the whole project but what .gitignore leaves out and dependency and build folders, so new folders are indexed as they appear; code.source_paths narrows it."
	}
	return " The code index covers " + strings.Join(paths, ", ") + " (code.source_paths)."
}
