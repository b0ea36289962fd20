// Azul: Stained Glass of Sintra's board module: the table drawn as SVG from one position dict (a seat's
// view; the game has perfect information, so a view is the full position with its `view` field).
// Pure functions: renderBoard(view, opts) -> markup; moveTargets(move, view, seat) -> element keys (the
// first is where the move is clicked: a draft on its pieces, then the strip or the broken-glass track
// it goes to; `reset` on the glazier; `keep X` on that piece); changedKeys(changes, view) -> the
// elements the last moves touched; statusLine(view). Registered as window.BoardModules["azul-sintra"]
// (burano_ai/games/azul_sintra/spec.py names this file) and, for tests, window.AzulSintraBoard.
//
// The blocks: the table (the placeholder-data caption, the round indicator I-VI, the first-player
// token, bag and tower, the factory displays and the centre) and one palace board per seat (8 columns:
// the pattern strip above its two-cell window, the window's value, the glazier above its column; the
// score and the broken-glass track). Each SVG's viewBox is its block in board units and the page never
// draws a block below 1 px a unit, so the smallest text (12 units) reads at >= 12 px.
(function () {
"use strict";

// The built-in component data (a copy of burano_ai/games/azul_sintra/data/placeholder.json's values,
// checked equal by tests/web/test_azul_web.py); a position with its own data carries it in `data`.
const DEFAULT_DATA = {
  placeholder: true,
  colours: [["P", "pink"], ["O", "orange"], ["Y", "yellow"], ["B", "blue"], ["G", "green"]],
  strips: [["PPPOY", "BBBGG"], ["OOOYB", "GGGPP"], ["YYYBG", "PPPOO"], ["BBBGP", "OOOYY"],
           ["GGGPO", "YYYBB"], ["PPYYO", "BBPPG"], ["OOBBY", "GGOOP"], ["YYGGB", "POBJJ"]],
  window_values: [4, 3, 3, 2, 2, 2, 1, 1],
  ornaments: [[1, 2], [3, 4], [5, 6], [7, 8]],
  track: [0, -1, -2, -4, -6, -8, -11, -14, -18],
};
const PLACEHOLDER_CAPTION = [
  "PLACEHOLDER DATA: the strip patterns, joker faces, window values, broken-glass track and",
  "ornament layout are stand-ins for the lost originals (AD-4..AD-7), not the published game's.",
];
const FILL = {pink: "#ee7fb5", orange: "#f29438", yellow: "#f3d23e", blue: "#4f83d6", green: "#4fae5a",
              red: "#d9443a", white: "#f4f4ee", black: "#333", purple: "#9b6bd1", cyan: "#3fc1c9"};
const SEAT_FILL = ["#1f4fbf", "#c8202c", "#1d8a3a", "#555555"];
const LETTERS = "ABCD";
const ROMAN = ["I", "II", "III", "IV", "V", "VI"];

function esc(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"); }
function txt(x, y, s, size, extra) { return `<text x="${x}" y="${y}" font-size="${size || 13}" ${extra || ""}>${esc(s)}</text>`; }
function keyAttr(key) { return key ? ` data-key="${esc(key)}"` : ""; }
function block(name, w, h, grow, body) {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="board-block azul" data-block="${name}" viewBox="0 0 ${w} ${h}" ` +
         `style="--w: ${w}; --h: ${h}; --grow: ${grow}" preserveAspectRatio="xMidYMin meet">` +
         `<rect x="0" y="0" width="${w}" height="${h}" rx="8" fill="#f7f3ea" stroke="#b9ad94"/>${body}<g class="overlay"></g></svg>`;
}

// The component data of a view: its own (a corrected file) or the built-in placeholder.
function dataOf(v) {
  const d = v && v.data;
  if (!d) return DEFAULT_DATA;
  const val = (k) => (d[k] && d[k].value !== undefined ? d[k].value : d[k]);
  return {placeholder: !!d.placeholder, colours: val("colours"), strips: val("strips"),
          window_values: val("window_values"), ornaments: val("ornaments"), track: val("track")};
}
function colourFill(data, letter) {
  const c = (data.colours || []).find(([l]) => l === letter);
  return c ? (FILL[c[1]] || "#999") : "#999";
}
function colourName(data, letter) {
  const c = (data.colours || []).find(([l]) => l === letter);
  return c ? c[1] : letter;
}
function countsOf(s) { const c = {}; for (const ch of s || "") c[ch] = (c[ch] || 0) + 1; return c; }
function piece(data, x, y, r, letter, extra) {
  return `<rect x="${x - r}" y="${y - r}" width="${2 * r}" height="${2 * r}" rx="${r / 3}" fill="${colourFill(data, letter)}" stroke="#3a3a3a" stroke-width="1.2" ${extra || ""}/>`;
}

// -- moves -----------------------------------------------------------------------------------------
// "F3 P>5", "C O>x", "reset", "keep Y" (rules.action_to_str).
const DRAFT = /^(C|F(\d))\s*([A-Z])\s*>\s*([1-8]|x)$/i;
function parseMove(move) {
  const m = DRAFT.exec(String(move).trim());
  if (m) return {kind: "draft", source: m[1] === "C" ? "C" : "F" + m[2], colour: m[3].toUpperCase(),
                 target: m[4].toLowerCase() === "x" ? "x" : Number(m[4])};
  if (/^reset$/i.test(String(move).trim())) return {kind: "reset"};
  const k = /^keep\s+([A-Z])$/i.exec(String(move).trim());
  if (k) return {kind: "keep", colour: k[1].toUpperCase()};
  return null;
}
function moverLetter(v, seat) {
  if (v && v.to_move) return v.to_move;
  return typeof seat === "number" ? LETTERS[seat] : (seat || "A");
}
function moveTargets(move, v, seat) {
  const m = parseMove(move);
  if (!m) return [];
  const L = moverLetter(v, seat);
  if (m.kind === "draft") return [`src:${m.source}:${m.colour}`, m.target === "x" ? `break:${L}` : `col:${L}:${m.target}`];
  if (m.kind === "reset") return [`glazier:${L}`];
  return [`keep:${L}:${m.colour}`];
}

// -- the table -------------------------------------------------------------------------------------
// 880 and 440 units: at 900 px (892 px of board) the table fits and two palaces stand side by side.
const TABLE_W = 880;
function factoryXY(i, n) {
  const pitch = Math.min(100, (TABLE_W - 20) / n);
  return [10 + pitch * i + pitch / 2, 190];
}
function drawGroups(data, letters, cx, cy, keyPrefix, perRow) {
  // the pieces of a display grouped by colour: one clickable group per colour (its count below)
  let s = "";
  const groups = Object.entries(countsOf(letters));
  const rows = Math.ceil(groups.length / perRow);
  groups.forEach(([c, n], gi) => {
    const inRow = Math.min(groups.length - Math.floor(gi / perRow) * perRow, perRow);
    const gx = cx + (gi % perRow - (inRow - 1) / 2) * 42;
    const gy = cy + (Math.floor(gi / perRow) - (rows - 1) / 2) * 40;
    s += `<g class="az-group"${keyAttr(`${keyPrefix}:${c}`)}><title>${esc(`${n} ${colourName(data, c)}`)}</title>` +
         `<rect x="${gx - 19}" y="${gy - 19}" width="38" height="38" rx="6" fill="#fffdf6" stroke="#8a7f6a"/>`;
    if (n <= 4) for (let j = 0; j < n; j++) s += piece(data, gx - 7 + (j % 2) * 14, gy - 11 + Math.floor(j / 2) * 12, 5.5, c);
    else s += piece(data, gx, gy - 6, 8, c);
    s += txt(gx, gy + 15, `${n}`, 12, 'text-anchor="middle" font-weight="bold"') + "</g>";
  });
  return s;
}
function drawTable(v, data) {
  const H = 332;
  let s = `<g data-region="table" data-box="0,0,${TABLE_W},${H}">`;
  s += txt(12, 22, `Azul: Stained Glass of Sintra, ${v.players} players, side ${v.side}`, 17, 'font-weight="bold"');
  s += txt(TABLE_W - 12, 22, statusLine(v), 14, 'text-anchor="end"');
  if (data.placeholder) {
    s += `<g class="az-caption" data-key="caption"><rect x="8" y="30" width="${TABLE_W - 16}" height="38" rx="4" fill="#fff1c2" stroke="#c79a00"/>`;
    PLACEHOLDER_CAPTION.forEach((line, i) => { s += txt(16, 45 + i * 16, line, 12.5); });
    s += "</g>";
  }
  // the score board's round indicator I..VI (the top piece of the current round scores the bonus)
  s += txt(12, 94, "round", 13);
  (v.indicator || []).forEach((c, i) => {
    const x = 62 + i * 46, current = v.phase !== "over" && v.phase !== "setup" && i === v.round - 1;
    s += `<g${keyAttr(`ind:${i}`)}><rect x="${x}" y="78" width="40" height="38" rx="4" fill="${current ? "#ffe08a" : "#fff"}" stroke="${current ? "#b07800" : "#8a7f6a"}" stroke-width="${current ? 2.5 : 1}"/>` +
         txt(x + 20, 91, ROMAN[i], 12, 'text-anchor="middle"') + (c ? piece(data, x + 20, 104, 7, c) : "") + "</g>";
  });
  // token, bag, tower
  const token = v.token === "centre" ? "first-player token: in the centre" : `first-player token: ${v.token}`;
  s += `<g${keyAttr("token")}>` + txt(350, 94, token, 13) + "</g>";
  const count = (o) => Object.values(o || {}).reduce((a, b) => a + b, 0);
  const line = (o) => Object.entries(o || {}).map(([c, n]) => `${c}${n}`).join(" ");
  s += `<g${keyAttr("bag")}>` + txt(350, 111, `bag ${count(v.bag)}: ${line(v.bag)}`, 13) + "</g>";
  s += `<g${keyAttr("tower")}>` + txt(620, 111, `tower ${count(v.tower)}: ${line(v.tower)}`, 13) + "</g>";
  // the factory displays
  const n = (v.factories || []).length;
  s += txt(12, 134, "factory displays", 13, 'font-weight="bold"');
  (v.factories || []).forEach((f, i) => {
    const [cx, cy] = factoryXY(i, n);
    s += `<g${keyAttr(`fac:${i + 1}`)}><circle cx="${cx}" cy="${cy}" r="47" fill="#e9e2d0" stroke="#8a7f6a" stroke-width="2"/>` +
         txt(cx - 46, cy - 38, `F${i + 1}`, 12, 'font-weight="bold"') + "</g>";
    s += drawGroups(data, f, cx, cy + 6, `src:F${i + 1}`, 2);
  });
  // the centre
  const tokenHere = v.token === "centre";
  s += `<g${keyAttr("centre")}><rect x="10" y="244" width="${TABLE_W - 20}" height="80" rx="10" fill="#efe7d3" stroke="#8a7f6a" stroke-width="2"/>` +
       txt(20, 262, "centre", 13, 'font-weight="bold"') + "</g>";
  if (tokenHere) s += `<g${keyAttr("token-centre")}><rect x="20" y="272" width="34" height="34" rx="4" fill="#fff" stroke="#222" stroke-width="2"/>${txt(37, 294, "1", 16, 'text-anchor="middle" font-weight="bold"')}</g>`;
  s += drawGroups(data, v.centre || "", 90 + Object.keys(countsOf(v.centre)).length * 21, 288, "src:C", 10);
  return s + "</g>";
}

// -- a palace board --------------------------------------------------------------------------------
const SEAT_W = 440, SEAT_H = 384, COL_W = 53, COL_X = 12, STRIP_Y = 74, CELL_H = 25, WIN_Y = STRIP_Y + 5 * CELL_H + 12;
function stripCells(face, pieces, jokers) {
  // the face's 5 cells with what lies on them: coloured cells first, then jokers (AD-13)
  const cells = [...face].map(ch => ({printed: ch, on: null}));
  for (const ch of pieces || "") { const c = cells.find(x => x.printed === ch && !x.on); if (c) c.on = ch; }
  for (const ch of jokers || "") { const c = cells.find(x => x.printed === "J" && !x.on); if (c) c.on = ch; }
  return cells;
}
function drawSeat(v, p, data, opts) {
  const seat = v.seats[p], L = LETTERS[p];
  const you = opts.seat === p || v.view === L;
  let s = `<g data-region="seat-${L}" data-box="0,0,${SEAT_W},${SEAT_H}">`;
  s += `<rect x="4" y="4" width="${SEAT_W - 8}" height="${SEAT_H - 8}" rx="8" fill="none" stroke="${SEAT_FILL[p]}" stroke-width="${v.to_move === L ? 5 : 2}"/>`;
  const name = (opts.seatNames && opts.seatNames[p]) || "";
  s += txt(14, 24, `${L}${you ? " (you)" : ""}${name ? " " + name : ""}${v.to_move === L ? " - to move" : ""}`.slice(0, 40), 15, `font-weight="bold" fill="${SEAT_FILL[p]}"`);
  s += `<g${keyAttr(`score:${L}`)}><rect x="${SEAT_W - 128}" y="10" width="116" height="22" rx="4" fill="#fff" stroke="#8a7f6a"/>` +
       txt(SEAT_W - 70, 26, `${seat.score} points`, 14, 'text-anchor="middle" font-weight="bold"') + "</g>";
  // the glazier over its column
  const gx = COL_X + (seat.glazier - 1) * COL_W + COL_W / 2;
  s += `<g class="az-glazier"${keyAttr(`glazier:${L}`)}><title>${L}'s glazier (column ${seat.glazier})</title>` +
       `<rect x="${gx - 22}" y="36" width="44" height="22" rx="10" fill="${SEAT_FILL[p]}" stroke="#222"/>` +
       txt(gx, 52, "glazier", 12, 'text-anchor="middle" fill="#fff"') + "</g>";
  const ornaments = v.side === "A" ? (data.ornaments || []) : [];
  seat.columns.forEach((col, k) => {
    const x = COL_X + k * COL_W, n = k + 1;
    s += txt(x + COL_W / 2, STRIP_Y - 4, String(n), 12, 'text-anchor="middle" fill="#666"');
    // the strip (gone once the window is complete)
    const gone = col.window[1] !== null || col.strip === null || col.face === null;
    s += `<g class="az-strip"${keyAttr(`col:${L}:${n}`)}>`;
    if (gone) {
      s += `<rect x="${x + 5}" y="${STRIP_Y}" width="${COL_W - 10}" height="${5 * CELL_H}" rx="4" fill="#ece6d8" stroke="#c9bfa8" stroke-dasharray="4 3"/>`;
      s += txt(x + COL_W / 2, STRIP_Y + 66, col.strip === null ? "?" : "-", 12, 'text-anchor="middle" fill="#888"');
    } else {
      const face = data.strips[col.strip - 1]["ab".indexOf(col.face)];
      s += `<title>strip S${col.strip}, face ${col.face}: ${face}</title>`;
      s += `<rect x="${x + 5}" y="${STRIP_Y}" width="${COL_W - 10}" height="${5 * CELL_H}" rx="4" fill="#fffdf6" stroke="#6d6350"/>`;
      stripCells(face, col.pieces, col.jokers).forEach((c, i) => {
        const cy = STRIP_Y + i * CELL_H + CELL_H / 2, cx = x + COL_W / 2;
        if (c.printed === "J") s += `<rect x="${cx - 17}" y="${cy - 10}" width="34" height="20" rx="3" fill="#fff" stroke="#888" stroke-dasharray="3 2"/>` + (c.on ? "" : txt(cx, cy + 4, "joker", 12, 'text-anchor="middle" fill="#666"'));
        else s += `<rect x="${cx - 17}" y="${cy - 10}" width="34" height="20" rx="3" fill="${colourFill(data, c.printed)}" fill-opacity="0.35" stroke="${colourFill(data, c.printed)}"/>`;
        if (c.on) s += piece(data, cx, cy, 8, c.on);
      });
      s += txt(x + COL_W / 2, STRIP_Y + 5 * CELL_H + 10, `S${col.strip}${col.face}`, 12, 'text-anchor="middle" fill="#666"');
    }
    s += "</g>";
    // the window: a pointed arch of two cells, top and bottom
    const wx = x + 8, ww = COL_W - 16, wy = WIN_Y + 12;
    s += `<g class="az-window"${keyAttr(`win:${L}:${n}`)}><title>window ${n}, worth ${data.window_values[k]}</title>` +
         `<path d="M${wx} ${wy + 14} Q${wx + ww / 2} ${wy - 10} ${wx + ww} ${wy + 14} L${wx + ww} ${wy + 76} L${wx} ${wy + 76} Z" fill="#d8e3ec" stroke="#44505a" stroke-width="1.5"/>`;
    [0, 1].forEach(i => {
      const c = col.window[i], cy = wy + 26 + i * 32;
      s += `<rect x="${wx + 5}" y="${cy - 12}" width="${ww - 10}" height="24" rx="2" fill="${c ? colourFill(data, c) : "#fff"}" stroke="#44505a"/>`;
    });
    s += "</g>";
    s += txt(x + COL_W / 2, wy + 94, `${data.window_values[k]} pt`, 12, 'text-anchor="middle"');
    // the pieces waiting for a keep choice: on the completed strip's column, each colour clickable
    if (v.keep && v.to_move === L && v.keep.column === n) {
      Object.entries(countsOf(v.keep.pieces)).forEach(([c, m], j) => {
        const ky = STRIP_Y + 6 + j * 24;
        s += `<g class="az-keep"${keyAttr(`keep:${L}:${c}`)}><title>keep ${colourName(data, c)} (${m} on the strip)</title>` +
             `<rect x="${x + 2}" y="${ky}" width="${COL_W - 4}" height="22" rx="4" fill="#fff" stroke="#222" stroke-width="2"/>` +
             piece(data, x + 14, ky + 11, 7, c) + txt(x + 34, ky + 16, `keep`, 12, 'text-anchor="middle"') + "</g>";
      });
    }
  });
  // side A's ornaments: a bracket under each window pair
  ornaments.forEach(([a, b]) => {
    const x1 = COL_X + (a - 1) * COL_W + 10, x2 = COL_X + (b - 1) * COL_W + COL_W - 10, y = WIN_Y + 112;
    s += `<path d="M${x1} ${y - 4} L${x1} ${y} L${x2} ${y} L${x2} ${y - 4}" fill="none" stroke="#b07800" stroke-width="2"/>`;
  });
  // the broken-glass track: 9 spaces top to bottom, drawn left to right; the marker on its space
  const ty = WIN_Y + 130, track = data.track || [];
  s += `<g${keyAttr(`break:${L}`)} class="az-track"><rect x="10" y="${ty - 6}" width="${SEAT_W - 20}" height="40" rx="6" fill="#fbe9e7" stroke="#a33"/>` +
       txt(16, ty + 10, "broken", 12) + txt(16, ty + 25, `glass (${seat.hits}x -18)`, 12);
  track.forEach((val, i) => {
    const x = 110 + i * 36, on = seat.track === i;
    s += `<rect x="${x}" y="${ty}" width="33" height="28" rx="4" fill="${on ? SEAT_FILL[p] : "#fff"}" stroke="#a33"/>` +
         txt(x + 16.5, ty + 19, String(val), 13, `text-anchor="middle"${on ? ' fill="#fff" font-weight="bold"' : ""}`);
  });
  s += "</g>";
  return s + "</g>";
}

// -- the whole board -------------------------------------------------------------------------------
function renderBoard(v, opts) {
  opts = opts || {};
  const data = dataOf(v);
  let s = `<div class="board-blocks" id="board-svg">`;
  s += block("table", TABLE_W, 332, 1, drawTable(v, data));
  (v.seats || []).forEach((_, p) => { s += block("seat-" + LETTERS[p], SEAT_W, SEAT_H, 1, drawSeat(v, p, data, opts)); });
  return s + "</div>";
}

function statusLine(v) {
  if (!v) return "";
  if (v.phase === "over") return "game over";
  if (v.phase === "setup" || v.phase === "refill") return `${v.phase} before round ${v.round}`;
  const bonus = (v.indicator || [])[v.round - 1];
  const name = bonus ? colourName(dataOf(v), bonus) : "";   // a word: "bonus colour B" read as seat B
  return `round ${v.round} of 6, ${v.to_move} to ${v.phase === "keep" ? "keep a piece" : "move"}` + (bonus ? `, round bonus ${name}` : "");
}

// -- what changed: the last-move marks -------------------------------------------------------------
// `changes`: [path, before, after] leaves as the server's view_changes writes them.
function changedKeys(changes, v) {
  const keys = new Set();
  const add = (k) => keys.add(k);
  for (const [path, before, after] of changes || []) {
    const [head, a, b, c] = path;
    if (head === "factories") {
      if (typeof a === "number") add(`fac:${a + 1}`);
      else (after || []).forEach((_, i) => { if (((before || [])[i] || "") !== ((after || [])[i] || "")) add(`fac:${i + 1}`); });
    } else if (head === "centre") add("centre");
    else if (head === "indicator") {
      if (typeof a === "number") add(`ind:${a}`);
      else (after || []).forEach((x, i) => { if ((before || [])[i] !== x) add(`ind:${i}`); });
    } else if (head === "token") { add("token"); if (after === "centre") add("token-centre"); }
    else if (head === "bag") add("bag");
    else if (head === "tower") add("tower");
    else if (head === "keep" && after && v.to_move) Object.keys(countsOf(after.pieces)).forEach(col => add(`keep:${v.to_move}:${col}`));
    else if (head === "seats" && typeof a === "number") {
      const L = LETTERS[a];
      if (b === "score") add(`score:${L}`);
      else if (b === "track" || b === "hits") add(`break:${L}`);
      else if (b === "glazier") add(`glazier:${L}`);
      else if (b === "columns") {
        if (typeof c === "number") {
          const field = path[4];
          add(field === "window" ? `win:${L}:${c + 1}` : `col:${L}:${c + 1}`);
        } else (after || []).forEach((_, k) => add(`col:${L}:${k + 1}`));
      }
    }
  }
  return [...keys];
}

const pieceFill = (v, letter) => colourFill(dataOf(v), letter);
window.AzulSintraBoard = {renderBoard, moveTargets, changedKeys, statusLine, parseMove, pieceFill, DEFAULT_DATA, PLACEHOLDER_CAPTION};
(window.BoardModules = window.BoardModules || {})["azul-sintra"] = window.AzulSintraBoard;
})();
