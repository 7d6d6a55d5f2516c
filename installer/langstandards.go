package installer

import (
	"bytes"
	"cmp"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/agentos-dev/agentos/assets"
	"github.com/agentos-dev/agentos/internal/config"
	"github.com/agentos-dev/agentos/internal/project"
)

// now is the clock the generated standards are dated by; tests replace it.
var now = time.Now

// LanguageTopics are the language standards generated for each language, as
// .agentos/standards/development/<language>-<topic>.md.
var LanguageTopics = []string{"concurrency", "testing", "architecture", "error-handling", "code-quality"}

// languageNames are the display names of the languages that have standards.
var languageNames = map[string]string{
	"go":         "Go",
	"python":     "Python",
	"typescript": "TypeScript",
	"javascript": "JavaScript",
	"rust":       "Rust",
	"java":       "Java",
}

// languageData fills a language standard's template.
type languageData struct {
	Toolchain
	Name       string // display name: Go, Python, TypeScript …
	TypeScript bool   // TypeScript rather than JavaScript (they share templates)
	Created    string // the footer's dates
	NextReview string
	// Run and Exec are how the commands in a JavaScript or TypeScript
	// standard run a package.json script and a package's binary, with the
	// detected package manager, or npm's when none was detected.
	Run, Exec string
	// TestCommand is the test script to suggest when package.json has none:
	// the detected runner's, or vitest's.
	TestCommand string
}

// nodeTestCommands are the commands that run each JavaScript test runner.
var nodeTestCommands = map[string]string{"vitest": "vitest run", "jest": "jest", "mocha": "mocha", "ava": "ava", "node:test": "node --test"}

// nodeCommands returns the script runner and the binary runner of a
// package manager.
func nodeCommands(pm string) (run, exec string) {
	switch pm {
	case "pnpm":
		return "pnpm run", "pnpm exec"
	case "yarn":
		return "yarn run", "yarn"
	case "bun":
		return "bun run", "bunx"
	}
	return "npm run", "npx"
}

