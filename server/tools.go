package server

import (
	"time"

	"github.com/agentos-dev/agentos/server/browser"
	"github.com/agentos-dev/agentos/server/clock"
	"github.com/agentos-dev/agentos/server/fsys"
	"github.com/agentos-dev/agentos/server/info"
	"github.com/agentos-dev/agentos/server/searchtool"
	"github.com/agentos-dev/agentos/server/toolkit"
	"github.com/agentos-dev/agentos/server/workflowtool"
)

// tools is the registry: every tool the server offers, from its subsystem
// package. Adding a tool is a constructor in its package and a line here.
func (s *server) tools() ([]toolkit.Tool, error) {
	fs, err := fsys.New(s.opts.Project.Root, fsys.Options{Logger: s.log})
	if err != nil {
		return nil, err
	}
	return []toolkit.Tool{
		info.New(s, time.Now),
		clock.New(time.Now),
		fs,
		workflowtool.New(s.workflows, s.log),
		searchtool.ProjectTool(s.search),
		searchtool.StandardsTool(s.search),
		browser.New(s.browser),
	}, nil
}
