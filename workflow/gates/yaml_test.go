package gates

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

type phaseDoc struct {
	Gate []Check `yaml:"gate"`
}

func TestDecodeChecks(t *testing.T) {
	src := `gate:
  - type: files_exist
    paths: ["{spec_dir}/README.md", "{spec_dir}/srd.md"]
  - type: markdown_sections
    file: "{spec_dir}/README.md"
    sections: [Objectives, Deliverables, "Success Metrics"]
  - type: tasks_format
    file: "{spec_dir}/tasks.md"
  - type: command
    run: "go test ./..."
    timeout: 20m
    workdir: sub
  - type: coverage
    file: coverage.out
    format: go
    threshold: 85.5
  - type: coverage
    file: coverage.out
    threshold: 90
  - type: acceptance_criteria
    file: "{spec_dir}/tasks.md"
  - type: evidence
    fields:
      - {name: summary, type: string, min_length: 50, description: what changed}
      - name: files
        type: list
        min_items: 1
        required: false
  - type: approval
    description: a person signs off
`
	var doc phaseDoc
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	want := []Check{
		{Type: TypeFilesExist, Paths: []string{"{spec_dir}/README.md", "{spec_dir}/srd.md"}},
		{Type: TypeMarkdownSections, File: "{spec_dir}/README.md", Sections: []string{"Objectives", "Deliverables", "Success Metrics"}},
		{Type: TypeTasksFormat, File: "{spec_dir}/tasks.md"},
		{Type: TypeCommand, Command: "go test ./...", Timeout: 20 * time.Minute, Workdir: "sub"},
		{Type: TypeCoverage, File: "coverage.out", Format: FormatGo, Threshold: ptr(85.5)},
		{Type: TypeCoverage, File: "coverage.out", Threshold: ptr(90.0)},
		{Type: TypeAcceptanceCriteria, File: "{spec_dir}/tasks.md"},
		{Type: TypeEvidence, Fields: []EvidenceField{
			{Name: "summary", Type: EvidenceString, MinLength: 50, Description: "what changed"},
			{Name: "files", Type: EvidenceList, MinItems: 1, Required: ptr(false)},
		}},
		{Type: TypeApproval, Description: "a person signs off"},
	}
	if !reflect.DeepEqual(doc.Gate, want) {
		t.Errorf("decoded\n%+v\nwant\n%+v", doc.Gate, want)
	}
	if doc.Gate[7].Fields[0].IsRequired() != true || doc.Gate[7].Fields[1].IsRequired() != false {
		t.Error("IsRequired")
	}
}

func TestDecodeCheckErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown key", "- type: coverage\n  file: c.out\n  treshold: 80\n",
			`line 3: unknown key "treshold" for a coverage check (did you mean "threshold"?) (it takes file, format, threshold, lines, description)`},
		{"key of another type", "- type: approval\n  file: x\n", `line 2: unknown key "file" for an approval check (it takes only type and description)`},
		{"unknown type", "- type: file_exist\n  paths: [a]\n", `line 1: unknown check type "file_exist" (did you mean "files_exist"?)`},
		{"no type", "- paths: [a]\n", "line 1: the gate check has no type"},
		{"not a mapping", "- files_exist\n", "line 1: a gate check must be a mapping"},
		{"type not a string", "- type: [a]\n", "line 1: type must be a string"},
		{"paths not a list", "- type: files_exist\n  paths: README.md\n", "line 2: paths must be a list of strings"},
		{"paths item not a string", "- type: files_exist\n  paths:\n    - a\n    - {b: c}\n", "line 4: paths must be a list of strings"},
		{"empty paths", "- type: files_exist\n  paths: []\n", "line 1: a files_exist check needs at least one path"},
		{"missing required", "- type: command\n  timeout: 1m\n", `line 1: a command check needs "run"`},
		{"duplicate key", "- type: tasks_format\n  file: a\n  file: b\n", `line 3: key "file" appears twice`},
		{"timeout too long", "- type: command\n  run: x\n  timeout: 2h\n", "line 3: timeout 2h is out of range"},
		{"timeout not a duration", "- type: command\n  run: x\n  timeout: soon\n", `line 3: timeout "soon" is not a duration`},
		{"timeout a number", "- type: command\n  run: x\n  timeout: 10\n", "line 3: timeout must be a string"},
		{"run not a string", "- type: command\n  run: [go, test]\n", "line 2: run must be a string"},
		{"threshold out of range", "- type: coverage\n  file: c\n  threshold: 120\n", "line 1: threshold 120 is out of range"},
		{"threshold not a number", "- type: coverage\n  file: c\n  threshold: high\n", "line 3: threshold must be a number"},
		{"bad format", "- type: coverage\n  file: c\n  format: cobertra\n", `line 1: unknown coverage format "cobertra" (did you mean "cobertura"?)`},
		{"no sections", "- type: markdown_sections\n  file: a\n  sections: []\n", "at least one section"},
		{"repeated section", "- type: markdown_sections\n  file: a\n  sections: [Goals, \"1. goals\"]\n", `section "1. goals" is listed twice`},
		{"section min_words misspelt", "- type: markdown_sections\n  file: a\n  sections:\n    - {name: Goals, min_word: 20}\n",
			`line 4: unknown key "min_word" for a section (did you mean "min_words"?)`},
		{"section min_words not a number", "- type: markdown_sections\n  file: a\n  sections:\n    - {name: Goals, min_words: many}\n", "line 4: min_words must be a whole number"},
		{"section min_words zero", "- type: markdown_sections\n  file: a\n  sections:\n    - {name: Goals, min_words: 0}\n", "line 4: min_words 0 is out of range"},
		{"section without a name", "- type: markdown_sections\n  file: a\n  sections:\n    - {min_words: 20}\n", "line 4: this section has no name"},
		{"section a number", "- type: markdown_sections\n  file: a\n  sections: [Goals, 12]\n", "line 3: sections must be a list of headings"},
		{"unknown template", "- type: markdown_sections\n  file: a\n  template: readme.md\n  sections: [Goals]\n", `line 1: template "readme.md" is not a spec template (known: README.md`},
		{"unclosed placeholder", "- type: files_exist\n  paths: [\"{spec_dir/README.md\"]\n", "placeholder {spec_dir in"},
		{"fields not a list", "- type: evidence\n  fields: {name: a}\n", "line 2: fields must be a list"},
		{"field unknown key", "- type: evidence\n  fields:\n    - name: a\n      type: string\n      minlength: 3\n",
			`line 5: unknown key "minlength" for an evidence field (did you mean "min_length"?)`},
		{"field bad type", "- type: evidence\n  fields:\n    - {name: a, type: text}\n", `line 3: evidence field "a" has unknown type "text"`},
		{"field min_length on a number", "- type: evidence\n  fields:\n    - {name: a, type: number, min_length: 3}\n", "min_length applies only to type string"},
		{"field required not a bool", "- type: evidence\n  fields:\n    - {name: a, type: number, required: \"no\"}\n", "line 3: required must be true or false"},
		{"field min_items not an int", "- type: evidence\n  fields:\n    - {name: a, type: list, min_items: 1.5}\n", "line 3: min_items must be a whole number"},
		{"duplicate field", "- type: evidence\n  fields:\n    - {name: a, type: number}\n    - {name: a, type: string}\n", `evidence field "a" is declared twice`},
		{"no fields", "- type: evidence\n  fields: []\n", "at least one field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var checks []Check
			err := yaml.Unmarshal([]byte(tt.src), &checks)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v\nwant %q", err, tt.want)
			}
		})
	}
}

func TestDecodeSectionMinimums(t *testing.T) {
	var checks []Check
	src := "- type: markdown_sections\n  file: a.md\n  template: srd.md\n  sections:\n    - Goals\n    - {name: Constraints, min_words: 3}\n"
	if err := yaml.Unmarshal([]byte(src), &checks); err != nil {
		t.Fatal(err)
	}
	want := Check{Type: TypeMarkdownSections, File: "a.md", Template: "srd.md", Sections: []string{"Goals", "Constraints"}, MinWords: map[string]int{"Constraints": 3}}
	if !reflect.DeepEqual(checks[0], want) {
		t.Errorf("decoded %+v, want %+v", checks[0], want)
	}
}

func TestDecodeAliases(t *testing.T) {
	src := "base: &paths [a.md]\ngate:\n  - type: files_exist\n    paths: *paths\n"
	var doc struct {
		Base []string `yaml:"base"`
		Gate []Check  `yaml:"gate"`
	}
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(doc.Gate[0].Paths, []string{"a.md"}) {
		t.Errorf("%+v", doc.Gate)
	}
}

