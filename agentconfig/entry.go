package agentconfig

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// ServerName is the name of agentos's entry in every client config.
const ServerName = "agentos"

// LaunchArgs are the arguments a client launches the primary server with.
var LaunchArgs = []string{"serve", "--transport", "dual", "--log-level", "INFO"}

// BridgeArgs launch a stdio server that bridges to the running primary, for
// clients that cannot speak HTTP.
var BridgeArgs = []string{"serve", "--transport", "stdio"}

// AutoApproved are the tools agentos asks a client to run without asking
// the user each time: they read, or they change only state the server gates.
var AutoApproved = []string{"svc_search_project", "svc_workflow", "get_server_info", "current_date"}

// EnvRoot is the environment variable the server reads the project root from.
const EnvRoot = "PROJECT_ROOT"

// Entry is the one internal model of a server entry, before a client's
// emitter spells it. Either URL is set (an HTTP entry) or Command is.
type Entry struct {
	Command     string
	Args        []string
	Env         map[string]string
	URL         string
	AutoApprove []string
}

// IsHTTP reports whether e is an HTTP entry.
func (e Entry) IsHTTP() bool { return e.URL != "" }

// Launch is the primary entry: the client starts the pinned binary in dual
// mode with the project root in its environment.
func Launch(command, root string) Entry {
	return Entry{
		Command:     command,
		Args:        append([]string(nil), LaunchArgs...),
		Env:         map[string]string{EnvRoot: root},
		AutoApprove: append([]string(nil), AutoApproved...),
	}
}

// Bridge is the secondary entry of a stdio-only client: a stdio server that
// forwards to the running primary.
func Bridge(command, root string) Entry {
	e := Launch(command, root)
	e.Args = append([]string(nil), BridgeArgs...)
	return e
}

// HTTPEntry is the secondary entry of a client that speaks streamable HTTP:
// it auto-approves the same tools as a launch entry.
func HTTPEntry(url string) Entry {
	return Entry{URL: url, AutoApprove: append([]string(nil), AutoApproved...)}
}

// Field is one member of an Object.
type Field struct {
	Key   string
	Value any
}

// Object is a JSON object whose members keep their order, so an entry reads
// the way people write one: type, command, args, env, then the rest.
type Object []Field

// MarshalJSON renders the members in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// Get returns the value of key.
func (o Object) Get(key string) (any, bool) {
	for _, f := range o {
		if f.Key == key {
			return f.Value, true
		}
	}
	return nil, false
}

func (o *Object) set(key string, value any) {
	for i, f := range *o {
		if f.Key == key {
			(*o)[i].Value = value
			return
		}
	}
	*o = append(*o, Field{key, value})
}

func (o *Object) setExtras(extra map[string]any) {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		o.set(k, extra[k])
	}
}

// Emit spells e the way c writes it.
func (c Client) Emit(e Entry) Object {
	s := c.Shape
	var out Object
	if s.NameField {
		out.set("name", ServerName)
	}
	if e.IsHTTP() {
		if s.HTTPType != "" {
			out.set(s.typeKey(), s.HTTPType)
		}
		out.set(s.urlKey(), e.URL)
		out.setApproval(s, e)
		out.setExtras(s.HTTPExtra)
		return out
	}
	if s.StdioType != "" {
		out.set("type", s.StdioType)
	}
	if s.CommandArray {
		out.set(s.commandKey(), append([]string{e.Command}, e.Args...))
	} else {
		out.set(s.commandKey(), e.Command)
		out.set("args", append([]string{}, e.Args...))
	}
	env := map[string]string{}
	for k, v := range e.Env {
		env[k] = v
	}
	out.set(s.envKey(), env)
	out.setApproval(s, e)
	out.setExtras(s.StdioExtra)
	return out
}

// setApproval writes the fields that let the client run agentos's tools
// without asking each time; a launch entry and an HTTP entry carry the same.
func (o *Object) setApproval(s Shape, e Entry) {
	if s.AutoApprove != "" && len(e.AutoApprove) > 0 {
		o.set(s.AutoApprove, append([]string(nil), e.AutoApprove...))
	}
	o.setExtras(s.Approval)
}

// CanHTTP reports whether the client can take an HTTP entry.
func (c Client) CanHTTP() bool { return c.Shape.HTTP }

