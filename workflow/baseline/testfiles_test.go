package baseline

import "testing"

func TestIsTestFile(t *testing.T) {
	for p, want := range map[string]bool{
		"a_test.go": true, "test_a.py": true, "a_test.py": true, "a.test.ts": true, "a.spec.ts": true, "a.test.js": true,
		"a.spec.tsx": true, "ATest.java": true, "ATests.java": true, "ATest.kt": true, "Test.java": true,
		"pkg/tests/helpers.py": true, "web/__tests__/x.ts": true, "test/fixtures/data.json": true,
		"a.go": false, "test.py": false, "a.ts": false, "testing.md": false, "a.test.md": false, "tests": false,
		"pkg/testing/x.go": false, "src/latest/x.py": false,
	} {
		if got := IsTestFile(p); got != want {
			t.Errorf("IsTestFile(%q) = %v, want %v", p, got, want)
		}
	}
}
