package pathpolicy

// How a person changes the files of a rule; each completes "only a person
// changes it: …".
const (
	byUpgrade   = "run `agentos upgrade` (or `agentos install`), which rewrites it"
	byEditor    = "edit it in an editor"
	byNextStart = "edit it in an editor; the server reads it at its next start"
	byInstall   = "edit it in an editor; `agentos install` rewrites agentos's own entry"
	byServer    = "nobody edits it: the server keeps it"
	byWorkflow  = "use svc_workflow, or `agentos workflow approve|reject|reset`"
	byGit       = "use git"
	nothing     = ""
)

// rules is the policy, one row per path. It is the only list: svc_filesystem,
// the indexers, docs/security.md (TestDocsTable) and the client registry
// (agentconfig's TestLaunchFilesAreProtected) all follow it.
//
// The client rows cover, for each client agentos registers with, the project
// files that launch or connect an MCP server and the ones that grant an agent
// permissions or run commands by themselves (hooks, auto-approval, plugins,
// setup commands), from each client's documentation. Rules files and prompt
// files stay writable: they instruct, they do not grant.
var rules = []Rule{
	{"**/.git/", Protected, "git's own data: history, config, and the hooks git runs", byGit},

	// agentos's own files. Everything under .agentos/ is agentos's unless a
	// row below says otherwise, so a file added there later is covered.
	{".agentos/", Protected, "agentos's own files: whatever under .agentos/ no other row names", byUpgrade},
	{".agentos/bin/", Protected, "the pinned agentos binary the IDE launches", byUpgrade},
	{".agentos/scripts/", Protected, "helper scripts agentos installs to be run", byUpgrade},
	{".agentos/config/", Protected, "the server's configuration: the gates' test command, HTTP auth, the embedder's URL, the indexed folders", byNextStart},
	{".agentos/workflows/", Protected, "workflow definitions, whose gates run commands", byNextStart},
	{".agentos/state/", Protected, "workflow sessions, a person's approvals, upgrade's merge bases", byWorkflow},
	{".agentos/backups/", Protected, "the backups `agentos rollback` restores", "run `agentos upgrade` or `agentos rollback`"},
	{".agentos/manifest.json", Protected, "the record of shipped files that upgrade merges against", byUpgrade},
	{".agentos/.mcp_server_state.json", Protected, "where other agents find the running server", "nobody edits it: the running server writes it"},
	{".agentos/.cache/", Secret, "the server's private state: the HTTP bearer token, the lock, the indexes", byServer},
	{".agentos/.cache/logs/", Protected, "the server's logs", byServer},
	{".agentos/specs/", Writable, "specifications are the agents' work", nothing},
	{".agentos/standards/", Writable, "standards are documents the project adapts; upgrade merges its changes three-way and keeps the project's edits", nothing},

	// Claude Code.
	{".mcp.json", Protected, "Claude Code and Copilot CLI: project MCP servers (launch commands)", byInstall},
	{".claude/settings.json", Protected, "Claude Code: permissions, hooks, environment, approval of project MCP servers", byEditor},
	{".claude/settings.local.json", Protected, "Claude Code: permissions, hooks, environment, approval of project MCP servers", byEditor},
	{".claude/agents/", Protected, "Claude Code subagents: their tools, permission mode and hooks", byEditor},
	{".claude/skills/", Protected, "Claude Code skills: tools they pre-approve (allowed-tools) and hooks", byEditor},
	{".claude/commands/", Protected, "Claude Code commands: tools they pre-approve and shell lines run when invoked", byEditor},
	{".claude/hooks/", Protected, "Claude Code: the usual folder of the hook scripts settings run", byEditor},
	// Cursor.
	{".cursor/mcp.json", Protected, "Cursor: project MCP servers (launch commands)", byInstall},
	{".cursor/hooks.json", Protected, "Cursor: hooks run around the agent loop", byEditor},
	{".cursor/hooks/", Protected, "Cursor: the hook scripts hooks.json runs", byEditor},
	{".cursor/cli.json", Protected, "Cursor CLI: tool permissions", byEditor},
	{".cursor/environment.json", Protected, "Cursor background agents: install and start commands", byEditor},
	{".cursor/worktrees.json", Protected, "Cursor: setup commands run in every new worktree", byEditor},
	// VS Code; VS Code itself always asks before its agent edits .vscode/*.json.
	{".vscode/", Protected, "VS Code: MCP servers (mcp.json), chat tool auto-approval (settings.json), tasks run on folder open (tasks.json)", byInstall},
	// A workspace file carries the same settings, MCP servers and tasks as
	// .vscode/, wherever it lies: VS Code opens one from any folder.
	{"**/*.code-workspace", Protected, "VS Code: a workspace file's settings, MCP servers and tasks run on folder open", byEditor},
	// JetBrains IDEs (Junie's home): run configurations run on a click or at startup.
	{".idea/", Protected, "JetBrains IDEs: run configurations, startup tasks, tool and MCP settings (workspace.xml, runConfigurations/)", byEditor},
	{".run/", Protected, "JetBrains IDEs: shared run configurations (*.run.xml)", byEditor},
	// GitHub Copilot (VS Code, CLI, cloud agent).
	{".github/mcp.json", Protected, "Copilot CLI: project MCP servers (launch commands)", byInstall},
	{".github/hooks/", Protected, "Copilot CLI and cloud agent: hooks run at lifecycle events", byEditor},
	{".github/agents/", Protected, "Copilot custom agents: their tools and MCP servers", byEditor},
	// Devin (Windsurf's successor) and Windsurf.
	{".devin/config.json", Protected, "Devin: project MCP servers and settings", byInstall},
	{".devin/config.local.json", Protected, "Devin: machine-only MCP servers and settings", byInstall},
	{".devin/hooks.v1.json", Protected, "Devin CLI: hooks", byEditor},
	{".devin/hooks/", Protected, "Devin CLI: hook scripts", byEditor},
	{".windsurf/hooks.json", Protected, "Windsurf: Cascade hooks", byEditor},
	// Cline, Roo Code, Kilo Code.
	{".clinerules/hooks/", Protected, "Cline: hook scripts run at task and tool events", byEditor},
	{".roo/mcp.json", Protected, "Roo Code: project MCP servers and their auto-approved tools", byInstall},
	{"kilo.json", Protected, "Kilo Code: MCP servers, permissions, plugins", byInstall},
	{"kilo.jsonc", Protected, "Kilo Code: MCP servers, permissions, plugins", byInstall},
	{".kilo/", Protected, "Kilo Code: configuration and plugins (code loaded at start)", byEditor},
	{".kilocode/mcp.json", Protected, "Kilo Code (legacy): project MCP servers and their auto-approved tools", byInstall},
	// Continue, Zed.
	{".continue/mcpServers/", Protected, "Continue: MCP server blocks (launch commands)", byInstall},
	{".continue/agents/", Protected, "Continue: agent files, which declare MCP servers and tools", byEditor},
	{".zed/settings.json", Protected, "Zed: context servers (launch commands) and agent tool permissions", byInstall},
	// Codex, Gemini CLI, Qwen Code.
	{".codex/", Protected, "Codex: config.toml (MCP servers, approval and sandbox), hooks.json, rules/ (commands allowed to run)", byInstall},
	{".agents/", Protected, "Codex and Gemini CLI: skills (Codex's own sandbox keeps this folder read-only)", byEditor},
	{".gemini/", Protected, "Gemini CLI: settings (MCP servers, hooks, tool auto-approval), .env, commands that run shell, skills, extensions", byInstall},
	{".qwen/settings.json", Protected, "Qwen Code: MCP servers, hooks, tool auto-approval", byEditor},
	// Amazon Q, Kiro.
	{".amazonq/mcp.json", Protected, "Amazon Q: project MCP servers (launch commands)", byInstall},
	{".amazonq/default.json", Protected, "Amazon Q: default agent, its MCP servers and allowed tools", byEditor},
	{".amazonq/cli-agents/", Protected, "Amazon Q CLI agents: allowed tools, hooks, MCP servers", byEditor},
	{".kiro/settings/", Protected, "Kiro: MCP servers with auto-approved tools, workspace settings", byInstall},
	{".kiro/hooks/", Protected, "Kiro: hooks that run shell commands on file and agent events", byEditor},
	{".kiro/agents/", Protected, "Kiro custom agents: allowed tools and hooks", byEditor},
	// opencode, Junie, Augment, Factory Droid.
	{"opencode.json", Protected, "opencode: MCP servers, permissions, plugins", byInstall},
	{"opencode.jsonc", Protected, "opencode: MCP servers, permissions, plugins", byInstall},
	{".opencode/", Protected, "opencode: configuration, plugins and custom tools (code loaded at start)", byEditor},
	{".junie/mcp/", Protected, "Junie: project MCP servers (launch commands)", byInstall},
	{".augment/settings.json", Protected, "Augment: MCP servers, tool permissions, hooks", byInstall},
	{".factory/", Protected, "Factory Droid: MCP servers, settings (command allowlist), hooks, custom droids", byInstall},
}
