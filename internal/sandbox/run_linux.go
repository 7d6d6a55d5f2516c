package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The caches the command writes live in its private /tmp: cachesDir holds a
// throwaway layer over each of the person's caches, ownCaches the rest.
const (
	cachesDir = "/tmp/.agentos-caches"
	ownCaches = cachesDir + "/own"
)

// plan is everything the sandbox's first process needs, decided outside.
type plan struct {
	Project string   `json:"project"`
	Private string   `json:"private"`
	Workdir string   `json:"workdir"`
	Hidden  []string `json:"hidden"`  // absolute, inside the project: seen empty
	Outputs string   `json:"outputs"` // absolute, inside the project: Private/outputs
	Absent  []string `json:"absent"`  // project-relative files removed from the command's view
	Secrets []string `json:"secrets"` // absolute: seen empty
	Caches  []cache  `json:"caches"`
	Command string   `json:"command"`
}

// Command returns the command that runs shell command line in the sandbox,
// in workdir (an absolute path inside the project), with the environment of
// this process less its secrets. Killing the process it starts kills every
// process the command started: it is the first process of its own PID
// namespace. Like runShell's caller, the thread that starts it should live as
// long as it runs, for the kernel kills it when that thread ends.
func (s *Sandbox) Command(ctx context.Context, workdir, command string) (*exec.Cmd, error) {
	if err := Check(); err != nil {
		return nil, err
	}
	p := plan{Project: s.project, Private: s.dir, Workdir: workdir, Command: command, Absent: s.absent}
	for _, h := range s.hidden {
		p.Hidden = append(p.Hidden, filepath.Join(s.project, filepath.FromSlash(h)))
	}
	if s.outputs != "" {
		p.Outputs = filepath.Join(s.project, filepath.FromSlash(s.outputs))
	}
	p.Secrets = secretPaths()
	env := childEnv(os.Environ())
	for _, c := range personCaches(ctx) {
		c.Mount = filepath.Join(cachesDir, c.Env)
		p.Caches = append(p.Caches, c)
		env = append(env, c.Env+"="+c.Mount)
	}
	env = append(env,
		"TMPDIR=/tmp",
		"XDG_CACHE_HOME="+ownCaches, "npm_config_cache="+filepath.Join(ownCaches, "npm"), "PIP_CACHE_DIR="+filepath.Join(ownCaches, "pip"),
		// There is no network: say so to go rather than let it time out.
		"GOPROXY=off", "GOTOOLCHAIN=local", "GOTELEMETRY=off",
	)
	data, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return initCommand(ctx, data, env), nil
}

// initCommand starts this binary again as the first process of new
// namespaces, where runInit carries out plan.
func initCommand(ctx context.Context, plan []byte, env []string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "/proc/self/exe")
	cmd.Args = []string{"agentos-sandbox"}
	cmd.Env = append(env, initEnv+"="+string(plan))
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags: syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWNET | syscall.CLONE_NEWPID |
			syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS,
		// The same user and group inside as outside: files keep their
		// owners, and a user who is not root outside is not root inside.
		UidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}},
		Pdeathsig:   syscall.SIGKILL,
	}
	return cmd
}

// checked starts a sandbox once per process, running `exit 0`, and says what
// refused it: user namespaces, the overlay, Landlock.
var checked = sync.OnceValue(func() error {
	if abi := landlockABI(); abi < 1 {
		return errors.New("the kernel offers no Landlock (it needs Linux 5.13 or newer with Landlock enabled at boot)")
	}
	dir, err := os.MkdirTemp("", "agentos-sandbox-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	s, err := New(dir, Options{})
	if err != nil {
		return err
	}
	defer s.Close()
	data, _ := json.Marshal(plan{Project: s.project, Private: s.dir, Workdir: s.project, Command: "exit 0"})
	out, err := initCommand(context.Background(), data, []string{"PATH=/usr/bin:/bin"}).CombinedOutput()
	if err != nil {
		why := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out)), "agentos sandbox: "))
		if why == "" {
			why = err.Error()
		}
		if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EINVAL) {
			why = "unprivileged user namespaces are disabled (" + err.Error() + "; see kernel.unprivileged_userns_clone, user.max_user_namespaces or AppArmor's restrict_unprivileged_userns)"
		}
		return errors.New(why)
	}
	return nil
})