// normalizeValue turns []string into []any and map[string]string into
// map[string]any, so an emitted entry compares equal to one decoded from a file.
func normalizeValue(v any) any {
	switch t := v.(type) {
	case Object:
		m := make(map[string]any, len(t))
		for _, f := range t {
			m[f.Key] = normalizeValue(f.Value)
		}
		return m
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = normalizeValue(x)
		}
		return m
	case map[string]string:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = x
		}
		return m
	case []string:
		s := make([]any, len(t))
		for i, x := range t {
			s[i] = x
		}
		return s
	case []any:
		s := make([]any, len(t))
		for i, x := range t {
			s[i] = normalizeValue(x)
		}
		return s
	case int:
		return float64(t)
	case float32:
		return float64(t)
	case int32:
		return float64(t)
	case int64:
		return float64(t)
	case uint64:
		return float64(t)
	default:
		return v
	}
}

// Env is where user-scoped files live; tests replace it.
type Env struct {
	GOOS      string
	Home      string
	AppData   string // %APPDATA% on Windows
	XDGConfig string // $XDG_CONFIG_HOME, else ~/.config
	CodexHome string // $CODEX_HOME, else ~/.codex
	ClineDir  string // $CLINE_DATA_DIR, else ~/.cline/data
	// QwenApprovals is Qwen Code's approvals file:
	// $QWEN_CODE_MCP_APPROVALS_PATH, else mcpApprovals.json in $QWEN_HOME;
	// "" for ~/.qwen/mcpApprovals.json.
	QwenApprovals string
	// QwenSystem is Qwen Code's system settings file, which overrides
	// every other: $QWEN_CODE_SYSTEM_SETTINGS_PATH, else the OS's
	// (/etc/qwen-code/settings.json on Linux).
	QwenSystem string
}

// SystemEnv reads Env from the running process.
func SystemEnv() Env {
	home, _ := os.UserHomeDir()
	e := Env{GOOS: runtime.GOOS, Home: home, AppData: os.Getenv("APPDATA")}
	e.XDGConfig = os.Getenv("XDG_CONFIG_HOME")
	e.CodexHome = os.Getenv("CODEX_HOME")
	e.ClineDir = os.Getenv("CLINE_DATA_DIR")
	e.QwenApprovals = os.Getenv("QWEN_CODE_MCP_APPROVALS_PATH")
	e.QwenSystem = os.Getenv("QWEN_CODE_SYSTEM_SETTINGS_PATH")
	if dir := os.Getenv("QWEN_HOME"); e.QwenApprovals == "" && dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			e.QwenApprovals = filepath.Join(abs, "mcpApprovals.json")
		}
	}
	return e.withDefaults()
}

// HomeEnv is an Env rooted at home on this GOOS, ignoring the process's
// variables; tests use it to keep user files inside a temporary folder.
func HomeEnv(home string) Env {
	return Env{GOOS: runtime.GOOS, Home: home, AppData: filepath.Join(home, "AppData", "Roaming"),
		QwenSystem: filepath.Join(home, "qwen-system", "settings.json")}.withDefaults()
}

func (e Env) withDefaults() Env {
	if e.XDGConfig == "" && e.Home != "" {
		e.XDGConfig = filepath.Join(e.Home, ".config")
	}
	if e.CodexHome == "" && e.Home != "" {
		e.CodexHome = filepath.Join(e.Home, ".codex")
	}
	if e.ClineDir == "" && e.Home != "" {
		e.ClineDir = filepath.Join(e.Home, ".cline", "data")
	}
	if e.AppData == "" && e.Home != "" {
		e.AppData = filepath.Join(e.Home, "AppData", "Roaming")
	}
	if e.QwenSystem == "" {
		switch e.GOOS {
		case "darwin":
			e.QwenSystem = "/Library/Application Support/QwenCode/settings.json"
		case "windows":
			e.QwenSystem = `C:\ProgramData\qwen-code\settings.json`
		default:
			e.QwenSystem = "/etc/qwen-code/settings.json"
		}
	}
	return e
}

// UserPath resolves the client's user config on env's OS; "" when the
// client has none there.
func (c Client) UserPath(env Env) string {
	env = env.withDefaults()
	p, ok := c.UserFile[env.GOOS]
	if !ok {
		p, ok = c.UserFile["linux"]
		if !ok || env.GOOS == "windows" || env.GOOS == "darwin" {
			return ""
		}
	}
	if c.ID == "cline" {
		p = strings.Replace(p, "~/.cline/data", env.ClineDir, 1)
	}
	return expandPath(p, env)
}

// expandPath resolves a registry path ("~/…", "%APPDATA%/…",
// "$XDG_CONFIG_HOME/…", "$CODEX_HOME/…") in env.
func expandPath(p string, env Env) string {
	switch {
	case strings.HasPrefix(p, "~/"):
		p = filepath.Join(env.Home, p[2:])
	case strings.HasPrefix(p, "%APPDATA%/"):
		p = filepath.Join(env.AppData, p[len("%APPDATA%/"):])
	case strings.HasPrefix(p, "$XDG_CONFIG_HOME/"):
		p = filepath.Join(env.XDGConfig, p[len("$XDG_CONFIG_HOME/"):])
	case strings.HasPrefix(p, "$CODEX_HOME/"):
		p = filepath.Join(env.CodexHome, p[len("$CODEX_HOME/"):])
	}
	return filepath.FromSlash(p)
}

