// The web board's page: play, analyse, set up a position, replay. Talks to the JSON API of burano serve.
// The page only ever holds what the server sends for its seat (a view, move texts, narrated steps).
// It knows no game: the registered games ("kinds") come from /api/games/kinds, and each game's board
// module (burano_ai/games/<game>/web/board.js, served as /static/games/<key>/board.js; registered in window.BoardModules[key]) draws its board; a game
// without one, or any game with ?board=generic, gets the generic board (generic-board.js).
"use strict";

window.BoardModules = window.BoardModules || {};
const $ = (sel) => document.querySelector(sel);
const $$ = (sel) => Array.from(document.querySelectorAll(sel));

const app = {
  tab: "play",
  kinds: {},           // game key -> {key, title, min_players, max_players, default_players, board, editor, options}
  kindOrder: [],
  defaultKind: null,
  letters: "ABCDEF",   // the seat letters (core/seats.py)
  kind: null,          // the game chosen in the form
  generic: false,      // the generic board for every game (?board=generic, the "text board" box)
  current: {view: null, legal: [], seat: null, mode: "play", kind: null},   // what the board shows now
  game: null,          // the last game payload
  tokens: {},          // seat letter -> the seat's token (the seats this screen plays; kept in the URL's #fragment)
  gameEvents: null,
  analysis: null,      // {id, events, result}
  analysisSource: null,
  editor: {position: null, timer: null, checked: null},   // + the editor tools' own state (colour, tool, ...)
  replay: null,
};

// -- HTTP ---------------------------------------------------------------------------------------
// `token`: a seat's or an analysis's token, sent in the X-Burano-Token header (docs/web.md).
async function api(method, url, body, token) {
  const headers = body ? {"Content-Type": "application/json"} : {};
  if (token) headers["X-Burano-Token"] = token;
  const res = await fetch(url, {method, headers, body: body ? JSON.stringify(body) : undefined});
  let data;
  try { data = await res.json(); } catch (e) { data = {error: `bad answer from the server (${res.status})`}; }
  if (!res.ok) { const err = new Error(data.error || `HTTP ${res.status}`); err.data = data; err.status = res.status; throw err; }
  return data;
}
// An error shows until it is dismissed (×), the page moves on (a new position), or ERROR_SECONDS pass.
const ERROR_SECONDS = 8;
function showError(message) {
  const el = $("#error");
  $("#error-text").textContent = message || "";
  el.hidden = !message;
  app.errorVersion = app.game ? app.game.version : null;   // a later game position clears it
  clearTimeout(app.errorTimer);
  if (message) app.errorTimer = setTimeout(() => showError(""), ERROR_SECONDS * 1000);
}

// -- the games and their board modules ---------------------------------------------------------
function boardOf(kind) {
  return (!app.generic && window.BoardModules[kind]) || window.GenericBoard;
}
// The board drawn now; the editor always draws the game's own board (its tools are that module's).
function board() {
  const kind = app.current.kind || app.kind;
  return app.current.editable && window.BoardModules[kind] ? window.BoardModules[kind] : boardOf(kind);
}
function kindTitle(kind) { return (app.kinds[kind] || {}).title || kind; }
// The analysis table's score column: the game's score name ("vp" reads VP).
function scoreLabel(kind) { const name = (app.kinds[kind] || {}).score_name || "score"; return name.length <= 2 ? name.toUpperCase() : name; }
// The game whose position editor the editor tab shows: the chosen game, if it has one.
function editorKind() { return app.kinds[app.kind] && app.kinds[app.kind].editor ? app.kind : null; }
// Its board module's editor tools (toolbar, wire, click, clear, clearLabel, seatFields).
function editorTools() { return window.BoardModules[editorKind()].editor; }
// What the tools may do to the page: change the position, outline elements, show a message.
const editorContext = {get state() { return app.editor; }, edit: (change) => edit(change), highlight: (keys) => highlight(keys),
                       error: (message) => editorError(message, null)};

function loadScript(url) {
  return new Promise((resolve, reject) => {
    const el = document.createElement("script");
    el.src = url; el.onload = resolve; el.onerror = () => reject(new Error(`cannot load ${url}`));
    document.head.appendChild(el);
  });
}

// The registered games and every board module (a few small scripts, loaded once).
async function loadKinds() {
  const data = await api("GET", "/api/games/kinds");
  app.letters = data.seat_letters;
  app.defaultKind = data.default;
  app.kindOrder = data.kinds.map(k => k.key);
  data.kinds.forEach(k => { app.kinds[k.key] = k; });
  // whether a game outlives a restart of the server (burano serve --store): said under the form
  $("#kept").textContent = data.games_kept
    ? "Games are kept on the server's disk: a restart of the server does not end them (reload the page)."
    : "Games live in the server's memory only: a restart of the server ends them.";
  await Promise.all(data.kinds.filter(k => k.board).map(k => loadScript(k.board)));
  const select = $("#kind");
  select.innerHTML = "";
  data.kinds.forEach(k => { const o = document.createElement("option"); o.value = k.key; o.textContent = k.title; select.appendChild(o); });
  const most = Math.max(...data.kinds.map(k => k.max_players));
  $("#rp-seat").innerHTML = [...app.letters.slice(0, most)].map(l => `<option>${l}</option>`).join("");
}

// The form follows the chosen game: its player range, `players` if the game is played by that many (else
// its default count), the editor tab if it has one.
function chooseKind(kind, players, specs, options) {
  const k = app.kinds[kind] || app.kinds[app.defaultKind];
  app.kind = k.key;
  $("#kind").value = k.key;
  const select = $("#players");
  select.innerHTML = "";
  for (let n = k.min_players; n <= k.max_players; n++) { const o = document.createElement("option"); o.textContent = String(n); select.appendChild(o); }
  const count = players >= k.min_players && players <= k.max_players ? players : k.default_players;
  select.value = String(count);
  buildSeatInputs(count, specs || seatSpecsFromForm());
  buildOptionInputs(k.options || [], options || {});
  // the bot suggestions: the generic bots of the page, then the game's own (Burano's greedy)
  $$("#bot-specs option.own").forEach(o => o.remove());
  k.bots.forEach(name => $("#bot-specs").insertAdjacentHTML("beforeend", `<option class="own" value="${name}">`));
  $("#tabs button[data-tab='editor']").hidden = !k.editor;
  if (k.editor) buildEditorTools();
  if (app.tab === "editor" && !k.editor) switchTab("play");
  if (k.editor) {
    $("#ed-players").innerHTML = "";
    for (let n = k.min_players; n <= k.max_players; n++) $("#ed-players").insertAdjacentHTML("beforeend", `<option>${n}</option>`);
    $("#ed-players").value = String(k.default_players);
  }
}

