// Walking in Burano's board module: the table drawn as SVG from one seat's view (a position dict whose
// other seats' pooled cards read "L2?" in hands and null under the decks: nothing hidden reaches it).
// Pure functions: renderBoard(view, opts) -> markup; moveTargets(move, view, seat) -> element keys (the
// first is where the move is clicked: a take on its first card in the market, a placement or a return
// on the card in hand, then the house or deck it goes to; a visit on the character's stack; `end` on
// the seat's end button); changedKeys(changes, view) -> the elements the last moves touched;
// statusLine(view). Registered as window.BoardModules["walking-in-burano"] (spec.py names this file)
// and, for tests, window.WalkingInBuranoBoard.
//
// The blocks: the table (the placeholder-data caption, the market of 3 rows x N columns with each
// deck's count and its returned cards, the character stacks, the discard) and one street per seat
// (coins, tokens, hand, up to 5 houses of 3 floors with scaffolds and characters, the new-house ends).
// Each SVG's viewBox is its block in board units and the page never draws a block below 1 px a unit,
// so the smallest text (12 units) reads at >= 12 px.
(function () {
"use strict";

// The built-in card data (a copy of burano_ai/games/walking_in_burano/data/placeholder.json's values,
// checked equal by tests/web/test_walking_in_burano_web.py); a position with its own data carries it.
// cards[id] = [colour, passersby, plants, flowers, cats, curtain kinds, lanterns, chimneys, closed
// windows, shop type (-1: none), shop VP].
const DEFAULT_DATA = {"placeholder":true,"colours":["pink","green","blue","yellow","orange","purple"],"curtain_kinds":["a","b"],"cards":[[0,3,0,1,0,[],0,0,0,0,3],[0,1,1,1,1,[],0,0,0,3,2],[0,0,3,1,0,[],0,0,0,-1,0],[0,2,1,1,0,[0],0,0,0,-1,0],[1,3,0,1,0,[],0,0,0,1,3],[1,1,1,1,1,[],0,0,0,4,2],[1,0,3,1,0,[],0,0,0,-1,0],[1,2,1,1,0,[1],0,0,0,-1,0],[2,3,0,1,0,[],0,0,0,2,3],[2,1,1,1,1,[],0,0,0,5,2],[2,0,3,1,0,[],0,0,0,-1,0],[2,2,1,1,0,[0],0,0,0,-1,0],[3,3,0,1,0,[],0,0,0,3,3],[3,1,1,1,1,[],0,0,0,0,2],[3,0,3,1,0,[],0,0,0,-1,0],[3,2,1,1,0,[1],0,0,0,-1,0],[4,3,0,1,0,[],0,0,0,4,3],[4,1,1,1,1,[],0,0,0,1,2],[4,0,3,1,0,[],0,0,0,-1,0],[4,2,1,1,0,[0],0,0,0,-1,0],[5,3,0,1,0,[],0,0,0,5,3],[5,1,1,1,1,[],0,0,0,2,2],[5,0,3,1,0,[],0,0,0,-1,0],[5,2,1,1,0,[1],0,0,0,-1,0],[0,0,0,1,0,[1],1,0,0,-1,0],[0,0,0,4,1,[],0,0,2,-1,0],[0,0,3,0,0,[],1,0,1,-1,0],[0,0,1,2,1,[],0,0,0,-1,0],[1,0,0,1,0,[0],1,0,0,-1,0],[1,0,0,4,1,[],0,0,2,-1,0],[1,0,3,0,0,[],1,0,1,-1,0],[1,0,1,2,1,[],0,0,0,-1,0],[2,0,0,1,0,[1],1,0,0,-1,0],[2,0,0,4,1,[],0,0,2,-1,0],[2,0,3,0,0,[],1,0,1,-1,0],[2,0,1,2,1,[],0,0,0,-1,0],[3,0,0,1,0,[0],1,0,0,-1,0],[3,0,0,4,1,[],0,0,2,-1,0],[3,0,3,0,0,[],1,0,1,-1,0],[3,0,1,2,1,[],0,0,0,-1,0],[4,0,0,1,0,[1],1,0,0,-1,0],[4,0,0,4,1,[],0,0,2,-1,0],[4,0,3,0,0,[],1,0,1,-1,0],[4,0,1,2,1,[],0,0,0,-1,0],[5,0,0,1,0,[0],1,0,0,-1,0],[5,0,0,4,1,[],0,0,2,-1,0],[5,0,3,0,0,[],1,0,1,-1,0],[5,0,1,2,1,[],0,0,0,-1,0],[0,0,1,0,0,[0],0,1,0,-1,0],[0,0,0,2,1,[],0,1,1,-1,0],[0,0,3,0,0,[],0,0,1,-1,0],[0,0,1,3,0,[],0,0,0,-1,0],[1,0,1,0,0,[1],0,1,0,-1,0],[1,0,0,2,1,[],0,1,1,-1,0],[1,0,3,0,0,[],0,0,1,-1,0],[1,0,1,3,0,[],0,0,0,-1,0],[2,0,1,0,0,[0],0,1,0,-1,0],[2,0,0,2,1,[],0,1,1,-1,0],[2,0,3,0,0,[],0,0,1,-1,0],[2,0,1,3,0,[],0,0,0,-1,0],[3,0,1,0,0,[1],0,1,0,-1,0],[3,0,0,2,1,[],0,1,1,-1,0],[3,0,3,0,0,[],0,0,1,-1,0],[3,0,1,3,0,[],0,0,0,-1,0],[4,0,1,0,0,[0],0,1,0,-1,0],[4,0,0,2,1,[],0,1,1,-1,0],[4,0,3,0,0,[],0,0,1,-1,0],[4,0,1,3,0,[],0,0,0,-1,0],[5,0,1,0,0,[1],0,1,0,-1,0],[5,0,0,2,1,[],0,1,1,-1,0],[5,0,3,0,0,[],0,0,1,-1,0],[5,0,1,3,0,[],0,0,0,-1,0]]};
const PLACEHOLDER_CAPTION = [
  "PLACEHOLDER DATA: the 72 floor cards are the stand-in deck PD-1 (WD-1, WD-3): the real card",
  "faces are lost pictures. Symbols, shops and curtain kinds are not the published game's.",
];
const FILL = {pink: "#f4a6c8", green: "#9fd39a", blue: "#9cc0ec", yellow: "#f5e08a", orange: "#f7b97a",
              purple: "#c9a6e8"};
const SEAT_FILL = ["#1f4fbf", "#c8202c", "#1d8a3a", "#555555"];
const LETTERS = "ABCD";
const CHARACTERS = ["woman", "man", "girl", "boy", "mayor", "police", "santa", "shopowner", "seamstress", "florist", "gardener"];
const PER_LEVEL = 24;

function esc(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"); }
function txt(x, y, s, size, extra) { return `<text x="${x}" y="${y}" font-size="${size || 13}" ${extra || ""}>${esc(s)}</text>`; }
function keyAttr(key) { return key ? ` data-key="${esc(key)}"` : ""; }
function block(name, w, h, grow, body) {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="board-block wib" data-block="${name}" viewBox="0 0 ${w} ${h}" ` +
         `style="--w: ${w}; --h: ${h}; --grow: ${grow}" preserveAspectRatio="xMidYMin meet">` +
         `<rect x="0" y="0" width="${w}" height="${h}" rx="8" fill="#f7f3ea" stroke="#b9ad94"/>${body}<g class="overlay"></g></svg>`;
}
const levelOf = (c) => Math.floor(c / PER_LEVEL) + 1;

// The card data of a view: its own (a corrected file) or the built-in placeholder.
function dataOf(v) {
  const d = v && v.data;
  if (!d) return DEFAULT_DATA;
  const val = (k) => (d[k] && d[k].value !== undefined ? d[k].value : d[k]);
  const cards = (val("cards") || []).map(c => [c.colour, c.passersby, c.plants, c.flowers, c.cats, c.curtains || [],
    c.lanterns, c.chimneys, c.closed_windows, c.shop ? c.shop.type : -1, c.shop ? c.shop.vp : 0]);
  return {placeholder: !!d.placeholder, colours: val("colours"), curtain_kinds: val("curtain_kinds"), cards};
}
function cardFill(data, c) { return FILL[(data.colours || [])[data.cards[c][0]]] || "#ddd"; }
// The symbols of a card in two short lines: W passers-by, P plants, F flowers; C cats, K curtains (kinds),
// L lanterns, H chimneys, X closed windows, $ shop (type/VP).
function symbolLines(data, c) {
  const [, w, p, f, cat, k, l, h, x, st, sv] = data.cards[c];
  const a = [], b = [];
  if (w) a.push(`W${w}`); if (p) a.push(`P${p}`); if (f) a.push(`F${f}`);
  if (cat) b.push(`C${cat}`); if (k.length) b.push("K" + k.map(i => "ab"[i] || i).join("")); if (l) b.push(`L${l}`); if (h) b.push(`H${h}`);
  if (x) b.push(`X${x}`); if (st >= 0) b.push(`$${st}/${sv}`);
  return [a.join(" "), b.join(" ")];
}
function cardTitle(data, c) {
  const [col] = data.cards[c];
  return `card ${c}: L${levelOf(c)} ${(data.colours || [])[col] || col} ${symbolLines(data, c).filter(Boolean).join(" ")}`;
}
// One card face, w x h at (x, y): its id top left, two lines of symbols (the first beside the id on a
// market card, under it on a narrow card of a hand or a street: `tall`, 48 units high).
function card(data, c, x, y, w, h, key, tall) {
  const [top, bottom] = symbolLines(data, c);
  const first = tall ? txt(x + 4, y + 28, top, 12) : txt(x + 10 + 7 * String(c).length, y + 14, top, 12);
  return `<g class="wib-card"${keyAttr(key)}><title>${esc(cardTitle(data, c))}</title>` +
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="4" fill="${cardFill(data, c)}" stroke="#4a4234"/>` +
    txt(x + 4, y + 14, `${c}`, 12, 'font-weight="bold"') + first +
    (bottom ? txt(x + 4, y + h - 5, bottom, 12) : "") + "</g>";
}
function cardBack(level, x, y, w, h, key, label) {
  return `<g class="wib-card"${keyAttr(key)}><title>a hidden L${level} card</title>` +
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="4" fill="#8a8f99" stroke="#3a3f47"/>` +
    txt(x + w / 2, y + h / 2 + 5, label || `L${level} ?`, 13, 'text-anchor="middle" fill="#fff" font-weight="bold"') + "</g>";
}

// -- moves -----------------------------------------------------------------------------------------
// `take 3 L1-L2`, `take none`, `place 17 h2|left|right`, `end`, `visit mayor`, `return 40` (rules.action_to_str).
function moverLetter(v, seat) {
  if (v && v.to_move) return v.to_move;
  return typeof seat === "number" ? LETTERS[seat] : (seat || "A");
}
function pendingHouse(v, L) {
  const s = v && v.seats ? v.seats[LETTERS.indexOf(L)] : null;
  const j = s ? s.street.findIndex(h => h.pending) : -1;
  return j;
}
function moveTargets(move, v, seat) {
  const m = String(move).trim();
  const L = moverLetter(v, seat);
  let t = /^take (\d) L(\d)(?:-L(\d))?$/.exec(m);
  if (t) {
    const j = Number(t[1]) - 1, lo = Number(t[2]), hi = Number(t[3] || t[2]);
    const pres = [1, 2, 3].filter(lv => v && v.market && v.market[lv - 1][j] !== null && v.market[lv - 1][j] !== undefined);
    const first = pres.length && lo === pres[0] ? lo : hi;
    const keys = [`mk:${first}:${j}`];
    pres.filter(lv => lv >= lo && lv <= hi && lv !== first).forEach(lv => keys.push(`mk:${lv}:${j}`));
    return keys;
  }
  if (m === "take none") return ["market"];
  t = /^place (\d+) (h(\d)|left|right)$/.exec(m);
  if (t) return [`hand:${L}:${t[1]}`, t[3] ? `house:${L}:${Number(t[3]) - 1}` : `new:${L}:${t[2]}`];
  if (m === "end") return [`end:${L}`];
  t = /^visit (\w+)$/.exec(m);
  if (t) { const j = pendingHouse(v, L); return [`char:${t[1]}`].concat(j >= 0 ? [`house:${L}:${j}`] : []); }
  t = /^return (\d+)$/.exec(m);
  if (t) return [`hand:${L}:${t[1]}`, `deck:${levelOf(Number(t[1]))}`];
  return [];
}

// -- the table -------------------------------------------------------------------------------------
// What the letters on a card mean (issue 34: the symbols had no legend), under the market.
const SYMBOL_LEGEND = "on a card: W passer-by  P plant  F flower  C cat  K curtain (kind a/b)  L lantern  " +
                      "H chimney  X closed window  $ shop (type/VP)";
const TABLE_W = 880, TABLE_H = 350, MK_X = 150, MK_Y = 84, MK_W = 104, MK_H = 50, MK_DX = 112, MK_DY = 58;
function drawTable(v, data) {
  let s = `<g data-region="table" data-box="0,0,${TABLE_W},${TABLE_H}">`;
  s += txt(12, 22, `Walking in Burano, ${v.players} players`, 17, 'font-weight="bold"');
  s += `<g${keyAttr("status")}>` + txt(TABLE_W - 12, 22, statusLine(v), 14, 'text-anchor="end"') + "</g>";
  if (data.placeholder) {
    s += `<g class="wib-caption" data-key="caption"><rect x="8" y="30" width="${TABLE_W - 16}" height="38" rx="4" fill="#fff1c2" stroke="#c79a00"/>`;
    PLACEHOLDER_CAPTION.forEach((line, i) => { s += txt(16, 45 + i * 16, line, 12.5); });
    s += "</g>";
  }
  const N = v.players + 1;
  // the market: the L3 row on top, L1 at the bottom; each deck's size and its returned cards at the left
  [3, 2, 1].forEach((lv, row) => {
    const y = MK_Y + row * MK_DY, deck = (v.decks || [])[lv - 1] || {shuffled: 0, under: []};
    const under = deck.under.map(e => `${e.by}:${e.card === null ? "?" : e.card}`).join(" ");
    s += `<g${keyAttr(`deck:${lv}`)}><title>${esc(`L${lv} deck: ${deck.shuffled} shuffled; returned under it: ${under || "none"}`)}</title>` +
         `<rect x="8" y="${y}" width="${MK_X - 16}" height="${MK_H}" rx="4" fill="#e7dfcc" stroke="#8a7f6a"/>` +
         txt(14, y + 18, `L${lv} deck ${deck.shuffled + deck.under.length}`, 13, 'font-weight="bold"') +
         txt(14, y + 38, deck.under.length ? `+${deck.under.length} under` : "", 12) + "</g>";
    for (let j = 0; j < N; j++) {
      const c = v.market[lv - 1][j], x = MK_X + j * MK_DX;
      if (c === null) s += `<rect x="${x}" y="${y}" width="${MK_W}" height="${MK_H}" rx="4" fill="none" stroke="#b9ad94" stroke-dasharray="4 3"/>`;
      else s += card(data, c, x, y, MK_W, MK_H, `mk:${lv}:${j}`);
    }
  });
  for (let j = 0; j < N; j++) s += txt(MK_X + j * MK_DX + MK_W / 2, MK_Y - 6, `column ${j + 1}`, 12, 'text-anchor="middle" fill="#666"');
  const by = MK_Y + 3 * MK_DY + 4;
  s += `<g class="wib-button"${keyAttr("market")}><rect x="${MK_X}" y="${by}" width="120" height="26" rx="5" fill="#fff" stroke="#6d6350"/>` +
       txt(MK_X + 60, by + 18, "take none", 13, 'text-anchor="middle"') + "</g>";
  const discard = (v.discard || []).join(" ");
  s += `<g${keyAttr("discard")}>` + txt(MK_X + 134, by + 18, `discard: ${discard || "none"}`.slice(0, 60), 12) + "</g>";
  // the character stacks
  const cx = MK_X + 5 * MK_DX + 8;
  s += txt(cx, MK_Y - 6, "characters left", 12, 'fill="#666"');
  CHARACTERS.forEach((name, i) => {
    const y = MK_Y + i * 21, n = (v.characters || {})[name] || 0;
    s += `<g class="wib-char"${keyAttr(`char:${name}`)}><rect x="${cx}" y="${y}" width="${TABLE_W - cx - 10}" height="19" rx="3" fill="${i < 4 ? "#e8f1fb" : "#f6ecdf"}" stroke="#8a7f6a"/>` +
         txt(cx + 6, y + 14, `${name}${i < 4 ? " (tourist)" : ""}`, 12) + txt(TABLE_W - 16, y + 14, `${n}`, 12, 'text-anchor="end" font-weight="bold"') + "</g>";
  });
  const first = v.first_player ? `first player: ${v.first_player}` : "first player: not drawn yet";
  s += `<g${keyAttr("first")}>` + txt(12, TABLE_H - 32, first + (v.last_round ? " - LAST ROUND" : ""), 13) + "</g>";
  s += `<g class="wib-legend"${keyAttr("legend")}>` + txt(12, TABLE_H - 10, SYMBOL_LEGEND, 12.5, 'fill="#333"') + "</g>";
  return s + "</g>";
}

// -- a street --------------------------------------------------------------------------------------
// 440 units wide, as Azul's palaces: at 900 px (892 px of board) two streets stand side by side. Cards in
// a hand or a house are narrow and tall (id, then two lines of symbols), so that six cards in hand and
// five houses with a new-house end at each side fit.
const SEAT_W = 440, SEAT_H = 362, HOUSE_W = 80, END_W = 40, FLOOR_H = 52, STREET_X = 12, STREET_Y = 128;
const HAND_W = 64, HAND_DX = 68, CARD_H = 48;
function drawSeat(v, p, data, opts) {
  const seat = v.seats[p], L = LETTERS[p];
  const you = opts.seat === p || v.view === L;
  let s = `<g data-region="seat-${L}" data-box="0,0,${SEAT_W},${SEAT_H}">`;
  s += `<rect x="4" y="4" width="${SEAT_W - 8}" height="${SEAT_H - 8}" rx="8" fill="none" stroke="${SEAT_FILL[p]}" stroke-width="${v.to_move === L ? 5 : 2}"/>`;
  const name = (opts.seatNames && opts.seatNames[p]) || "";
  s += txt(14, 26, `${L}${you ? " (you)" : ""}${name ? " " + name : ""}${v.to_move === L ? " - to move" : ""}`.slice(0, 26), 15, `font-weight="bold" fill="${SEAT_FILL[p]}"`);
  s += `<g${keyAttr(`coins:${L}`)}>` + txt(272, 26, `coins ${seat.coins}`, 14, 'font-weight="bold"') + "</g>";
  s += `<g${keyAttr(`tokens:${L}`)}>` + txt(352, 26, `tokens ${seat.tokens}`, 14, 'font-weight="bold"') + "</g>";
  // the hand (another seat's pooled cards as backs: their identity is hidden, WD-27)
  s += `<g${keyAttr(`handbox:${L}`)}><rect x="10" y="36" width="${SEAT_W - 20}" height="82" rx="5" fill="#fbf8f0" stroke="#c9bfa8"/>` +
       txt(16, 51, "hand", 12, 'fill="#666"') + (seat.pool.length ? txt(SEAT_W - 16, 51, `pooled: ${seat.pool.join(" ")}`.slice(0, 44), 12, 'text-anchor="end" fill="#666"') : "") + "</g>";
  seat.hand.forEach((c, i) => {
    const x = 16 + i * HAND_DX;
    if (typeof c === "number") s += card(data, c, x, 60, HAND_W, CARD_H, `hand:${L}:${c}`, true);
    else s += cardBack(Number(String(c)[1]), x, 60, HAND_W, CARD_H, `hand:${L}:${c}#${i}`);
  });
  // the street: new-house ends left and right while it has room, the houses (L3 on top), the characters
  const n = seat.street.length, ends = n < 5, width = (ends ? 2 * (END_W + 4) : 0) + n * HOUSE_W;
  const x0 = STREET_X + Math.max(0, (SEAT_W - 24 - width) / 2), hx = x0 + (ends ? END_W + 4 : 0);
  const endBox = (x, key, label) => `<g class="wib-end"${keyAttr(key)}><rect x="${x}" y="${STREET_Y}" width="${END_W}" height="${3 * FLOOR_H}" rx="5" fill="#fff" stroke="#8a7f6a" stroke-dasharray="5 3"/>` +
    txt(x + END_W / 2, STREET_Y + 3 * FLOOR_H / 2 - 4, "new", 12, 'text-anchor="middle" fill="#666"') +
    txt(x + END_W / 2, STREET_Y + 3 * FLOOR_H / 2 + 12, label, 12, 'text-anchor="middle" fill="#666"') + "</g>";
  if (ends) s += endBox(x0, `new:${L}:left`, "left");
  seat.street.forEach((h, j) => {
    const x = hx + j * HOUSE_W;
    s += `<g class="wib-house"${keyAttr(`house:${L}:${j}`)}><rect x="${x}" y="${STREET_Y - 2}" width="${HOUSE_W - 4}" height="${3 * FLOOR_H + 28}" rx="5" fill="${h.pending ? "#fff4c8" : "#efe9dc"}" stroke="#8a7f6a"/>`;
    [3, 2, 1].forEach((lv, row) => {
      const f = h.floors[lv - 1], y = STREET_Y + row * FLOOR_H;
      if (f === "S") s += `<rect x="${x + 3}" y="${y + 2}" width="${HOUSE_W - 10}" height="${FLOOR_H - 4}" rx="3" fill="#fff" stroke="#777" stroke-dasharray="2 2"/>` + txt(x + HOUSE_W / 2 - 2, y + FLOOR_H / 2 + 5, "scaffold", 12, 'text-anchor="middle" fill="#555"');
      else if (f !== null) s += card(data, f, x + 3, y + 2, HOUSE_W - 10, FLOOR_H - 4, null, true);
    });
    const who = h.character ? h.character : (h.pending ? "waiting" : "");
    s += txt(x + HOUSE_W / 2 - 2, STREET_Y + 3 * FLOOR_H + 20, `${j + 1}${who ? " " + who : ""}`, 12, 'text-anchor="middle" font-weight="bold"') + "</g>";
  });
  if (ends) s += endBox(hx + n * HOUSE_W + 4, `new:${L}:right`, "right");
  const ey = STREET_Y + 3 * FLOOR_H + 40;
  s += `<g class="wib-button"${keyAttr(`end:${L}`)}><rect x="${SEAT_W - 150}" y="${ey}" width="136" height="26" rx="5" fill="#fff" stroke="#6d6350"/>` +
       txt(SEAT_W - 82, ey + 18, "end building", 13, 'text-anchor="middle"') + "</g>";
  s += txt(14, ey + 18, `placed this turn: ${v.to_move === L ? v.placed : 0}${ends ? "" : " - street full"}`, 12, 'fill="#666"');
  return s + "</g>";
}

// -- the whole board -------------------------------------------------------------------------------
function renderBoard(v, opts) {
  opts = opts || {};
  const data = dataOf(v);
  let s = `<div class="board-blocks" id="board-svg">`;
  s += block("table", TABLE_W, TABLE_H, 1, drawTable(v, data));
  (v.seats || []).forEach((_, p) => { s += block("seat-" + LETTERS[p], SEAT_W, SEAT_H, 1, drawSeat(v, p, data, opts)); });
  return s + "</div>";
}

function statusLine(v) {
  if (!v) return "";
  if (v.phase === "over") return "game over";
  if (v.phase === "deal" || v.phase === "first") return "setup";
  if (v.phase === "refill") return `refill after round ${v.round}`;
  const doing = {acquire: "take cards", build: "build", visit: "choose a character", "return": "return cards"}[v.phase] || v.phase;
  return `round ${v.round}${v.last_round ? " (last)" : ""}, ${v.to_move} to ${doing}`;
}

// -- what changed: the last-move marks -------------------------------------------------------------
// `changes`: [path, before, after] leaves as the server's view_changes writes them.
function changedKeys(changes, v) {
  const keys = new Set();
  const add = (k) => keys.add(k);
  for (const [path, before, after] of changes || []) {
    const [head, a, b, c] = path;
    if (head === "market") {
      (after || []).forEach((row, r) => row.forEach((x, j) => { if (((before || [])[r] || [])[j] !== x) add(`mk:${r + 1}:${j}`); }));
    } else if (head === "decks") {
      if (typeof a === "number") add(`deck:${a + 1}`); else [1, 2, 3].forEach(lv => add(`deck:${lv}`));
    } else if (head === "discard") add("discard");
    else if (head === "characters") { if (a) add(`char:${a}`); else CHARACTERS.forEach(n => { if ((before || {})[n] !== (after || {})[n]) add(`char:${n}`); }); }
    else if (head === "first_player" || head === "last_round") add("first");
    else if (head === "round" || head === "phase" || head === "to_move") add("status");
    else if (head === "seats" && typeof a === "number") {
      const L = LETTERS[a];
      if (b === "coins") add(`coins:${L}`);
      else if (b === "tokens") add(`tokens:${L}`);
      else if (b === "hand" || b === "pool") add(`handbox:${L}`);
      else if (b === "street") {
        if (typeof c === "number") add(`house:${L}:${c}`);
        else (after || []).forEach((h, j) => { if (JSON.stringify(h) !== JSON.stringify((before || [])[j])) add(`house:${L}:${j}`); });
      }
    }
  }
  return [...keys];
}

window.WalkingInBuranoBoard = {renderBoard, moveTargets, changedKeys, statusLine, DEFAULT_DATA, PLACEHOLDER_CAPTION};
(window.BoardModules = window.BoardModules || {})["walking-in-burano"] = window.WalkingInBuranoBoard;
})();
