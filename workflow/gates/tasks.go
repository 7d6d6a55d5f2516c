package gates

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Plan is a parsed tasks.md.
type Plan struct {
	Phases []Phase `json:"phases"`
}

// Phase is a `## Phase N: Title` section of tasks.md.
type Phase struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
	Line   int    `json:"line"`
	Tasks  []Task `json:"tasks"`
}

// Task is one numbered task of a phase.
type Task struct {
	ID              string      `json:"id"` // "1.1"
	Title           string      `json:"title"`
	Line            int         `json:"line"`
	Done            bool        `json:"done"` // its own checkbox is [x]
	Bullets         []string    `json:"bullets"`
	EstimateMinutes int         `json:"estimate_minutes"`
	Criteria        []Criterion `json:"criteria"`
}

// Criterion is one acceptance criterion of a task.
type Criterion struct {
	ID      string `json:"id,omitempty"` // "AC-login-1.1.1" or "AC-1.1.1"; empty when the criterion has none
	Text    string `json:"text"`
	Checked bool   `json:"checked"`
	Line    int    `json:"line"`
}

// Problem is a way tasks.md departs from the format; Line 0 means the whole file.
type Problem struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// String is the problem as "line N: message" ("message" for the whole file).
func (p Problem) String() string {
	if p.Line <= 0 {
		return p.Message
	}
	return fmt.Sprintf("line %d: %s", p.Line, p.Message)
}

// Phase returns the phase numbered n.
func (p Plan) Phase(n int) (Phase, bool) {
	for _, ph := range p.Phases {
		if ph.Number == n {
			return ph, true
		}
	}
	return Phase{}, false
}

// EstimateMinutes is the sum of every task's estimate.
func (p Plan) EstimateMinutes() int {
	total := 0
	for _, ph := range p.Phases {
		for _, t := range ph.Tasks {
			total += t.EstimateMinutes
		}
	}
	return total
}

