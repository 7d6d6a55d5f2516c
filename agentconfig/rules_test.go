package agentconfig

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// maxAlwaysOnTokens is the budget of a rules file an agent reads in every
// session.
const maxAlwaysOnTokens = 450

// tokenEstimate is a conservative token count: the larger of characters / 4
// (rounded up) and the number of words, numbers and punctuation marks, each
// counted as a token of its own. Both exceed what BPE tokenizers count on
// this kind of text: cl100k_base and o200k_base count 374 tokens in the rules
// text that the two estimates put at 390 and 396.
func tokenEstimate(s string) int {
	byChars := int(math.Ceil(float64(utf8.RuneCountInString(s)) / 4))
	return max(byChars, len(tokenPieceRE.FindAllString(s, -1)))
}

var tokenPieceRE = regexp.MustCompile(`[\p{L}]+|[0-9]+|[^\s\p{L}0-9]`)

// TestRulesFitTheBudget renders the rules for every rules file of every
// client, as the agent reads it, and checks its size.
func TestRulesFitTheBudget(t *testing.T) {
	text, err := RulesText()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range All() {
		for _, rf := range c.Rules {
			got := string(RenderRules(rf, text))
			if n := tokenEstimate(got); n > maxAlwaysOnTokens {
				t.Errorf("%s %s: about %d tokens always on, more than %d", c.ID, rf.Path, n, maxAlwaysOnTokens)
			}
		}
	}
}

// registeredTools reads the server's tools and their actions from e2e's
// snapshot of tools/list, which TestToolsListGolden keeps equal to what the
// server registers.
func registeredTools(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "e2e", "testdata", "tools.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tools []struct {
		Name        string `json:"name"`
		InputSchema struct {
			Properties struct {
				Action struct {
					Enum []string `json:"enum"`
				} `json:"action"`
			} `json:"properties"`
		} `json:"inputSchema"`
	}
	if err := json.Unmarshal(data, &tools); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, tool := range tools {
		out[tool.Name] = tool.InputSchema.Properties.Action.Enum
	}
	if len(out) == 0 {
		t.Fatal("no tools in the snapshot")
	}
	return out
}

// identifierRE finds the tool and action names the guidance quotes: code
// spans holding a snake_case identifier.
var identifierRE = regexp.MustCompile("`([a-z]+(?:_[a-z0-9]+)+)`")

// workflowRE finds workflow names (spec_creation_v1).
var workflowRE = regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)*_v[0-9]+\b`)

// TestGuidanceNamesRealTools checks the always-on rules and the on-demand
// procedures (skill, Cursor rule, commands): every tool, action and workflow
// they name exists, each action belongs to a tool named before it, and the
// rules name every tool.
func TestGuidanceNamesRealTools(t *testing.T) {
	tools := registeredTools(t)
	rules, err := RulesText()
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{"rules": string(rules)}
	for _, id := range []string{"claude-code", "cursor"} {
		c, _ := Lookup(id)
		for _, f := range c.CommandFiles() {
			texts[f.Path] = string(f.Content)
		}
	}
	for name, text := range texts {
		for _, m := range identifierRE.FindAllStringSubmatchIndex(text, -1) {
			word := text[m[2]:m[3]]
			if _, ok := tools[word]; ok || workflowRE.MatchString(word) {
				continue
			}
			if !actionOfNamedTool(word, text[:m[0]], tools) {
				t.Errorf("%s names `%s`, which is neither a tool nor an action of a tool named before it", name, word)
			}
		}
		for _, wf := range workflowRE.FindAllString(text, -1) {
			if _, err := os.Stat(filepath.Join("..", "assets", "workflows", wf, "workflow.yaml")); err != nil {
				t.Errorf("%s names workflow %s, which does not exist", name, wf)
			}
		}
	}
	for tool := range tools {
		if !strings.Contains(string(rules), "`"+tool+"`") {
			t.Errorf("the rules never name the tool %s", tool)
		}
	}
}

// actionOfNamedTool reports whether action is an action of a tool that
// before names.
func actionOfNamedTool(action, before string, tools map[string][]string) bool {
	for tool, actions := range tools {
		if strings.Contains(before, tool) && slices.Contains(actions, action) {
			return true
		}
	}
	return false
}
