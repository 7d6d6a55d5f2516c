package sandbox

// Windows: an AppContainer of the sandbox's own, in a job object, over a
// copy of the project. An AppContainer process runs at low integrity with a
// token that grants it only what is granted to its own SID (or to every
// AppContainer): it reads Windows and Program Files, not the user's
// profile; it writes nowhere but the folders granted to it here; and with
// no network capability the system's filtering platform gives it no
// network, the machine's loopback included. The job kills every process the
// command starts when the command ends. agentos starts itself again outside
// the AppContainer as the launcher, which creates the command's process
// suspended, puts it in the job, and only then lets it run.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"unicode/utf16"
	"unsafe"

	"golang.org/x/sys/windows"
)

// launchEnv carries the launcher's plan from agentos to the copy of itself
// that launches the command; the launcher removes it.
const launchEnv = "AGENTOS_SANDBOX_LAUNCH"

// privateDirs: the copy, the command's temporary folder, home and caches
// (the four it may write), and the layer.
var privateDirs = []string{"copy", "tmp", "home", "caches", "layer"}

// granted are the private folders the AppContainer may read and write.
var granted = []string{"copy", "tmp", "home", "caches"}

// platState is what the Windows sandbox adds to the copy's state.
type platState struct {
	probe        bool     // Check's probe runs here: no module copies
	extraSecrets []string // unused: the AppContainer reads only what is granted
	container    string   // the AppContainer's name
	sid          string   // and its SID
}

var (
	userenv                          = windows.NewLazySystemDLL("userenv.dll")
	procCreateAppContainerProfile    = userenv.NewProc("CreateAppContainerProfile")
	procDeleteAppContainerProfile    = userenv.NewProc("DeleteAppContainerProfile")
	procDeriveAppContainerSidFromApp = userenv.NewProc("DeriveAppContainerSidFromAppContainerName")
)

// hresultExists is HRESULT_FROM_WIN32(ERROR_ALREADY_EXISTS).
const hresultExists = 0x800700B7

// preparePlatform creates the sandbox's own AppContainer and grants it its
// folders: full control, inherited by everything made in them, and a low
// integrity label, without which a low-integrity process may not write
// there whatever the grant says.
func (s *Sandbox) preparePlatform() error {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return err
	}
	name := "agentos.gate." + hex.EncodeToString(b[:])
	sid, err := createContainer(name)
	if err != nil {
		return err
	}
	s.plat.container, s.plat.sid = name, sid
	psid, err := windows.StringToSid(sid)
	if err != nil {
		return err
	}
	for _, sub := range granted {
		if err := grantContainer(filepath.Join(s.dir, sub), psid); err != nil {
			return fmt.Errorf("granting the AppContainer its folder %s: %w", sub, err)
		}
	}
	return nil
}

// release deletes the AppContainer's profile. The job killed its processes.
func (s *Sandbox) release() {
	if s.plat.container == "" {
		return
	}
	if p, err := windows.UTF16PtrFromString(s.plat.container); err == nil {
		procDeleteAppContainerProfile.Call(uintptr(unsafe.Pointer(p)))
	}
	s.plat.container = ""
}

// createContainer creates the AppContainer profile name and returns its SID.
func createContainer(name string) (string, error) {
	if err := procCreateAppContainerProfile.Find(); err != nil {
		return "", fmt.Errorf("this Windows has no AppContainers (Windows 8 or newer): %w", err)
	}
	n, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return "", err
	}
	display, _ := windows.UTF16PtrFromString("agentos gate")
	var sid *windows.SID
	hr, _, _ := procCreateAppContainerProfile.Call(uintptr(unsafe.Pointer(n)), uintptr(unsafe.Pointer(display)),
		uintptr(unsafe.Pointer(display)), 0, 0, uintptr(unsafe.Pointer(&sid)))
	if uint32(hr) == hresultExists {
		hr, _, _ = procDeriveAppContainerSidFromApp.Call(uintptr(unsafe.Pointer(n)), uintptr(unsafe.Pointer(&sid)))
	}
	if uint32(hr) != 0 || sid == nil {
		return "", fmt.Errorf("creating an AppContainer: HRESULT %#x", uint32(hr))
	}
	defer windows.FreeSid(sid)
	return sid.String(), nil
}

