package review

import (
	"encoding/json"
	"fmt"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentos-dev/agentos/internal/project"
	"github.com/agentos-dev/agentos/workflow"
)

// serveAPI answers the page's calls; the review token was checked.
func (h *Handler) serveAPI(w http.ResponseWriter, r *http.Request, name string) {
	if r.Method == http.MethodGet {
		q := r.URL.Query()
		var v any
		var err error
		switch name {
		case "state":
			v, err = h.overview()
		case "session":
			v, err = h.session(q.Get("id"))
		case "spec":
			v, err = h.specByName(q.Get("name"))
		case "source":
			v, err = h.testSource(q.Get("session"), q.Get("file"))
		case "drafts":
			var d *draft
			d, err = h.drafts.of(q.Get("spec"))
			v = map[string]*draft{"draft": d}
		default:
			writeError(w, http.StatusNotFound, "no such view: "+name)
			return
		}
		if err != nil {
			h.engineError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, POST")
		writeError(w, http.StatusMethodNotAllowed, "the review API answers GET and POST only")
		return
	}
	if msg := h.checkChange(r); msg != "" {
		writeError(w, http.StatusForbidden, msg)
		return
	}
	var in actionInput
	dec := json.NewDecoder(r.Body) // the server's guard caps the body
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the request is not the JSON the page sends: %v", err))
		return
	}
	if name == "draft" {
		// Kept as the person types: not an action, not logged as one.
		if err := h.drafts.save(in.Spec, &draft{UpdatedAt: in.UpdatedAt, Comment: in.Comment, Comments: in.Comments}); err != nil {
			h.engineError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"message": "kept"})
		return
	}
	if name == "check-spec" {
		// Runs the finished spec's traced tests, on the person's request.
		if _, err := workflow.SpecDir(in.Spec); err != nil {
			h.engineError(w, err)
			return
		}
		states, err := h.opts.Engine.CheckSpecs(r.Context(), []string{in.Spec})
		if err != nil {
			h.engineError(w, err)
			return
		}
		h.log.Info("review page action", "action", name, "spec", in.Spec)
		msg := "Checked " + in.Spec + "."
		if len(states) == 1 {
			msg = "Checked " + in.Spec + ": " + states[0].State + "."
		}
		writeJSON(w, http.StatusOK, map[string]string{"message": msg})
		return
	}
	msg, err := h.act(name, in)
	if err != nil {
		h.engineError(w, err)
		return
	}
	h.log.Info("review page action", "action", name, "session", in.Session, "spec", in.Spec)
	writeJSON(w, http.StatusOK, map[string]string{"message": msg})
}

// checkChange returns why a change request is refused ("" when it may go
// on): it must come from a page served under the same live token (its CSRF
// token), from the same origin, as JSON. A page elsewhere, even on this
// machine, can send none of these.
func (h *Handler) checkChange(r *http.Request) string {
	if !h.grants.pageValid(r.Header.Get(TokenHeader), r.Header.Get(CSRFHeader)) {
		return "this page is out of date: reload it and try again"
	}
	origin, err := url.Parse(r.Header.Get("Origin"))
	if err != nil || origin.Scheme != "http" || origin.Host != r.Host {
		return "changes are accepted only from the review page itself (same origin)"
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" {
		return "changes are accepted only from the review page itself (same origin)"
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/json" {
		return "changes are sent as application/json"
	}
	return ""
}

// actionInput is the body of every change the page sends.
type actionInput struct {
	Session string `json:"session,omitempty"`
	Spec    string `json:"spec,omitempty"`
	// Shown is the binding the page showed with the spec or the rules:
	// nothing is approved or confirmed unless it still holds.
	Shown   *workflow.Binding `json:"shown,omitempty"`
	Comment string            `json:"comment,omitempty"`
	// Comments are the comments on lines: sent with a request for
	// changes, or kept as drafts (with UpdatedAt, the page's clock).
	Comments  []lineComment `json:"comments,omitempty"`
	UpdatedAt int64         `json:"updated_at,omitempty"`
}

