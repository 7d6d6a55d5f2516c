package sandbox

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// probeSetup makes what a probe tries: a copy with a file, a secret, a real
// project's file, a folder outside and a listener; the process is this one.
func probeSetup(t *testing.T) (probePlan, string) {
	t.Helper()
	work, scratch := t.TempDir(), t.TempDir()
	writeTree(t, work, map[string]string{"main.go": "package main\n"})
	writeTree(t, scratch, map[string]string{"secret": "PRIVATE KEY", "project/.agentos/.cache/auth_token": "token"})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	if err := os.Mkdir(filepath.Join(scratch, "outside"), 0o700); err != nil {
		t.Fatal(err)
	}
	return probePlan{
		Own:     "main.go",
		Secret:  filepath.Join(scratch, "secret"),
		Real:    filepath.Join(scratch, "project/.agentos/.cache/auth_token"),
		Outside: filepath.Join(scratch, "outside"),
		Addr:    ln.Addr().String(),
		Pid:     os.Getpid(),
	}, work
}

// Unconfined, every attempt succeeds: the probe can see what a sandbox must
// refuse, so its refusals mean something.
func TestProbeSucceedsWhereNothingConfinesIt(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		t.Skip("no probe on this system")
	}
	p, work := probeSetup(t)
	res := probeAttempts(p, work)
	for _, name := range append(append([]string{}, mustAllow...), mustRefuse...) {
		if why, ok := res[name]; !ok || why != "" {
			t.Errorf("%s: %q (tried: %v)", name, why, ok)
		}
	}
	if err := probeControl(p, work); err != nil {
		t.Error(err)
	}
	if _, err := os.Lstat(filepath.Join(work, "probe-link")); err == nil {
		t.Error("the probe left its link behind")
	}
}

func probeOutput(t *testing.T, res map[string]string) []byte {
	t.Helper()
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return []byte("some noise\n" + probeMarker + string(data) + "\n")
}

func confined() map[string]string {
	res := map[string]string{}
	for _, n := range mustAllow {
		res[n] = ""
	}
	for _, n := range mustRefuse {
		res[n] = "operation not permitted"
	}
	return res
}

func TestJudgeProbe(t *testing.T) {
	if err := judgeProbe(probeOutput(t, confined())); err != nil {
		t.Errorf("a confined probe was judged open: %v", err)
	}
	open := confined()
	open[tryEnviron] = ""
	open[tryConnect] = ""
	err := judgeProbe(probeOutput(t, open))
	if err == nil || !strings.Contains(err.Error(), tryEnviron) || !strings.Contains(err.Error(), tryConnect) {
		t.Errorf("an open sandbox was not named: %v", err)
	}
	blocked := confined()
	blocked[tryWriteCopy] = "operation not permitted"
	if err := judgeProbe(probeOutput(t, blocked)); err == nil || !strings.Contains(err.Error(), "could not "+tryWriteCopy) {
		t.Errorf("a sandbox that blocks its own copy was not named: %v", err)
	}
	missing := confined()
	delete(missing, trySecret)
	if err := judgeProbe(probeOutput(t, missing)); err == nil || !strings.Contains(err.Error(), "not tried") {
		t.Errorf("an attempt the probe did not make passed: %v", err)
	}
	for _, out := range []string{"", "sandbox-exec: sandbox_apply: Operation not permitted\n", probeMarker + "{not json"} {
		if err := judgeProbe([]byte(out)); err == nil {
			t.Errorf("output %q was judged a sandbox", out)
		}
	}
}
