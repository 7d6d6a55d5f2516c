package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/agentos-dev/agentos/server/toolkit"
)

// act is one action on a session, with s.mu held.
type act struct {
	s       *session
	in      input
	req     context.Context
	timeout time.Duration
}

var errNoTab = toolkit.Errorf(toolkit.CodeNotFound, "no tab is open; navigate to a URL or use tabs op=new")

// ctx returns a context for one step on t: the tab's, bounded by the
// action's timeout and the request. A timeout ends the step, not the tab.
func (a *act) ctx(t *tab) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(t.ctx, a.timeout)
	stop := context.AfterFunc(a.req, cancel)
	return ctx, func() { stop(); cancel() }
}

func (a *act) do() (Output, error) {
	a.timeout = defaultTimeout
	if a.in.Action == "navigate" {
		a.timeout = navigateTimeout
	}
	if a.in.TimeoutMS > 0 {
		a.timeout = time.Duration(a.in.TimeoutMS) * time.Millisecond
	}
	switch a.in.Action {
	case "tabs":
		return a.tabs()
	case "navigate":
		if a.s.active == nil {
			if _, err := a.s.newTab(); err != nil {
				return Output{}, err
			}
		}
		return a.navigate(a.s.active, a.in.URL)
	}
	t := a.s.active
	if t == nil {
		return Output{}, errNoTab
	}
	ctx, cancel := a.ctx(t)
	defer cancel()
	switch a.in.Action {
	case "screenshot":
		return a.screenshot(ctx)
	case "query":
		return a.query(ctx)
	case "click":
		return Output{}, a.onElement(ctx, t, chromedp.Click(chromedp.CSS(a.in.Selector)))
	case "type":
		return Output{}, a.onElement(ctx, t, chromedp.SendKeys(chromedp.CSS(a.in.Selector), a.in.Text))
	case "fill":
		return Output{}, a.fill(ctx, fillJS, a.in.Value)
	case "select":
		return Output{}, a.fill(ctx, selectJS, a.in.Value)
	case "wait":
		return a.wait(ctx)
	case "evaluate":
		return a.evaluate(ctx)
	case "console":
		msgs, dropped := t.takeConsole()
		n := len(msgs)
		return Output{Messages: msgs, Count: &n, Dropped: dropped}, nil
	case "network":
		reqs, dropped := t.takeRequests()
		n := len(reqs)
		return Output{Requests: reqs, Count: &n, Dropped: dropped}, nil
	case "viewport":
		return a.viewport(ctx)
	case "emulate_media":
		return a.emulateMedia(ctx)
	case "cookies":
		return a.cookies(ctx)
	case "local_storage":
		return a.localStorage(ctx)
	}
	return Output{}, toolkit.Validation("action", "unknown action %q", a.in.Action)
}

func (a *act) navigate(t *tab, url string) (Output, error) {
	if err := a.s.m.policy.check(url); err != nil {
		return Output{}, err
	}
	ctx, cancel := a.ctx(t)
	defer cancel()
	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(url))
	if err != nil {
		return Output{}, err
	}
	out := Output{Tab: t.id}
	if resp != nil {
		out.Status = resp.Status
	}
	out.URL, _ = chromedp.Run(ctx, chromedp.Location())
	out.Title, _ = chromedp.Run(ctx, chromedp.Title())
	if out.URL != "" && out.URL != url {
		if err := a.s.m.policy.check(out.URL); err != nil {
			// A redirect to a host that may not be opened: leave it.
			chromedp.Do(ctx, chromedp.Navigate("about:blank"))
			return Output{}, err
		}
	}
	return out, nil
}

// onElement runs an element action, explaining a timeout by what matched.
func (a *act) onElement(ctx context.Context, t *tab, step chromedp.Action[chromedp.Void]) error {
	if err := a.checkSelector(ctx); err != nil {
		return err
	}
	err := chromedp.Do(ctx, step)
	if err != nil && errors.Is(err, context.DeadlineExceeded) && a.req.Err() == nil {
		return a.notVisible(t)
	}
	return err
}