// -- drawing ------------------------------------------------------------------------------------
function primaryTargets(view, legal, seat) {
  const B = board();
  const byKey = {};
  legal.forEach(m => { const t = B.moveTargets(m, view, seat); if (t.length) (byKey[t[0]] = byKey[t[0]] || []).push(m); });
  return byKey;
}

function draw(view, legal, seat, opts) {
  opts = opts || {};
  app.current = {view, legal: legal || [], seat, mode: app.tab, kind: opts.kind || app.kind, editable: !!opts.editable};
  if (!view) { $("#board").innerHTML = ""; return; }
  const seatNames = opts.seatNames, B = board();
  $("#board").innerHTML = B.renderBoard(view, {seat, seatNames, legal: app.current.legal, editable: !!opts.editable,
                                               letters: app.letters});
  app.current.byKey = primaryTargets(view, app.current.legal, seat);
  for (const key of Object.keys(app.current.byKey)) {
    $$(`#board [data-key="${CSS.escape(key)}"]`).forEach(el => el.classList.add("legal"));
  }
  if (opts.editable) $$("#board [data-key]").forEach(el => el.classList.add("editable"));
  $("#chooser").hidden = true;
}

// The last-move marks: `keys` outlined with `cls` ("mark": everything since the viewer's last decision;
// "mark-step": one log step's changes; "mark-next": where a replay's next step is made).
function markKeys(changes) {
  const B = board();
  return B.changedKeys && app.current.view ? B.changedKeys(changes, app.current.view) : [];
}

function highlight(keys, cls) {
  cls = cls || "hl";
  $$(`#board .${cls}`).forEach(el => el.classList.remove(cls));
  (keys || []).forEach(k => $$(`#board [data-key="${CSS.escape(k)}"]`).forEach(el => el.classList.add(cls)));
}

// The plan's steps numbered on the board: badge i sits on the element step i is made on.
function planBadges(plan) {
  $$("#board .plan-badge").forEach(el => el.remove());
  const used = {};
  plan.forEach((move, i) => {
    const key = board().moveTargets(move, app.current.view, app.current.seat)[0];
    const el = key && $(`#board [data-key="${CSS.escape(key)}"]`);
    const overlay = el && el.ownerSVGElement && el.ownerSVGElement.querySelector(".overlay");
    if (!overlay) return;
    const box = el.getBBox();
    const shift = 14 * (used[key] = (used[key] || 0) + 1) - 14;
    const g = document.createElementNS("http://www.w3.org/2000/svg", "g");
    g.setAttribute("class", "plan-badge");
    // at the element's top right corner (its name is written at the top left), later steps leftwards
    const cx = box.x + box.width - 6 - shift;
    g.innerHTML = `<circle cx="${cx}" cy="${box.y + 6}" r="9"/><text x="${cx}" y="${box.y + 10}" text-anchor="middle">${i + 1}</text>`;
    overlay.appendChild(g);
  });
}

function showChooser(moves, event) {
  const box = $("#chooser");
  box.innerHTML = "";
  moves.forEach(m => {
    const b = document.createElement("button");
    b.textContent = m; b.dataset.move = m;
    b.onclick = () => { box.hidden = true; playMove(m); };
    b.onmouseenter = () => highlight(board().moveTargets(m, app.current.view, app.current.seat));
    box.appendChild(b);
  });
  const wrap = $("#board-wrap").getBoundingClientRect();
  box.style.left = `${Math.min(event.clientX - wrap.left + 8, wrap.width - 220)}px`;
  box.style.top = `${event.clientY - wrap.top + $("#board-wrap").scrollTop + 8}px`;
  box.hidden = false;
}

// -- play ---------------------------------------------------------------------------------------
// The game's options besides the player count (its `game_options`, as /api/games/kinds lists them), a
// field each: a choice a select, an int a number, a bool a checkbox, a data option a JSON file.
function buildOptionInputs(options, values) {
  const box = $("#game-options");
  box.innerHTML = "";
  options.forEach(o => {
    const label = document.createElement("label");
    label.title = o.help;
    label.textContent = `${o.name.replace(/_/g, " ")} `;
    let input;
    if (o.kind === "choice") {
      input = document.createElement("select");
      o.choices.forEach(c => { const opt = document.createElement("option"); opt.textContent = c; input.appendChild(opt); });
      input.value = values[o.name] !== undefined ? values[o.name] : o.default;
    } else if (o.kind === "int" && o.values) {     // only some whole numbers (move_dirs: 4 or 8)
      input = document.createElement("select");
      o.values.forEach(v => { const opt = document.createElement("option"); opt.textContent = v; input.appendChild(opt); });
      input.value = String(values[o.name] !== undefined ? values[o.name] : o.default);
    } else if (o.kind === "int") {
      input = document.createElement("input");
      input.type = "number";
      if (o.low !== null) input.min = o.low;
      if (o.high !== null) input.max = o.high;
      input.value = values[o.name] !== undefined ? values[o.name] : o.default;
      input.size = 4;
    } else if (o.kind === "bool") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = values[o.name] !== undefined ? !!values[o.name] : !!o.default;
    } else {
      input = document.createElement("input");
      input.type = "file";
      input.accept = ".json,application/json";
      input.title = o.help + " (none: the built-in data)";
    }
    input.id = `opt-${o.name}`;
    input.dataset.option = o.name;
    label.appendChild(input);
    box.appendChild(label);
  });
}
// The options set in the form that differ from their defaults; a data option's file read as JSON.
async function optionsFromForm() {
  const out = {};
  for (const o of (app.kinds[app.kind] || {}).options || []) {
    const input = $(`#opt-${o.name}`);
    if (!input) continue;
    let value;
    if (o.kind === "choice") value = input.value;
    else if (o.kind === "int") value = input.value.trim() === "" ? o.default : Number(input.value);
    else if (o.kind === "bool") value = input.checked;
    else {
      const file = input.files && input.files[0];
      if (!file) continue;
      try { value = JSON.parse(await file.text()); }
      catch (e) { throw new Error(`options.${o.name}: ${file.name} is not JSON (${e.message})`); }
    }
    if (value !== o.default) out[o.name] = value;
  }
  return out;
}
// The options a URL can carry (not a data file's contents: a reload that has to start anew uses the built-in data).
function urlOptions(options) {
  const out = {};
  Object.entries(options || {}).forEach(([k, v]) => { if (v === null || typeof v !== "object") out[k] = v; });
  return out;
}
function seatSpecsFromForm() {
  return $$("#seat-specs input").map(i => i.value.trim() || "random");
}
function buildSeatInputs(players, specs) {
  const box = $("#seat-specs");
  box.innerHTML = "";
  for (let i = 0; i < players; i++) {
    const label = document.createElement("label");
    label.textContent = `${app.letters[i]} `;
    const input = document.createElement("input");
    input.id = `spec-${app.letters[i]}`;
    input.setAttribute("list", "bot-specs");
    input.title = "human, or a bot spec (random, greedy, ismcts:time=2, ...)";
    input.value = (specs && specs[i]) || (i === 0 ? "human" : "random");
    label.appendChild(input);
    box.appendChild(label);
  }
}

