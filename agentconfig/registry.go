// Package agentconfig owns how agentos is registered with MCP clients: a data
// table of the clients it knows (where each keeps its config, in which
// format and under which key, how it spells a launch entry and an HTTP
// entry, which rules files it reads, where it records the folders it
// trusts), small emitters that turn one internal server entry into each
// client's shape, comment-preserving merges into JSON/JSONC, YAML and TOML
// files the user owns, and the checks of `agentos doctor`.
//
// The facts come from the clients' own documentation; rows that rest on
// third-party material only are marked Unverified so `agentos agents list`
// can say so. A correction is a one-line change to the table.
package agentconfig

import (
	"fmt"
	"sort"
	"strings"
)

// Format is a config file's syntax.
type Format string

// The formats clients use.
const (
	JSON  Format = "json"
	JSONC Format = "jsonc" // JSON with comments and trailing commas
	TOML  Format = "toml"
	YAML  Format = "yaml"
)

// Shape says how a client spells one server entry. The emitters read only
// these fields, so a client's entry is described, not coded.
type Shape struct {
	StdioType    string         // the "type" of a launch entry; "" writes none
	CommandKey   string         // "command" unless set (Goose: "cmd")
	CommandArray bool           // command and args in one array (opencode, Kilo)
	NoArgs       bool           // with CommandArray: no separate args
	EnvKey       string         // "env" unless set ("environment", "envs")
	AutoApprove  string         // field holding the auto-approved tool names; "" when the client has none
	Approval     map[string]any // fixed fields that spare the user a confirmation per call (Gemini trust), in both kinds of entry
	StdioExtra   map[string]any // fixed extra fields of a launch entry
	HTTP         bool           // the client can speak streamable HTTP
	HTTPType     string         // the "type" of an HTTP entry; "" writes none
	HTTPTypeKey  string         // "type" unless set (Devin: "transport")
	URLKey       string         // "url" unless set ("serverUrl", "httpUrl", "uri")
	HTTPExtra    map[string]any // fixed extra fields of an HTTP entry
	NameField    bool           // the entry repeats its name in a "name" field (Goose, Continue)
	// HTTPRead lists every spelling of an HTTP entry the client's current
	// version reads as streamable HTTP, in the order it looks for them, so
	// that doctor passes an entry the client accepts even when agentos
	// writes another form (Gemini CLI's deprecated httpUrl, Codex's ignored
	// type). nil: the client reads only the form agentos writes.
	HTTPRead []HTTPForm
}

// HTTPForm is one spelling of an HTTP entry that a client reads as
// streamable HTTP, the only transport agentos serves.
type HTTPForm struct {
	URLKey string // the key that holds the URL
	// Type is the value the type key (Shape.HTTPTypeKey) must hold; "" means
	// no type key at all, unless AnyType is set.
	Type    string
	AnyType bool // the client ignores the type key beside this URL key
	// Old says why this is not the form agentos writes ("deprecated …"); ""
	// for the form it writes. Doctor passes an old form and says so.
	Old string
}

// httpForms is what doctor accepts as c's HTTP entry: Shape.HTTPRead, or
// the one form agentos writes.
func (s Shape) httpForms() []HTTPForm {
	if s.HTTPRead != nil {
		return s.HTTPRead
	}
	return []HTTPForm{{URLKey: s.urlKey(), Type: s.HTTPType}}
}

// describe spells f the way a person reads it in a config file.
func (f HTTPForm) describe(typeKey string) string {
	switch {
	case f.AnyType:
		return f.URLKey
	case f.Type != "":
		return fmt.Sprintf("%s with %s %q", f.URLKey, typeKey, f.Type)
	default:
		return f.URLKey + " without " + typeKey
	}
}

// RulesFile is one instruction file a client reads.
type RulesFile struct {
	Path        string // slash-separated, relative to the project root
	Shared      bool   // a file the user owns too: agentos keeps a marked block in it
	Frontmatter string // YAML frontmatter lines (without the --- fences) for a dedicated file
}

