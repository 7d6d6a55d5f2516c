package assets

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"
)

func TestSpecTemplates(t *testing.T) {
	for name, headings := range map[string][]string{
		"README.md":         {"## Objectives", "## Deliverables", "## Success metrics"},
		"srd.md":            {"## Functional requirements", "## Non-functional requirements", "## Constraints"},
		"specs.md":          {"## Overview", "## Interfaces", "## Data model", "## Testing strategy"},
		"tasks.md":          {"## Phase 1", "## Phase 2", "- [ ] 1.1 ", "- [ ] 1.2 ", "- [ ] 2.1 ", "Estimate:", "Acceptance criteria:"},
		"implementation.md": {"## Approach", "## Decisions and deviations", "## Testing"},
	} {
		data, err := Read(SpecTemplates + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		for _, h := range headings {
			if !strings.Contains(text, h) {
				t.Errorf("%s lacks %q", name, h)
			}
		}
		// Every section carries guidance: a "> " line right under each "## " heading.
		lines := strings.Split(text, "\n")
		for i, line := range lines {
			if strings.HasPrefix(line, "## ") && (i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "> ")) && !strings.HasPrefix(line, "## Phase") {
				t.Errorf("%s: %q has no guidance under it", name, line)
			}
		}
	}
}

func TestTasksTemplateNumbering(t *testing.T) {
	data, err := Read(SpecTemplates + "/tasks.md")
	if err != nil {
		t.Fatal(err)
	}
	tasks := regexp.MustCompile(`(?m)^- \[ \] (\d+)\.(\d+) `).FindAllStringSubmatch(string(data), -1)
	if len(tasks) < 3 {
		t.Fatalf("tasks = %v", tasks)
	}
	// Each task has bullets, an estimate and acceptance criteria before the next.
	blocks := regexp.MustCompile(`(?m)^- \[ \] \d+\.\d+ `).Split(string(data), -1)[1:]
	for i, b := range blocks {
		for _, want := range []string{"\n  - ", "Estimate:", "Acceptance criteria:"} {
			if !strings.Contains(b, want) {
				t.Errorf("task %s.%s lacks %q", tasks[i][1], tasks[i][2], want)
			}
		}
	}
}

func TestAgentRules(t *testing.T) {
	data, err := Read(AgentRules)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if n := strings.Count(text, "\n"); n >= 40 {
		t.Errorf("agent rules are %d lines; keep them under 40", n)
	}
	// Server set-up (the state file, transports) is for people and doctor,
	// not the always-on text; agentconfig checks the tools it names exist.
	for _, want := range []string{"search_standards", "search_code", "svc_workflow", "gate", "Wording a search", "Never"} {
		if !strings.Contains(text, want) {
			t.Errorf("agent rules do not mention %q", want)
		}
	}
}

func TestSub(t *testing.T) {
	sub, err := Sub(UniversalStandards)
	if err != nil {
		t.Fatal(err)
	}
	domains, err := fs.ReadDir(sub, ".")
	if err != nil || len(domains) < 6 {
		t.Errorf("domains = %v, %v", domains, err)
	}
	if _, err := Sub("nope"); err == nil || !strings.HasPrefix(err.Error(), "assets: ") {
		t.Errorf("Sub(nope) error = %v", err)
	}
	if _, err := Read(StandardTemplate); err != nil {
		t.Error(err)
	}
}