// The page's URL; the seats' tokens go in its #fragment, which the browser never sends to a server.
function setUrl(params) {
  const url = new URL(window.location.href);
  url.search = new URLSearchParams(params).toString();
  const tokens = Object.entries(app.tokens).map(([seat, token]) => `${seat}:${token}`).join(",");
  url.hash = params.game && tokens ? `tokens=${tokens}` : "";
  history.replaceState(null, "", url.toString());
}
function tokensFromUrl() {
  const hash = new URLSearchParams(window.location.hash.slice(1)).get("tokens") || "";
  const tokens = {};
  hash.split(",").forEach(item => { const [seat, token] = item.split(":"); if (seat && token) tokens[seat] = token; });
  return tokens;
}
function seatToken(seat) { return app.tokens[seat]; }

// The page's URL: the setup (the game, players, the seed of a seeded deal, seats; the generic board if
// chosen) and the game's id.
function gameUrl(kind, players, seed, seats, id, options) {
  const params = {tab: "play", kind, players, seats: seats.join(";")};
  if (seed !== null && seed !== undefined) params.seed = seed;
  const simple = urlOptions(options);
  if (Object.keys(simple).length) params.options = JSON.stringify(simple);
  if (app.generic) params.board = "generic";
  if (id) params.game = id;
  return params;
}

async function newGame(kind, players, seed, seats, options) {
  showError("");
  if (app.gameEvents) { app.gameEvents.close(); app.gameEvents = null; }
  try {
    const setup = {kind, players, seats};
    if (seed !== null && seed !== undefined) setup.seed = seed;   // none: a secret deal
    if (options && Object.keys(options).length) setup.options = options;   // the game's, besides the players
    const payload = await api("POST", "/api/games", setup);
    app.tokens = payload.tokens;
    delete payload.tokens;
    setUrl(gameUrl(kind, players, seed, seats, payload.game, options));
    app.game = payload;
    $("#game-controls").hidden = false;
    showGame(payload);
    listenGame(payload.game, payload.seat);
  } catch (e) { showError(e.message); }
}

// A reload finds its game on the server again (with the seats' tokens from the URL); a forgotten game
// (server restarted) starts anew from the setup in the URL: the same seats, and for a seeded deal the same
// deal and bots.
async function reopenGame(id, seat, kind, players, seed, specs, options) {
  try {
    app.tokens = tokensFromUrl();
    seat = seat && app.tokens[seat] ? seat : Object.keys(app.tokens)[0];
    const payload = await api("GET", `/api/games/${encodeURIComponent(id)}`, null, seatToken(seat));
    app.game = payload;
    $("#game-controls").hidden = false;
    showGame(payload);
    listenGame(payload.game, payload.seat);
  } catch (e) {
    if (specs) newGame(kind, players, seed, specs, options); else showError(e.message);
  }
}

function listenGame(id, seat) {
  const es = new EventSource(`/api/games/${encodeURIComponent(id)}/events?token=${encodeURIComponent(seatToken(seat))}`);
  es.onmessage = (ev) => {
    const payload = JSON.parse(ev.data);
    if (app.game && payload.game === app.game.game && payload.version > app.game.version) { app.game = payload; showGame(payload); }
  };
  app.gameEvents = es;
}

async function switchSeat(seat) {
  // Several human seats at one screen: the board follows the human seat to move, after a handover
  // screen, so that the next player does not see the last one's hidden cards and pyramid.
  if (app.gameEvents) { app.gameEvents.close(); app.gameEvents = null; }
  $("#board").innerHTML = ""; $("#legal").innerHTML = ""; $("#log").innerHTML = "";
  app.current = {view: null, legal: [], seat: null, mode: app.tab};
  $("#handover-text").textContent = `Seat ${seat} to play: pass the screen to ${seat}.`;
  $("#status").textContent = `pass the screen to ${seat}`;
  $("#handover").hidden = false;
  await new Promise(resolve => { $("#handover-go").onclick = resolve; });
  $("#handover").hidden = true;
  try {
    const payload = await api("GET", `/api/games/${encodeURIComponent(app.game.game)}`, null, seatToken(seat));
    app.switching = false;
    app.game = payload; showGame(payload);
    listenGame(payload.game, payload.seat);
  } catch (e) { app.switching = false; showError(e.message); }
}