var (
	phaseRe      = regexp.MustCompile(`(?i)^phase\s+(\d+)\b\s*[:.)\-–—]?\s*(.*)$`)
	taskIDRe     = regexp.MustCompile(`(?i)^(task\s+)?(\d+)\.(\d+)(?:[:)\-–—]|\.(?:\s|$)|\s|$)\s*(.*)$`)
	estimateRe   = regexp.MustCompile(`(?i)^(?:estimated?(?:\s+(?:time|effort|duration))?|time(?:\s+estimate)?|effort|duration)\s*[:=]\s*(.*)$`)
	acMarkerRe   = regexp.MustCompile(`(?i)^(?:acceptance\s+criteria|definition\s+of\s+done|done\s+when)\s*(?::\s*(.*))?$`)
	criterionRe  = regexp.MustCompile(`^\[?((?i:AC)-(?:[A-Za-z0-9][A-Za-z0-9-]*-)?\d+(?:\.\d+)*|[A-Z]{2,5}-\d+(?:\.\d+)+)\]?(?:(?:\s*[:\-–—]\s*|\s+)(.*))?$`)
	acTaskRe     = regexp.MustCompile(`(?i)^AC-(?:[a-z0-9][a-z0-9-]*-)?(\d+\.\d+)\.\d+$`)
	acNSRe       = regexp.MustCompile(`(?i)^AC-([a-z0-9][a-z0-9-]*)-\d+(?:\.\d+)*$`)
	specDateRe   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}-`)
	trailParenRe = regexp.MustCompile(`\s*\(([^()]*)\)\s*$`)
)

// ParseTasks parses tasks.md (the format is in the package documentation) and
// reports every departure from it, with its line.
func ParseTasks(src []byte) (Plan, []Problem) {
	p := &taskParser{seenIDs: map[string]int{}, fillLines: map[int]bool{}}
	for _, l := range splitMarkdown(src) {
		p.line(l)
	}
	p.closeTask()
	p.closePhase()
	if len(p.plan.Phases) == 0 {
		p.problem(0, "no phase headings were found; start each phase with a heading like \"## Phase 1: Setup\"")
	}
	// A line still holding a template placeholder gets that one problem, not
	// the ones the placeholder causes.
	kept := make([]Problem, 0, len(p.problems))
	for i, pr := range p.problems {
		if !p.fillLines[pr.Line] || !p.byFill[i] {
			kept = append(kept, pr)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].Line < kept[j].Line })
	return p.plan, kept
}

type taskParser struct {
	plan      Plan
	problems  []Problem
	seenIDs   map[string]int // criterion ID -> line
	fillLines map[int]bool   // lines holding a [[fill]] placeholder
	byFill    []bool         // per problem: a placeholder on its line explains it

	phase      *Phase
	phaseLevel int

	task         *Task
	taskLevel    int  // heading level of a heading-style task; 0 for a list item
	estimateSeen bool // an estimate was given, readable or not
	acMode       bool // inside an "Acceptance criteria:" block
	acIndent     int  // indent of the marker's list item; -1 when it is not a list item
}

func (p *taskParser) problem(line int, format string, args ...any) {
	p.problems = append(p.problems, Problem{Line: line, Message: fmt.Sprintf(format, args...)})
	p.byFill = append(p.byFill, false)
}

// fillProblem records a problem that a template placeholder on its line
// would explain, and is then left out.
func (p *taskParser) fillProblem(line int, format string, args ...any) {
	p.problem(line, format, args...)
	p.byFill[len(p.byFill)-1] = true
}

func (p *taskParser) line(l mdLine) {
	if l.code || l.fence || l.setext {
		return
	}
	if m := fillRe.FindString(l.text); m != "" {
		p.problem(l.num, "the template placeholder %s is still here; replace it with real text", clip(m, 40))
		p.fillLines[l.num] = true
	}
	if l.level > 0 {
		p.heading(l)
		return
	}
	text := strings.ReplaceAll(l.text, "\t", "    ")
	if m := listItemRe.FindStringSubmatch(text); m != nil {
		p.item(l.num, len(m[1]), m[3])
		return
	}
	if p.task == nil {
		return
	}
	s := stripEmphasis(strings.TrimSpace(text))
	if s == "" || strings.HasPrefix(s, ">") {
		return
	}
	if m := estimateRe.FindStringSubmatch(s); m != nil {
		p.estimate(l.num, m[1])
	} else if m := acMarkerRe.FindStringSubmatch(s); m != nil {
		p.acMode, p.acIndent = true, -1
		if strings.TrimSpace(m[1]) != "" {
			p.criterion(l.num, m[1], false, false)
		}
	}
}

func (p *taskParser) heading(l mdLine) {
	text := stripEmphasis(l.heading)
	if m := phaseRe.FindStringSubmatch(text); m != nil {
		p.closeTask()
		p.closePhase()
		n, _ := strconv.Atoi(m[1])
		title := strings.TrimSpace(m[2])
		p.plan.Phases = append(p.plan.Phases, Phase{Number: n, Title: title, Line: l.num, Tasks: []Task{}})
		p.phase, p.phaseLevel = &p.plan.Phases[len(p.plan.Phases)-1], l.level
		if want := len(p.plan.Phases); n != want {
			p.problem(l.num, "phase %d should be numbered %d; number phases 1, 2, 3 … in order", n, want)
		}
		if title == "" {
			p.problem(l.num, "phase %d has no title; write it like \"## Phase %d: Setup\"", n, n)
		}
		return
	}
	if m := taskIDRe.FindStringSubmatch(text); m != nil && (p.phase != nil || m[1] != "") {
		p.startTask(l.num, l.level, m, false)
		return
	}
	if m := checkboxRe.FindStringSubmatch(text); m != nil {
		if tm := taskIDRe.FindStringSubmatch(stripEmphasis(m[2])); tm != nil {
			p.startTask(l.num, l.level, tm, m[1] != " ")
			return
		}
	}
	if p.task != nil && acMarkerRe.MatchString(text) && (p.taskLevel == 0 || l.level > p.taskLevel) {
		p.acMode, p.acIndent = true, -1
		return
	}
	p.closeTask()
	if p.phase != nil && l.level <= p.phaseLevel {
		p.closePhase()
	}
}

func (p *taskParser) item(line, indent int, rest string) {
	checked, body, isBox := false, rest, false
	if m := checkboxRe.FindStringSubmatch(strings.TrimSpace(rest)); m != nil {
		checked, body, isBox = m[1] != " ", m[2], true
	}
	plain := stripEmphasis(strings.TrimSpace(body))
	if indent < 2 {
		if m := taskIDRe.FindStringSubmatch(plain); m != nil && (isBox || m[1] != "") {
			p.startTask(line, 0, m, checked)
			return
		}
	}
	if p.task == nil {
		return
	}
	if isBox {
		p.criterion(line, body, checked, true)
		return
	}
	if p.acMode && p.acIndent >= 0 && indent <= p.acIndent {
		p.acMode = false
	}
	switch m := estimateRe.FindStringSubmatch(plain); {
	case m != nil:
		p.estimate(line, m[1])
	case acMarkerRe.MatchString(plain):
		p.acMode, p.acIndent = true, indent
		if inline := acMarkerRe.FindStringSubmatch(plain)[1]; strings.TrimSpace(inline) != "" {
			p.criterion(line, inline, false, false)
		}
	case p.acMode:
		p.criterion(line, body, false, false)
	case plain != "":
		p.task.Bullets = append(p.task.Bullets, plain)
	}
}

// startTask opens a task from a match of taskIDRe: [1] "Task ", [2] phase,
// [3] number, [4] title.
func (p *taskParser) startTask(line, level int, m []string, done bool) {
	p.closeTask()
	major, _ := strconv.Atoi(m[2])
	minor, _ := strconv.Atoi(m[3])
	id := fmt.Sprintf("%d.%d", major, minor)
	if p.phase == nil {
		p.problem(line, "task %s is not under a phase heading like \"## Phase %d: Title\"", id, major)
		return
	}
	title := strings.TrimSpace(m[4])
	t := Task{ID: id, Line: line, Done: done, Bullets: []string{}, Criteria: []Criterion{}}
	p.estimateSeen = false
	if pm := trailParenRe.FindStringSubmatch(title); pm != nil {
		if mins, ok := parseEstimate(pm[1]); ok {
			t.EstimateMinutes = mins
			p.estimateSeen = true
			title = strings.TrimSpace(title[:len(title)-len(pm[0])])
		}
	}
	t.Title = title
	want := len(p.phase.Tasks) + 1
	switch {
	case major != p.phase.Number:
		p.problem(line, "task %s is under phase %d, so number it %d.%d", id, p.phase.Number, p.phase.Number, want)
	case minor != want:
		p.problem(line, "task %s should be numbered %d.%d; number tasks in order without gaps or repeats", id, p.phase.Number, want)
	}
	if title == "" {
		p.fillProblem(line, "task %s has no title", id)
	}
	p.phase.Tasks = append(p.phase.Tasks, t)
	p.task = &p.phase.Tasks[len(p.phase.Tasks)-1]
	p.taskLevel = level
	p.acMode, p.acIndent = false, -1
}

func (p *taskParser) estimate(line int, s string) {
	p.estimateSeen = true
	mins, ok := parseEstimate(s)
	switch {
	case !ok:
		p.fillProblem(line, "task %s has an estimate that cannot be read (%q); write it like 2h, 30m or 1h30m", p.task.ID, clip(s, 30))
	case mins <= 0:
		p.fillProblem(line, "task %s has a zero estimate; give the time it will take, like 30m", p.task.ID)
	default:
		p.task.EstimateMinutes = mins
	}
}

func (p *taskParser) criterion(line int, body string, checked, isBox bool) {
	text := strings.TrimSpace(stripEmphasis(body))
	c := Criterion{Text: text, Checked: checked, Line: line}
	if m := criterionRe.FindStringSubmatch(text); m != nil {
		c.ID, c.Text = m[1], strings.TrimSpace(m[2])
	}
	p.task.Criteria = append(p.task.Criteria, c)
	if !isBox {
		p.problem(line, "an acceptance criterion of task %s is not a checkbox; write it as \"- [ ] %s\" so it can be checked off", p.task.ID, clip(text, 40))
	}
	if strings.TrimSpace(fillRe.ReplaceAllString(c.Text, "")) == "" {
		p.fillProblem(line, "an acceptance criterion of task %s has no text", p.task.ID)
	}
	if c.ID == "" {
		return
	}
	key := strings.ToUpper(c.ID)
	if prev, dup := p.seenIDs[key]; dup {
		p.problem(line, "criterion ID %s is already used at line %d; give each criterion its own ID", c.ID, prev)
	} else {
		p.seenIDs[key] = line
	}
	if m := acTaskRe.FindStringSubmatch(c.ID); m != nil && m[1] != p.task.ID {
		p.problem(line, "criterion %s belongs to task %s, so its number should start with %s", c.ID, p.task.ID, p.task.ID)
	}
}

// Namespace returns the spec name in a criterion ID such as AC-login-1.1.1
// ("login"), or "" for an ID without one (AC-1.1.1).
func (c Criterion) Namespace() string {
	if m := acNSRe.FindStringSubmatch(c.ID); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

// SpecName is the name criterion IDs of the spec in folder dir carry: the
// folder's name without a leading date, "login" for 2026-11-22-login.
func SpecName(dir string) string {
	return strings.ToLower(specDateRe.ReplaceAllString(filepath.Base(filepath.Clean(dir)), ""))
}

func (p *taskParser) closeTask() {
	t := p.task
	if t == nil {
		return
	}
	p.task = nil
	if len(t.Bullets) == 0 {
		p.problem(t.Line, "task %s has no bullet points saying what to do", t.ID)
	}
	if !p.estimateSeen {
		p.problem(t.Line, "task %s has no estimate; add a bullet like \"Estimate: 2h\"", t.ID)
	}
	if len(t.Criteria) == 0 {
		p.problem(t.Line, "task %s has no acceptance criteria; add checkbox items like \"- [ ] AC-%s.1: …\"", t.ID, t.ID)
	}
}

func (p *taskParser) closePhase() {
	if p.phase == nil {
		return
	}
	if len(p.phase.Tasks) == 0 {
		p.problem(p.phase.Line, "phase %d has no tasks; add items like \"- [ ] %d.1 Title\"", p.phase.Number, p.phase.Number)
	}
	p.phase = nil
}

// stripEmphasis removes bold and code marks, which people put around IDs and
// labels ("**Estimate:** 2h", "**1.1** Title").
func stripEmphasis(s string) string {
	return strings.NewReplacer("**", "", "__", "", "`", "").Replace(s)
}

