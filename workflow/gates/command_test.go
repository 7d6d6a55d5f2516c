package gates

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
)

func skipWindows(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("uses sh syntax")
	}
}

func TestCommand(t *testing.T) {
	skipWindows(t)
	root := project(t, map[string]string{"spec/marker.txt": "marker-content\n"})
	env := Env{Root: root, Vars: map[string]string{"spec_dir": "spec", "test_command": "echo from-var"}}
	tests := []struct {
		name     string
		check    Check
		pass     bool
		exitCode int
		message  string
		output   string
	}{
		{"exit 0", Check{Command: "echo hello"}, true, 0, "The command succeeded in", "hello\n"},
		{"whole command from a var", Check{Command: "{test_command} && echo again"}, true, 0, "succeeded", "from-var\nagain\n"},
		{"non-zero exit keeps stderr", Check{Command: "echo out; echo oops >&2; exit 3"}, false, 3, "The command exited with status 3: echo out; echo oops >&2; exit 3.", "oops"},
		{"workdir with placeholder", Check{Command: "cat marker.txt", Workdir: "{spec_dir}"}, true, 0, "succeeded", "marker-content\n"},
		{"timeout", Check{Command: "echo started; sleep 5", Timeout: 200 * time.Millisecond}, false, -1, "The command timed out after 200ms and was stopped", "started"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.check.Type = TypeCommand
			start := time.Now()
			r := runCheck(t, tt.check, env)
			if r.Passed != tt.pass {
				t.Fatalf("passed = %v: %+v", r.Passed, r)
			}
			d := r.Details.(CommandDetails)
			if d.ExitCode != tt.exitCode {
				t.Errorf("exit code %d, want %d", d.ExitCode, tt.exitCode)
			}
			contains(t, "message", r.Message, tt.message)
			contains(t, "output", r.Output, tt.output)
			if time.Since(start) > 3*time.Second {
				t.Errorf("took %s", time.Since(start))
			}
		})
	}
}

func TestCommandRefusals(t *testing.T) {
	root := project(t, map[string]string{"file.txt": "x"})
	env := Env{Root: root, Vars: map[string]string{"d": "file.txt"}}
	tests := []struct {
		check   Check
		message string
	}{
		{Check{Type: TypeCommand, Command: "echo {nope}"}, "unknown placeholder {nope}"},
		{Check{Type: TypeCommand, Command: "echo", Workdir: "../.."}, "outside the project"},
		{Check{Type: TypeCommand, Command: "echo", Workdir: "missing"}, "workdir missing is not an existing folder"},
		{Check{Type: TypeCommand, Command: "echo", Workdir: "{d}"}, "workdir file.txt is not an existing folder"},
		{Check{Type: TypeCommand, Command: "echo", Timeout: 2 * time.Hour}, "timeout 2h0m0s is out of range"},
	}
	for _, tt := range tests {
		r := runCheck(t, tt.check, env)
		if r.Passed {
			t.Errorf("%+v passed", tt.check)
		}
		contains(t, "message", r.Message, tt.message)
	}
}

func TestCommandOutputTail(t *testing.T) {
	skipWindows(t)
	root := project(t, nil)
	// 10,000 bytes of "é" (two bytes each), then a marker: the tail is cut on
	// a rune boundary and ends with the marker.
	r := runCheck(t, Check{Type: TypeCommand, Command: `i=0; while [ $i -lt 5000 ]; do printf 'é'; i=$((i+1)); done; echo; echo END`}, Env{Root: root})
	if !r.Passed {
		t.Fatalf("%+v", r)
	}
	d := r.Details.(CommandDetails)
	if !d.OutputCut || d.OutputBytes != 10005 {
		t.Errorf("details %+v", d)
	}
	if !strings.HasSuffix(r.Output, "\nEND\n") || len(r.Output) > OutputTailBytes || !strings.HasPrefix(r.Output, "é") {
		t.Errorf("output tail: %d bytes, starts %q, ends %q", len(r.Output), r.Output[:4], r.Output[len(r.Output)-6:])
	}
}

func TestCommandCancelled(t *testing.T) {
	skipWindows(t)
	root := project(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(150*time.Millisecond, cancel)
	c := Check{Type: TypeCommand, Command: "sleep 5"}
	start := time.Now()
	r := c.Run(ctx, Env{Root: root})
	assertWellFormed(t, c, r)
	if r.Passed || !strings.Contains(r.Message, "cancelled") {
		t.Errorf("%+v", r)
	}
	if time.Since(start) > 3*time.Second {
		t.Errorf("took %s", time.Since(start))
	}
	// A context already done: nothing runs.
	r = c.Run(ctx, Env{Root: root})
	if r.Passed || !strings.Contains(r.Message, "cancelled before it ran") {
		t.Errorf("%+v", r)
	}
}

func TestTailBuffer(t *testing.T) {
	b := &tailBuffer{max: 8}
	for _, s := range []string{"abc", "defgh", "ijklmnopqrstuvwxyz", "12"} {
		b.Write([]byte(s))
	}
	if got := b.String(); got != "uvwxyz12" || b.total != 28 {
		t.Errorf("tail %q, total %d", got, b.total)
	}
}