function showGame(p) {
  if (app.switching) return;   // a handover is on: nothing of the last seat is drawn again
  if (p.humans.length > 1 && p.to_move !== p.seat && p.humans.includes(p.to_move) && seatToken(p.to_move)) {
    app.switching = true;
    switchSeat(p.to_move);
    return;
  }
  if (app.tab === "play" || (app.tab === "analyse" && app.analysisSource === "game")) {
    draw(p.view, p.legal, p.seat, {seatNames: p.setup.seats, kind: p.kind});
    $("#status").textContent = gameStatus(p);
  }
  $("#thinking").hidden = !p.thinking;
  $("#thinking-text").textContent = p.thinking ? `${p.thinking} is thinking…` : "";
  $("#legal-count").textContent = p.legal.length ? `(${p.legal.length})` : "";
  const list = $("#legal");
  list.innerHTML = "";
  p.legal.forEach((m, i) => {
    const li = document.createElement("li"), b = document.createElement("button");
    const words = (p.legal_words || [])[i];   // the move in people's words (docs/game-format.md)
    b.textContent = words || m; b.dataset.move = m;
    if (words && words !== m) {                // the move text (the notation records use) under them
      const text = document.createElement("span");
      text.className = "move-text"; text.textContent = m;
      b.appendChild(text);
    }
    b.onclick = () => playMove(m);
    b.onmouseenter = () => highlight(boardOf(p.kind).moveTargets(m, p.view, p.seat));
    b.onmouseleave = () => highlight([]);
    li.appendChild(b); list.appendChild(li);
  });
  (p.notes || []).forEach(note => {   // what the next move costs, why moves are missing
    const li = document.createElement("li");
    li.className = "move-note"; li.textContent = note;
    list.appendChild(li);
  });
  const log = $("#log");
  log.innerHTML = "";
  const firstShown = Math.max(0, p.log.length - 200);
  log.start = firstShown + 1;
  const marks = p.marks || {since: p.log.length, first: p.log.length, steps: []};
  const stepChanges = (i) => (i >= marks.first ? marks.steps[i - marks.first] : null);
  p.log.slice(firstShown).forEach((line, j) => {
    const i = firstShown + j, li = document.createElement("li");
    li.textContent = line;
    li.dataset.step = String(i);
    if (i >= marks.since) li.classList.add("recent");
    const changes = stepChanges(i);
    if (changes) {
      li.onmouseenter = () => { if (app.current.view === p.view) highlight(markKeys(changes), "mark-step"); };
      li.onmouseleave = () => highlight([], "mark-step");
    }
    log.appendChild(li);
  });
  log.scrollTop = log.scrollHeight;
  // the marks on the board: every element changed since this seat's last decision
  if (app.tab === "play" || (app.tab === "analyse" && app.analysisSource === "game")) {
    const since = [];
    for (let i = Math.max(marks.since, marks.first); i < marks.first + marks.steps.length; i++) since.push(...marks.steps[i - marks.first]);
    app.marked = markKeys(since);
    highlight(app.marked, "mark");
  }
  $("#download").href = `/api/games/${encodeURIComponent(p.game)}/record?token=${encodeURIComponent(seatToken(p.seat) || "")}`;
  const res = $("#result");
  res.hidden = !p.over;
  if (p.over) renderResult(res, p);
  if (p.error) showError(p.error);
  else if (!$("#error").hidden && app.errorVersion !== null && p.version > app.errorVersion) showError("");
}

// The end of the game: the winner, a table of the final scoring per seat and category (as the terminal tells
// it: the game's categories, the total, its tie-break columns), then how the tie-break decided, if it did.
function renderResult(res, p) {
  const esc = (x) => String(x).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  const t = p.score_table;
  const won = (p.winners || []).join(" and ");
  if (!t) { res.textContent = `Game over. Scores: ${p.scores.map((s, i) => app.letters[i] + " " + s).join(", ")}; winner ${won}`; return; }
  // A column per seat in the order of finish, a row per category, then the total and the tie-break columns
  // (as a board game's score pad: 2-5 seats fit the side panel however many categories the game scores).
  const wins = (r) => (t.winners || []).includes(r.seat) ? ' class="winner"' : "";
  const head = `<th scope="col"></th>` + t.rows.map(r => `<th scope="col"${wins(r)}>${r.place}. ${esc(r.seat)}${r.seat === p.seat ? " (you)" : ""}</th>`).join("");
  const line = (name, cells, cls) => `<tr${cls ? ` class="${cls}"` : ""}><th scope="row">${esc(name)}</th>` +
    cells.map((c, i) => `<td class="num"${wins(t.rows[i])}>${esc(c)}</td>`).join("") + "</tr>";
  const rows = t.categories.map((name, k) => line(name, t.rows.map(r => r.cells[k]))).join("") +
    line(t.total, t.rows.map(r => r.total), "total") +
    t.extra.map((name, k) => line(name, t.rows.map(r => r.extra[k]))).join("");
  res.innerHTML = `<div class="result-title">Game over: ${esc(won)} win${(p.winners || []).length > 1 ? "" : "s"}</div>` +
    `<table class="score-table"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>` +
    (p.result_text || []).map(line => `<div class="result-line">${esc(line)}</div>`).join("");
}

// Where the game stands, as the game's board module says it (the game's title on the generic board).
function whereNow(kind, view) {
  const B = boardOf(kind);
  return B.statusLine ? B.statusLine(view) : kindTitle(kind);
}

function gameStatus(p) {
  const v = p.view;
  if (p.over) return `game over · winner ${p.winners.join(", ")}`;
  const whose = p.to_move === p.seat ? "your move" : p.thinking ? `${p.thinking} is thinking` : `${p.to_move} to move`;
  const seeded = p.setup.seeded ? ` · seeded deal ${p.setup.seed}` : "";
  return `${whereNow(p.kind, v)} · ${whose} (you are ${p.seat})${seeded}`;
}

async function playMove(move) {
  if (!app.game) return;
  showError("");
  if (app.analysis && !app.analysis.done && app.analysisSource !== "editor") stopAnalysis();   // its position is gone
  app.analysisAvoid = [];
  $("#chooser").hidden = true;
  try {
    const payload = await api("POST", `/api/games/${encodeURIComponent(app.game.game)}/move`, {seat: app.game.seat, move},
                              seatToken(app.game.seat));
    if (payload.version >= app.game.version) { app.game = payload; showGame(payload); }
  } catch (e) { showError(e.message); }
}

async function undo() {
  if (!app.game) return;
  try {
    const payload = await api("POST", `/api/games/${encodeURIComponent(app.game.game)}/undo`, {seat: app.game.seat},
                              seatToken(app.game.seat));
    app.game = payload; showGame(payload);
  } catch (e) { showError(e.message); }
}

