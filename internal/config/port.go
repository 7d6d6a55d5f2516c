package config

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// portComment introduces server.port where SetPort adds it.
const portComment = "# This project's HTTP port, recorded once so agents that connect over HTTP\n# keep finding the server; when something else holds it the server takes\n# the next free port of port_range and logs why."

// SetPort returns the YAML text of a config file with server.port set to
// port. Only the line that holds the key changes, or a comment and the key
// are added under server: (the file is the user's, so every other line,
// comment and blank line stays as it was). The result is checked to
// load with that port.
func SetPort(data []byte, port int) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not valid YAML: %w", err)
	}
	lines := splitLines(data)
	var out []string
	switch root := documentRoot(&doc); {
	case root == nil: // empty file
		out = append(lines, "server:", indentBlock(portComment, "  "), fmt.Sprintf("  port: %d", port))
	case root.Kind != yaml.MappingNode:
		return nil, fmt.Errorf("line %d: the file must be a mapping of keys", root.Line)
	default:
		key, server := lookup(root, "server")
		switch {
		case server == nil:
			out = append(lines, "", "server:", indentBlock(portComment, "  "), fmt.Sprintf("  port: %d", port))
		case server.Kind == yaml.ScalarNode && server.Tag == "!!null":
			if n := portCommentAt(lines, key.Line); n > 0 {
				// Only the port line was deleted: the comment still says what it is.
				indent := lines[key.Line][:len(lines[key.Line])-len(strings.TrimLeft(lines[key.Line], " \t"))]
				out = insertLines(lines, key.Line+n, fmt.Sprintf("%sport: %d", indent, port))
				break
			}
			out = insertLines(lines, key.Line, indentBlock(portComment, "  "), fmt.Sprintf("  port: %d", port))
		case server.Kind != yaml.MappingNode || server.Style&yaml.FlowStyle != 0 || len(server.Content) == 0:
			return nil, fmt.Errorf("line %d: server is not a block mapping; add \"port: %d\" under it by hand", key.Line, port)
		case hasKey(server, "port"):
			k, v := lookup(server, "port")
			if v.Kind != yaml.ScalarNode || v.Style != 0 || v.Line != k.Line {
				return nil, fmt.Errorf("line %d: server.port must be a plain number on the key's line", k.Line)
			}
			line := []rune(lines[v.Line-1])
			start, end := v.Column-1, v.Column-1+len([]rune(v.Value))
			if end > len(line) {
				return nil, fmt.Errorf("line %d: server.port must be a plain number on the key's line", k.Line)
			}
			lines[v.Line-1] = string(line[:start]) + fmt.Sprint(port) + string(line[end:])
			out = lines
		default:
			first := server.Content[0]
			indent := strings.Repeat(" ", first.Column-1)
			// Above the first key, and above the comment lines that belong to it.
			at := first.Line - 1
			for at > key.Line && strings.HasPrefix(strings.TrimSpace(lines[at-1]), "#") {
				at--
			}
			if n := portCommentAt(lines, at); n > 0 {
				out = insertLines(lines, at+n, fmt.Sprintf("%sport: %d", indent, port))
				break
			}
			out = insertLines(lines, at, indentBlock(portComment, indent), fmt.Sprintf("%sport: %d", indent, port))
		}
	}
	result := []byte(strings.Join(out, lineEnding(data)))
	if len(result) > 0 && !bytes.HasSuffix(result, []byte("\n")) {
		result = append(result, lineEnding(data)...)
	}
	cfg, err := Parse(result)
	if err != nil {
		return nil, fmt.Errorf("set server.port: %w", err)
	}
	if cfg.Server.Port != port {
		return nil, fmt.Errorf("set server.port: the file still reads %d", cfg.Server.Port)
	}
	return result, nil
}

func documentRoot(doc *yaml.Node) *yaml.Node {
	if len(doc.Content) == 0 {
		return nil
	}
	return doc.Content[0]
}

// lookup finds key in a mapping node: the key node and its value.
func lookup(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

func hasKey(m *yaml.Node, key string) bool {
	_, v := lookup(m, key)
	return v != nil
}

// splitLines splits text into lines without their endings; a final line
// ending adds no empty line.
func splitLines(data []byte) []string {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

func lineEnding(data []byte) string {
	if bytes.Contains(data, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// portCommentAt returns how many lines portComment takes when lines[i:]
// start with it, whatever their indentation, else 0: a person who deleted
// only the port line left it, and it is not added twice.
func portCommentAt(lines []string, i int) int {
	want := strings.Split(portComment, "\n")
	if i+len(want) > len(lines) {
		return 0
	}
	for k, w := range want {
		if strings.TrimSpace(lines[i+k]) != w {
			return 0
		}
	}
	return len(want)
}

// insertLines inserts add after the first n lines.
func insertLines(lines []string, n int, add ...string) []string {
	out := append([]string(nil), lines[:n]...)
	for _, a := range add {
		out = append(out, strings.Split(a, "\n")...)
	}
	return append(out, lines[n:]...)
}

func indentBlock(text, indent string) string {
	parts := strings.Split(text, "\n")
	for i, p := range parts {
		parts[i] = indent + p
	}
	return strings.Join(parts, "\n")
}
