package agentconfig

import (
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

func TestCommandFiles(t *testing.T) {
	want := map[string][]string{
		"claude-code": {".claude/commands/agentos-spec.md", ".claude/commands/agentos-implement.md", ".claude/commands/agentos-quick.md", ".claude/commands/agentos-bugfix.md", ".claude/commands/agentos-search.md", ".claude/skills/agentos/SKILL.md"},
		"cursor":      {".cursor/commands/agentos-spec.md", ".cursor/commands/agentos-implement.md", ".cursor/commands/agentos-quick.md", ".cursor/commands/agentos-bugfix.md", ".cursor/commands/agentos-search.md", ".cursor/rules/agentos-procedures.mdc"},
		"vscode":      {".github/prompts/agentos-spec.prompt.md", ".github/prompts/agentos-implement.prompt.md", ".github/prompts/agentos-quick.prompt.md", ".github/prompts/agentos-bugfix.prompt.md", ".github/prompts/agentos-search.prompt.md"},
		"gemini":      {".gemini/commands/agentos/spec.toml", ".gemini/commands/agentos/implement.toml", ".gemini/commands/agentos/quick.toml", ".gemini/commands/agentos/bugfix.toml", ".gemini/commands/agentos/search.toml"},
		"codex":       nil,
	}
	for id, paths := range want {
		c, _ := Lookup(id)
		files := c.CommandFiles()
		if len(files) != len(paths) {
			t.Fatalf("%s: %d files", id, len(files))
		}
		for i, f := range files {
			if f.Path != paths[i] || !strings.Contains(string(f.Content), commandMarker) {
				t.Errorf("%s: %s", id, f.Path)
			}
			switch {
			case strings.HasSuffix(f.Path, ".toml"):
				var doc struct{ Description, Prompt string }
				if err := toml.Unmarshal(f.Content, &doc); err != nil || !strings.Contains(doc.Prompt, "{{args}}") || doc.Description == "" {
					t.Errorf("%s does not parse as a Gemini command: %v %+v", f.Path, err, doc)
				}
			case strings.HasSuffix(f.Path, "SKILL.md"):
				if !strings.HasPrefix(string(f.Content), "---\nname: agentos\ndescription: ") || strings.Contains(string(f.Content), "$ARGUMENTS") ||
					!strings.Contains(string(f.Content), "spec_execution_v1") || !strings.Contains(string(f.Content), "search_code") {
					t.Errorf("%s is not a skill of the three procedures:\n%s", f.Path, f.Content)
				}
			case strings.HasSuffix(f.Path, ".mdc"):
				// Agent-requested: a description, no globs, not always applied.
				if !strings.HasPrefix(string(f.Content), "---\ndescription: Use this project's agentos MCP server") ||
					!strings.Contains(string(f.Content), "\nglobs:\nalwaysApply: false\n---\n") || strings.Contains(string(f.Content), "$ARGUMENTS") ||
					!strings.Contains(string(f.Content), "spec_execution_v1") || !strings.Contains(string(f.Content), "search_code") {
					t.Errorf("%s is not an agent-requested rule of the three procedures:\n%s", f.Path, f.Content)
				}
			case id != "cursor":
				if !strings.HasPrefix(string(f.Content), "---\n") || !strings.Contains(string(f.Content), "$ARGUMENTS") {
					t.Errorf("%s: no frontmatter or arguments", f.Path)
				}
			}
			if strings.Contains(f.Path, "spec") && !strings.Contains(string(f.Content), "spec_creation_v1") {
				t.Errorf("%s does not start the spec workflow", f.Path)
			}
		}
	}
}
