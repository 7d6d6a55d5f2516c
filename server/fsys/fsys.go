// Package fsys owns the svc_filesystem MCP tool: reading, writing and managing
// files of one project on behalf of an agent. It owns confinement to the
// project root (every file operation goes through an os.Root, and paths are
// checked up front so refusals carry clear error codes) and the gitignore
// guard on writes. Which files may be read and which changed at all is the
// project's path policy (internal/pathpolicy), which the search indexes
// follow too.
package fsys

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/agentos-dev/agentos/internal/pathpolicy"
	"github.com/agentos-dev/agentos/server/toolkit"
)

// Name is the tool's name in the MCP registry.
const Name = "svc_filesystem"

// Defaults and bounds of the options and arguments.
const (
	DefaultMaxReadBytes  = 1 << 20
	DefaultMaxWriteBytes = 4 << 20
	defaultMaxResults    = 200
	maxMaxResults        = 1000
)

// Options tunes the tool; zero values select the defaults.
type Options struct {
	MaxReadBytes  int64        // largest chunk read returns; default 1 MiB
	MaxWriteBytes int64        // largest content write or append accepts; default 4 MiB
	Logger        *slog.Logger // receives internal errors; default slog.Default()
}

// Actions the tool understands, in the order the schema lists them.
const (
	actRead   = "read"
	actWrite  = "write"
	actAppend = "append"
	actList   = "list"
	actStat   = "stat"
	actExists = "exists"
	actGlob   = "glob"
	actMkdir  = "mkdir"
	actMove   = "move"
	actCopy   = "copy"
	actDelete = "delete"
)

var actions = []string{actRead, actWrite, actAppend, actList, actStat, actExists, actGlob, actMkdir, actMove, actCopy, actDelete}

// tool is the configured service; each call opens its own os.Root on it.
type tool struct {
	root     string // absolute, cleaned project root
	realRoot string // root with symlinks resolved: absolute paths may name either form
	maxRead  int64
	maxWrite int64
	log      *slog.Logger
}

// New returns the svc_filesystem tool confined to root (an absolute project root).
func New(root string, opts Options) (toolkit.Tool, error) {
	t, err := newTool(root, opts)
	if err != nil {
		return toolkit.Tool{}, err
	}
	return toolkit.Tool{Def: definition(), Handler: toolkit.Handler(t.handle)}, nil
}

func newTool(root string, opts Options) (*tool, error) {
	if !filepath.IsAbs(root) {
		return nil, fmt.Errorf("filesystem tool: project root %q is not absolute", root)
	}
	root = filepath.Clean(root)
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("filesystem tool: project root: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("filesystem tool: project root %s is not a directory", root)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("filesystem tool: resolve project root: %w", err)
	}
	t := &tool{root: root, realRoot: realRoot, maxRead: opts.MaxReadBytes, maxWrite: opts.MaxWriteBytes, log: opts.Logger}
	if t.maxRead <= 0 {
		t.maxRead = DefaultMaxReadBytes
	}
	if t.maxWrite <= 0 {
		t.maxWrite = DefaultMaxWriteBytes
	}
	if t.log == nil {
		t.log = slog.Default()
	}
	return t, nil
}

// input is the tool's arguments; which ones apply depends on the action.
type input struct {
	Action            string  `json:"action"`
	Path              string  `json:"path"`
	Content           *string `json:"content"`
	Destination       string  `json:"destination"`
	Pattern           string  `json:"pattern"`
	Recursive         bool    `json:"recursive"`
	CreateParents     *bool   `json:"create_parents"`
	Overwrite         bool    `json:"overwrite"`
	OverrideGitignore bool    `json:"override_gitignore"`
	StartLine         int     `json:"start_line"`
	MaxLines          int     `json:"max_lines"`
	MaxResults        int     `json:"max_results"`
}