// fileAllAccess is FILE_ALL_ACCESS.
const fileAllAccess = 0x1F01FF

// grantContainer gives sid full control of the folder dir and everything
// made in it, and labels them low integrity.
func grantContainer(dir string, sid *windows.SID) error {
	sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return err
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return err
	}
	acl, err := windows.ACLFromEntries([]windows.EXPLICIT_ACCESS{{
		AccessPermissions: fileAllAccess,
		AccessMode:        windows.GRANT_ACCESS,
		Inheritance:       windows.SUB_CONTAINERS_AND_OBJECTS_INHERIT,
		Trustee: windows.TRUSTEE{
			TrusteeForm:  windows.TRUSTEE_IS_SID,
			TrusteeType:  windows.TRUSTEE_IS_UNKNOWN,
			TrusteeValue: windows.TrusteeValueFromSID(sid),
		},
	}}, dacl)
	if err != nil {
		return err
	}
	if err := windows.SetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION, nil, nil, acl, nil); err != nil {
		return err
	}
	label, err := windows.SecurityDescriptorFromString("S:(ML;OICI;NW;;;LW)")
	if err != nil {
		return err
	}
	sacl, _, err := label.SACL()
	if err != nil {
		return err
	}
	return windows.SetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, windows.LABEL_SECURITY_INFORMATION, nil, nil, nil, sacl)
}

// cloneEntry: NTFS has no clones; everything is copied.
var cloneEntry func(src, dst string) error

// systemSecrets: none to add. The AppContainer cannot read the user's
// profile, where the credential paths are, at all.
func systemSecrets(string) []string { return nil }

// launch is the launcher's plan.
type launch struct {
	Container string  `json:"container"` // the AppContainer's SID
	Workdir   string  `json:"workdir"`
	Command   string  `json:"command"`
	Server    uintptr `json:"server"` // an inherited handle to the server: its end ends the command
}

// serverHandle is a handle to this process that its launchers inherit and
// wait on, so that the command ends when the server does.
var serverHandle = sync.OnceValues(func() (windows.Handle, error) {
	var h windows.Handle
	cur := windows.CurrentProcess()
	err := windows.DuplicateHandle(cur, cur, cur, &h, windows.SYNCHRONIZE, true, 0)
	return h, err
})

// Command returns the command that runs shell command line (through
// cmd.exe, as the unsandboxed gates do) in the sandbox, in the copy's folder
// that stands for workdir, with the environment of this process less its
// secrets and with its own temporary folder, home and caches. The first
// call makes the copy. The process it starts is the launcher; killing it
// (the context's end) closes the job, which kills every process of the
// command, and so does the command's end and the server's.
func (s *Sandbox) Command(ctx context.Context, workdir, command string) (*exec.Cmd, error) {
	if err := Check(); err != nil {
		return nil, err
	}
	return s.command(ctx, workdir, command, nil)
}

func (s *Sandbox) command(ctx context.Context, workdir, command string, extra []string) (*exec.Cmd, error) {
	if err := s.ready(ctx); err != nil {
		return nil, err
	}
	dir, err := s.inCopy(workdir)
	if err != nil {
		return nil, err
	}
	server, err := serverHandle()
	if err != nil {
		return nil, fmt.Errorf("sandbox: a handle to the server: %w", err)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("sandbox: finding agentos itself: %w", err)
	}
	data, err := json.Marshal(launch{Container: s.plat.sid, Workdir: dir, Command: command, Server: uintptr(server)})
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	env := append(childEnv(os.Environ()), s.plat.env...)
	env = append(env, extra...)
	cmd := exec.CommandContext(ctx, exe)
	cmd.Args = []string{"agentos-sandbox"}
	cmd.Env = append(env, launchEnv+"="+string(data))
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{
		AdditionalInheritedHandles: []syscall.Handle{syscall.Handle(server)},
		CreationFlags:              windows.CREATE_NO_WINDOW,
	}
	return cmd, nil
}

