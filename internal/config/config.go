// Package config owns .agentos/config/mcp.yaml: its keys, their defaults, and a
// strict loader. An unknown key or a value of the wrong type is an error that
// names the key and its line, because a silently ignored typo in a config file
// is worse than a refusal to start.
package config

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/agentos-dev/agentos/internal/ports"
)

// Config is the parsed configuration.
type Config struct {
	Code     Sources  `yaml:"code"`
	AST      Sources  `yaml:"ast"`
	Server   Server   `yaml:"server"`
	Logging  Logging  `yaml:"logging"`
	Workflow Workflow `yaml:"workflow"`
	Browser  Browser  `yaml:"browser"`
	Search   Search   `yaml:"search"`
}

// Search configures the search indexes.
type Search struct {
	Embedder Embedder `yaml:"embedder"`
}

// Embedder chooses what turns text into vectors. Changing it rebuilds the
// indexes, which record the embedder they were built with.
type Embedder struct {
	Provider  string `yaml:"provider"`    // builtin (default), model2vec, ollama or openai
	Model     string `yaml:"model"`       // model2vec: a pulled OWNER/NAME; ollama/openai: the model name
	Path      string `yaml:"path"`        // model2vec: a model folder, relative to the project root
	URL       string `yaml:"url"`         // ollama/openai: the service's base URL
	APIKeyEnv string `yaml:"api_key_env"` // ollama/openai: the environment variable holding the key (APIKeyEnvRule)
	Dim       int    `yaml:"dim"`         // ollama/openai: the vector size, if known
}

// EmbedderProviders lists the accepted search.embedder.provider values.
var EmbedderProviders = []string{"builtin", "model2vec", "ollama", "openai"}

// Browser configures svc_browser: which browser it runs, which hosts it may
// open besides loopback ones, and how many sessions it keeps for how long.
type Browser struct {
	// Path is the Chromium or Chrome executable; empty: the first one on PATH.
	Path string `yaml:"path"`
	// AllowedHosts are the hosts besides loopback ones that pages may be
	// opened from: "example.com", "*.example.com", or "*" for any.
	AllowedHosts []string `yaml:"allowed_hosts"`
	// MaxSessions caps the browsers open at once (one per MCP client session).
	MaxSessions int `yaml:"max_sessions"`
	// IdleTimeout closes a session unused this long, as a Go duration ("30m").
	IdleTimeout string `yaml:"idle_timeout"`
}

// Defaults of the browser keys.
const (
	DefaultBrowserMaxSessions = 10
	DefaultBrowserIdleTimeout = "30m"
)

// BrowserIdle parses browser.idle_timeout.
func (c Config) BrowserIdle() (time.Duration, error) {
	d, err := time.ParseDuration(c.Browser.IdleTimeout)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("browser.idle_timeout must be a positive duration such as \"30m\" or \"90s\", not %q", c.Browser.IdleTimeout)
	}
	return d, nil
}

// MinSpecsCheckEvery is the shortest schedule of the finished specs' checks:
// each one runs their tests.
const MinSpecsCheckEvery = 10 * time.Minute

// SpecsCheckInterval is workflow.specs_check_every: 0 when unset (no
// scheduled check).
func (c Config) SpecsCheckInterval() (time.Duration, error) {
	v := strings.TrimSpace(c.Workflow.SpecsCheckEvery)
	if v == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < MinSpecsCheckEvery {
		return 0, fmt.Errorf("workflow.specs_check_every must be a duration of at least %s such as \"24h\", or empty for never, not %q", MinSpecsCheckEvery, v)
	}
	return d, nil
}

