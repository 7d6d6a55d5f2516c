//go:build darwin || windows

package sandbox

// What macOS and Windows share: no overlay, so the command runs in a copy
// of the project made in the private folder before the first command, the
// layer put over it; a record of the copy's files tells what the run wrote.

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// osState is the copy: made once, before the first command runs.
type osState struct {
	mu    sync.Mutex
	done  bool
	err   error
	marks marks    // the copy's files before any command ran
	env   []string // the variables that send the command's writes to its own folders
	platState
}

// copyDir is where the copy of the project is.
func (s *Sandbox) copyDir() string { return filepath.Join(s.dir, "copy") }

// seen: the command sees the project at its copy's path.
func (s *Sandbox) seen() string { return s.copyDir() }

// prepare refuses a private folder inside the project: the copy would hold
// itself, and the profile that hides the real project would hide it too.
func (s *Sandbox) prepare() error {
	if rel, err := filepath.Rel(s.project, s.dir); err == nil && cleanRel(rel) != "" {
		return fmt.Errorf("the temporary folder %s is inside the project; set TMPDIR (TEMP on Windows) elsewhere", s.dir)
	}
	return s.preparePlatform()
}

// ready makes the copy the first time it is asked, and says whether it
// could: the project, less the hidden folders and the outputs folder (both
// then made empty), with the layer over it and the removed files gone.
func (s *Sandbox) ready(ctx context.Context) error {
	s.plat.mu.Lock()
	defer s.plat.mu.Unlock()
	if s.plat.done {
		return s.plat.err
	}
	s.plat.done = true
	s.plat.err = s.makeCopy(ctx)
	if s.plat.err != nil {
		s.plat.err = fmt.Errorf("sandbox: copying the project: %w", s.plat.err)
	}
	return s.plat.err
}

func (s *Sandbox) makeCopy(ctx context.Context) error {
	dst := s.copyDir()
	skip := append([]string{}, s.hidden...)
	if s.outputs != "" {
		skip = append(skip, s.outputs)
	}
	if err := copyTree(s.project, dst, skip, cloneEntry); err != nil {
		return err
	}
	for _, h := range s.hidden {
		h = cleanRel(h)
		if fi, err := os.Stat(filepath.Join(s.project, filepath.FromSlash(h))); h != "" && err == nil && fi.IsDir() {
			if err := ensureDir(dst, h); err != nil {
				return err
			}
		}
	}
	if o := cleanRel(s.outputs); o != "" {
		if err := ensureDir(dst, o); err != nil {
			return err
		}
	}
	if err := applyLayer(s.Layer(), dst); err != nil {
		return fmt.Errorf("the layer: %w", err)
	}
	for _, rel := range s.absent {
		if err := removeBeneathRoot(dst, rel); err != nil {
			return fmt.Errorf("removing %s from the copy: %w", rel, err)
		}
	}
	m, err := recordMarks(dst)
	if err != nil {
		return err
	}
	s.plat.marks = m
	s.plat.env, err = s.runEnv(ctx)
	return err
}

// copied returns the record of the copy's files, nil before any command.
func (s *Sandbox) copied() marks {
	s.plat.mu.Lock()
	defer s.plat.mu.Unlock()
	if s.plat.err != nil {
		return nil
	}
	return s.plat.marks
}

// inCopy returns the folder of the copy that stands for workdir, a folder
// of the project named by its real path or another.
func (s *Sandbox) inCopy(workdir string) (string, error) {
	for _, w := range []string{filepath.Clean(workdir), realPath(workdir)} {
		rel, err := filepath.Rel(s.project, w)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			continue
		}
		r := "."
		if rel != "." {
			if r = cleanRel(rel); r == "" {
				continue
			}
		}
		if dir, ok := plainDirs(s.copyDir(), r); ok {
			return dir, nil
		}
		return "", fmt.Errorf("sandbox: %s is not a folder of the project's copy", workdir)
	}
	return "", fmt.Errorf("sandbox: %s is not inside the project %s", workdir, s.project)
}

// written is find's judgement, the same on both systems: rel must not be
// in a hidden folder, and must be a file the run created or changed.
func (s *Sandbox) written(rel string) (string, marks, bool) {
	r := cleanRel(rel)
	if r == "" || within(r, s.hidden) {
		return "", nil, false
	}
	m := s.copied()
	if m == nil {
		return "", nil, false
	}
	return r, m, true
}

// checkByProbe makes a sandbox over a scratch project and runs the probe in
// it (probe.go): the sandbox is used only if it refuses every attempt it
// must refuse and allows the ones it must allow. The same attempts are made
// outside first, where they must succeed.
func checkByProbe() error {
	scratch, err := os.MkdirTemp("", "agentos-sandbox-check-")
	if err != nil {
		return err
	}
	scratch = realPath(scratch)
	defer os.RemoveAll(scratch)
	project := filepath.Join(scratch, "project")
	files := map[string]string{
		filepath.Join(project, "main.go"):                             "package main\n",
		filepath.Join(project, ".agentos", ".cache", "auth_token"):    "token\n",
		filepath.Join(project, ".agentos", "state", "approvals", "x"): "approved\n",
		filepath.Join(scratch, "secret"):                              "PRIVATE KEY\n",
	}
	for p, body := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			return err
		}
	}
	for _, d := range []string{"outside", "control"} {
		if err := os.Mkdir(filepath.Join(scratch, d), 0o700); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("the sandbox cannot be tested here: %w", err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	p := probePlan{
		Own:     "main.go",
		Secret:  filepath.Join(scratch, "secret"),
		Real:    filepath.Join(project, ".agentos", ".cache", "auth_token"),
		Outside: filepath.Join(scratch, "outside"),
		Addr:    ln.Addr().String(),
		Pid:     os.Getpid(),
	}
	if err := probeControl(p, filepath.Join(scratch, "control")); err != nil {
		return err
	}
	s, err := New(project, Options{Hidden: []string{".agentos/state"}, Outputs: ".agentos/.cache"})
	if err != nil {
		return err
	}
	defer s.Close()
	s.plat.probe = true
	s.plat.extraSecrets = []string{p.Secret}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := s.ready(ctx); err != nil {
		return err
	}
	exe, err := s.probeExecutable()
	if err != nil {
		return err
	}
	data, err := json.Marshal(p)
	if err != nil {
		return err
	}
	cmd, err := s.command(ctx, project, shellQuote(exe), []string{probeEnv + "=" + string(data)})
	if err != nil {
		return err
	}
	out, err := cmd.CombinedOutput()
	if verdict := judgeProbe(out); verdict != nil {
		if err != nil && ctx.Err() != nil {
			return fmt.Errorf("the sandbox's probe did not finish in time")
		}
		return verdict
	}
	return nil
}