func init() {
	if v, ok := os.LookupEnv(initEnv); ok {
		runInit(v)
	}
}

// runInit is the sandbox's first process: it finishes the confinement inside
// the new namespaces and becomes the command. It never returns.
func runInit(spec string) {
	// Landlock, no_new_privs and the capability bounding set belong to a
	// thread: the one that sets them must be the one that executes.
	runtime.LockOSThread()
	fail := func(err error) {
		fmt.Fprintf(os.Stderr, "agentos sandbox: %v\n", err)
		os.Exit(initExitCode)
	}
	var p plan
	if err := json.Unmarshal([]byte(spec), &p); err != nil {
		fail(fmt.Errorf("reading the plan: %w", err))
	}
	if os.Getpid() != 1 {
		fail(errors.New("not started as a sandbox"))
	}
	if err := confine(p); err != nil {
		fail(err)
	}
	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, initEnv+"=") {
			env = append(env, kv)
		}
	}
	// Only stdin, stdout and stderr go to the command: a descriptor this
	// process got from whoever started the server could lead outside.
	if err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		fail(fmt.Errorf("closing inherited descriptors: %w", err))
	}
	// A session of its own has no controlling terminal: the command cannot
	// open /dev/tty to read, or type into (TIOCSTI), the terminal of the
	// person who started the server.
	if _, err := unix.Setsid(); err != nil {
		fail(fmt.Errorf("starting a session: %w", err))
	}
	err := unix.Exec("/bin/sh", []string{"/bin/sh", "-c", p.Command}, env)
	fail(fmt.Errorf("starting /bin/sh: %w", err))
}

// confine sets up the mounts, the network and Landlock, and drops every
// capability, in that order.
func confine(p plan) error {
	if err := unix.Mount("none", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mounts private: %w", err)
	}
	// The machine's /tmp holds other programs' sockets (tmux, X, SSH
	// agents): the command gets a private one instead, and /var/tmp is the
	// same folder; /dev/shm (shared memory other programs name) is a new,
	// empty one. The project and the private folder may be under either, so
	// from here on they are reached through descriptors opened before, and
	// the places they are mounted at are made in the private folders.
	project, err := openPath(p.Project)
	if err != nil {
		return err
	}
	private, err := openPath(p.Private)
	if err != nil {
		return err
	}
	// The person's caches may be under /tmp or /dev/shm as well (GOCACHE
	// set there for speed): without this the run would see an empty cache
	// and compile the standard library anew every time.
	for i, c := range p.Caches {
		if fi, err := os.Stat(c.Lower); err == nil && fi.IsDir() {
			if p.Caches[i].Lower, err = openPath(c.Lower); err != nil {
				return err
			}
		}
	}
	hidden := map[string]bool{} // /var/run is /run; ~/.config/agentos is named twice
	for _, sec := range p.Secrets {
		target, err := filepath.EvalSymlinks(sec)
		if err != nil || hidden[target] {
			continue
		}
		hidden[target] = true
		if err := hide(sec, filepath.Join(private, "home")); err != nil {
			return err
		}
	}
	if err := unix.Mount(filepath.Join(private, "tmp"), "/tmp", "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("mounting a private /tmp: %w", err)
	}
	if fi, err := os.Lstat("/var/tmp"); err == nil && fi.IsDir() {
		if err := unix.Mount("/tmp", "/var/tmp", "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("mounting a private /var/tmp: %w", err)
		}
	}
	if fi, err := os.Lstat("/dev/shm"); err == nil && fi.IsDir() {
		if err := unix.Mount("tmpfs", "/dev/shm", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=1777"); err != nil {
			return fmt.Errorf("mounting a private /dev/shm: %w", err)
		}
	}
	if err := os.MkdirAll(p.Project, 0o755); err != nil {
		return fmt.Errorf("the project's place: %w", err)
	}
	lower := escapeOverlay(filepath.Join(private, "layer")) + ":" + escapeOverlay(project)
	if err := overlay(p.Project, lower, filepath.Join(private, "upper"), filepath.Join(private, "work")); err != nil {
		return fmt.Errorf("layering the project: %w", err)
	}
	for _, rel := range p.Absent {
		if err := removeBeneath(p.Project, rel); err != nil {
			return err
		}
	}
	if p.Outputs != "" {
		if err := os.MkdirAll(p.Outputs, 0o755); err != nil {
			return err
		}
		if err := unix.Mount(filepath.Join(private, "outputs"), p.Outputs, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("mounting the outputs folder: %w", err)
		}
	}
	for _, h := range p.Hidden {
		if err := hide(h, filepath.Join(private, "home")); err != nil {
			return err
		}
	}
	for _, c := range p.Caches {
		if err := layerCache(c); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(ownCaches, 0o700); err != nil {
		return err
	}
	if err := unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting /proc: %w", err)
	}
	if err := loopbackUp(); err != nil {
		return err
	}
	if err := os.Chdir(p.Workdir); err != nil {
		return fmt.Errorf("entering %s: %w", p.Workdir, err)
	}
	rules := []landlockRule{
		{"/", fsRead},
		{p.Project, fsRead | fsWrite},
		{"/tmp", fsRead | fsWrite},
		{"/var/tmp", fsRead | fsWrite},
		{"/dev/shm", fsRead | fsWrite},
		{"/dev/pts", fsRead | fsWrite},
	}
	for _, dev := range []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"} {
		rules = append(rules, landlockRule{dev, fsRead | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV})
	}
	// Whoever runs the command holds no capability, in the sandbox's user
	// namespace either, even as root: none survives the exec.
	for c := 0; c <= 63; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("dropping capability %d: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clearing ambient capabilities: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("setting no_new_privs: %w", err)
	}
	return restrictSelf(landlockABI(), rules)
}