// createParents defaults to true: agents nearly always want the folder made.
func (in input) createParents() bool { return in.CreateParents == nil || *in.CreateParents }

// Output is the structured result of every action; fields that do not apply
// to the action are omitted.
type Output struct {
	Action        string  `json:"action" jsonschema:"the action performed"`
	Path          string  `json:"path,omitempty" jsonschema:"the path acted on, relative to the project root ('.' is the root)"`
	Destination   string  `json:"destination,omitempty" jsonschema:"move/copy: the destination, relative to the project root"`
	Type          string  `json:"type,omitempty" jsonschema:"stat/exists/move/copy/delete: file, dir, symlink or other"`
	Exists        *bool   `json:"exists,omitempty" jsonschema:"exists: whether something is at the path"`
	Content       *string `json:"content,omitempty" jsonschema:"read: the text returned"`
	StartLine     int     `json:"start_line,omitempty" jsonschema:"read: first line returned (1-based)"`
	EndLine       int     `json:"end_line,omitempty" jsonschema:"read: last line returned, possibly partial when cut"`
	NextStartLine int     `json:"next_start_line,omitempty" jsonschema:"read: start_line to pass to continue reading; present when truncated"`
	TotalLines    int     `json:"total_lines,omitempty" jsonschema:"read: number of lines in the file, known when the read reached the end"`
	Size          *int64  `json:"size,omitempty" jsonschema:"read/write/append/stat: total size of the file in bytes"`
	Truncated     *bool   `json:"truncated,omitempty" jsonschema:"read/list/glob: true when more content or entries exist than were returned"`
	BytesWritten  *int64  `json:"bytes_written,omitempty" jsonschema:"write/append/copy: bytes written"`
	Created       *bool   `json:"created,omitempty" jsonschema:"write/append/mkdir: true when the file or folder did not exist before"`
	Count         *int    `json:"count,omitempty" jsonschema:"list/glob: entries returned; copy: files copied"`
	Entries       []Entry `json:"entries,omitempty" jsonschema:"list: by name, each folder followed by its contents when recursive; glob: sorted by path"`
	Mode          string  `json:"mode,omitempty" jsonschema:"stat: permission bits in octal"`
	Modified      string  `json:"modified,omitempty" jsonschema:"stat: modification time, RFC 3339"`
	Target        string  `json:"target,omitempty" jsonschema:"stat of a symlink: what it points at, relative to the project root"`
	TargetType    string  `json:"target_type,omitempty" jsonschema:"stat of a symlink: type of what it points at, or missing"`
}

// Entry is one item of a list or glob result.
type Entry struct {
	Name     string `json:"name" jsonschema:"base name"`
	Path     string `json:"path" jsonschema:"path relative to the project root"`
	Type     string `json:"type" jsonschema:"file, dir, symlink or other"`
	Size     int64  `json:"size" jsonschema:"size in bytes of a file; 0 for other types"`
	Modified string `json:"modified" jsonschema:"modification time, RFC 3339"`
}

const description = "Read, write and manage files inside the project. Paths are relative to the project root, with forward slashes. " +
	"Actions: read (text, paged by start_line/max_lines), write (atomic replace), append, list, stat, exists, " +
	"glob (e.g. src/**/*.go), mkdir, move, copy, delete. " +
	"Protected paths are never changed or copied (.git/, agentos's own files under .agentos/ except specs/ and standards/, and the agent clients' MCP, permission and hook files such as .mcp.json and .claude/settings.json); the refusal says how a person changes them. .agentos/.cache/ and hard-linked files are never read. Writes to gitignored paths are refused unless override_gitignore is true. " +
	"move/copy never replace an existing destination unless overwrite is true; copying or deleting a directory needs recursive."

