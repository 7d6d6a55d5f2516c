package sandbox

// Where the sandbox is made of a system's own means (Seatbelt on macOS, an
// AppContainer on Windows) Check does not take it on trust: it starts agentos
// again inside one, as a probe that tries what the sandbox must allow and
// what it must refuse, and the sandbox counts only when every answer is the
// right one. The same attempts, made outside first, must all succeed, or
// the probe would prove nothing.

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// probeEnv carries the probe's plan to the copy of agentos that is the
// probe.
const probeEnv = "AGENTOS_SANDBOX_PROBE"

// probeMarker starts the line on which the probe reports.
const probeMarker = "agentos-sandbox-probe: "

// probePlan is what the probe tries.
type probePlan struct {
	Own     string `json:"own"`     // a file of its copy, relative to its working folder: it must read it
	Secret  string `json:"secret"`  // a file it must not read, nor reach through a hard link
	Real    string `json:"real"`    // a file of the real project it must not read
	Outside string `json:"outside"` // a folder it must not write in
	Addr    string `json:"addr"`    // a TCP listener on the machine's loopback it must not reach
	Pid     int    `json:"pid"`     // a process outside whose environment it must not read, nor signal
}

// The attempts: those the sandbox must allow, and those it must refuse.
const (
	tryWriteCopy = "write in its copy of the project"
	tryWriteTemp = "write in its temporary folder"
	tryReadCopy  = "read its copy of the project"
	tryConnect   = "reach the machine's loopback"
	trySecret    = "read a credential file"
	tryLink      = "read a credential file through a hard link"
	tryClone     = "read a credential file through a clone"
	tryReal      = "read the real project"
	tryWrite     = "write outside its folders"
	tryEnviron   = "read another process's environment"
	trySignal    = "signal another process"
)

// mustAllow and mustRefuse are always tried; systemRefusals (this
// system's own) are judged when the probe could try them.
var (
	mustAllow  = []string{tryWriteCopy, tryWriteTemp, tryReadCopy}
	mustRefuse = []string{trySecret, tryLink, tryReal, tryWrite, tryConnect, tryEnviron, trySignal}
)

// probeAttempts makes every attempt of p, with work as its working folder,
// and returns, for each, "" when it succeeded and why not otherwise. Nothing
// it does harms anything: it writes only new files named probe-*, opens a
// connection it closes at once, and the signal it sends (probeSignal) is one
// a Go program ignores.
func probeAttempts(p probePlan, work string) map[string]string {
	res := map[string]string{}
	note := func(name string, err error) {
		if err != nil {
			res[name] = err.Error()
			if res[name] == "" {
				res[name] = "failed"
			}
		} else {
			res[name] = ""
		}
	}
	note(tryWriteCopy, os.WriteFile(filepath.Join(work, "probe-written"), []byte("x"), 0o600))
	f, err := os.CreateTemp("", "probe-")
	if err == nil {
		f.Close()
		os.Remove(f.Name())
	}
	note(tryWriteTemp, err)
	note(tryReadCopy, readable(filepath.Join(work, p.Own)))
	note(trySecret, readable(p.Secret))
	note(tryReal, readable(p.Real))
	note(tryWrite, os.WriteFile(filepath.Join(p.Outside, "probe-outside"), []byte("x"), 0o600))
	link := filepath.Join(work, "probe-link")
	if err := os.Link(p.Secret, link); err != nil {
		note(tryLink, err)
	} else {
		note(tryLink, readable(link))
		os.Remove(link)
	}
	clone := filepath.Join(work, "probe-clone")
	if err := probeClone(p.Secret, clone); !errors.Is(err, errors.ErrUnsupported) {
		if err != nil {
			note(tryClone, err)
		} else {
			note(tryClone, readable(clone))
			os.Remove(clone)
		}
	}
	c, err := net.DialTimeout("tcp", p.Addr, 3*time.Second)
	if err == nil {
		c.Close()
	}
	note(tryConnect, err)
	note(tryEnviron, probeEnviron(p.Pid))
	note(trySignal, probeSignal(p.Pid))
	return res
}

// readable reads the file at path, and fails also on an empty one.
func readable(path string) error {
	b, err := os.ReadFile(path)
	if err == nil && len(b) == 0 {
		err = errors.New("empty")
	}
	return err
}

// runProbe is agentos started as the probe: it makes the attempts and
// reports them on one line of its standard output. It never returns.
func runProbe(spec string) {
	var p probePlan
	if err := json.Unmarshal([]byte(spec), &p); err != nil {
		fmt.Fprintf(os.Stderr, "agentos sandbox probe: %v\n", err)
		os.Exit(initExitCode)
	}
	data, _ := json.Marshal(probeAttempts(p, "."))
	fmt.Println(probeMarker + string(data))
	os.Exit(0)
}

// probeControl makes the refused attempts outside the sandbox, in the
// folder work, where they must all succeed (p.Pid is then this process);
// the one that does not is named.
func probeControl(p probePlan, work string) error {
	res := probeAttempts(p, work)
	var failed []string
	for _, name := range append(append([]string{}, mustRefuse...), systemRefusals...) {
		if why, ok := res[name]; ok && why != "" {
			failed = append(failed, name+" ("+why+")")
		} else if !ok && !slices.Contains(systemRefusals, name) {
			failed = append(failed, name+" (not tried)")
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("the sandbox cannot be tested here: outside it, the probe could not %s", strings.Join(failed, "; "))
	}
	return nil
}

// judgeProbe reads the probe's output and says what the sandbox failed to
// allow or to refuse; nil when it did both.
func judgeProbe(out []byte) error {
	var res map[string]string
	for _, line := range strings.Split(string(out), "\n") {
		if i := strings.Index(line, probeMarker); i >= 0 {
			if err := json.Unmarshal([]byte(strings.TrimSpace(line[i+len(probeMarker):])), &res); err != nil {
				return fmt.Errorf("the sandbox's probe answered what cannot be read: %v", err)
			}
		}
	}
	if res == nil {
		out := strings.TrimSpace(string(out))
		if len(out) > 400 {
			out = out[:400] + "…"
		}
		if out == "" {
			out = "nothing"
		}
		return fmt.Errorf("the sandbox's probe did not answer; it printed %s", out)
	}
	var blocked, open []string
	for _, name := range mustAllow {
		why, ok := res[name]
		if !ok {
			why = "not tried"
		}
		if why != "" || !ok {
			blocked = append(blocked, name+" ("+why+")")
		}
	}
	for _, name := range mustRefuse {
		if why, ok := res[name]; !ok {
			open = append(open, name+" (not tried)")
		} else if why == "" {
			open = append(open, name)
		}
	}
	for _, name := range systemRefusals {
		if why, ok := res[name]; ok && why == "" {
			open = append(open, name)
		}
	}
	sort.Strings(open)
	var msgs []string
	if len(open) > 0 {
		msgs = append(msgs, "a sandboxed command could "+strings.Join(open, ", "))
	}
	if len(blocked) > 0 {
		msgs = append(msgs, "a sandboxed command could not "+strings.Join(blocked, "; "))
	}
	if len(msgs) > 0 {
		return errors.New(strings.Join(msgs, "; and "))
	}
	return nil
}