// overlay mounts at target the folders lower (escaped, joined by ":", the
// first on top) with a throwaway layer over them: reads see lower, writes
// land in upper, and lower is never written.
func overlay(target, lower, upper, work string) error {
	opts := "lowerdir=" + lower + ",upperdir=" + escapeOverlay(upper) + ",workdir=" + escapeOverlay(work) + ",userxattr"
	if err := unix.Mount("overlay", target, "overlay", 0, opts); err != nil {
		return fmt.Errorf("overlay on %s: %w", target, err)
	}
	return nil
}

// removeBeneath removes the file at rel in the layered project: the overlay
// records it as removed in the run's own layer, and the real project keeps
// it. No link on the way is followed (Landlock does not confine this process
// yet, so a link could lead it to the person's files); a missing file is
// fine.
func removeBeneath(project, rel string) error {
	how := &unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS}
	root, err := unix.Openat2(unix.AT_FDCWD, project, &unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC})
	if err != nil {
		return fmt.Errorf("opening the layered project: %w", err)
	}
	defer unix.Close(root)
	dir, name := filepath.Split(filepath.FromSlash(rel))
	parent := root
	if dir = strings.TrimSuffix(dir, "/"); dir != "" {
		if parent, err = unix.Openat2(root, dir, how); err != nil {
			if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV) {
				return nil // no such file beneath the project, without a link
			}
			return fmt.Errorf("removing %s from the run's view: %w", rel, err)
		}
		defer unix.Close(parent)
	}
	if err := unix.Unlinkat(parent, name, 0); err != nil && !errors.Is(err, unix.ENOENT) {
		return fmt.Errorf("removing %s from the run's view: %w", rel, err)
	}
	return nil
}

