// Package assets owns everything embedded in the agentos binary: the templates
// and documents the installer writes into a project. Keeping them in one
// embedded tree means a single binary carries its whole installation.
package assets

import (
	"embed"
	"fmt"
)

//go:embed config
var files embed.FS

// ConfigTemplate is the path, within the embedded tree, of the text/template
// that renders .agentos/config/mcp.yaml.
const ConfigTemplate = "config/mcp.yaml.tmpl"

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
