package server

import (
	"github.com/agentos-dev/agentos/internal/trust"
	"github.com/agentos-dev/agentos/server/info"
)

// settingsState says, in get_server_info, whether the project's own
// settings that run code, send data or let callers in are in effect: an
// agent whose gates run the default test command, or whose search stays
// local, learns why and who can change it. It reads the files at each
// call: the person may trust them while the server runs (the gates pick
// that up at once; the rest at the next start, which the detail says).
func (s *server) settingsState() info.Subsystem {
	st := info.Subsystem{Name: "settings", State: "ready", Detail: "the project's own settings are in effect"}
	_, trusted, err := trust.Load(s.opts.Project)
	switch {
	case err != nil:
		st.Detail = "the defaults: .agentos/config/mcp.yaml cannot be read"
	case trusted.Notice() != "":
		st.State, st.Detail = "degraded", trusted.Notice()
	case s.opts.Untrusted != "":
		st.Detail = "trusted since this server started: the gates use them; restart the server for the rest"
	}
	return st
}
