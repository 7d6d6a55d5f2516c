package browser

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/agentos-dev/agentos/internal/pathpolicy"
	"github.com/agentos-dev/agentos/server/toolkit"
)

// policy decides which URLs a page may be opened from: loopback hosts but
// the agentos server's own port, file:// inside the project, about:blank,
// and the hosts of browser.allowed_hosts.
type policy struct {
	root    string   // the project root, resolved
	allowed []string // lower-case host patterns: "example.com", "*.example.com", "*"
	// ownPort is the port the agentos server listens on (0: none yet). Its
	// pages are a person's (the review page) or the MCP endpoint agents
	// reach through their own transport; an agent's browser gets neither.
	ownPort atomic.Int32
}

func newPolicy(root string, allowed []string) *policy {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	p := &policy{root: root}
	for _, h := range allowed {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			p.allowed = append(p.allowed, h)
		}
	}
	return p
}

// check returns nil when raw may be opened, else a FORBIDDEN or
// VALIDATION_ERROR naming what to do.
func (p *policy) check(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return toolkit.Validation("url", "url %q is not an absolute URL; use e.g. http://localhost:3000/ or file:///path/in/project.html", raw)
	}
	switch strings.ToLower(u.Scheme) {
	case "about":
		if raw == "about:blank" {
			return nil
		}
	case "http", "https":
		host := u.Hostname()
		if host == "" {
			return toolkit.Validation("url", "url %q has no host", raw)
		}
		if p.isOwn(u) {
			return toolkit.Errorf(toolkit.CodeForbidden, "%s is the agentos server itself; svc_browser does not open its pages (the review page is for a person, who opens it with `agentos review`)", u.Host).
				WithDetails(map[string]any{"field": "url"})
		}
		if p.hostAllowed(host) {
			return nil
		}
		return toolkit.Errorf(toolkit.CodeForbidden, "%s is not a loopback host and not in browser.allowed_hosts; add it there in .agentos/config/mcp.yaml (and restart the server) to open it", host).
			WithDetails(map[string]any{"field": "url", "host": host, "allowed_hosts": p.allowed})
	case "file":
		path := filepath.FromSlash(u.Path)
		if u.Host != "" && u.Host != "localhost" {
			return toolkit.Errorf(toolkit.CodeForbidden, "file URLs on another host (%s) are not allowed", u.Host)
		}
		rel, ok := p.inProject(path)
		if !ok {
			return toolkit.Errorf(toolkit.CodeForbidden, "%s is outside the project; only files inside %s may be opened", path, p.root).
				WithDetails(map[string]any{"field": "url"})
		}
		if err := p.readable(rel); err != nil {
			return toolkit.Errorf(toolkit.CodeForbidden, "%s", err.Error()).WithDetails(map[string]any{"field": "url"})
		}
		return nil
	}
	return toolkit.Errorf(toolkit.CodeForbidden, "the %s: scheme is not allowed; use http, https (loopback or browser.allowed_hosts), file (inside the project) or about:blank", u.Scheme).
		WithDetails(map[string]any{"field": "url"})
}

// isOwn reports whether u is on the agentos server's own port of a
// loopback host.
func (p *policy) isOwn(u *url.URL) bool {
	own := int(p.ownPort.Load())
	if own == 0 || !isLoopback(u.Hostname()) {
		return false
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	n, err := strconv.Atoi(port)
	return err == nil && n == own
}

// ownOriginPatterns are Fetch-domain URL patterns for every request to the
// server's own port, so a page's script cannot reach it either.
func (p *policy) ownOriginPatterns() []string {
	own := p.ownPort.Load()
	if own == 0 {
		return nil
	}
	var out []string
	for _, host := range []string{"127.0.0.1", "localhost", "[::1]"} {
		for _, scheme := range []string{"http", "https"} {
			out = append(out, fmt.Sprintf("%s://%s:%d/*", scheme, host, own))
		}
	}
	return out
}

func isLoopback(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (p *policy) hostAllowed(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if isLoopback(host) {
		return true
	}
	for _, a := range p.allowed {
		switch {
		case a == "*", a == host:
			return true
		case strings.HasPrefix(a, "*.") && strings.HasSuffix(host, a[1:]):
			return true
		}
	}
	return false
}

// inProject reports whether path, with symlinks resolved, is inside the
// project root, and returns it relative to the root, slash-separated. A path
// that does not exist is judged as written.
func (p *policy) inProject(path string) (string, bool) {
	if !filepath.IsAbs(path) {
		return "", false
	}
	path = filepath.Clean(path)
	if r, err := filepath.EvalSymlinks(path); err == nil {
		path = r
	}
	rel, err := filepath.Rel(p.root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// readable applies the project's path policy to a file a page would show:
// opening it is a read like svc_filesystem's, so a secret or a hard-linked
// file is refused. Folders (a listing shows names only) and paths that do
// not exist are left to the browser.
func (p *policy) readable(rel string) error {
	r, err := os.OpenRoot(p.root)
	if err != nil {
		return err
	}
	defer r.Close()
	if fi, err := r.Stat(rel); err != nil || fi.IsDir() {
		return nil
	}
	f, _, err := pathpolicy.OpenFile(r, rel)
	if err != nil {
		return err
	}
	return f.Close()
}
