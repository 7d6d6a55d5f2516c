// The review page: plain DOM, no framework. Every text from the server is
// put in the page with textContent, never parsed as HTML.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("t") || "";
  const csrf = document.querySelector('meta[name="review-csrf"]').content;
  const view = document.getElementById("view");
  const notice = document.getElementById("notice");
  const live = document.getElementById("live");
  let state = null;      // the last overview
  let stateText = "";    // its JSON, to re-render only on change

  // h builds an element: h("p", {class: "x"}, "text", child, …).
  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "onclick" || k === "onsubmit") el.addEventListener(k.slice(2), v);
      else if (k === "text") el.textContent = v;
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat(Infinity)) {
      if (kid === undefined || kid === null || kid === false) continue;
      el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }

  async function api(path, body) {
    const opts = { headers: { "X-Review-Token": token }, cache: "no-store", credentials: "omit" };
    if (body !== undefined) {
      opts.method = "POST";
      opts.headers["X-Review-CSRF"] = csrf;
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch("/review/api/" + path, opts);
    } catch (e) {
      const err = new Error("the server is unreachable");
      err.status = 0;
      throw err;
    }
    let data = null;
    try { data = await res.json(); } catch (e) { data = { error: "the server answered " + res.status }; }
    if (!res.ok) {
      const err = new Error(data && data.error ? data.error : "the server answered " + res.status);
      err.status = res.status;
      throw err;
    }
    return data;
  }

  function say(msg, good) {
    notice.hidden = !msg;
    notice.textContent = msg || "";
    notice.className = good ? "notice good" : "notice";
  }

  // who shows an audit line's actor by its client's name; the MCP session id
  // it may carry ("claude-code (mcp-session-…)", 100+ characters that pushed
  // the table past the window) is kept for the tooltip.
  function who(actor) {
    const m = /^(.*) \((mcp-session-[^)]*)\)$/.exec(actor || "");
    return m ? h("span", { title: actor }, m[1]) : (actor || "");
  }

  function when(t) {
    if (!t) return "";
    const d = new Date(t);
    return isNaN(d) ? t : d.toLocaleString();
  }

  // --- Markdown, rendered into DOM nodes (a safe subset: headings, lists,
  // task boxes, code, quotes, tables, emphasis; links show their target).
  function inline(text) {
    const out = [];
    const re = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*)|(\[[^\]]+\]\([^)]+\))/g;
    let last = 0, m;
    while ((m = re.exec(text))) {
      if (m.index > last) out.push(text.slice(last, m.index));
      const s = m[0];
      if (m[1]) out.push(h("code", {}, s.slice(1, -1)));
      else if (m[2]) out.push(h("strong", {}, s.slice(2, -2)));
      else if (m[3]) out.push(h("em", {}, s.slice(1, -1)));
      else {
        const i = s.indexOf("](");
        out.push(h("span", { class: "link" }, s.slice(1, i), h("span", { class: "muted" }, " (" + s.slice(i + 2, -1) + ")")));
      }
      last = m.index + s.length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }

  function markdown(src) {
    const root = h("div", { class: "md" });
    const lines = src.replace(/\r/g, "").split("\n");
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      let m;
      if (/^\s*```/.test(line)) {
        const code = [];
        i++;
        while (i < lines.length && !/^\s*```/.test(lines[i])) code.push(lines[i++]);
        i++;
        root.append(h("pre", { tabindex: "0" }, h("code", {}, code.join("\n"))));
      } else if ((m = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line))) {
        // A file's headings sit below the page's heading of the file (h4).
        const level = Math.min(6, m[1].length + 4);
        root.append(h("h" + level, {}, inline(m[2])));
        i++;
      } else if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
        const ordered = /^\s*\d/.test(line);
        const list = h(ordered ? "ol" : "ul", {});
        while (i < lines.length && /^\s*([-*+]|\d+[.)])\s+/.test(lines[i])) {
          const item = lines[i].replace(/^(\s*)([-*+]|\d+[.)])\s+/, "");
          const depth = Math.floor(/^\s*/.exec(lines[i])[0].length / 2);
          const box = /^\[([ xX])\]\s*/.exec(item);
          const li = h("li", {});
          if (depth) li.style.marginLeft = depth * 1.25 + "rem";
          if (box) {
            const done = box[1] !== " ";
            li.append(h("span", { role: "img", "aria-label": done ? "done" : "not done" }, done ? "☑ " : "☐ "));
            li.append(...inline(item.slice(box[0].length)));
          } else li.append(...inline(item));
          list.append(li);
          i++;
        }
        root.append(list);
      } else if (/^\s*>/.test(line)) {
        const quote = [];
        while (i < lines.length && /^\s*>/.test(lines[i])) quote.push(lines[i++].replace(/^\s*>\s?/, ""));
        root.append(h("blockquote", {}, h("p", {}, inline(quote.join(" ")))));
      } else if (/^\s*\|.*\|\s*$/.test(line)) {
        const rows = [];
        while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i])) rows.push(lines[i++]);
        const cells = (r) => r.trim().slice(1, -1).split("|").map((c) => c.trim());
        const table = h("table", {});
        const body = rows.filter((r) => !/^\s*\|[\s:|-]+\|\s*$/.test(r));
        body.forEach((r, n) => table.append(h("tr", {}, cells(r).map((c) => h(n === 0 ? "th" : "td", {}, inline(c))))));
        root.append(table);
      } else if (/^\s*(---+|\*\*\*+)\s*$/.test(line)) {
        root.append(h("hr", {}));
        i++;
      } else if (line.trim() === "") {
        i++;
      } else {
        const para = [];
        while (i < lines.length && lines[i].trim() !== "" && !/^(\s*```|#{1,6}\s|\s*([-*+]|\d+[.)])\s+|\s*>|\s*\|)/.test(lines[i])) para.push(lines[i++]);
        root.append(h("p", {}, inline(para.join(" "))));
      }
    }
    return root;
  }

  function diff(lines, label) {
    const box = h("div", { class: "diff", role: "group", "aria-label": label || "changes since the last approval", tabindex: "0" });
    for (const l of lines) {
      const cls = { "+": "add", "-": "del", "…": "gap" }[l.op] || "";
      const mark = { "+": "+ ", "-": "- ", "…": "… " }[l.op] || "  ";
      const label = { "+": "added: ", "-": "removed: " }[l.op];
      box.append(h("div", { class: cls }, h("span", { "aria-hidden": "true" }, mark), label ? h("span", { class: "vh" }, label) : null, l.text));
    }
    return box;
  }

  // bar is a meter; with a threshold it draws the threshold's line, and a
  // value below it in the warning colour, saying so in words too.
  function bar(name, percent, label, threshold) {
    const low = typeof threshold === "number" && percent < threshold;
    const fill = h("div", { class: "fill" + (low ? " low" : "") });
    fill.style.width = Math.max(0, Math.min(100, percent)) + "%";
    const track = h("div", { class: "track", role: "meter", "aria-valuemin": "0", "aria-valuemax": "100", "aria-valuenow": String(percent),
      "aria-label": name + " coverage" + (typeof threshold === "number" ? ", threshold " + threshold + "%" : "") }, fill);
    if (typeof threshold === "number") {
      const line = h("div", { class: "threshold", title: "threshold " + threshold + "%" });
      line.style.left = Math.max(0, Math.min(100, threshold)) + "%";
      track.append(line);
    }
    return h("div", { class: "bar" + (low ? " below" : "") },
      h("span", { class: "name" }, name),
      track,
      h("span", { class: low ? "bad" : "" }, label || percent.toFixed(1) + "%", low ? h("span", { class: "vh" }, ", below the threshold") : null));
  }

  // stackTable is a table whose rows become labelled cards on a narrow
  // window, so that at 390 px nothing is cut off or scrolls sideways.
  function stackTable(name, cols, rows) {
    return h("table", { class: "stack " + name },
      h("thead", {}, h("tr", {}, cols.map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((c, i) => h("td", { "data-label": cols[i] }, c))))));
  }

  function badge(text, cls) { return h("span", { class: "badge " + (cls || "") }, text); }

  // --- Views.
  // filters is the person's choice in the sessions list; it outlives the
  // 2-second refresh, which redraws the list.
  const filters = { state: "", agent: "", spec: "" };

  // stateClass colours a session's state: the person's move stands out.
  function stateClass(st) {
    if (/^(awaits your|revised|blocked)/.test(st)) return "warn";
    if (/^changes requested/.test(st)) return "muted";
    if (/^(approved|completed)/.test(st)) return "ok";
    return "muted";
  }

  // inboxView is what waits for the person, first thing on the page: each
  // item by the feature's name, what is asked, and a link to the decision.
  function inboxView() {
    const items = state.inbox || [];
    const wrap = h("section", { "aria-labelledby": "h-inbox" }, h("h2", { id: "h-inbox" }, "Waiting for you ", h("span", { class: "count" }, "(" + items.length + ")")));
    if (!items.length) { wrap.append(h("p", { class: "muted" }, "Nothing waits for you now. New approvals and problems appear here as the agents work.")); return wrap; }
    const list = h("ul", { class: "inbox" });
    for (const it of items) {
      const label = { "awaits approval": "Review and decide", "approval void": "Review the changes", "rules changed": "Review the rules", "changed outside agentos": "Accept or reset", "gate failing": "Look at the evidence", "spec drifted": "See what broke" }[it.kind] || "Open";
      list.append(h("li", { class: "panel item" },
        h("h3", {}, h("a", { href: it.href, "data-key": "inbox:" + it.href }, it.name), " ", badge(it.kind, it.kind === "gate failing" || it.kind === "spec drifted" ? "bad" : "warn")),
        h("p", {}, it.asked),
        h("p", { class: "meta muted" }, it.owner ? "Agent " + it.owner + " · " : "", it.spec ? "spec " + it.spec + " · " : "", it.session ? "session " : "", it.session ? h("code", {}, it.session) : null, it.since ? [" · ", ago(it.since)] : null),
        h("p", {}, h("a", { href: it.href, class: "go", "data-key": "go:" + it.href }, label, h("span", { class: "vh" }, ": " + it.name)))));
    }
    wrap.append(list);
    return wrap;
  }

  // ago is a relative time, the exact one on hover.
  function ago(t) {
    const d = new Date(t);
    if (isNaN(d)) return t || "";
    const s = Math.round((Date.now() - d) / 1000);
    const text = s < 60 ? "just now" : s < 3600 ? Math.round(s / 60) + " min ago" : s < 86400 ? Math.round(s / 3600) + " h ago" : Math.round(s / 86400) + " d ago";
    return h("time", { datetime: d.toISOString(), title: d.toLocaleString() }, text);
  }

  // tick brings relative times up to date in place: a view is redrawn only
  // when what it shows changed.
  function tick() {
    view.querySelectorAll("time[datetime]").forEach((el) => {
      const now = ago(el.getAttribute("datetime"));
      if (el.textContent !== now.textContent) el.textContent = now.textContent;
    });
  }

  function sessionsView() {
    const rows = state.sessions;
    const wrap = h("div", {}, inboxView());
    const all = h("section", { "aria-labelledby": "h-sessions" }, h("h2", { id: "h-sessions" }, "All sessions"));
    wrap.append(all);
    if (state.unreadable) for (const u of state.unreadable) all.append(h("p", { class: "bad" }, u));
    if (state.settings) all.append(h("p", { class: "bad" }, state.settings + "."));
    if (!rows.length) { all.append(h("p", {}, "No workflow sessions yet. Agents start them with svc_workflow.")); return wrap; }
    const distinct = (key) => Array.from(new Set(rows.map((r) => r[key]).filter(Boolean))).sort();
    const select = (key, label, options) => {
      const id = "filter-" + key;
      const sel = h("select", { id: id, "data-key": id }, h("option", { value: "" }, "all"), options.map((o) => h("option", { value: o, selected: o === filters[key] }, o)));
      sel.addEventListener("change", () => { filters[key] = sel.value; route(true); });
      return h("div", { class: "filter" }, h("label", { for: id }, label), sel);
    };
    all.append(h("div", { class: "filters", role: "group", "aria-label": "Filter the sessions" },
      select("state", "State", distinct("state")), select("agent", "Agent", distinct("owner")), select("spec", "Spec", distinct("spec"))));
    const shown = rows.filter((r) => (!filters.state || r.state === filters.state) && (!filters.agent || r.owner === filters.agent) && (!filters.spec || r.spec === filters.spec));
    all.append(h("p", { class: "muted", id: "sessions-shown" }, shown.length === rows.length ? rows.length + " sessions, newest first." : shown.length + " of " + rows.length + " sessions match the filters."));
    const cols = ["Feature", "State", "Phase", "Agent", "Updated"];
    const cell = (i, ...kids) => h("td", { "data-label": cols[i] }, ...kids);
    const table = h("table", { class: "sessions stack" }, h("thead", {}, h("tr", {}, cols.map((t) => h("th", { scope: "col" }, t)))));
    const tb = h("tbody", {});
    for (const r of shown) {
      tb.append(h("tr", {},
        cell(0, h("a", { href: "#/session/" + encodeURIComponent(r.id), "data-key": "row:" + r.id }, r.name), h("div", { class: "sub muted" }, r.workflow + " · ", h("code", {}, r.id))),
        cell(1, badge(r.state, stateClass(r.state)), r.attention ? [" ", badge(r.attention, "warn")] : null),
        cell(2, r.phase, r.task ? h("div", { class: "sub muted" }, r.task) : null),
        cell(3, r.owner),
        cell(4, ago(r.updated_at))));
    }
    table.append(tb);
    all.append(table);
    return wrap;
  }

  function specsView() {
    const wrap = h("section", { "aria-labelledby": "h-specs" }, h("h2", { id: "h-specs" }, "Specs"));
    if (!state.specs.length) { wrap.append(h("p", {}, "No spec folders under .agentos/specs/ yet.")); return wrap; }
    wrap.append(stackTable("specs", ["Spec", "Approval", "By", "When", "Finished"], state.specs.map((s) => {
      const cls = s.state === "approved" ? "ok" : s.state === "not approved" ? "muted" : "warn";
      return [h("a", { href: "#/spec/" + encodeURIComponent(s.name) }, s.name), badge(s.state, cls), s.by || "", s.at ? ago(s.at) : "",
        s.living ? badge(s.living, livingClass[s.living] || "muted") : h("span", { class: "muted" }, "not yet")];
    })));
    return wrap;
  }

  function agentsView() {
    const wrap = h("section", { "aria-labelledby": "h-agents" }, h("h2", { id: "h-agents" }, "Connected agents"));
    if (!state.agents || !state.agents.length) { wrap.append(h("p", {}, "No agent is connected to this server now.")); return wrap; }
    wrap.append(stackTable("agents", ["Agent", "Version", "Transport", "Last seen"], state.agents.map((a) => [a.name, a.version || "", a.transport, a.last_seen ? ago(a.last_seen) : ""])));
    return wrap;
  }

  function indexesView() {
    const wrap = h("section", { "aria-labelledby": "h-indexes" }, h("h2", { id: "h-indexes" }, "Search indexes"));
    if (!state.indexes || !state.indexes.length) { wrap.append(h("p", {}, "Search is not running on this server.")); return wrap; }
    for (const ix of state.indexes) {
      const done = ix.files_total ? (100 * ix.files_done) / ix.files_total : (ix.state === "ready" ? 100 : 0);
      wrap.append(h("div", { class: "panel" },
        h("h3", {}, ix.index, " ", badge(ix.state, ix.state === "ready" ? "ok" : ix.state === "failed" ? "bad" : "warn")),
        bar("files indexed", done, ix.files_done + " / " + (ix.files_total || "?")),
        h("dl", { class: "kv" },
          h("dt", {}, "Chunks"), h("dd", {}, String(ix.chunks || 0)),
          ix.symbols ? [h("dt", {}, "Symbols"), h("dd", {}, String(ix.symbols))] : null,
          ix.embedder ? [h("dt", {}, "Embedder"), h("dd", {}, ix.embedder)] : null,
          ix.updated_at ? [h("dt", {}, "Updated"), h("dd", {}, when(ix.updated_at))] : null,
          ix.detail ? [h("dt", {}, "Detail"), h("dd", {}, ix.detail)] : null)));
    }
    return wrap;
  }

  function standardsView() {
    const wrap = h("section", { "aria-labelledby": "h-standards" }, h("h2", { id: "h-standards" }, "Standards"));
    if (!state.standards.length) { wrap.append(h("p", {}, "No standards under .agentos/standards/.")); return wrap; }
    wrap.append(stackTable("standards", ["Standard", "File", "Keywords"], state.standards.map((s) => [s.title || "(untitled)", h("span", { class: "hash" }, s.path), (s.keywords || []).map((k) => h("span", { class: "kw" }, k))])));
    return wrap;
  }

  // proofsView is an acceptance_criteria result's proofs: per criterion,
  // its text, the test that traces it, how that test fared before the
  // change (with the runner's failure line) and now, and whether that
  // proves the criterion; then the functions emptied for the run before.
  function proofsView(d, criteria) {
    const before = (p) => {
      if (p.before === "failed") return [h("span", {}, "failed before"), p.failure ? h("code", { class: "line" }, p.failure) : null];
      const said = { passed: "passed before too", skipped: "skipped before" }[p.before] || String(p.before || "").replace(/^did not run/, "did not run before");
      return h("span", { class: "warn" }, said);
    };
    const cols = ["Criterion", "Test", "Before the change", "Now", "Proven"];
    const cell = (i, ...kids) => h("td", { "data-label": cols[i] }, ...kids);
    const rows = d.proofs.map((p) => {
      const text = criteria[String(p.id || "").toLowerCase()];
      return h("tr", {},
        cell(0, h("code", {}, p.id), text ? h("div", { class: "ac-text" }, text) : null),
        cell(1, testLink(p.test)),
        cell(2, before(p)),
        cell(3, p.after === "pass" ? "passes now" : String(p.after || "")),
        cell(4, badge(p.proven ? "✓ proven" : "✗ not proven", p.proven ? "ok" : "bad")));
    });
    const proven = d.proofs.filter((p) => p.proven).length;
    const out = [h("table", { class: "proofs" },
      h("caption", {}, "Fail before, pass after: " + proven + " of " + d.proofs.length + " proven (a test proves its criterion when it failed on the code before the change and passes now)"),
      h("thead", {}, h("tr", {}, cols.map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rows))];
    if (d.emptied && d.emptied.length) {
      out.push(h("details", { class: "emptied" }, h("summary", {}, "Functions emptied for the run before the change (" + d.emptied.length + ")"),
        h("ul", {}, d.emptied.map((f) => h("li", {}, h("code", {}, f))))));
    }
    return out;
  }

  // earlierView is what a command result says of the tests that passed when
  // the session started: those that no longer hold, or that all still do.
  function earlierView(d) {
    const regs = d.regressions || [];
    if (!regs.length) {
      if (!d.earlier_tests) return null;
      return h("div", { class: "ok" }, "✓ " + d.earlier_tests + (d.earlier_tests === 1 ? " earlier test still holds" : " earlier tests still hold"));
    }
    return h("div", { class: "regressions" }, h("strong", {}, "Earlier tests that no longer hold"), d.earlier_tests ? " (" + regs.length + " of " + d.earlier_tests + ")" : "", ":",
      h("ul", {}, regs.map((r) => h("li", {}, h("code", {}, r.test), " ", h("span", { class: "bad" }, r.now),
        r.failure ? h("code", { class: "line" }, r.failure) : null))));
  }

  // testLink shows a test as the gate names it, "TestX (x_test.go:12)",
  // with its file and line a link to the test's source on this page.
  let linkSession = "";
  function testLink(test) {
    const m = /^(.*) \(([^()]+):(\d+)\)$/.exec(test || "");
    if (!m || !linkSession) return h("code", {}, test);
    return h("span", {}, h("code", {}, m[1]), " ",
      h("a", { href: "#/source/" + encodeURIComponent(linkSession) + "/" + encodeURIComponent(m[2]) + "/" + m[3] }, m[2] + ":" + m[3], h("span", { class: "vh" }, ", the source of " + m[1])));
  }

  // criterionRef is a criterion by its ID and text, with why it is not
  // traced when the gate said.
  function criterionRef(r, criteria) {
    const text = r.text || criteria[String(r.id || "").toLowerCase()] || "";
    return h("li", {}, r.id ? h("code", {}, r.id) : null, r.id ? " " : "", text ? text : "", h("span", { class: "muted" }, " (task " + r.task + (r.line ? ", tasks.md line " + r.line : "") + ")"),
      r.why ? h("div", { class: /failed/.test(r.why) ? "bad" : "muted" }, r.why) : null);
  }

  function checkView(c, criteria) {
    const d = c.details || {};
    const box = h("li", { class: "check" }, badge(c.passed ? "passed" : "failed", c.passed ? "ok" : "bad"), " ", h("strong", {}, c.type), ": ", c.message);
    // A failed test's own failure comes first, next to it.
    if (d.failed_tests && d.failed_tests.length) box.append(h("div", { class: "failed-tests" }, h("strong", {}, "Failed tests"),
      h("ul", {}, d.failed_tests.map((t) => h("li", {}, h("code", {}, t), d.failures && d.failures[t] ? h("code", { class: "line bad" }, d.failures[t]) : null)))));
    if (c.remediation) box.append(h("div", { class: "muted" }, "To pass: " + c.remediation));
    if (d.command) box.append(h("dl", { class: "kv" }, h("dt", {}, "Command"), h("dd", {}, h("code", {}, d.command)),
      h("dt", {}, "Exit code"), h("dd", {}, String(d.exit_code)), h("dt", {}, "Took"), h("dd", {}, (d.duration_ms / 1000).toFixed(1) + " s"),
      d.tests ? [h("dt", {}, "Tests"), h("dd", {}, d.tests + " run, " + (d.failed || 0) + " failed")] : null));
    if (c.type === "coverage" && typeof d.percent === "number") {
      const t = typeof d.threshold === "number" ? d.threshold : undefined;
      const judged = d.changed && typeof d.changed.percent === "number";
      box.append(h("p", { class: "muted" }, "Threshold " + d.threshold + "%: the line across each bar; below it in the warning colour." + (judged ? " The threshold judges the lines the session changed." : "")));
      if (judged) box.append(bar("lines changed", d.changed.percent, undefined, t));
      box.append(bar("total", d.percent, undefined, judged ? undefined : t));
      if ((d.least_covered || []).length) box.append(h("p", { class: "muted" }, "Per file, least covered first:"));
      for (const f of d.least_covered || []) box.append(bar(f.file, f.percent, f.percent.toFixed(1) + "%", t));
    }
    if (typeof d.checked === "number" && typeof d.criteria === "number") {
      box.append(h("div", {}, d.checked + " of " + d.criteria + " acceptance criteria checked" + (d.test_files_scanned ? ", " + d.test_files_scanned + " test files scanned for their IDs" : "")));
      const refs = (list, what) => list && list.length ? h("div", {}, what, h("ul", { class: "refs" }, list.map((r) => criterionRef(r, criteria)))) : null;
      for (const list of [refs(d.unchecked, "Not ticked in tasks.md:"), refs(d.untraced, "Not proved by a test that passed in this run:")]) if (list) box.append(list);
      if (d.proofs && d.proofs.length) box.append(...proofsView(d, criteria));
    }
    if (d.command) {
      const earlier = earlierView(d);
      if (earlier) box.append(earlier);
    }
    for (const key of ["problems", "errors"]) {
      if (Array.isArray(d[key]) && d[key].length) box.append(h("ul", {}, d[key].map((p) => h("li", {}, Object.values(p).join(": ")))));
    }
    if (c.output) box.append(h("details", {}, h("summary", {}, "Output (tail)"), h("pre", { class: "out", tabindex: "0" }, c.output)));
    return box;
  }

  // gatesView is each phase's gate: the last attempt, or the one the person
  // chose; every earlier attempt kept is listed, and can be shown instead.
  const attemptShown = new Map(); // session + ":" + phase → index in its attempts
  function gatesView(s, criteria) {
    const out = [];
    linkSession = s.id;
    for (const p of s.phases) {
      if (!p.last_gate) continue;
      const earlier = (s.earlier_gates || {})[p.number] || [];
      const attempts = earlier.concat([p.last_gate]);
      const first = p.gate_attempts - attempts.length + 1; // the number of the oldest kept
      const key = s.id + ":" + p.number;
      const i = Math.min(attemptShown.has(key) ? attemptShown.get(key) : attempts.length - 1, attempts.length - 1);
      const g = attempts[i];
      const panel = h("div", { class: "panel", role: "group", "aria-label": "Gate of phase " + p.number },
        h("h4", {}, "Phase " + p.number + " " + p.name + " — gate ", badge(g.passed ? "passed" : "failed", g.passed ? "ok" : "bad"),
          h("span", { class: "muted" }, " " + when(g.at) + ", attempt " + (first + i) + " of " + p.gate_attempts)));
      if (attempts.length > 1) {
        const id = "attempt-" + p.number;
        const sel = h("select", { id: id, "data-key": "attempt:" + p.number }, attempts.map((a, k) => h("option", { value: String(k), selected: k === i },
          "Attempt " + (first + k) + " — " + (a.passed ? "passed" : "failed") + ", " + when(a.at) + (k === attempts.length - 1 ? " (last)" : ""))));
        sel.addEventListener("change", () => { attemptShown.set(key, +sel.value); redraw("attempt:" + p.number); });
        panel.append(h("div", { class: "filter attempts" }, h("label", { for: id }, "Attempt shown"), sel),
          h("table", { class: "stack attempts-table" },
            h("caption", {}, "Every attempt kept, to compare"),
            h("thead", {}, h("tr", {}, ["Attempt", "When", "Result", "Checks that failed"].map((t) => h("th", { scope: "col" }, t)))),
            h("tbody", {}, attempts.map((a, k) => h("tr", { class: k === i ? "shown" : "" },
              h("td", { "data-label": "Attempt" }, String(first + k) + (k === i ? " (shown)" : "")),
              h("td", { "data-label": "When" }, when(a.at)),
              h("td", { "data-label": "Result" }, badge(a.passed ? "passed" : "failed", a.passed ? "ok" : "bad")),
              h("td", { "data-label": "Checks that failed" }, a.checks.filter((c) => !c.passed).map((c) => c.type + ": " + c.message).join("; ") || "none"))))));
      }
      panel.append(h("ul", {}, g.checks.map((c) => checkView(c, criteria))));
      if (g.evidence) panel.append(h("details", {}, h("summary", {}, "Evidence the agent sent"), h("pre", { class: "out", tabindex: "0" }, JSON.stringify(g.evidence, null, 2))));
      out.push(panel);
    }
    return out.length ? out : [h("p", { class: "muted" }, "No gate has run yet.")];
  }

  // statusWords says a file's status against what the person last looked
  // at, in their words.
  function statusWords(f, spec) {
    const mine = /^the version you/.test(spec.against || "");
    return { unchanged: "unchanged", changed: mine ? "changed since you looked" : "changed", added: "added", removed: "removed", new: "new" }[f.status] || f.status;
  }
  const statusClass = { unchanged: "muted", changed: "warn", added: "warn", removed: "bad", new: "muted" };
  function fileAnchor(spec, path) { return "file-" + spec.name + "-" + path.split("/").pop().replace(/[^A-Za-z0-9_-]/g, "_"); }

  // bindingTable is what an approval binds, file by file: the name first,
  // its status, its length and a short hash (the whole on hover and in the
  // terminal's summary below it).
  function bindingTable(spec) {
    const cols = ["File", "Status", "Lines", "SHA-256"];
    return stackTable("binding", cols, spec.files.map((f) => [
      h("a", { href: "#" + fileAnchor(spec, f.path), "data-anchor": fileAnchor(spec, f.path) }, f.path.split("/").pop()),
      badge(statusWords(f, spec), statusClass[f.status]),
      f.lines ? String(f.lines) : "",
      f.sha256 ? h("code", { title: f.sha256, class: "short" }, f.sha256.slice(0, 12) + "…") : ""]));
  }

  // The file index's links move the focus to the file, so that a
  // keyboard user goes on reading from there (the hash routes the page).
  document.addEventListener("click", (ev) => {
    const a = ev.target.closest && ev.target.closest("a[data-anchor]");
    if (!a) return;
    ev.preventDefault();
    const sec = document.getElementById(a.dataset.anchor);
    if (sec) { sec.scrollIntoView({ block: "start" }); sec.focus({ preventScroll: true }); }
  });

  function historyView(spec) {
    if (!spec.history || !spec.history.length) return null;
    return h("section", { class: "history", "aria-label": "Decisions on this spec" }, h("h3", {}, "Decisions on this spec"),
      h("ul", { class: "decisions" }, spec.history.map((d, i) => h("li", {},
        h("strong", {}, d.action), " by " + d.by + (d.via ? " via " + d.via : "") + ", ", ago(d.at),
        d.comment ? h("blockquote", {}, d.comment) : null,
        d.comments && d.comments.length ? h("details", { "data-key": "decision-lines:" + d.at }, h("summary", {}, d.comments.length + (d.comments.length === 1 ? " comment" : " comments") + " on lines"),
          h("ul", { class: "comments" }, d.comments.map((c) => h("li", { class: "ccard" }, h("p", { class: "cwhere" }, whereText(c)), h("blockquote", { class: "quote" }, c.quote), h("p", {}, c.comment))))) : null,
        h("details", { open: i === 0 && d.changed && d.changed.length ? true : null, "data-key": "decision:" + d.at },
          h("summary", {}, i > 0 ? "Files and changes" : d.action === "marked as seen" ? "What you marked as seen" : "What this decision covered"),
          h("ul", { class: "hashes" }, d.files.map((f) => h("li", {}, f.path.split("/").pop() + " ", h("code", { title: f.sha256, class: "short" }, f.sha256.slice(0, 12) + "…")))),
          (d.changed || []).map((c) => h("div", {}, h("h4", {}, c.path.split("/").pop() + " ", badge(c.status, statusClass[c.status] || "warn")),
            c.note ? h("p", { class: "muted" }, c.note) : null, c.diff && c.diff.length ? diff(c.diff, "changes in " + c.path) : null)))))));
  }

  // rulesOf is the terminal's summary of what an approval binds without
  // its list of files (the table above shows them, names first): the
  // judging workflows, the test command, the threshold, the harness.
  function rulesOf(describe) {
    const out = [];
    let files = false;
    for (const line of describe.split("\n")) {
      if (/^Files /.test(line)) { files = true; continue; }
      if (files && /^\s/.test(line)) continue;
      files = false;
      out.push(line);
    }
    return out.join("\n").trim();
  }

  function specBody(spec) {
    const out = [h("nav", { class: "files", "aria-label": "Files of the spec" }, h("h3", {}, "What an approval binds"), bindingTable(spec),
      spec.against ? h("p", { class: "muted" }, "Each file is compared with " + spec.against + ".") : null,
      seenButton(spec),
      h("pre", { class: "out", tabindex: "0" }, rulesOf(spec.describe)))];
    if (spec.last_approval) out.push(h("p", {}, "Last approved by " + spec.last_approval.by + " via " + (spec.last_approval.via || "terminal") + ", " + when(spec.last_approval.at) + "."));
    const sent = sentComments(spec);
    if (sent) out.push(sent);
    const hist = historyView(spec);
    if (hist) out.push(hist);
    for (const f of spec.files) out.push(fileSection(spec, f));
    return out;
  }

  // --- Comments on lines, GitHub-style. A file shows either rendered or
  // as numbered lines; in the lines, each line number is a button (one tab
  // stop for the whole file: the arrow keys move between lines, Shift with
  // an arrow selects a range, Enter or C comments on the line or range).
  // A comment is a draft until it goes with "Request changes".
  // A file with drafts on it shows as lines unless the person chose it
  // rendered.
  const linesOn = new Set();           // spec + "\n" + path chosen as lines
  const linesOff = new Set();          // … and chosen rendered
  let sel = null;                      // {spec, file, anchor, head}: the lines selected
  function whereText(c) {
    const name = c.file.split("/").pop();
    const end = c.end_line || c.line;
    return name + (end > c.line ? " lines " + c.line + "–" + end : " line " + c.line);
  }
  function splitText(text) {
    const s = (text || "").replace(/\r\n/g, "\n");
    return s === "" ? [] : s.replace(/\n$/, "").split("\n");
  }
  // findQuote is where quoted lines start in lines, nearest to line; 0 when
  // they are nowhere (the server's resolve does the same for sent ones).
  function findQuote(lines, c) {
    const q = (c.quote || "").split("\n");
    const at = (i) => i >= 0 && i + q.length <= lines.length && q.every((l, k) => lines[i + k] === l);
    for (let d = 0; d <= Math.max(lines.length, c.line); d++) {
      if (at(c.line - 1 - d)) return c.line - d;
      if (d && at(c.line - 1 + d)) return c.line + d;
    }
    return 0;
  }
  // anchorDrafts keeps each draft on its lines when the agent moved them
  // (lines added above), and marks those whose lines now read otherwise.
  function anchorDrafts(spec) {
    const d = drafts.get(spec.name);
    if (!d) return;
    let moved = false;
    for (const c of d.comments) {
      const f = spec.files.find((x) => x.path === c.file);
      const lines = f ? splitText(f.text) : [];
      const span = (c.end_line || c.line) - c.line;
      const now = f ? findQuote(lines, c) : 0;
      c.stale = !now;
      if (now && now !== c.line) { c.line = now; c.end_line = now + span; moved = true; }
    }
    if (moved) saveDraft(spec.name, true);
  }

  function draftCard(spec, c, withQuote) {
    const id = "draft-" + c.id;
    const ta = h("textarea", { id: id, name: "line-comment", "data-key": "draft:" + c.id, class: "short" });
    ta.value = c.comment || "";
    ta.addEventListener("input", () => { c.comment = ta.value; saveDraft(spec.name); requestLabel(spec); });
    const del = h("button", { type: "button", "data-key": "draft-del:" + c.id }, "Delete", h("span", { class: "vh" }, " the comment on " + whereText(c)));
    del.addEventListener("click", () => {
      const d = drafts.get(spec.name);
      d.comments = d.comments.filter((x) => x.id !== c.id);
      saveDraft(spec.name);
      // The file stays as it was shown; the focus goes where the comment was.
      if (!withQuote) { linesOn.add(spec.name + "\n" + c.file); linesOff.delete(spec.name + "\n" + c.file); }
      redraw(withQuote ? "lines:" + c.file : lineKey(c.file, Math.min(c.end_line || c.line, c.line)));
    });
    return h("div", { class: "ccard draft", role: "group", "aria-label": "Your comment on " + whereText(c) },
      h("p", { class: "cwhere" }, badge("draft", "muted"), " ", whereText(c),
        c.stale ? h("span", { class: "bad" }, " — these lines read otherwise now: nothing can be sent with this comment; delete it, or comment again on the lines as they are") : null),
      withQuote && c.quote ? h("blockquote", { class: "quote" }, c.quote) : null,
      h("label", { for: id }, "Comment on " + whereText(c)), ta,
      h("div", { class: "actions" }, del));
  }

  function sentCard(c, inline) {
    const where = whereText(c) + (c.open && c.now && c.now !== c.line ? " (now line " + c.now + ")" : "");
    return h(inline ? "div" : "li", { class: "ccard sent" + (c.open ? "" : " resolved") },
      h("p", { class: "cwhere" }, badge(c.open ? "open" : "resolved", c.open ? "warn" : "ok"), " ", where),
      inline ? null : h("blockquote", { class: "quote" }, c.quote),
      h("p", {}, c.comment), h("p", { class: "muted why" }, c.why));
  }

  // sentComments is the comments of the person's last request for changes,
  // each open (its lines still read so) or resolved in the spec as it is.
  function sentComments(spec) {
    const cs = spec.comments || [];
    if (!cs.length) return null;
    const open = cs.filter((c) => c.open).length;
    return h("section", { class: "panel sent-comments", "aria-label": "Your comments on lines, sent" },
      h("h3", {}, "Your comments on lines, sent " + (spec.commented_at ? when(spec.commented_at) : ""), " ",
        badge(open ? open + " open" : "all resolved", open ? "warn" : "ok"), " ", badge((cs.length - open) + " resolved", "muted")),
      h("ul", { class: "comments" }, cs.map((c) => sentCard(c, false))));
  }

  function lineKey(file, n) { return "ln:" + file + ":" + n; }

  function fileSection(spec, f) {
    const key = spec.name + "\n" + f.path;
    const d = drafts.get(spec.name) || { comments: [] };
    const mine = d.comments.filter((c) => c.file === f.path);
    const asLines = (linesOn.has(key) || (mine.length > 0 && !linesOff.has(key))) && !f.binary && f.status !== "removed";
    const sec = h("section", { class: "panel file", "aria-label": f.path, id: fileAnchor(spec, f.path), tabindex: "-1" }, h("h4", {}, f.path, " ", badge(statusWords(f, spec), statusClass[f.status])),
      f.sha256 ? h("p", { class: "hash" }, "SHA-256 " + f.sha256) : null);
    if (f.note) sec.append(h("p", { class: "muted" }, f.note));
    if (f.diff && f.diff.length) sec.append(h("h5", {}, "Changes since " + (spec.against || "the last approval").replace(/ \(.*\)$/, "")), diff(f.diff, "changes in " + f.path));
    if (f.binary) { sec.append(h("p", { class: "muted" }, "Not a text file.")); return sec; }
    if (f.status === "removed") return sec;
    const toggle = h("button", { type: "button", class: "toggle", "aria-pressed": asLines ? "true" : "false", "data-key": "lines:" + f.path },
      asLines ? "Show it rendered" : "Comment on lines", h("span", { class: "vh" }, " of " + f.path));
    toggle.addEventListener("click", () => {
      if (asLines) { linesOn.delete(key); linesOff.add(key); } else { linesOn.add(key); linesOff.delete(key); }
      redraw("lines:" + f.path);
    });
    sec.append(h("div", { class: "actions filebar" }, toggle,
      mine.length ? h("span", { class: "muted" }, mine.length + (mine.length === 1 ? " comment" : " comments") + " not sent yet") : null));
    if (asLines) { sec.append(linesView(spec, f, mine)); return sec; }
    if (mine.length) sec.append(h("div", { class: "drafts" }, mine.map((c) => draftCard(spec, c, true))));
    const body = markdown(f.text || "");
    sec.append(f.status === "unchanged" ? h("details", {}, h("summary", {}, "Show the file"), body) : body);
    return sec;
  }

  function linesView(spec, f, mine) {
    const lines = splitText(f.text);
    const here = sel && sel.spec === spec.name && sel.file === f.path ? sel : null;
    const lo = here ? Math.min(here.anchor, here.head) : 0, hi = here ? Math.max(here.anchor, here.head) : 0;
    const stop = here ? here.head : 1; // the one line number in the tab order
    const after = new Map();
    const at = (n, card) => { if (!after.has(n)) after.set(n, []); after.get(n).push(card); };
    for (const c of mine) at(Math.min(c.end_line || c.line, Math.max(lines.length, 1)), draftCard(spec, c, false));
    for (const c of (spec.comments || []).filter((c) => c.file === f.path && c.open)) at(c.now + (c.end_line || c.line) - c.line, sentCard(c, true));
    const box = h("div", { class: "lines", role: "group", "aria-label": "Lines of " + f.path + ": the arrow keys move between lines, Shift with an arrow selects a range, Enter comments" });
    lines.forEach((text, i) => {
      const n = i + 1;
      box.append(h("div", { class: "line" + (n >= lo && n <= hi ? " sel" : ""), "data-line": String(n) },
        h("button", { type: "button", class: "ln", tabindex: n === stop ? "0" : "-1", "aria-label": "Comment on line " + n, "data-key": lineKey(f.path, n) }, String(n)),
        h("span", { class: "lt" }, text === "" ? "\u00a0" : text)));
      if (after.has(n)) box.append(...after.get(n));
    });
    const count = lines.length;
    const buttonAt = (n) => box.querySelector('[data-line="' + n + '"] .ln');
    const select = (anchor, head) => {
      sel = { spec: spec.name, file: f.path, anchor: anchor, head: head };
      const a = Math.min(anchor, head), b = Math.max(anchor, head);
      box.querySelectorAll(".line").forEach((row) => { const n = +row.dataset.line; row.classList.toggle("sel", n >= a && n <= b); });
      box.querySelectorAll(".ln").forEach((btn) => btn.setAttribute("tabindex", "-1"));
      const btn = buttonAt(head);
      btn.setAttribute("tabindex", "0");
      btn.focus();
    };
    box.addEventListener("keydown", (ev) => {
      const btn = ev.target.closest && ev.target.closest(".ln");
      if (!btn) return;
      const n = +btn.parentElement.dataset.line;
      const cur = sel && sel.spec === spec.name && sel.file === f.path ? sel : { anchor: n, head: n };
      const move = { ArrowDown: 1, ArrowUp: -1, PageDown: 20, PageUp: -20 }[ev.key];
      if (move || ev.key === "Home" || ev.key === "End") {
        ev.preventDefault();
        const to = ev.key === "Home" ? 1 : ev.key === "End" ? count : Math.max(1, Math.min(count, n + move));
        select(ev.shiftKey ? cur.anchor : to, to);
      } else if (ev.key === "c" || ev.key === "C") {
        ev.preventDefault();
        btn.click();
      } else if (ev.key === "Escape") {
        select(n, n);
      }
    });
    box.addEventListener("click", (ev) => {
      const btn = ev.target.closest && ev.target.closest(".ln");
      if (!btn) return;
      const n = +btn.parentElement.dataset.line;
      const cur = sel && sel.spec === spec.name && sel.file === f.path ? sel : null;
      // Shift-click extends the selection; a key (Enter, C) comments on the
      // range the arrows selected; a plain click on one line.
      let a = n, b = n;
      if (cur && (ev.shiftKey || (ev.detail === 0 && cur.head === n))) { a = Math.min(cur.anchor, n); b = Math.max(cur.anchor, n); }
      newComment(spec, f, lines, a, b);
    });
    return box;
  }

  function newComment(spec, f, lines, a, b) {
    const d = drafts.get(spec.name);
    if (!d) return;
    const c = { id: Date.now().toString(36) + Math.random().toString(36).slice(2, 8), file: f.path, line: a, end_line: b, quote: lines.slice(a - 1, b).join("\n"), comment: "" };
    d.comments.push(c);
    sel = { spec: spec.name, file: f.path, anchor: a, head: b };
    redraw("draft:" + c.id);
  }

  // --- Drafts: the decision's comment and the comments on lines, per spec.
  // They are kept on the server (they outlive a reload, a refusal, a
  // closed link, a restart and a new port) and in this browser (for while
  // the server is out of reach); the newer copy wins.
  const drafts = new Map();  // spec → {updated_at, comment, comments: [{id, file, line, end_line, quote, comment}]}
  const loadingDrafts = new Map();
  const unsent = new Set();  // specs whose newest draft the server has not got
  const draftPrefix = "agentos-review:draft:";
  function localDraft(spec) {
    try { const t = localStorage.getItem(draftPrefix + spec); return t ? JSON.parse(t) : null; } catch (e) { return null; }
  }
  function ensureDraft(spec) {
    if (drafts.has(spec)) return Promise.resolve();
    if (!loadingDrafts.has(spec)) loadingDrafts.set(spec, (async () => {
      let server = null, reached = false;
      try { server = (await api("drafts?spec=" + encodeURIComponent(spec))).draft; reached = true; } catch (e) { /* out of reach: the browser's copy */ }
      const local = localDraft(spec);
      let d = server;
      if (local && (!d || (local.updated_at || 0) > (d.updated_at || 0))) { d = local; if (reached) unsent.add(spec); }
      d = d || { updated_at: 0, comment: "", comments: [] };
      d.comments = d.comments || [];
      d.comment = d.comment || "";
      if (!drafts.has(spec)) drafts.set(spec, d);
      loadingDrafts.delete(spec);
      if (unsent.size) pushDrafts();
    })());
    return loadingDrafts.get(spec);
  }
  function draftBody(spec) {
    const d = drafts.get(spec);
    return { spec: spec, updated_at: d.updated_at, comment: d.comment, comments: d.comments.filter((c) => (c.comment || "").trim()).map((c) => ({ id: c.id, file: c.file, line: c.line, end_line: c.end_line, quote: c.quote, comment: c.comment })) };
  }
  let pushTimer = 0, pushing = Promise.resolve();
  function saveDraft(spec, quietly) {
    const d = drafts.get(spec);
    if (!d) return;
    if (!quietly) d.updated_at = Date.now();
    const body = draftBody(spec);
    try {
      if (body.comment.trim() || body.comments.length) localStorage.setItem(draftPrefix + spec, JSON.stringify(body));
      else localStorage.removeItem(draftPrefix + spec);
    } catch (e) { /* storage full or off: the server keeps it */ }
    unsent.add(spec);
    clearTimeout(pushTimer);
    pushTimer = setTimeout(pushDrafts, 400);
  }
  function pushDrafts() {
    pushing = pushing.then(async () => {
      for (const spec of Array.from(unsent)) {
        if (!drafts.has(spec)) { unsent.delete(spec); continue; }
        const body = draftBody(spec);
        try {
          await api("draft", body);
          if (drafts.get(spec).updated_at === body.updated_at) unsent.delete(spec);
        } catch (e) { return; /* kept in the browser; sent again once the server answers */ }
      }
    });
    return pushing;
  }
  function dropDrafts(spec) {
    drafts.set(spec, { updated_at: Date.now(), comment: "", comments: [] });
    unsent.delete(spec);
    try {
      for (const k of Object.keys(localStorage)) if (k === draftPrefix + spec || k.startsWith(draftPrefix + spec + ":")) localStorage.removeItem(k);
    } catch (e) { /* nothing kept */ }
  }

  // requestLabel says on the Request changes button how many comments on
  // lines go with it.
  function requestLabel(spec) {
    const d = drafts.get(spec.name);
    const n = d ? d.comments.filter((c) => (c.comment || "").trim()).length : 0;
    view.querySelectorAll('[data-key="request-changes"]').forEach((b) => { b.textContent = n ? "Request changes with " + n + (n === 1 ? " comment" : " comments") + " on lines" : "Request changes"; });
    view.querySelectorAll(".decision .pending-lines").forEach((p) => {
      p.hidden = !n;
      p.textContent = n ? n + (n === 1 ? " comment on lines waits" : " comments on lines wait") + " to be sent: " + (view.querySelector('[data-key="request-changes"]') ? "they go with Request changes; approving discards them." : "they go to an agent with a request for changes, from the page of the session that waits for this spec.") : "";
    });
  }

  // seenButton marks the version on screen as read, without deciding:
  // the next look compares each file with it.
  function seenButton(spec) {
    const b = h("button", { type: "button", "data-key": "mark-seen" }, "Mark this version as seen");
    b.addEventListener("click", () => act("seen", { spec: spec.name, shown: spec.binding }, [b]));
    return h("p", {}, b);
  }

  function approvalForm(target, spec) {
    const id = "comment-" + Math.random().toString(36).slice(2);
    const d = drafts.get(spec.name) || { comment: "", comments: [] };
    const ta = h("textarea", { id: id, name: "comment", "data-key": "decision-comment" });
    ta.value = d.comment || "";
    ta.addEventListener("input", () => { if (drafts.has(spec.name)) { drafts.get(spec.name).comment = ta.value; saveDraft(spec.name); } });
    const approve = h("button", { class: "primary", type: "button" }, "Approve this version");
    const reject = target.session ? h("button", { type: "button", "data-key": "request-changes" }, "Request changes") : null;
    const form = h("div", { class: "panel decision dbar", role: "group", "aria-label": "Your decision" },
      h("h3", {}, "Your decision"),
      h("p", { class: "explain" }, "Approving records the SHA-256 of every file shown above; if any changes before you approve, nothing is approved and the new version is shown."),
      h("label", { for: id }, target.session ? "Comment (a note with an approval; to request changes, this or comments on lines)" : "Note (optional)"), ta,
      h("p", { class: "pending-lines muted", hidden: true }),
      h("div", { class: "actions" }, approve, reject), h("p", { class: "why-off", hidden: true }));
    // Only this spec's drafts are emptied once its decision went through:
    // the person may have moved on, and typed elsewhere, while it was sent.
    const done = () => { dropDrafts(spec.name); ta.value = ""; };
    approve.addEventListener("click", () => act("approve", Object.assign({ shown: spec.binding, comment: ta.value }, target), [approve, reject], done));
    if (reject) reject.addEventListener("click", () => act("request-changes", { session: target.session, shown: spec.binding, comment: ta.value, comments: drafts.has(spec.name) ? draftBody(spec.name).comments : [] }, [approve, reject], done));
    return form;
  }

  // act sends one decision. What the person typed stays (on the page and
  // in their drafts) unless the decision went through: a refusal, a
  // stopped server or a closed link loses nothing, and leaves the view as
  // it was.
  async function act(action, body, buttons, done) {
    buttons.forEach((b) => b && (b.disabled = true));
    let sent = false;
    // The drafts reach the server first: one still on its way must not
    // land after the decision emptied them.
    clearTimeout(pushTimer);
    await pushDrafts();
    try {
      const res = await api(action, body);
      sent = true;
      if (done) done();
      say(res.message, true);
    } catch (e) {
      if (e.status === 401) { buttons.forEach((b) => b && (b.disabled = false)); return expired(); }
      if (e.status === 0) {
        buttons.forEach((b) => b && (b.disabled = false));
        setOffline(unreachable);
        return;
      }
      say(e.message);
    }
    buttons.forEach((b) => b && (b.disabled = false));
    await refresh(true);
    await route(true);
    if (sent || !notice.hidden) notice.focus();
  }

  function sessionView(v) {
    const s = v.session;
    const row = (state.sessions || []).find((r) => r.id === s.id);
    const wrap = h("section", { "aria-labelledby": "h-session" },
      h("p", {}, h("a", { href: "#/sessions" }, "← All sessions")),
      h("h2", { id: "h-session" }, row ? row.name : s.id, " ", h("span", { class: "muted sub-id" }, "session ", h("code", {}, s.id))),
      h("dl", { class: "kv" },
        row ? [h("dt", {}, "State"), h("dd", {}, badge(row.state, stateClass(row.state)), row.asked ? h("div", {}, row.asked) : null)] : null,
        h("dt", {}, "Workflow"), h("dd", {}, s.workflow + " " + s.version),
        h("dt", {}, "Owner"), h("dd", {}, s.owner.session ? h("span", { title: s.owner.client + " (" + s.owner.session + ")" }, s.owner.client) : s.owner.client),
        h("dt", {}, "Status"), h("dd", {}, s.status),
        h("dt", {}, "Phase"), h("dd", {}, s.current_phase <= s.phases.length ? s.current_phase + "/" + s.phases.length + " " + s.phases[s.current_phase - 1].name : "complete"),
        s.vars && s.vars.spec_dir ? [h("dt", {}, "Spec"), h("dd", {}, h("a", { href: "#/spec/" + encodeURIComponent(s.vars.spec_dir.split("/").pop()) }, s.vars.spec_dir))] : null,
        s.change_request ? [h("dt", {}, "Changes requested"), h("dd", {}, [s.change_request.reason, (s.change_request.comments || []).length ? s.change_request.comments.length + " comments on lines" : ""].filter(Boolean).join("; ") + " — " + s.change_request.by + ", " + when(s.change_request.at))] : null,
        v.approval ? [h("dt", {}, "Approval"), h("dd", {}, v.approval.by + " via " + (v.approval.via || "terminal") + ", " + when(v.approval.at) + (v.approval_void ? " — " + v.approval_void : ""))] : null));
    if (v.integrity) {
      const accept = h("button", { type: "button", class: "primary" }, "Accept it as it is");
      const reset = h("button", { type: "button" }, "Reset it to phase 1");
      accept.addEventListener("click", () => act("accept", { session: s.id }, [accept, reset]));
      // Reset loses the session's progress: it asks first, saying what changes.
      const sure = h("div", { class: "confirm", role: "group", "aria-label": "Confirm the reset", hidden: true },
        h("p", {}, "Reset " + (row ? row.name : s.id) + " to phase 1? Its progress (phase " + Math.min(s.current_phase, s.phases.length) + " of " + s.phases.length + ", its tasks ticked and gates passed) is discarded and the agent starts over; its audit log is kept."));
      const yes = h("button", { type: "button", class: "danger", "data-key": "reset-yes" }, "Yes, reset to phase 1");
      const no = h("button", { type: "button", "data-key": "reset-no" }, "Cancel");
      sure.append(h("div", { class: "actions" }, yes, no));
      reset.addEventListener("click", () => { sure.hidden = false; no.focus(); });
      no.addEventListener("click", () => { sure.hidden = true; reset.focus(); });
      yes.addEventListener("click", () => act("reset", { session: s.id }, [accept, reset, yes, no]));
      wrap.append(h("div", { class: "panel decision", role: "group", "aria-label": "Changed outside agentos" }, h("h3", {}, "Changed outside agentos"),
        h("p", {}, v.integrity.verdict + ": " + v.integrity.detail), h("div", { class: "actions" }, accept, reset), sure, h("p", { class: "why-off", hidden: true })));
    }
    if (v.rules) {
      const confirm = h("button", { type: "button", class: "primary" }, "Confirm the new rules");
      confirm.addEventListener("click", () => act("confirm-rules", { session: s.id, shown: v.rules.binding }, [confirm]));
      const harness = (v.rules.harness || []).map((f) => h("section", { "aria-label": f.path }, h("h4", {}, "Test harness: " + f.path + " ", badge(f.status, "warn")),
        f.note ? h("p", { class: "muted" }, f.note) : null, f.diff && f.diff.length ? diff(f.diff) : null));
      wrap.append(h("div", { class: "panel decision", role: "group", "aria-label": "Rules changed" }, h("h3", {}, "The rules changed under this session"),
        h("ul", {}, v.rules.changes.map((c) => h("li", {}, c))), ...harness, h("div", { class: "actions" }, confirm), h("p", { class: "why-off", hidden: true })));
    }
    const cols = h("div", { class: "cols" });
    const left = h("div", {});
    if (v.pending) {
      const approved = v.approval && !v.approval_void;
      left.append(h("h3", {}, (approved ? "Spec you approved (the agent completes the phase next): " : "Spec awaiting your approval: ") + v.pending.dir),
        ...specBody(v.pending), approvalForm({ session: s.id }, v.pending));
    }
    left.append(h("h3", {}, "Phases"), h("ol", {}, s.phases.map((p) => h("li", {}, p.name + " ", badge(p.status, p.status === "done" ? "ok" : p.status === "active" ? "warn" : "muted"),
      p.tasks && p.tasks.length ? h("ul", {}, p.tasks.map((t) => h("li", {}, (t.status === "done" ? "☑ " : "☐ ") + t.id + " " + t.title))) : null))));
    left.append(h("h3", {}, "Gate evidence"), ...gatesView(s, v.criteria || {}));
    const right = h("div", {}, h("h3", {}, "History"),
      stackTable("history", ["When", "Who", "What", "Result"], v.audit.slice().reverse().map((a) => [ago(a.at), who(a.actor), a.action + (a.to_phase ? " → " + a.to_phase : ""), [a.result, a.detail].filter(Boolean).join(": ")])));
    cols.append(left, right);
    wrap.append(cols);
    return wrap;
  }

  // sourceView is a test file a gate's proof names, its test's line marked.
  function sourceView(src, line) {
    const lines = splitText(src.text);
    const box = h("div", { class: "lines source" });
    lines.forEach((text, i) => {
      const n = i + 1;
      box.append(h("div", n === line ? { class: "line sel", id: "src-line", tabindex: "-1", "aria-label": "Line " + n + ", the test's line" } : { class: "line" },
        h("span", { class: "ln", "aria-hidden": "true" }, String(n)), h("span", { class: "lt" }, text === "" ? "\u00a0" : text)));
    });
    return h("section", { "aria-labelledby": "h-source" },
      h("p", {}, h("a", { href: "#/session/" + encodeURIComponent(src.session) }, "← Back to the session's gate evidence")),
      h("h2", { id: "h-source" }, "Test source: " + src.file + (line ? ", line " + line : "")),
      h("p", { class: "muted" }, "As the file is now in the project; the gate read it when it ran."), box);
  }

  // --- A finished spec: whether its criteria still hold on the code as it
  // is (its traced tests run on request), what broke or touched them, and
  // its dated history.
  const livingClass = { holding: "ok", drifted: "bad", touched: "warn", unchecked: "muted", unverified: "bad" };
  const livingWords = {
    holding: "Every test that proves a criterion passes as written, and no change since reaches them",
    drifted: "A test that proves a criterion fails now, was deleted, or was changed",
    touched: "Its tests pass, but a change since it finished reaches the code they test",
    unchecked: "Held when it finished; not checked since",
    unverified: "Its evidence does not match agentos's signature",
  };
  function livingView(spec) {
    const l = spec.living;
    if (!l) return null;
    const st = l.state;
    const check = h("button", { type: "button", "data-key": "check-spec" }, "Check it now");
    check.addEventListener("click", () => act("check-spec", { spec: spec.name }, [check]));
    const testItem = (t) => h("li", {}, h("code", {}, t.test), " ", badge(t.state, t.state === "passed" ? "ok" : t.state === "skipped" ? "warn" : "bad"),
      t.failure ? h("code", { class: "line bad" }, t.failure) : null,
      t.touched && t.touched.length ? h("ul", {}, t.touched.map((x) => h("li", {}, "changed " + (x.symbol ? x.symbol + " in " : "") + x.file + (x.lines ? " lines " + x.lines : "") + " — " + x.change))) : null);
    return h("section", { class: "panel decision living", role: "group", "aria-label": "The finished spec" },
      h("h3", {}, "Finished spec: ", badge(st.state, livingClass[st.state] || "muted")),
      h("p", {}, livingWords[st.state] || "", "."),
      h("dl", { class: "kv" },
        h("dt", {}, "Finished"), h("dd", {}, when(st.completed_at), st.session ? [" by session ", h("a", { href: "#/session/" + encodeURIComponent(st.session) }, st.session)] : null),
        st.commit ? [h("dt", {}, "On commit"), h("dd", {}, h("code", { title: st.commit }, st.commit.slice(0, 12)))] : null,
        h("dt", {}, "Last checked"), h("dd", {}, st.checked_at ? ago(st.checked_at) : "not since it finished")),
      st.note ? h("p", { class: "muted" }, st.note) : null,
      st.criteria && st.criteria.length ? h("ul", { class: "refs" }, st.criteria.map((c) => h("li", {},
        h("code", {}, c.id), " ", c.text, " ", badge(c.state, livingClass[c.state] || (c.state === "holding" ? "ok" : "bad")),
        h("ul", {}, (c.tests || []).map(testItem))))) : null,
      st.state === "drifted" ? h("p", {}, "To repair it, have an agent converge it (svc_workflow converge_spec), or run ", h("code", {}, "agentos specs converge " + spec.name), ": a session whose tasks are the broken criteria.") : null,
      h("div", { class: "actions" }, check), h("p", { class: "why-off", hidden: true }),
      h("h4", {}, "History of the finished spec"),
      l.history.length ? h("ul", { class: "decisions" }, l.history.slice().reverse().map((e) => h("li", {}, h("strong", {}, e.what), ", ", ago(e.at),
        e.session ? [" — session ", h("a", { href: "#/session/" + encodeURIComponent(e.session) }, e.session)] : null,
        e.commit ? [", commit ", h("code", { title: e.commit }, e.commit.slice(0, 12))] : null,
        e.detail && e.detail.length ? h("ul", {}, e.detail.map((d) => h("li", {}, d))) : null))) : h("p", { class: "muted" }, "No history recorded."));
  }

  function specView(spec) {
    return h("section", { "aria-labelledby": "h-spec" },
      h("p", {}, h("a", { href: "#/specs" }, "← All specs")),
      h("h2", { id: "h-spec" }, "Spec " + spec.name),
      livingView(spec),
      spec.waiting ? h("p", { class: "panel" }, "Session ", h("a", { href: "#/session/" + encodeURIComponent(spec.waiting) }, spec.waiting), " waits for this spec's approval: a decision here is given in that session, the same as on its page.") : null,
      ...specBody(spec), approvalForm(spec.waiting ? { session: spec.waiting } : { spec: spec.name }, spec));
  }

  // --- Keeping the person's place across a redraw: the focused element,
  // the open sections, what they typed and the scroll position are found
  // again in the new view by a key (data-key, an id, or the element's own
  // text within its labelled section).
  function placeKey(el) {
    if (!el || el === document.body) return "";
    if (el.dataset && el.dataset.key) return "k:" + el.dataset.key;
    if (el.id && !/^comment-/.test(el.id)) return "#" + el.id;
    const sec = el.parentElement && el.parentElement.closest("[aria-label], [aria-labelledby]");
    const where = sec ? sec.getAttribute("aria-label") || sec.getAttribute("aria-labelledby") : "";
    const own = el.tagName === "DETAILS" ? (el.querySelector("summary") || el).textContent : el.tagName === "TEXTAREA" ? el.name : el.textContent;
    return el.tagName + "|" + where + "|" + String(own).trim().slice(0, 80);
  }

  function capturePlace() {
    const active = document.activeElement;
    const place = { focus: view.contains(active) ? placeKey(active) : "", open: new Set(), typed: new Map(), x: window.scrollX, y: window.scrollY };
    if (active && active.tagName === "TEXTAREA") place.sel = [active.selectionStart, active.selectionEnd];
    view.querySelectorAll("details[open]").forEach((d) => place.open.add(placeKey(d)));
    view.querySelectorAll("textarea").forEach((ta) => { if (ta.value) place.typed.set(placeKey(ta), ta.value); });
    return place;
  }

  function restorePlace(place) {
    if (place.open.size) view.querySelectorAll("details").forEach((d) => { if (place.open.has(placeKey(d))) d.open = true; });
    if (place.typed.size) view.querySelectorAll("textarea").forEach((ta) => { const v = place.typed.get(placeKey(ta)); if (v && !ta.value) ta.value = v; });
    window.scrollTo(place.x, place.y);
    if (!place.focus) return;
    const tag = place.focus.startsWith("#") || place.focus.startsWith("k:") ? "*" : place.focus.split("|")[0];
    for (const el of view.querySelectorAll(tag === "*" ? "[data-key], [id]" : tag)) {
      if (placeKey(el) === place.focus) {
        el.focus({ preventScroll: true });
        if (place.sel && el.setSelectionRange) el.setSelectionRange(place.sel[0], place.sel[1]);
        return;
      }
    }
  }

  // --- Routing and polling.
  let routing = 0;
  // navigating is true from a navigation's start until a view is drawn for
  // it: a live refresh that overtakes a navigation still loading finishes it
  // (moves the focus as the navigation would), or the focus is left on the
  // page's body.
  let navigating = false;
  async function route(keepFocus) {
    const [, tab = "sessions", arg, sub] = location.hash.split("/");
    const which = ++routing;
    if (!keepFocus) navigating = true;
    else if (navigating) keepFocus = false;
    document.querySelectorAll("#tabs a").forEach((a) => {
      const on = a.dataset.tab === tab || (tab === "session" && a.dataset.tab === "sessions") || (tab === "spec" && a.dataset.tab === "specs");
      if (on) a.setAttribute("aria-current", "page"); else a.removeAttribute("aria-current");
    });
    if (!state) return;
    let node;
    const line = +(location.hash.split("/")[4] || 0);
    try {
      const path = detailPath(tab, arg);
      if (tab === "source") {
        const text = await apiText("source?session=" + arg + "&file=" + sub);
        if (which !== routing) return;
        detail = { path: "", text: "", spec: "" };
        node = sourceView(JSON.parse(text), line);
      } else if (path) {
        if (tab === "spec") ensureDraft(decodeURIComponent(arg || "")); // meanwhile
        const text = await apiText(path);
        if (which !== routing) return;
        const obj = JSON.parse(text);
        const spec = tab === "spec" ? obj : obj.pending;
        if (spec) {
          await ensureDraft(spec.name);
          if (which !== routing) return;
          anchorDrafts(spec);
        }
        detail = { path: path, text: text, spec: spec ? spec.name : "" };
        node = (tab === "session" ? sessionView : specView)(obj);
      } else node = ({ specs: specsView, agents: agentsView, indexes: indexesView, standards: standardsView }[tab] || sessionsView)();
    } catch (e) {
      if (e.status === 401) return expired();
      if (e.status === 0 && view.childElementCount) return setOffline(unreachable); // keep what is on screen
      // A live refresh of the view on screen that fails (the session
      // busy for a moment) keeps the view, the focus and what the person
      // is typing; the status line says so and the next refresh tries again.
      if (keepFocus && detail.path && detail.path === detailPath(tab, arg)) {
        live.textContent = "Live · this view could not be refreshed: " + e.message;
        return;
      }
      detail = { path: "", text: "", spec: "" };
      node = h("p", { class: "bad" }, e.message);
    }
    if (which !== routing) return; // a newer navigation won
    if (!keepFocus) navigating = false;
    const place = keepFocus ? capturePlace() : null;
    view.replaceChildren(node);
    if (place) restorePlace(place);
    applyOffline();
    if (detail.spec) requestLabel({ name: detail.spec });
    // Marks the first view drawn, for the first-render benchmark.
    if (!performance.getEntriesByName("review-rendered").length) performance.mark("review-rendered");
    document.title = "agentos review — " + (arg ? decodeURIComponent(arg) : tab);
    if (keepFocus) return;
    // A link from the inbox lands on the decision itself; one to a test,
    // on its line.
    const decision = sub === "decide" && view.querySelector(".decision h3");
    const target = tab === "source" && document.getElementById("src-line");
    if (target) {
      target.scrollIntoView({ block: "center" });
      target.focus({ preventScroll: true });
    } else if (decision) {
      decision.setAttribute("tabindex", "-1");
      decision.scrollIntoView({ block: "start" });
      decision.focus();
    } else document.getElementById("main").focus();
  }

  // The detail on screen (a session or a spec) and the JSON it was drawn
  // from: the refresh redraws it only when that changed.
  let detail = { path: "", text: "", spec: "" };

  // redraw draws the detail on screen again from what it was drawn from
  // (after the person changed a draft or a view), keeping their place, or
  // focusing the element keyed focusKey.
  function redraw(focusKey) {
    if (!detail.text) return;
    const [, tab] = location.hash.split("/");
    const obj = JSON.parse(detail.text);
    const spec = tab === "spec" ? obj : obj.pending;
    if (spec) anchorDrafts(spec);
    const place = capturePlace();
    view.replaceChildren((tab === "session" ? sessionView : specView)(obj));
    restorePlace(place);
    applyOffline();
    if (spec) requestLabel(spec);
    const el = focusKey && view.querySelector('[data-key="' + CSS.escape(focusKey) + '"]');
    if (el) el.focus();
  }
  function detailPath(tab, arg) {
    const name = decodeURIComponent(arg || "");
    if (tab === "session") return "session?id=" + encodeURIComponent(name);
    if (tab === "spec") return "spec?name=" + encodeURIComponent(name);
    return "";
  }

  async function apiText(path) {
    let res;
    try {
      res = await fetch("/review/api/" + path, { headers: { "X-Review-Token": token }, cache: "no-store", credentials: "omit" });
    } catch (e) {
      const err = new Error("the server is unreachable");
      err.status = 0;
      throw err;
    }
    const text = await res.text();
    if (!res.ok) {
      let msg = "the server answered " + res.status;
      try { msg = JSON.parse(text).error || msg; } catch (e) { /* not JSON */ }
      const err = new Error(msg);
      err.status = res.status;
      throw err;
    }
    return text;
  }

  // Offline: the server is unreachable or the link closed. The view stays
  // as it was, a banner says why, and every decision is disabled with the
  // reason next to it.
  const unreachable = "The agentos server is unreachable: nothing can be approved or sent now. What you typed is kept in this browser. Start the server (your agent starts it, or `agentos serve --transport dual`); this page reconnects on its own.";
  const closed = "This review link is closed: the `agentos review` command that opened it ended, or 12 hours passed. Nothing can be approved from this page; what you typed is kept in this browser. Run `agentos review` again and open its link.";
  let offline = "";
  const banner = document.getElementById("offline");
  function setOffline(why) {
    if (why === offline) return;
    offline = why;
    banner.hidden = !why;
    banner.textContent = why;
    live.textContent = why === closed ? "Link closed" : why ? "Server unreachable" : "Live";
    announce(why ? "" : "Connected to the agentos server again.");
    applyOffline();
  }
  function applyOffline() {
    view.querySelectorAll(".decision button").forEach((b) => { b.disabled = !!offline; });
    view.querySelectorAll(".decision .why-off").forEach((p) => { p.hidden = !offline; p.textContent = offline; });
  }

  // announce speaks to a screen reader only when something changed for the
  // person: the clock in the status line is not read every two seconds.
  const announcer = document.getElementById("announce");
  function announce(msg) {
    if (msg && announcer.textContent !== msg) announcer.textContent = msg;
  }

  function expired() {
    clearInterval(timer);
    setOffline(closed);
  }

  let waiting = -1;
  // One refresh at a time. A poll that comes while one still waits for the
  // server (a busy machine) is dropped, the next comes in 2 s; stacked, their
  // answers came back out of order, and a later one drew over what an
  // earlier one had found. A refresh asked for after a decision waits for
  // the one in flight and then runs.
  let refreshing = null;
  function refresh(quiet) {
    if (!refreshing) {
      refreshing = refreshOnce(quiet).finally(() => { refreshing = null; });
      return refreshing;
    }
    return quiet ? refreshing.then(() => refresh(true)) : refreshing;
  }
  async function refreshOnce(quiet) {
    let text;
    try {
      text = await apiText("state");
    } catch (e) {
      if (e.status === 401) return expired();
      if (e.status === 0) setOffline(unreachable);
      return;
    }
    if (offline === unreachable) setOffline("");
    if (unsent.size) pushDrafts();
    live.textContent = "Live · updated " + new Date().toLocaleTimeString();
    tick();
    const changed = text !== stateText;
    const first = state === null;
    if (changed) {
      stateText = text;
      state = JSON.parse(text);
      const n = (state.inbox || []).length;
      if (n !== waiting) {
        announce(n === 0 ? "Nothing waits for you." : n === 1 ? "1 item waits for you." : n + " items wait for you.");
        waiting = n;
      }
      document.getElementById("project").textContent = state.project;
      document.getElementById("count-sessions").textContent = "(" + n + " waiting)";
      document.getElementById("count-specs").textContent = "(" + state.specs.length + ")";
      document.getElementById("count-agents").textContent = "(" + (state.agents || []).length + ")";
      document.getElementById("count-standards").textContent = "(" + state.standards.length + ")";
    }
    if (quiet) return;
    if (first) return route(true);
    const [, tab, arg] = location.hash.split("/");
    const path = detailPath(tab, arg);
    if (path && path === detail.path) {
      // A session or a spec is redrawn when it changed (a spec's files
      // change without the session's state changing).
      let now;
      try {
        now = await apiText(path);
      } catch (e) {
        if (e.status === 401) return expired();
        if (e.status === 0) return setOffline(unreachable);
        // As when the redraw's own request fails (route): the view stays.
        live.textContent = "Live · this view could not be refreshed: " + e.message;
        return;
      }
      if (now !== detail.text || changed) return route(true);
    } else if (changed) return route(true);
  }

  // Going elsewhere, the view says so at once: what was on screen is not
  // left to be typed in or clicked while the next one loads.
  window.addEventListener("hashchange", () => {
    say("");
    const [, tab, arg] = location.hash.split("/");
    const path = tab === "source" ? "source" : detailPath(tab, arg);
    if (path && path !== detail.path) {
      detail = { path: "", text: "", spec: "" };
      view.replaceChildren(h("p", { class: "muted", role: "status" }, "Loading…"));
    }
    route(false);
  });
  const timer = setInterval(() => refresh(false), 2000);
  refresh(false);
})();
