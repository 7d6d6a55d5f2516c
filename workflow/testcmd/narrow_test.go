package testcmd

import (
	"testing"

	"github.com/agentos-dev/agentos/workflow/gates"
)

func TestNarrow(t *testing.T) {
	goDefault := "go test -json -coverprofile=" + GoCoverage + " ./..."
	tests := []struct {
		name, command string
		tests         []gates.TestCase
		want          string
		ok            bool
	}{
		{"go, subtests run under their test", goDefault,
			[]gates.TestCase{{Package: "m/a", Name: "TestA"}, {Package: "m/b", Name: "TestB/empty"}, {Package: "m/b", Name: "TestB/full"}},
			"go test -json -coverprofile=" + GoCoverage + " m/a m/b -run '^(?:TestA|TestB)$'", true},
		{"go, its own packages kept", "go test -json ./cart/...",
			[]gates.TestCase{{Package: "m/cart", Name: "TestA"}},
			"go test -json ./cart/... -run '^(?:TestA)$'", true},
		{"pytest, by name without parameters", "python3 -m pytest --junitxml=x.xml",
			[]gates.TestCase{{Package: "tests.test_a", Name: "test_one[1-2]"}, {Package: "tests.test_a.TestB", Name: "test_two"}},
			"python3 -m pytest --junitxml=x.xml -k 'test_one or test_two'", true},
		{"vitest, by file", "node_modules/.bin/vitest run --reporter=junit",
			[]gates.TestCase{{Package: "src/a.test.ts", Name: "a > works"}, {Package: "src/a.test.ts", Name: "a > again"}, {Package: "src/b.test.ts", Name: "b"}},
			"node_modules/.bin/vitest run --reporter=junit src/a.test.ts src/b.test.ts", true},
		{"jest, by path", "JEST_JUNIT_OUTPUT_FILE=j.xml node_modules/.bin/jest --ci",
			[]gates.TestCase{{Package: "greet works", Name: "works", File: "src/greet.test.ts"}},
			"JEST_JUNIT_OUTPUT_FILE=j.xml node_modules/.bin/jest --ci --runTestsByPath src/greet.test.ts", true},
		{"jest without files", "node_modules/.bin/jest --ci", []gates.TestCase{{Package: "greet works", Name: "works"}}, "", false},
		{"a compound line", "go test ./... && go vet ./...", []gates.TestCase{{Name: "TestA"}}, "", false},
		{"a redirect", "go test -json ./... > out.json", []gates.TestCase{{Name: "TestA"}}, "", false},
		{"a script", "make test", []gates.TestCase{{Name: "TestA"}}, "", false},
		{"a name a shell would read", "python3 -m pytest", []gates.TestCase{{Name: "test_x'; rm -rf ~; '"}}, "", false},
		{"a path out of the project", "node_modules/.bin/vitest run", []gates.TestCase{{Package: "../x.test.ts", Name: "x"}}, "", false},
		{"an absolute path", "node_modules/.bin/jest", []gates.TestCase{{Name: "x", File: "/etc/passwd"}}, "", false},
		{"no tests", goDefault, nil, "", false},
	}
	for _, tt := range tests {
		got, ok := Narrow(tt.command, tt.tests)
		if tt.want == "" {
			tt.want = tt.command
		}
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: Narrow = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