var (
	estimateTokenRe = regexp.MustCompile(`(\d+(?:[.,]\d+)?)\s*([a-z]+)`)
	estimateRangeRe = regexp.MustCompile(`^(.+?)\s*(?:-|–|—|\bto\b)\s*(.+)$`)
	estimateUnits   = map[string]float64{
		"m": 1, "min": 1, "mins": 1, "minute": 1, "minutes": 1,
		"h": 60, "hr": 60, "hrs": 60, "hour": 60, "hours": 60,
		"d": 480, "day": 480, "days": 480,
		"w": 2400, "wk": 2400, "wks": 2400, "week": 2400, "weeks": 2400,
	}
)

// parseEstimate reads a time estimate ("2h", "30m", "1h30m", "1.5 hours",
// "2-3h", "~1d") as minutes; a range counts as its upper bound, a day as 8h.
func parseEstimate(s string) (int, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, p := range []string{"~", "≈", "about ", "approx. ", "approx ", "approximately ", "around ", "roughly "} {
		s = strings.TrimSpace(strings.TrimPrefix(s, p))
	}
	s = strings.TrimRight(s, ". ")
	if s == "" {
		return 0, false
	}
	if m := estimateRangeRe.FindStringSubmatch(s); m != nil {
		if hi, ok := parseEstimate(m[2]); ok {
			return hi, true
		}
	}
	matches := estimateTokenRe.FindAllStringSubmatchIndex(s, -1)
	if len(matches) == 0 {
		return 0, false
	}
	total, last := 0.0, 0
	for _, m := range matches {
		if gap := strings.TrimSpace(strings.NewReplacer(",", "", "and", "").Replace(s[last:m[0]])); gap != "" {
			return 0, false
		}
		n, err := strconv.ParseFloat(strings.Replace(s[m[2]:m[3]], ",", ".", 1), 64)
		unit, ok := estimateUnits[s[m[4]:m[5]]]
		if err != nil || !ok {
			return 0, false
		}
		total += n * unit
		last = m[1]
	}
	if strings.TrimSpace(s[last:]) != "" {
		return 0, false
	}
	return int(math.Round(total)), true
}

