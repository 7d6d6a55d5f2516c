package sandbox

// macOS: Seatbelt, applied by /usr/bin/sandbox-exec to a copy of the
// project, and a supervisor, agentos started again outside the profile,
// that ends every process the command started that it can find.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentos-dev/agentos/internal/shellquote"
	"io"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// sandboxExec applies a profile to itself and then executes the command,
// which keeps the profile, as does everything it starts. Apple calls it
// deprecated; it has shipped with every macOS since 10.5.
const sandboxExec = "/usr/bin/sandbox-exec"

// superviseEnv carries the supervisor's plan from agentos to the copy of
// itself that supervises the command; the supervisor removes it.
const superviseEnv = "AGENTOS_SANDBOX_SUPERVISE"

// privateDirs: the copy, the command's temporary folder and caches, the
// layer, and the files Path hands out.
var privateDirs = []string{"copy", "tmp", "caches", "layer", "reads"}

// platState is what the macOS sandbox adds to the copy's state.
type platState struct {
	probe        bool     // Check's probe runs here: no caches
	extraSecrets []string // more paths the profile denies (the probe's secret)
	reads        int      // files Path handed out
}

func (s *Sandbox) preparePlatform() error { return nil }

// release has nothing to do: the supervisor ended what it could find.
func (s *Sandbox) release() {}

// cloneEntry clones a file or a whole folder at once where the file system
// is APFS: no data is copied until either side changes. A link is cloned as
// a link.
var cloneEntry = func(src, dst string) error { return unix.Clonefile(src, dst, unix.CLONE_NOFOLLOW) }

// systemSecrets are macOS's own places of secrets under the home folder:
// the keychains, the cookies, and the folders of the coding agents' and
// editors' applications.
func systemSecrets(home string) []string {
	if home == "" {
		return nil
	}
	var out []string
	for _, p := range []string{
		"Library/Keychains", "Library/Cookies", "Library/Application Support/Claude",
		"Library/Application Support/Code", "Library/Application Support/Cursor",
	} {
		out = append(out, filepath.Join(home, filepath.FromSlash(p)))
	}
	return out
}

// supervision is the supervisor's plan.
type supervision struct {
	Profile string `json:"profile"`
	Workdir string `json:"workdir"`
	Command string `json:"command"`
	Server  int    `json:"server"` // the process whose end ends the command
}

// Command returns the command that runs shell command line in the sandbox,
// in the copy's folder that stands for workdir (a folder of the project),
// with the environment of this process less its secrets. The first call
// makes the copy. The process it starts is the supervisor, the leader of a
// new session without a terminal: when the command ends it kills every
// other process of that session and every descendant it still has; when it
// is asked to stop (the context's end) or the server dies, it does the same
// first. A process that starts a session of its own (setsid) and whose
// parent has ended is beyond its reach: it stays confined by the profile but
// may outlive the gate.
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
	profile, err := s.profile()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("sandbox: finding agentos itself: %w", err)
	}
	data, err := json.Marshal(supervision{Profile: profile, Workdir: dir, Command: command, Server: os.Getpid()})
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	env := append(childEnv(os.Environ()), s.plat.env...)
	env = append(env, extra...)
	cmd := exec.CommandContext(ctx, exe)
	cmd.Args = []string{"agentos-sandbox"}
	cmd.Env = append(env, superviseEnv+"="+string(data))
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	// The supervisor ends the command's processes before it exits; should
	// it not within WaitDelay, it is killed.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	return cmd, nil
}

// profile is the Seatbelt profile of this sandbox's commands.
func (s *Sandbox) profile() (string, error) {
	copyDir := s.copyDir()
	sb := seatbelt{Writable: []string{copyDir, filepath.Join(s.dir, "tmp"), filepath.Join(s.dir, "caches")}}
	for _, h := range s.hidden {
		if h = cleanRel(h); h != "" {
			sb.ReadOnly = append(sb.ReadOnly, filepath.Join(copyDir, filepath.FromSlash(h)))
		}
	}
	secrets := append(secretPaths(), s.project)
	sb.Unreadable = unreadable(append(secrets, s.plat.extraSecrets...))
	return sb.profile()
}

