// Package trust owns what a project's own files may do only once the person
// has trusted them: which settings of .agentos/config/mcp.yaml run code,
// send data or widen who may call the server (Settings), the record of the
// values a person trusted for a project folder (trusted.json beside the
// machine's ports.json, outside every project, by a digest of exactly
// those values, as `direnv allow` records a folder's .envrc), and the
// configuration a server uses until then: the built-in defaults for those
// keys (Load).
//
// A repository someone clones brings its .agentos/ with it; without this,
// its mcp.yaml would choose the command the gates run, the host that
// receives every query and indexed file with the user's API key, and who
// on the machine may call the tools, without the person ever seeing it.
package trust

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/machinekey"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/workflow/testcmd"
)

// Setting is one value of a project's config that takes effect only once
// trusted.
type Setting struct {
	Key   string `json:"key"`   // dotted, as in mcp.yaml: "workflow.test_command"
	Value string `json:"value"` // as the file says it
	What  string `json:"what"`  // what it does, for the person deciding
}

func (s Setting) String() string { return fmt.Sprintf("%s: %q", s.Key, s.Value) }

// Settings lists the values of cfg, read from the project at root, that
// differ from what agentos does by itself and would run code, send data
// away or let more callers in, and the commands the project's workflow
// definitions add to the built-in ones. A config that leaves every such key at its
// default, or sets the test command install itself chooses for the
// project, lists none and needs no trust.
func Settings(root string, cfg config.Config) []Setting {
	var out []Setting
	add := func(key, value, what string) { out = append(out, Setting{Key: key, Value: value, What: what}) }

	wf := cfg.Workflow
	def := testcmd.For(root)
	custom := wf.TestCommand != "" && !(wf.TestCommand == def.Command && wf.CoverageFile == def.Coverage && wf.TestReport == def.Report)
	if custom || (wf.TestCommand == "" && (wf.CoverageFile != "" || wf.TestReport != "")) {
		add("workflow.test_command", wf.TestCommand, "the command every test gate runs (in the gates' sandbox)")
		if wf.CoverageFile != "" {
			add("workflow.coverage_file", wf.CoverageFile, "the coverage report the gates read")
		}
		if wf.TestReport != "" {
			add("workflow.test_report", wf.TestReport, "where the gates read which tests passed")
		}
	}
	if wf.Sandbox == config.SandboxUnsandboxed {
		add("workflow.sandbox", wf.Sandbox, "runs the gates' commands outside the sandbox, with your full authority")
	}
	if e := cfg.Search.Embedder; e.Provider == "ollama" || e.Provider == "openai" {
		add("search.embedder.provider", e.Provider, "sends every search query and the text of every indexed file to a service")
		add("search.embedder.url", e.URL, "the service that receives them")
		if e.APIKeyEnv != "" {
			add("search.embedder.api_key_env", e.APIKeyEnv, "the variable whose value (your key) is sent to that service")
		}
		if e.Model != "" {
			add("search.embedder.model", e.Model, "the model asked for")
		}
	}
	if e := cfg.Search.Embedder; e.Path != "" && !filepath.IsLocal(filepath.FromSlash(e.Path)) {
		add("search.embedder.path", e.Path, "a model folder outside the project that the server reads")
	}
	if cfg.Server.Auth == config.AuthNone {
		add("server.auth", cfg.Server.Auth, "lets every process on this machine, other users' included, call the tools over HTTP")
	}
	if cfg.Browser.Path != "" {
		add("browser.path", cfg.Browser.Path, "the program svc_browser runs")
	}
	if len(cfg.Browser.AllowedHosts) > 0 {
		add("browser.allowed_hosts", strings.Join(cfg.Browser.AllowedHosts, ", "), "hosts beyond this machine that svc_browser may open")
	}
	return append(out, workflowCommands(project.Paths{Root: root})...)
}

// Apply returns cfg with every key Settings lists set back to the built-in
// default: what a server uses while they are not trusted.
func Apply(cfg config.Config) config.Config {
	def := config.Default()
	cfg.Workflow.TestCommand, cfg.Workflow.CoverageFile, cfg.Workflow.TestReport = "", "", ""
	if cfg.Workflow.Sandbox == config.SandboxUnsandboxed {
		cfg.Workflow.Sandbox = config.SandboxRequired
	}
	if e := cfg.Search.Embedder; e.Provider == "ollama" || e.Provider == "openai" || (e.Path != "" && !filepath.IsLocal(filepath.FromSlash(e.Path))) {
		cfg.Search.Embedder = def.Search.Embedder
	}
	if cfg.Server.Auth == config.AuthNone {
		cfg.Server.Auth = def.Server.Auth
	}
	cfg.Browser.Path, cfg.Browser.AllowedHosts = def.Browser.Path, def.Browser.AllowedHosts
	return cfg
}

