package installer

// Claude Code is the agent configured when none is named, and its project
// file, .mcp.json, is the one earlier versions of install wrote; its step
// keeps the kind it always had so scripts reading the report still find it.

// DefaultAgent is the agent configured when none is named.
const DefaultAgent = "claude-code"

// stepKind is the report kind of a client config step at display path.
func stepKind(display string) string {
	if display == ".mcp.json" {
		return StepMCPJSON
	}
	return StepAgentConfig
}
