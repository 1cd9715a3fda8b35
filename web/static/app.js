// The referee's page: live refresh over SSE and the control buttons.
// Every fragment is rendered (and escaped) by the server; this script only
// swaps fragments in, and writes messages with textContent.
"use strict";

const body = document.body;
const view = body.dataset.view || "table";

function say(text, bad) {
  const el = document.getElementById("status");
  if (!el) return;
  el.textContent = text;
  el.className = "status" + (bad ? " bad" : " good");
}

async function refresh(selector) {
  const parts = document.querySelectorAll(selector || "[data-partial]");
  if (!parts.length) return;
  const names = Array.from(parts, (el) => el.dataset.partial).join(",");
  let html;
  try {
    const resp = await fetch(`/partials?view=${encodeURIComponent(view)}&names=${names}`,
                             {credentials: "same-origin"});
    if (!resp.ok) return;
    html = await resp.json();  // server-rendered and escaped fragments
  } catch (err) { return; }  // the next message retries
  for (const el of parts) {
    const name = el.dataset.partial;
    if (!(name in html)) continue;
    if (name === "events" && el.contains(document.activeElement) &&
        document.activeElement.tagName === "INPUT") continue;  // do not eat an edit
    el.innerHTML = html[name];
  }
  body.dispatchEvent(new CustomEvent("refreshed"));
}

let pending = null;
function soon() {
  if (pending) return;
  pending = setTimeout(() => { pending = null; refresh(); }, 80);
}

function listen() {
  if (body.dataset.live !== "1" || !window.EventSource) return;
  const source = new EventSource(`/api/stream?last=${encodeURIComponent(body.dataset.seq || 0)}`);
  for (const kind of ["ruling", "change", "pause", "event"]) {
    source.addEventListener(kind, (msg) => {
      body.dataset.seq = msg.lastEventId;
      soon();
    });
  }
  for (const kind of ["game", "reset"]) {
    source.addEventListener(kind, () => location.reload());
  }
}

async function send(url, method, payload, then) {
  let resp;
  try {
    resp = await fetch(url, {
      method: method, credentials: "same-origin",
      headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: JSON.stringify(payload),
    });
  } catch (err) {
    say(String(err), true);
    return null;
  }
  let data = {};
  try { data = await resp.json(); } catch (err) { data = {}; }
  if (!resp.ok) {
    say(`${resp.status}: ${data.message || resp.statusText}`, true);
    return null;
  }
  if (data.rulings && data.rulings.length) {
    say(data.rulings.map((r) => r.text).join(" "), false);
  } else if (data.action) {
    say(`${data.action} ${data.line}: -${data.removed.length} +${data.added.length}`, false);
  } else {
    say("OK", false);
  }
  if (then) location.href = then; else soon();
  return data;
}

function formEvent(form) {
  const event = {type: form.dataset.type};
  for (const el of form.elements) {
    if (!el.name || el.disabled) continue;
    if ((el.type === "radio" || el.type === "checkbox") && !el.checked) continue;
    const value = el.value.trim();
    if (value === "") continue;
    if (el.hasAttribute("data-list")) event[el.name] = value.split(/[\s,、]+/).filter(Boolean);
    else if (el.hasAttribute("data-int")) event[el.name] = parseInt(value, 10);
    else event[el.name] = value;
  }
  return event;
}

function setupHeader(form) {
  const f = form.elements;
  const chosen = f.rules.selectedOptions[0];
  let options = {};
  if (f.options.value.trim()) {
    options = JSON.parse(f.options.value);  // a bad JSON throws: reported by the caller
  }
  const scoring = form.querySelector("input[name=scoring]:checked");
  if (scoring && !("scoring" in options)) options.scoring = scoring.value;
  if (options.scoring === "japan" && !("rounds" in options)) options.rounds = parseInt(f.rounds.value, 10);
  if (options.scoring === "international" && !("target" in options)) options.target = parseInt(f.target.value, 10);
  const header = {
    game: chosen ? chosen.dataset.game : "uno",
    rules: chosen ? chosen.value : "official",
    players: f.players.value.split(/\n/).map((s) => s.trim()).filter(Boolean),
    hand_size: parseInt(f.hand_size.value, 10),
    options: options,
  };
  if (f.dealer.value.trim()) header.dealer = f.dealer.value.trim();
  if (f.camera.value.trim()) header.camera = f.camera.value.trim();
  if (f.calibration.value.trim()) header.calibration = f.calibration.value.trim();
  return header;
}

document.addEventListener("click", (ev) => {
  const btn = ev.target.closest("[data-post]");
  if (!btn) return;
  ev.preventDefault();
  let payload = {};
  try { payload = JSON.parse(btn.dataset.body || "{}"); } catch (err) { payload = {}; }
  send(btn.dataset.post, btn.dataset.method || "POST", payload, btn.dataset.then);
});

document.addEventListener("submit", (ev) => {
  const form = ev.target.closest("form[data-api]");
  if (!form) return;
  ev.preventDefault();
  const submitter = ev.submitter || {dataset: {}};
  const url = submitter.dataset.url || form.dataset.api;
  const method = submitter.dataset.method || form.dataset.method || "POST";
  let payload;
  try {
    if (form.hasAttribute("data-setup")) payload = setupHeader(form);
    else if (form.hasAttribute("data-json")) payload = method === "DELETE" ? {} : JSON.parse(form.elements.event.value);
    else payload = formEvent(form);
  } catch (err) {
    say(`JSON: ${err.message}`, true);
    return;
  }
  send(url, method, payload, form.hasAttribute("data-setup") ? "/" : null);
});

const video = document.getElementById("video");
if (video) {
  // No frame (yet), or the stream ended after a while without frames: ask again.
  const again = () => { video.src = `/video.mjpeg?t=${Date.now()}`; };
  video.addEventListener("error", () => { video.hidden = true; setTimeout(again, 5000); });
  video.addEventListener("load", () => { video.hidden = false; });
}
if (document.querySelector("[data-poll]")) {
  setInterval(() => refresh("[data-poll]"), 5000);  // camera status has no SSE message
}

listen();
