package gates

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Evidence field types.
const (
	EvidenceString  = "string"
	EvidenceNumber  = "number"
	EvidenceBoolean = "boolean"
	EvidenceList    = "list"
	EvidenceFile    = "file"
)

// EvidenceTypes lists the accepted evidence field types.
var EvidenceTypes = []string{EvidenceString, EvidenceNumber, EvidenceBoolean, EvidenceList, EvidenceFile}

// EvidenceField declares one value an agent must supply for a phase.
type EvidenceField struct {
	Name        string `yaml:"name" json:"name"`
	Type        string `yaml:"type" json:"type"`                                   // string, number, boolean, list or file
	MinLength   int    `yaml:"min_length,omitempty" json:"min_length,omitempty"`   // string: characters, white space trimmed
	MinItems    int    `yaml:"min_items,omitempty" json:"min_items,omitempty"`     // list: non-blank items
	Required    *bool  `yaml:"required,omitempty" json:"required,omitempty"`       // nil means true
	Description string `yaml:"description,omitempty" json:"description,omitempty"` // what to supply, shown to the agent
}

// IsRequired reports whether the field must be supplied.
func (f EvidenceField) IsRequired() bool { return f.Required == nil || *f.Required }

// Validate reports whether the declaration is well-formed.
func (f EvidenceField) Validate() error {
	if strings.TrimSpace(f.Name) == "" {
		return errors.New("an evidence field has no name")
	}
	if !slices.Contains(EvidenceTypes, f.Type) {
		if f.Type == "" {
			return fmt.Errorf("evidence field %q has no type (known: %s)", f.Name, strings.Join(EvidenceTypes, ", "))
		}
		return fmt.Errorf("evidence field %q has unknown type %q%s (known: %s)", f.Name, f.Type, suggest(f.Type, EvidenceTypes), strings.Join(EvidenceTypes, ", "))
	}
	if f.MinLength < 0 || f.MinItems < 0 {
		return fmt.Errorf("evidence field %q has a negative minimum", f.Name)
	}
	if f.MinLength > 0 && f.Type != EvidenceString {
		return fmt.Errorf("evidence field %q: min_length applies only to type string", f.Name)
	}
	if f.MinItems > 0 && f.Type != EvidenceList {
		return fmt.Errorf("evidence field %q: min_items applies only to type list", f.Name)
	}
	return nil
}

// EvidenceDetails is the Details of an evidence result.
type EvidenceDetails struct {
	Fields int          `json:"fields"`
	Errors []FieldError `json:"errors,omitempty"`
}

// FieldError is one evidence field that did not pass.
type FieldError struct {
	Field    string `json:"field"`
	Problem  string `json:"problem"`
	Expected string `json:"expected"` // what the field should hold
}

// trivialAnswers are strings that say nothing, refused for any field that asks
// for at least 10 characters.
var trivialAnswers = map[string]bool{
	"done": true, "ok": true, "okay": true, "yes": true, "y": true, "n/a": true, "na": true, "none": true,
	"nothing": true, "complete": true, "completed": true, "finished": true, "fixed": true, "tested": true,
	"works": true, "it works": true, "all good": true, "looks good": true, "lgtm": true, "todo": true, "tbd": true,
	"all done": true, "all tests pass": true, "tests pass": true, "passed": true, "see above": true,
}