// Client is one row of the registry.
type Client struct {
	ID      string   // stable identifier for flags: "claude-code"
	Name    string   // as people write it: "Claude Code"
	Aliases []string // other names people use, lower case
	Format  Format
	// ProjectFile is the project-scoped config, slash-separated and relative
	// to the project root; "" when the client has none.
	ProjectFile string
	// UserFile is the user-scoped config per GOOS ("linux", "darwin",
	// "windows"); "~" is the home folder, "%APPDATA%" the roaming app data
	// folder, "$XDG_CONFIG_HOME" the XDG config folder. A missing GOOS
	// means the client does not run there.
	UserFile map[string]string
	// Key is the path of the object (or list) that holds the servers.
	Key []string
	// List is true when the servers are a list of entries with a "name"
	// (Continue) rather than an object keyed by name.
	List bool
	// FreshDoc are fields a new file starts with (Continue's block header).
	FreshDoc Object
	Shape    Shape
	// WorkspaceVar is the variable the client expands to the workspace
	// folder in a project config; "" when it expands none.
	WorkspaceVar string
	// LocalScope is true when the user config has a per-project section
	// (Claude Code's projects["<abs path>"]): a machine-specific entry can
	// live there instead of in a committed file.
	LocalScope bool
	// LocalFile is a project file for this machine only (slash-separated,
	// relative to the project root), which install keeps out of version
	// control through its .gitignore block: Devin's config.local.json, or
	// Continue's block file, which agentos owns whole. "" when there is none.
	LocalFile string
	Rules     []RulesFile
	// Trust is where the client records the folders it trusts, for a
	// client that ignores a project's config (or its MCP servers) in a
	// folder it does not trust; nil when it has no such gate.
	Trust *Trust
	// Approve is the command a person runs in the project, once per
	// entry, before the client uses a project server it has not seen (Qwen
	// Code binds the approval to the entry's content); "" when none.
	Approve string
	// Approvals is where the client records the approvals Approve makes, so
	// that doctor can tell a pending server; nil when it has none.
	Approvals *Approvals
	// Unverified lists the facts of this row that come from third-party
	// material only.
	Unverified []string
	Note       string // one line for `agents list`
}

// Field names every client that has a launch entry uses unless its shape says otherwise.
func (s Shape) commandKey() string { return or(s.CommandKey, "command") }
func (s Shape) envKey() string     { return or(s.EnvKey, "env") }
func (s Shape) urlKey() string     { return or(s.URLKey, "url") }
func (s Shape) typeKey() string    { return or(s.HTTPTypeKey, "type") }

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

var (
	vscodeUser = map[string]string{
		"linux":   "$XDG_CONFIG_HOME/Code/User",
		"darwin":  "~/Library/Application Support/Code/User",
		"windows": "%APPDATA%/Code/User",
	}
	agentsMD = RulesFile{Path: "AGENTS.md", Shared: true}
)

func underVSCode(rel string) map[string]string {
	m := map[string]string{}
	for goos, dir := range vscodeUser {
		m[goos] = dir + "/" + rel
	}
	return m
}

func same(path string) map[string]string {
	return map[string]string{"linux": path, "darwin": path, "windows": path}
}