// act runs one change through the same engine calls as the terminal's
// `agentos workflow` commands, and says what was done.
func (h *Handler) act(name string, in actionInput) (string, error) {
	e := h.opts.Engine
	// Every change is audited as the review page's, not the terminal's.
	who := workflow.Approver{By: person(), Via: workflow.ViaReviewPage, Actor: workflow.ReviewActor}
	needShown := func() error {
		if in.Shown == nil {
			return &workflow.Error{Kind: workflow.KindInvalid, Field: "shown", Msg: "the page did not send what it showed: reload it and try again"}
		}
		return nil
	}
	switch name {
	case "approve":
		if err := needShown(); err != nil {
			return "", err
		}
		if in.Spec != "" {
			t, err := e.ApproveSpec(in.Spec, who, strings.TrimSpace(in.Comment), in.Shown)
			if err != nil {
				return "", err
			}
			h.record(in.Spec, "", decidedApproved, who, in, nil)
			return fmt.Sprintf("Approved spec %s; its execution will require %s.", in.Spec, t), nil
		}
		s, err := e.Approve(in.Session, who, strings.TrimSpace(in.Comment), in.Shown)
		if err != nil {
			return "", err
		}
		h.record(filepath.Base(s.Vars["spec_dir"]), s.Vars["spec_dir"], decidedApproved, who, in, nil)
		return "Approved. The agent can now complete the approval phase.", nil
	case "request-changes":
		comments := make([]workflow.LineComment, len(in.Comments))
		for i, c := range in.Comments {
			comments[i] = c.LineComment
		}
		s, err := e.RequestChanges(in.Session, who, strings.TrimSpace(in.Comment), comments, in.Shown)
		if err != nil {
			return "", err
		}
		h.record(filepath.Base(s.Vars["spec_dir"]), s.Vars["spec_dir"], decidedChanges, who, in, s.Changes.Comments)
		if n := len(s.Changes.Comments); n > 0 {
			return fmt.Sprintf("Changes requested with %d %s on lines: the agent has to act. It receives them at its next svc_workflow call.", n, plural(n, "comment", "comments")), nil
		}
		return "Changes requested: the agent has to act. It receives your comment at its next svc_workflow call.", nil
	case "seen":
		// Not a decision: the person marks the version on screen as the
		// one they have read, so the next review shows what changed since.
		if err := needShown(); err != nil {
			return "", err
		}
		dir, err := workflow.SpecDir(in.Spec)
		if err != nil {
			return "", &workflow.Error{Kind: workflow.KindInvalid, Field: "spec", Msg: err.Error()}
		}
		now, _, err := e.SpecSnapshot(dir)
		if err != nil {
			return "", err
		}
		if !maps.Equal(now.Files, in.Shown.Files) {
			return "", &workflow.Error{Kind: workflow.KindRefused, Msg: "the spec changed since the page showed it: the new version is shown; read it, then mark it as seen"}
		}
		h.record(in.Spec, dir, decidedSeen, who, in, nil)
		return "Marked as seen: the next time, each file is compared with this version.", nil
	case "confirm-rules":
		if err := needShown(); err != nil {
			return "", err
		}
		if _, err := e.ConfirmRules(in.Session, who, in.Shown); err != nil {
			return "", err
		}
		return "The session goes on under the rules as they are now.", nil
	case "accept":
		if _, err := e.Accept(in.Session, who.Actor); err != nil {
			return "", err
		}
		return "Accepted: the session is signed by this machine again and can advance.", nil
	case "reset":
		if _, err := e.Reset(in.Session, who.Actor); err != nil {
			return "", err
		}
		return "Reset: the session starts over from phase 1; its audit log is kept.", nil
	}
	return "", &workflow.Error{Kind: workflow.KindNotFound, Msg: "no such action: " + name}
}

// record keeps a decision in the person's history of spec (record) and,
// unless the person only marked the version as seen, empties the drafts on
// it: they went with the decision.
func (h *Handler) record(spec, specDir, action string, who workflow.Approver, in actionInput, comments []workflow.LineComment) {
	if spec == "" || spec == "." {
		return
	}
	if action != decidedSeen {
		if err := h.drafts.drop(spec); err != nil {
			h.log.Warn("review page: empty the drafts decided on", "spec", spec, "err", err)
		}
	}
	dec := decision{Action: action, By: who.By, Via: who.Via, At: h.opts.Now().UTC(), Session: in.Session, Comment: strings.TrimSpace(in.Comment), Comments: comments}
	if in.Shown != nil {
		dec.Files = in.Shown.Files
	}
	if err := record(h.decisions, h.opts.Engine, spec, specDir, dec); err != nil {
		h.log.Warn("review page: keep the decision", "spec", spec, "err", err)
	}
}

// record keeps dec in the person's history of spec with the bytes of the
// version it names (dec.Files, as shown), read from specDir now. The
// decision is made already: failing to record it costs only the diff the
// next review shows.
func record(d *decisions, e *workflow.Engine, spec, specDir string, dec decision) error {
	if specDir == "" {
		specDir, _ = workflow.SpecDir(spec)
	}
	_, files, err := e.SpecSnapshot(specDir)
	if err != nil {
		return fmt.Errorf("read the spec decided on: %w", err)
	}
	return d.add(spec, dec, files)
}

// RecordTerminalDecision keeps a decision made in the terminal (`agentos
// workflow approve` or `reject`) in the person's history of the spec, as
// the page keeps its own: the page's history then lists every decision,
// whichever way it was made. shown is what the terminal showed (nil for a
// request for changes, which shows none).
func RecordTerminalDecision(p project.Paths, e *workflow.Engine, specDir string, approved bool, who workflow.Approver, note, session string, shown *workflow.Binding) error {
	dec := decision{Action: decidedChanges, By: who.By, Via: who.Via, At: time.Now().UTC(), Session: session, Comment: strings.TrimSpace(note)}
	if approved {
		dec.Action = decidedApproved
	}
	if shown != nil {
		dec.Files = shown.Files
	} else if b, _, err := e.SpecSnapshot(specDir); err == nil {
		dec.Files = b.Files
	}
	return record(newDecisions(p.Cache(), person()), e, filepath.Base(specDir), specDir, dec)
}

// person names who approves from the page: the user the server runs as,
// who is the user that ran `agentos review` (only they can read the key).
func person() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "unknown"
}

func (h *Handler) engineError(w http.ResponseWriter, err error) {
	status := map[workflow.Kind]int{
		workflow.KindInvalid:   http.StatusBadRequest,
		workflow.KindNotFound:  http.StatusNotFound,
		workflow.KindRefused:   http.StatusConflict,
		workflow.KindForbidden: http.StatusForbidden,
	}[workflow.KindOf(err)]
	if status == 0 {
		h.log.Error("review page", "err", err)
		writeError(w, http.StatusInternalServerError, "internal error: "+err.Error())
		return
	}
	writeError(w, status, err.Error())
}
