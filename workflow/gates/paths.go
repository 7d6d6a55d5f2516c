package gates

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Placeholders expands every {name} in s with vars[name]. A name is a letter or
// underscore followed by letters, digits and underscores; anything else in
// braces, and ${name} (shell syntax), is left alone. {{name}} stands for a
// literal {name}. An unknown name is an error.
func Placeholders(s string, vars map[string]string) (string, error) {
	if !strings.Contains(s, "{") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '{' {
			b.WriteByte(s[i])
			i++
			continue
		}
		// {{name}} is a literal {name}.
		if strings.HasPrefix(s[i:], "{{") {
			if n := identLen(s[i+2:]); n > 0 && strings.HasPrefix(s[i+2+n:], "}}") {
				b.WriteString("{" + s[i+2:i+2+n] + "}")
				i += 4 + n
				continue
			}
		}
		n := identLen(s[i+1:])
		if n == 0 || i+1+n >= len(s) || s[i+1+n] != '}' || (i > 0 && s[i-1] == '$') {
			b.WriteByte('{')
			i++
			continue
		}
		name := s[i+1 : i+1+n]
		v, ok := vars[name]
		if !ok {
			return "", unknownPlaceholder(name, vars)
		}
		b.WriteString(v)
		i += n + 2
	}
	return b.String(), nil
}

func unknownPlaceholder(name string, vars map[string]string) error {
	known := make([]string, 0, len(vars))
	for k := range vars {
		known = append(known, "{"+k+"}")
	}
	slices.Sort(known)
	if len(known) == 0 {
		return fmt.Errorf("unknown placeholder {%s}: no placeholders are defined here", name)
	}
	return fmt.Errorf("unknown placeholder {%s} (known: %s)", name, strings.Join(known, ", "))
}

// checkPlaceholderSyntax reports a placeholder-like brace that is not closed,
// the likeliest typo ({spec_dir/README.md).
func checkPlaceholderSyntax(s string) error {
	for i := 0; i < len(s); i++ {
		if s[i] != '{' || (i > 0 && s[i-1] == '$') {
			continue
		}
		n := identLen(s[i+1:])
		if n > 0 && (i+1+n == len(s) || s[i+1+n] == '/') {
			return fmt.Errorf("placeholder {%s in %q is not closed", s[i+1:i+1+n], s)
		}
	}
	return nil
}

func identLen(s string) int {
	n := 0
	for n < len(s) {
		c := s[n]
		if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (n > 0 && c >= '0' && c <= '9') {
			n++
			continue
		}
		break
	}
	return n
}

// resolve expands placeholders in p and returns its absolute path, which must
// lie inside root, and its slash-separated path relative to root for messages.
// A path that leaves root, directly or through a symlink, is an error.
func resolve(root, p string, vars map[string]string) (abs, rel string, err error) {
	expanded, err := Placeholders(p, vars)
	if err != nil {
		return "", p, err
	}
	return resolveLiteral(root, expanded)
}

// resolveLiteral is resolve without placeholders, for paths an agent supplied.
func resolveLiteral(root, p string) (abs, rel string, err error) {
	if strings.ContainsRune(p, 0) {
		return "", p, errors.New("the path holds a NUL byte")
	}
	if strings.TrimSpace(p) == "" {
		return "", p, errors.New("the path is empty")
	}
	p = filepath.FromSlash(p)
	cand := p
	if !filepath.IsAbs(cand) {
		cand = filepath.Join(root, cand)
	}
	cand = filepath.Clean(cand)
	r, ok := within(root, cand)
	if !ok {
		return "", filepath.ToSlash(p), fmt.Errorf("%s is outside the project", filepath.ToSlash(p))
	}
	// Follow symlinks of whatever exists and make sure it stays inside too.
	if real, err := filepath.EvalSymlinks(cand); err == nil {
		realRoot, rerr := filepath.EvalSymlinks(root)
		if rerr != nil {
			realRoot = root
		}
		if _, ok := within(realRoot, real); !ok {
			return "", r, fmt.Errorf("%s leads outside the project through a symlink", r)
		}
	}
	return cand, r, nil
}

// within reports whether path is root or under it, with the relative path.
func within(root, path string) (string, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