// -- analysis -----------------------------------------------------------------------------------
async function startAnalysis() {
  showError("");
  stopAnalysisEvents();
  if (app.analysis && !app.analysis.done) await stopAnalysis();   // this page's search ends before the next
  if (app.analysis && app.analysis.events) app.analysis.events.close();   // else it reconnects to the old one
  $("#candidates tbody").innerHTML = "";
  // a new search (× on a candidate, continue): the last one's plan is no longer shown
  app.analysisHover = null;
  previewPlan(null);
  try {
    let payload;
    const avoid = app.analysisAvoid || [];
    $("#analysis-avoid").textContent = avoid.length ? `leaving out: ${avoid.join(", ")}` : "";
    if (app.analysisSource === "editor" && app.editor.position) {
      payload = await api("POST", "/api/analysis", {position: app.editor.position, avoid});
    } else if (app.analysisSource === "replay" && app.replay && app.replay.view) {
      payload = await api("POST", "/api/analysis", {position: app.replay.view, avoid});
    } else if (app.game) {
      payload = await api("POST", `/api/games/${encodeURIComponent(app.game.game)}/analysis`, {seat: app.game.seat, avoid},
                          seatToken(app.game.seat));
    } else { showError("start a game or set up a position first"); return; }
    app.analysis = {id: payload.id, token: payload.token, result: null, done: false};
    $("#analysis-stop").disabled = false;
    $("#analysis-info").textContent = "searching…";
    const es = new EventSource(`/api/analysis/${payload.id}/events?token=${encodeURIComponent(payload.token)}`);
    es.onmessage = (ev) => showAnalysis(JSON.parse(ev.data));
    app.analysis.events = es;
  } catch (e) { showError(e.message); }
}

function stopAnalysisEvents() {
  if (app.analysis && app.analysis.events && app.analysis.done) { app.analysis.events.close(); }
}

async function stopAnalysis() {
  if (!app.analysis) return;
  try { showAnalysis(await api("POST", `/api/analysis/${app.analysis.id}/stop`, null, app.analysis.token)); } catch (e) { showError(e.message); }
}

function showAnalysis(p) {
  if (!app.analysis || p.id !== app.analysis.id) return;
  // The stop request's answer can arrive after the stream's last event: never go back to an older state.
  if (p.version < (app.analysis.version || 0) || app.analysis.done) return;
  app.analysis.version = p.version;
  if (p.error) showError(p.error);
  const r = p.result;
  app.analysis.result = r;
  app.analysis.done = p.done;
  if (r) app.analysis.reports = (app.analysis.reports || 0) + 1;
  if (p.done) { $("#analysis-stop").disabled = true; if (app.analysis.events) app.analysis.events.close(); $("#analysis-start").textContent = "Continue"; }
  if (!r) return;
  $("#score-head").textContent = scoreLabel(p.kind);
  $("#analysis-info").textContent = `${p.done ? "stopped" : "searching"} · ${r.iterations} iterations · ${r.elapsed.toFixed(1)} s` +
    ((r.tied || []).length ? ` · statistically tied: ${r.tied.join(", ")}` : "");
  const body = $("#candidates tbody");
  body.innerHTML = "";
  r.candidates.forEach(c => {
    const tr = document.createElement("tr");
    tr.className = "candidate";
    tr.dataset.move = c.move;
    tr.innerHTML = `<td>${c.move}</td><td>${(100 * c.win).toFixed(1)}%</td><td>${c.vp.toFixed(1)}</td><td>${c.margin >= 0 ? "+" : ""}${c.margin.toFixed(1)}</td><td>${c.visits}</td>` +
                   `<td><button class="avoid" title="search again without this move">×</button></td>`;
    tr.querySelector(".avoid").onclick = () => { app.analysisAvoid = [...(app.analysisAvoid || []), c.move]; startAnalysis(); };
    tr.onmouseenter = () => { app.analysisHover = c.move; previewPlan(c); };
    tr.onmouseleave = () => { app.analysisHover = null; previewPlan(null); };
    body.appendChild(tr);
  });
  // a new report rebuilt the table: keep previewing the hovered candidate's new plan
  previewPlan(r.candidates.find(c => c.move === app.analysisHover) || null);
}

function previewPlan(c) {
  if (!c) { highlight([], "hl-plan"); planBadges([]); $("#analysis-plan").textContent = ""; return; }
  const keys = [];
  c.plan.forEach(m => keys.push(...board().moveTargets(m, app.current.view, app.current.seat)));
  highlight(keys, "hl-plan");
  planBadges(c.plan);
  $("#analysis-plan").textContent = "plan: " + c.plan.join(" → ");
}

// -- the editor ---------------------------------------------------------------------------------
function buildEditorTools() {
  const tools = editorTools();
  $("#ed-toolbox").innerHTML = tools.toolbar(editorContext);
  tools.wire($("#ed-toolbox"), editorContext);
  $("#ed-clear").textContent = tools.clearLabel;
}

function buildSeatFields(position) {
  const box = $("#ed-seats");
  box.innerHTML = "";
  (position.seats || []).forEach((seat, i) => {
    const row = document.createElement("div");
    row.className = "seat-row";
    row.append(`${app.letters[i]}: `);
    editorTools().seatFields.forEach(field => {
      const input = document.createElement("input");
      input.type = "number"; input.min = "0"; input.id = `ed-${app.letters[i]}-${field}`; input.dataset.field = `position.seats[${i}].${field}`;
      input.value = seat[field];
      input.onchange = () => { edit(p => { p.seats[i][field] = input.value === "" ? null : Number(input.value); }); };
      row.append(` ${field} `, input);
    });
    box.appendChild(row);
  });
}

function syncSeatFields(position) {
  const seats = Array.isArray(position.seats) ? position.seats : [];
  if ($$("#ed-seats .seat-row").length !== seats.length) { buildSeatFields(position); return; }
  seats.forEach((seat, i) => editorTools().seatFields.forEach(field => {
    const input = $(`#ed-${app.letters[i]}-${field}`);
    if (input && document.activeElement !== input && seat && seat[field] !== undefined) input.value = seat[field];
  }));
}

function edit(change) {
  const p = app.editor.position;
  if (!p) return;
  change(p);
  $("#ed-json").value = JSON.stringify(p, null, 2);
  scheduleCheck(0);
}

function setEditorPosition(position) {
  app.editor.position = position;
  $("#ed-json").value = JSON.stringify(position, null, 2);
  buildSeatFields(position);
  scheduleCheck(0);
}

function scheduleCheck(delay) {
  app.editor.checked = null;   // the position changed: valid only once the server says so again
  clearTimeout(app.editor.timer);
  app.editor.timer = setTimeout(checkEditor, delay);
}