// notVisible explains why an element action timed out.
func (a *act) notVisible(t *tab) error {
	ctx, cancel := context.WithTimeout(t.ctx, 2*time.Second)
	defer cancel()
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll(%s).length`, jsString(a.in.Selector))))
	if err == nil && n == 0 {
		return toolkit.Errorf(toolkit.CodeNotFound, "no element matches %q (waited %s); check the selector with action query", a.in.Selector, a.timeout).
			WithDetails(map[string]string{"field": "selector"})
	}
	return toolkit.Errorf(toolkit.CodeBusinessLogic, "%d element(s) match %q but none became visible within %s", n, a.in.Selector, a.timeout).
		WithDetails(map[string]string{"field": "selector"})
}

// checkSelector refuses a selector the browser cannot parse.
func (a *act) checkSelector(ctx context.Context) error {
	ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { try { document.createDocumentFragment().querySelector(%s); return true } catch (e) { return false } })()`, jsString(a.in.Selector))))
	if err != nil {
		return err
	}
	if !ok {
		return toolkit.Validation("selector", "%q is not a valid CSS selector", a.in.Selector)
	}
	return nil
}

func (a *act) screenshot(ctx context.Context) (Output, error) {
	var data []byte
	var err error
	switch {
	case a.in.Selector != "":
		if err := a.checkSelector(ctx); err != nil {
			return Output{}, err
		}
		data, err = chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS(a.in.Selector)))
		if err != nil && errors.Is(err, context.DeadlineExceeded) && a.req.Err() == nil {
			return Output{}, a.notVisible(a.s.active)
		}
	case a.in.FullPage:
		data, err = chromedp.Run(ctx, chromedp.FullScreenshot(100))
	default:
		data, err = chromedp.Run(ctx, chromedp.CaptureScreenshot())
	}
	if err != nil {
		return Output{}, err
	}
	if len(data) > maxScreenshotSize {
		return Output{}, toolkit.Errorf(toolkit.CodeBusinessLogic, "the screenshot is %d MB, over the %d MB limit; take the viewport or one element instead", len(data)>>20, maxScreenshotSize>>20)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return Output{}, fmt.Errorf("decode screenshot: %w", err)
	}
	if img, ok := a.req.Value(imageKey{}).(*[]byte); ok {
		*img = data
	}
	return Output{Image: &Image{MIMEType: "image/png", Width: cfg.Width, Height: cfg.Height, Bytes: len(data)}}, nil
}

// queryJS lists the elements matching a selector: tag, text, value,
// attributes and visibility, at most limit of them.
const queryJS = `((sel, limit) => {
  const all = document.querySelectorAll(sel);
  const out = [];
  for (const el of Array.from(all).slice(0, limit)) {
    const attrs = {};
    for (const a of el.attributes) attrs[a.name] = a.value.length > 300 ? a.value.slice(0, 300) + '…' : a.value;
    const r = el.getBoundingClientRect(), st = getComputedStyle(el);
    let text = (el.innerText ?? el.textContent ?? '').trim();
    if (text.length > 500) text = text.slice(0, 500) + '…';
    const e = {tag: el.tagName.toLowerCase(), text, attributes: attrs,
      visible: r.width > 0 && r.height > 0 && st.visibility !== 'hidden' && st.display !== 'none'};
    if ('value' in el && typeof el.value === 'string' && el.tagName !== 'BUTTON' && el.tagName !== 'LI') e.value = el.value;
    out.push(e);
  }
  return {count: all.length, elements: out};
})(%s, %d)`

func (a *act) query(ctx context.Context) (Output, error) {
	if err := a.checkSelector(ctx); err != nil {
		return Output{}, err
	}
	limit := a.in.Limit
	if limit == 0 {
		limit = defaultQueryLimit
	}
	var res struct {
		Count    int       `json:"count"`
		Elements []Element `json:"elements"`
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](fmt.Sprintf(queryJS, jsString(a.in.Selector), limit)))
	if err != nil {
		return Output{}, err
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return Output{}, fmt.Errorf("decode query result: %w", err)
	}
	return Output{Count: &res.Count, Elements: res.Elements, Truncated: res.Count > len(res.Elements)}, nil
}

// fillJS replaces a field's value the way typing would, through the native
// setter so that frameworks that track the value (React) see the change.
const fillJS = `((sel, v) => {
  const el = document.querySelector(sel);
  if (!el) return 'none';
  if (el.isContentEditable) { el.focus(); el.textContent = v; el.dispatchEvent(new InputEvent('input', {bubbles: true})); return 'ok'; }
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : el instanceof HTMLInputElement ? HTMLInputElement.prototype : null;
  if (!proto) return 'not_fillable';
  if (el.disabled || el.readOnly) return 'disabled';
  el.focus();
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, v);
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return 'ok';
})(%s, %s)`