// clients is the registry. Keep it in the order of the list.
var clients = []Client{
	{
		ID: "claude-code", Name: "Claude Code", Aliases: []string{"claude", "claude code", "cc"},
		Format: JSON, ProjectFile: ".mcp.json", UserFile: same("~/.claude.json"), Key: []string{"mcpServers"},
		// Claude Code 2.1.330 reads type http, and streamable-http as its
		// alias; a url without a type, or another type, it skips with a
		// warning, and type sse is SSE (checked with `claude mcp list`).
		Shape: Shape{StdioType: "stdio", HTTP: true, HTTPType: "http", HTTPRead: []HTTPForm{
			{URLKey: "url", Type: "http"},
			{URLKey: "url", Type: "streamable-http", Old: "an alias Claude Code 2.1.330 reads as http"},
		}},
		LocalScope: true,
		Rules:      []RulesFile{{Path: "CLAUDE.md", Shared: true}},
		Note:       "no per-server auto-approve; project servers are approved in .claude/settings*.json",
	},
	{
		ID: "claude-desktop", Name: "Claude Desktop", Aliases: []string{"claude desktop", "claude app"},
		Format: JSON, Key: []string{"mcpServers"},
		UserFile: map[string]string{
			"darwin":  "~/Library/Application Support/Claude/claude_desktop_config.json",
			"windows": "%APPDATA%/Claude/claude_desktop_config.json",
		},
		Shape: Shape{},
		Note:  "stdio only: a secondary entry runs `agentos serve --transport stdio`, which bridges to the primary; no Linux build",
	},
	{
		ID: "cursor", Name: "Cursor", Aliases: []string{"cursor"},
		Format: JSON, ProjectFile: ".cursor/mcp.json", UserFile: same("~/.cursor/mcp.json"), Key: []string{"mcpServers"},
		Shape:        Shape{StdioType: "stdio", HTTP: true},
		WorkspaceVar: "${workspaceFolder}",
		Rules:        []RulesFile{{Path: ".cursor/rules/agentos.mdc", Frontmatter: "description: agentos rules: standards, search and workflows\nglobs:\nalwaysApply: true"}},
		Note:         "tools are enabled in the UI only",
	},
	{
		ID: "vscode", Name: "VS Code (Copilot)", Aliases: []string{"vs code", "vscode", "code", "copilot", "github copilot", "visual studio code"},
		Format: JSONC, ProjectFile: ".vscode/mcp.json", UserFile: underVSCode("mcp.json"), Key: []string{"servers"},
		Shape:        Shape{StdioType: "stdio", HTTP: true, HTTPType: "http"},
		WorkspaceVar: "${workspaceFolder}",
		Rules:        []RulesFile{{Path: ".github/instructions/agentos.instructions.md", Frontmatter: "applyTo: \"**\"\ndescription: agentos rules: standards, search and workflows"}},
	},
	{
		ID: "windsurf", Name: "Windsurf", Aliases: []string{"windsurf", "codeium"},
		Format: JSON, UserFile: same("~/.codeium/windsurf/mcp_config.json"), Key: []string{"mcpServers"},
		Shape: Shape{HTTP: true, URLKey: "serverUrl"},
		Rules: []RulesFile{{Path: ".windsurf/rules/agentos.md", Frontmatter: "trigger: always_on"}},
		Note:  "user config only; 100-tool cap",
	},
	{
		ID: "devin", Name: "Devin Desktop / CLI", Aliases: []string{"devin", "devin desktop", "devin cli"},
		Format: JSONC, ProjectFile: ".devin/config.json", Key: []string{"mcpServers"},
		UserFile:  map[string]string{"linux": "$XDG_CONFIG_HOME/devin/config.json", "darwin": "~/.config/devin/config.json", "windows": "%APPDATA%/devin/config.json"},
		LocalFile: ".devin/config.local.json",
		Shape:     Shape{HTTP: true, HTTPType: "http", HTTPTypeKey: "transport"},
		Rules:     []RulesFile{agentsMD},
		Note:      "Windsurf's successor; config files take comments; .devin/config.local.json holds machine-specific settings",
	},
	{
		ID: "cline", Name: "Cline", Aliases: []string{"cline"},
		Format: JSON, UserFile: same("~/.cline/data/settings/cline_mcp_settings.json"), Key: []string{"mcpServers"},
		Shape: Shape{StdioType: "stdio", AutoApprove: "autoApprove", StdioExtra: map[string]any{"disabled": false, "timeout": 60},
			HTTP: true, HTTPType: "streamableHttp", HTTPExtra: map[string]any{"disabled": false}},
		Rules: []RulesFile{{Path: ".clinerules/agentos.md"}},
		Note:  "user config only ($CLINE_DATA_DIR overrides the folder); a url without type is legacy SSE, so type is always written",
	},
	{
		ID: "roo", Name: "Roo Code", Aliases: []string{"roo", "roo code", "roo-cline"},
		Format: JSON, ProjectFile: ".roo/mcp.json", UserFile: underVSCode("globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"), Key: []string{"mcpServers"},
		Shape:        Shape{StdioType: "stdio", AutoApprove: "alwaysAllow", HTTP: true, HTTPType: "streamable-http"},
		WorkspaceVar: "${workspaceFolder}",
		Rules:        []RulesFile{{Path: ".roo/rules/agentos.md"}},
	},
	{
		ID: "kilo", Name: "Kilo Code", Aliases: []string{"kilo", "kilo code", "kilocode"},
		Format: JSONC, ProjectFile: "kilo.jsonc", UserFile: same("~/.config/kilo/kilo.jsonc"), Key: []string{"mcp"},
		Shape: Shape{StdioType: "local", CommandArray: true, EnvKey: "environment", StdioExtra: map[string]any{"enabled": true},
			HTTP: true, HTTPType: "remote", HTTPExtra: map[string]any{"enabled": true}},
		Rules: []RulesFile{{Path: ".kilocode/rules/agentos.md"}},
		Note:  "the current, opencode-based Kilo; the legacy extension reads .kilocode/mcp.json like Roo",
	},
	{
		ID: "continue", Name: "Continue", Aliases: []string{"continue", "continue.dev"},
		Format: YAML, ProjectFile: ".continue/mcpServers/agentos.yaml", UserFile: same("~/.continue/config.yaml"), Key: []string{"mcpServers"}, List: true,
		LocalFile: ".continue/mcpServers/agentos.yaml", // a block file of agentos's own
		FreshDoc:  Object{{"name", "agentos"}, {"version", "0.0.1"}, {"schema", "v1"}},
		Shape:     Shape{StdioType: "stdio", NameField: true, HTTP: true, HTTPType: "streamable-http"},
		Rules:     []RulesFile{{Path: ".continue/rules/agentos.md", Frontmatter: "name: agentos\ndescription: agentos rules: standards, search and workflows\nalwaysApply: true"}},
		Note:      "mcpServers is a list; a block file needs name, version and schema; agentos's block file is kept out of git",
	},
	{
		ID: "zed", Name: "Zed", Aliases: []string{"zed"},
		Format: JSONC, ProjectFile: ".zed/settings.json", Key: []string{"context_servers"},
		UserFile: map[string]string{"linux": "$XDG_CONFIG_HOME/zed/settings.json", "darwin": "~/.config/zed/settings.json", "windows": "%APPDATA%/Zed/settings.json"},
		Shape:    Shape{HTTP: true},
		Rules:    []RulesFile{agentsMD},
		Note:     "reads the first of .rules, .cursorrules, …, AGENTS.md, CLAUDE.md, GEMINI.md",
	},
	{
		ID: "codex", Name: "Codex CLI", Aliases: []string{"codex", "codex cli", "openai codex"},
		Format: TOML, ProjectFile: ".codex/config.toml", UserFile: same("$CODEX_HOME/config.toml"), Key: []string{"mcp_servers"},
		// Codex 0.169 infers the transport from url and ignores a type key
		// (`codex mcp add --url` writes none; `codex mcp get --json` reports
		// streamable_http whatever type says).
		Shape: Shape{HTTP: true, HTTPRead: []HTTPForm{{URLKey: "url", AnyType: true}}},
		Rules: []RulesFile{agentsMD},
		Trust: &Trust{File: "$CODEX_HOME/config.toml", Format: TOML, Style: TrustTable, ProjectOnly: true},
		Note:  "project config is read in trusted projects only; no type key written (Codex infers the transport and ignores one)",
	},
	{
		ID: "gemini", Name: "Gemini CLI", Aliases: []string{"gemini", "gemini cli"},
		Format: JSONC, ProjectFile: ".gemini/settings.json", UserFile: same("~/.gemini/settings.json"), Key: []string{"mcpServers"},
		// Gemini CLI 0.61 (createUrlTransport) reads httpUrl first, which it
		// calls deprecated ("Please migrate to 'url' with 'type: \"http\"'"),
		// then url with type http, then url alone (streamable HTTP with an SSE
		// fallback); url with type sse is SSE, which agentos does not serve.
		// `gemini mcp add --transport http` writes url with type http.
		Shape: Shape{Approval: map[string]any{"trust": true}, HTTP: true, HTTPType: "http",
			HTTPRead: []HTTPForm{
				{URLKey: "httpUrl", AnyType: true, Old: "deprecated in Gemini CLI 0.61, which still reads it"},
				{URLKey: "url", Type: "http"},
				{URLKey: "url", Old: "read as streamable HTTP with an SSE fallback"},
			}},
		Rules: []RulesFile{{Path: "GEMINI.md", Shared: true}},
		Trust: &Trust{File: "~/.gemini/trustedFolders.json", Format: JSON, Style: TrustMap, ProjectOnly: true, Switch: "~/.gemini/settings.json", SwitchOn: true},
		Note:  "trust: true skips confirmation for every tool of the server; project settings are read in trusted folders only",
	},
	{
		ID: "qwen", Name: "Qwen Code", Aliases: []string{"qwen", "qwen code", "qwen-code", "qwen cli"},
		Format: JSONC, ProjectFile: ".qwen/settings.json", UserFile: same("~/.qwen/settings.json"), Key: []string{"mcpServers"},
		// Qwen Code 0.24 reads httpUrl as streamable HTTP, ignoring a type
		// key in settings files, and url as SSE (createTransport), which
		// agentos does not serve; `qwen mcp add --transport http` writes httpUrl.
		Shape:     Shape{Approval: map[string]any{"trust": true}, HTTP: true, URLKey: "httpUrl", HTTPRead: []HTTPForm{{URLKey: "httpUrl", AnyType: true}}},
		Rules:     []RulesFile{{Path: "QWEN.md", Shared: true}},
		Trust:     &Trust{File: "~/.qwen/trustedFolders.json", Format: JSON, Style: TrustMap, ProjectOnly: true, Switch: "~/.qwen/settings.json"},
		Approve:   "qwen mcp approve " + ServerName,
		Approvals: &Approvals{File: "~/.qwen/mcpApprovals.json", Hash: qwenConfigHash, Bypass: qwenYolo},
		Note:      "Gemini CLI's settings shape, but HTTP is httpUrl (url is SSE); a new or changed project server waits for `qwen mcp approve agentos`; with folder trust turned on, project settings are read in trusted folders only",
	},
	{
		ID: "amazonq", Name: "Amazon Q Developer", Aliases: []string{"amazon q", "amazonq", "q", "q developer"},
		Format: JSON, ProjectFile: ".amazonq/mcp.json", UserFile: same("~/.aws/amazonq/mcp.json"), Key: []string{"mcpServers"},
		Shape: Shape{StdioExtra: map[string]any{"disabled": false}, HTTP: true, HTTPType: "http"},
		Rules: []RulesFile{{Path: ".amazonq/rules/agentos.md"}},
		Note:  "mcp.json is the legacy file, read while useLegacyMcpJson is on (the default); auto-approval lives in agent files (allowedTools)",
	},
	{
		ID: "kiro", Name: "Kiro", Aliases: []string{"kiro"},
		Format: JSON, ProjectFile: ".kiro/settings/mcp.json", UserFile: same("~/.kiro/settings/mcp.json"), Key: []string{"mcpServers"},
		Shape: Shape{AutoApprove: "autoApprove", StdioExtra: map[string]any{"disabled": false}, HTTP: true},
		Rules: []RulesFile{{Path: ".kiro/steering/agentos.md", Frontmatter: "inclusion: always"}},
	},
	{
		ID: "opencode", Name: "opencode", Aliases: []string{"opencode", "open code"},
		Format: JSONC, ProjectFile: "opencode.json", UserFile: same("$XDG_CONFIG_HOME/opencode/opencode.json"), Key: []string{"mcp"},
		Shape: Shape{StdioType: "local", CommandArray: true, EnvKey: "environment", StdioExtra: map[string]any{"enabled": true},
			HTTP: true, HTTPType: "remote", HTTPExtra: map[string]any{"enabled": true}},
		Rules: []RulesFile{agentsMD},
	},
	{
		ID: "goose", Name: "Goose", Aliases: []string{"goose"},
		Format: YAML, Key: []string{"extensions"},
		UserFile: map[string]string{"linux": "$XDG_CONFIG_HOME/goose/config.yaml", "darwin": "~/.config/goose/config.yaml", "windows": "%APPDATA%/Block/goose/config/config.yaml"},
		Shape: Shape{StdioType: "stdio", CommandKey: "cmd", EnvKey: "envs", NameField: true, StdioExtra: map[string]any{"enabled": true, "timeout": 300},
			HTTP: true, HTTPType: "streamable_http", URLKey: "uri", HTTPExtra: map[string]any{"enabled": true, "timeout": 300}},
		Rules: []RulesFile{agentsMD},
		Note:  "user config only; extensions is a map",
	},
	{
		ID: "copilot-cli", Name: "GitHub Copilot CLI", Aliases: []string{"copilot cli", "gh copilot", "copilot-cli"},
		Format: JSON, ProjectFile: ".github/mcp.json", UserFile: same("~/.copilot/mcp-config.json"), Key: []string{"mcpServers"},
		Shape: Shape{StdioType: "local", StdioExtra: map[string]any{"tools": []string{"*"}}, HTTP: true, HTTPType: "http", HTTPExtra: map[string]any{"tools": []string{"*"}}},
		Rules: []RulesFile{{Path: ".github/copilot-instructions.md", Shared: true}},
		Trust: &Trust{File: "~/.copilot/config.json", Format: JSON, Style: TrustList},
		Note:  "also reads .mcp.json; no longer reads .vscode/mcp.json",
	},
	{
		ID: "junie", Name: "JetBrains Junie", Aliases: []string{"junie", "jetbrains junie", "jetbrains"},
		Format: JSON, ProjectFile: ".junie/mcp/mcp.json", UserFile: same("~/.junie/mcp/mcp.json"), Key: []string{"mcpServers"},
		Shape:      Shape{},
		Rules:      []RulesFile{{Path: ".junie/guidelines.md", Shared: true}},
		Unverified: []string{"project file", "user file"},
		Note:       "stdio only: a secondary entry runs `agentos serve --transport stdio`, which bridges to the primary",
	},
	{
		ID: "augment", Name: "Augment", Aliases: []string{"augment", "augment code", "auggie"},
		Format: JSONC, ProjectFile: ".augment/settings.json", UserFile: same("~/.augment/settings.json"), Key: []string{"mcpServers"},
		Shape: Shape{HTTP: true, HTTPType: "http"},
		Rules: []RulesFile{{Path: ".augment/rules/agentos.md", Frontmatter: "type: always_apply\ndescription: agentos rules: standards, search and workflows"}},
		Note:  "settings files take comments and trailing commas; Auggie also reads .augment/settings.local.json",
	},
	{
		ID: "droid", Name: "Factory Droid", Aliases: []string{"droid", "factory", "factory droid"},
		Format: JSON, ProjectFile: ".factory/mcp.json", UserFile: same("~/.factory/mcp.json"), Key: []string{"mcpServers"},
		Shape: Shape{StdioType: "stdio", HTTP: true, HTTPType: "http"},
		Rules: []RulesFile{agentsMD},
		Note:  "the project file is read at the git root (else the working folder)",
	},
}