func (c Check) runEvidence(ctx context.Context, env Env) Result {
	d := EvidenceDetails{Fields: len(c.Fields)}
	for _, f := range c.Fields {
		if ctx.Err() != nil {
			return failf(c.Type, "Run the gate again.", "The evidence check was cancelled.")
		}
		if problem := checkEvidence(f, env); problem != "" {
			d.Errors = append(d.Errors, FieldError{Field: f.Name, Problem: problem, Expected: f.expected()})
		}
	}
	var warnings []string
	var unknown []string
	for k := range env.Evidence {
		if !slices.ContainsFunc(c.Fields, func(f EvidenceField) bool { return f.Name == k }) {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		warnings = append(warnings, fmt.Sprintf("This gate does not use the evidence %s.", listNames(unknown, 5)))
	}
	if len(d.Errors) == 0 {
		r := pass(c.Type, "%s.", upperFirst(every(len(c.Fields), "declared field holds valid evidence", "declared fields hold valid evidence")))
		r.Details, r.Warnings = d, warnings
		return r
	}
	var names []string
	for _, e := range d.Errors {
		names = append(names, e.Field)
	}
	first := d.Errors[0]
	r := failf(c.Type, fmt.Sprintf("Supply %s as %s (now: %s), and fix the other fields listed in details.", first.Field, first.Expected, first.Problem),
		"%d of %s are missing or invalid: %s.", len(d.Errors), plural(len(c.Fields), "evidence field", "evidence fields"), listNames(names, 5))
	if len(d.Errors) == 1 {
		r.Message = fmt.Sprintf("The evidence field %s is not acceptable: %s.", first.Field, first.Problem)
		r.Remediation = fmt.Sprintf("Supply %s as %s (now: %s).", first.Field, first.Expected, first.Problem)
	}
	r.Details, r.Warnings = d, warnings
	return r
}

// expected describes what a field should hold, for a remediation.
func (f EvidenceField) expected() string {
	var s string
	switch f.Type {
	case EvidenceString:
		s = "a string"
		if f.MinLength > 0 {
			s += fmt.Sprintf(" of at least %d characters", f.MinLength)
		}
	case EvidenceNumber:
		s = "a number"
	case EvidenceBoolean:
		s = "true or false"
	case EvidenceList:
		s = "a list"
		if f.MinItems > 0 {
			s += fmt.Sprintf(" of at least %s", plural(f.MinItems, "item", "items"))
		}
	case EvidenceFile:
		s = "the path of an existing file in the project"
	}
	if f.Description != "" {
		s += " (" + trimDot(f.Description) + ")"
	}
	return s
}

// checkEvidence returns "" when env.Evidence holds a valid value for f, else
// what is wrong.
func checkEvidence(f EvidenceField, env Env) string {
	v, present := env.Evidence[f.Name]
	if !present || v == nil {
		if f.IsRequired() {
			return "missing"
		}
		return ""
	}
	switch f.Type {
	case EvidenceString:
		s, ok := v.(string)
		if !ok {
			return "not a string but " + jsonKind(v)
		}
		return checkText(s, f.MinLength, f.IsRequired())
	case EvidenceNumber:
		switch n := v.(type) {
		case float64:
			if math.IsNaN(n) || math.IsInf(n, 0) {
				return "not a finite number"
			}
			return ""
		case float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
			return ""
		case json.Number:
			if _, err := n.Float64(); err != nil {
				return "not a number"
			}
			return ""
		}
		return "not a number but " + jsonKind(v)
	case EvidenceBoolean:
		if _, ok := v.(bool); !ok {
			return "not true or false but " + jsonKind(v)
		}
		return ""
	case EvidenceList:
		rv := reflect.ValueOf(v)
		if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
			return "not a list but " + jsonKind(v)
		}
		items := 0
		for i := 0; i < rv.Len(); i++ {
			item := rv.Index(i).Interface()
			if s, ok := item.(string); item == nil || (ok && strings.TrimSpace(s) == "") {
				continue
			}
			items++
		}
		if items == 0 && f.IsRequired() {
			return "an empty list"
		}
		if items < f.MinItems {
			return fmt.Sprintf("a list of %s", plural(items, "non-blank item", "non-blank items"))
		}
		return ""
	case EvidenceFile:
		s, ok := v.(string)
		if !ok {
			return "not a path but " + jsonKind(v)
		}
		if strings.TrimSpace(s) == "" {
			return "an empty path"
		}
		abs, rel, err := resolveLiteral(env.Root, s)
		if err != nil {
			return trimDot(err.Error())
		}
		if problem := regularNonEmpty(abs); problem != "" {
			return fmt.Sprintf("%s is %s", rel, problem)
		}
		return ""
	}
	return "of an unknown type"
}

// checkText judges a string: not blank, at least minLength characters once
// trimmed, and for minLength of 10 or more, more than a token answer.
func checkText(s string, minLength int, required bool) string {
	t := strings.TrimSpace(s)
	if t == "" {
		if required {
			return "blank"
		}
		return ""
	}
	if n := utf8.RuneCountInString(t); n < minLength {
		return fmt.Sprintf("only %d characters long", n)
	}
	if minLength >= 10 {
		norm := strings.ToLower(strings.Join(strings.Fields(strings.TrimFunc(t, func(r rune) bool {
			return unicode.IsPunct(r) && r != '/' || unicode.IsSpace(r)
		})), " "))
		if trivialAnswers[norm] {
			return fmt.Sprintf("a token answer (%q)", clip(t, 30))
		}
		if repetitive(norm) {
			return "filler, not a real answer"
		}
	}
	return ""
}

// repetitive reports text made of one repeated character or word, a way to
// pad a token answer to a minimum length.
func repetitive(s string) bool {
	chars := map[rune]bool{}
	for _, r := range s {
		if !unicode.IsSpace(r) {
			chars[r] = true
		}
	}
	if len(chars) <= 2 {
		return true
	}
	words := strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) })
	if len(words) < 2 {
		return false
	}
	distinct := map[string]bool{}
	for _, w := range words {
		distinct[w] = true
	}
	return len(distinct) == 1 || (len(words) >= 4 && len(distinct) <= 2 && trivialAnswers[words[0]])
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64, float32, int, int64, int32, json.Number:
		return "a number"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}
