// Package assets owns everything embedded in the agentos binary: the templates
// and documents the installer writes into a project. Keeping them in one
// embedded tree means a single binary carries its whole installation.
//
// The tree:
//
//	config/                       the mcp.yaml template
//	standards/universal/<domain>/ the universal standards, copied as they are
//	templates/standard.md.tmpl    the skeleton of a new standard
//	templates/spec/               the documents of a spec folder
//	templates/standards/<lang>/   the language standards, rendered at install
//	rules/agent-rules.md          the behavioural rules given to agents
//	workflows/<name>/             the built-in workflow definitions
//	commands/<name>.md            the commands that start them: slash-command files and MCP prompts
package assets

import (
	"embed"
	"fmt"
	"io/fs"
)

//go:embed commands config standards templates rules workflows
var files embed.FS

// ConfigTemplate is the path, within the embedded tree, of the text/template
// that renders .agentos/config/mcp.yaml.
const ConfigTemplate = "config/mcp.yaml.tmpl"

// Paths of the other embedded parts, slash-separated within the tree.
const (
	// UniversalStandards holds one folder per domain, each holding standards
	// installed unchanged to .agentos/standards/universal/.
	UniversalStandards = "standards/universal"
	// StandardTemplate is the text/template of a new standard.
	StandardTemplate = "templates/standard.md.tmpl"
	// SpecTemplates holds the documents of a spec folder.
	SpecTemplates = "templates/spec"
	// LanguageTemplates holds one folder per language of text/templates that
	// render the language standards installed to .agentos/standards/development/.
	LanguageTemplates = "templates/standards"
	// AgentRules is the source text of the rules given to coding agents.
	AgentRules = "rules/agent-rules.md"
	// Workflows holds one folder per built-in workflow: workflow.yaml and
	// its markdown instructions.
	Workflows = "workflows"
)

// FS returns the embedded tree, read-only.
func FS() embed.FS { return files }

// Read returns the content of one embedded file, by its slash-separated path.
func Read(name string) ([]byte, error) {
	data, err := files.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	return data, nil
}

// Sub returns the embedded subtree rooted at dir.
func Sub(dir string) (fs.FS, error) {
	sub, err := fs.Sub(files, dir)
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	if _, err := fs.Stat(sub, "."); err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	return sub, nil
}