async function checkEditor() {
  const text = $("#ed-json").value;
  let position;
  $$("#side .bad").forEach(el => el.classList.remove("bad"));
  try { position = JSON.parse(text); } catch (e) { return editorError(`not JSON: ${e.message}`, null); }
  if (!position || typeof position !== "object" || Array.isArray(position)) return editorError("a position is a JSON object {...}", null);
  app.editor.position = position;
  syncSeatFields(position);
  const seq = app.editor.seq = (app.editor.seq || 0) + 1;   // only the latest check may speak
  try {
    const res = await api("POST", "/api/position", {position});
    if (seq !== app.editor.seq) return;
    app.editor.checked = res;
    $("#ed-error").hidden = true;
    $("#ed-ok").textContent = `valid · ${res.players} players · ${res.view_seat ? "seat " + res.view_seat + "'s view" : "full position"} · ` +
      (res.to_move.length === 1 ? `${res.to_move} to move, ${res.legal.length} legal moves` : res.to_move);
    if (app.tab === "editor") draw(res.position, [], res.view_seat, {editable: true, kind: res.kind});
  } catch (e) {
    if (seq !== app.editor.seq) return;
    editorError(e.message, e.data && e.data.field);
    if (app.tab === "editor") draw(position.seats ? position : null, [], null, {editable: true, kind: editorKind()});
  }
}

function editorError(message, field) {
  app.editor.checked = null;
  const el = $("#ed-error");
  el.textContent = message; el.hidden = false;
  $("#ed-ok").textContent = "";
  let target = field ? $$("#ed-seats input").find(i => field.startsWith(i.dataset.field)) : null;
  (target || $("#ed-json")).classList.add("bad");
  // the message sits next to the field it names
  if (target) target.parentElement.after(el); else $("#ed-json").before(el);
}

async function dealForEditor() {
  try {
    const players = Number($("#ed-players").value), seed = Number($("#ed-seed").value);
    setEditorPosition(await api("GET", `/api/deal?kind=${editorKind()}&players=${players}&seed=${seed}`));
  } catch (e) { showError(e.message); }
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], {type: "application/json"}));
  a.download = name; a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// -- replay -------------------------------------------------------------------------------------
async function openReplay() {
  showError("");
  try {
    const summary = await api("POST", "/api/replays", {record: $("#rp-json").value, seat: $("#rp-seat").value});
    app.replay = summary;
    $("#rp-controls").hidden = false;
    const slider = $("#rp-slider");
    slider.max = summary.plies; slider.value = 0;
    drawWinGraph(summary);
    showReplayStep(summary);
  } catch (e) { showError(e.message); }
}

// The annotated win probabilities over the game (one line per seat; flagged moves as red dots), with
// axes: win % (0, 50, 100) up the side, the step number along the bottom. A click jumps to that step.
function drawWinGraph(summary) {
  const svg = $("#rp-graph");
  const points = {};
  summary.wins.forEach((w, ply) => { if (w) (points[w[0]] = points[w[0]] || []).push([ply, w[1]]); });
  // an SVG element has no `hidden` property: the attribute itself is set or taken off
  const none = !Object.keys(points).length;
  svg.toggleAttribute("hidden", none);
  if (none) return;
  const W = 300, H = 150, L = 44, R = 18, T = 8, B = 36, n = Math.max(1, summary.plies);
  const x = (ply) => L + (W - L - R) * ply / n, y = (win) => T + (H - T - B) * (1 - win);
  let s = `<rect x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" fill="#f8f9fb" stroke="#ccd"/>`;
  [0, 0.5, 1].forEach(w => {
    s += `<line x1="${L}" x2="${W - R}" y1="${y(w)}" y2="${y(w)}" stroke="#ccd"${w === 0.5 ? ' stroke-dasharray="3 3"' : ""}/>` +
         `<text x="${L - 4}" y="${y(w) + 4}" text-anchor="end">${100 * w}%</text>`;
  });
  const step = Math.max(1, Math.ceil(n / 4 / 10) * 10);
  for (let t = 0; t <= n; t += step) {
    s += `<line x1="${x(t)}" x2="${x(t)}" y1="${H - B}" y2="${H - B + 4}" stroke="#889"/><text x="${x(t)}" y="${H - B + 16}" text-anchor="middle">${t}</text>`;
  }
  s += `<text x="${(L + W - R) / 2}" y="${H - 4}" text-anchor="middle">step</text>` +
       `<text x="12" y="${T + (H - T - B) / 2}" text-anchor="middle" transform="rotate(-90 12 ${T + (H - T - B) / 2})">win</text>`;
  Object.entries(points).forEach(([actor, pts]) => {
    const colour = ["#1f4fbf", "#c8202c", "#1d8a3a", "#222", "#8a4fbf", "#c87a20"][app.letters.indexOf(actor)];
    s += `<polyline fill="none" stroke="${colour}" stroke-width="1.5" points="${pts.map(([p, w]) => `${x(p)},${y(w)}`).join(" ")}"/>`;
    pts.forEach(([p, w]) => {
      const flag = summary.flags[p];
      s += `<circle class="win-point" data-ply="${p}" cx="${x(p)}" cy="${y(w)}" r="${flag ? 4 : 2.5}" fill="${flag ? "#d40000" : colour}"${flag ? ' stroke="#000" stroke-width="1.2"' : ""}><title>step ${p + 1}: ${actor} ${(100 * w).toFixed(0)}%${flag ? " (" + flag + ")" : ""}</title></circle>`;
    });
  });
  svg.innerHTML = s;
  svg.querySelectorAll(".win-point").forEach(c => c.onclick = () => replayTo(Number(c.dataset.ply)));
}

