// Venice 2099's board module: the city drawn as SVG from one seat's view (a `venice-2099-position/1`
// dict whose other hands and set-aside pile are null: the page never receives them).
// Pure functions: renderBoard(view, opts) -> markup; moveTargets(move, view, seat) -> element keys (the
// first is where the move is clicked: a square for a placement, a move's destination, a purchase and a
// rescue; a card of the hand for its play; the pass button for "no move", "no buy", "no rescue");
// changedKeys(changes, view) -> the elements the last moves touched; statusLine(view). Registered as
// window.BoardModules["venice-2099"] (burano_ai/games/venice_2099/spec.py names this file) and, for tests,
// window.Venice2099Board.
//
// Two blocks: the city (the N x N grid: districts in their colour with their value, water where a
// district sank, platforms; the figures in their seat's colour; the coins paid onto each district) and
// the table (the pass button, every seat's coins, treasures, gondola cards and hand, the viewer's
// cards to play, the supply and the cards played so far). Each SVG's viewBox is its block in board
// units; the smallest text is 12 units.
(function () {
"use strict";

const COLOURS = [["K", "black", "#3b3b3b"], ["P", "purple", "#8e5cc7"], ["G", "green", "#4f9d4a"],
                 ["T", "turquoise", "#2fb3b0"], ["R", "red", "#d2463c"], ["B", "brown", "#8b5a2b"]];
const SEAT_FILL = ["#1f4fbf", "#e07b00", "#f2f2f2", "#e6c619", "#c9a77c"];   // blue, orange, white, yellow, natural [S-8]
const SEAT_TEXT = ["#fff", "#fff", "#222", "#222", "#222"];
const LETTERS = "ABCDE";
const FILES = "abcdefgh";
const CELL = 64;

function esc(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"); }
// A text's own colour goes in its style: the page's `svg text { fill }` rule beats a fill attribute, which
// drew black districts' numerals dark grey on black (issue 34).
function txt(x, y, s, size, extra) {
  const styled = (extra || "").replace(/\bfill="([^"]*)"/, 'style="fill:$1"');
  return `<text x="${x}" y="${y}" font-size="${size || 13}" ${styled}>${esc(s)}</text>`;
}
// The rank order of the forecast cards' values (§5.4: the lowest is played): 2-8, then X.
const RANK = "2345678X";
function keyAttr(key) { return key ? ` data-key="${esc(key)}"` : ""; }
function block(name, w, h, body) {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="board-block venice" data-block="${name}" viewBox="0 0 ${w} ${h}" ` +
         `style="--w: ${w}; --h: ${h}; --grow: 1" preserveAspectRatio="xMidYMin meet">` +
         `<rect x="0" y="0" width="${w}" height="${h}" rx="8" fill="#f3efe6" stroke="#b9ad94"/>${body}<g class="overlay"></g></svg>`;
}
function colour(letter) { return COLOURS.find(([l]) => l === letter) || [letter, letter, "#999"]; }
function squareName(r, c) { return `${FILES[c]}${r + 1}`; }

// -- moves -----------------------------------------------------------------------------------------
// rules.action_to_str: "place d4", "d4-f6", "gondola d4-f6", "no move", "buy d4", "no buy", "play K3",
// "rescue e5", "no rescue".
function parseMove(move) {
  const t = String(move).trim().toLowerCase();
  let m;
  if ((m = /^place ([a-h][1-8])$/.exec(t))) return {kind: "place", to: m[1]};
  if ((m = /^(gondola )?([a-h][1-8])-([a-h][1-8])$/.exec(t))) return {kind: m[1] ? "gondola" : "move", from: m[2], to: m[3]};
  if ((m = /^buy ([a-h][1-8])$/.exec(t))) return {kind: "buy", at: m[1]};
  if ((m = /^play ([a-z])([2-8x])$/.exec(t))) return {kind: "play", card: m[1].toUpperCase() + m[2].toUpperCase()};
  if ((m = /^rescue ([a-h][1-8])$/.exec(t))) return {kind: "rescue", to: m[1]};
  if (t === "no move" || t === "no buy" || t === "no rescue") return {kind: "pass", text: t};
  return null;
}
function moveTargets(move, v, seat) {
  const m = parseMove(move);
  if (!m) return [];
  if (m.kind === "place" || m.kind === "rescue") return [`sq:${m.to}`];
  if (m.kind === "move") return [`sq:${m.to}`, `sq:${m.from}`];
  if (m.kind === "gondola") return [`sq:${m.to}`, `sq:${m.from}`, `gondolas:${moverLetter(v, seat)}`];
  if (m.kind === "buy") return [`sq:${m.at}`];
  if (m.kind === "play") return [`card:${m.card}`];
  return ["pass"];
}
function moverLetter(v, seat) {
  if (v && v.to_move) return v.to_move;
  return typeof seat === "number" ? LETTERS[seat] : (seat || "A");
}

// -- the city --------------------------------------------------------------------------------------
function figuresBySquare(v) {
  const at = {};
  (v.seats || []).forEach((s, p) => (s.figures || []).forEach((x, f) => { if (x && x !== "lost" && x !== "water") at[x] = [p, f]; }));
  return at;
}
function drawCell(v, r, c, cell, at) {
  const name = squareName(r, c), x = 28 + c * CELL, y = 28 + r * CELL;
  let s = `<g class="vn-square"${keyAttr(`sq:${name}`)}><title>${esc(cellTitle(cell, name))}</title>`;
  if (cell === null || cell === undefined) {
    s += `<rect x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="4" fill="#ddd" stroke="#aaa" stroke-dasharray="4 3"/>`;
  } else if (cell === "==") {
    const held = !!at[name];   // a figure stands in the middle: the word goes above it
    s += `<rect x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="4" fill="#c9ccd1" stroke="#6b7078"/>` +
         (held ? "" : `<path d="M${x + 10} ${y + 22} H${x + CELL - 10} M${x + 10} ${y + 42} H${x + CELL - 10}" stroke="#8a9099" stroke-width="3"/>`) +
         txt(x + CELL / 2, held ? y + 17 : y + 36, "platform", 12, 'text-anchor="middle" fill="#333"');
  } else if (cell[0] === "~") {
    const [, nameC] = colour(cell[1]);
    s += `<rect x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="4" fill="#5d8fc4" stroke="#2d5a8a"/>` +
         `<path d="M${x + 8} ${y + 24} q8 -6 16 0 t16 0 t16 0 M${x + 8} ${y + 40} q8 -6 16 0 t16 0 t16 0" fill="none" stroke="#cfe3f7" stroke-width="2"/>` +
         txt(x + CELL / 2, y + CELL - 8, `${cell.slice(1)} sunk`, 12, `text-anchor="middle" fill="#eef6ff"`) +
         `<desc>${esc(nameC)}</desc>`;
  } else {
    const [, , fill] = colour(cell[0]);
    s += `<rect x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="4" fill="${fill}" fill-opacity="0.28" stroke="${fill}" stroke-width="2"/>` +
         `<circle cx="${x + 15}" cy="${y + 15}" r="11" fill="${fill}" stroke="#222"/>` +
         txt(x + 15, y + 19.5, cell[1], 13, `text-anchor="middle" font-weight="bold" fill="#fff"`);
  }
  const coins = (v.coins_on || {})[name];
  if (coins) {
    s += `<g class="vn-coins"><circle cx="${x + CELL - 14}" cy="${y + 15}" r="11" fill="#f2c230" stroke="#8a6b00"/>` +
         txt(x + CELL - 14, y + 19.5, String(coins), 12, 'text-anchor="middle" font-weight="bold"') + "</g>";
  }
  const who = at[name];
  if (who) {
    const [p] = who;
    s += `<g class="vn-figure"><circle cx="${x + CELL / 2}" cy="${y + CELL / 2 + 6}" r="15" fill="${SEAT_FILL[p]}" stroke="#111" stroke-width="2"/>` +
         txt(x + CELL / 2, y + CELL / 2 + 11, LETTERS[p], 14, `text-anchor="middle" font-weight="bold" fill="${SEAT_TEXT[p]}"`) + "</g>";
  }
  return s + "</g>";
}
function cellTitle(cell, name) {
  if (cell === null || cell === undefined) return `${name}: not laid yet`;
  if (cell === "==") return `${name}: floating platform (never sinks, no buying)`;
  if (cell[0] === "~") return `${name}: water (${colour(cell[1])[1]} ${cell[2]} sank)`;
  return `${name}: ${colour(cell[0])[1]} ${cell[1]}`;
}
function drawCity(v) {
  const N = (v.board || []).length, size = 28 + N * CELL + 12;
  const at = figuresBySquare(v);
  let s = `<g data-region="city">`;
  for (let c = 0; c < N; c++) s += txt(28 + c * CELL + CELL / 2, 20, FILES[c], 12, 'text-anchor="middle" fill="#555"');
  for (let r = 0; r < N; r++) {
    s += txt(14, 28 + r * CELL + CELL / 2 + 4, String(r + 1), 12, 'text-anchor="middle" fill="#555"');
    for (let c = 0; c < N; c++) s += drawCell(v, r, c, v.board[r][c], at);
  }
  return [s + "</g>", size];
}

// -- the table -------------------------------------------------------------------------------------
const TABLE_W = 520;
function passText(v) {
  return {move: "no move", buy: "no buy", rescue: "no rescue"}[v.phase] || null;
}
function drawTable(v, opts) {
  let y = 26;
  let s = `<g data-region="table">`;
  s += txt(14, y, `Venice 2099, ${v.players} players`, 17, 'font-weight="bold"');
  y += 22;
  s += `<g${keyAttr("status")}>` + txt(14, y, statusLine(v), 14) + "</g>";
  y += 14;
  const pass = passText(v);
  if (pass) {
    s += `<g class="vn-pass"${keyAttr("pass")}><title>${esc(pass)}</title><rect x="14" y="${y}" width="140" height="30" rx="6" fill="#fff" stroke="#444" stroke-width="2"/>` +
         txt(84, y + 20, pass, 14, 'text-anchor="middle" font-weight="bold"') + "</g>";
  }
  y += 46;
  (v.seats || []).forEach((seat, p) => {
    const L = LETTERS[p], you = opts.seat === p || v.view === L, active = v.to_move === L;
    const h = seat.hand ? 118 : 84;   // the treasure chips inside the panel; the hand a row of its own
    s += `<g${keyAttr(`seat:${L}`)}><rect x="8" y="${y}" width="${TABLE_W - 16}" height="${h}" rx="8" fill="#fff" stroke="${active ? "#111" : "#bbb"}" stroke-width="${active ? 3 : 1}"/></g>`;   // closed: it held every later seat's panel
    s += `<circle cx="26" cy="${y + 18}" r="10" fill="${SEAT_FILL[p]}" stroke="#111"/>`;
    const name = (opts.seatNames && opts.seatNames[p]) || "";
    s += txt(42, y + 23, `${L}${you ? " (you)" : ""}${name ? " " + name : ""}${active ? " - to move" : ""}`.slice(0, 44), 14, 'font-weight="bold"');
    s += txt(TABLE_W - 20, y + 23, `${seat.coins} coins`, 14, 'text-anchor="end" font-weight="bold"');
    s += `<g${keyAttr(`gondolas:${L}`)}>` + txt(16, y + 44, `gondolas ${seat.gondolas}`, 13) + "</g>";
    const lost = (seat.figures || []).filter(x => x === "lost").length;
    s += txt(120, y + 44, `figures ${(seat.figures || []).filter(x => x && x !== "lost" && x !== "water").length}` +
         (lost ? ` (${lost} lost)` : ""), 13);
    s += txt(260, y + 44, `cards ${seat.hand_size}`, 13);
    let tx = 16;
    const ty = y + 58;
    COLOURS.forEach(([l, , fill]) => {
      const n = (seat.tokens || {})[l] || 0;
      s += `<g${keyAttr(`tokens:${L}:${l}`)}><rect x="${tx}" y="${ty}" width="30" height="18" rx="3" fill="${fill}" fill-opacity="${n ? 1 : 0.25}" stroke="#333"/>` +
           txt(tx + 15, ty + 14, String(n), 12, `text-anchor="middle" font-weight="bold" fill="${n ? "#fff" : "#333"}"`) + "</g>";
      tx += 36;
    });
    if (seat.hand) {        // the viewer's own hand, lowest first (§5.4: the lowest is played), each card clickable
      let cx = 16;
      const hy = ty + 26;
      const hand = [...seat.hand].sort((a, b) => RANK.indexOf(a[1]) - RANK.indexOf(b[1]) || a.localeCompare(b));
      const lowest = hand.length ? RANK.indexOf(hand[0][1]) : -1;
      s += txt(TABLE_W - 20, hy + 20, "lowest first", 12, 'text-anchor="end" fill="#555"');
      hand.forEach(card => {
        const [, cname, fill] = colour(card[0]);
        const next = RANK.indexOf(card[1]) === lowest;
        s += `<g class="vn-card"${keyAttr(`card:${card}`)}><title>${esc(`${cname} ${card[1]}${next ? " (lowest: played next)" : ""}`)}</title>` +
             `<rect x="${cx}" y="${hy}" width="32" height="30" rx="3" fill="${next ? "#fff3c4" : "#fffdf6"}" stroke="${fill}" stroke-width="2.5"/>` +
             txt(cx + 16, hy + 20, card, 12, `text-anchor="middle" font-weight="bold" fill="${fill === "#3b3b3b" ? "#000" : fill}"`) + "</g>";
        cx += 35;
      });
    }
    y += h + 8;
  });
  // the supply and the cards played (newest last)
  if (v.supply) {
    s += `<g${keyAttr("supply")}>` + txt(14, y + 14, "supply " + COLOURS.map(([l]) => `${l}${v.supply[l]}`).join(" "), 13) + "</g>";
  } else {
    s += `<g${keyAttr("supply")}>` + txt(14, y + 14, "supply unlimited", 13) + "</g>";
  }
  if (v.removed_colour) s += txt(TABLE_W - 16, y + 14, `out of the game: ${colour(v.removed_colour)[1]}`, 13, 'text-anchor="end"');
  y += 22;
  const played = (v.played || []).slice(-12).map(([p, card]) => `${p}:${card}`).join(" ");
  s += `<g${keyAttr("played")}>` + txt(14, y + 14, `played ${played || "-"}`, 13) + "</g>";
  return [s + "</g>", y + 28];
}

