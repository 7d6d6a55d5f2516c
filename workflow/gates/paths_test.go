package gates

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestPlaceholders(t *testing.T) {
	vars := map[string]string{"spec_dir": ".agentos/specs/2026-11-22-login", "n": "3", "cmd": "go test ./..."}
	tests := []struct {
		in, want, err string
	}{
		{in: "{spec_dir}/README.md", want: ".agentos/specs/2026-11-22-login/README.md"},
		{in: "{cmd} -count={n}", want: "go test ./... -count=3"},
		{in: "no placeholders", want: "no placeholders"},
		{in: "echo ${HOME} {{spec_dir}}", want: "echo ${HOME} {spec_dir}"},
		{in: "awk '{print $1}' {a,b} { spaced } {", want: "awk '{print $1}' {a,b} { spaced } {"},
		{in: "{spec}/x", err: "unknown placeholder {spec} (known: {cmd}, {n}, {spec_dir})"},
	}
	for _, tt := range tests {
		got, err := Placeholders(tt.in, vars)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Placeholders(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Placeholders(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := Placeholders("{x}", nil); err == nil || !strings.Contains(err.Error(), "no placeholders are defined") {
		t.Errorf("no vars: %v", err)
	}
}

func TestResolveStaysInside(t *testing.T) {
	root := project(t, map[string]string{"a/b.txt": "x"})
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"secret.txt": "s"})
	symlinks := runtime.GOOS != "windows"
	if symlinks {
		if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(root, "a"), filepath.Join(root, "inner")); err != nil {
			t.Fatal(err)
		}
	}
	ok := []string{"a/b.txt", "./a/../a/b.txt", filepath.Join(root, "a", "b.txt"), "a/missing.txt"}
	bad := []string{"../x", "a/../../x", filepath.Join(outside, "secret.txt"), "", "a\x00b"}
	if symlinks {
		ok = append(ok, "inner/b.txt")
		bad = append(bad, "escape/secret.txt")
	}
	for _, p := range ok {
		if _, _, err := resolve(root, p, nil); err != nil {
			t.Errorf("resolve(%q): %v", p, err)
		}
	}
	for _, p := range bad {
		if abs, _, err := resolve(root, p, nil); err == nil {
			t.Errorf("resolve(%q) = %q, want an error", p, abs)
		}
	}
	if _, rel, _ := resolve(root, "./a//b.txt", nil); rel != "a/b.txt" {
		t.Errorf("rel = %q", rel)
	}
}

func TestFilesExist(t *testing.T) {
	root := project(t, map[string]string{
		"spec/README.md": "# Title\n",
		"spec/srd.md":    "text",
		"spec/empty.md":  "",
		"spec/blank.md":  " \n\t\n",
		"spec/dir/x":     "x",
	})
	env := Env{Root: root, Vars: map[string]string{"spec_dir": "spec"}}
	tests := []struct {
		name     string
		paths    []string
		pass     bool
		problems map[string]string // path -> problem substring
	}{
		{"present", []string{"{spec_dir}/README.md", "{spec_dir}/srd.md"}, true, nil},
		{"missing", []string{"{spec_dir}/README.md", "{spec_dir}/nope.md"}, false, map[string]string{"spec/nope.md": "missing"}},
		{"empty and blank", []string{"{spec_dir}/empty.md", "{spec_dir}/blank.md"}, false,
			map[string]string{"spec/empty.md": "empty", "spec/blank.md": "only white space"}},
		{"a folder", []string{"{spec_dir}/dir"}, false, map[string]string{"spec/dir": "folder"}},
		{"outside", []string{"../etc/passwd", "/etc/passwd"}, false,
			map[string]string{"../etc/passwd": "outside the project", "/etc/passwd": "outside the project"}},
		{"unknown placeholder", []string{"{nope}/x"}, false, map[string]string{"{nope}/x": "unknown placeholder {nope}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCheck(t, Check{Type: TypeFilesExist, Paths: tt.paths}, env)
			if r.Passed != tt.pass {
				t.Fatalf("passed = %v: %+v", r.Passed, r)
			}
			d := r.Details.(FilesDetails)
			if len(d.Problems) != len(tt.problems) {
				t.Fatalf("problems %+v, want %v", d.Problems, tt.problems)
			}
			for _, p := range d.Problems {
				want, ok := tt.problems[p.Path]
				if !ok || !strings.Contains(p.Problem, want) {
					t.Errorf("problem %+v, want %q", p, want)
				}
			}
		})
	}
	r := runCheck(t, Check{Type: TypeFilesExist, Paths: []string{"spec/README.md", "spec/nope.md"}}, env)
	if r.Message != "1 of 2 required files is missing, empty or not allowed: spec/nope.md." {
		t.Errorf("message %q", r.Message)
	}
	contains(t, "remediation", r.Remediation, "Create spec/nope.md")
}

// Summaries agree with their counts: one file is "the required file", not "all 1".
func TestSummariesAgreeInNumber(t *testing.T) {
	env := Env{Root: project(t, map[string]string{"spec/README.md": "# R\n\n## Goal\nGreet every user by the name they give, and greet the world when they give none.\n", "spec/srd.md": "x"})}
	cases := []struct {
		check Check
		want  string
	}{
		{Check{Type: TypeFilesExist, Paths: []string{"spec/README.md"}}, "The required file exists and has content."},
		{Check{Type: TypeFilesExist, Paths: []string{"spec/README.md", "spec/srd.md"}}, "All 2 required files exist and have content."},
		{Check{Type: TypeMarkdownSections, File: "spec/README.md", Sections: []string{"Goal"}}, "spec/README.md has the required section, with content of its own."},
	}
	for _, tc := range cases {
		if r := runCheck(t, tc.check, env); r.Message != tc.want {
			t.Errorf("%s %v: %q, want %q", tc.check.Type, tc.check.Paths, r.Message, tc.want)
		}
	}
}
