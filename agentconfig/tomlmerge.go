package agentconfig

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// The TOML merge splices text: agentos's table ([mcp_servers.agentos] and
// its sub-tables) is cut out and our rendering put in its place, or
// appended. Every other line, comments included, stays byte for byte.
// go-toml then checks the result parses and holds what we meant.

func decodeTOML(data []byte) (map[string]any, error) {
	out := map[string]any{}
	if err := toml.Unmarshal(data, &out); err != nil {
		msg := err.Error()
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			msg = fmt.Sprintf("line %d, column %d: %s", row, col, de.Error())
		}
		return nil, fmt.Errorf("not valid TOML: %s", msg)
	}
	return out, nil
}

func lookupTOML(data []byte, key []string, name string) (any, bool, error) {
	doc, err := decodeTOML(data)
	if err != nil {
		return nil, false, err
	}
	var cur any = doc
	for _, k := range append(append([]string(nil), key...), name) {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false, nil
		}
		if cur, ok = m[k]; !ok {
			return nil, false, nil
		}
	}
	return cur, true, nil
}

// tomlKey renders a key segment, quoting it when it is not bare.
func tomlKey(k string) string {
	bare := k != ""
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			bare = false
		}
	}
	if bare {
		return k
	}
	return strconv.Quote(k)
}

func tomlValue(v any) string {
	switch t := v.(type) {
	case string:
		return strconv.Quote(t)
	case bool:
		return strconv.FormatBool(t)
	case int:
		return strconv.Itoa(t)
	case float64:
		if t == float64(int64(t)) {
			return strconv.FormatInt(int64(t), 10)
		}
		return strconv.FormatFloat(t, 'g', -1, 64)
	case []string:
		parts := make([]string, len(t))
		for i, s := range t {
			parts[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]string:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = tomlKey(k) + " = " + strconv.Quote(t[k])
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	default:
		return strconv.Quote(fmt.Sprint(v))
	}
}

// renderTOMLTable renders value as the table [key.name]; maps of strings
// become sub-tables, so the result reads as people write it.
func renderTOMLTable(key []string, name string, value Object, eol string) string {
	segs := make([]string, 0, len(key)+1)
	for _, k := range append(append([]string(nil), key...), name) {
		segs = append(segs, tomlKey(k))
	}
	header := strings.Join(segs, ".")
	var b, subs strings.Builder
	b.WriteString("[" + header + "]" + eol)
	for _, f := range value {
		if m, ok := f.Value.(map[string]string); ok {
			subs.WriteString(eol + "[" + header + "." + tomlKey(f.Key) + "]" + eol)
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				subs.WriteString(tomlKey(k) + " = " + strconv.Quote(m[k]) + eol)
			}
			continue
		}
		b.WriteString(tomlKey(f.Key) + " = " + tomlValue(f.Value) + eol)
	}
	return b.String() + subs.String()
}

// tomlHeader parses a table header line into its key segments; ok is false
// for a line that is not a [table] header (array tables included).
func tomlHeader(line string) ([]string, bool) {
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, "[") || strings.HasPrefix(s, "[[") {
		return nil, false
	}
	end := -1
	inQuote := byte(0)
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case inQuote != 0:
			if c == '\\' && inQuote == '"' {
				i++
			} else if c == inQuote {
				inQuote = 0
			}
		case c == '"' || c == '\'':
			inQuote = c
		case c == ']':
			end = i
		}
		if end >= 0 {
			break
		}
	}
	if end < 0 {
		return nil, false
	}
	// Let go-toml split the dotted key: a header is a valid document on its own.
	var probe map[string]any
	if toml.Unmarshal([]byte(s[:end+1]), &probe) != nil {
		return nil, false
	}
	var segs []string
	cur := probe
	for len(cur) == 1 {
		var k string
		var v any
		for k, v = range cur {
		}
		segs = append(segs, k)
		next, ok := v.(map[string]any)
		if !ok || len(next) == 0 {
			break
		}
		cur = next
	}
	return segs, true
}

func hasPrefix(segs, prefix []string) bool {
	if len(segs) < len(prefix) {
		return false
	}
	for i := range prefix {
		if segs[i] != prefix[i] {
			return false
		}
	}
	return true
}

