package gates

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestParseCoverageFixtures(t *testing.T) {
	tests := []struct {
		file, format   string
		percent        float64
		covered, total int64
		files          []FileCoverage
		detectedAsAuto bool
	}{
		{"go.out", FormatGo, 33.33, 5, 15, []FileCoverage{
			{"example.com/m/a.go", 5, 10, 50}, {"example.com/m/b.go", 0, 5, 0}}, true},
		{"go-count.out", FormatGo, 50, 2, 4, []FileCoverage{{"example.com/m/a.go", 2, 4, 50}}, true},
		{"cobertura.xml", FormatCobertura, 66.67, 4, 6, []FileCoverage{
			{"app/a.py", 3, 4, 75}, {"app/b.py", 1, 2, 50}}, true},
		{"cobertura-rate-only.xml", FormatCobertura, 81.25, 0, 0, []FileCoverage{
			{"lib/Main.java", 0, 0, 25}, {"lib/Util.java", 0, 0, 81.25}}, true},
		{"lcov.info", FormatLCOV, 75, 12, 16, []FileCoverage{
			{"src/a.js", 3, 4, 75}, {"src/b.js", 0, 2, 0}, {"src/c.js", 9, 10, 90}}, true},
		{"coverage.json", FormatCoveragePy, 40, 4, 10, []FileCoverage{
			{"app/a.py", 3, 4, 75}, {"app/b.py", 1, 6, 16.67}}, true},
		{"coverage-no-totals.json", FormatCoveragePy, 40, 4, 10, []FileCoverage{
			{"app/a.py", 3, 4, 75}, {"app/b.py", 1, 6, 16.67}}, true},
		{"jacoco.xml", FormatJaCoCo, 55.56, 5, 9, []FileCoverage{
			{"com/example/A.java", 4, 5, 80}, {"com/example/B.java", 1, 4, 25}}, true},
	}
	for _, tt := range tests {
		for _, format := range []string{tt.format, FormatAuto} {
			t.Run(tt.file+"/"+format, func(t *testing.T) {
				f, err := os.Open(filepath.Join("testdata", "coverage", tt.file))
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				rep, err := ParseCoverage(context.Background(), f, format)
				if err != nil {
					t.Fatal(err)
				}
				if rep.Format != tt.format || round2(rep.Percent) != tt.percent || rep.Covered != tt.covered || rep.Total != tt.total {
					t.Errorf("got %s %.4f%% (%d/%d), want %s %.2f%% (%d/%d)", rep.Format, rep.Percent, rep.Covered, rep.Total,
						tt.format, tt.percent, tt.covered, tt.total)
				}
				if !reflect.DeepEqual(rep.Files, tt.files) {
					t.Errorf("files\n got %+v\nwant %+v", rep.Files, tt.files)
				}
			})
		}
	}
}