// runEnv gives the command its own temporary folder, home (the real one
// is unreadable to it; git and others fail on a configuration they cannot
// read), application data and caches, and Go caches of its own: an empty
// build cache, and a module proxy holding copies of the downloads of the
// modules the project's go.sum files name; nothing is downloaded.
func (s *Sandbox) runEnv(ctx context.Context) ([]string, error) {
	tmp, home, caches := filepath.Join(s.dir, "tmp"), filepath.Join(s.dir, "home"), filepath.Join(s.dir, "caches")
	own := filepath.Join(caches, "own")
	roaming, local := filepath.Join(home, "AppData", "Roaming"), filepath.Join(home, "AppData", "Local")
	goCache, goMods, goPath, proxyDir := filepath.Join(caches, "GOCACHE"), filepath.Join(caches, "GOMODCACHE"), filepath.Join(caches, "gopath"), filepath.Join(caches, "goproxy")
	for _, d := range []string{own, roaming, local, goCache, goMods, goPath, proxyDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	proxy := "off"
	if !s.plat.probe {
		for _, c := range personCaches(ctx) {
			if c.Env != "GOMODCACHE" {
				continue
			}
			n, err := copyModules(filepath.Join(c.Lower, "cache", "download"), proxyDir, goSumModules(s.copyDir()))
			if err != nil {
				return nil, fmt.Errorf("copying Go modules: %w", err)
			}
			if n > 0 {
				proxy = (&url.URL{Scheme: "file", Path: "/" + filepath.ToSlash(proxyDir)}).String()
			}
		}
	}
	return []string{
		"TEMP=" + tmp, "TMP=" + tmp, "TMPDIR=" + tmp,
		"USERPROFILE=" + home, "HOME=" + home, "APPDATA=" + roaming, "LOCALAPPDATA=" + local,
		"XDG_CACHE_HOME=" + own, "npm_config_cache=" + filepath.Join(own, "npm"), "PIP_CACHE_DIR=" + filepath.Join(own, "pip"),
		"GOCACHE=" + goCache, "GOMODCACHE=" + goMods, "GOPATH=" + goPath, "GOPROXY=" + proxy,
		"GOTOOLCHAIN=local", "GOTELEMETRY=off",
	}, nil
}

// find returns the file the run wrote at rel. Nothing of the run is alive
// by now (the job ended it), so the file checked is the file read.
func (s *Sandbox) find(rel string) (string, bool) {
	r, m, ok := s.written(rel)
	if !ok {
		return "", false
	}
	p, fi, ok := plainFile(s.dir, "copy/"+r)
	if !ok || !m.written(r, fi) {
		return "", false
	}
	return p, true
}

// shellQuote quotes a path for cmd.exe.
func shellQuote(s string) string { return `"` + s + `"` }

// probeExecutable copies this binary where the AppContainer may run it:
// where agentos is installed (the project's .agentos\bin, under the user's
// profile) it cannot.
func (s *Sandbox) probeExecutable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(s.dir, "caches", "agentos-probe.exe")
	return dst, copyFile(exe, dst, fi)
}

// probeEnviron opens process pid to read its memory, where its environment
// is.
func probeEnviron(pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_VM_READ|windows.PROCESS_QUERY_INFORMATION, false, uint32(pid))
	if err == nil {
		windows.CloseHandle(h)
	}
	return err
}

// probeSignal opens process pid to end it, and does not.
func probeSignal(pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pid))
	if err == nil {
		windows.CloseHandle(h)
	}
	return err
}

// systemRefusals are the probe's attempts of this system's own: none.
var systemRefusals []string

// probeClone: no clones on NTFS.
func probeClone(string, string) error { return errors.ErrUnsupported }

// checked runs the probe once per process: where the AppContainer cannot
// be made, or lets the probe reach the network (the Windows Filtering
// Platform enforces its isolation), read what it must not or write outside
// its folders, no command runs sandboxed.
var checked = sync.OnceValue(func() error {
	if err := procCreateAppContainerProfile.Find(); err != nil {
		return fmt.Errorf("this Windows has no AppContainers (Windows 8 or newer is needed)")
	}
	return checkByProbe()
})

