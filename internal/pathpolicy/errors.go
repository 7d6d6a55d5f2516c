package pathpolicy

import (
	"errors"
	"fmt"
)

// ErrRefused is what every refusal of the policy matches with errors.Is.
var ErrRefused = errors.New("refused by the project's path policy")

// Kind is why a path was refused.
type Kind int

// The reasons for a refusal.
const (
	Outside    Kind = iota + 1 // not inside the project root
	Symlink                    // reached through a symbolic link
	NotRegular                 // a folder, pipe, device or socket where a file is read
	HardLink                   // a file with more than one link
	Changed                    // the path changed while it was being opened
	Hidden                     // a secret (Rule says which)
	Guarded                    // protected from change (Rule says which)
)

// Refusal is the policy's answer when it refuses a path.
type Refusal struct {
	Kind Kind
	Path string // as asked about, slash-separated, relative to the root
	Rule Rule   // for Hidden and Guarded
}

func (e *Refusal) Is(target error) bool { return target == ErrRefused }

// Error says in one sentence why, and for protected files how a person
// changes them.
func (e *Refusal) Error() string {
	switch e.Kind {
	case Outside:
		return fmt.Sprintf("%q is outside the project root", e.Path)
	case Symlink:
		return fmt.Sprintf("%q is reached through a symbolic link, which is not followed here", e.Path)
	case NotRegular:
		return fmt.Sprintf("%q is not a regular file", e.Path)
	case HardLink:
		return fmt.Sprintf("%q has more than one hard link; another link may be a file outside the project, so it is neither read nor written", e.Path)
	case Changed:
		return fmt.Sprintf("%q changed while it was being opened; try again", e.Path)
	case Hidden:
		return fmt.Sprintf("%q cannot be read: %s is %s", e.Path, e.Rule.Path, e.Rule.Why)
	case Guarded:
		return fmt.Sprintf("%q is protected (%s: %s); only a person changes it: %s", e.Path, e.Rule.Path, e.Rule.Why, e.Rule.Change)
	}
	return fmt.Sprintf("%q is refused", e.Path)
}
