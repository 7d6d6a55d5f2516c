package standards

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"text/template"
	"time"

	"github.com/agentos-dev/agentos/assets"
)

// ReviewInterval is how long a standard stays current before its next review.
const ReviewInterval = 6 // months

var nameRE = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// CheckName reports whether name can name a standard: lower-case words of
// letters and digits joined by hyphens, such as "api-versioning".
func CheckName(name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("standard name %q must be lower-case words joined by hyphens, such as api-versioning", name)
	}
	return nil
}

// Scaffold renders the skeleton of a new standard called name, dated on.
// It follows the format, so that Lint reports only its unfilled
// placeholders ("[[fill: ...]]").
func Scaffold(name string, on time.Time) ([]byte, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	text, err := assets.Read(assets.StandardTemplate)
	if err != nil {
		return nil, err
	}
	tmpl, err := template.New("standard").Option("missingkey=error").Parse(string(text))
	if err != nil {
		return nil, fmt.Errorf("standard template: %w", err)
	}
	words := strings.ReplaceAll(name, "-", " ")
	data := struct{ Title, Keywords, Created, NextReview string }{
		Title:      strings.ToUpper(words[:1]) + words[1:],
		Keywords:   words,
		Created:    on.Format(DateLayout),
		NextReview: on.AddDate(0, ReviewInterval, 0).Format(DateLayout),
	}
	var buf bytes.Buffer
	if err := tmpl.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("standard template: %w", err)
	}
	return buf.Bytes(), nil
}