func init() {
	if v, ok := os.LookupEnv(launchEnv); ok {
		runLauncher(v)
	}
	if v, ok := os.LookupEnv(probeEnv); ok {
		runProbe(v)
	}
}

// securityCapabilities is SECURITY_CAPABILITIES: the AppContainer a new
// process runs in, with no capability (no network, no library access).
type securityCapabilities struct {
	AppContainerSid *windows.SID
	Capabilities    *windows.SIDAndAttributes
	CapabilityCount uint32
	Reserved        uint32
}

// procThreadAttributeSecurityCapabilities is
// PROC_THREAD_ATTRIBUTE_SECURITY_CAPABILITIES.
const procThreadAttributeSecurityCapabilities = 0x00020009

// runLauncher is agentos started as the launcher: it creates the command's
// process in the AppContainer, suspended, puts it in a job that kills every
// process in it when closed, lets it run, and waits for it or for the
// server's end. It exits with the command's status and never returns; the
// job's handle closes with it, however it ends, killing what is left.
func runLauncher(spec string) {
	fail := func(err error) {
		fmt.Fprintf(os.Stderr, "agentos sandbox: %v\n", err)
		os.Exit(initExitCode)
	}
	var p launch
	if err := json.Unmarshal([]byte(spec), &p); err != nil {
		fail(fmt.Errorf("reading the plan: %w", err))
	}
	server := windows.Handle(p.Server)
	sid, err := windows.StringToSid(p.Container)
	if err != nil {
		fail(fmt.Errorf("the AppContainer's SID: %w", err))
	}
	job, err := newJob()
	if err != nil {
		fail(fmt.Errorf("creating the job: %w", err))
	}

	// Only the standard handles pass to the command.
	var handles []windows.Handle
	var std [3]windows.Handle
	for i, which := range []uint32{windows.STD_INPUT_HANDLE, windows.STD_OUTPUT_HANDLE, windows.STD_ERROR_HANDLE} {
		h, err := windows.GetStdHandle(which)
		if err != nil || h == 0 || h == windows.InvalidHandle {
			continue
		}
		if err := windows.SetHandleInformation(h, windows.HANDLE_FLAG_INHERIT, windows.HANDLE_FLAG_INHERIT); err != nil {
			continue
		}
		std[i] = h
		if !containsHandle(handles, h) {
			handles = append(handles, h)
		}
	}
	attrs, err := windows.NewProcThreadAttributeList(2)
	if err != nil {
		fail(err)
	}
	defer attrs.Delete()
	caps := &securityCapabilities{AppContainerSid: sid}
	if err := attrs.Update(procThreadAttributeSecurityCapabilities, unsafe.Pointer(caps), unsafe.Sizeof(*caps)); err != nil {
		fail(fmt.Errorf("naming the AppContainer: %w", err))
	}
	if len(handles) > 0 {
		if err := attrs.Update(windows.PROC_THREAD_ATTRIBUTE_HANDLE_LIST, unsafe.Pointer(&handles[0]), uintptr(len(handles))*unsafe.Sizeof(handles[0])); err != nil {
			fail(fmt.Errorf("listing the handles to pass: %w", err))
		}
	}
	si := &windows.StartupInfoEx{}
	si.Cb = uint32(unsafe.Sizeof(*si))
	si.Flags = windows.STARTF_USESTDHANDLES
	si.StdInput, si.StdOutput, si.StdErr = std[0], std[1], std[2]
	si.ProcThreadAttributeList = attrs.List()

	system, err := windows.GetSystemDirectory()
	if err != nil {
		fail(err)
	}
	app, err := windows.UTF16PtrFromString(filepath.Join(system, "cmd.exe"))
	if err != nil {
		fail(err)
	}
	line, err := windows.UTF16PtrFromString(`cmd /S /C "` + p.Command + `"`)
	if err != nil {
		fail(err)
	}
	dir, err := windows.UTF16PtrFromString(p.Workdir)
	if err != nil {
		fail(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, launchEnv+"=") {
			env = append(env, kv)
		}
	}
	block, err := envBlock(env)
	if err != nil {
		fail(err)
	}
	pi := &windows.ProcessInformation{}
	flags := uint32(windows.CREATE_SUSPENDED | windows.EXTENDED_STARTUPINFO_PRESENT | windows.CREATE_UNICODE_ENVIRONMENT | windows.CREATE_NO_WINDOW)
	if err := windows.CreateProcess(app, line, nil, nil, len(handles) > 0, flags, &block[0], dir, &si.StartupInfo, pi); err != nil {
		fail(fmt.Errorf("starting the command in its AppContainer: %w", err))
	}
	if err := windows.AssignProcessToJobObject(job, pi.Process); err != nil {
		windows.TerminateProcess(pi.Process, initExitCode)
		fail(fmt.Errorf("putting the command in its job: %w", err))
	}
	if _, err := windows.ResumeThread(pi.Thread); err != nil {
		windows.TerminateJobObject(job, initExitCode)
		fail(fmt.Errorf("starting the command's thread: %w", err))
	}
	windows.CloseHandle(pi.Thread)
	ev, err := windows.WaitForMultipleObjects([]windows.Handle{pi.Process, server}, false, windows.INFINITE)
	if err != nil || ev != windows.WAIT_OBJECT_0 {
		// The server is gone, or nothing can be waited on: end it all.
		windows.TerminateJobObject(job, initExitCode)
		os.Exit(initExitCode)
	}
	var code uint32
	if err := windows.GetExitCodeProcess(pi.Process, &code); err != nil {
		code = initExitCode
	}
	windows.TerminateJobObject(job, code) // whatever the command left running
	os.Exit(int(code))
}