// -- the whole board -------------------------------------------------------------------------------
function renderBoard(v, opts) {
  opts = opts || {};
  const [city, size] = drawCity(v);
  const [table, height] = drawTable(v, opts);
  return `<div class="board-blocks" id="board-svg">` + block("city", size, size, city) +
         block("table", TABLE_W, height, table) + "</div>";
}

function statusLine(v) {
  if (!v) return "";
  if (v.phase === "over") return "game over";
  if (v.phase === "setup") return "setup";
  if (v.phase === "place") return `placement: ${v.to_move} places a figure`;
  const step = {move: "to move a figure (or not)", buy: "to buy a treasure (or not)", card: "to play a forecast card",
                rescue: "to rescue a figure from the water"}[v.phase];
  return `turn ${v.turn + 1}: ${v.to_move} ${step}`;
}

// -- what changed: the last-move marks -------------------------------------------------------------
// `changes`: [path, before, after] leaves as the server's view_changes writes them.
function changedKeys(changes, v) {
  const keys = new Set();
  const N = (v.board || []).length;
  for (const [path, before, after] of changes || []) {
    const [head, a, b] = path;
    if (head === "board") {
      for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) {
        if (((before || [])[r] || [])[c] !== ((after || [])[r] || [])[c]) keys.add(`sq:${squareName(r, c)}`);
      }
    } else if (head === "coins_on") {
      if (typeof a === "string") keys.add(`sq:${a}`);
      else new Set([...Object.keys(before || {}), ...Object.keys(after || {})]).forEach(sq => {
        if ((before || {})[sq] !== (after || {})[sq]) keys.add(`sq:${sq}`);
      });
    } else if (head === "played") keys.add("played");
    else if (head === "supply") keys.add("supply");
    else if (head === "seats" && typeof a === "number") {
      const L = LETTERS[a];
      if (b === "figures") {
        const was = before || [], now = after || [];
        for (let f = 0; f < Math.max(was.length, now.length); f++) {
          if (was[f] === now[f]) continue;
          [was[f], now[f]].forEach(x => { if (x && x !== "lost" && x !== "water") keys.add(`sq:${x}`); });
        }
      } else if (b === "gondolas") keys.add(`gondolas:${L}`);
      else if (b === "tokens") {
        if (typeof path[3] === "string") keys.add(`tokens:${L}:${path[3]}`);
        else keys.add(`seat:${L}`);
      } else keys.add(`seat:${L}`);
    }
  }
  return [...keys];
}

window.Venice2099Board = {renderBoard, moveTargets, changedKeys, statusLine, parseMove, COLOURS};
(window.BoardModules = window.BoardModules || {})["venice-2099"] = window.Venice2099Board;
})();
