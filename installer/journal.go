package installer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentos-dev/agentos/internal/atomicfile"
	"github.com/agentos-dev/agentos/internal/project"
)

// journal remembers what each applied step replaced, so that an install
// that fails part-way (a full disk, a folder it cannot write, a cancel)
// puts the project and the user's configs back as they were instead of
// leaving half an install behind. Every file is written atomically, so no
// file is ever torn; the journal makes the install as a whole all or nothing.
type journal struct {
	root, home string
	entries    []journalEntry
}

// journalEntry is one path as it was before a step wrote it.
type journalEntry struct {
	path    string
	existed bool
	regular bool // it existed as a regular file, whose content is data
	data    []byte
	perm    fs.FileMode
	created []string // folders above path that did not exist, deepest first
	link    string   // path was a symbolic link with this text
}

// applyAll applies changes in order, adding each step to report and
// telling progress (when set) after each write; when one fails, or ctx
// ends, it rolls back the ones applied and returns why.
func applyAll(ctx context.Context, j *journal, changes []change, report *Report, progress func(Progress)) error {
	total, done := 0, 0
	for _, c := range changes {
		if c.apply != nil {
			total++
		}
	}
	for _, c := range changes {
		if err := ctx.Err(); err != nil {
			return j.rollback(fmt.Errorf("install: %w", err))
		}
		if c.apply != nil {
			if err := j.apply(c); err != nil {
				return j.rollback(err)
			}
			report.Changed = true
			done++
			if progress != nil {
				progress(Progress{Done: done, Total: total, Step: c.step})
			}
		}
		report.Steps = append(report.Steps, c.step)
	}
	return nil
}

// Progress is how far an install has got: Done of Total writes, the last
// one being Step.
type Progress struct {
	Done, Total int
	Step        Step
}

func newJournal(p project.Paths, home string) *journal {
	return &journal{root: p.Root, home: home}
}

// apply records the paths c writes (its file or folder, the backup it
// saves, and any other file it names), then applies it.
func (j *journal) apply(c change) error {
	for _, display := range []string{c.step.Path, c.step.Backup} {
		if display == "" {
			continue
		}
		if err := j.record(j.abs(display)); err != nil {
			return fmt.Errorf("install: %w", err)
		}
	}
	for _, path := range c.also {
		if err := j.record(path); err != nil {
			return fmt.Errorf("install: %w", err)
		}
	}
	return c.apply()
}

// abs turns a step's display path back into an absolute one: relative to
// the project root, "~/" for the home folder, or already absolute.
func (j *journal) abs(display string) string {
	switch {
	case strings.HasPrefix(display, "~/"):
		return filepath.Join(j.home, filepath.FromSlash(display[2:]))
	case filepath.IsAbs(display):
		return display
	default:
		return filepath.Join(j.root, filepath.FromSlash(display))
	}
}

func (j *journal) record(path string) error {
	// A config kept by a dotfile manager is a link that the step writes
	// through: the link is remembered as a link, and its target's content
	// as the content to put back.
	target, err := atomicfile.Resolve(path)
	if err != nil {
		return err
	}
	if target != path {
		link, err := os.Readlink(path)
		if err != nil {
			return err
		}
		j.entries = append(j.entries, journalEntry{path: path, existed: true, link: link})
		path = target
	}
	e := journalEntry{path: path}
	fi, err := os.Lstat(path)
	switch {
	case err == nil && fi.Mode().IsRegular():
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		e.existed, e.regular, e.data, e.perm = true, true, data, fi.Mode().Perm()
	case err == nil:
		e.existed = true // a folder: the step adds to it, never replaces it
	case errors.Is(err, fs.ErrNotExist):
		for dir := filepath.Dir(path); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
			if _, err := os.Lstat(dir); err == nil {
				break
			}
			e.created = append(e.created, dir)
		}
	default:
		return err
	}
	j.entries = append(j.entries, e)
	return nil
}

// rollback undoes every recorded step, newest first, and returns cause
// saying so, or saying what could not be put back.
func (j *journal) rollback(cause error) error {
	var failed []string
	for i := len(j.entries) - 1; i >= 0; i-- {
		if err := j.entries[i].restore(); err != nil {
			failed = append(failed, err.Error())
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%w; undoing the install also failed (%s): fix the cause and run `agentos install` again", cause, strings.Join(failed, "; "))
	}
	if len(j.entries) == 0 {
		return cause
	}
	return fmt.Errorf("%w; nothing was changed: the files already written were put back as they were", cause)
}

func (e journalEntry) restore() error {
	switch {
	case e.link != "":
		if now, err := os.Readlink(e.path); err == nil && now == e.link {
			return nil
		}
		if err := os.Remove(e.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return os.Symlink(e.link, e.path)
	case !e.existed:
		if err := os.Remove(e.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		for _, dir := range e.created {
			// Only empty folders go: anything else in them is not ours.
			if err := os.Remove(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
				break
			}
		}
	case e.regular:
		fi, err := os.Lstat(e.path)
		if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm() == e.perm {
			if now, err := os.ReadFile(e.path); err == nil && bytes.Equal(now, e.data) {
				return nil
			}
		}
		return atomicfile.WriteFile(e.path, e.data, e.perm)
	}
	return nil
}
