package workflow

import (
	"os"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/machinekey"
	"github.com/agentos-dev/agentos/internal/project"
)

// ForProject returns the engine of an installed project: the built-in
// workflows plus the project's own under .agentos/workflows/, sessions under
// .agentos/state/, gate settings from the configuration.
func ForProject(p project.Paths, cfg config.Config, onChange func(id string)) (*Engine, error) {
	builtin, err := assets.Sub(assets.Workflows)
	if err != nil {
		return nil, err
	}
	lib, err := LoadLibrary(builtin, os.DirFS(p.Workflows()))
	if err != nil {
		return nil, err
	}
	templates, err := assets.Sub(assets.SpecTemplates)
	if err != nil {
		return nil, err
	}
	key, err := machinekey.Load()
	if err != nil {
		return nil, err
	}
	return NewEngine(lib, Settings{
		Root:                 p.Root,
		StateDir:             p.StateDir(),
		RulesDirs:            []string{p.StateDir(), p.ConfigDir(), p.Workflows()},
		TestCommand:          cfg.Workflow.TestCommand,
		CoverageFile:         cfg.Workflow.CoverageFile,
		TestReport:           cfg.Workflow.TestReport,
		CoverageThreshold:    cfg.Workflow.CoverageThreshold,
		Strict:               cfg.Workflow.Strict,
		TerminalApprovalOnly: cfg.Workflow.Approval == config.ApprovalTerminal,
		Unsandboxed:          cfg.Workflow.Sandbox == config.SandboxUnsandboxed,
		Rules:                &RuleFiles{Builtin: builtin, Workflows: p.Workflows(), Config: p.Config(), Root: p.Root},
		SpecTemplates:        templates,
		Key:                  key,
		OnChange:             onChange,
	}), nil
}