func TestRunNeverPanics(t *testing.T) {
	root := project(t, map[string]string{"a.md": "x"})
	register(t, "test_panics", Extension{Run: func(context.Context, Check, Env) Result { panic("boom") }})
	tests := []struct {
		name    string
		check   Check
		env     Env
		message string
	}{
		{"invalid check", Check{Type: TypeFilesExist}, Env{Root: root}, `The gate check is invalid: a files_exist check needs "paths".`},
		{"unknown type", Check{Type: "nope"}, Env{Root: root}, `The gate check is invalid: unknown check type "nope"`},
		{"no type", Check{}, Env{Root: root}, "The gate check is invalid: the check has no type."},
		{"stray field", Check{Type: TypeApproval, File: "x"}, Env{Root: root}, `an approval check does not take "file"`},
		{"no root", Check{Type: TypeApproval}, Env{}, "The project root is not set."},
		{"relative root", Check{Type: TypeApproval}, Env{Root: "rel"}, `The project root "rel" is not an absolute path.`},
		{"missing root", Check{Type: TypeApproval}, Env{Root: root + "/missing"}, "cannot be read"},
		{"root is a file", Check{Type: TypeApproval}, Env{Root: root + "/a.md"}, "is not a folder"},
		{"panicking extension", Check{Type: "test_panics"}, Env{Root: root}, "The test_panics check stopped on an internal error: boom."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCheck(t, tt.check, tt.env)
			if r.Passed {
				t.Fatal("passed")
			}
			contains(t, "message", r.Message, tt.message)
		})
	}
}

func TestRegister(t *testing.T) {
	var got Check
	ext := Extension{
		Keys:     []string{"step", "report"},
		Required: []string{"step"},
		Run: func(ctx context.Context, c Check, env Env) Result {
			got = c
			step, err := Placeholders(c.Params["step"], env.Vars)
			if err != nil {
				return Result{Message: err.Error()}
			}
			return Result{Passed: step == "preflight", Message: "Step " + step + " was recorded."}
		},
	}
	register(t, "test_upgrade_report", ext)
	for name, e := range map[string]Extension{
		"test_upgrade_report": ext,                                                          // twice
		"command":             ext,                                                          // built in
		"bad name":            ext,                                                          // not a word
		"test_no_run":         {Keys: []string{"a"}},                                        // no Run
		"test_bad_key":        {Keys: []string{"type"}, Run: ext.Run},                       // reserved
		"test_bad_required":   {Keys: []string{"a"}, Required: []string{"b"}, Run: ext.Run}, // not a key
	} {
		if err := Register(name, e); err == nil {
			t.Errorf("Register(%q) succeeded", name)
		}
	}
	// The built-in types, then the registered ones by name: the light
	// paths' own (lightpaths.go) and this test's.
	if all := strings.Join(Types(), ","); !strings.Contains(all, ",approval,bug_doc,") || !strings.HasSuffix(all, ",reproduction,test_upgrade_report") {
		t.Errorf("Types() = %v", Types())
	}

	var checks []Check
	if err := yaml.Unmarshal([]byte("- type: test_upgrade_report\n  step: \"{step}\"\n  description: d\n"), &checks); err != nil {
		t.Fatal(err)
	}
	root := project(t, nil)
	r := runCheck(t, checks[0], Env{Root: root, Vars: map[string]string{"step": "preflight"}})
	if !r.Passed || r.Message != "Step preflight was recorded." || got.Params["step"] != "{step}" || got.Description != "d" {
		t.Errorf("%+v, check %+v", r, got)
	}
	for src, want := range map[string]string{
		"- type: test_upgrade_report\n":                       `line 1: a test_upgrade_report check needs "step"`,
		"- type: test_upgrade_report\n  step: a\n  stp: b\n":  `line 3: unknown key "stp" for a test_upgrade_report check (did you mean "step"?)`,
		"- type: test_upgrade_report\n  step: [a]\n":          "line 2: step must be a string",
		"- type: test_upgrade_report\n  step: a\n  file: b\n": `line 3: unknown key "file"`,
	} {
		err := yaml.Unmarshal([]byte(src), &checks)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", src, err, want)
		}
	}
	if err := (Check{Type: TypeApproval, Params: map[string]string{"step": "x"}}).Validate(); err == nil {
		t.Error("a built-in check with Params validated")
	}
	if err := (Check{Type: "test_upgrade_report", File: "x", Params: map[string]string{"step": "x"}}).Validate(); err == nil {
		t.Error("an extension check with a built-in field validated")
	}
}

func TestCheckJSONRoundTrip(t *testing.T) {
	c := Check{Type: TypeCommand, Command: "go test ./...", Timeout: 20 * time.Minute, Workdir: "sub"}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"type":"command","run":"go test ./...","workdir":"sub","timeout":"20m0s"}` {
		t.Errorf("json %s", b)
	}
	var back Check
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, c) {
		t.Errorf("round trip %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"type":"command","timeout":"soon"}`), &back); err == nil {
		t.Error("bad timeout accepted")
	}
}

// register registers a check type for one test.
func register(t *testing.T, typ string, ext Extension) {
	t.Helper()
	if err := Register(typ, ext); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		extMu.Lock()
		delete(extensions, typ)
		extMu.Unlock()
	})
}
