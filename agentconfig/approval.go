package agentconfig

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// Approvals is where a client records the project servers a person
// approved, for a client that holds a server of the project's own config
// until then and shows it as pending (Qwen Code). Doctor reads the record
// so that it does not say "Everything checks out" while the client still
// waits; agentos never writes it, since approving a server that runs code
// is the person's decision.
type Approvals struct {
	// File is the approvals file as a user path ("~/.qwen/mcpApprovals.json");
	// Env.QwenApprovals overrides it for Qwen Code.
	File string
	// Hash is how the client binds an approval to the entry's content, so
	// that an entry changed since (a port agentos connect rewrote) is
	// pending again.
	Hash func(entry map[string]any) string
	// Bypass, when set, names the client setting in force for a session
	// started at root that starts project servers without approval ("" when
	// none is), and the file that sets it.
	Bypass func(c Client, root string, env Env) (setting, file string, err error)
}

// The states of an approval, as the client records them, and the two ways
// of being pending that doctor tells apart.
const (
	Approved       = "approved"
	Rejected       = "rejected"
	Pending        = "pending" // never approved here
	PendingChanged = "changed" // approved, then the entry changed
)

// ApprovalPath is the file where c records approved project servers; ""
// when c has none.
func (c Client) ApprovalPath(env Env) string {
	if c.Approvals == nil {
		return ""
	}
	env = env.withDefaults()
	if c.ID == "qwen" && env.QwenApprovals != "" {
		return env.QwenApprovals
	}
	return filepath.FromSlash(expandPath(c.Approvals.File, env))
}

// ApprovalState says whether c would start entry, the project's server
// in its project config at root, without asking: Approved, Rejected,
// Pending or PendingChanged, as the client itself decides it. Qwen Code
// (0.24, packages/cli/src/config/mcpApprovals.ts) keys its record by the
// folder it runs in and the server's name, and keeps the sha256 of the
// entry with its keys sorted (configHash.ts); any other hash is pending.
func (c Client) ApprovalState(root string, env Env, entry map[string]any) (string, error) {
	if c.Approvals == nil {
		return Approved, nil
	}
	path := c.ApprovalPath(env)
	data, _, exists, err := readFile(path)
	if err != nil {
		return "", err
	}
	if !exists {
		return Pending, nil
	}
	doc, err := Decode(JSON, data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	all, ok := doc.(map[string]any)
	if !ok {
		return "", fmt.Errorf("%s is not a JSON object, so %s reads no approval from it", path, c.Name)
	}
	record := approvalRecord(all, root)
	if record == nil {
		return Pending, nil
	}
	status, _ := record["status"].(string)
	if hash, _ := record["hash"].(string); hash != c.Approvals.Hash(entry) {
		return PendingChanged, nil
	}
	switch status {
	case Approved, Rejected:
		return status, nil
	}
	return Pending, nil
}

// approvalRecord finds agentos's record for the project at root. The
// client keys it by the folder it was started in as Node resolves it
// (physical, without links; lower case on Windows), so the project root
// is tried as given and with its links resolved.
func approvalRecord(all map[string]any, root string) map[string]any {
	roots := []string{filepath.Clean(root)}
	if real, err := filepath.EvalSymlinks(root); err == nil && real != roots[0] {
		roots = append(roots, real)
	}
	for _, r := range roots {
		for key, v := range all {
			if key != r && !(runtime.GOOS == "windows" && strings.EqualFold(key, r)) {
				continue
			}
			project, _ := v.(map[string]any)
			if record, ok := project[ServerName].(map[string]any); ok {
				return record
			}
		}
	}
	return nil
}

// qwenNonBehavioral are the fields Qwen Code leaves out of an entry's hash:
// where it came from and its label, which change nothing it runs.
var qwenNonBehavioral = map[string]bool{"scope": true, "extensionName": true, "description": true}

// qwenEnvVar is how Qwen Code finds $VAR and ${VAR} in settings strings,
// which it replaces before it hashes an entry.
var qwenEnvVar = regexp.MustCompile(`\$(?:(\w+)|\{([^}]+)\})`)

// qwenConfigHash is Qwen Code's hashMcpServerConfig: the sha256, in hex, of
// JSON.stringify of the entry without its non-behavioural fields, every
// object's keys sorted, after the settings loader has expanded environment
// variables in its strings.
func qwenConfigHash(entry map[string]any) string {
	kept := map[string]any{}
	for k, v := range entry {
		if !qwenNonBehavioral[k] {
			kept[k] = qwenExpand(v)
		}
	}
	var b strings.Builder
	jsStringify(&b, kept)
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// qwenExpand replaces environment variables in the strings of v the way
// Qwen Code's settings loader does: a variable that is not set stays as
// written, and the session id is never expanded.
func qwenExpand(v any) any {
	switch t := v.(type) {
	case string:
		return qwenEnvVar.ReplaceAllStringFunc(t, func(m string) string {
			sub := qwenEnvVar.FindStringSubmatch(m)
			name := sub[1] + sub[2]
			if u := strings.ToUpper(name); u == "SESSION_ID" || u == "QWEN_CODE_SESSION_ID" {
				return m
			}
			if val, ok := os.LookupEnv(name); ok {
				return val
			}
			return m
		})
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = qwenExpand(x)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = qwenExpand(x)
		}
		return out
	}
	return v
}

// jsStringify writes v as JavaScript's JSON.stringify does with a replacer
// that sorts every object's keys: no spaces, keys in code-unit order,
// strings escaped as JSON.stringify escapes them, numbers as JavaScript
// prints them. The values are what encoding/json decodes into any.
func jsStringify(b *strings.Builder, v any) {
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(t))
	case float64:
		b.WriteString(jsNumber(t))
	case string:
		jsQuote(b, t)
	case []any:
		b.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			jsStringify(b, x)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return utf16Less(keys[i], keys[j]) })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			jsQuote(b, k)
			b.WriteByte(':')
			jsStringify(b, t[k])
		}
		b.WriteByte('}')
	default:
		b.WriteString("null")
	}
}

// utf16Less orders strings as JavaScript's default sort does: by UTF-16
// code units, which differs from byte order only above U+FFFF.
func utf16Less(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	unit := func(r rune) rune {
		if r > 0xFFFF {
			return 0xD800 + (r-0x10000)>>10 // the high surrogate decides
		}
		return r
	}
	for i := 0; i < len(ra) && i < len(rb); i++ {
		if ra[i] != rb[i] {
			ua, ub := unit(ra[i]), unit(rb[i])
			if ua != ub {
				return ua < ub
			}
			return ra[i] < rb[i]
		}
	}
	return len(ra) < len(rb)
}

// jsQuote writes s quoted as JSON.stringify quotes it: only the quote, the
// backslash and control characters are escaped.
func jsQuote(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// jsNumber prints f as JavaScript's Number.prototype.toString does.
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f), math.IsInf(f, 0):
		return "null"
	case f == 0:
		return "0"
	}
	abs := math.Abs(f)
	if abs >= 1e21 || abs < 1e-6 {
		s := strconv.FormatFloat(f, 'e', -1, 64) // 1e+21, 1.5e-07
		mant, exp, _ := strings.Cut(s, "e")
		sign := exp[:1]
		exp = strings.TrimLeft(exp[1:], "0")
		return mant + "e" + sign + exp
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
