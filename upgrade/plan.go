package upgrade

import "bytes"

// Action is what an upgrade does to one file.
type Action string

const (
	Unchanged   Action = "unchanged"    // nothing to do
	Update      Action = "update"       // untouched by the project: take the new version
	Keep        Action = "keep"         // edited by the project, unchanged upstream
	Merge       Action = "merge"        // both changed; the merge is clean
	Conflict    Action = "conflict"     // both changed the same lines: keep the project's file, write the new one beside it
	Add         Action = "add"          // new upstream
	Remove      Action = "remove"       // removed upstream and untouched by the project
	KeepRemoved Action = "keep-removed" // removed upstream but edited by the project: keep it
	StayDeleted Action = "stay-deleted" // deleted by the project: stays deleted
)

// Decision is the plan for one file, with the content to write when there is one.
type Decision struct {
	Action Action
	Text   []byte // for Update, Merge, Add; for Conflict, the new version to write beside the file
}

// Decide plans one file from three versions, each nil when absent: base is
// what agentos wrote last (from the manifest), ours is the file in the
// project now, theirs is what the new version ships.
func Decide(base, ours, theirs []byte) Decision {
	inBase, inOurs, inTheirs := base != nil, ours != nil, theirs != nil
	switch {
	case !inTheirs && !inOurs:
		return Decision{Action: Unchanged}
	case !inTheirs: // removed upstream
		if inBase && !bytes.Equal(base, ours) {
			return Decision{Action: KeepRemoved}
		}
		if !inBase {
			return Decision{Action: Unchanged} // never ours: the project's own file
		}
		return Decision{Action: Remove}
	case !inOurs:
		if inBase {
			return Decision{Action: StayDeleted}
		}
		return Decision{Action: Add, Text: theirs}
	case bytes.Equal(ours, theirs):
		return Decision{Action: Unchanged}
	case !inBase:
		// The project has a file where we now ship one, with no record of
		// writing it: theirs is the base of nothing, so keep the project's.
		return Decision{Action: Conflict, Text: theirs}
	case bytes.Equal(base, ours):
		return Decision{Action: Update, Text: theirs}
	case bytes.Equal(base, theirs):
		return Decision{Action: Keep}
	}
	m := Merge3(base, ours, theirs)
	if m.Conflicts > 0 {
		return Decision{Action: Conflict, Text: theirs}
	}
	return Decision{Action: Merge, Text: m.Text}
}