// A step's engine annotations in words: "Blunder: −20 points. Best was `done` (24% to win; the move
// played 4%)." Percentage points of win probability; fields the page does not know are listed after.
function annotationWords(a) {
  if (!a) return "";
  const pct = (w) => `${Math.round(100 * w)}%`;
  const num = (w) => typeof w === "number" && !Number.isNaN(w);
  const parts = [];
  const loss = num(a.loss) ? Math.round(100 * a.loss) : null;
  if (a.flag) parts.push(`${a.flag[0].toUpperCase()}${a.flag.slice(1)}: −${loss ?? "?"} points of win chance.`);
  else if (loss !== null && loss > 0) parts.push(`−${loss} points of win chance.`);
  else if (loss === 0) parts.push("The engine's choice too.");
  if (a.best && (a.flag || (loss !== null && loss > 0))) parts.push(`Best was \`${a.best}\`${num(a.win) ? ` (${pct(a.win)} to win)` : ""}.`);
  if (num(a.played_win)) parts.push(`The move played: ${pct(a.played_win)} to win.`);
  else if (num(a.win) && !a.best) parts.push(`${pct(a.win)} to win.`);
  if (num(a.margin_loss) && a.margin_loss > 0) parts.push(`It gives up ${a.margin_loss.toFixed(1)} points of margin.`);
  if (a.comment) parts.push(String(a.comment));
  const known = new Set(["flag", "loss", "best", "win", "played_win", "margin_loss", "comment", "visits", "played_visits", "method", "time"]);
  const rest = Object.entries(a).filter(([k]) => !known.has(k)).map(([k, v]) => `${k}: ${v}`);
  if (rest.length) parts.push(rest.join(" · "));
  return parts.join(" ");
}

async function replayTo(ply) {
  if (!app.replay) return;
  ply = Math.max(0, Math.min(app.replay.plies, ply));
  try { showReplayStep(await api("GET", `/api/replays/${app.replay.id}/${ply}`)); } catch (e) { showError(e.message); }
}

// The replay at a position: the board after `step.ply` steps, the last step's changes outlined (teal),
// the next step's element outlined (dashed magenta) and its row in the list marked. Rows are numbered
// from 1, so the next step is number ply + 1, as the counter says.
function showReplayStep(step) {
  app.replay.ply = step.ply;
  app.replay.view = step.view;
  app.replay.step = step;
  const list = $("#rp-steps");
  list.innerHTML = "";
  const first = Math.max(0, step.ply - 6);
  list.start = first + 1;
  app.replay.steps.slice(first, step.ply + 7).forEach((text, i) => {
    const li = document.createElement("li");
    li.textContent = text + (app.replay.flags[first + i] ? `  (${app.replay.flags[first + i]})` : "");
    li.dataset.step = String(first + i + 1);
    if (first + i === step.ply) { li.className = "current"; li.title = "the next step"; }
    else if (first + i === step.ply - 1) { li.className = "played"; li.title = "the step just played"; }
    li.onclick = () => replayTo(first + i);
    list.appendChild(li);
  });
  $("#rp-slider").value = step.ply;
  const plies = app.replay.plies;
  $("#rp-ply").textContent = step.ply < plies ? `step ${step.ply + 1} of ${plies}` : `the end: all ${plies} steps played`;
  $("#rp-step").textContent = step.next ? `next: ${step.ply + 1}. ${step.next}` : "end of the record";
  const a = step.annotations;
  const box = $("#rp-annotations");
  box.textContent = annotationWords(a);
  if (a && a.flag) { box.innerHTML = ""; const f = document.createElement("span"); const words = annotationWords(a); const cut = words.indexOf(":");
    f.className = `flag ${a.flag}`; f.textContent = words.slice(0, cut + 1); box.append(f, words.slice(cut + 1)); }
  if (app.tab === "replay") {
    draw(step.view, [], app.replay.seat, {seatNames: app.replay.seats.map(s => s.player), kind: app.replay.kind});
    highlight(markKeys(step.changes || []), "mark");
    const next = step.move ? board().moveTargets(step.move, step.view, step.view.actor || app.replay.seat) : [];
    highlight(next, "mark-next");
    const v = step.view;
    $("#status").textContent = `replay · ${whereNow(app.replay.kind, v)} · as ${app.replay.seat}`;
  }
}

// -- tabs and wiring ----------------------------------------------------------------------------
function switchTab(tab) {
  if (tab === "editor" && !editorKind()) tab = "play";   // the chosen game has no position editor
  app.tab = tab;
  $$("#tabs button").forEach(b => b.classList.toggle("active", b.dataset.tab === tab));
  $$(".panel").forEach(p => p.classList.toggle("active", p.dataset.panel === tab));
  $("#status").textContent = "";
  if (tab === "play" || (tab === "analyse" && (app.analysisSource || "game") === "game")) {
    if (app.game) showGame(app.game); else draw(null, [], null);
    if (tab === "analyse") $("#analyse-source").textContent = app.game ? `Analysing the game for seat ${app.game.seat}.` : "Start a game first, or use “Analyse this” in the editor.";
  } else if (tab === "analyse" && app.analysisSource === "replay") {
    if (app.replay && app.replay.view) draw(app.replay.view, [], app.replay.seat, {kind: app.replay.kind});
    $("#analyse-source").textContent = `Analysing ply ${app.replay.ply} of the replay as seat ${app.replay.seat}.`;
  } else if (tab === "analyse") {
    const c = app.editor.checked;
    if (c) draw(c.position, [], c.view_seat, {kind: c.kind});
    $("#analyse-source").textContent = "Analysing the position from the editor.";
  } else if (tab === "editor") {
    if (!app.editor.position) dealForEditor(); else scheduleCheck(0);
  } else if (tab === "replay") {
    if (app.replay) replayTo(app.replay.ply || 0); else draw(null, [], null);
  }
}