func TestParseCoverageErrors(t *testing.T) {
	tests := []struct {
		name, src, format, want string
	}{
		{"empty", "", FormatAuto, "the report is empty"},
		{"unknown", "hello\n", FormatAuto, "not recognised"},
		{"go without mode", "a.go:1.1,2.2 1 1\n", FormatGo, "starts with a \"mode: set\" line"},
		{"go bad block", "mode: set\nnot a block\n", FormatAuto, "line 2: \"not a block\" is not a coverprofile block"},
		{"go bad mode", "mode: sometimes\n", FormatAuto, "unknown coverprofile mode"},
		{"go inconsistent", "mode: set\na.go:1.1,2.2 1 1\na.go:1.1,2.2 2 1\n", FormatAuto, "has 2 statements here but 1 before"},
		{"xml other", "<html></html>", FormatAuto, "neither Cobertura"},
		{"cobertura broken", "<coverage><packages>", FormatCobertura, "cannot be parsed"},
		{"cobertura empty", "<coverage></coverage>", FormatCobertura, "no line counts and no line-rate"},
		{"jacoco wrong root", "<coverage/>", FormatJaCoCo, "no <report> root element"},
		{"lcov bad DA", "SF:a\nDA:x,1\n", FormatAuto, "line 2: \"DA:x,1\" is not an LCOV DA line"},
		{"lcov no records", "TN:\n", FormatLCOV, "no SF records"},
		{"json other", `{"name": "x"}`, FormatAuto, "neither totals nor files"},
		{"json broken", `{"files": `, FormatCoveragePy, "cannot be parsed"},
		{"bad format", "x", "clover", "unknown coverage format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseCoverage(context.Background(), strings.NewReader(tt.src), tt.format)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestCoverageCheck(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "coverage", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	root := project(t, map[string]string{
		"coverage.out":     read("go.out"),
		"build/lcov.info":  read("lcov.info"),
		"garbage.out":      read("garbage.txt"),
		"reports/cov.json": read("coverage.json"),
		// The files the reports name.
		"go.mod": "module example.com/m\n", "a.go": "package m\n", "b.go": "package m\n",
		"src/a.js": "", "src/b.js": "", "src/c.js": "", "app/a.py": "", "app/b.py": "",
		"made-up.out": "mode: set\nexample.com/m/a.go:1.1,2.2 1 1\nexample.com/m/fake.go:1.1,2.2 1 1\n",
	})
	vars := map[string]string{"coverage_file": "build/lcov.info"}
	tests := []struct {
		name      string
		check     Check
		env       Env
		pass      bool
		threshold float64
		message   string
		remedy    string
	}{
		{"default threshold 80 fails", Check{File: "coverage.out"}, Env{}, false, 80,
			"Coverage is 33.33%, below the 80% threshold.", "example.com/m/b.go is at 0.00%"},
		{"check threshold passes", Check{File: "coverage.out", Threshold: ptr(33.3)}, Env{CoverageThreshold: 90}, true, 33.3,
			"Coverage is 33.33%, meeting the 33.3% threshold.", ""},
		{"env threshold", Check{File: "{coverage_file}"}, Env{CoverageThreshold: 75}, true, 75, "Coverage is 75.00%, meeting the 75% threshold.", ""},
		{"env threshold fails", Check{File: "{coverage_file}", Format: FormatLCOV}, Env{CoverageThreshold: 75.01}, false, 75.01, "below the 75.01% threshold", "src/b.js"},
		{"coverage.py", Check{File: "reports/cov.json", Threshold: ptr(40.0)}, Env{}, true, 40, "Coverage is 40.00%", ""},
		{"missing go report", Check{File: "cover.out"}, Env{}, false, 0, "The coverage report cover.out does not exist.",
			"Produce it with go test -coverprofile=cover.out ./..., then run the gate again."},
		{"missing python report", Check{File: "coverage.json"}, Env{}, false, 0, "does not exist", "--cov-report=json:coverage.json (pytest-cov 4.1 or later"},
		{"unparsable", Check{File: "garbage.out"}, Env{}, false, 0, "The coverage report garbage.out cannot be used: the report's format is not recognised", "Regenerate it with go test -coverprofile=garbage.out ./..."},
		{"wrong format", Check{File: "coverage.out", Format: FormatCobertura}, Env{}, false, 0, "cannot be used", "Cobertura"},
		{"files not in the project", Check{File: "made-up.out"}, Env{}, false, 80, "The coverage report made-up.out names 1 file that the project does not have: example.com/m/fake.go.", "Regenerate the report"},
		{"outside", Check{File: "../coverage.out"}, Env{}, false, 0, "outside the project", "inside the project"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check.Type = TypeCoverage
			tt.env.Root, tt.env.Vars = root, vars
			r := runCheck(t, tt.check, tt.env)
			if r.Passed != tt.pass {
				t.Fatalf("passed = %v: %+v", r.Passed, r)
			}
			contains(t, "message", r.Message, tt.message)
			contains(t, "remediation", r.Remediation, tt.remedy)
			if d, ok := r.Details.(CoverageDetails); ok && d.Threshold != tt.threshold {
				t.Errorf("threshold %v, want %v", d.Threshold, tt.threshold)
			}
		})
	}
}

