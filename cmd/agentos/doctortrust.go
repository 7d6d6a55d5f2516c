package main

import (
	"strings"

	"github.com/agentos-dev/agentos/agentconfig"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/internal/trust"
)

// trustCheck is doctor's check of the project's own settings that run code,
// send data or let callers in: it fails while they wait for `agentos
// trust` (the server uses its defaults for them meanwhile, which is what a
// person wonders about when "my test command is not run"), and says which
// are trusted when they are. Nothing to say: no check.
func trustCheck(p project.Paths) (agentconfig.Check, bool) {
	cfg, err := config.Load(p.Config())
	if err != nil {
		return agentconfig.Check{}, false // the config check says why
	}
	st := trust.Check(p.Root, cfg)
	if len(st.Settings) == 0 {
		return agentconfig.Check{}, false
	}
	c := agentconfig.Check{Name: "project settings"}
	if st.Trusted {
		keys := make([]string, len(st.Settings))
		for i, s := range st.Settings {
			keys[i] = s.Key
		}
		c.OK, c.Detail = true, "trusted on this machine: "+strings.Join(keys, ", ")
		return c, true
	}
	c.Detail = st.Notice()
	c.Fix = "run `agentos trust` in this project's folder, in a terminal: it shows each value before you allow it"
	return c, true
}
