package browser

import (
	"context"
	"encoding/base64"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/agentos-dev/agentos/server/toolkit"
)

var actions = []string{
	"navigate", "screenshot", "query", "click", "type", "fill", "select", "wait", "evaluate",
	"console", "network", "viewport", "emulate_media", "cookies", "local_storage", "tabs", "close",
}

// Timeouts of one action.
const (
	defaultTimeout    = 10 * time.Second
	navigateTimeout   = 30 * time.Second
	maxTimeout        = 2 * time.Minute
	maxWaitDuration   = time.Minute
	maxScreenshotSize = 8 << 20
	defaultQueryLimit = 20
	maxQueryLimit     = 200
	maxEvaluateResult = 64 << 10
)

type input struct {
	Action        string     `json:"action"`
	URL           string     `json:"url"`
	Selector      string     `json:"selector"`
	Text          string     `json:"text"`
	Value         string     `json:"value"`
	State         string     `json:"state"`
	TimeoutMS     int        `json:"timeout_ms"`
	DurationMS    int        `json:"duration_ms"`
	Script        string     `json:"script"`
	FullPage      bool       `json:"full_page"`
	Width         int        `json:"width"`
	Height        int        `json:"height"`
	Scale         float64    `json:"device_scale_factor"`
	Mobile        bool       `json:"mobile"`
	Media         string     `json:"media"`
	ColorScheme   string     `json:"color_scheme"`
	ReducedMotion string     `json:"reduced_motion"`
	Op            string     `json:"op"`
	Tab           string     `json:"tab"`
	Key           string     `json:"key"`
	Cookies       []cookieIn `json:"cookies"`
	Limit         int        `json:"limit"`
}

type cookieIn struct {
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	URL      string  `json:"url"`
	Domain   string  `json:"domain"`
	Path     string  `json:"path"`
	Secure   bool    `json:"secure"`
	HTTPOnly bool    `json:"http_only"`
	SameSite string  `json:"same_site"`
	Expires  float64 `json:"expires"`
}

// Output is the result of svc_browser; which fields are set depends on the action.
type Output struct {
	Action    string            `json:"action"`
	Tab       string            `json:"tab,omitempty" jsonschema:"The active tab after the action"`
	URL       string            `json:"url,omitempty" jsonschema:"The page's URL after the action"`
	Title     string            `json:"title,omitempty"`
	Status    int64             `json:"status,omitempty" jsonschema:"navigate: HTTP status of the document"`
	Count     *int              `json:"count,omitempty" jsonschema:"query: elements matching; console, network: items returned"`
	Elements  []Element         `json:"elements,omitempty"`
	Truncated bool              `json:"truncated,omitempty" jsonschema:"true when the result was cut; narrow the selector or raise limit"`
	Result    any               `json:"result,omitempty" jsonschema:"evaluate: the script's value as JSON (null for undefined)"`
	Messages  []ConsoleMessage  `json:"messages,omitempty"`
	Requests  []Request         `json:"requests,omitempty"`
	Dropped   int               `json:"dropped,omitempty" jsonschema:"console, network: older items discarded since the last call (the buffer keeps 500)"`
	Cookies   []Cookie          `json:"cookies,omitempty"`
	Storage   map[string]string `json:"local_storage,omitempty"`
	Tabs      []TabInfo         `json:"tabs,omitempty"`
	Image     *Image            `json:"image,omitempty" jsonschema:"screenshot: the PNG, sent as image content"`
	Viewport  *Viewport         `json:"viewport,omitempty"`
	WaitedMS  int64             `json:"waited_ms,omitempty"`
	Closed    bool              `json:"closed,omitempty" jsonschema:"close: whether a session was open and is now closed"`
}

// Element is one element a query matched.
type Element struct {
	Tag        string            `json:"tag"`
	Text       string            `json:"text,omitempty" jsonschema:"visible text (innerText), cut at 500 characters"`
	Value      *string           `json:"value,omitempty" jsonschema:"form fields: the current value"`
	Attributes map[string]string `json:"attributes,omitempty"`
	Visible    bool              `json:"visible"`
}