// Digest names a list of settings: what a person trusts.
func Digest(settings []Setting) string {
	h := sha256.New()
	for _, s := range settings {
		fmt.Fprintf(h, "%q=%q\n", s.Key, s.Value)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// State is what a project's config asks for and whether it has it.
type State struct {
	Settings []Setting // the settings that need trust; none: nothing to decide
	Trusted  bool      // the person trusted exactly these values for this folder
	// RecordErr says why the record could not be read, when it could not;
	// the settings are then not trusted.
	RecordErr error
}

// Pending lists the settings that do not take effect: none when trusted.
func (s State) Pending() []Setting {
	if s.Trusted {
		return nil
	}
	return s.Settings
}

// Check tells whether the settings cfg asks for at root are trusted. A
// record that cannot be read trusts nothing, and RecordErr says why.
func Check(root string, cfg config.Config) State {
	st := State{Settings: Settings(root, cfg)}
	if len(st.Settings) == 0 {
		st.Trusted = true
		return st
	}
	path, err := Path()
	if err == nil {
		var r record
		if r, err = read(path); err == nil {
			st.Trusted = slices.Contains(r.Projects[root], Digest(st.Settings))
		}
	}
	st.RecordErr = err
	return st
}

// Load reads the project's config and returns the configuration to act on:
// the file's, with the settings not yet trusted set back to the defaults,
// and the state saying which those are. Its error is config.Load's: a
// missing file satisfies errors.Is(err, os.ErrNotExist). A record that
// cannot be read trusts nothing (State.RecordErr says why).
func Load(p project.Paths) (config.Config, State, error) {
	cfg, err := config.Load(p.Config())
	if err != nil {
		return cfg, State{Trusted: true}, err
	}
	st := Check(p.Root, cfg)
	if !st.Trusted {
		cfg = Apply(cfg)
	}
	return cfg, st, nil
}

// Record notes that the person trusts the settings cfg asks for at root.
// The folder keeps the digests of the last recordsKept settings it was
// trusted with, so switching between two branches' configs asks once each.
func Record(ctx context.Context, root string, cfg config.Config) error {
	settings := Settings(root, cfg)
	if len(settings) == 0 {
		return nil
	}
	digest := Digest(settings)
	return update(ctx, func(r *record) {
		kept := slices.DeleteFunc(slices.Clone(r.Projects[root]), func(d string) bool { return d == digest })
		kept = append(kept, digest)
		if len(kept) > recordsKept {
			kept = kept[len(kept)-recordsKept:]
		}
		r.Projects[root] = kept
	})
}

const recordsKept = 8

// record is the content of trusted.json.
type record struct {
	Version  int                 `json:"version"`
	Projects map[string][]string `json:"projects"` // absolute project root -> digests trusted
}

// Path is where the record lives: trusted.json beside the machine key
// ($AGENTOS_CONFIG_HOME, else agentos/ in the user's config folder), which
// no project can write through agentos's tools.
func Path() (string, error) {
	key, err := machinekey.Path()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(key), "trusted.json"), nil
}

func read(path string) (record, error) {
	r := record{Version: 1, Projects: map[string][]string{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("%s is not a record of trusted settings (%v): %w", path, err, errNotRecord)
	}
	if r.Projects == nil {
		r.Projects = map[string][]string{}
	}
	return r, nil
}

// errNotRecord marks a trusted.json that is not JSON of a record.
var errNotRecord = errors.New("not a record")

// update changes the record under a lock, so two `agentos trust` runs at
// once keep both.
func update(ctx context.Context, change func(*record)) error {
	path, err := Path()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	lock := flock.New(path + ".lock")
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if ok, err := lock.TryLockContext(lctx, 20*time.Millisecond); err != nil || !ok {
		return fmt.Errorf("trust: lock %s: %v", path, err)
	}
	defer lock.Unlock()
	r, err := read(path)
	if errors.Is(err, errNotRecord) {
		// Written anew: what it trusted is asked again, the safe way round.
		r, err = record{Version: 1, Projects: map[string][]string{}}, nil
	}
	if err != nil {
		return err
	}
	change(&r)
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	return atomicfile.WriteFile(path, append(data, '\n'), 0o600)
}

// Notice is the one sentence every surface (serve's log, tool answers,
// doctor, the review page) shows while settings wait for the person: which
// keys, that the defaults apply meanwhile, and the command that decides.
// Empty when nothing waits.
func (s State) Notice() string {
	pending := s.Pending()
	if len(pending) == 0 {
		return ""
	}
	keys := make([]string, len(pending))
	for i, p := range pending {
		keys[i] = p.Key
	}
	why := ""
	if s.RecordErr != nil {
		why = fmt.Sprintf(" (the record of trusted settings cannot be read: %v)", s.RecordErr)
	}
	return fmt.Sprintf("%s in .agentos/config/mcp.yaml %s not trusted on this machine%s, so the built-in defaults apply instead; the person runs `agentos trust` in a terminal to see and allow them",
		strings.Join(keys, ", "), map[bool]string{true: "is", false: "are"}[len(keys) == 1], why)
}

// Under is the state of the settings whose key starts with prefix only
// ("workflow."): what one part of agentos needs to say about itself.
func (s State) Under(prefix string) State {
	out := s
	out.Settings = nil
	for _, set := range s.Settings {
		if strings.HasPrefix(set.Key, prefix) {
			out.Settings = append(out.Settings, set)
		}
	}
	return out
}
