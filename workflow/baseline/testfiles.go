package baseline

import (
	"path"
	"path/filepath"
	"strings"
)

// testDirs hold nothing but tests: every file under them counts.
var testDirs = map[string]bool{"tests": true, "test": true, "__tests__": true}

// IsTestFile reports whether a file, by its path relative to the project's
// root, is a test by convention: *_test.go, test_*.py, *_test.py,
// *.test.ts and *.spec.ts (and the other TypeScript and JavaScript
// extensions), *Test.java, *Tests.java, *Test.kt, or any file under a
// tests/, test/ or __tests__/ directory. The gates trace criteria in these
// files, and the before-run applies the session's versions of them to the
// base.
func IsTestFile(p string) bool {
	p = filepath.ToSlash(p)
	name := path.Base(p)
	if strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_test.py") ||
		(strings.HasPrefix(name, "test_") && strings.HasSuffix(name, ".py")) ||
		strings.HasSuffix(name, "Test.java") || strings.HasSuffix(name, "Tests.java") || strings.HasSuffix(name, "Test.kt") {
		return true
	}
	for _, mid := range []string{".test.", ".spec."} {
		if i := strings.LastIndex(name, mid); i > 0 {
			switch name[i+len(mid):] {
			case "ts", "tsx", "js", "jsx", "mjs", "cjs", "mts", "cts":
				return true
			}
		}
	}
	parts := strings.Split(p, "/")
	for _, d := range parts[:len(parts)-1] {
		if testDirs[d] {
			return true
		}
	}
	return false
}
