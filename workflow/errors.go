package workflow

import (
	"errors"
	"fmt"
)

// Kind classifies an engine error for callers that map it to a protocol code.
type Kind int

const (
	KindInvalid   Kind = iota + 1 // bad input: unknown workflow, malformed id, wrong task
	KindNotFound                  // no such session, phase or task
	KindRefused                   // the rules forbid it now: out of order, gate not met, not the owner, state unreadable
	KindForbidden                 // the caller may never do this (approve through a tool)
)

// Error is an engine refusal with a one-sentence message.
type Error struct {
	Kind  Kind
	Field string // the input at fault, when there is one
	Msg   string
}

func (e *Error) Error() string { return e.Msg }

func invalid(field, format string, args ...any) error {
	return &Error{Kind: KindInvalid, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func refused(format string, args ...any) error {
	return &Error{Kind: KindRefused, Msg: fmt.Sprintf(format, args...)}
}

func notFound(format string, args ...any) error {
	return &Error{Kind: KindNotFound, Msg: fmt.Sprintf(format, args...)}
}

// KindOf returns the kind of err, or 0 for an internal error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	if errors.Is(err, ErrNoSession) {
		return KindNotFound
	}
	var corrupt *CorruptError
	if errors.As(err, &corrupt) {
		return KindRefused
	}
	return 0
}