// selectJS chooses an option of a <select> by value, else by label.
const selectJS = `((sel, v) => {
  const el = document.querySelector(sel);
  if (!el) return 'none';
  if (!(el instanceof HTMLSelectElement)) return 'not_select';
  if (el.disabled) return 'disabled';
  const opt = Array.from(el.options).find(o => o.value === v) || Array.from(el.options).find(o => o.label.trim() === v.trim());
  if (!opt) return 'no_option:' + Array.from(el.options).map(o => o.value).join(', ');
  el.focus();
  opt.selected = true;
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return 'ok';
})(%s, %s)`

func (a *act) fill(ctx context.Context, script, value string) error {
	if err := a.checkSelector(ctx); err != nil {
		return err
	}
	expr := fmt.Sprintf(script, jsString(a.in.Selector), jsString(value))
	for {
		res, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) && a.req.Err() == nil {
				break
			}
			return err
		}
		switch {
		case res == "ok":
			return nil
		case res == "not_fillable":
			return toolkit.Validation("selector", "%q is not a text field (input, textarea or contenteditable); use select for a <select>, click for a checkbox", a.in.Selector)
		case res == "not_select":
			return toolkit.Validation("selector", "%q is not a <select>; use fill for text fields", a.in.Selector)
		case res == "disabled":
			return toolkit.Errorf(toolkit.CodeBusinessLogic, "%q is disabled or read-only", a.in.Selector)
		case strings.HasPrefix(res, "no_option:"):
			return toolkit.Validation("value", "%q has no option with value or label %q; its values: %s", a.in.Selector, value, strings.TrimPrefix(res, "no_option:"))
		}
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			break
		}
	}
	return toolkit.Errorf(toolkit.CodeNotFound, "no element matches %q (waited %s); check the selector with action query", a.in.Selector, a.timeout).
		WithDetails(map[string]string{"field": "selector"})
}

// stateJS tells whether the selector has reached a state.
const stateJS = `((sel, state) => {
  const el = document.querySelector(sel);
  if (state === 'attached') return !!el;
  if (state === 'detached') return !el;
  const vis = !!el && (() => { const r = el.getBoundingClientRect(), st = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && st.visibility !== 'hidden' && st.display !== 'none'; })();
  return state === 'hidden' ? !vis : vis;
})(%s, %s)`

func (a *act) wait(ctx context.Context) (Output, error) {
	began := time.Now()
	if a.in.Selector == "" {
		d := time.Duration(a.in.DurationMS) * time.Millisecond
		if err := sleep(a.req, d); err != nil {
			return Output{}, err
		}
		return Output{WaitedMS: time.Since(began).Milliseconds()}, nil
	}
	if err := a.checkSelector(ctx); err != nil {
		return Output{}, err
	}
	state := a.in.State
	if state == "" {
		state = "visible"
	}
	expr := fmt.Sprintf(stateJS, jsString(a.in.Selector), jsString(state))
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if err == nil && ok {
			return Output{WaitedMS: time.Since(began).Milliseconds()}, nil
		}
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && !isNavigating(err) {
			return Output{}, err
		}
		if sleep(ctx, 50*time.Millisecond) != nil {
			break
		}
	}
	if a.req.Err() != nil {
		return Output{}, a.req.Err()
	}
	return Output{}, toolkit.Errorf(toolkit.CodeBusinessLogic, "%q did not become %s within %s", a.in.Selector, state, a.timeout).
		WithDetails(map[string]string{"field": "selector"})
}

// isNavigating reports an evaluation that failed because the page changed under it.
func isNavigating(err error) bool {
	s := err.Error()
	return strings.Contains(s, "context was destroyed") || strings.Contains(s, "Cannot find context")
}

func (a *act) evaluate(ctx context.Context) (Output, error) {
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](a.in.Script, chromedp.EvalAwaitPromise))
	if errors.Is(err, chromedp.ErrJSUndefined) || errors.Is(err, chromedp.ErrJSNull) {
		return Output{Result: json.RawMessage("null")}, nil
	}
	if err != nil {
		return Output{}, err
	}
	if len(raw) > maxEvaluateResult {
		return Output{Result: string(cut(string(raw), maxEvaluateResult)), Truncated: true}, nil
	}
	if len(raw) == 0 {
		raw = []byte("null")
	}
	return Output{Result: json.RawMessage(raw)}, nil
}