// escapeOverlay escapes the characters overlay's options split on.
func escapeOverlay(path string) string {
	r := strings.NewReplacer(`\`, `\\`, `,`, `\,`, `:`, `\:`)
	return r.Replace(path)
}

// openPath opens dir for reference only and returns a path that reaches it
// whatever is later mounted over its name. The descriptor closes at the exec:
// through it the command would reach the real project, token and all.
func openPath(dir string) (string, error) {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", fmt.Errorf("opening %s: %w", dir, err)
	}
	return "/proc/self/fd/" + strconv.Itoa(fd), nil
}

// hide makes path unreadable to the command: an empty read-only folder over
// a folder, an empty file over a file. A path that does not exist stays so
// (the command cannot create it: Landlock allows no write there).
func hide(path, scratch string) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil
	}
	fi, err := os.Stat(target)
	if err != nil {
		return nil
	}
	if fi.IsDir() {
		if err := unix.Mount("tmpfs", target, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "mode=0555,size=4k"); err != nil {
			return fmt.Errorf("hiding %s: %w", path, err)
		}
		return nil
	}
	empty := filepath.Join(scratch, "empty")
	if f, err := os.OpenFile(empty, os.O_CREATE|os.O_RDONLY, 0o400); err == nil {
		f.Close()
	}
	if err := unix.Mount(empty, target, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("hiding %s: %w", path, err)
	}
	_ = unix.Mount("", target, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY, "")
	return nil
}

// layerCache makes c.Mount a throwaway layer over the person's cache.
func layerCache(c cache) error {
	upper, work := c.Mount+".upper", c.Mount+".work"
	for _, d := range []string{c.Mount, upper, work} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	if fi, err := os.Stat(c.Lower); err != nil || !fi.IsDir() {
		return nil // no cache yet: the run starts from an empty one
	}
	if err := overlay(c.Mount, escapeOverlay(c.Lower), upper, work); err != nil {
		return fmt.Errorf("layering %s: %w", c.Env, err)
	}
	return nil
}

// loopbackUp brings up the sandbox's own loopback interface, so a test can
// serve and reach itself on 127.0.0.1; it is not the loopback of the
// machine, so nothing outside is reachable.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("loopback: %w", err)
	}
	defer unix.Close(fd)
	var req [unix.IFNAMSIZ + 24]byte
	copy(req[:], "lo")
	flags := (*uint16)(unsafe.Pointer(&req[unix.IFNAMSIZ]))
	*flags = unix.IFF_UP | unix.IFF_LOOPBACK | unix.IFF_RUNNING
	if _, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.SIOCSIFFLAGS, uintptr(unsafe.Pointer(&req[0]))); errno != 0 {
		return fmt.Errorf("loopback: %w", errno)
	}
	return nil
}

// systemSecrets are the folders of running services' sockets: /run holds
// the Docker socket and the SSH and D-Bus agents'.
func systemSecrets(string) []string { return []string{"/run", "/var/run"} }

// privateDirs are the folders of the private one: the overlay's upper and
// work folders, the command's /tmp, the outputs folder, the empty file that
// hides files, and the layer.
var privateDirs = []string{"upper", "work", "tmp", "outputs", "home", "layer"}

// osState is empty on Linux: the kernel keeps everything.
type osState struct{}

// prepare has nothing to do before the first command on Linux.
func (s *Sandbox) prepare() error { return nil }

// release has nothing to do on Linux: the kernel ended every process.
func (s *Sandbox) release() {}

// find returns the file the run wrote at rel, a clean relative path: in the
// overlay's upper layer, or in the outputs folder.
func (s *Sandbox) find(rel string) (string, bool) {
	var p string
	if o := filepath.Clean(filepath.FromSlash(s.outputs)); s.outputs != "" && (rel == o || strings.HasPrefix(rel, o+string(filepath.Separator))) {
		p = filepath.Join(s.dir, "outputs", strings.TrimPrefix(strings.TrimPrefix(rel, o), string(filepath.Separator)))
	} else {
		p = filepath.Join(s.dir, "upper", rel)
	}
	// Nothing on the way may be a link the run made: it would point this
	// process, not the sandboxed one, at a file of its choosing.
	if real, err := filepath.EvalSymlinks(p); err != nil || real != p {
		return "", false
	}
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	return p, true
}

// probeEnviron reads the environment of process pid (the sandbox's probe
// runs on macOS and Windows; this serves its tests).
func probeEnviron(pid int) error {
	return readable("/proc/" + strconv.Itoa(pid) + "/environ")
}

// probeSignal sends pid SIGURG, which the Go runtime ignores.
func probeSignal(pid int) error { return syscall.Kill(pid, syscall.SIGURG) }

// systemRefusals are the probe's attempts of this system's own: none.
var systemRefusals []string

// probeClone: the probe makes no clones here.
func probeClone(string, string) error { return errors.ErrUnsupported }

// seen: the command sees the project at its own path.
func (s *Sandbox) seen() string { return s.project }

// Remedy says what a person can do where Check fails here.
const Remedy = "allow unprivileged user namespaces and use a kernel with Landlock (docs/security.md#the-gate-sandbox says how)"
