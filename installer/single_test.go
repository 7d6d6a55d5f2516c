package installer

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentos-dev/agentos/agentconfig"
)

// clineFile is Cline's user config in env: one agentos entry for all projects.
func clineFile(env *agentconfig.Env) string {
	return filepath.Join(env.Home, ".cline", "data", "settings", "cline_mcp_settings.json")
}

// clineRoot is the project Cline's one agentos entry serves.
func clineRoot(t *testing.T, env *agentconfig.Env) string {
	t.Helper()
	e, ok, err := agentconfig.LookupEntry(agentconfig.JSON, []byte(readTestFile(t, clineFile(env))), []string{"mcpServers"}, agentconfig.ServerName, false)
	if err != nil || !ok {
		t.Fatalf("no agentos entry in Cline's file: %v", err)
	}
	root, _ := e["env"].(map[string]any)[agentconfig.EnvRoot].(string)
	return root
}

func clineStep(t *testing.T, r *Report) Step {
	t.Helper()
	for _, s := range r.Steps {
		if s.Client == "cline" && strings.Contains(s.Path, "cline_mcp_settings.json") {
			return s
		}
	}
	t.Fatalf("no step for Cline's config in %+v", r.Steps)
	return Step{}
}

// Cline keeps one agentos entry for all projects. Installing it in a second
// project, while the first still exists, fails and writes nothing unless
// --replace is given; with it the entry moves and the report says from
// where. Installing again in the same project changes nothing, and an
// entry whose project folder is gone is replaced without asking.
func TestSingleEntryIsNotTakenWithoutReplace(t *testing.T) {
	t.Parallel()
	env := testEnv(t)
	a, binA := newProject(t, map[string]string{"main.go": "package main\n"})
	b, binB := newProject(t, map[string]string{"main.go": "package main\n"})
	installWith(t, Options{Dir: a, BinaryPath: binA, Agents: []string{"cline"}, Env: env})
	if s := clineStep(t, installWith(t, Options{Dir: a, BinaryPath: binA, Agents: []string{"cline"}, Env: env})); s.Action != Unchanged {
		t.Errorf("reinstall in a: Cline's config %s", s.Action)
	}
	if _, err := os.Stat(agentconfig.SingleRecord(mustPaths(t, a))); err != nil {
		t.Errorf("a does not record having Cline's entry: %v", err)
	}

	clineBefore, treeBefore := readTestFile(t, clineFile(env)), snapshot(t, b)
	optsB := Options{Dir: b, BinaryPath: binB, Agents: []string{"cline"}, Env: env, Yes: true}
	for name, run := range map[string]func() error{
		"install": func() error { _, err := Install(context.Background(), optsB); return err },
		"preview": func() error { _, err := Preview(context.Background(), optsB); return err },
	} {
		err := run()
		var te *agentconfig.TakeoverError
		if !errors.As(err, &te) || len(te.Takeovers) != 1 || te.Takeovers[0].From.Root != a {
			t.Fatalf("%s in b: err = %v", name, err)
		}
		for _, want := range []string{"serves " + a, "--replace", "Nothing was changed"} {
			wantContains(t, err.Error(), want)
		}
	}
	if got := readTestFile(t, clineFile(env)); got != clineBefore {
		t.Errorf("Cline's file changed by the refused install:\n%s", got)
	}
	assertSameTree(t, treeBefore, snapshot(t, b))
	if k, err := Takeovers(optsB); err != nil || len(k) != 1 || k[0].From.Root != a || k[0].Root != b {
		t.Errorf("Takeovers = %+v, %v", k, err)
	}

	optsB.Replace = true
	report, err := Install(context.Background(), optsB)
	if err != nil {
		t.Fatalf("install --replace in b: %v", err)
	}
	wantContains(t, clineStep(t, report).Detail, "Repointed Cline's one agentos entry from "+a+" to this project")
	if got := clineRoot(t, env); got != b {
		t.Errorf("Cline's entry serves %s after --replace, want %s", got, b)
	}

	// Uninstalling a leaves b's entry alone.
	plan, err := PlanUninstall(UninstallOptions{Dir: a, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range plan.Edits {
		if ch.Path == clineFile(env) {
			t.Errorf("uninstall in a would edit Cline's entry, which serves b")
		}
	}

	// b is deleted: a takes the entry back without --replace, and says so.
	if err := os.RemoveAll(b); err != nil {
		t.Fatal(err)
	}
	report = installWith(t, Options{Dir: a, BinaryPath: binA, Agents: []string{"cline"}, Env: env})
	wantContains(t, clineStep(t, report).Detail, "served "+b+", where its folder no longer exists, so it was replaced without asking")
	if got := clineRoot(t, env); got != a {
		t.Errorf("Cline's entry serves %s, want %s", got, a)
	}
}

// The wizard asks before it takes Cline's one entry from another project:
// no cancels the install with nothing written, yes installs with Replace.
func TestWizardAsksBeforeTakingSingleEntry(t *testing.T) {
	t.Parallel()
	env := testEnv(t)
	a, binA := newProject(t, map[string]string{"main.go": "package main\n"})
	b, binB := newProject(t, map[string]string{"main.go": "package main\n"})
	installWith(t, Options{Dir: a, BinaryPath: binA, Agents: []string{"cline"}, Env: env})
	clineBefore, treeBefore := readTestFile(t, clineFile(env)), snapshot(t, b)
	opts := Options{Dir: b, BinaryPath: binB, Agents: []string{"cline"}, IDE: "vscode", Secondary: []string{"codex"}, Env: env}
	question := "Cline's one agentos entry points at " + a + "; point it at " + b + " instead? Cline in " + a + " will then reach " + b + "."

	// Detected folders, languages and threshold kept; pin; then the question.
	var out strings.Builder
	_, err := Wizard(context.Background(), opts, WizardIO{In: strings.NewReader("\n\n\ny\nn\n"), Out: &out, Accessible: true})
	if !errors.Is(err, ErrAborted) {
		t.Fatalf("declined: err = %v\n%s", err, out.String())
	}
	wantContains(t, out.String(), question)
	if got := readTestFile(t, clineFile(env)); got != clineBefore {
		t.Errorf("Cline's file changed after no:\n%s", got)
	}
	assertSameTree(t, treeBefore, snapshot(t, b))

	out.Reset()
	got, err := Wizard(context.Background(), opts, WizardIO{In: strings.NewReader("\n\n\ny\ny\ny\n"), Out: &out, Accessible: true})
	if err != nil || !got.Replace || !got.Yes {
		t.Fatalf("agreed: %+v, %v\n%s", got, err, out.String())
	}
	wantContains(t, out.String(), "Repointed Cline's one agentos entry from "+a)
	installWith(t, got)
	if root := clineRoot(t, env); root != b {
		t.Errorf("Cline's entry serves %s, want %s", root, b)
	}
}

// In the terminal the same question is a page of the form; a no there ends
// the wizard before the plan, with nothing written.
func TestTerminalWizardStopsOnNo(t *testing.T) {
	t.Parallel()
	env := testEnv(t)
	a, binA := newProject(t, map[string]string{"main.go": "package main\n"})
	b, binB := newProject(t, map[string]string{"main.go": "package main\n"})
	installWith(t, Options{Dir: a, BinaryPath: binA, Agents: []string{"cline"}, Env: env})
	m, err := newWizardModel(context.Background(), Options{Dir: b, BinaryPath: binB, Agents: []string{"cline"}, IDE: "vscode", Secondary: []string{"codex"}, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	last := m.q.pages[len(m.q.pages)-1]
	if last.hide() || len(m.q.takeovers) != 1 {
		t.Fatalf("the takeover page is hidden: %+v", m.q.takeovers)
	}
	if fields := last.fields(); len(fields) != 1 {
		t.Fatalf("%d questions, want 1", len(fields))
	}
	m.showPlan() // the answer is still the default, no
	if !errors.Is(m.err, ErrAborted) || m.phase != phaseDone {
		t.Errorf("after no: phase %v, err %v", m.phase, m.err)
	}
}
