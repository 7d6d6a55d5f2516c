// Package toolkit owns the shape every agentos MCP tool shares: the Tool value
// a subsystem contributes to the registry, the error envelope with its codes,
// and helpers to build structured results. Subsystem packages depend on it;
// it depends on nothing of ours.
package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Tool is one MCP tool: its definition (schemas, annotations) and handler.
// A subsystem package exposes its tools as constructors returning a Tool.
type Tool struct {
	Def     mcp.Tool
	Handler server.ToolHandlerFunc
}

// Error codes of the error envelope; see Error.
const (
	CodeValidation    = "VALIDATION_ERROR"
	CodeBusinessLogic = "BUSINESS_LOGIC_ERROR"
	CodeNotFound      = "NOT_FOUND"
	CodeUnauthorized  = "UNAUTHORIZED"
	CodeForbidden     = "FORBIDDEN"
	CodeInternal      = "INTERNAL_ERROR"
)

// Error is the body of every failed tool call: a stable code, one sentence
// saying what happened and what to do, and optional structured details.
type Error struct {
	Code    string `json:"error_code"`
	Message string `json:"message"`
	Details any    `json:"details"`
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithDetails returns e carrying details.
func (e *Error) WithDetails(details any) *Error {
	e.Details = details
	return e
}

// Validation reports a bad argument, naming the field.
func Validation(field, format string, args ...any) *Error {
	return &Error{Code: CodeValidation, Message: fmt.Sprintf(format, args...), Details: map[string]string{"field": field}}
}

// ErrorResult turns err into an isError tool result whose text is
// "CODE: message" and then the envelope (error_code, message, details). It carries no structured
// content: every tool declares an outputSchema for its answers, which an
// error envelope does not fit, and clients built on the MCP SDKs (Gemini
// CLI, opencode) validate structured content even on errors, replacing the
// refusal with a schema error the model cannot act on; without structured
// content they skip validation for an error and show its text. An error
// that is not an *Error becomes INTERNAL_ERROR with a generic message:
// internal detail is not for clients.
func ErrorResult(err error) *mcp.CallToolResult {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Code: CodeInternal, Message: "the server failed to complete the request; see the server log for details"}
	}
	body, _ := json.Marshal(e)
	return &mcp.CallToolResult{
		// A plain line first: Gemini CLI (0.61) turns a result whose first
		// text parses as JSON into structured content, errors included, and
		// then validates it against the output schema, which the envelope
		// does not fit. The envelope follows for clients that parse it.
		Content: []mcp.Content{mcp.NewTextContent(e.Code + ": " + e.Message), mcp.NewTextContent(string(body))},
		IsError: true,
	}
}

// Envelope returns the error envelope of an isError result (its JSON
// text), for clients and tests that read the code and details.
func Envelope(res *mcp.CallToolResult) (Error, bool) {
	var e Error
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok && json.Unmarshal([]byte(t.Text), &e) == nil && e.Code != "" {
			return e, true
		}
	}
	return Error{}, false
}

// Result returns a successful result carrying v as structured content and as
// compact JSON text for clients that read only text.
func Result(v any) *mcp.CallToolResult {
	body, err := json.Marshal(v)
	if err != nil {
		return ErrorResult(fmt.Errorf("encode result: %w", err))
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent(string(body))},
		StructuredContent: json.RawMessage(body),
	}
}

// Handler adapts a typed handler: it binds the arguments to In (a malformed
// argument is a VALIDATION_ERROR), calls fn, and wraps its output or error.
// Internal errors are passed to the server's logger through the returned
// result only as a generic message; fn should log details itself.
func Handler[In, Out any](fn func(ctx context.Context, req mcp.CallToolRequest, in In) (Out, error)) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in In
		if err := req.BindArguments(&in); err != nil {
			return ErrorResult(bindError(err)), nil
		}
		out, err := fn(ctx, req, in)
		if err != nil {
			return ErrorResult(err), nil
		}
		return Result(out), nil
	}
}

// Annotations sets all four behaviour hints explicitly: the protocol's
// defaults assume a destructive, open-world tool, which is wrong for most of ours.
func Annotations(title string, readOnly, destructive, idempotent, openWorld bool) mcp.ToolOption {
	return mcp.WithToolAnnotation(mcp.ToolAnnotation{
		Title:           title,
		ReadOnlyHint:    mcp.ToBoolPtr(readOnly),
		DestructiveHint: mcp.ToBoolPtr(destructive),
		IdempotentHint:  mcp.ToBoolPtr(idempotent),
		OpenWorldHint:   mcp.ToBoolPtr(openWorld),
	})
}

// bindError turns an argument decoding error into a VALIDATION_ERROR that
// names the field when the decoder knows it.
func bindError(err error) *Error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return Validation(typeErr.Field, "%s must be a %s, not a %s", typeErr.Field, jsonKind(typeErr.Type.Kind().String()), typeErr.Value)
	}
	return &Error{Code: CodeValidation, Message: "the arguments do not match the tool's input schema: " + err.Error()}
}

// jsonKind names a Go kind the way a JSON schema would.
func jsonKind(goKind string) string {
	switch goKind {
	case "int", "int64", "int32", "uint", "uint64", "float64", "float32":
		return "number"
	case "bool":
		return "boolean"
	case "map", "struct":
		return "object"
	case "slice", "array":
		return "array"
	case "ptr":
		return "value of the documented type"
	}
	return goKind
}

// Quoted is s quoted, every byte visible, and cut to its first max bytes
// at a character boundary (with an ellipsis): how an error names a value a
// client sent that is too long or otherwise refused.
func Quoted(s string, max int) string {
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}
