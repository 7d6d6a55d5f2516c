// Package gates owns the gate checks of a workflow phase: how a check is
// written in a phase's `gate:` list of workflow.yaml, how it is validated, and
// how it is run against a project. Every check looks at the project itself —
// it reads the files, runs the command, parses the coverage report — so a phase
// passes on what is there, not on what an agent says is there. The engine that
// orders phases, the sessions that record results and the MCP tool that exposes
// them live elsewhere and call this package.
//
// # Check types
//
//	files_exist          paths: [...]                 regular, non-empty files inside the project
//	markdown_sections    file, sections: [...],        required headings present and filled in with
//	                     template                      substance (below)
//	tasks_format         file, requirements            tasks.md follows the format below (ParseTasks), its
//	                                                   criterion IDs name the spec, and it serves every FR-n
//	command              run, timeout, workdir,        the command exits 0 (timeout 10m, at most 1h) and,
//	                     report, produces              with a report, no test failed; produced files are fresh
//	coverage             file, format, threshold       a report's total coverage meets the threshold
//	acceptance_criteria  file                          a tasks.md phase's criteria are checked and traced to tests
//	evidence             fields: [{name, type, ...}]   what the agent supplied has the declared shape
//	approval             (none)                        a person approved the phase through the CLI
//
// A markdown_sections section is a heading, `Objectives`, or a heading with
// its minimum, `{name: Objectives, min_words: 12}` (DefaultMinWords when
// none is given). A filled-in section fails when it has fewer words than
// that; when over half of its word 5-grams are in the embedded spec template
// named by `template` (TemplateNames; the copy in the binary, never the
// project's); or when it is filler: no sentence (no sentence-ending
// punctuation, no list item or table row of three words or more), one word
// over half of its words, or over 40% of its words in no English word list
// (package internal/english). Sentences are read per paragraph (lines joined
// up to a blank line, heading, list item, table row or fence) and per list
// item with its continuation lines, never per line, so hard-wrapped prose
// counts. Identifiers, code, numbers, paths, URLs and acronyms are not judged
// English or not; capitalised words the list lacks count as names unless they
// outnumber the English words. A fenced code block counts toward min_words
// for at most as many words as the section's prose, and never toward a
// sentence or the filler rules: an interface's code with a sentence
// explaining it passes, a code block alone has no sentence, and a code dump
// with a few words around it is short.
//
// Every check also takes an optional `description`. Decoding is strict: an
// unknown key, a key that does not belong to the check's type, or a value of the
// wrong shape is an error naming its line. A Result carries one sentence saying
// what was found, one line saying what to do when it failed, and small Details
// of a type named after the check (FilesDetails, MarkdownDetails, TasksDetails,
// CommandDetails, CoverageDetails, CriteriaDetails, EvidenceDetails,
// ApprovalDetails).
//
// # Test reports
//
// A command's `report:` says where the check learns which tests ran:
//
//	go-test-json   the `go test -json` events on the command's output
//	junit:PATH     a JUnit XML file the command writes: pytest --junitxml,
//	               Maven Surefire, Gradle, jest-junit, vitest --reporter=junit
//	exit-status    nothing but the exit status, and the result says so
//
// With a report, any failed test, failed package or build, test that started
// and never finished, or a report that lists no test fails the check whatever
// the exit status (a TestMain that calls os.Exit(0) after m.Run() hides
// nothing), and the result names the failed tests. A failure sticks: a later
// "pass" event for the same test does not undo it. The JUnit file and every
// `produces:` path must be written by the run, dated after its start: with
// Env.Sandbox (internal/sandbox; the engine always sets it unless the person
// chose the weaker mode) the command runs behind a throwaway layer and they
// are read from that layer only, else they are removed before it runs, so a
// report left from an earlier run (or written by an agent) is never read as
// this run's. With Env.Before, the acceptance_criteria check also runs the
// tests on the code before the session's change (its new and changed
// functions emptied) and counts a criterion only when a test that traces it
// failed there and passes now (failbefore.go). Skipped tests (go test's
// "skip"; JUnit's <skipped/>, which is how pytest writes skip and xfail and
// Vitest skip and todo) are counted apart, "3 tests passed, 2 skipped", and a
// report whose every test was skipped fails the check. The tests of the
// report go to Env.Tests for the acceptance_criteria check.
//
// Coverage formats: a Go coverprofile (statement-weighted, duplicate blocks
// merged as go tool cover does), Cobertura XML, JaCoCo XML, LCOV, and
// coverage.py JSON; `format: auto` (the default) tells them apart by content.
//
// Paths and commands may hold placeholders such as {spec_dir}, expanded from
// Env.Vars by Placeholders; an unknown placeholder is an error. Paths must stay
// inside the project root. Values go into a command as they are (a var may
// hold a whole command, such as {test_command}), so whoever sets Env.Vars from
// user input must validate it first.
//
// Other packages can add check types with Register (for example one that reads
// a report their subsystem writes); their keys are strings, kept in
// Check.Params.
//
// # tasks.md
//
// The canonical form, which the spec template uses, is a checkbox list item
// per task under a numbered phase heading:
//
//	## Phase 1: Data model
//
//	- [ ] 1.1 Add the users table (FR-1)
//	  - Write the migration and its rollback
//	  - Estimate: 2h
//	  - Acceptance criteria:
//	    - [ ] AC-1.1.1: the migration applies and rolls back on an empty database
//	    - [x] AC-1.1.2: go test ./store/... passes
//
//	- [ ] 1.2 Expose the repository
//	  ...
//
//	## Phase 2: Login
//
//	- [ ] 2.1 ...
//
// The accepted variant puts each task under a heading, `### Task 1.1: Add the
// users table`, with the same bullets below it. The word "Task" is optional in a
// heading and in a list item that has a checkbox. Rules, each reported with its
// line when broken:
//
//   - phases are numbered 1, 2, 3 … in order and have a title;
//   - the tasks of phase N are numbered N.1, N.2 … in order, each with a title;
//   - every task has at least one bullet describing the work;
//   - every task has an estimate: a bullet `Estimate: 2h` (also `Time:`,
//     `Effort:`) or a title ending in `(2h)`; units m, min, h, hr, d (a day is
//     8h); `1h30m`, `1.5h` and ranges like `2-3h` (the upper bound counts) work;
//   - every task has at least one acceptance criterion, a checkbox item
//     `- [ ] text` or `- [x] text` anywhere in the task, optionally with an ID
//     such as `AC-1.1.1:`; plain bullets under an `Acceptance criteria:` line
//     are read as criteria but reported, because they cannot be checked off;
//     an AC-N.M.K ID must start with its task's number;
//   - no `[[fill: …]]` template placeholder is left anywhere.
//
// Headings other than phases and tasks (say `## Dependencies and order`) end the
// phase or task they follow and are otherwise ignored, as are fenced code blocks
// and HTML comments.
//
// # Traceability
//
// Criterion IDs name their spec: AC-login-1.1.1 in the folder
// 2026-11-22-login (SpecName; the spec template writes them so). The
// tasks_format check requires every criterion to have such an ID, and with
// `requirements: srd.md` every FR-n of that file to be named by a task.
//
// The acceptance_criteria check traces each ID to the tests. When a command
// earlier in the gate read a test report (Env.Tests), an ID is traced only by
// a test that names it and that the report lists as run and passed in this
// run. A test names an ID in its name (TestAC_login_1_1_1, test_ac_login_1_1_1,
// a title), its body, or the comments (and Python decorators) just above it:
//
//	Go        Test functions of the _test.go files the go tool compiles: never
//	          a file or folder whose name starts with _ or ., nor testdata;
//	          a file the default build context (this GOOS and GOARCH, no tags)
//	          leaves out counts only for a test no built file of its package
//	          declares, since the report then lists it only when the test
//	          command's tags built it. A subtest run with a literal name,
//	          t.Run("AC_login_1_1_1", func(t *testing.T) {…}), is a test of its
//	          own, matched to go test's TestX/AC_login_1_1_1. A test can fail
//	          when it calls t.Error, t.Fatal, t.Fail… or gives its *testing.T
//	          to a helper (assert.Equal(t, …)).
//	Python    def test_… in test_*.py and *_test.py, matched to a JUnit case
//	          by module and name. A test can fail when its code (comments and
//	          strings aside) holds an assert statement or an assert… call
//	          (self.assertEqual, mock.assert_called_once), pytest.raises,
//	          pytest.warns or a fail call; a helper that asserts for it does
//	          not count. @pytest.mark.skip and @pytest.mark.xfail (on the test
//	          or its class), @unittest.skip and @unittest.expectedFailure
//	          mark a test that never counts: an xfail test that passes is
//	          reported as passed.
//	JS, TS    it(…) and test(…) blocks in *.test.* and *.spec.* files and
//	          under tests/, test/ and __tests__/, with // or /* */ comments
//	          inside them or on the lines just above. A case is matched by its
//	          full name (the describe titles and its own, joined by " > " as
//	          Vitest writes it or by " " as jest-junit does) in the file the
//	          report names (Vitest's classname, jest-junit's file attribute
//	          with addFileAttribute); a case with no file must be the only
//	          test of that name in the project. A test can fail when it calls
//	          expect, assert, should, or one of ava's and node:test's t.is …
//	          assertions. it.skip, it.todo, xit, it.fails (Vitest) and
//	          test.failing (jest), also on a describe around it, never count:
//	          jest-junit reports todo and failing tests, and Vitest it.fails,
//	          as passed. A title built by it.each from a format (%i, $name)
//	          is not matched.
//
// A JUnit case of another language (Java, Kotlin …), whose sources are not
// read, traces by its name alone. A test the report lists as skipped, or one
// its source marks as above, never traces; the result names it "skipped". A
// test that passed but cannot fail does not trace either. Without a report,
// an ID is traced when a test file (*_test.go, test_*.py, *.test.ts,
// *Test.java … and every file under tests/, test/, __tests__/) mentions it,
// and the result says so.
//
// A spec whose IDs name it is strict: a criterion without an ID, untraced, or
// traced only by tests that check nothing or were skipped fails the check. A spec written
// before (AC-1.1.1) gets warnings instead, unless workflow.strict is set. An
// ID matches case-insensitively as written or with its dashes and dots as
// underscores.
package gates