// runEnv sends the command's writes to its own folders: a temporary folder,
// empty caches for npm, pip and XDG, and Go caches of its own — a clone of
// the person's build cache (so a poisoned entry never reaches the person's
// builds) and an empty module cache filled from the person's downloaded
// modules, read as a proxy; nothing is downloaded.
func (s *Sandbox) runEnv(ctx context.Context) ([]string, error) {
	tmp, caches := filepath.Join(s.dir, "tmp"), filepath.Join(s.dir, "caches")
	own := filepath.Join(caches, "own")
	if err := os.MkdirAll(own, 0o700); err != nil {
		return nil, err
	}
	env := []string{
		"TMPDIR=" + tmp, "TMP=" + tmp, "TEMP=" + tmp,
		"XDG_CACHE_HOME=" + own, "npm_config_cache=" + filepath.Join(own, "npm"), "PIP_CACHE_DIR=" + filepath.Join(own, "pip"),
		"GOTOOLCHAIN=local", "GOTELEMETRY=off",
	}
	proxy := "off"
	lower := map[string]string{}
	if !s.plat.probe {
		for _, c := range personCaches(ctx) {
			lower[c.Env] = c.Lower
		}
	}
	for _, name := range []string{"GOCACHE", "GOMODCACHE"} {
		dst := filepath.Join(caches, name)
		if name == "GOCACHE" && lower[name] != "" {
			if err := cloneEntry(realPath(lower[name]), dst); err != nil {
				_ = os.RemoveAll(dst)
			}
		}
		if err := os.MkdirAll(dst, 0o700); err != nil {
			return nil, err
		}
		if name == "GOMODCACHE" && lower[name] != "" {
			dl := realPath(filepath.Join(lower[name], "cache", "download"))
			if fi, err := os.Stat(dl); err == nil && fi.IsDir() {
				proxy = (&url.URL{Scheme: "file", Path: dl}).String()
			}
		}
		env = append(env, name+"="+dst)
	}
	return append(env, "GOPROXY="+proxy), nil
}

// find returns a copy, made for the caller, of the file the run wrote at
// rel: opened without following any link, from the sandbox's own folder
// down, so that a process of the run still alive cannot swap a link in
// between the check and the reading.
func (s *Sandbox) find(rel string) (string, bool) {
	r, m, ok := s.written(rel)
	if !ok {
		return "", false
	}
	f, fi, err := openBeneath(s.dir, "copy/"+r)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if !m.written(r, fi) {
		return "", false
	}
	s.plat.mu.Lock()
	s.plat.reads++
	n := s.plat.reads
	s.plat.mu.Unlock()
	dir := filepath.Join(s.dir, "reads", strconv.Itoa(n))
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", false
	}
	p := filepath.Join(dir, path.Base(r))
	out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", false
	}
	_, err = io.Copy(out, f)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", false
	}
	return p, true
}

// openBeneath opens the regular file at rel (with slashes) beneath root,
// following no link on the way or at the end.
func openBeneath(root, rel string) (*os.File, fs.FileInfo, error) {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	parts := strings.Split(rel, "/")
	for i, part := range parts {
		flags := unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if i < len(parts)-1 {
			flags |= unix.O_DIRECTORY
		} else {
			flags |= unix.O_NONBLOCK // a pipe the run left must not hang us
		}
		next, err := unix.Openat(fd, part, flags, 0)
		unix.Close(fd)
		if err != nil {
			return nil, nil, err
		}
		fd = next
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, nil, err
	}
	f := os.NewFile(uintptr(fd), filepath.Join(root, filepath.FromSlash(rel)))
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, errors.New("not a regular file")
	}
	return f, fi, nil
}

// shellQuote quotes s for /bin/sh.
func shellQuote(s string) string { return shellquote.POSIX(s) }

// probeExecutable puts a clone of this binary (a copy where there are no
// clones) where the probe may run it: agentos usually runs from the
// project's .agentos/bin, which the profile forbids.
func (s *Sandbox) probeExecutable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	exe = realPath(exe)
	dst := filepath.Join(s.dir, "caches", "agentos-probe")
	if err := cloneEntry(exe, dst); err == nil {
		return dst, nil
	}
	_ = os.Remove(dst)
	fi, err := os.Stat(exe)
	if err != nil {
		return "", err
	}
	return dst, copyFile(exe, dst, fi)
}

// probeEnviron reads the arguments and environment of process pid, as ps -E
// does: KERN_PROCARGS2.
func probeEnviron(pid int) error {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err == nil && len(b) == 0 {
		err = errors.New("empty")
	}
	return err
}

// probeSignal sends pid SIGURG, which the Go runtime ignores.
func probeSignal(pid int) error { return unix.Kill(pid, unix.SIGURG) }

// systemRefusals: APFS clones are macOS's own way to give a file a copy.
var systemRefusals = []string{tryClone}

// probeClone clones src to dst; where the file system has no clones (not
// APFS) there is nothing to try.
func probeClone(src, dst string) error {
	err := unix.Clonefile(src, dst, 0)
	if errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EXDEV) {
		return errors.ErrUnsupported
	}
	return err
}

