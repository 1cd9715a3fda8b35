// The referee's page: live refresh over SSE, the control forms, confirmations,
// the display's highlight and optional sound.
// Every fragment is rendered (and escaped) by the server; this script only
// swaps fragments in, and writes messages with textContent.
"use strict";

const body = document.body;
const view = body.dataset.view || "table";
let messages = {};
try { messages = JSON.parse(body.dataset.messages || "{}"); } catch (err) { messages = {}; }

function fmt(key, values) {
  let text = messages[key] || key;
  for (const [name, value] of Object.entries(values || {})) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

function say(text, bad, alert) {
  const el = document.getElementById("status");
  if (!el) return;
  el.textContent = text;
  el.className = "status" + (bad ? " bad" : " good") + (alert ? " alert" : "");
}

function shownIndex() {
  const box = document.getElementById("last-ruling");
  return box ? Number(box.dataset.index) : -1;
}

function sayRuling(said, since) {
  // What a recorded event was ruled, in the status bar too: on a phone the
  // form tapped may be far below the display, and the bar is by the thumb.
  const box = document.getElementById("last-ruling");
  if (!box || Number(box.dataset.index) <= since) return;
  const head = box.querySelector(".headline");
  const sentence = box.querySelector(".sentence");
  const ruling = [head ? head.textContent.trim() : "", sentence ? sentence.textContent.trim() : ""]
    .filter(Boolean).join(" — ");
  say(said, false, box.classList.contains("alert"));
  const el = document.getElementById("status");
  const more = document.createElement("span");
  more.className = "said-ruling";
  more.textContent = ` ${ruling}`;
  el.appendChild(more);
}

// -- sound and highlight of illegal and penalty rulings --------------------------
const SOUND_KEY = "tableref_sound";
let audio = null;
function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch (err) { return false; }
}
function showSound() {
  const btn = document.getElementById("sound-toggle");
  if (!btn) return;
  const on = soundOn();
  btn.setAttribute("aria-pressed", on ? "true" : "false");
  btn.textContent = on ? btn.dataset.on : btn.dataset.off;
}
function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.2;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
    body.dataset.beeps = String(Number(body.dataset.beeps || 0) + 1);
  } catch (err) { /* no audio on this device */ }
}
let lastSeen = null;  // the index of the last ruling shown on the display
function noticeRuling() {
  const box = document.getElementById("last-ruling");
  if (!box) return;
  const index = Number(box.dataset.index);
  if (lastSeen !== null && index > lastSeen && box.classList.contains("alert")) {
    box.classList.add("flash");
    if (soundOn()) beep();
  }
  lastSeen = index;
}

// -- fragments ------------------------------------------------------------------
function busy(el) {
  // true while the referee is typing or choosing in this fragment
  const active = document.activeElement;
  if (!active || !el.contains(active)) return false;
  if (!["INPUT", "SELECT", "TEXTAREA"].includes(active.tagName)) return false;
  const form = active.form;
  return !form || form.dataset.dirty === "1" || active.tagName === "INPUT";
}

function focusKey(el) {
  const active = document.activeElement;
  if (!active || !el.contains(active)) return null;
  const form = active.closest("form");
  return {
    form: form ? (form.dataset.type || form.dataset.api || "") : "",
    name: active.name || "",
    text: active.tagName === "BUTTON" ? active.textContent : "",
  };
}

function restoreFocus(el, key) {
  if (!key) return;
  for (const form of el.querySelectorAll("form")) {
    if ((form.dataset.type || form.dataset.api || "") !== key.form) continue;
    for (const item of form.elements) {
      if ((key.name && item.name === key.name) || (key.text && item.textContent === key.text)) {
        item.focus();
        return;
      }
    }
  }
  if (!key.form && key.text) {  // a button outside a form (Undo, an answer)
    for (const item of el.querySelectorAll("button")) {
      if (item.textContent === key.text) { item.focus(); return; }
    }
  }
}

async function refresh(selector, force) {
  const parts = document.querySelectorAll(selector || "[data-partial]");
  if (!parts.length) return;
  const names = Array.from(parts, (el) => el.dataset.partial).join(",");
  if (!selector) lastRefresh = performance.now();
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
    if (!force && busy(el)) continue;  // do not eat an entry being typed
    const key = focusKey(el);
    el.innerHTML = html[name];
    restoreFocus(el, key);
  }
  noticeRuling();
  body.dispatchEvent(new CustomEvent("refreshed"));
}

