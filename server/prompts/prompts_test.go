package prompts_test

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/server/prompts"
)

func TestList(t *testing.T) {
	want := map[string]string{"spec": "feature", "implement": "spec", "quick": "change", "bugfix": "bug", "search": "query"}
	list := prompts.New().List()
	if len(list) != len(want) || list[0].Name != "spec" || list[1].Name != "implement" || list[2].Name != "quick" || list[3].Name != "bugfix" || list[4].Name != "search" {
		t.Fatalf("prompts = %+v", list)
	}
	for _, p := range list {
		if p.Description == "" || len(p.Arguments) != 1 {
			t.Fatalf("%s: %+v", p.Name, p)
		}
		a := p.Arguments[0]
		if a.Name != want[p.Name] || a.Description == "" || !a.Required {
			t.Errorf("%s's argument: %+v", p.Name, a)
		}
	}
}

func text(t *testing.T, res *mcp.GetPromptResult) string {
	t.Helper()
	if len(res.Messages) != 1 || res.Messages[0].Role != mcp.RoleUser {
		t.Fatalf("messages = %+v", res.Messages)
	}
	c, ok := res.Messages[0].Content.(mcp.TextContent)
	if !ok {
		t.Fatalf("content = %#v", res.Messages[0].Content)
	}
	return c.Text
}

// prompts/get answers the text of the command file install writes, with the
// argument in place of $ARGUMENTS.
func TestGetIsTheCommandFile(t *testing.T) {
	claude, err := agentconfig.Lookup("claude-code")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range claude.CommandFiles() {
		files[f.Path] = string(f.Content)
	}
	r := prompts.New()
	for _, p := range r.List() {
		file, ok := files[".claude/commands/agentos-"+p.Name+".md"]
		if !ok {
			t.Fatalf("no command file for %s", p.Name)
		}
		_, body, _ := strings.Cut(file, "(written by agentos install) -->\n\n")
		value := "billing export, with CSV"
		res, err := r.Get(p.Name, map[string]string{p.Arguments[0].Name: "  " + value + "\n"})
		if err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSuffix(strings.ReplaceAll(body, "$ARGUMENTS", value), "\n")
		if got := text(t, res); got != want {
			t.Errorf("%s:\ngot  %q\nwant %q", p.Name, got, want)
		}
		if res.Description != p.Description {
			t.Errorf("%s: description %q", p.Name, res.Description)
		}
	}
}

// The value is inserted once, as typed: a placeholder or template syntax in it
// is not expanded.
func TestValueIsData(t *testing.T) {
	value := "$ARGUMENTS {{args}} {{.}} ${HOME} `rm -rf /`\nsecond line"
	res, err := prompts.New().Get("search", map[string]string{"query": value})
	if err != nil {
		t.Fatal(err)
	}
	got := text(t, res)
	if !strings.HasPrefix(got, "Search this project with agentos for: "+value+"\n\n") || strings.Count(got, "$ARGUMENTS") != 1 {
		t.Errorf("text = %q", got)
	}
}

func TestGetRefuses(t *testing.T) {
	r := prompts.New()
	for _, tc := range []struct {
		name, prompt string
		args         map[string]string
		want         string
	}{
		{"unknown prompt", "deploy", map[string]string{"feature": "x"}, `unknown prompt "deploy": the prompts are spec, implement, quick, bugfix, search`},
		{"file name", "agentos-spec", map[string]string{"feature": "x"}, "unknown prompt"},
		{"long name", strings.Repeat("s", prompts.MaxNameBytes+1), nil, "too long"},
		{"missing argument", "spec", nil, "prompt spec needs the argument feature"},
		{"empty argument", "implement", map[string]string{"spec": " \n\t"}, "prompt implement needs the argument spec"},
		{"other argument", "spec", map[string]string{"query": "x"}, "takes one argument, feature, not \"query\""},
		{"extra argument", "spec", map[string]string{"feature": "x", "mode": "y"}, "not \"mode\""},
		{"many arguments", "spec", map[string]string{"a": "", "b": "", "c": "", "d": "", "e": "", "f": "", "g": "", "h": "", "i": ""}, "names 9"},
		{"long value", "search", map[string]string{"query": strings.Repeat("q", prompts.MaxValueBytes+1)}, "too long (4097 bytes; at most 4096)"},
		{"not UTF-8", "search", map[string]string{"query": "a\xffb"}, "not UTF-8"},
		{"escape", "search", map[string]string{"query": "a\x1b[2Jb"}, "control character U+001B"},
		{"NUL", "search", map[string]string{"query": "a\x00b"}, "control character U+0000"},
		{"reordering", "search", map[string]string{"query": "a\u202eb"}, "control character U+202E"},
	} {
		res, err := r.Get(tc.prompt, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, %+v; want an error with %q", tc.name, err, res, tc.want)
		}
		if err != nil && len(err.Error()) > 300 {
			t.Errorf("%s: the error quotes too much (%d bytes)", tc.name, len(err.Error()))
		}
	}
}
