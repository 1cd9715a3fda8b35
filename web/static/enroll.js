// The deck enrollment wizard (/enroll): start, live prompt and counts, skip,
// take again, the sheet's pages, Enroll with its progress. Every string shown
// comes from the server in the viewer's language (web/enroll.py).
"use strict";

const root = document.getElementById("enroll");
const $ = (id) => document.getElementById(id);
const msgs = root ? JSON.parse(root.dataset.messages || "{}") : {};
let timer = null;
let lastSeq = -1;
let current = null;

function fmt(key, values) {
  return (msgs[key] || key).replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
}

function showError(text) {
  const el = $("enroll-error");
  el.textContent = text || "";
  el.hidden = !text;
}

async function post(path, body) {
  let resp;
  try {
    resp = await fetch(`/api/enroll/${path}`, {
      method: "POST",
      headers: {"Content-Type": "application/json"},
      body: JSON.stringify(body || {}),
      credentials: "same-origin",
    });
  } catch (err) {
    showError(String(err));
    return null;
  }
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) {
    showError(data.text || data.message || `${resp.status}`);
    return null;
  }
  showError("");
  render(data);
  return data;
}

function cardButton(list, label) {
  // the button of ``label``, made once: a button replaced while a finger is
  // down on it loses the tap (the click goes to neither), and the page asks
  // for the state every 400 ms
  let button = list.querySelector(`button.enroll-card[data-label="${CSS.escape(label)}"]`);
  if (!button) {
    const li = document.createElement("li");
    button = document.createElement("button");
    button.type = "button";
    button.dataset.label = label;
    li.append(button);
    list.append(li);
  }
  return button;
}

function setText(parent, cls, text) {
  // the span of class ``cls`` in ``parent`` says ``text`` (none: no span)
  let span = parent.querySelector(`span.${cls}`);
  if (text === null) {
    if (span) span.remove();
    return;
  }
  if (!span) {
    span = document.createElement("span");
    span.className = cls;
    parent.append(span);
  }
  if (span.textContent !== text) span.textContent = text;
}

function renderCards(w) {
  const list = $("cards");
  const shown = w.mode === "sheet" && w.target.length ? new Set(w.target) : null;
  const labels = w.cards.map((c) => c.label);
  const have = [...list.querySelectorAll("button.enroll-card")].map((b) => b.dataset.label);
  if (have.join("\n") !== labels.join("\n")) list.replaceChildren();  // another deck
  for (const c of w.cards) {
    const button = cardButton(list, c.label);
    const cls = `enroll-card ${c.status}` + (w.target.includes(c.label) ? " now" : "");
    if (button.className !== cls) button.className = cls;
    button.parentElement.classList.toggle("other-page", Boolean(shown && !shown.has(c.label)));
    button.dataset.status = c.status;
    setText(button, "name", c.name);
    setText(button, "state", msgs[c.status] || c.status);
    setText(button, "read", c.status === "unsure" && c.read_name ? `≈ ${c.read_name}` : null);
    button.title = msgs.redo;
  }
}

function renderLayout(w) {
  // the sheet page to lay out now, in the sheet's rows (the skipped cards left out)
  const layout = $("layout");
  layout.hidden = w.mode !== "sheet" || !w.target.length;
  const names = new Map(w.cards.map((c) => [c.label, c]));
  layout.replaceChildren(...w.target.map((label) => {
    const li = document.createElement("li");
    li.textContent = names.get(label).name;
    li.className = names.get(label).status;
    li.dataset.label = label;
    return li;
  }));
}

function renderPages(w) {
  const pick = $("page-pick");
  pick.hidden = w.mode !== "sheet";
  const sel = $("page");
  if (sel.options.length !== w.pages) {
    sel.replaceChildren();
    for (let i = 0; i < w.pages; i++) {
      const opt = document.createElement("option");
      opt.value = String(i);
      opt.textContent = fmt("page_n", {page: i + 1, pages: w.pages});
      sel.append(opt);
    }
  }
  sel.value = String(w.page);
}

function render(data) {
  current = data;
  const w = data.wizard;
  const job = data.job;
  $("wizard").hidden = !w;
  if (w) {
    $("prompt").textContent = w.text;
    $("prompt").dataset.key = w.say.key;
    $("prompt").dataset.state = w.state;
    $("news").textContent = w.news_text || "";
    $("news").dataset.key = w.news ? w.news.key : "";
    for (const k of ["captured", "missing", "unsure", "skipped"]) {
      $(`n-${k}`).textContent = String(w.counts[k]);
    }
    $("n-total").textContent = String(w.total);
    if (document.activeElement !== $("mode")) $("mode").value = w.mode;
    renderPages(w);
    renderLayout(w);
    renderCards(w);
    const taken = w.counts.captured + w.counts.unsure;
    const training = job && job.state === "training";
    $("train").disabled = taken === 0 || training;
    $("skip").disabled = !["running", "loading"].includes(w.state) || !w.target.length;
    $("stop").disabled = !["running", "loading"].includes(w.state);
    if (w.frame_seq !== lastSeq && w.frame_seq > 0) {
      lastSeq = w.frame_seq;
      const img = $("enroll-frame");
      img.src = `/enroll/frame.jpg?n=${w.frame_seq}`;
      img.hidden = false;
    }
  }
  const bar = $("job-progress");
  bar.hidden = !job;
  $("job-text").textContent = job ? job.text : "";
  $("job-text").dataset.state = job ? job.state : "";
  if (job) bar.value = job.fraction;
  const busy = (w && ["running", "loading"].includes(w.state)) || (job && job.state === "training");
  schedule(busy ? 400 : 0);
}

function schedule(ms) {
  clearTimeout(timer);
  timer = ms ? setTimeout(poll, ms) : null;
}

async function poll() {
  try {
    const resp = await fetch("/api/enroll", {credentials: "same-origin"});
    const data = await resp.json();
    if (!resp.ok) {
      showError(data.message || `${resp.status}`);
      schedule(2000);
      return;
    }
    render(data);
  } catch (err) {
    schedule(2000);
  }
}

if (root) {
  const form = $("enroll-start");
  const labels = form.querySelector("select[name=labels]");
  const sheetLink = $("sheet-link");
  const syncLink = () => {
    const deck = form.querySelector("input[name=deck]").value;
    sheetLink.href = `/enroll/sheet?labels=${encodeURIComponent(labels.value)}` +
      (deck ? `&deck=${encodeURIComponent(deck)}` : "");
  };
  labels.addEventListener("change", syncLink);
  form.querySelector("input[name=deck]").addEventListener("input", syncLink);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const fd = new FormData(form);
    lastSeq = -1;
    await post("start", {
      deck: fd.get("deck"), labels: fd.get("labels"),
      camera: fd.get("camera") || "0", mode: fd.get("mode") || "one",
    });
  });
  $("skip").addEventListener("click", () => post("skip", {}));
  $("stop").addEventListener("click", () => post("stop", {}));
  $("train").addEventListener("click", () => post("train", {}));
  $("mode").addEventListener("change", (ev) => post("mode", {mode: ev.target.value}));
  $("page").addEventListener("change", (ev) =>
    post("mode", {mode: "sheet", page: Number(ev.target.value)}));
  $("cards").addEventListener("click", (ev) => {
    const button = ev.target.closest("button.enroll-card");
    if (button) post("redo", {label: button.dataset.label});
  });
  poll();
}