let pending = null;
let lastRefresh = 0;  // when the last refresh began (performance.now())
let sending = 0;  // requests of this page in flight: each refreshes when answered
let missed = false;  // a message came while sending
function soon() {
  // a message from the stream: refresh, unless one began after it arrived,
  // or this page's own request will refresh when it is answered (one refresh
  // a change: the machine may be small)
  if (sending) { missed = true; return; }
  if (pending) return;
  const asked = performance.now();
  pending = setTimeout(() => {
    pending = null;
    if (lastRefresh < asked) refresh();
  }, 10);  // the messages of one change arrive together
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

// -- sending ----------------------------------------------------------------------
function summary(data) {
  if (data.action === "undo") {
    return fmt(`st_undo_${data.undid || "append"}`, {line: data.line});
  }
  if (data.action) {
    const did = fmt(`st_${data.action}`, {line: data.line});
    return `${did} ${fmt("st_changes", {removed: data.removed.length, added: data.added.length})}`;
  }
  if (data.paused === true) return fmt("st_paused");
  if (data.paused === false) return fmt("st_resumed");
  if (data.line) return `${fmt("st_ok")} (${data.line})`;
  return fmt("st_ok");
}

async function send(url, method, payload, then) {
  sending += 1;
  missed = false;
  let data = null;
  try {
    data = await post(url, method, payload, then);
  } finally {
    sending -= 1;
  }
  // answered: the caller refreshes; not: what came meanwhile is shown now
  if (!data && missed && !sending) { missed = false; soon(); }
  return data;
}

async function post(url, method, payload, then) {
  let resp;
  try {
    resp = await fetch(url, {
      method: method, credentials: "same-origin",
      headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: method === "DELETE" ? undefined : JSON.stringify(payload),
    });
  } catch (err) {
    say(`${fmt("st_error")}: ${err}`, true);
    return null;
  }
  let data = {};
  try { data = await resp.json(); } catch (err) { data = {}; }
  if (!resp.ok) {
    say(`${fmt("st_error")} — ${resp.status}: ${data.message || resp.statusText}`, true);
    return null;
  }
  say(summary(data), false);
  if (then) location.href = then;
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

function fixCards(form, event) {
  // a logged line's cards, retyped in their own field (a misread card): no JSON to edit
  const fix = form.elements.fix_cards;
  if (!fix || fix.value.trim() === fix.defaultValue.trim()) return event;
  const words = fix.value.trim().split(/[\s,、]+/).filter(Boolean);
  if (fix.dataset.fix === "card") event.card = words[0] || "";
  else event.cards = words;
  return event;
}

// -- the setup page -----------------------------------------------------------------
function presetDefaults(form) {
  const chosen = form.elements.rules && form.elements.rules.selectedOptions[0];
  if (!chosen) return;
  let defaults = {};
  try { defaults = JSON.parse(chosen.dataset.defaults || "{}"); } catch (err) { defaults = {}; }
  const f = form.elements;
  const hand = form.querySelector(".needs-hand_size");
  if (hand) {
    hand.hidden = !("hand_size" in defaults);
    f.hand_size.disabled = hand.hidden;
    if ("hand_size" in defaults) f.hand_size.value = defaults.hand_size;
  }
  const scoring = form.querySelector(".needs-scoring");
  if (scoring) {
    scoring.hidden = !("scoring" in defaults);
    scoring.disabled = scoring.hidden;
    if ("scoring" in defaults) {
      for (const radio of form.querySelectorAll("input[name=scoring]")) {
        radio.checked = radio.value === defaults.scoring;
      }
      if ("rounds" in defaults) f.rounds.value = defaults.rounds;
      if ("target" in defaults) f.target.value = defaults.target;
    }
  }
}

function showOtherSource(form) {
  const choice = form.elements.camera_choice;
  const other = form.querySelector(".other-source");
  if (!choice || !other) return;
  other.hidden = choice.value !== "-other";
}

function setupHeader(form) {
  const f = form.elements;
  const chosen = f.rules.selectedOptions[0];
  let options = {};
  if (f.options.value.trim()) {
    options = JSON.parse(f.options.value);  // a bad JSON throws: reported by the caller
  }
  const scoring = form.querySelector("input[name=scoring]:checked");
  if (scoring && !scoring.disabled && !("scoring" in options)) options.scoring = scoring.value;
  if (options.scoring === "japan" && !("rounds" in options)) options.rounds = parseInt(f.rounds.value, 10);
  if (options.scoring === "international" && !("target" in options)) options.target = parseInt(f.target.value, 10);
  const header = {
    game: chosen ? chosen.dataset.game : "uno",
    rules: chosen ? chosen.value : "official",
    players: f.players.value.split(/\n/).map((s) => s.trim()).filter(Boolean),
    options: options,
  };
  if (!f.hand_size.disabled) header.hand_size = parseInt(f.hand_size.value, 10);
  if (f.dealer.value.trim()) header.dealer = f.dealer.value.trim();
  const choice = f.camera_choice ? f.camera_choice.value : "-other";
  const camera = choice === "-other" ? f.camera.value.trim() : choice;
  if (camera) header.camera = camera;
  if (f.calibration.value.trim()) header.calibration = f.calibration.value.trim();
  return header;
}

// -- confirmations --------------------------------------------------------------------
function confirmFirst(key, yes, values) {
  const dialog = document.getElementById("confirm");
  const text = fmt(key, values);
  if (!dialog || !dialog.showModal) return Promise.resolve(window.confirm(text));
  document.getElementById("confirm-text").textContent = text;
  document.getElementById("confirm-ok").textContent = fmt(yes);
  document.getElementById("confirm-cancel").textContent = fmt("cancel");
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), {once: true});
    dialog.showModal();
    document.getElementById("confirm-cancel").focus();
  });
}

