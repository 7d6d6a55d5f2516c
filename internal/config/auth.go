package config

import "bytes"

// The server.auth block earlier installs wrote, when any local process was
// the default, and the one install writes now.
var (
	authBlockNone = []string{
		"  # Who may call the HTTP transport:",
		"  #   none  - any process on this machine.",
		"  #   token - only callers that send the bearer token agentos keeps in",
		"  #           .agentos/.cache/auth_token.",
		"  auth: none",
	}
	authBlockUser = []string{
		"  # Who may call the HTTP transport:",
		"  #   user  - only processes of the OS user the server runs as (the kernel",
		"  #           tells the owner of each connection; on Linux. Elsewhere,",
		"  #           choose token to keep other users out).",
		"  #   token - only callers that send the bearer token agentos keeps in",
		"  #           .agentos/.cache/auth_token.",
		"  #   none  - any process on this machine, other users' included.",
		"  auth: user",
	}
)

// MigrateAuth returns a config file's text with the server.auth block an
// earlier install wrote (auth: none, with that install's comment, which
// nobody changed) replaced by today's (auth: user), and whether it was
// there. A block a person edited is theirs and stays; every other byte
// stays too, line endings included.
func MigrateAuth(data []byte) ([]byte, bool) {
	for _, eol := range []string{"\r\n", "\n"} {
		old := []byte(joinLines(authBlockNone, eol) + eol)
		if bytes.Count(data, old) == 1 {
			return bytes.Replace(data, old, []byte(joinLines(authBlockUser, eol)+eol), 1), true
		}
	}
	return data, false
}

func joinLines(lines []string, eol string) string {
	var b bytes.Buffer
	for i, l := range lines {
		if i > 0 {
			b.WriteString(eol)
		}
		b.WriteString(l)
	}
	return b.String()
}
