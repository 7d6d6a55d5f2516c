package gates

import (
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

const goodTasks = `# Tasks: user login

> Intro text is ignored.

## Phase 1: Data model

- [x] 1.1 Add the users table (FR-1)
  - Write the migration and its rollback
  - Touches store/migrations
  - Estimate: 2h
  - Acceptance criteria:
    - [x] AC-1.1.1: the migration applies and rolls back
    - [X] AC-1.1.2: ` + "`go test ./store/...`" + ` passes

- [ ] 1.2 Expose the repository (1h30m)
  - Add a UserRepo interface
  - Acceptance criteria:
    - [ ] AC-1.2.1: lookups by email are case-insensitive
    - [ ] a criterion without an ID

<!--
## Phase 9: commented out
- [ ] 9.1 nothing here
-->

## Phase 2: Login

` + "```" + `
## Phase 7: inside a code block
` + "```" + `

- [ ] Task 2.1: Login endpoint
  - POST /login
  - **Estimate:** 1d
  - [ ] AC-2.1.1: wrong passwords get 401

## Dependencies and order

- [ ] 3.1 not a task: outside every phase? no, after a closing heading
`

func TestParseTasksCanonical(t *testing.T) {
	src := strings.Replace(goodTasks, "- [ ] 3.1 not a task: outside every phase? no, after a closing heading\n", "- 2.1 needs 1.1\n", 1)
	plan, problems := ParseTasks([]byte(src))
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	want := Plan{Phases: []Phase{
		{Number: 1, Title: "Data model", Line: 5, Tasks: []Task{
			{ID: "1.1", Title: "Add the users table (FR-1)", Line: 7, Done: true,
				Bullets:         []string{"Write the migration and its rollback", "Touches store/migrations"},
				EstimateMinutes: 120,
				Criteria: []Criterion{
					{ID: "AC-1.1.1", Text: "the migration applies and rolls back", Checked: true, Line: 12},
					{ID: "AC-1.1.2", Text: "go test ./store/... passes", Checked: true, Line: 13},
				}},
			{ID: "1.2", Title: "Expose the repository", Line: 15, Bullets: []string{"Add a UserRepo interface"}, EstimateMinutes: 90,
				Criteria: []Criterion{
					{ID: "AC-1.2.1", Text: "lookups by email are case-insensitive", Line: 18},
					{Text: "a criterion without an ID", Line: 19},
				}},
		}},
		{Number: 2, Title: "Login", Line: 26, Tasks: []Task{
			{ID: "2.1", Title: "Login endpoint", Line: 32, Bullets: []string{"POST /login"}, EstimateMinutes: 480,
				Criteria: []Criterion{{ID: "AC-2.1.1", Text: "wrong passwords get 401", Line: 35}}},
		}},
	}}
	if !reflect.DeepEqual(plan, want) {
		t.Errorf("plan:\n got %+v\nwant %+v", plan, want)
	}
	if got := plan.EstimateMinutes(); got != 690 {
		t.Errorf("EstimateMinutes = %d, want 690", got)
	}
	if ph, ok := plan.Phase(2); !ok || ph.Title != "Login" {
		t.Errorf("Phase(2) = %+v, %v", ph, ok)
	}
	if _, ok := plan.Phase(3); ok {
		t.Error("Phase(3) found")
	}
}

func TestParseTasksHeadingVariant(t *testing.T) {
	src := `# Tasks

## Phase 1: Setup

### Task 1.1: Create the module
- Run go mod init
- Time: 30m

**Acceptance criteria:**
- [ ] AC-1.1.1: go build ./... succeeds

### 1.2 Add CI (45 min)
- Write the workflow file

#### Acceptance criteria
- [x] CI runs on every push

## Phase 2 — Release

### Task 2.1: Tag v1
Some paragraph describing the task.
- Push the tag
- Estimate: 1-2h
- [ ] the release page lists the binaries
`
	plan, problems := ParseTasks([]byte(src))
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	if len(plan.Phases) != 2 || plan.Phases[1].Title != "Release" {
		t.Fatalf("phases: %+v", plan.Phases)
	}
	p1 := plan.Phases[0].Tasks
	if len(p1) != 2 || p1[0].EstimateMinutes != 30 || p1[1].EstimateMinutes != 45 || p1[1].Title != "Add CI" {
		t.Fatalf("phase 1 tasks: %+v", p1)
	}
	if c := p1[1].Criteria; len(c) != 1 || !c[0].Checked || c[0].Line != 16 {
		t.Errorf("task 1.2 criteria: %+v", c)
	}
	if tk := plan.Phases[1].Tasks[0]; tk.EstimateMinutes != 120 || len(tk.Criteria) != 1 || len(tk.Bullets) != 1 {
		t.Errorf("task 2.1: %+v", tk)
	}
}

func TestParseTasksProblems(t *testing.T) {
	task := func(id string) string {
		return "- [ ] " + id + " Title\n  - do it\n  - Estimate: 1h\n  - [ ] AC-" + id + ".1: works\n"
	}
	tests := []struct {
		name string
		src  string
		want []string // "line: substring", in order
	}{
		{"no phases", "# Tasks\n\nnothing\n", []string{"0: no phase headings"}},
		{"phase out of order", "## Phase 1: A\n" + task("1.1") + "## Phase 3: C\n" + task("3.1"),
			[]string{"6: phase 3 should be numbered 2"}},
		{"phase without title", "## Phase 1\n" + task("1.1"), []string{"1: phase 1 has no title"}},
		{"phase without tasks", "## Phase 1: A\n\nJust words.\n", []string{"1: phase 1 has no tasks"}},
		{"task gap", "## Phase 1: A\n" + task("1.1") + task("1.3"), []string{"6: task 1.3 should be numbered 1.2"}},
		{"task repeat", "## Phase 1: A\n" + task("1.1") + strings.ReplaceAll(task("1.1"), "AC-1.1.1", "AC-1.2.1"),
			[]string{"6: task 1.1 should be numbered 1.2", "9: criterion AC-1.2.1 belongs to task 1.1"}},
		{"task in wrong phase", "## Phase 1: A\n" + task("2.1"), []string{"2: task 2.1 is under phase 1, so number it 1.1"}},
		{"task outside phase", "# Tasks\n" + task("1.1"), []string{"0: no phase headings", "2: task 1.1 is not under a phase heading"}},
		{"no bullets", "## Phase 1: A\n- [ ] 1.1 T\n  - Estimate: 1h\n  - [ ] ok\n", []string{"2: task 1.1 has no bullet points"}},
		{"no estimate", "## Phase 1: A\n- [ ] 1.1 T\n  - do\n  - [ ] ok\n", []string{"2: task 1.1 has no estimate"}},
		{"bad estimate", "## Phase 1: A\n- [ ] 1.1 T\n  - do\n  - Estimate: soon\n  - [ ] ok\n", []string{"4: task 1.1 has an estimate that cannot be read (\"soon\")"}},
		{"unitless estimate", "## Phase 1: A\n- [ ] 1.1 T\n  - do\n  - Estimate: 3\n  - [ ] ok\n", []string{"4: task 1.1 has an estimate that cannot be read"}},
		{"zero estimate", "## Phase 1: A\n- [ ] 1.1 T\n  - do\n  - Estimate: 0h\n  - [ ] ok\n", []string{"4: task 1.1 has a zero estimate"}},
		{"no criteria", "## Phase 1: A\n- [ ] 1.1 T\n  - do\n  - Estimate: 1h\n", []string{"2: task 1.1 has no acceptance criteria"}},
		{"plain criteria", "## Phase 1: A\n- [ ] 1.1 T\n  - do\n  - Estimate: 1h\n  - Acceptance criteria:\n    - it works\n  - another bullet\n",
			[]string{"6: an acceptance criterion of task 1.1 is not a checkbox"}},
		{"empty criterion", "## Phase 1: A\n- [ ] 1.1 T\n  - do\n  - Estimate: 1h\n  - [ ] AC-1.1.1:\n", []string{"5: an acceptance criterion of task 1.1 has no text"}},
		{"duplicate criterion ID", "## Phase 1: A\n" + task("1.1") + "  - [ ] AC-1.1.1: again\n", []string{"6: criterion ID AC-1.1.1 is already used at line 5"}},
		{"task without title", "## Phase 1: A\n- [ ] 1.1\n  - do\n  - Estimate: 1h\n  - [ ] ok\n", []string{"2: task 1.1 has no title"}},
		{"template placeholder", "## Phase 1: A\n- [ ] 1.1 T\n  - do\n  - Estimate: [[fill: e.g. 2h]]\n  - [ ] ok\n",
			[]string{"4: the template placeholder [[fill: e.g. 2h]]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, problems := ParseTasks([]byte(tt.src))
			var got []string
			for _, p := range problems {
				got = append(got, p.String())
			}
			if len(problems) != len(tt.want) {
				t.Fatalf("problems:\n%s\nwant %d: %v", strings.Join(got, "\n"), len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				line, sub, _ := strings.Cut(w, ": ")
				if lineStr := strconv.Itoa(problems[i].Line); lineStr != line || !strings.Contains(problems[i].Message, sub) {
					t.Errorf("problem %d = %q, want line %s containing %q", i, got[i], line, sub)
				}
			}
		})
	}
}

func TestProblemString(t *testing.T) {
	if s := (Problem{Line: 3, Message: "x"}).String(); s != "line 3: x" {
		t.Error(s)
	}
	if s := (Problem{Message: "x"}).String(); s != "x" {
		t.Error(s)
	}
}

func TestParseEstimate(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"2h", 120, true}, {"30m", 30, true}, {"1h30m", 90, true}, {"1h 30m", 90, true}, {"1.5h", 90, true},
		{"1,5 h", 90, true}, {"45 min", 45, true}, {"2 hours", 120, true}, {"1 hour and 15 minutes", 75, true},
		{"1d", 480, true}, {"~3h", 180, true}, {"about 2 hrs", 120, true}, {"2-3h", 180, true}, {"1h to 2h", 120, true},
		{"0h", 0, true}, {"3", 0, false}, {"soon", 0, false}, {"", 0, false}, {"2 parsecs", 0, false}, {"2h!", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseEstimate(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseEstimate(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// The spec template's tasks.md, untouched, must not pass.
func TestTasksTemplateFails(t *testing.T) {
	src, err := os.ReadFile("../../assets/templates/spec/tasks.md")
	if err != nil {
		t.Skip("no spec template here")
	}
	_, problems := ParseTasks(src)
	if len(problems) == 0 {
		t.Fatal("the untouched template parses without problems")
	}
	if !strings.Contains(problems[0].Message, "template placeholder") {
		t.Errorf("first problem %q: want the placeholder", problems[0])
	}
}

func TestTasksFormatCheck(t *testing.T) {
	good := strings.Replace(goodTasks, "- [ ] 3.1 not a task: outside every phase? no, after a closing heading\n", "", 1)
	good = strings.NewReplacer("AC-", "AC-login-", "a criterion without an ID", "AC-login-1.2.2: one more").Replace(good)
	root := project(t, map[string]string{
		"spec/tasks.md": good,
		"spec/bad.md":   "## Phase 1: A\n- [ ] 1.2 T\n",
		"spec/srd.md":   "## Functional requirements\n- FR-1: store users\n- FR-2: log in\n",
		"spec/ids.md":   "## Phase 1: A\n- [ ] 1.1 T (FR-1)\n  - w\n  - Estimate: 1h\n  - [ ] AC-1.1.1: old form\n  - [ ] AC-other-1.1.2: another spec\n  - [ ] no ID\n  - [ ] AC-spec-1.1.4: right\n",
	})
	env := Env{Root: root, Vars: map[string]string{"spec_dir": "spec"}}

	// Criterion IDs name the spec (the folder, without a date), so no other
	// spec's tests can trace them; and every FR of srd.md is served by a task.
	r := runCheck(t, Check{Type: TypeTasksFormat, File: "{spec_dir}/ids.md", Requirements: "{spec_dir}/srd.md"}, env)
	var got []string
	for _, p := range r.Details.(TasksDetails).Problems {
		got = append(got, p.String())
	}
	want := []string{
		"FR-2 (spec/srd.md line 3) is served by no task",
		"line 5: criterion AC-1.1.1 does not name the spec; write it AC-spec-1.1.1",
		"line 6: criterion AC-other-1.1.2 names the spec \"other\", but this is the spec \"spec\"",
		"line 7: a criterion of task 1.1 has no ID; start it with \"AC-spec-1.1.3:\"",
	}
	if r.Passed || len(got) != len(want) {
		t.Fatalf("problems %q", got)
	}
	for i := range want {
		contains(t, "problem", got[i], want[i])
	}
	if SpecName("a/2026-11-22-user-login") != "user-login" {
		t.Error(SpecName("a/2026-11-22-user-login"))
	}
	writeFiles(t, root, map[string]string{"login/2026-11-22-login/tasks.md": good})
	env.Vars["spec_dir"] = "login/2026-11-22-login"

	r = runCheck(t, Check{Type: TypeTasksFormat, File: "{spec_dir}/tasks.md"}, env)
	if !r.Passed {
		t.Fatalf("good tasks.md failed: %+v", r)
	}
	d := r.Details.(TasksDetails)
	if d.Phases != 2 || d.Tasks != 3 || d.Criteria != 5 || d.EstimateMinutes != 690 {
		t.Errorf("details %+v", d)
	}
	contains(t, "message", r.Message, "2 phases", "3 tasks", "5 acceptance criteria", "11h30m")
	env.Vars["spec_dir"] = "spec"

	r = runCheck(t, Check{Type: TypeTasksFormat, File: "{spec_dir}/bad.md"}, env)
	if r.Passed {
		t.Fatal("bad tasks.md passed")
	}
	d = r.Details.(TasksDetails)
	if len(d.Problems) != 4 {
		t.Errorf("problems %v", d.Problems)
	}
	contains(t, "remediation", r.Remediation, "line 2: task 1.2 should be numbered 1.1")

	r = runCheck(t, Check{Type: TypeTasksFormat, File: "{spec_dir}/missing.md"}, env)
	if r.Passed {
		t.Fatal("missing file passed")
	}
	contains(t, "message", r.Message, "spec/missing.md does not exist")
}