// All returns every client of the registry, in the registry's order.
func All() []Client {
	out := make([]Client, len(clients))
	copy(out, clients)
	return out
}

// LocalFiles are the clients' machine-only project files, for the
// .gitignore block: the same list on every machine.
func LocalFiles() []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range clients {
		if c.LocalFile != "" && !seen[c.LocalFile] {
			seen[c.LocalFile] = true
			out = append(out, c.LocalFile)
		}
	}
	return out
}

// IDs returns every client id, sorted.
func IDs() []string {
	ids := make([]string, len(clients))
	for i, c := range clients {
		ids[i] = c.ID
	}
	sort.Strings(ids)
	return ids
}

// Lookup finds a client by id, name or alias, case-insensitively.
func Lookup(name string) (Client, error) {
	n := normalize(name)
	for _, c := range clients {
		if n == c.ID || n == normalize(c.Name) {
			return c, nil
		}
	}
	for _, c := range clients {
		for _, a := range c.Aliases {
			if n == a {
				return c, nil
			}
		}
	}
	return Client{}, fmt.Errorf("unknown agent %q; known agents: %s", name, strings.Join(IDs(), ", "))
}

func normalize(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.NewReplacer("_", "-", "\t", " ").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// Choice is what a phrase like "Cline in Cursor" names: the agent, and the
// IDE it runs inside when the phrase names one.
type Choice struct {
	Agent Client
	IDE   *Client
}

// ParsePhrase reads a free-form phrase as a person would say it: "Cline in
// Cursor", "roo code inside vs code", "claude code", "Codex with Cursor".
func ParsePhrase(phrase string) (Choice, error) {
	n := normalize(phrase)
	if n == "" {
		return Choice{}, fmt.Errorf("name an agent, for example --for \"Cline in Cursor\"")
	}
	for _, sep := range []string{" inside of ", " inside ", " within ", " in ", " on ", " with ", " via ", " under ", "@", " + "} {
		i := strings.Index(n, sep)
		if i < 0 {
			continue
		}
		agent, err := lookupLoose(n[:i])
		if err != nil {
			return Choice{}, err
		}
		ide, err := lookupLoose(n[i+len(sep):])
		if err != nil {
			return Choice{}, err
		}
		return Choice{Agent: agent, IDE: &ide}, nil
	}
	agent, err := lookupLoose(n)
	if err != nil {
		return Choice{}, err
	}
	return Choice{Agent: agent}, nil
}

// lookupLoose is Lookup that forgives articles and filler words.
func lookupLoose(s string) (Client, error) {
	words := strings.Fields(s)
	var kept []string
	for _, w := range words {
		switch w {
		case "the", "a", "an", "use", "using", "extension", "ide", "editor", "agent", "app", "for":
			continue
		}
		kept = append(kept, w)
	}
	c, err := Lookup(strings.Join(kept, " "))
	if err == nil {
		return c, nil
	}
	return Lookup(s)
}