// Workflow configures what the workflow gates run and read. It lives in the
// project's file, not in an agent's call, so an agent cannot weaken a gate.
type Workflow struct {
	// TestCommand runs the project's tests and writes CoverageFile; install
	// writes the one of the runner it detects (workflow/testcmd), and empty
	// means that same default.
	TestCommand  string `yaml:"test_command"`
	CoverageFile string `yaml:"coverage_file"`
	// TestReport is where the gate reads which tests passed and failed:
	// go-test-json (the command's output), junit:PATH (a JUnit XML file the
	// command writes) or exit-status; empty: the default's, else guessed
	// from the command (go test -json, --junitxml=PATH, Vitest's or
	// jest-junit's output file), else exit-status.
	TestReport string `yaml:"test_report"`
	// CoverageThreshold is the minimum coverage percentage when the spec
	// names none.
	CoverageThreshold float64 `yaml:"coverage_threshold"`
	// Strict makes acceptance criteria that no test mentions an error, not a warning.
	Strict bool `yaml:"strict"`
	// Approval says how a person may approve a spec: "terminal" only with
	// `agentos workflow approve`; "elicitation" (the default) also when the
	// IDE asks them through MCP elicitation.
	Approval string `yaml:"approval"`
	// Sandbox says where the gates' commands run: "" or "required" (the
	// default) in a sandbox, or the gate fails; "unsandboxed", the weaker
	// mode a person may choose where the system cannot sandbox, in the
	// project itself with the person's full authority.
	Sandbox string `yaml:"sandbox"`
	// SpecsCheckEvery is how often a running server checks the finished
	// specs (their traced tests, in the sandbox): a duration such as "24h";
	// empty, the default, never (a person runs `agentos specs check`).
	SpecsCheckEvery string `yaml:"specs_check_every"`
	// BugfixApproval says what a person approves in bugfix_v1:
	// "reproduction" (the default) approves, in one step before the fix is
	// written, the reproduction the gate saw fail and the fix summary;
	// "fix" approves only the finished fix, after its gate passed.
	BugfixApproval string `yaml:"bugfix_approval"`
}

// What a person approves in bugfix_v1 (Workflow.BugfixApproval).
const (
	BugfixApproveReproduction = "reproduction"
	BugfixApproveFix          = "fix"
)

// Where the gates' commands run (Workflow.Sandbox).
const (
	SandboxRequired    = "required"
	SandboxUnsandboxed = "unsandboxed"
)

// Ways a person may approve a spec (Workflow.Approval).
const (
	ApprovalTerminal    = "terminal"
	ApprovalElicitation = "elicitation"
)

// Sources says which code the indexes cover.
type Sources struct {
	SourcePaths []string `yaml:"source_paths"`
	Languages   []string `yaml:"languages"`
}

// Server configures the MCP server.
type Server struct {
	// Port is the project's own HTTP port, chosen once at install (package
	// ports) so the entries of agents that connect over HTTP stay valid
	// across restarts; 0: none recorded (a project installed before there
	// was one), and the server takes the first free port of PortRange.
	Port      int    `yaml:"port"`
	PortRange string `yaml:"port_range"` // "4242-5242"
	Auth      string `yaml:"auth"`       // "user" (the default), "token" or "none"
}

// Logging configures the server log.
type Logging struct {
	Level string `yaml:"level"` // DEBUG, INFO, WARN or ERROR
}

// Auth modes of server.auth: who may call the HTTP transport.
const (
	// AuthUser: only processes of the OS user the server runs as, which the
	// kernel tells per connection (package peeruser); no client sends anything.
	AuthUser = "user"
	// AuthToken: only callers that send the bearer token of .agentos/.cache/auth_token.
	AuthToken = "token"
	// AuthNone: any process on the machine, other users' included.
	AuthNone = "none"
)

// AuthModes lists the accepted server.auth values.
var AuthModes = []string{AuthUser, AuthToken, AuthNone}

// Default port range of the HTTP transport.
const (
	DefaultPortMin = 4242
	DefaultPortMax = 5242
)

// LogLevels lists the accepted log levels.
var LogLevels = []string{"DEBUG", "INFO", "WARN", "ERROR"}

// Default returns the configuration used for keys a file leaves out.
func Default() Config {
	return Config{
		Code:     Sources{SourcePaths: []string{"."}},
		AST:      Sources{SourcePaths: []string{"."}},
		Server:   Server{PortRange: fmt.Sprintf("%d-%d", DefaultPortMin, DefaultPortMax), Auth: AuthUser},
		Logging:  Logging{Level: "INFO"},
		Workflow: Workflow{CoverageThreshold: 80},
		Browser:  Browser{MaxSessions: DefaultBrowserMaxSessions, IdleTimeout: DefaultBrowserIdleTimeout},
	}
}

// kind is the shape a key's value must have.
type kind int

const (
	mapping kind = iota
	stringList
	scalarString
	scalarNumber
	scalarBool
)