func definition() mcp.Tool {
	return mcp.NewTool(Name,
		mcp.WithDescription(description),
		mcp.WithString("action", mcp.Required(), mcp.Enum(actions...),
			mcp.Description("What to do.")),
		mcp.WithString("path", mcp.Description("File or folder relative to the project root, forward slashes; an absolute path must lie inside the root. "+
			"Required except for list and glob, where empty means the root (for glob it is the folder the pattern is relative to). For move/copy it is the source.")),
		mcp.WithString("content", mcp.Description("write/append: the text to write.")),
		mcp.WithString("destination", mcp.Description("move/copy: the new path, relative to the project root. It is the full new name, not a folder to move into.")),
		mcp.WithString("pattern", mcp.Description("glob: a doublestar pattern relative to path, e.g. **/*.go or src/{a,b}/*.ts. .git is never searched.")),
		mcp.WithBoolean("recursive", mcp.DefaultBool(false),
			mcp.Description("list: walk subfolders (never into .git). copy/delete: required to act on a directory.")),
		mcp.WithBoolean("create_parents", mcp.DefaultBool(true),
			mcp.Description("write/append/move/copy: create missing parent folders.")),
		mcp.WithBoolean("overwrite", mcp.DefaultBool(false),
			mcp.Description("move/copy: replace an existing destination file. Existing directories are never replaced. write always replaces.")),
		mcp.WithBoolean("override_gitignore", mcp.DefaultBool(false),
			mcp.Description("Allow writing to a path the project's .gitignore ignores (refused by default). Protected paths stay refused.")),
		mcp.WithInteger("start_line", mcp.Min(1), mcp.DefaultNumber(1),
			mcp.Description("read: first line to return, 1-based.")),
		mcp.WithInteger("max_lines", mcp.Min(0),
			mcp.Description("read: most lines to return; 0 or absent means as many as fit the size cap.")),
		mcp.WithInteger("max_results", mcp.Min(1), mcp.Max(maxMaxResults), mcp.DefaultNumber(defaultMaxResults),
			mcp.Description("list/glob: most entries to return (default 200, at most 1000).")),
		mcp.WithSchemaAdditionalProperties(false),
		mcp.WithOutputSchema[Output](),
		toolkit.Annotations("Project filesystem", false, true, false, false),
	)
}

// op is one call: the arguments and a root handle opened for it.
type op struct {
	*tool
	ctx context.Context
	r   *os.Root
	in  input
	ig  *ignorer            // loaded on first use
	pc  *pathpolicy.Checker // made on first use
}

type actionFunc func(*op) (Output, error)

var dispatch = map[string]actionFunc{
	actRead:   (*op).read,
	actWrite:  (*op).write,
	actAppend: (*op).appendFile,
	actList:   (*op).list,
	actStat:   (*op).stat,
	actExists: (*op).exists,
	actGlob:   (*op).glob,
	actMkdir:  (*op).mkdir,
	actMove:   (*op).move,
	actCopy:   (*op).copy,
	actDelete: (*op).delete,
}

func (t *tool) handle(ctx context.Context, _ mcp.CallToolRequest, in input) (Output, error) {
	fn, ok := dispatch[in.Action]
	if !ok {
		return Output{}, toolkit.Validation("action", "action %q is not one of: %s", in.Action, strings.Join(actions, ", "))
	}
	// A root handle per call keeps the tool stateless and follows the project
	// folder even if it is replaced while the server runs.
	r, err := os.OpenRoot(t.root)
	if err != nil {
		t.log.Error("svc_filesystem: open project root", "root", t.root, "err", err)
		return Output{}, fmt.Errorf("open project root: %w", err)
	}
	defer r.Close()
	out, err := fn(&op{tool: t, ctx: ctx, r: r, in: in})
	if err != nil {
		var te *toolkit.Error
		if !errors.As(err, &te) {
			t.log.Error("svc_filesystem failed", "action", in.Action, "path", in.Path, "destination", in.Destination, "err", err)
		}
		return Output{}, err
	}
	out.Action = in.Action
	return out, nil
}

func ptr[T any](v T) *T { return &v }
