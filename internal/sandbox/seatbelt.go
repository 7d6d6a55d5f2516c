package sandbox

// The macOS sandbox's profile, in Seatbelt's profile language (SBPL). It is
// built here, on every system, so that its text is tested everywhere;
// run_darwin.go applies it with /usr/bin/sandbox-exec.

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// seatbelt says what the profile lets a command write and forbids it to
// read. Every path is absolute and resolved (Seatbelt matches the path a
// file really has: /private/var/folders/…, not /var/folders/…).
type seatbelt struct {
	// Writable are the folders the command may write beneath: its copy of
	// the project, its temporary folder and its caches. Unix sockets may be
	// made and reached there only.
	Writable []string
	// ReadOnly are folders beneath Writable it may not write (the copy's
	// hidden folders, which it sees empty).
	ReadOnly []string
	// Unreadable are files and folders it may neither read nor write: the
	// credential paths, agentos's configuration, the real project.
	Unreadable []string
}

// machServices are the only services the command may look up: the user and
// group database, logging, notifications, certificate trust (Go's crypto/x509
// asks trustd), the per-user temporary folder, preferences, the system
// configuration, fonts and power assertions. Every other is refused, among
// them the ones that would act outside the sandbox on the command's behalf:
// Launch Services and its database (opening an application, which runs
// unconfined), Apple events, the keychain (securityd), the pasteboard and
// the window server.
var machServices = []string{
	"com.apple.system.opendirectoryd.libinfo",
	"com.apple.system.opendirectoryd.membership",
	"com.apple.system.DirectoryService.libinfo_v1",
	"com.apple.system.DirectoryService.membership_v1",
	"com.apple.system.logger",
	"com.apple.logd",
	"com.apple.diagnosticd",
	"com.apple.system.notification_center",
	"com.apple.trustd",
	"com.apple.trustd.agent",
	"com.apple.bsd.dirhelper",
	"com.apple.cfprefsd.daemon",
	"com.apple.cfprefsd.agent",
	"com.apple.SystemConfiguration.configd",
	"com.apple.PowerManagement.control",
	"com.apple.FontObjectsServer",
	"com.apple.fonts",
}

// writableDevices are the devices a command may open for writing besides
// its own folders: the null device, its controlling terminal (it has none:
// the supervisor starts it in a session of its own), its own descriptors,
// and the DTrace helper some runtimes open at start.
var writableDevices = []string{
	`(literal "/dev/null")`, `(literal "/dev/zero")`, `(literal "/dev/dtracehelper")`,
	`(literal "/dev/tty")`, `(subpath "/dev/fd")`,
}

// terminals are the terminal devices, among them the person's: reading one
// would take the person's keystrokes, writing one would put text on their
// screen.
const terminals = `(regex #"^/dev/ttys[0-9]+$")`

// profile returns the profile's text. It starts from allowing everything,
// which toolchains need (system calls, sysctls, IOKit, files they read
// anywhere), and takes away, in this order, the network, the services that
// act outside the sandbox (launchd's jobs among them), every other process,
// writes outside Writable, and reads of Unreadable and of terminals. SBPL applies the last rule that matches, so each
// exception follows the denial it narrows, and the denial of reads comes
// last: nothing may allow those paths back.
func (sb seatbelt) profile() (string, error) {
	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	paths := func(filter string, ps []string) (string, error) {
		var out []string
		for _, p := range ps {
			q, err := sbplString(p)
			if err != nil {
				return "", err
			}
			out = append(out, "("+filter+" "+q+")")
		}
		return strings.Join(out, " "), nil
	}
	if len(sb.Writable) == 0 {
		return "", errors.New("no folder to write in")
	}
	writable, err := paths("subpath", sb.Writable)
	if err != nil {
		return "", err
	}
	line("(version 1)")
	line("(allow default)")

	line("; No network: no address of any host, the machine's own included. Unix")
	line("; sockets only beneath the sandbox's own folders.")
	line("(deny network*)")
	for _, w := range sb.Writable {
		q, _ := sbplString(w) // checked with writable
		line("(allow network-bind network-inbound (local unix-socket (subpath " + q + ")))")
		line("(allow network-outbound (remote unix-socket (subpath " + q + ")))")
	}

	line("; Services: only those a toolchain needs, none that acts outside.")
	line("(deny mach-lookup)")
	var names []string
	for _, n := range machServices {
		names = append(names, `(global-name "`+n+`")`)
	}
	line("(allow mach-lookup " + strings.Join(names, " ") + ")")
	line("(deny mach-register)")
	line("(deny appleevent-send)")
	line("(deny lsopen)")
	line("(deny job-creation)")

	line("; Other processes: no signal, no task port and no information about")
	line("; any process outside the sandbox, so no other process's environment.")
	line("(deny signal)")
	line("(allow signal (target same-sandbox))")
	line("(deny mach-priv-task-port)")
	line("(allow mach-priv-task-port (target same-sandbox))")
	line("(deny process-info*)")
	line("(deny process-info-pidinfo)")
	line("(allow process-info* (target same-sandbox))")
	line("(allow process-info-pidinfo (target same-sandbox))")
	line(`(deny sysctl-read (sysctl-name-prefix "kern.procargs"))`)

	line("; Writes: beneath the sandbox's own folders, and to a few devices. No")
	line("; hard link and no clone of any file: either would give a file of the")
	line("; person's a second name, in the sandbox's folders, that reads allow.")
	line("(deny file-write*)")
	line("(deny file-link file-clone)")
	line("(allow file-write* " + writable + " " + strings.Join(writableDevices, " ") + ")")
	if len(sb.ReadOnly) > 0 {
		ro, err := paths("subpath", sb.ReadOnly)
		if err != nil {
			return "", err
		}
		line("(deny file-write* " + ro + ")")
	}

	line("; Reads: everything but the secrets, the real project and the terminals.")
	un, err := paths("subpath", sb.Unreadable)
	if err != nil {
		return "", err
	}
	line("(deny file-read* file-write* " + strings.TrimSpace(un+" "+terminals) + ")")
	return b.String(), nil
}

// sbplString quotes path as an SBPL string. A path holding a quote, a
// backslash or a control character is refused rather than escaped: any of
// them could end the string and turn the rest of the path into rules.
func sbplString(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("%q is not an absolute path", path)
	}
	for _, r := range path {
		if r == '"' || r == '\\' || r < 0x20 || r == 0x7f {
			return "", fmt.Errorf("the path %q cannot be named in a sandbox profile", path)
		}
	}
	return `"` + path + `"`, nil
}

// realPath is path with every link resolved, as far as it exists: the
// resolved parent and the rest as written when the end does not exist yet
// (a credential folder a tool may create later is still denied where it
// will be).
func realPath(path string) string {
	path = filepath.Clean(path)
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	parent := filepath.Dir(path)
	if parent == path {
		return path
	}
	return filepath.Join(realPath(parent), filepath.Base(path))
}

// unreadable returns the paths a profile denies, each as written and
// resolved, once.
func unreadable(paths []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			continue
		}
		for _, q := range []string{filepath.Clean(p), realPath(p)} {
			if !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	return out
}