// schema lists every key the file may hold, by dotted path.
var schema = map[string]kind{
	"code":                        mapping,
	"code.source_paths":           stringList,
	"code.languages":              stringList,
	"ast":                         mapping,
	"ast.source_paths":            stringList,
	"ast.languages":               stringList,
	"server":                      mapping,
	"server.port":                 scalarNumber,
	"server.port_range":           scalarString,
	"server.auth":                 scalarString,
	"logging":                     mapping,
	"logging.level":               scalarString,
	"workflow":                    mapping,
	"workflow.test_command":       scalarString,
	"workflow.coverage_file":      scalarString,
	"workflow.test_report":        scalarString,
	"workflow.coverage_threshold": scalarNumber,
	"workflow.strict":             scalarBool,
	"workflow.approval":           scalarString,
	"workflow.sandbox":            scalarString,
	"workflow.specs_check_every":  scalarString,
	"workflow.bugfix_approval":    scalarString,
	"search":                      mapping,
	"search.embedder":             mapping,
	"search.embedder.provider":    scalarString,
	"search.embedder.model":       scalarString,
	"search.embedder.path":        scalarString,
	"search.embedder.url":         scalarString,
	"search.embedder.api_key_env": scalarString,
	"search.embedder.dim":         scalarNumber,
	"browser":                     mapping,
	"browser.path":                scalarString,
	"browser.allowed_hosts":       stringList,
	"browser.max_sessions":        scalarNumber,
	"browser.idle_timeout":        scalarString,
}

// Load reads and validates the file at path. A missing file is reported with
// an error satisfying errors.Is(err, os.ErrNotExist).
func Load(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("read config: %w", err)
	}
	cfg, err := Parse(data)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

// LoadOrDefault is the configuration at path, or the defaults when it is
// missing or invalid: for readers that only need the port range (doctor
// reports an invalid file; a server refuses to start with one).
func LoadOrDefault(path string) Config {
	cfg, err := Load(path)
	if err != nil {
		return Default()
	}
	return cfg
}