// TasksDetails is the Details of a tasks_format result.
type TasksDetails struct {
	File            string    `json:"file"`
	Phases          int       `json:"phases"`
	Tasks           int       `json:"tasks"`
	Criteria        int       `json:"criteria"`
	EstimateMinutes int       `json:"estimate_minutes"`
	Problems        []Problem `json:"problems,omitempty"` // the first maxListed
	ProblemsOmitted int       `json:"problems_omitted,omitempty"`
}

// maxListed caps the lists a Result's Details carries.
const maxListed = 20

func (c Check) runTasksFormat(ctx context.Context, env Env) Result {
	src, rel, res, ok := c.readDoc(env, "tasks_format")
	if !ok {
		return res
	}
	plan, problems := ParseTasks(src)
	problems = append(problems, criterionIDProblems(plan, SpecName(filepath.Dir(rel)))...)
	if c.Requirements != "" {
		more, r, ok := c.requirementProblems(env, src)
		if !ok {
			return r
		}
		problems = append(problems, more...)
	}
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Line < problems[j].Line })
	d := TasksDetails{File: rel, Phases: len(plan.Phases), EstimateMinutes: plan.EstimateMinutes()}
	for _, ph := range plan.Phases {
		d.Tasks += len(ph.Tasks)
		for _, t := range ph.Tasks {
			d.Criteria += len(t.Criteria)
		}
	}
	if len(problems) > maxListed {
		d.Problems, d.ProblemsOmitted = problems[:maxListed], len(problems)-maxListed
	} else {
		d.Problems = problems
	}
	summary := fmt.Sprintf("%s has %s, %s and %s", rel, plural(d.Phases, "phase", "phases"), plural(d.Tasks, "task", "tasks"),
		plural(d.Criteria, "acceptance criterion", "acceptance criteria"))
	if len(problems) == 0 {
		r := pass(c.Type, "%s, estimated at %s, in the expected format.", summary, formatMinutes(d.EstimateMinutes))
		r.Details = d
		return r
	}
	first := problems[0]
	r := failf(c.Type, fmt.Sprintf("Fix each problem in details, starting with %s.", trimDot(first.String())),
		"%s, but %s.", summary, plural(len(problems), "format problem", "format problems"))
	r.Details = d
	return r
}