// Cookie is one browser cookie.
type Cookie struct {
	Name     string  `json:"name"`
	Value    string  `json:"value"`
	Domain   string  `json:"domain"`
	Path     string  `json:"path"`
	Expires  float64 `json:"expires" jsonschema:"Unix seconds; -1 for a session cookie"`
	HTTPOnly bool    `json:"http_only"`
	Secure   bool    `json:"secure"`
	SameSite string  `json:"same_site,omitempty"`
}

// TabInfo is one open tab.
type TabInfo struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	Title  string `json:"title,omitempty"`
	Active bool   `json:"active"`
}

// Image describes a screenshot.
type Image struct {
	MIMEType string `json:"mime_type"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Bytes    int    `json:"bytes"`
}

// Viewport is the page's viewport.
type Viewport struct {
	Width             int     `json:"width"`
	Height            int     `json:"height"`
	DeviceScaleFactor float64 `json:"device_scale_factor"`
	Mobile            bool    `json:"mobile"`
}

// New returns the svc_browser tool over m.
func New(m *Manager) toolkit.Tool {
	def := mcp.NewTool("svc_browser",
		mcp.WithDescription("Drive a real headless Chromium to check the web app you are building: navigate, screenshot, query, click, type, fill, select, wait, evaluate, console, network, viewport, emulate_media, cookies, local_storage, tabs, close. "+
			"Each client gets its own browser (own cookies and storage), closed after it idles. Only loopback hosts (localhost, 127.0.0.1, ::1) and file:// inside the project may be opened unless browser.allowed_hosts says otherwise. "+
			"Selectors are CSS. console and network return what happened since their last call."),
		mcp.WithString("action", mcp.Required(), mcp.Enum(actions...), mcp.Description("What to do")),
		mcp.WithString("url", mcp.Description("navigate, tabs op=new: the URL to open, e.g. http://localhost:3000/; cookies op=set: default URL of the cookies")),
		mcp.WithString("selector", mcp.Description("CSS selector. query, click, type, fill, select: the element(s); screenshot: one element instead of the viewport; wait: the element to wait for")),
		mcp.WithString("text", mcp.Description("type: the keys to type into the element (appended to its value; \\n presses Enter)")),
		mcp.WithString("value", mcp.Description("fill: the value that replaces the field's value; select: the option's value or label")),
		mcp.WithString("state", mcp.Enum("visible", "hidden", "attached", "detached"), mcp.Description("wait: the state the selector must reach (default visible)")),
		mcp.WithInteger("timeout_ms", mcp.Description("How long the action may take, in milliseconds (default 10000; navigate 30000; at most 120000)")),
		mcp.WithInteger("duration_ms", mcp.Description("wait without selector: how long to wait, in milliseconds (at most 60000)")),
		mcp.WithString("script", mcp.Description("evaluate: a JavaScript expression; a promise is awaited; the value is returned as JSON")),
		mcp.WithBoolean("full_page", mcp.Description("screenshot: the whole page instead of the viewport")),
		mcp.WithInteger("width", mcp.Description("viewport: width in CSS pixels (omit width and height to read the viewport)")),
		mcp.WithInteger("height", mcp.Description("viewport: height in CSS pixels")),
		mcp.WithNumber("device_scale_factor", mcp.Description("viewport: device pixel ratio (default 1)")),
		mcp.WithBoolean("mobile", mcp.Description("viewport: emulate a mobile device (meta viewport, touch)")),
		mcp.WithString("media", mcp.Enum("screen", "print", ""), mcp.Description("emulate_media: the CSS media type; empty resets")),
		mcp.WithString("color_scheme", mcp.Enum("light", "dark", "no-preference", ""), mcp.Description("emulate_media: prefers-color-scheme; empty resets")),
		mcp.WithString("reduced_motion", mcp.Enum("reduce", "no-preference", ""), mcp.Description("emulate_media: prefers-reduced-motion; empty resets")),
		mcp.WithString("op", mcp.Description("cookies: get (default) or set; local_storage: get; tabs: list (default), new, switch or close")),
		mcp.WithString("tab", mcp.Description("tabs op=switch, op=close: the tab id, e.g. tab-2 (close defaults to the active tab)")),
		mcp.WithString("key", mcp.Description("local_storage: one key to read (default: all)")),
		mcp.WithArray("cookies", mcp.Description("cookies op=set: the cookies; each needs name and value, and url or domain (default: the page's URL)"),
			mcp.Items(map[string]any{
				"type":     "object",
				"required": []string{"name", "value"},
				"properties": map[string]any{
					"name":      map[string]any{"type": "string"},
					"value":     map[string]any{"type": "string"},
					"url":       map[string]any{"type": "string"},
					"domain":    map[string]any{"type": "string"},
					"path":      map[string]any{"type": "string"},
					"secure":    map[string]any{"type": "boolean"},
					"http_only": map[string]any{"type": "boolean"},
					"same_site": map[string]any{"type": "string", "enum": []string{"Strict", "Lax", "None"}},
					"expires":   map[string]any{"type": "number", "description": "Unix seconds; omit for a session cookie"},
				},
			})),
		mcp.WithInteger("limit", mcp.Description("query: at most this many elements (default 20, at most 200)")),
		mcp.WithOutputSchema[Output](),
		toolkit.Annotations("Browser", false, false, false, true),
	)
	t := &tool{m: m}
	inner := toolkit.Handler(t.handle)
	return toolkit.Tool{Def: def, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		// A screenshot travels as image content beside the structured result.
		img := &[]byte{}
		res, err := inner(context.WithValue(ctx, imageKey{}, img), req)
		if err == nil && res != nil && !res.IsError && len(*img) > 0 {
			res.Content = append([]mcp.Content{mcp.NewImageContent(base64.StdEncoding.EncodeToString(*img), "image/png")}, res.Content...)
		}
		return res, err
	}}
}

type imageKey struct{}

type tool struct{ m *Manager }

// caller identifies the calling client's browser session: its MCP session
// when it has one, else (protocol 2026-07-28, no sessions) its client name.
func caller(ctx context.Context) (key, client string) {
	client, version := "unknown", ""
	pi := mcpserver.RequestProtocolInfoFromContext(ctx)
	if pi != nil && pi.ClientInfo != nil && pi.ClientInfo.Name != "" {
		client, version = pi.ClientInfo.Name, pi.ClientInfo.Version
	}
	if s := mcpserver.ClientSessionFromContext(ctx); s != nil {
		if withInfo, ok := s.(mcpserver.SessionWithClientInfo); ok && withInfo.GetClientInfo().Name != "" {
			client, version = withInfo.GetClientInfo().Name, withInfo.GetClientInfo().Version
		}
		if (pi == nil || !pi.Modern) && s.SessionID() != "" {
			return "session:" + s.SessionID(), client
		}
	}
	return "client:" + client + "/" + version, client
}

func (t *tool) handle(ctx context.Context, _ mcp.CallToolRequest, in input) (Output, error) {
	if err := validate(&in); err != nil {
		return Output{}, err
	}
	// A URL the policy refuses is refused before a browser starts for it:
	// starting Chromium costs the person a second or two of CPU for nothing.
	if in.URL != "" && (in.Action == "navigate" || in.Action == "tabs" && in.Op == "new") {
		if err := t.m.policy.check(in.URL); err != nil {
			return Output{}, err
		}
	}
	key, client := caller(ctx)
	if in.Action == "close" {
		s := t.m.existing(key)
		if s != nil {
			t.m.closeSession(s, "closed by the client")
		}
		return Output{Action: "close", Closed: s != nil}, nil
	}
	for attempt := 0; ; attempt++ {
		s, err := t.m.session(key, client)
		if err != nil {
			return Output{}, err
		}
		out, err := t.run(ctx, s, in)
		if err == errSessionClosed && attempt == 0 {
			continue // closed while we waited for it: start a new one
		}
		if err != nil {
			return Output{}, err
		}
		out.Action = in.Action
		return out, nil
	}
}

// run performs one action in s, starting its browser first if needed.
func (t *tool) run(ctx context.Context, s *session, in input) (Output, error) {
	s.busy.Add(1)
	defer s.busy.Add(-1)
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() { s.lastUsed.Store(t.m.now().UnixNano()) }()
	s.pmu.Lock()
	closed := s.closed
	s.pmu.Unlock()
	if closed {
		return Output{}, errSessionClosed
	}
	if !s.started {
		if err := s.start(); err != nil {
			t.m.forget(s)
			return Output{}, err
		}
		if _, err := s.newTab(); err != nil {
			t.m.closeSession(s, "first tab failed")
			return Output{}, err
		}
	}
	prev := s.active
	s.prune()
	if s.active == nil && len(s.tabs) > 0 {
		s.active = s.tabs[len(s.tabs)-1]
	}
	if prev != nil && s.active != prev && in.Action != "tabs" && in.Action != "navigate" {
		now := "no tab is open; navigate to open one"
		if s.active != nil {
			now = "the active tab is now " + s.active.id + "; repeat the action there, or see tabs"
		}
		return Output{}, toolkit.Errorf(toolkit.CodeNotFound, "tab %s was closed (by the page or the browser); %s", prev.id, now)
	}
	a := &act{s: s, in: in, req: ctx}
	out, err := a.do()
	if err != nil {
		return Output{}, a.explain(err)
	}
	if s.active != nil && out.Tab == "" {
		out.Tab = s.active.id
	}
	return out, nil
}

func validate(in *input) error {
	found := false
	for _, a := range actions {
		found = found || a == in.Action
	}
	if !found {
		return toolkit.Validation("action", "unknown action %q; use one of: %s", in.Action, strings.Join(actions, ", "))
	}
	if in.TimeoutMS < 0 || time.Duration(in.TimeoutMS)*time.Millisecond > maxTimeout {
		return toolkit.Validation("timeout_ms", "timeout_ms must be between 1 and %d", maxTimeout.Milliseconds())
	}
	need := func(field, value string) error {
		if strings.TrimSpace(value) == "" {
			return toolkit.Validation(field, "%s needs %s", in.Action, field)
		}
		return nil
	}
	switch in.Action {
	case "navigate":
		return need("url", in.URL)
	case "query", "click", "type", "fill", "select":
		return need("selector", in.Selector)
	case "evaluate":
		return need("script", in.Script)
	case "wait":
		if in.Selector == "" && in.DurationMS <= 0 {
			return toolkit.Validation("selector", "wait needs a selector (with state) or duration_ms")
		}
		if time.Duration(in.DurationMS)*time.Millisecond > maxWaitDuration {
			return toolkit.Validation("duration_ms", "duration_ms must be at most %d", maxWaitDuration.Milliseconds())
		}
		switch in.State {
		case "", "visible", "hidden", "attached", "detached":
		default:
			return toolkit.Validation("state", "state must be visible, hidden, attached or detached, not %q", in.State)
		}
	case "viewport":
		if (in.Width == 0) != (in.Height == 0) || in.Width < 0 || in.Height < 0 || in.Width > 10000 || in.Height > 10000 {
			return toolkit.Validation("width", "viewport needs both width and height, each 1 to 10000 (or neither, to read it)")
		}
		if in.Scale < 0 || in.Scale > 10 {
			return toolkit.Validation("device_scale_factor", "device_scale_factor must be between 0 and 10")
		}
	case "cookies":
		switch in.Op {
		case "", "get":
		case "set":
			if len(in.Cookies) == 0 {
				return toolkit.Validation("cookies", "cookies op=set needs cookies")
			}
			for i, c := range in.Cookies {
				if c.Name == "" {
					return toolkit.Validation("cookies", "cookie %d has no name", i)
				}
			}
		default:
			return toolkit.Validation("op", "cookies op must be get or set, not %q", in.Op)
		}
	case "local_storage":
		if in.Op != "" && in.Op != "get" {
			return toolkit.Validation("op", "local_storage op must be get, not %q", in.Op)
		}
	case "tabs":
		switch in.Op {
		case "", "list", "new", "close":
		case "switch":
			return need("tab", in.Tab)
		default:
			return toolkit.Validation("op", "tabs op must be list, new, switch or close, not %q", in.Op)
		}
	}
	if in.Limit < 0 || in.Limit > maxQueryLimit {
		return toolkit.Validation("limit", "limit must be between 1 and %d", maxQueryLimit)
	}
	return nil
}