// newJob makes a job that kills its processes when its last handle closes
// and forbids them the desktop, the clipboard, global atoms, other
// processes' window handles, system settings and logging off.
func newJob() (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	limits := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	limits.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE | windows.JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&limits)), uint32(unsafe.Sizeof(limits))); err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	ui := windows.JOBOBJECT_BASIC_UI_RESTRICTIONS{UIRestrictionsClass: windows.JOB_OBJECT_UILIMIT_DESKTOP |
		windows.JOB_OBJECT_UILIMIT_DISPLAYSETTINGS | windows.JOB_OBJECT_UILIMIT_EXITWINDOWS | windows.JOB_OBJECT_UILIMIT_GLOBALATOMS |
		windows.JOB_OBJECT_UILIMIT_HANDLES | windows.JOB_OBJECT_UILIMIT_READCLIPBOARD | windows.JOB_OBJECT_UILIMIT_WRITECLIPBOARD |
		windows.JOB_OBJECT_UILIMIT_SYSTEMPARAMETERS}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectBasicUIRestrictions,
		uintptr(unsafe.Pointer(&ui)), uint32(unsafe.Sizeof(ui))); err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}

func containsHandle(hs []windows.Handle, h windows.Handle) bool {
	for _, x := range hs {
		if x == h {
			return true
		}
	}
	return false
}

// envBlock is env as CreateProcess takes it: sorted by name without regard
// to case, each NUL-terminated, the whole ended by another NUL.
func envBlock(env []string) ([]uint16, error) {
	env = append([]string{}, env...)
	sort.SliceStable(env, func(i, j int) bool { return envName(env[i]) < envName(env[j]) })
	var b []uint16
	for _, kv := range env {
		if strings.IndexByte(kv, 0) >= 0 {
			return nil, fmt.Errorf("an environment variable holds a NUL")
		}
		b = append(b, utf16.Encode([]rune(kv))...)
		b = append(b, 0)
	}
	if len(b) == 0 {
		b = append(b, 0)
	}
	return append(b, 0), nil
}

// envName is the name of kv in upper case; a name may start with "=" (the
// current folders of drives).
func envName(kv string) string {
	if kv == "" {
		return ""
	}
	if i := strings.IndexByte(kv[1:], '='); i >= 0 {
		return strings.ToUpper(kv[:i+1])
	}
	return strings.ToUpper(kv)
}

// Remedy says what a person can do where Check fails here.
const Remedy = "run agentos on a Windows that gives it AppContainers and job objects, as a user who may create them (docs/security.md#the-gate-sandbox says what the probe checks)"