// formatMinutes writes minutes as "1h30m", "45m" or "2h".
func formatMinutes(m int) string {
	switch {
	case m < 60:
		return fmt.Sprintf("%dm", m)
	case m%60 == 0:
		return fmt.Sprintf("%dh", m/60)
	default:
		return fmt.Sprintf("%dh%dm", m/60, m%60)
	}
}

// criterionIDProblems holds a new spec's criteria to IDs no other spec uses:
// every criterion has one, and it carries the spec's name (AC-login-1.1.1 in
// the folder 2026-11-22-login), so tests written for another spec's AC-1.1.1
// cannot trace it.
func criterionIDProblems(plan Plan, name string) []Problem {
	var out []Problem
	for _, ph := range plan.Phases {
		for _, t := range ph.Tasks {
			for i, cr := range t.Criteria {
				want := fmt.Sprintf("AC-%s-%s.%d", name, t.ID, i+1)
				switch ns := cr.Namespace(); {
				case cr.ID == "":
					out = append(out, Problem{cr.Line, fmt.Sprintf("a criterion of task %s has no ID; start it with \"%s:\" so a test can name it", t.ID, want)})
				case ns == "" && strings.HasPrefix(strings.ToUpper(cr.ID), "AC-"):
					out = append(out, Problem{cr.Line, fmt.Sprintf("criterion %s does not name the spec; write it %s-%s so another spec's tests cannot trace it", cr.ID, "AC-"+name, cr.ID[3:])})
				case ns == "":
					out = append(out, Problem{cr.Line, fmt.Sprintf("criterion %s is not an acceptance criterion ID; write it like %s", cr.ID, want)})
				case ns != name:
					out = append(out, Problem{cr.Line, fmt.Sprintf("criterion %s names the spec %q, but this is the spec %q; write it like %s", cr.ID, ns, name, want)})
				}
			}
		}
	}
	return out
}

var frRe = regexp.MustCompile(`(?i)\bFR-(\d+)\b`)

// requirementProblems reports every functional requirement (FR-n) of the
// requirements file that no task of tasks.md (src) names, in its title,
// bullets or criteria.
func (c Check) requirementProblems(env Env, src []byte) ([]Problem, Result, bool) {
	reqCheck := Check{Type: c.Type, File: c.Requirements}
	reqs, reqRel, r, ok := reqCheck.readDoc(env, "tasks_format")
	if !ok {
		return nil, r, false
	}
	named := map[string]bool{}
	for _, l := range splitMarkdown(src) {
		for _, m := range frRe.FindAllStringSubmatch(l.text, -1) {
			named[strings.TrimLeft(m[1], "0")] = true
		}
	}
	var out []Problem
	seen := map[string]bool{}
	for _, l := range splitMarkdown(reqs) {
		if l.code {
			continue
		}
		for _, m := range frRe.FindAllStringSubmatch(l.text, -1) {
			n := strings.TrimLeft(m[1], "0")
			if seen[n] || named[n] {
				continue
			}
			seen[n] = true
			out = append(out, Problem{0, fmt.Sprintf("%s (%s line %d) is served by no task: name it in the task that implements it, like \"- [ ] 1.1 Title (FR-%s)\"", strings.ToUpper(m[0]), reqRel, l.num, m[1])})
		}
	}
	return out, Result{}, true
}