const viewportJS = `({width: innerWidth, height: innerHeight, device_scale_factor: devicePixelRatio})`

func (a *act) viewport(ctx context.Context) (Output, error) {
	if a.in.Width > 0 {
		scale := a.in.Scale
		if scale == 0 {
			scale = 1
		}
		opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(scale)}
		if a.in.Mobile {
			opts = append(opts, chromedp.EmulateMobile)
		}
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(a.in.Width), int64(a.in.Height), opts...)); err != nil {
			return Output{}, err
		}
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](viewportJS))
	if err != nil {
		return Output{}, err
	}
	vp := &Viewport{Mobile: a.in.Mobile}
	if err := json.Unmarshal(raw, vp); err != nil {
		return Output{}, fmt.Errorf("decode viewport: %w", err)
	}
	return Output{Viewport: vp}, nil
}

func (a *act) emulateMedia(ctx context.Context) (Output, error) {
	p := emulation.SetEmulatedMediaParams{Media: a.in.Media}
	for name, v := range map[string]string{"prefers-color-scheme": a.in.ColorScheme, "prefers-reduced-motion": a.in.ReducedMotion} {
		p.Features = append(p.Features, &emulation.MediaFeature{Name: name, Value: v})
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, p); err != nil {
		return Output{}, err
	}
	return Output{}, nil
}

func (a *act) cookies(ctx context.Context) (Output, error) {
	if a.in.Op == "set" {
		page, _ := chromedp.Run(ctx, chromedp.Location())
		var params []*network.CookieParam
		for i, c := range a.in.Cookies {
			p := &network.CookieParam{Name: c.Name, Value: c.Value, URL: c.URL, Domain: c.Domain, Path: c.Path,
				Secure: c.Secure, HTTPOnly: c.HTTPOnly, SameSite: network.CookieSameSite(c.SameSite)}
			if c.Expires > 0 {
				p.Expires = cdp.TimeSinceEpoch(c.Expires)
			}
			if p.URL == "" && p.Domain == "" {
				if !strings.HasPrefix(page, "http") {
					return Output{}, toolkit.Validation("cookies", "cookie %d has neither url nor domain, and the page (%s) is not an http page to default to", i, page)
				}
				p.URL = page
			}
			params = append(params, p)
		}
		if _, err := chromedp.Call(ctx, network.SetCookies, network.SetCookiesParams{Cookies: params}); err != nil {
			return Output{}, toolkit.Errorf(toolkit.CodeValidation, "the browser refused the cookies: %v", err).WithDetails(map[string]string{"field": "cookies"})
		}
	}
	res, err := chromedp.Call(ctx, network.GetCookies, network.GetCookiesParams{})
	if err != nil {
		return Output{}, err
	}
	out := Output{Cookies: []Cookie{}}
	for _, c := range res.Cookies {
		out.Cookies = append(out.Cookies, Cookie{Name: c.Name, Value: cut(c.Value, 1000), Domain: c.Domain, Path: c.Path,
			Expires: c.Expires, HTTPOnly: c.HTTPOnly, Secure: c.Secure, SameSite: string(c.SameSite)})
	}
	n := len(out.Cookies)
	out.Count = &n
	return out, nil
}

const storageJS = `((key) => {
  const out = {};
  try {
    for (let i = 0; i < localStorage.length && i < 200; i++) {
      const k = localStorage.key(i);
      if (key && k !== key) continue;
      const v = localStorage.getItem(k);
      out[k] = v.length > 2000 ? v.slice(0, 2000) + '…' : v;
    }
    return {items: out, count: localStorage.length};
  } catch (e) { return {error: String(e)}; }
})(%s)`