// -- wiring -------------------------------------------------------------------------
document.addEventListener("click", async (ev) => {
  const toggle = ev.target.closest("#sound-toggle");
  if (toggle) {
    try { localStorage.setItem(SOUND_KEY, soundOn() ? "off" : "on"); } catch (err) { /* private mode */ }
    showSound();
    if (soundOn()) beep();  // a first sound, allowed after a click
    return;
  }
  const btn = ev.target.closest("[data-post]");
  if (!btn) return;
  ev.preventDefault();
  let payload = {};
  try { payload = JSON.parse(btn.dataset.body || "{}"); } catch (err) { payload = {}; }
  btn.disabled = true;
  const since = shownIndex();
  const done = await send(btn.dataset.post, btn.dataset.method || "POST", payload, btn.dataset.then);
  btn.disabled = false;
  if (!done) return;
  if (btn.dataset.said) say(btn.dataset.said, false);  // an answer to a question
  await refresh(null, true);
  if (done.line && !done.action && !btn.dataset.said) sayRuling(summary(done), since);
  if (btn.dataset.answer) {
    // the next open question's first answer, else Undo (it takes the answer back)
    const next = document.querySelector(".question .answer") || document.querySelector("button.undo");
    if (next) next.focus();
  }
});

for (const kind of ["input", "change"]) {
  document.addEventListener(kind, (ev) => {
    const form = ev.target.form;
    if (form) form.dataset.dirty = "1";
    if (form && form.hasAttribute("data-setup")) {
      if (ev.target.name === "rules") presetDefaults(form);
      if (ev.target.name === "camera_choice") showOtherSource(form);
    }
  });
}

document.addEventListener("submit", async (ev) => {
  const form = ev.target.closest("form[data-api]");
  if (!form) return;
  ev.preventDefault();
  const submitter = ev.submitter || {dataset: {}};
  const url = submitter.dataset.url || form.dataset.api;
  const method = submitter.dataset.method || form.dataset.method || "POST";
  const ask = submitter.dataset.confirm || form.dataset.confirm;
  if (ask) {
    const yes = submitter.dataset.confirmYes || form.dataset.confirmYes || "st_ok";
    const line = submitter.dataset.line || "";
    if (!(await confirmFirst(ask, yes, {line: line}))) return;
  }
  let payload;
  try {
    if (form.hasAttribute("data-setup")) payload = setupHeader(form);
    else if (form.hasAttribute("data-json")) payload = method === "DELETE" ? {} : fixCards(form, JSON.parse(form.elements.event.value));
    else payload = formEvent(form);
  } catch (err) {
    say(`${fmt("st_bad_json")} (JSON: ${err.message})`, true);
    return;
  }
  const buttons = Array.from(form.querySelectorAll("button"));
  for (const b of buttons) b.disabled = true;
  const since = shownIndex();
  const done = await send(url, method, payload, form.hasAttribute("data-setup") ? "/" : null);
  for (const b of buttons) b.disabled = false;
  if (!done) return;
  form.reset();  // Enter does not record the same event twice
  delete form.dataset.dirty;
  await refresh(null, true);  // the forms come back on the new sensible players
  if (done.line && !done.action) sayRuling(summary(done), since);
});

const setupForm = document.querySelector("form[data-setup]");
if (setupForm) {
  presetDefaults(setupForm);
  showOtherSource(setupForm);
}

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

showSound();
noticeRuling();
listen();
