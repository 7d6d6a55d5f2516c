// Package buildinfo owns the version of the running binary. Release builds set
// Version and Commit through -ldflags; development builds fall back to the
// module and VCS information the Go toolchain records.
package buildinfo

import "runtime/debug"

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
}

// Get returns the build information of the running binary.
func Get() Info {
	info := Info{Name: Name, Version: Version, Commit: Commit, Date: Date}
	bi, ok := debug.ReadBuildInfo()
	if ok {
		info.GoVersion = bi.GoVersion
		if info.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			info.Version = bi.Main.Version
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
			}
		}
	}
	if info.Version == "" {
		info.Version = "dev"
	}
	return info
}