func TestCoverageLeastCoveredFive(t *testing.T) {
	var b strings.Builder
	b.WriteString("mode: set\n")
	for i := 0; i < 8; i++ {
		// file i has i of 8 statements covered.
		for s := 0; s < 8; s++ {
			hit := 0
			if s < i {
				hit = 1
			}
			b.WriteString("m/f" + strconv.Itoa(i) + ".go:" + strconv.Itoa(s+1) + ".1," + strconv.Itoa(s+1) + ".9 1 " + strconv.Itoa(hit) + "\n")
		}
	}
	root := project(t, map[string]string{"c.out": b.String()})
	r := runCheck(t, Check{Type: TypeCoverage, File: "c.out"}, Env{Root: root})
	d := r.Details.(CoverageDetails)
	if d.Files != 8 || len(d.Least) != 5 || d.Percent != 43.75 {
		t.Fatalf("details %+v", d)
	}
	for i, f := range d.Least {
		if f.File != "m/f"+strconv.Itoa(i)+".go" || f.Percent != round2(float64(i)*12.5) {
			t.Errorf("least[%d] = %+v", i, f)
		}
	}
}

// TestCoverageRealGoProfile makes a real coverprofile with go test and checks
// the total against go tool cover's own.
func TestCoverageRealGoProfile(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	if testing.Short() {
		t.Skip("runs go test")
	}
	root := project(t, map[string]string{
		"go.mod": "module example.com/tiny\n\ngo 1.21\n",
		"tiny.go": `package tiny

func Abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func Unused(s string) string {
	if s == "" {
		return "empty"
	}
	return s + "!"
}
`,
		"tiny_test.go": `package tiny

import "testing"

func TestAbs(t *testing.T) {
	if Abs(-2) != 2 {
		t.Fatal("Abs")
	}
}
`,
	})
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off")
	run := func(args ...string) string {
		cmd := exec.Command(goBin, args...)
		cmd.Dir, cmd.Env = root, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	run("test", "-coverprofile=coverage.out", "./...")
	m := regexp.MustCompile(`total:\s+\(statements\)\s+([\d.]+)%`).FindStringSubmatch(run("tool", "cover", "-func=coverage.out"))
	if m == nil {
		t.Fatal("no total from go tool cover")
	}
	want, _ := strconv.ParseFloat(m[1], 64)

	r := runCheck(t, Check{Type: TypeCoverage, File: "coverage.out", Threshold: ptr(30.0)}, Env{Root: root})
	d := r.Details.(CoverageDetails)
	if d.Format != FormatGo || strconv.FormatFloat(d.Percent, 'f', 1, 64) != strconv.FormatFloat(want, 'f', 1, 64) {
		t.Errorf("percent %.2f (%s), go tool cover says %.1f", d.Percent, d.Format, want)
	}
	if !r.Passed || d.Total != 6 || d.Covered != 2 {
		t.Errorf("%+v", r)
	}
}

func TestParseGoProfileSpacesAndCRLF(t *testing.T) {
	src := "mode: atomic\r\nexample.com/m/my file.go:1.1,2.2 3 0\r\nexample.com/m/my file.go:4.1,5.2 1 7\r\n"
	rep, err := ParseCoverage(context.Background(), strings.NewReader(src), FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Covered != 1 || rep.Total != 4 || len(rep.Files) != 1 || rep.Files[0].File != "example.com/m/my file.go" {
		t.Errorf("%+v", rep)
	}
}

// A report made in a copy of the project (the sandbox on macOS and
// Windows) names the project's own files once rebased.
func TestCoverageRebase(t *testing.T) {
	rep := CoverageReport{Files: []FileCoverage{{File: "/tmp/gate/copy/src/a.ts"}, {File: "src/b.ts"}, {File: "/elsewhere/c.ts"}, {File: "/tmp/gate/copyist/d.ts"}}}
	rep.rebase("/tmp/gate/copy", "/home/ann/shop")
	want := []string{filepath.Join("/home/ann/shop", "src", "a.ts"), "src/b.ts", "/elsewhere/c.ts", "/tmp/gate/copyist/d.ts"}
	for i, f := range rep.Files {
		if f.File != want[i] {
			t.Errorf("file %d: %s, want %s", i, f.File, want[i])
		}
	}
	rep.rebase("/home/ann/shop", "/home/ann/shop") // Linux: the project's own path
	if rep.Files[0].File != want[0] {
		t.Errorf("rebased onto itself: %s", rep.Files[0].File)
	}
}