function wire() {
  $$("#tabs button").forEach(b => b.onclick = () => {
    if (b.dataset.tab === "analyse" && app.tab !== "analyse") app.analysisSource = {play: "game", editor: "editor", replay: "replay"}[app.tab];
    switchTab(b.dataset.tab);
  });
  $("#kind").onchange = () => chooseKind($("#kind").value, 0, seatSpecsFromForm());   // at the game's default count
  $("#generic-board").onchange = () => {
    app.generic = $("#generic-board").checked;
    if (app.game) { setUrl(gameUrl(app.game.kind, app.game.setup.players, app.game.setup.seeded ? app.game.setup.seed : null, app.game.setup.seats, app.game.game, app.game.setup.options)); }
    switchTab(app.tab);
  };
  $("#players").onchange = () => buildSeatInputs(Number($("#players").value), seatSpecsFromForm());
  // an empty seed: a secret deal; a number: a seeded, reproducible one (labelled so)
  $("#setup").onsubmit = async (e) => {
    e.preventDefault();
    let options;
    try { options = await optionsFromForm(); } catch (err) { showError(err.message); return; }
    newGame(app.kind, Number($("#players").value), $("#seed").value.trim() === "" ? null : Number($("#seed").value), seatSpecsFromForm(), options);
  };
  $("#undo").onclick = undo;
  $("#replay-game").onclick = async () => {
    if (!app.game) return;
    try {
      const text = await (await fetch(`/api/games/${encodeURIComponent(app.game.game)}/record`,
                                      {headers: {"X-Burano-Token": seatToken(app.game.seat)}})).text();
      $("#rp-json").value = text;
      $("#rp-seat").value = app.game.seat;
      switchTab("replay");
      await openReplay();
    } catch (e) { showError(e.message); }
  };
  $("#hint").onclick = () => { app.analysisSource = "game"; app.analysisAvoid = []; switchTab("analyse"); startAnalysis(); };
  $("#analysis-start").onclick = startAnalysis;
  $("#analysis-stop").onclick = stopAnalysis;
  $("#ed-deal").onclick = dealForEditor;
  $("#ed-clear").onclick = () => edit(p => editorTools().clear(p));
  $("#ed-json").oninput = () => scheduleCheck(300);
  $("#ed-apply").onclick = () => scheduleCheck(0);
  $("#ed-export").onclick = () => download("position.json", $("#ed-json").value);
  $("#ed-import").onchange = async (e) => { const f = e.target.files[0]; if (f) { $("#ed-json").value = await f.text(); await checkEditor(); if (app.editor.position) buildSeatFields(app.editor.position); } };
  $("#ed-analyse").onclick = async () => {
    clearTimeout(app.editor.timer);
    if (!app.editor.checked) await checkEditor();   // a change still being checked: check it now
    if (!app.editor.checked) { showError("the position is not valid yet"); return; }
    app.analysisSource = "editor"; app.analysisAvoid = []; switchTab("analyse"); startAnalysis();
  };
  $("#rp-file").onchange = async (e) => { const f = e.target.files[0]; if (f) $("#rp-json").value = await f.text(); };
  $("#rp-open").onclick = openReplay;
  $("#rp-analyse").onclick = () => { app.analysisSource = "replay"; app.analysisAvoid = []; switchTab("analyse"); startAnalysis(); };
  $("#analysis-avoid").onclick = () => { app.analysisAvoid = []; startAnalysis(); };
  $("#rp-slider").oninput = () => replayTo(Number($("#rp-slider").value));
  $("#rp-prev").onclick = () => replayTo((app.replay.ply || 0) - 1);
  $("#rp-next").onclick = () => replayTo((app.replay.ply || 0) + 1);
  $("#error-close").onclick = () => showError("");
  $("#side-toggle").onclick = () => document.body.classList.toggle("side-open");
  // the board's element: not named `board`, which would hide the board() module function in the handlers
  const boardElement = $("#board");
  boardElement.addEventListener("click", (e) => {
    const el = e.target.closest("[data-key]");
    if (!el) { $("#chooser").hidden = true; return; }
    const key = el.dataset.key;
    if (app.tab === "editor") { editorTools().click(app.editor.position, key, editorContext); return; }
    if (!(app.tab === "play" || (app.tab === "analyse" && app.analysisSource === "game"))) return;
    const moves = (app.current.byKey || {})[key] || [];
    if (moves.length === 1) playMove(moves[0]);
    else if (moves.length > 1) showChooser(moves, e);
  });
  boardElement.addEventListener("mouseover", (e) => {
    const el = e.target.closest("[data-key]");
    if (!el || !(app.tab === "play" || (app.tab === "analyse" && app.analysisSource === "game"))) return;
    const moves = (app.current.byKey || {})[el.dataset.key] || [];
    const keys = new Set([el.dataset.key]);
    moves.forEach(m => board().moveTargets(m, app.current.view, app.current.seat).forEach(k => keys.add(k)));
    highlight(moves.length ? [...keys] : []);
  });
}

async function start() {
  wire();
  try { await loadKinds(); } catch (e) { showError(e.message); return; }
  const q = new URLSearchParams(window.location.search);
  // kind=goofspiel picks the game (default: the registry's default); board=generic the generic board
  const kind = app.kinds[q.get("kind")] ? q.get("kind") : app.defaultKind;
  app.generic = q.get("board") === "generic";
  $("#generic-board").checked = app.generic;
  const players = Number(q.get("players")) || 2;
  // seats=human;ismcts:time=2,threads=1 (";" between seats, as bot specs use ","); "," alone also works
  // for simple specs: seats=human,random
  const seatsText = q.get("seats");
  const specs = seatsText ? seatsText.split(seatsText.includes(";") ? ";" : ",") : null;
  if (q.get("seed") !== null) $("#seed").value = q.get("seed");
  // options={"side":"B"}: the game's options (a data file's contents never travel in a URL)
  let options = {};
  try { options = q.get("options") ? JSON.parse(q.get("options")) : {}; } catch (e) { showError(`options in the URL: not JSON (${e.message})`); }
  chooseKind(kind, q.get("players") ? players : 0, specs, options);
  switchTab(q.get("tab") || "play");
  const count = Number($("#players").value);
  const seed = q.get("seed") !== null && q.get("seed") !== "" ? Number(q.get("seed")) : null;   // none: a secret deal
  if (q.get("game")) reopenGame(q.get("game"), q.get("seat"), kind, count, seed, specs, options);
  else if (q.get("seats")) newGame(kind, count, seed, specs, options);
  window.buranoReady = true;
}

// For tests and bug reports: the view the board shows now (what this page received), and more.
window.buranoState = () => app.current.view ? JSON.parse(JSON.stringify(app.current.view)) : null;
window.buranoPage = () => ({tab: app.tab, seat: app.current.seat, legal: app.current.legal.slice(),
                            kind: app.kind, board: app.current.kind ? (board().generic ? "generic" : app.current.kind) : null,
                            game: app.game && {id: app.game.game, kind: app.game.kind, version: app.game.version, over: app.game.over, thinking: app.game.thinking, to_move: app.game.to_move,
                                   legal: app.game.legal, legal_words: app.game.legal_words, notes: app.game.notes},
                            analysis: app.analysis && {id: app.analysis.id, done: app.analysis.done, result: app.analysis.result, reports: app.analysis.reports || 0},
                            editor: app.editor.position, editorValid: !!app.editor.checked,
                            replay: app.replay && {id: app.replay.id, ply: app.replay.ply, plies: app.replay.plies},
                            marked: $$("#board .mark[data-key]").map(el => el.dataset.key)});
start();
