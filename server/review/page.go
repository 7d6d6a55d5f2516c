package review

import (
	"embed"
	"net/http"
	"strings"
)

// The page is plain HTML, CSS and JavaScript, embedded in the binary: it
// needs no network and no build step.
//
//go:embed page/index.html page/review.css page/review.js
var pageFS embed.FS

// page is index.html with the stylesheet and script inlined, so the whole
// page comes in one request carrying the token, and nothing else needs one.
var page = func() string {
	read := func(name string) string {
		b, err := pageFS.ReadFile("page/" + name)
		if err != nil {
			panic(err) // embedded at build time
		}
		return string(b)
	}
	return strings.NewReplacer("{{css}}", read("review.css"), "{{js}}", read("review.js")).Replace(read("index.html"))
}()

// servePage answers the page itself, with a fresh CSRF token and a fresh
// nonce, the only key under which the Content-Security-Policy runs its
// script and style.
func (h *Handler) servePage(w http.ResponseWriter, token string) {
	csrf, ok := h.grants.newPage(token)
	if !ok {
		unauthorized(w)
		return
	}
	nonce := randomToken()[:32]
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'nonce-"+nonce+"'; style-src 'nonce-"+nonce+"'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	// Both values are hex: nothing in them needs escaping.
	w.Write([]byte(strings.NewReplacer("{{nonce}}", nonce, "{{csrf}}", csrf).Replace(page)))
}