// Parse validates and decodes the YAML text of a config file.
func Parse(data []byte) (Config, error) {
	cfg := Default()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Config{}, fmt.Errorf("not valid YAML: %w", err)
	}
	if len(doc.Content) == 0 { // empty file: all defaults
		return cfg, nil
	}
	root := doc.Content[0]
	if err := check(root, ""); err != nil {
		return Config{}, err
	}
	if err := root.Decode(&cfg); err != nil {
		return Config{}, fmt.Errorf("decode: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// check walks node against schema, naming the first unknown key or wrong type.
func check(node *yaml.Node, path string) error {
	if node.Kind != yaml.MappingNode {
		if path == "" {
			return fmt.Errorf("line %d: the file must be a mapping of keys (code, ast, server, logging, workflow, browser, search)", node.Line)
		}
		return fmt.Errorf("line %d: %s must be a mapping of keys", node.Line, path)
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		key, value := node.Content[i], node.Content[i+1]
		full := key.Value
		if path != "" {
			full = path + "." + key.Value
		}
		want, ok := schema[full]
		if !ok {
			return fmt.Errorf("line %d: unknown key %q (known: %s)", key.Line, full, strings.Join(knownUnder(path), ", "))
		}
		switch want {
		case mapping:
			if value.Kind == yaml.ScalarNode && value.Tag == "!!null" {
				continue
			}
			if err := check(value, full); err != nil {
				return err
			}
		case stringList:
			if value.Kind != yaml.SequenceNode {
				return fmt.Errorf("line %d: %s must be a list of strings", value.Line, full)
			}
			for _, item := range value.Content {
				if item.Kind != yaml.ScalarNode || item.Tag != "!!str" {
					return fmt.Errorf("line %d: %s must be a list of strings; %q is not a string", item.Line, full, item.Value)
				}
			}
		case scalarString:
			if value.Kind != yaml.ScalarNode || value.Tag == "!!null" {
				return fmt.Errorf("line %d: %s must be a single value", value.Line, full)
			}
		case scalarNumber:
			if value.Kind != yaml.ScalarNode || (value.Tag != "!!int" && value.Tag != "!!float") {
				return fmt.Errorf("line %d: %s must be a number", value.Line, full)
			}
		case scalarBool:
			if value.Kind != yaml.ScalarNode || value.Tag != "!!bool" {
				return fmt.Errorf("line %d: %s must be true or false", value.Line, full)
			}
		}
	}
	return nil
}

func knownUnder(path string) []string {
	var keys []string
	for k := range schema {
		parent, name := "", k
		if i := strings.LastIndex(k, "."); i >= 0 {
			parent, name = k[:i], k[i+1:]
		}
		if parent == path {
			keys = append(keys, name)
		}
	}
	sort.Strings(keys)
	return keys
}

// Validate checks the values that the schema cannot: ranges, enumerations and
// the rule that ast.* mirrors code.*.
func (c Config) Validate() error {
	var errs []error
	if lo, hi, err := c.Ports(); err != nil {
		errs = append(errs, err)
	} else if p := c.Server.Port; p != 0 && (p < lo || p > hi) {
		errs = append(errs, fmt.Errorf("server.port %d is outside server.port_range %s: choose a port in the range, or remove the key to take the first free one", p, c.Server.PortRange))
	} else if p != 0 && ports.BrowserBlocked(p) {
		errs = append(errs, fmt.Errorf("server.port %d is a port browsers refuse to load pages from (the review page could not open): choose another, or remove the key to take the first free one", p))
	}
	if !slices.Contains(AuthModes, c.Server.Auth) {
		errs = append(errs, fmt.Errorf("server.auth must be one of %s, not %q", strings.Join(AuthModes, ", "), c.Server.Auth))
	}
	if !slices.Contains(LogLevels, strings.ToUpper(c.Logging.Level)) {
		errs = append(errs, fmt.Errorf("logging.level must be one of %s, not %q", strings.Join(LogLevels, ", "), c.Logging.Level))
	}
	if t := c.Workflow.CoverageThreshold; t < 0 || t > 100 {
		errs = append(errs, fmt.Errorf("workflow.coverage_threshold must be between 0 and 100, not %v", t))
	}
	if a := c.Workflow.Approval; a != "" && a != ApprovalTerminal && a != ApprovalElicitation {
		errs = append(errs, fmt.Errorf("workflow.approval must be %q or %q, not %q", ApprovalTerminal, ApprovalElicitation, a))
	}
	if m := c.Workflow.Sandbox; m != "" && m != SandboxRequired && m != SandboxUnsandboxed {
		errs = append(errs, fmt.Errorf("workflow.sandbox must be %q or %q, not %q", SandboxRequired, SandboxUnsandboxed, m))
	}
	if _, err := c.SpecsCheckInterval(); err != nil {
		errs = append(errs, err)
	}
	if b := c.Workflow.BugfixApproval; b != "" && b != BugfixApproveReproduction && b != BugfixApproveFix {
		errs = append(errs, fmt.Errorf("workflow.bugfix_approval must be %q or %q, not %q", BugfixApproveReproduction, BugfixApproveFix, b))
	}
	if (c.Workflow.TestCommand == "") != (c.Workflow.CoverageFile == "") {
		errs = append(errs, fmt.Errorf("workflow.test_command and workflow.coverage_file go together: the command must write the coverage report the gate reads"))
	}
	if r := c.Workflow.TestReport; r != "" && r != "go-test-json" && r != "exit-status" && (!strings.HasPrefix(r, "junit:") || strings.TrimSpace(r[len("junit:"):]) == "") {
		errs = append(errs, fmt.Errorf("workflow.test_report must be go-test-json, junit:PATH or exit-status, not %q", r))
	}
	if n := c.Browser.MaxSessions; n < 1 || n > 100 {
		errs = append(errs, fmt.Errorf("browser.max_sessions must be between 1 and 100, not %d", n))
	}
	if _, err := c.BrowserIdle(); err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, c.Search.Embedder.validate()...)
	if !slices.Equal(c.Code.SourcePaths, c.AST.SourcePaths) {
		errs = append(errs, fmt.Errorf("ast.source_paths %v must match code.source_paths %v", c.AST.SourcePaths, c.Code.SourcePaths))
	}
	if !slices.Equal(c.Code.Languages, c.AST.Languages) {
		errs = append(errs, fmt.Errorf("ast.languages %v must match code.languages %v", c.AST.Languages, c.Code.Languages))
	}
	return errors.Join(errs...)
}

// Ports parses server.port_range ("4242-5242").
func (c Config) Ports() (lo, hi int, err error) {
	a, b, ok := strings.Cut(c.Server.PortRange, "-")
	if ok {
		lo, err = strconv.Atoi(strings.TrimSpace(a))
		if err == nil {
			hi, err = strconv.Atoi(strings.TrimSpace(b))
		}
	}
	if !ok || err != nil || lo < 1 || hi > 65535 || lo > hi {
		return 0, 0, fmt.Errorf("server.port_range must look like \"4242-5242\" (two ports, low first), not %q", c.Server.PortRange)
	}
	return lo, hi, nil
}
