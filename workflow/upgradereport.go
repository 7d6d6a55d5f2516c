package workflow

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/workflow/gates"
)

// UpgradeReport is what `agentos upgrade` writes to
// .agentos/state/upgrade/<id>.json, and what agentos_upgrade_v1's gates read.
type UpgradeReport struct {
	ID          string        `json:"id"`
	FromVersion string        `json:"from_version"`
	ToVersion   string        `json:"to_version"`
	StartedAt   time.Time     `json:"started_at"`
	FinishedAt  time.Time     `json:"finished_at,omitzero"`
	Status      string        `json:"status"` // running, succeeded, failed, rolled_back
	Steps       []UpgradeStep `json:"steps"`
}

// UpgradeStep is one step of an upgrade: preflight, backup, update, validate or finalize.
type UpgradeStep struct {
	Name    string    `json:"name"`
	Status  string    `json:"status"` // ok, failed, skipped
	Message string    `json:"message,omitempty"`
	At      time.Time `json:"at"`
}

// UpgradeReportDir is where upgrade reports live, relative to the project root.
const UpgradeReportDir = ".agentos/state/upgrade"

func init() {
	err := gates.Register("upgrade_report", gates.Extension{
		Keys:     []string{"step"},
		Required: []string{"step"},
		Run:      runUpgradeReport,
	})
	if err != nil {
		panic(err)
	}
}

// runUpgradeReport passes when the upgrade report records the step as done.
// The report is the session's `report` input, else the newest one.
func runUpgradeReport(_ context.Context, c gates.Check, env gates.Env) gates.Result {
	step := c.Params["step"]
	fail := func(remedy, format string, args ...any) gates.Result {
		return gates.Result{Type: c.Type, Message: fmt.Sprintf(format, args...), Remediation: remedy}
	}
	path, err := upgradeReportPath(env.Root, env.Vars["report"])
	if err != nil {
		return fail("run `agentos upgrade` (show the user `agentos upgrade --dry-run` first)", "%v", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fail("run `agentos upgrade`", "cannot read the upgrade report: %v", err)
	}
	var r UpgradeReport
	if err := json.Unmarshal(data, &r); err != nil {
		return fail("run `agentos upgrade` again; the report is damaged", "the upgrade report %s is not valid JSON", filepath.Base(path))
	}
	for _, s := range r.Steps {
		if s.Name != step {
			continue
		}
		switch {
		case s.Status == "ok" && r.Status != "rolled_back":
			return gates.Result{Type: c.Type, Passed: true, Message: fmt.Sprintf("upgrade %s recorded %s as done", r.ID, step), Details: s}
		case r.Status == "rolled_back":
			return fail("read the failure to the user, fix its cause and run `agentos upgrade` again", "upgrade %s was rolled back: %s", r.ID, failure(r))
		default:
			return fail("fix the cause and run `agentos upgrade` again", "upgrade %s step %s is %s: %s", r.ID, step, s.Status, s.Message)
		}
	}
	return fail("wait for `agentos upgrade` to reach this step, or run it", "upgrade %s has not recorded the %s step yet (status %s)", r.ID, step, r.Status)
}

func failure(r UpgradeReport) string {
	for _, s := range r.Steps {
		if s.Status == "failed" {
			return s.Name + ": " + s.Message
		}
	}
	return "no step recorded a failure"
}

// upgradeReportPath returns the named report, or the newest.
func upgradeReportPath(root, id string) (string, error) {
	dir := filepath.Join(root, filepath.FromSlash(UpgradeReportDir))
	if id != "" {
		if strings.ContainsAny(id, `/\`) || strings.Contains(id, "..") {
			return "", fmt.Errorf("report %q is not a report id", id)
		}
		return filepath.Join(dir, id+".json"), nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return "", fmt.Errorf("no upgrade report in %s: no upgrade has run", UpgradeReportDir)
	}
	var names []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return "", fmt.Errorf("no upgrade report in %s: no upgrade has run", UpgradeReportDir)
	}
	sort.Strings(names) // ids start with a UTC timestamp
	return filepath.Join(dir, names[len(names)-1]), nil
}