func (a *act) localStorage(ctx context.Context) (Output, error) {
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](fmt.Sprintf(storageJS, jsString(a.in.Key))))
	if err != nil {
		return Output{}, err
	}
	var res struct {
		Items map[string]string `json:"items"`
		Count int               `json:"count"`
		Error string            `json:"error"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return Output{}, fmt.Errorf("decode local storage: %w", err)
	}
	if res.Error != "" {
		return Output{}, toolkit.Errorf(toolkit.CodeBusinessLogic, "this page has no local storage (%s); navigate to an http page first", res.Error)
	}
	if a.in.Key != "" && len(res.Items) == 0 {
		return Output{}, toolkit.Errorf(toolkit.CodeNotFound, "local storage has no key %q", a.in.Key)
	}
	n := len(res.Items)
	return Output{Storage: res.Items, Count: &n, Truncated: a.in.Key == "" && res.Count > len(res.Items)}, nil
}

func (a *act) tabs() (Output, error) {
	s := a.s
	switch a.in.Op {
	case "new": // the tool checked the URL against the policy before the browser started
		t, err := s.newTab()
		if err != nil {
			return Output{}, err
		}
		if a.in.URL != "" {
			if _, err := a.navigate(t, a.in.URL); err != nil {
				return Output{}, err
			}
		}
	case "switch":
		t := s.findTab(a.in.Tab)
		if t == nil {
			return Output{}, toolkit.Errorf(toolkit.CodeNotFound, "there is no tab %q (it may have been closed); open tabs: %s", a.in.Tab, strings.Join(s.tabIDs(), ", ")).
				WithDetails(map[string]string{"field": "tab"})
		}
		s.active = t
	case "close":
		t := s.active
		if a.in.Tab != "" {
			t = s.findTab(a.in.Tab)
		}
		if t == nil {
			return Output{}, toolkit.Errorf(toolkit.CodeNotFound, "there is no tab %q to close; open tabs: %s", a.in.Tab, strings.Join(s.tabIDs(), ", ")).
				WithDetails(map[string]string{"field": "tab"})
		}
		s.closeTab(t)
		s.prune()
	}
	return Output{Tabs: a.listTabs()}, nil
}

func (a *act) listTabs() []TabInfo {
	s := a.s
	ctx, cancel := context.WithTimeout(s.rootCtx, 5*time.Second)
	defer cancel()
	infos, _ := chromedp.Targets(ctx)
	byID := map[string][2]string{}
	for _, i := range infos {
		byID[string(i.TargetID)] = [2]string{i.URL, i.Title}
	}
	out := []TabInfo{}
	for _, t := range s.tabs {
		i := byID[t.targetID]
		out = append(out, TabInfo{ID: t.id, URL: i[0], Title: i[1], Active: t == s.active})
	}
	return out
}

// explain turns a browser error into a tool error an agent can act on.
func (a *act) explain(err error) error {
	var te *toolkit.Error
	var exc *chromedp.ExceptionError
	var load *chromedp.LoadError
	switch {
	case errors.As(err, &te):
		return te
	case a.s.isClosed():
		return errSessionClosed
	case a.req.Err() != nil:
		return toolkit.Errorf(toolkit.CodeBusinessLogic, "the request was cancelled")
	case errors.As(err, &exc):
		return toolkit.Errorf(toolkit.CodeBusinessLogic, "the script threw: %s", cut(exc.Error(), 2000))
	case errors.As(err, &load) && strings.Contains(load.Error(), "BLOCKED_BY_CLIENT"):
		return toolkit.Errorf(toolkit.CodeForbidden, "the page went on (a redirect) to a host that may not be opened: not loopback and not in browser.allowed_hosts; see action console")
	case errors.As(err, &load):
		return toolkit.Errorf(toolkit.CodeBusinessLogic, "the page did not load: %v; is the server at that address running?", load)
	case errors.Is(err, chromedp.ErrTargetDetached), errors.Is(err, chromedp.ErrNoTarget), errors.Is(err, context.Canceled):
		return toolkit.Errorf(toolkit.CodeNotFound, "the tab was closed; open tabs: %s", strings.Join(a.s.tabIDs(), ", "))
	case errors.Is(err, context.DeadlineExceeded):
		return toolkit.Errorf(toolkit.CodeBusinessLogic, "%s timed out after %s; raise timeout_ms or check the page", a.in.Action, a.timeout)
	}
	a.s.m.log.Warn("browser action failed", "action", a.in.Action, "err", err)
	return toolkit.Errorf(toolkit.CodeBusinessLogic, "%s failed: %s", a.in.Action, cut(err.Error(), 1000))
}

func (s *session) isClosed() bool {
	s.pmu.Lock()
	defer s.pmu.Unlock()
	return s.closed
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