// standardLanguages returns the languages to generate standards for, in the
// order given: those with templates, and JavaScript only when TypeScript is
// absent, since the TypeScript standards cover a project's JavaScript too.
func standardLanguages(languages []string) []string {
	var out []string
	for _, l := range languages {
		if !slices.Contains(languageStandardsLanguages, l) || slices.Contains(out, l) || !hasTemplates(l) {
			continue
		}
		if l == "javascript" && slices.Contains(languages, "typescript") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// hasTemplates reports whether the language's templates are embedded.
func hasTemplates(lang string) bool {
	_, err := fs.Stat(assets.FS(), path.Join(assets.LanguageTemplates, templateDir(lang), LanguageTopics[0]+".md.tmpl"))
	return err == nil
}

// templateDir names the template folder of a language: JavaScript shares
// TypeScript's.
func templateDir(lang string) string {
	if lang == "javascript" {
		return "typescript"
	}
	return lang
}

// projectLanguages returns the languages and source paths the install works
// with: what detection found when this run writes the config, or what the
// existing config says.
func projectLanguages(p project.Paths, detected *Detection) (languages, sourcePaths []string, err error) {
	if detected != nil {
		return detected.Languages, detected.SourcePaths, nil
	}
	cfg, err := config.Load(p.Config())
	if err != nil {
		return nil, nil, fmt.Errorf("install: %w", err)
	}
	return cfg.Code.Languages, cfg.Code.SourcePaths, nil
}

// planLanguageStandards plans the language standards of each language in
// .agentos/standards/development/. An existing file is never rewritten.
func planLanguageStandards(p project.Paths, languages, sourcePaths []string) ([]change, error) {
	var changes []change
	for _, lang := range standardLanguages(languages) {
		files, err := renderLanguageStandards(p, DetectToolchain(p.Root, lang, sourcePaths))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			c, err := planGeneratedStandard(p, f)
			if err != nil {
				return nil, err
			}
			changes = append(changes, c)
		}
	}
	return changes, nil
}

// planGeneratedStandard is planStandardFile for a file whose footer dates
// change with the day it is rendered: only the rest of it is compared.
func planGeneratedStandard(p project.Paths, f standardFile) (change, error) {
	c, err := planStandardFile(p, f, "differs from what agentos generates now (you edited it, or the project changed), so it was kept; delete it and run install again to regenerate it")
	if err != nil || c.step.Action != Kept {
		return c, err
	}
	have, err := readStandard(f.target)
	if err != nil {
		return change{}, err
	}
	if sameText(withoutDates(have), withoutDates(f.data)) {
		c.step.Action, c.step.Detail = Unchanged, ""
	}
	return c, nil
}

func readStandard(path string) ([]byte, error) {
	data, _, _, err := readOptional(path)
	return data, err
}

var footerDateRE = regexp.MustCompile(`(?m)^(Created|Last Updated|Next review): .*$`)

func withoutDates(data []byte) []byte { return footerDateRE.ReplaceAll(data, nil) }

// renderLanguageStandards renders every topic of the toolchain's language.
func renderLanguageStandards(p project.Paths, tc Toolchain) ([]standardFile, error) {
	dir := templateDir(tc.Language)
	today := now()
	data := languageData{
		Toolchain:  tc,
		Name:       languageNames[tc.Language],
		TypeScript: tc.Language == "typescript",
		Created:    today.Format("2006-01-02"),
		NextReview: today.AddDate(0, 6, 0).Format("2006-01-02"),
	}
	data.Run, data.Exec = nodeCommands(tc.BuildTool)
	data.TestCommand = cmp.Or(nodeTestCommands[tc.TestFramework], nodeTestCommands["vitest"])
	var files []standardFile
	for _, topic := range LanguageTopics {
		name := path.Join(assets.LanguageTemplates, dir, topic+".md.tmpl")
		text, err := fs.ReadFile(assets.FS(), name)
		if err != nil {
			return nil, fmt.Errorf("install: %w", err)
		}
		tmpl, err := template.New(name).Delims("{%", "%}").Option("missingkey=error").Funcs(templateFuncs).Parse(string(text))
		if err != nil {
			return nil, fmt.Errorf("install: template %s: %w", name, err)
		}
		var buf bytes.Buffer
		if err := tmpl.Execute(&buf, data); err != nil {
			return nil, fmt.Errorf("install: template %s: %w", name, err)
		}
		target := filepath.Join(p.Standards(), "development", tc.Language+"-"+topic+".md")
		files = append(files, standardFile{target: target, data: tidyMarkdown(buf.Bytes())})
	}
	return files, nil
}

// tidyMarkdown collapses the runs of blank lines that template conditionals
// leave behind, and ends the file with one newline.
func tidyMarkdown(data []byte) []byte {
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	out := make([]string, 0, len(lines))
	inCode := false
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inCode = !inCode
		}
		if !inCode && l == "" && len(out) > 0 && out[len(out)-1] == "" {
			continue
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n") + "\n")
}

var templateFuncs = template.FuncMap{
	// join lists items as "a, b and c".
	"join": func(items []string) string { return humanList(items, "") },
	// code lists items as "`a`, `b` and `c`".
	"code": func(items []string) string { return humanList(items, "`") },
	// has reports whether the list holds any of the items.
	"has": func(list []string, items ...string) bool {
		for _, i := range items {
			if slices.Contains(list, i) {
				return true
			}
		}
		return false
	},
	// only keeps the items of list that are among items; without drops them.
	"only":    func(list []string, items ...string) []string { return filterList(list, items, true) },
	"without": func(list []string, items ...string) []string { return filterList(list, items, false) },
	// atLeast reports whether the first version number in v is at least min
	// ("1.22" in "1.22.3", "3.11" in ">=3.11"); an unknown version is not.
	"atLeast": atLeast,
}

func filterList(list, items []string, keep bool) []string {
	var out []string
	for _, s := range list {
		if slices.Contains(items, s) == keep {
			out = append(out, s)
		}
	}
	return out
}

func humanList(items []string, quote string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = quote + s + quote
	}
	switch len(q) {
	case 0:
		return ""
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

var versionNumberRE = regexp.MustCompile(`\d+(?:\.\d+)*`)

// lowerBound returns the lowest version a declaration allows: "3.9" for
// ">=3.9,<4" or "<4, >=3.9", "20" for "Node.js ^20 || ^22", "1.22" for
// "1.22.3". Upper bounds and exclusions are skipped; "" when there is none.
func lowerBound(v string) string {
	for _, clause := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == '|' }) {
		clause = strings.TrimSpace(clause)
		if strings.HasPrefix(clause, "<") || strings.HasPrefix(clause, "!=") {
			continue
		}
		if n := versionNumberRE.FindString(clause); n != "" {
			return n
		}
	}
	return ""
}

// atLeast is the one place that decides whether a version-dependent form
// may be shown: only when the project declares a version and the lowest
// version it allows is at least min. An unknown version gets the form that
// works on every version.
func atLeast(v, min string) bool {
	have := lowerBound(v)
	if have == "" {
		return false
	}
	a, b := strings.Split(have, "."), strings.Split(min, ".")
	for i := range b {
		x, y := 0, 0
		if i < len(a) {
			x, _ = strconv.Atoi(a[i])
		}
		y, _ = strconv.Atoi(b[i])
		if x != y {
			return x > y
		}
	}
	return true
}
