// Package buildinfo owns the version of the running binary. Release builds set
// Version and Commit through -ldflags; development builds fall back to the
// module and VCS information the Go toolchain records.
package buildinfo

import (
	"regexp"
	"runtime/debug"
)

// Set at release time: -ldflags "-X github.com/agentos-dev/agentos/internal/buildinfo.Version=1.2.3".
var (
	Version = ""
	Commit  = ""
	Date    = ""
)

// Name is the product name reported to clients and users.
const Name = "agentos"

// Info describes the running binary.
type Info struct {
	Name      string `json:"name"`
	Version   string `json:"version"`
	Commit    string `json:"commit,omitempty"`
	Date      string `json:"date,omitempty"`
	GoVersion string `json:"go_version"`
	// Modified says the build's source had uncommitted changes, so its
	// commit does not say all of what it holds.
	Modified bool `json:"modified,omitempty"`
}

// SameSource reports whether a and b are builds of the same source: the
// same release, or development builds of the same commit with no
// uncommitted changes. Two builds of one source may differ in bytes (go run
// and go install stamp different build settings) and still hold the same
// assets. Unknown (a development build without a commit) is not the same.
func SameSource(a, b Info) bool {
	if a.Version != b.Version {
		return false
	}
	if a.Version != "dev" {
		return true
	}
	return a.Commit != "" && a.Commit == b.Commit && !a.Modified && !b.Modified
}

// pseudoVersion matches the version Go stamps on a build from a commit
// with no tag (v0.0.0-20261128101500-abcdef123456, the pre-release and
// +incompatible forms, and +dirty for uncommitted changes).
var pseudoVersion = regexp.MustCompile(`[-.]\d{14}-[0-9a-f]{12}(\+incompatible)?(\+dirty)?$`)

// Get returns the build information of the running binary.
func Get() Info {
	info := Info{Name: Name, Version: Version, Commit: Commit, Date: Date}
	bi, ok := debug.ReadBuildInfo()
	if ok {
		info.GoVersion = bi.GoVersion
		// A tagged module version (go install module@v1.2.3) is a release;
		// a pseudo-version (v0.0.0-2026…-abcdef, what go build and go
		// install stamp in a clone) is a development build like go run's
		// "(devel)", and says "dev" as go run's does, so the builds of one
		// clone report one version; the commit tells them apart.
		if v := bi.Main.Version; info.Version == "" && v != "" && v != "(devel)" && !pseudoVersion.MatchString(v) {
			info.Version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				if info.Commit == "" {
					info.Commit = s.Value
				}
			case "vcs.time":
				if info.Date == "" {
					info.Date = s.Value
				}
			case "vcs.modified":
				info.Modified = s.Value == "true"
			}
		}
	}
	if info.Version == "" {
		info.Version = "dev"
	}
	return info
}