// checked runs the probe once per process: where sandbox-exec cannot apply
// a profile (agentos itself runs inside another sandbox, or a later macOS
// dropped it) or the profile lets the probe do what it must not, no
// command runs sandboxed.
var checked = sync.OnceValue(func() error {
	if fi, err := os.Stat(sandboxExec); err != nil || fi.IsDir() {
		return fmt.Errorf("%s is missing", sandboxExec)
	}
	return checkByProbe()
})

func init() {
	if v, ok := os.LookupEnv(superviseEnv); ok {
		runSupervisor(v)
	}
	if v, ok := os.LookupEnv(probeEnv); ok {
		runProbe(v)
	}
}

// runSupervisor is agentos started as the supervisor: it starts the command
// under the profile, in its own session, and ends every process it can find
// of that session when the command ends, when it is asked to stop, or when
// the server is gone. It exits with the command's status and never returns.
func runSupervisor(spec string) {
	fail := func(err error) {
		fmt.Fprintf(os.Stderr, "agentos sandbox: %v\n", err)
		os.Exit(initExitCode)
	}
	var p supervision
	if err := json.Unmarshal([]byte(spec), &p); err != nil {
		fail(fmt.Errorf("reading the plan: %w", err))
	}
	// Watch the server before anything runs, then make sure it was still
	// there: it is this process's parent until it dies.
	kq, err := unix.Kqueue()
	if err != nil {
		fail(fmt.Errorf("watching the server: %w", err))
	}
	var ev [1]unix.Kevent_t
	unix.SetKevent(&ev[0], p.Server, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	ev[0].Fflags = unix.NOTE_EXIT
	if _, err := unix.Kevent(kq, ev[:], nil, nil); err != nil || os.Getppid() != p.Server {
		fail(errors.New("the server is gone"))
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	go func() {
		sig := <-stop
		killSession()
		os.Exit(128 + int(sig.(syscall.Signal)))
	}()
	go func() {
		var out [1]unix.Kevent_t
		for {
			n, err := unix.Kevent(kq, nil, out[:], nil)
			if errors.Is(err, unix.EINTR) {
				continue
			}
			if err != nil || n > 0 {
				killSession()
				os.Exit(initExitCode)
			}
		}
	}()
	// Only stdin, stdout and stderr go to the command: a descriptor the
	// server inherited without close-on-exec could lead outside.
	if entries, err := os.ReadDir("/dev/fd"); err == nil {
		for _, e := range entries {
			if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
				unix.CloseOnExec(fd)
			}
		}
	}
	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, superviseEnv+"=") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command(sandboxExec, "-p", p.Profile, "/bin/sh", "-c", p.Command)
	cmd.Dir, cmd.Env = p.Workdir, env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fail(fmt.Errorf("starting %s: %w", sandboxExec, err))
	}
	err = cmd.Wait()
	killSession()
	var exitErr *exec.ExitError
	switch {
	case err == nil:
		os.Exit(0)
	case errors.As(err, &exitErr):
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			os.Exit(128 + int(ws.Signal()))
		}
		os.Exit(exitErr.ExitCode())
	default:
		fail(err)
	}
}

// sZombie is a process that has ended and waits for its parent (SZOMB).
const sZombie = 5

// killSession kills every process of this process's session (it is the
// session's leader) and every descendant it still has, itself excepted,
// until none is left. A process that started a session of its own and
// whose parent has ended is found by neither.
func killSession() {
	self := os.Getpid()
	for range 100 {
		victims := map[int]bool{}
		procs, err := unix.SysctlKinfoProcSlice("kern.proc.session", self)
		if err != nil {
			procs, _ = unix.SysctlKinfoProcSlice("kern.proc.pgrp", self)
		}
		for _, kp := range procs {
			if pid := int(kp.Proc.P_pid); pid != self && kp.Proc.P_stat != sZombie {
				victims[pid] = true
			}
		}
		if all, err := unix.SysctlKinfoProcSlice("kern.proc.all"); err == nil {
			parent, zombie := map[int]int{}, map[int]bool{}
			for _, kp := range all {
				parent[int(kp.Proc.P_pid)] = int(kp.Eproc.Ppid)
				zombie[int(kp.Proc.P_pid)] = kp.Proc.P_stat == sZombie
			}
			for pid := range parent {
				for q, n := parent[pid], 0; q > 1 && n < 256; q, n = parent[q], n+1 {
					if q == self {
						if !zombie[pid] {
							victims[pid] = true
						}
						break
					}
				}
			}
		}
		if len(victims) == 0 {
			return
		}
		for pid := range victims {
			_ = unix.Kill(pid, unix.SIGKILL)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Remedy says what a person can do where Check fails here.
const Remedy = "run agentos where /usr/bin/sandbox-exec works: not inside another sandbox, which Seatbelt does not nest in (docs/security.md#the-gate-sandbox says what the probe checks)"
