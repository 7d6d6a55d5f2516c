package gates

import (
	"strings"
	"testing"
)

const criteriaTasks = `# Tasks

## Phase 1: Model

- [x] 1.1 Users table
  - write it
  - Estimate: 1h
  - [x] AC-1.1.1: migration applies
  - [x] AC-1.1.2: rollback works

## Phase 2: Login

- [ ] 2.1 Endpoint
  - write it
  - Estimate: 2h
  - [x] AC-2.1.1: good password gets 200
  - [ ] AC-2.1.2: bad password gets 401
  - [ ] rate limited after five tries
`

func TestAcceptanceCriteria(t *testing.T) {
	base := map[string]string{
		"spec/tasks.md": criteriaTasks,
		// Referenced as written, in a comment.
		"store/users_test.go": "package store\n// AC-1.1.1\nfunc TestMigrate(t *testing.T) {}\n",
		// Referenced in a test name; AC-1.1.20 must not count as AC-1.1.2.
		"tests/test_login.py": "def test_AC_2_1_1(): pass\n# AC-1.1.20\n",
		// Not test files, or in skipped folders: they do not count.
		"store/users.go":                    "package store // AC-1.1.2 AC-2.1.2\n",
		"node_modules/x/a.test.js":          "// AC-1.1.2 AC-2.1.2\n",
		".agentos/specs/x/notes_test.go":    "// AC-1.1.2\n",
		"web/src/login.spec.ts":             "it('AC-2.1.2: rejects bad passwords', () => {})\n",
		"java/src/test/java/LoginTest.java": "// no IDs here\n",
	}
	tests := []struct {
		name      string
		phase     int
		strict    bool
		extra     map[string]string
		pass      bool
		unchecked []string
		untraced  []string
		message   string
		warnings  int
	}{
		{name: "phase 1 checked, one ID untraced: a warning", phase: 1, pass: true, untraced: []string{"AC-1.1.2"},
			message: "All 2 acceptance criteria in phase 1 are checked, but 1 of 2 criterion IDs is not referenced by any test.", warnings: 1},
		{name: "phase 1 strict: an error", phase: 1, strict: true, untraced: []string{"AC-1.1.2"}, warnings: 1,
			message: "1 criterion ID no test file mentions: AC-1.1.2 (line 9)."},
		{name: "phase 1 fully traced", phase: 1, extra: map[string]string{"pkg/RollbackTest.java": "// ac-1.1.2\n"}, pass: true,
			message: "All 2 acceptance criteria in phase 1 are checked and all 2 criterion IDs are referenced by tests."},
		{name: "phase 2 unchecked", phase: 2, unchecked: []string{"AC-2.1.2", ""},
			message: "2 of 3 acceptance criteria in phase 2 are not checked: AC-2.1.2 (line 17), task 2.1 \"rate limited after five tries\" (line 18)."},
		{name: "all phases", phase: 0, unchecked: []string{"AC-2.1.2", ""}, untraced: []string{"AC-1.1.2"}, warnings: 1,
			message: "2 of 5 acceptance criteria in spec/tasks.md are not checked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range base {
				files[k] = v
			}
			for k, v := range tt.extra {
				files[k] = v
			}
			root := project(t, files)
			env := Env{Root: root, Vars: map[string]string{"spec_dir": "spec"}, TasksPhase: tt.phase, Strict: tt.strict}
			r := runCheck(t, Check{Type: TypeAcceptanceCriteria, File: "{spec_dir}/tasks.md"}, env)
			if r.Passed != tt.pass {
				t.Fatalf("passed = %v: %+v", r.Passed, r)
			}
			d := r.Details.(CriteriaDetails)
			if got := refIDs(d.Unchecked); strings.Join(got, ",") != strings.Join(tt.unchecked, ",") {
				t.Errorf("unchecked %v, want %v", got, tt.unchecked)
			}
			if got := refIDs(d.Untraced); strings.Join(got, ",") != strings.Join(tt.untraced, ",") {
				t.Errorf("untraced %v, want %v", got, tt.untraced)
			}
			contains(t, "message", r.Message, tt.message)
			if len(r.Warnings) != tt.warnings {
				t.Errorf("warnings %q, want %d", r.Warnings, tt.warnings)
			}
		})
	}
}

func refIDs(refs []CriterionRef) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.ID)
	}
	return out
}

func TestAcceptanceCriteriaRefusals(t *testing.T) {
	root := project(t, map[string]string{
		"tasks.md":   criteriaTasks,
		"nocrit.md":  "## Phase 1: A\n- [ ] 1.1 T\n  - do\n",
		"garbage.md": "just text\n",
	})
	tests := []struct {
		file    string
		phase   int
		message string
		remedy  string
	}{
		{"tasks.md", 3, "tasks.md has no phase 3.", "## Phase 3: Title"},
		{"nocrit.md", 1, "No acceptance criteria were found in phase 1.", "checkbox items"},
		{"garbage.md", 0, "No acceptance criteria were found in garbage.md.", "checkbox items"},
		{"missing.md", 0, "missing.md does not exist.", "Create missing.md"},
	}
	for _, tt := range tests {
		r := runCheck(t, Check{Type: TypeAcceptanceCriteria, File: tt.file}, Env{Root: root, TasksPhase: tt.phase})
		if r.Passed {
			t.Errorf("%s passed", tt.file)
		}
		contains(t, "message", r.Message, tt.message)
		contains(t, "remediation", r.Remediation, tt.remedy)
	}
}

func TestMentions(t *testing.T) {
	tests := []struct {
		content, id string
		want        bool
	}{
		{"// ac-1.2.1 covers it", "ac-1.2.1", true},
		{"func testac_1_2_1(t)", "ac-1.2.1", true},
		{"ac-1.2.1.", "ac-1.2.1", true},
		{"ac-1.2.10", "ac-1.2.1", false},
		{"ac-1.2.1.3", "ac-1.2.1", false},
		{"ac_1_2_10", "ac-1.2.1", false},
		{"xac-1.2.1", "ac-1.2.1", false},
		{"1ac_1_2_1", "ac-1.2.1", false},
		{"ac-1.2", "ac-1.2.1", false},
	}
	for _, tt := range tests {
		if got := mentions([]byte(tt.content), tt.id); got != tt.want {
			t.Errorf("mentions(%q, %q) = %v", tt.content, tt.id, got)
		}
	}
}
