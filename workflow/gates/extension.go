package gates

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
)

// Extension is a check type defined outside this package, such as one that
// reads a report another subsystem writes. Its keys all take strings, which a
// decoded Check holds in Params.
type Extension struct {
	// Keys are the keys the type takes besides type and description.
	Keys []string
	// Required lists the keys that must be given.
	Required []string
	// Run runs the check. Placeholders in Params are not expanded: call
	// Placeholders with env.Vars. A panic becomes a failed Result.
	Run func(ctx context.Context, c Check, env Env) Result
	// RunsCommands says the check runs the project's commands (its tests):
	// the engine then gives the gate a sandbox, as it does a command check.
	RunsCommands bool
}

var (
	extMu      sync.RWMutex
	extensions = map[string]Extension{}
)

// Register adds a check type. Call it from an init function, before any
// workflow definition is decoded. It refuses a built-in or already registered
// type, a nil Run, and keys that clash with type or description.
func Register(typ string, ext Extension) error {
	if typ == "" || identLen(typ) != len(typ) {
		return fmt.Errorf("check type %q must be a plain word such as upgrade_report", typ)
	}
	if _, builtin := builtinKeys[typ]; builtin {
		return fmt.Errorf("check type %q is built in", typ)
	}
	if ext.Run == nil {
		return fmt.Errorf("check type %q has no Run function", typ)
	}
	seen := map[string]bool{}
	for _, k := range ext.Keys {
		if k == "" || k == "type" || k == "description" || seen[k] {
			return fmt.Errorf("check type %q: key %q is empty, reserved or repeated", typ, k)
		}
		seen[k] = true
	}
	for _, k := range ext.Required {
		if !seen[k] {
			return fmt.Errorf("check type %q: required key %q is not among its keys", typ, k)
		}
	}
	extMu.Lock()
	defer extMu.Unlock()
	if _, dup := extensions[typ]; dup {
		return fmt.Errorf("check type %q is already registered", typ)
	}
	ext.Keys, ext.Required = slices.Clone(ext.Keys), slices.Clone(ext.Required)
	extensions[typ] = ext
	return nil
}

func extension(typ string) (Extension, bool) {
	extMu.RLock()
	defer extMu.RUnlock()
	e, ok := extensions[typ]
	return e, ok
}

// Types returns the known check types: the built-in ones, then the
// registered ones in name order.
func Types() []string {
	out := []string{TypeFilesExist, TypeMarkdownSections, TypeTasksFormat, TypeCommand,
		TypeCoverage, TypeAcceptanceCriteria, TypeEvidence, TypeApproval}
	extMu.RLock()
	var ext []string
	for t := range extensions {
		ext = append(ext, t)
	}
	extMu.RUnlock()
	sort.Strings(ext)
	return append(out, ext...)
}

// keySpec returns the keys a type takes besides type and description, and
// which of them are required.
func keySpec(typ string) (allowed, required []string, ok bool) {
	if s, ok := builtinKeys[typ]; ok {
		return s.allowed, s.required, true
	}
	if e, ok := extension(typ); ok {
		return e.Keys, e.Required, true
	}
	return nil, nil, false
}

// validateExtension checks a Check of a registered type.
func (c Check) validateExtension(ext Extension) error {
	for k, v := range c.Params {
		if !slices.Contains(ext.Keys, k) {
			return fmt.Errorf("%s check does not take %q%s", aType(c.Type), k, knownKeys(c.Type))
		}
		if err := checkPlaceholderSyntax(v); err != nil {
			return err
		}
	}
	for _, k := range ext.Required {
		if c.Params[k] == "" {
			return fmt.Errorf("%s check needs %q", aType(c.Type), k)
		}
	}
	return nil
}