// tomlSpans finds the line ranges of the table key.name and its sub-tables:
// each from its header line to the next header that is not ours.
func tomlSpans(data []byte, full []string) [][2]int {
	var spans [][2]int
	start := -1
	inMulti := ""
	for pos := 0; pos <= len(data); {
		next := len(data)
		if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
			next = pos + i + 1
		}
		line := string(data[pos:next])
		if inMulti != "" {
			if strings.Count(line, inMulti)%2 == 1 {
				inMulti = ""
			}
		} else {
			for _, q := range []string{`"""`, `'''`} {
				if strings.Count(line, q)%2 == 1 {
					inMulti = q
				}
			}
			if segs, ok := tomlHeader(line); ok {
				ours := hasPrefix(segs, full)
				if start >= 0 && !ours {
					spans = append(spans, [2]int{start, pos})
					start = -1
				}
				if start < 0 && ours {
					start = pos
				}
			}
		}
		if next == len(data) {
			break
		}
		pos = next
	}
	if start >= 0 {
		spans = append(spans, [2]int{start, len(data)})
	}
	return spans
}

// cutSpans removes spans from data and returns where the first one was.
func cutSpans(data []byte, spans [][2]int) ([]byte, int) {
	out := make([]byte, 0, len(data))
	first := -1
	prev := 0
	for _, s := range spans {
		out = append(out, data[prev:s[0]]...)
		if first < 0 {
			first = len(out)
		}
		prev = s[1]
	}
	return append(out, data[prev:]...), first
}

func mergeTOML(data []byte, key []string, name string, value Object) ([]byte, bool, error) {
	before, err := decodeTOML(data)
	if err != nil {
		return nil, false, err
	}
	if cur, ok, _ := lookupTOML(data, key, name); ok && sameValue(cur, value) {
		return data, false, nil
	}
	full := append(append([]string(nil), key...), name)
	const eol = "\n" // Merge turns it into the file's own ending
	rest, at := cutSpans(data, tomlSpans(data, full))
	if _, ok, err := lookupTOML(rest, key, name); err != nil || ok {
		return nil, false, fmt.Errorf("%s is defined inline, not as a [%s] table; edit it by hand or remove it", strings.Join(full, "."), strings.Join(full, "."))
	}
	table := renderTOMLTable(key, name, value, eol)
	var out []byte
	if at >= 0 {
		out = append(out, rest[:at]...)
		out = append(out, table...)
		tail := rest[at:]
		if len(bytes.TrimSpace(tail)) > 0 {
			out = append(out, eol...)
		}
		out = append(out, tail...)
	} else {
		out = append(out, rest...)
		if len(out) > 0 && !bytes.HasSuffix(out, []byte("\n")) {
			out = append(out, eol...)
		}
		if len(bytes.TrimSpace(out)) > 0 && !bytes.HasSuffix(out, []byte(eol+eol)) {
			out = append(out, eol...)
		}
		out = append(out, table...)
	}
	after, err := decodeTOML(out)
	if err != nil {
		return nil, false, fmt.Errorf("the merged file does not parse: %w", err)
	}
	if got, ok, _ := lookupTOML(out, key, name); !ok || !sameValue(got, value) {
		return nil, false, fmt.Errorf("the merged file does not hold the agentos entry")
	}
	if !sameValue(withoutPath(before, full), withoutPath(after, full)) {
		return nil, false, fmt.Errorf("merging would change other settings; edit it by hand")
	}
	return out, true, nil
}

func removeTOML(data []byte, key []string, name string) ([]byte, bool, error) {
	before, err := decodeTOML(data)
	if err != nil {
		return nil, false, err
	}
	full := append(append([]string(nil), key...), name)
	if _, ok, _ := lookupTOML(data, key, name); !ok {
		return data, false, nil
	}
	out, _ := cutSpans(data, tomlSpans(data, full))
	after, err := decodeTOML(out)
	if err != nil {
		return nil, false, fmt.Errorf("the edited file does not parse: %w", err)
	}
	if _, ok, _ := lookupTOML(out, key, name); ok {
		return nil, false, fmt.Errorf("%s is defined inline; remove it by hand", strings.Join(full, "."))
	}
	if !sameValue(withoutPath(before, full), withoutPath(after, full)) {
		return nil, false, fmt.Errorf("removing would change other settings; edit it by hand")
	}
	return out, true, nil
}

// withoutPath copies doc without the value at full, dropping tables the
// removal leaves empty.
func withoutPath(doc map[string]any, full []string) map[string]any {
	out := map[string]any{}
	for k, v := range doc {
		out[k] = v
	}
	if len(full) == 0 {
		return out
	}
	if len(full) == 1 {
		delete(out, full[0])
		return out
	}
	sub, ok := out[full[0]].(map[string]any)
	if !ok {
		return out
	}
	pruned := withoutPath(sub, full[1:])
	if len(pruned) == 0 {
		delete(out, full[0])
	} else {
		out[full[0]] = pruned
	}
	return out
}