// ProjectPath is the client's project config under root; "" when it has none.
func (c Client) ProjectPath(root string) string {
	if c.ProjectFile == "" {
		return ""
	}
	return filepath.Join(root, filepath.FromSlash(c.ProjectFile))
}

// Scope says where an entry is written.
type Scope string

// The scopes.
const (
	ScopeProject Scope = "project" // the project's config file
	ScopeLocal   Scope = "local"   // the user config's section for this project (Claude Code)
	ScopeUser    Scope = "user"    // the user config
)

// Target is one config file and where in it the entry goes.
type Target struct {
	Client Client
	Scope  Scope
	Path   string   // absolute
	Key    []string // path of the servers object (or list) inside the file
	// Portable is true when the entry uses the client's workspace variable,
	// so the file works on every machine.
	Portable bool
}

// DefaultScope is where c's entry goes when no scope is named, chosen so
// that files a team commits never hold one machine's paths where the client
// offers a way around it:
//   - a project file the client expands its workspace variable in (VS Code,
//     Cursor, Roo: ${workspaceFolder}), which works on every machine;
//   - else the client's section of the user config for this project
//     (Claude Code's local scope) or its machine-only project file (Devin's
//     .devin/config.local.json; Continue's block file, agentos's own), which
//     nothing committed holds;
//   - else the project file, which then holds this machine's absolute
//     path (Team says so, and install tells the user);
//   - else, for clients without a project file, the user config.
func (c Client) DefaultScope() Scope {
	switch {
	case c.ProjectFile != "" && c.WorkspaceVar != "":
		return ScopeProject
	case c.LocalScope || c.LocalFile != "":
		return ScopeLocal
	case c.ProjectFile != "":
		return ScopeProject
	default:
		return ScopeUser
	}
}

// Team says in one line how c's default entry behaves for a team that
// commits its project files.
func (c Client) Team() string {
	switch c.DefaultScope() {
	case ScopeLocal:
		if c.LocalFile != "" {
			return c.LocalFile + ", kept out of git by the .gitignore block: nothing committed holds a machine path"
		}
		return "local scope (user config, this project only): nothing committed holds a machine path"
	case ScopeUser:
		return "user config only: nothing committed holds a machine path"
	}
	if c.WorkspaceVar != "" {
		return "project file with " + c.WorkspaceVar + ": works on every machine"
	}
	return "project file holds this machine's absolute path: each teammate's install rewrites it"
}

// TargetFor picks where c's entry for the project at root goes in scope
// ("" chooses DefaultScope).
func (c Client) TargetFor(root string, scope Scope, env Env) (Target, error) {
	if scope == "" {
		scope = c.DefaultScope()
	}
	t := Target{Client: c, Scope: scope, Key: append([]string(nil), c.Key...)}
	switch scope {
	case ScopeProject:
		if c.ProjectFile == "" {
			return Target{}, fmt.Errorf("%s has no project config file; use the user scope", c.Name)
		}
		t.Path = c.ProjectPath(root)
		t.Portable = c.WorkspaceVar != ""
	case ScopeLocal:
		switch {
		case c.LocalFile != "":
			t.Path = filepath.Join(root, filepath.FromSlash(c.LocalFile))
		case c.LocalScope:
			t.Path = c.UserPath(env)
			t.Key = append([]string{"projects", root}, c.Key...)
		default:
			return Target{}, fmt.Errorf("%s has no local (per-project) scope", c.Name)
		}
	case ScopeUser:
		t.Path = c.UserPath(env)
	default:
		return Target{}, fmt.Errorf("unknown scope %q: use project, local or user", scope)
	}
	if t.Path == "" {
		return Target{}, fmt.Errorf("%s has no user config on %s", c.Name, env.GOOS)
	}
	return t, nil
}

// LaunchFor is the primary entry for t: with the client's workspace
// variable when the target is a project file the client expands it in,
// else with absolute paths.
func (t Target) LaunchFor(root, binary string) Entry {
	if t.Portable {
		v := t.Client.WorkspaceVar
		rel, err := filepath.Rel(root, binary)
		if err == nil && !strings.HasPrefix(rel, "..") {
			return Launch(v+"/"+filepath.ToSlash(rel), v)
		}
	}
	return Launch(binary, root)
}
