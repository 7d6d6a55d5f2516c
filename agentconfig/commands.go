package agentconfig

import (
	"bytes"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentos-dev/agentos/assets"
)

// Commands are the short prompts agentos gives clients that have slash
// commands, so `/agentos-spec`, `/agentos-implement` and `/agentos-search`
// start the workflows and searches as spec-kit and OpenSpec users expect.
// Their text is assets/commands/, which the server also offers as MCP prompts.
type command struct {
	name        string // agentos-spec
	description string
	prompt      string // $ARGUMENTS is what the user typed after the command
}

var commands = func() []command {
	var out []command
	for _, c := range assets.Commands() {
		out = append(out, command{"agentos-" + c.Name, c.Description, c.Text})
	}
	return out
}()

// commandMarker marks a command file as agentos's, so uninstall finds it.
const commandMarker = "agentos:command"

// CommandFile is one slash-command file.
type CommandFile struct {
	Path    string // slash-separated, relative to the project root
	Content []byte
}

// CommandFiles are c's slash-command files, for the clients that have them.
func (c Client) CommandFiles() []CommandFile {
	var out []CommandFile
	for _, cmd := range commands {
		short := strings.TrimPrefix(cmd.name, "agentos-")
		md := func(frontmatter string) []byte {
			return []byte("---\n" + frontmatter + "---\n\n<!-- " + commandMarker + " (written by agentos install) -->\n\n" + cmd.prompt + "\n")
		}
		switch c.ID {
		case "claude-code":
			out = append(out, CommandFile{".claude/commands/" + cmd.name + ".md", md("description: " + cmd.description + "\nargument-hint: <what>\n")})
		case "cursor":
			out = append(out, CommandFile{".cursor/commands/" + cmd.name + ".md", []byte("<!-- " + commandMarker + " (written by agentos install) -->\n\n" + cmd.prompt + "\n")})
		case "vscode":
			out = append(out, CommandFile{".github/prompts/" + cmd.name + ".prompt.md", md("mode: agent\ndescription: " + cmd.description + "\n")})
		case "gemini":
			// Gemini CLI's prompts take {{args}}; /agentos:spec and so on.
			prompt := strings.ReplaceAll(cmd.prompt, "$ARGUMENTS", "{{args}}")
			out = append(out, CommandFile{".gemini/commands/agentos/" + short + ".toml",
				[]byte("# " + commandMarker + " (written by agentos install)\ndescription = " + strconv.Quote(cmd.description) + "\nprompt = \"\"\"\n" + prompt + "\n\"\"\"\n")})
		}
	}
	switch c.ID {
	case "claude-code":
		out = append(out, CommandFile{claudeSkill, skillText("name: agentos\ndescription: " + skillDescription + "\n")})
	case "cursor":
		// An agent-requested rule (a description, no globs, not always
		// applied) is Cursor's equivalent of a skill: the model reads the
		// description and pulls the rule in when a request calls for it.
		out = append(out, CommandFile{cursorSkill, skillText("description: " + skillDescription + "\nglobs:\nalwaysApply: false\n")})
	}
	return out
}

// claudeSkill is Claude Code's skill and cursorSkill Cursor's agent-requested
// rule: the same procedures as the commands, which the model loads by itself when a
// request calls for them, so they cost no always-on context.
const (
	claudeSkill      = ".claude/skills/agentos/SKILL.md"
	cursorSkill      = ".cursor/rules/agentos-procedures.mdc"
	skillDescription = "Use this project's agentos MCP server to write a specification, implement an approved spec, " +
		"make a small change or fix a bug under its verified gate, or search the project's standards and code before changing it."
)

// skillText is the procedures with the given frontmatter fields.
func skillText(frontmatter string) []byte {
	var b strings.Builder
	b.WriteString("---\n" + frontmatter + "---\n\n<!-- " + commandMarker + " (written by agentos install) -->\n\n" +
		"# agentos\n\nThe commands /agentos-spec, /agentos-implement, /agentos-quick, /agentos-bugfix and /agentos-search do the same on request.\n")
	for _, cmd := range commands {
		_, steps, _ := strings.Cut(cmd.prompt, "\n\n")
		b.WriteString("\n## " + cmd.description + "\n\n" + steps + "\n")
	}
	return []byte(b.String())
}

// planCommands plans c's command files: ours whole, rewritten when they differ.
func planCommands(c Client, root string) ([]Change, error) {
	var out []Change
	for _, f := range c.CommandFiles() {
		path := filepath.Join(root, filepath.FromSlash(f.Path))
		data, perm, exists, err := readFile(path)
		if err != nil {
			return nil, err
		}
		ch := Change{Path: path, Kind: "command", Client: c.ID, Before: data, Perm: perm, Existed: exists, After: f.Content}
		switch {
		case !exists:
			ch.Action = Created
		case bytes.Equal(data, f.Content):
			ch.Action = Unchanged
		default:
			ch.Action = Updated
			ch.UserOwned = !bytes.Contains(data, []byte(commandMarker)) // someone else's file of that name
		}
		out = append(out, ch)
	}
	return out, nil
}

// planRemoveCommands plans deleting every command file agentos wrote.
func planRemoveCommands(root string) ([]Change, error) {
	var out []Change
	for _, c := range clients {
		for _, f := range c.CommandFiles() {
			path := filepath.Join(root, filepath.FromSlash(f.Path))
			data, perm, exists, err := readFile(path)
			if err != nil {
				return nil, err
			}
			if exists && bytes.Contains(data, []byte(commandMarker)) {
				out = append(out, Change{Path: path, Kind: "command", Action: Removed, Existed: true, Before: data, Perm: perm})
			}
		}
	}
	return out, nil
}
