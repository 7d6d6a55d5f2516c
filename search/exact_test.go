package search

import (
	"fmt"
	"strings"
	"testing"
)

func TestNamedSymbol(t *testing.T) {
	for q, want := range map[string]string{
		"Server.Drain": "server.drain", "parse_header_line": "parse_header_line", "Tokenizer::next_token": "tokenizer.next_token",
		"RetryPolicy#backoffMillis": "retrypolicy.backoffmillis", "Limiter.Wait()": "limiter.wait", "$init": "$init",
		"drain it": "", "a..b": "", "": "", "::x": "", "f(x)": "",
	} {
		if got := namedSymbol(q); got != want {
			t.Errorf("namedSymbol(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestSpelledName(t *testing.T) {
	for q, want := range map[string]string{
		"shortest path": "shortestpath", "  Evict  Oldest ": "evictoldest", "a b c d": "abcd",
		"shortest": "", "a b c d e": "", "shortest path?": "", "read_file now": "", "": "",
	} {
		if got := spelledName(q); got != want {
			t.Errorf("spelledName(%q) = %q, want %q", q, got, want)
		}
	}
	for sym, want := range map[string]bool{"shortest_path": true, "ShortestPath": true, "G.shortestPath": true,
		"shortest_path_length": false, "shortest": false, "": false} {
		if got := spells(&meta{Symbol: sym}, "shortestpath"); got != want {
			t.Errorf("spells(%q, shortestpath) = %v", sym, got)
		}
	}
}

func TestSymbolNamed(t *testing.T) {
	for _, tc := range []struct {
		path, symbol, name string
		want               bool
	}{
		{"a/b.py", "Outer.Inner.method", "inner.method", true},
		{"a/b.py", "Outer.Inner.method", "method", true},
		{"a/b.py", "Outer.Inner.method", "ner.method", false},
		{"src/requests/api.py", "get", "requests.get", true},
		{"src/requests/api.py", "get", "api.get", true},
		{"src/requests/api.py", "get", "requests.api.get", true},
		{"src/requests/api.py", "get", "session.get", false},
		{"ratelimit/limiter.go", "Allow", "ratelimit.allow", true},
		{"main.go", "Allow", "main.allow", true},
		{"main.go", "Allow", "other.allow", false},
		{"src/x.rs", "Tokenizer.next_token", "tokenizer.next_token", true},
		{"src/x.rs", "", "x", false},
	} {
		if got := symbolNamed(&meta{Path: tc.path, Symbol: tc.symbol}, tc.name); got != tc.want {
			t.Errorf("symbolNamed(%s %s, %q) = %v", tc.path, tc.symbol, tc.name, got)
		}
	}
}

// An exact identifier finds its definition first in every language, though
// it is called from many files and discussed at length in the docs.
func TestExactIdentifierInEveryLanguage(t *testing.T) {
	files := map[string]string{
		"shop/http/headers.py": `"""Header parsing."""

# Longest header line accepted.
MAX_LINE = 8190

def parse_header_line(line):
    """Split one header line."""
    name, _, value = line.partition(":")
    return name.strip(), value.strip()


class HeaderParser:
    """Feeds lines to parse_header_line."""

    def feed(self, line):
        return parse_header_line(line)
`,
		"engine/src/lexer.rs": `/// The lexer.
pub struct Tokenizer { pos: usize }

impl Tokenizer {
    /// Returns the next token.
    pub fn next_token(&mut self) -> Option<char> { None }
}

/// Cuts text into tokens.
pub fn tokenize(s: &str) -> Vec<char> { s.chars().collect() }
`,
		"app/src/main/java/com/acme/util/RetryPolicy.java": `package com.acme.util;

/** When to try again. */
public class RetryPolicy {
    /** Attempts before giving up. */
    public static final int MAX_ATTEMPTS = 5;

    /** How long to wait before the given attempt. */
    public long backoffMillis(int attempt) { return 100L << attempt; }
}
`,
		"ratelimit/limiter.go": `package ratelimit

// Limiter limits a rate.
type Limiter struct{}

// Allow reports whether an event may happen now.
func Allow() bool { return true }

// Wait blocks until an event may happen.
func (l *Limiter) Wait() {}
`,
		"docs/guide.md": "# Guide\n\n" + strings.Repeat("Call parse_header_line, feed, next_token, tokenize, backoffMillis, Allow and Wait, up to MAX_LINE and MAX_ATTEMPTS; "+
			"parse_header_line splits, next_token advances, backoffMillis waits, Allow allows.\n\n", 20),
	}
	for i := 0; i < 25; i++ {
		files[fmt.Sprintf("shop/views/v%d.py", i)] = fmt.Sprintf(`from shop.http.headers import parse_header_line, HeaderParser, MAX_LINE


def view_%d(lines):
    # parse_header_line on every line, then feed the parser.
    p = HeaderParser()
    for line in lines[:MAX_LINE]:
        parse_header_line(line)
        parse_header_line(line.lower())
        p.feed(line)
    return p
`, i)
		files[fmt.Sprintf("engine/src/pass%d.rs", i)] = fmt.Sprintf(`use crate::lexer::{tokenize, Tokenizer};

/// Runs pass %d: next_token until done, tokenize the rest.
pub fn pass_%d(t: &mut Tokenizer) {
    while let Some(_) = t.next_token() { t.next_token(); }
    tokenize("next_token");
}
`, i, i)
		files[fmt.Sprintf("app/src/main/java/com/acme/jobs/Job%d.java", i)] = fmt.Sprintf(`package com.acme.jobs;

import com.acme.util.RetryPolicy;

/** Job %d: backoffMillis before each retry. */
public class Job%d {
    void run(RetryPolicy p) {
        long a = p.backoffMillis(1);
        long b = p.backoffMillis(2) + p.backoffMillis(RetryPolicy.MAX_ATTEMPTS);
    }
}
`, i, i)
		files[fmt.Sprintf("svc/s%d/s.go", i)] = fmt.Sprintf(`package s%d

import "example.com/x/ratelimit"

// Handle allows, then waits: ratelimit.Allow and Wait.
func Handle(l *ratelimit.Limiter) {
	if ratelimit.Allow() && ratelimit.Allow() {
		l.Wait()
		l.Wait()
	}
}
`, i)
	}
	files["go.mod"] = "module example.com/x\n\ngo 1.22\n"
	ix := build(t, CodeOptions(writeProject(t, files), nil, nil))
	for _, m := range []Method{Hybrid, Lexical, Vector} {
		for _, tc := range []struct{ query, path, symbol string }{
			{"parse_header_line", "shop/http/headers.py", "parse_header_line"},
			{"PARSE_HEADER_LINE", "shop/http/headers.py", "parse_header_line"},
			{"headers.parse_header_line", "shop/http/headers.py", "parse_header_line"},
			{"HeaderParser.feed", "shop/http/headers.py", "HeaderParser.feed"},
			{"MAX_LINE", "shop/http/headers.py", "MAX_LINE"},
			{"feed", "shop/http/headers.py", "HeaderParser.feed"},
			{"Tokenizer::next_token", "engine/src/lexer.rs", "Tokenizer.next_token"},
			{"next_token", "engine/src/lexer.rs", "Tokenizer.next_token"},
			{"lexer::tokenize", "engine/src/lexer.rs", "tokenize"},
			{"RetryPolicy.backoffMillis", "app/src/main/java/com/acme/util/RetryPolicy.java", "RetryPolicy.backoffMillis"},
			{"backoffmillis", "app/src/main/java/com/acme/util/RetryPolicy.java", "RetryPolicy.backoffMillis"},
			{"RetryPolicy#backoffMillis()", "app/src/main/java/com/acme/util/RetryPolicy.java", "RetryPolicy.backoffMillis"},
			{"util.RetryPolicy", "app/src/main/java/com/acme/util/RetryPolicy.java", "RetryPolicy"},
			{"max_attempts", "app/src/main/java/com/acme/util/RetryPolicy.java", "RetryPolicy.MAX_ATTEMPTS"},
			{"ratelimit.Allow", "ratelimit/limiter.go", "Allow"},
			{"Limiter.Wait", "ratelimit/limiter.go", "Limiter.Wait"},
			{"wait", "ratelimit/limiter.go", "Limiter.Wait"},
		} {
			rs := search(t, ix, Query{Text: tc.query, Method: m, ContentBudget: -1})
			if len(rs) == 0 || rs[0].Path != tc.path || rs[0].Symbol != tc.symbol {
				t.Errorf("%s %q: %v", m, tc.query, symbols(rs))
			}
		}
	}
}

// TestSpelledNameFirst searches a name spelled as words, as people type it:
// the symbol of exactly that name comes first, before the shorter-documented
// ones whose longer names hold the same words, in every method.
func TestSpelledNameFirst(t *testing.T) {
	files := map[string]string{
		"graphs/generic.py": `def shortest_path(G, source=None, target=None):
    """Compute paths in the graph.

    Dispatches to the weighted or unweighted algorithm; see the notes for
    the choice of method, the return values when the source or the target
    is left out, and the errors raised when no route exists between them.
    """
    return _dispatch(G, source, target)
`,
		"src/router.ts": `export class Router {
  resolveRoute(url: string) { return url }
}
`,
	}
	for _, n := range []string{"single_source", "all_pairs", "bidirectional", "single_target"} {
		files["graphs/"+n+".py"] = fmt.Sprintf(`def %s_shortest_path(G, source):
    """Shortest path, shortest path lengths: the shortest path %s."""
    return shortest_path(G, source)
`, n, n)
	}
	for i := 0; i < 6; i++ {
		files[fmt.Sprintf("src/route%d.ts", i)] = fmt.Sprintf("/** Resolves the route %d: resolve a route, any route. */\nexport function resolveRoute%d(r: Router) { return r.resolveRoute('/%d') }\n", i, i, i)
	}
	ix := build(t, CodeOptions(writeProject(t, files), nil, nil))
	for _, m := range []Method{Hybrid, Lexical, Vector} {
		for _, tc := range []struct{ query, symbol string }{
			{"shortest path", "shortest_path"},
			{"Resolve route", "Router.resolveRoute"},
		} {
			rs := search(t, ix, Query{Text: tc.query, Method: m, ContentBudget: -1})
			if len(rs) == 0 || rs[0].Symbol != tc.symbol {
				t.Errorf("%s %q: %v, want %s first", m, tc.query, symbols(rs), tc.symbol)
			}
		}
	}
}

// BenchmarkSymbolNames measures finding the chunks a named-symbol query
// names among 500,000 (about the Go standard library ×8): building the
// table (once after the chunks change) and a lookup.
func BenchmarkSymbolNames(b *testing.B) {
	metas := make([]*meta, 500_000)
	for i := range metas {
		metas[i] = &meta{Path: fmt.Sprintf("pkg%d/file%d.go", i%900, i%7), Symbol: fmt.Sprintf("Type%d.Method%d", i%5000, i)}
	}
	name := namedSymbol("Type4242.Method4242")
	find := func(n *symbolNames) {
		found := 0
		n.lookup(metas, baseName(name), func(id uint32) {
			if symbolNamed(metas[id], name) {
				found++
			}
		})
		if found != 1 {
			b.Fatalf("%d found", found)
		}
	}
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			var n symbolNames
			find(&n)
		}
	})
	b.Run("lookup", func(b *testing.B) {
		var n symbolNames
		for b.Loop() {
			find(&n)
		}
	})
}

// An import names what another file defines: CommonJS's
// var View = require('./view') is found by its words like any line, but it
// is no definition of View, so it does not join the definitions a query for
// the name brings first.
func TestImportIsNoDefinition(t *testing.T) {
	files := map[string]string{
		"lib/view.js": "/** A view to render. */\nfunction View(name) {\n  this.name = name\n}\n\n" +
			"/** Finds the view's file. */\nView.prototype.lookup = function lookup(name) {\n  return name\n}\n\nmodule.exports = View\n",
	}
	for i := 0; i < 5; i++ {
		files[fmt.Sprintf("lib/routes/r%d.js", i)] = fmt.Sprintf("var View = require('../view')\n\n"+
			"function route%d(name) {\n  return new View(name)\n}\n\nmodule.exports = route%d\n", i, i)
	}
	ix := build(t, CodeOptions(writeProject(t, files), nil, nil))
	rs := search(t, ix, Query{Text: "View", Method: Hybrid, ContentBudget: -1})
	if len(rs) < 2 || rs[0].Path != "lib/view.js" || rs[0].Symbol != "View" || rs[1].Symbol != "View.lookup" {
		t.Errorf("View: %v, want lib/view.js's View, then View.lookup", symbols(rs))
	}
}
