// Burano's board module: the board drawn as SVG from one position dict (a seat's view, or a full position
// in the editor). Pure functions: renderBoard(view, opts) -> SVG markup; moveTargets(move, view, seat) ->
// element keys; statusLine(view) -> the header's text; editor: the position editor's tools. Every element a move can touch carries data-key;
// regions carry data-region and data-box (their box). Registered as window.BoardModules.burano (the
// game's key; burano_ai/games/burano/spec.py names this file) and, for tests, window.BuranoBoard.
"use strict";

const COLOUR_FILL = {pink: "#ee8fbd", blue: "#4f83d6", yellow: "#f3d23e", green: "#5cb85c",
                     orange: "#f29438", white: "#ffffff"};
const SEAT_FILL = ["#1f4fbf", "#c8202c", "#1d8a3a", "#222222"];
const SEAT_NAMES = ["blue", "red", "green", "black"];
const LETTERS = "ABCD";
const RING_PIECES = {
  r1: [["pink", "$"], ["yellow", "F"], ["blue", "$"]],
  r2: [["blue", "$"], ["green", "F"], ["white", "$"]],
  r3: [["green", "$"], ["pink", "F"], ["orange", "$"]],
  r4: [["yellow", "$"], ["orange", "F"], ["white", "$"]],
};
const LAYOUT_COLOURS = {P: "pink", B: "blue", Y: "yellow", G: "green", O: "orange", W: "white"};
const KIND_MARK = {island: "I", workshop: "W", fountains: "F", flat: "="};
const PYRAMID_NAMES = ["b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "m1", "m2", "m3", "m4", "top"];
const SHIP_ROWS = {
  different: "1/2/3/4 cards of different species → 2/4/6/8 VP",
  identical: "1/2/3/4 cards of one species → 2/6/12/20 VP",
  pairs: "1/2/3 pairs of different species → 5/10/15 VP",
  triples: "1/2 triples of different species → 12/24 VP",
};
const SPECIES = ["lobster", "tuna", "squid", "crab", "shrimp", "octopus", "clam", "eel"];

// The board is one SVG per block, laid out by the page's CSS (a flex row that wraps): the main island;
// the sea (the route, then the action board); the town (the workshops, then the displays, decks and
// roof stacks); one panel per seat. Each SVG's viewBox is its block in board units, and the page never
// draws a block smaller than 1 px a unit, so every text (>= 12 units) reads at >= 12 px.
// Region boxes (board units): [x, y, w, h], each inside its block's viewBox.
const CELL = 44;
const REGIONS = {
  island: [0, 0, 424, 448],
  route: [0, 0, 428, 300],
  actions: [0, 306, 428, 100],
  workshop: [0, 0, 380, 236],
  supply: [0, 242, 380, 230],
};
const BLOCKS = {   // block -> [viewBox, flex grow]: the island gets most of the room that is left
  island: [[0, 0, 424, 448], 4],
  sea: [[0, 0, 428, 406], 1],
  town: [[0, 0, 380, 472], 0],
};
// A seat's panel is 440 units wide, as Azul's and Walking in Burano's: at 900 px (892 px of board) two stand
// side by side. Its title, then the VP, coins and privilege chips, the ring beside the pyramid and the cubes,
// the roof tiles, then the facts across the panel.
const PANEL_W = 440, PANEL_MIN_H = 400;
const FACT_CHARS = 58;   // a seat's fact line wraps at this many characters (12-unit text in 416 units)
function panelBox(i, h) { return [0, 0, PANEL_W, h || PANEL_MIN_H]; }

function esc(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"); }
function counts(obj) { if (!obj) return []; if (Array.isArray(obj)) { const c = {}; obj.forEach(n => c[n] = (c[n] || 0) + 1); return Object.entries(c); } return Object.entries(obj).filter(([, n]) => n > 0); }
function countsText(obj) { const e = counts(obj); return e.length ? e.map(([k, n]) => n > 1 ? `${k}×${n}` : k).join(", ") : "–"; }
function total(obj) { return counts(obj).reduce((a, [, n]) => a + n, 0); }
function seatIndex(letter) { return LETTERS.indexOf(letter); }
function txt(x, y, s, cls, extra) { return `<text x="${x}" y="${y}" class="${cls || ""}" ${extra || ""}>${esc(s)}</text>`; }
function keyAttr(key) { return key ? ` data-key="${esc(key)}"` : ""; }
// A colour's fill; white gets a dark outline so that it never reads as an empty place.
function fillOf(c) { return `fill="${COLOUR_FILL[c] || "none"}"${c === "white" ? ' data-white="1"' : ""}`; }
// Words of `text` in lines of at most `width` characters.
function wrap(text, width) {
  const lines = [];
  let line = "";
  for (const word of String(text).split(" ")) {
    if (line && (line + " " + word).length > width) { lines.push(line); line = "  " + word; }
    else line = line ? line + " " + word : word;
  }
  if (line) lines.push(line);
  return lines;
}

// -- hole geometry --------------------------------------------------------------------------------
const IX = REGIONS.island[0] + 22, IY = REGIONS.island[1] + 28;
function holeXY(name) {
  const x = name.charCodeAt(0) - 97, y = parseInt(name.slice(1), 10) - 1;
  return [IX + CELL / 2 + CELL * x, IY + CELL / 2 + CELL * (8 - y)];
}
function holeNames() {
  const out = [];
  for (let y = 8; y >= 0; y--) for (let x = 0; x <= 8; x++) if ((x + y) % 2 === 0) out.push(String.fromCharCode(97 + x) + (y + 1));
  return out;
}

function regionOpen(name, box, extra) {
  const [x, y, w, h] = box;
  return `<g data-region="${name}" data-box="${box.join(",")}" ${extra || ""}><rect class="region-bg" x="${x}" y="${y}" width="${w}" height="${h}" rx="6"/>`;
}

function block(name, box, grow, body) {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="board-block" data-block="${name}" viewBox="${box.join(" ")}" ` +
         `style="--w: ${box[2]}; --h: ${box[3]}; --grow: ${grow}" preserveAspectRatio="xMidYMin meet">${body}</svg>`;
}

// -- the main island ------------------------------------------------------------------------------
function drawIsland(v) {
  const box = REGIONS.island;
  let s = regionOpen("island", box);
  s += txt(box[0] + 8, box[1] + 19, "Main island", "title");
  const cubes = (v.island && v.island.cubes) || {};
  for (let i = 0; i < 9; i++) {
    s += txt(IX + CELL / 2 + CELL * i, IY + 9 * CELL + 14, String.fromCharCode(97 + i), "axis", 'text-anchor="middle"');
    s += txt(box[0] + 6, IY + CELL / 2 + CELL * (8 - i) + 4, String(i + 1), "axis");
  }
  for (const h of holeNames()) {
    const [cx, cy] = holeXY(h);
    const fountain = h === "e5";
    s += `<g class="hole${fountain ? " fountain" : ""}"${keyAttr("hole:" + h)}><title>${h}${(cubes[h] || []).length ? ": " + cubes[h].join(" / ") : ""}</title><rect x="${cx - 18}" y="${cy - 18}" width="36" height="36" rx="4" class="hole-bg"/>`;
    if (fountain) s += `<circle cx="${cx}" cy="${cy}" r="18" class="fountain-ring"/>`;
    const stack = cubes[h] || [];
    stack.forEach((c, lvl) => {
      const size = [30, 20, 10][lvl];
      s += `<rect class="cube" x="${cx - size / 2}" y="${cy - size / 2}" width="${size}" height="${size}" ${fillOf(c)}/>`;
    });
    s += "</g>";
  }
  for (const roof of (v.island && v.island.roofs) || []) s += drawRoof(roof, "roof:" + [...roof.cells].sort().join("-"));
  s += "</g>";
  return s;
}

function drawRoof(roof, key, cls) {
  const [a, b] = roof.cells.map(holeXY);
  const horiz = a[1] === b[1];
  const w = roof.level === 2 ? 8 : 12;
  const fields = roof.fields || ["white", "white"];
  const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
  let s = `<g class="${cls || "roof"}"${keyAttr(key)}>`;
  const seg = (p, q, c) => horiz
    ? `<rect x="${Math.min(p[0], q[0])}" y="${p[1] - w / 2}" width="${Math.abs(q[0] - p[0])}" height="${w}" ${cls ? `fill="${c}"` : fillOf(c)}/>`
    : `<rect x="${p[0] - w / 2}" y="${Math.min(p[1], q[1])}" width="${w}" height="${Math.abs(q[1] - p[1])}" ${cls ? `fill="${c}"` : fillOf(c)}/>`;
  s += cls ? seg(a, mid, "transparent") + seg(mid, b, "transparent") : seg(a, mid, fields[0]) + seg(mid, b, fields[1]);
  if (roof.kind) s += `<title>${esc(roof.kind)} roof ${esc(roof.cells.join("-"))}: ${esc(fields.join("-"))}</title>` +
                      txt(mid[0], mid[1] + 4, KIND_MARK[roof.kind] || "?", "roof-kind", 'text-anchor="middle"');
  return s + "</g>";
}

// -- the route ------------------------------------------------------------------------------------
const NODE_POS = {PortL: [46, 158], I1: [130, 64], I2: [214, 64], I3: [298, 64], PortR: [382, 158],
                  I4: [298, 252], I5: [214, 252], I6: [130, 252]};
const NODE_W = 80, NODE_H = 90;
// The islands the seats' boats start from (a 2-player game has only A and B).
const ISLAND_LETTER = {I1: "A", I3: "B", I4: "C", I6: "D"};

function drawRoute(v) {
  const box = REGIONS.route;
  let s = regionOpen("route", box);
  s += txt(box[0] + 8, box[1] + 19, "Route", "title");
  const order = ["PortL", "I1", "I2", "I3", "PortR", "I4", "I5", "I6"];
  let path = order.map((n, i) => (i ? "L" : "M") + NODE_POS[n][0] + " " + NODE_POS[n][1]).join(" ") + " Z";
  s += `<path d="${path}" class="route-line"/>`;
  const seats = v.seats || [];
  const players = seats.length || v.players || 2;
  for (const node of order) {
    const [cx, cy] = NODE_POS[node];
    const port = node.startsWith("Port");
    const x = cx - NODE_W / 2, y = cy - NODE_H / 2;
    // A port's clickable part is its name strip (its ships are clicked to sell); an island's is all of it.
    s += `<rect x="${x}" y="${y}" width="${NODE_W}" height="${NODE_H}" rx="8" class="node-bg ${port ? "port" : "isle"}"${port ? "" : keyAttr("node:" + node)}/>`;
    if (port) s += `<rect x="${x}" y="${y}" width="${NODE_W}" height="19" rx="6" class="node-strip"${keyAttr("node:" + node)}/>`;
    const home = ISLAND_LETTER[node] && LETTERS.indexOf(ISLAND_LETTER[node]) < players ? ` (${ISLAND_LETTER[node]})` : "";
    s += txt(x + 5, y + 15, node + home, "node-name");
    if (port) {
      const ships = (v.ports && v.ports[node]) || [];
      ships.forEach((ship, i) => {
        s += `<g class="ship"${keyAttr("ship:" + ship)}><title>${esc(ship + ": " + (SHIP_ROWS[ship] || ""))}</title><rect x="${x + 4}" y="${y + 22 + i * 21}" width="${NODE_W - 8}" height="19" rx="3" class="ship-bg"/>${txt(x + 8, y + 36 + i * 21, ship, "small")}</g>`;
      });
    } else {
      const docks = (v.docks && v.docks[node]) || [];
      docks.forEach((c, i) => {
        s += `<rect class="dock"${keyAttr(`dock:${node}:${c}`)} x="${x + 4 + i * 25}" y="${y + 21}" width="22" height="18" rx="2" ${fillOf(c)}/>`;
      });
      seats.forEach((seat, p) => {
        const n = (seat.islands || {})[node] || 0;
        if (n > 0) {
          const wx = x + 11 + p * 19, wy = y + 54;
          s += `<g class="island-worker"${keyAttr(`wk:${node}:${LETTERS[p]}`)}><circle cx="${wx}" cy="${wy}" r="10" fill="${SEAT_FILL[p]}" class="worker"/>${txt(wx, wy + 4, n, "worker-n", 'text-anchor="middle"')}</g>`;
        }
      });
    }
    seats.forEach((seat, p) => {
      if (seat.boat === node) {
        const bx = x + 3 + p * 19, by = y + NODE_H - 8;
        s += `<g class="boat"${keyAttr("boat:" + LETTERS[p])}><path d="M${bx} ${by - 6} h18 l-4 7 h-10 z" fill="${SEAT_FILL[p]}"/>${txt(bx + 9, by - 8, LETTERS[p], "boat-letter", 'text-anchor="middle"')}</g>`;
      }
    });
  }
  return s + "</g>";
}

// -- the action board and the turn ----------------------------------------------------------------
function drawActions(v, opts) {
  const box = REGIONS.actions;
  let s = regionOpen("actions", box);
  const cells = ["fishing", "lace", "earning"];
  cells.forEach((cell, i) => {
    const x = box[0] + 8 + i * 92, y = box[1] + 8;
    s += `<rect x="${x}" y="${y}" width="88" height="42" rx="4" class="cell-bg"/>${txt(x + 4, y + 15, cell, "small")}`;
    ((v.markers || {})[cell] || []).forEach((c, j) => {
      s += `<rect x="${x + 8 + j * 26}" y="${y + 21}" width="20" height="16" rx="3" ${fillOf(c)} class="marker"${keyAttr(`marker:${cell}:${j}`)}/>`;
    });
  });
  s += txt(box[0] + 8, box[1] + 70, statusLine(v), "status-line");
  if (v.actor) s += txt(box[0] + 8, box[1] + 90, `${v.actor} to decide: ${PHASE_WORDS[v.phase] || v.phase}` + (v.context && v.phase === "turn" ? ` (actions so far: ${v.context.moves || 0})` : ""), "small");
  // "end turn" is the `done` move: drawn as a button only when `done` is legal for the viewer
  const legal = opts.legal || [];
  const doneLegal = legal.includes("done");
  const doneX = box[0] + box[2] - 130, doneY = box[1] + 8;
  s += `<g class="done-button${doneLegal ? "" : " inactive"}"${keyAttr("done")}><title>${doneLegal ? "end the turn or the step (done)" : "done is not legal now"}</title><rect x="${doneX}" y="${doneY}" width="120" height="42" rx="6" class="done-bg"/>${txt(doneX + 60, doneY + 26, "end turn", "done-label", 'text-anchor="middle"')}</g>`;
  return s + "</g>";
}

// -- the workshop area ----------------------------------------------------------------------------
function drawWorkshop(v) {
  const box = REGIONS.workshop;
  let s = regionOpen("workshop", box);
  s += txt(box[0] + 8, box[1] + 19, "Workshops", "title");
  const layout = v.workshop_layout || [];
  const owner = {};
  (v.seats || []).forEach((seat, p) => (seat.workshop || []).forEach(sq => owner[sq] = p));
  const size = 48;
  layout.forEach((row, r) => {
    const cells = row.trim().split(/\s+/);
    cells.forEach((cell, c) => {
      const x = box[0] + 10 + c * (size + 1), y = box[1] + 28 + r * (size + 2);
      const sq = `r${r}c${c}`;
      if (cell[0] === ".") { s += `<rect x="${x}" y="${y}" width="${size}" height="${size}" class="sq-empty"/>`; return; }
      const colour = LAYOUT_COLOURS[cell[0]];
      s += `<g class="square"${keyAttr("sq:" + sq)}><title>${sq}: ${colour}${cell.includes("$") ? ", a coin" : ""}</title><rect x="${x}" y="${y}" width="${size}" height="${size}" rx="3" ${fillOf(colour)} class="sq-bg"/>`;
      if (cell.includes("$")) s += txt(x + 4, y + 15, "$", "coin");
      s += txt(x + size - 3, y + size - 4, sq, "sq-name", 'text-anchor="end"');
      if (owner[sq] !== undefined) {
        const p = owner[sq];
        s += `<circle cx="${x + size / 2}" cy="${y + size / 2 - 5}" r="12" fill="${SEAT_FILL[p]}" class="worker"/>${txt(x + size / 2, y + size / 2 - 1, LETTERS[p], "worker-n", 'text-anchor="middle"')}`;
      }
      s += "</g>";
    });
  });
  return s + "</g>";
}

// -- displays, decks and roof stacks --------------------------------------------------------------
function drawSupply(v) {
  const box = REGIONS.supply;
  let s = regionOpen("supply", box);
  const x = box[0] + 8;
  let y = box[1] + 19;
  s += txt(x, y, "Fish display", "title");
  (v.fish_display || []).forEach((sp, i) => {
    s += `<g class="card"${keyAttr("fish:" + sp)}><rect x="${x + i * 86}" y="${y + 8}" width="82" height="26" rx="3" class="fish-card"/>${txt(x + i * 86 + 5, y + 26, sp, "small")}</g>`;
  });
  s += `<g class="card"${keyAttr("fishdeck")}><rect x="${x + 262}" y="${y + 8}" width="96" height="26" rx="3" class="deck"/>${txt(x + 267, y + 26, `deck: ${v.fish_deck_size ?? "?"}`, "small light")}</g>`;
  // two columns of cards: a building's whole name always fits
  const grid = (i) => [x + (i % 2) * 184, y + 8 + Math.floor(i / 2) * 30];
  y += 56;
  s += txt(x, y, "Buildings", "title");
  s += `<g class="card"${keyAttr("blddeck")}><rect x="${x + 100}" y="${y - 16}" width="60" height="22" rx="3" class="deck"/>${txt(x + 106, y, "deck", "small light")}</g>`;
  (v.building_display || []).forEach((b, i) => {
    const [bx, by] = grid(i);
    s += `<g class="card"${keyAttr("bld:" + b)}><title>${esc(b)}</title><rect x="${bx}" y="${by}" width="180" height="26" rx="3" class="bld-card"/>${txt(bx + 5, by + 18, b, "small")}</g>`;
  });
  y += 18 + 30 * Math.max(2, Math.ceil((v.building_display || []).length / 2)) + 10;
  s += txt(x, y, "Roof stacks", "title");
  const used = {island: 0, workshop: 0, fountains: 0, flat: 0};
  ((v.island && v.island.roofs) || []).forEach(r => used[r.kind]++);
  (v.roofs_removed || []).forEach(r => used[r.kind]++);
  (v.seats || []).forEach(seat => (seat.roof_slots || []).forEach(t => { if (t) used[t.kind]++; }));
  ["island", "workshop", "fountains", "flat"].forEach((k, i) => {
    const [kx, ky] = grid(i);
    s += `<g class="card"${keyAttr("kind:" + k)}><title>${k} roof tiles left</title><rect x="${kx}" y="${ky}" width="180" height="26" rx="3" class="stack"/>${txt(kx + 5, ky + 18, `${k}: ${12 - used[k]} left`, "small")}</g>`;
  });
  return s + "</g>";
}

// -- one seat's panel -----------------------------------------------------------------------------
function ringHouses(ring) {
  const houses = [];
  for (let h = 0; h < 12; h++) houses.push(RING_PIECES[ring.pieces[Math.floor(h / 3)]][h % 3]);
  return houses;
}

// The seat's facts as lines (wrapped, never cut short).
function seatFacts(seat) {
  const hand = seat.hand || {};
  const blind = typeof hand.blind === "number" ? `${hand.blind} hidden` : countsText(hand.blind);
  const islands = counts(seat.islands).map(([k, n]) => `${k}×${n}`).join(" ") || "–";
  return [
    `hand: ${countsText(hand.known)} | blind: ${blind}`,
    `sold: ${countsText(seat.sold)}`,
    `buildings: ${(seat.buildings || []).join(", ") || "–"}`,
    `boat ${seat.boat} · islands ${islands} · workshop ${(seat.workshop || []).length}`,
  ].flatMap(line => wrap(line, FACT_CHARS));
}
const FACTS_Y = 324, FACT_LINE = 18;
function panelHeight(seat) { return Math.max(PANEL_MIN_H, FACTS_Y + seatFacts(seat).length * FACT_LINE + 4); }

function drawSeat(v, p, opts) {
  const seat = v.seats[p], L = LETTERS[p];
  const box = panelBox(p, panelHeight(seat));
  const [x0, y0] = box;
  const me = opts.seat === L;
  let s = regionOpen("seat-" + L, box, `class="seat${me ? " me" : ""}${v.actor === L ? " to-move" : ""}"`);
  const who = (opts.seatNames && opts.seatNames[p]) || "";
  s += `<rect x="${x0}" y="${y0}" width="8" height="${box[3]}" fill="${SEAT_FILL[p]}" rx="3"/>`;
  s += `<g data-subregion="title">` + txt(x0 + 14, y0 + 19, `${L} · ${SEAT_NAMES[p]}${me ? " (you)" : ""}${v.first_player === L ? " · 1st" : ""}${v.actor === L ? " ◀" : ""}`, "seat-title") +
       (who ? txt(x0 + 14, y0 + 37, who, "small seat-who") : "") + "</g>";
  // VP, coins and privilege: one chip each (each is marked on its own when it changes)
  const chip = (key, x, w, label, cls) => `<g class="chip ${cls || ""}"${keyAttr(key)}><rect x="${x}" y="${y0 + 44}" width="${w}" height="22" rx="4" class="chip-bg"/>${txt(x + w / 2, y0 + 60, label, "seat-stats", 'text-anchor="middle"')}</g>`;
  s += `<g data-subregion="stats">` + chip("vp:" + L, x0 + 14, 72, `VP ${seat.vp}`) + chip("coins:" + L, x0 + 92, 90, `coins ${seat.coins}`) +
       chip("priv:" + L, x0 + 188, 132, `privilege ${seat.privilege}`, "priv") + "</g>";
  // ring
  const cx = x0 + 88, cy = y0 + 150, R = 62;
  s += `<g data-subregion="ring"${keyAttr("ring:" + L)}><circle cx="${cx}" cy="${cy}" r="${R + 14}" class="ring-bg"/>`;
  const houses = ringHouses(seat.ring);
  for (let sec = 1; sec <= 12; sec++) {
    const h = (seat.ring.offset + sec - 1) % 12;
    const [colour, sym] = houses[h];
    const a = (-90 + (sec - 1) * 30) * Math.PI / 180;
    const hx = cx + R * Math.cos(a), hy = cy + R * Math.sin(a);
    const arrow = sec >= 10;
    s += `<rect x="${hx - 11}" y="${hy - 11}" width="22" height="22" rx="3" ${fillOf(colour)} class="house${arrow ? " arrow" : ""}"/>`;
    if (sec <= seat.ring.workers) s += `<circle cx="${hx}" cy="${hy}" r="7" fill="${SEAT_FILL[p]}" class="worker"/>`;
    else s += txt(hx, hy + 4, sym, "house-sym", 'text-anchor="middle"');
    if (arrow) { const ax = cx + (R - 24) * Math.cos(a), ay = cy + (R - 24) * Math.sin(a); s += `<path d="M${ax} ${ay} L${hx - 10 * Math.cos(a)} ${hy - 10 * Math.sin(a)}" class="arrow-line"/>`; }
  }
  s += txt(cx, cy - 3, `ring ${seat.ring.workers}`, "small", 'text-anchor="middle"') + txt(cx, cy + 13, `off ${10 - seat.ring.workers}`, "small", 'text-anchor="middle"');
  s += "</g>";
  // pyramid
  const px = x0 + 178, py = y0 + 72;
  s += `<g data-subregion="pyramid">` + txt(px, py + 10, "pyramid", "small");
  if (seat.pyramid === null || seat.pyramid === undefined) {
    s += `<rect x="${px}" y="${py + 16}" width="108" height="108" class="hidden-pyr"${keyAttr("pyrhidden:" + L)}/>` + txt(px + 54, py + 58, "secret", "small", 'text-anchor="middle"') +
         txt(px + 54, py + 80, `${seat.placed ?? 0} placed`, "small", 'text-anchor="middle"') + txt(px + 54, py + 100, `${total(seat.cubes)} cubes`, "small", 'text-anchor="middle"');
  } else {
    const cell = 36, bx = px, by = py + 16;
    for (let i = 0; i < 9; i++) {
      const c = seat.pyramid[i], x = bx + (i % 3) * cell, y = by + Math.floor(i / 3) * cell;
      s += `<rect x="${x + 1}" y="${y + 1}" width="${cell - 2}" height="${cell - 2}" class="pyr-cell${c ? "" : " empty"}" ${c ? fillOf(c) : 'fill="none"'}${keyAttr(`pyr:${L}:${PYRAMID_NAMES[i]}`)}/>`;
    }
    for (let i = 0; i < 4; i++) {
      const c = seat.pyramid[9 + i], x = bx + cell / 2 + (i % 2) * cell + 5, y = by + cell / 2 + Math.floor(i / 2) * cell + 5;
      s += `<rect x="${x}" y="${y}" width="${cell - 10}" height="${cell - 10}" class="pyr-cell mid${c ? "" : " empty"}" ${c ? fillOf(c) : 'fill="rgba(255,255,255,0.25)"'}${keyAttr(`pyr:${L}:${PYRAMID_NAMES[9 + i]}`)}/>`;
    }
    const c = seat.pyramid[13];
    s += `<rect x="${bx + cell + 8}" y="${by + cell + 8}" width="${cell - 16}" height="${cell - 16}" class="pyr-cell top${c ? "" : " empty"}" ${c ? fillOf(c) : 'fill="rgba(255,255,255,0.25)"'}${keyAttr(`pyr:${L}:top`)}/>`;
  }
  s += "</g>";
  // preparation area and reserve
  const qx = x0 + 300, qy = y0 + 72;
  s += `<g data-subregion="cubes">` + txt(qx, qy + 10, "prep", "small");
  const prep = [];
  counts(seat.prep).forEach(([c, n]) => { for (let i = 0; i < n; i++) prep.push(c); });
  for (let i = 0; i < 3; i++) {
    const c = prep[i];
    s += `<rect x="${qx + i * 26}" y="${qy + 16}" width="22" height="22" rx="3" class="prep-slot" ${c ? fillOf(c) : 'fill="none"'}${keyAttr(c ? `prep:${L}:${c}` : `prepslot:${L}:${i}`)}/>`;
  }
  s += txt(qx, qy + 58, "reserve", "small");
  const reserve = seat.reserve;
  ["pink", "blue", "yellow", "green", "orange", "white"].forEach((c, i) => {
    const n = reserve ? (reserve[c] || 0) : null;
    const x = qx + (i % 3) * 32, y = qy + 64 + Math.floor(i / 3) * 25;
    s += `<g${keyAttr(`res:${L}:${c}`)} class="res"><rect x="${x}" y="${y}" width="28" height="22" rx="3" ${fillOf(c)} class="res-cube"/>${txt(x + 14, y + 16, n === null ? "?" : n, "small", 'text-anchor="middle"')}</g>`;
  });
  s += "</g>";
  // roof slots: the tile's two fields, its kind below them
  const rx = x0 + 14, ry = y0 + 234;
  s += `<g data-subregion="roofs">` + txt(rx, ry + 10, "roof tiles", "small");
  (seat.roof_slots || []).forEach((t, i) => {
    const x = rx + i * 94, y = ry + 16;
    s += `<g${keyAttr(`slot:${L}:${i + 1}`)} class="slot"><rect x="${x}" y="${y}" width="88" height="48" rx="3" class="slot-bg"/>`;
    if (t) s += `<rect x="${x + 6}" y="${y + 4}" width="38" height="20" class="roof-field" ${fillOf(t.fields[0])}/><rect x="${x + 44}" y="${y + 4}" width="38" height="20" class="roof-field" ${fillOf(t.fields[1])}/>` + txt(x + 44, y + 40, t.kind, "small", 'text-anchor="middle"');
    else s += txt(x + 44, y + 30, "empty", "small muted", 'text-anchor="middle"');
    s += "</g>";
  });
  s += "</g>";
  // text facts
  const lines = seatFacts(seat);
  s += `<g data-subregion="facts"${keyAttr("facts:" + L)}><rect x="${x0 + 10}" y="${y0 + FACTS_Y - 14}" width="${PANEL_W - 16}" height="${lines.length * FACT_LINE + 4}" class="facts-bg"/>`;
  lines.forEach((line, i) => { s += txt(x0 + 14, y0 + FACTS_Y + i * FACT_LINE, line, "fact"); });
  s += "</g>";
  return s + "</g>";
}

// -- the whole board ------------------------------------------------------------------------------
function renderBoard(v, opts) {
  opts = opts || {};
  let s = `<div class="board-blocks" id="board-svg">`;
  const lines = (opts.roofLines || roofLines(opts.legal || [])).map(l => drawRoof({cells: l.split("-"), fields: ["white", "white"], level: 1}, "line:" + l, "roof-line")).join("");
  s += block("island", ...BLOCKS.island, drawIsland(v) + `<g class="overlay">${lines}</g>`);
  s += block("sea", ...BLOCKS.sea, drawRoute(v) + drawActions(v, opts) + `<g class="overlay"></g>`);
  s += block("town", ...BLOCKS.town, drawWorkshop(v) + drawSupply(v) + `<g class="overlay"></g>`);
  (v.seats || []).forEach((seat, p) => {
    s += block("seat-" + LETTERS[p], panelBox(p, panelHeight(seat)), 1, drawSeat(v, p, opts) + `<g class="overlay"></g>`);
  });
  return s + "</div>";
}

// -- what changed: the last-move marks ------------------------------------------------------------
// The element keys a list of view changes touches ([path, before, after], as the server's view_changes
// writes them); `v` is the view drawn (after the changes).
function changedKeys(changes, v) {
  const keys = new Set();
  const add = (k) => keys.add(k);
  const diffList = (a, b) => { const n = Math.max((a || []).length, (b || []).length), out = []; for (let i = 0; i < n; i++) if ((a || [])[i] !== (b || [])[i]) out.push(i); return out; };
  const plus = (a, b) => { const ca = {}; (a || []).forEach(x => ca[x] = (ca[x] || 0) + 1); const out = []; (b || []).forEach(x => { if (ca[x]) ca[x]--; else out.push(x); }); return out; };
  for (const [path, before, after] of changes || []) {
    const [head, a, b, c] = path;
    if (head === "island" && a === "cubes") add(`hole:${b}`);
    else if (head === "island" && a === "roofs") {
      const key = r => [...r.cells].sort().join("-");
      const had = new Set((before || []).map(key));
      (after || []).forEach(r => { if (!had.has(key(r))) add(`roof:${key(r)}`); });
    } else if (head === "docks") plus(before, after).forEach(col => add(`dock:${a}:${col}`));
    else if (head === "markers") (after || []).forEach((_, j) => add(`marker:${a}:${j}`));
    else if (head === "ports") (after || []).forEach(ship => add(`ship:${ship}`));
    else if (head === "fish_display") plus(before, after).forEach(sp => add(`fish:${sp}`));
    else if (head === "fish_deck_size") add("fishdeck");
    else if (head === "building_display") plus(before, after).forEach(bl => add(`bld:${bl}`));
    else if (head === "roofs_removed") (after || []).forEach(r => add(`kind:${r.kind}`));
    else if (head === "seats" && typeof a === "number") {
      const L = LETTERS[a], seat = (v.seats || [])[a] || {};
      if (b === "vp") add(`vp:${L}`);
      else if (b === "coins") add(`coins:${L}`);
      else if (b === "privilege") add(`priv:${L}`);
      else if (b === "boat") add(`boat:${L}`);
      else if (b === "ring") add(`ring:${L}`);
      else if (b === "islands") { add(`node:${c}`); add(`wk:${c}:${L}`); }
      else if (b === "workshop") { plus(before, after).concat(plus(after, before)).forEach(sq => add(`sq:${sq}`)); }
      else if (b === "pyramid") {
        if (!Array.isArray(after)) add(`pyrhidden:${L}`);
        else if (!Array.isArray(before)) after.forEach((_, i) => add(`pyr:${L}:${PYRAMID_NAMES[i]}`));
        else diffList(before, after).forEach(i => add(`pyr:${L}:${PYRAMID_NAMES[i]}`));
      } else if (b === "placed" || b === "cubes") add(`pyrhidden:${L}`);
      else if (b === "prep") {
        const prep = counts(seat.prep).reduce((n, [, k]) => n + k, 0);
        counts(seat.prep).forEach(([col]) => add(`prep:${L}:${col}`));
        for (let i = prep; i < 3; i++) add(`prepslot:${L}:${i}`);
      } else if (b === "reserve") {
        if (c) add(`res:${L}:${c}`); else ["pink", "blue", "yellow", "green", "orange", "white"].forEach(col => add(`res:${L}:${col}`));
      } else if (b === "roof_slots") diffList((before || []).map(t => JSON.stringify(t)), (after || []).map(t => JSON.stringify(t))).forEach(i => add(`slot:${L}:${i + 1}`));
      else if (b === "hand" || b === "sold" || b === "buildings") add(`facts:${L}`);
    }
  }
  return [...keys];
}

// -- what a move touches --------------------------------------------------------------------------
// The first key is where the move is clicked; the rest are highlighted on hover.
function moveTargets(move, v, seat) {
  const w = move.split(" ");
  const me = seat || v.actor;
  const ctx = v.context || {};
  switch (w[0]) {
    case "done": return ["done"];
    case "take": return [`pyr:${me}:${w[1]}`];
    case "build": { const [c, h] = w[1].split("@"); return [`hole:${h}`, `prep:${me}:${c}`]; }
    case "roof": { const cells = w[2].split("-"); return [`line:${[...cells].sort().join("-")}`, `slot:${me}:${w[1]}`, `hole:${cells[0]}`, `hole:${cells[1]}`]; }
    case "privilege":
      if (w[1] === "coin") return [`priv:${me}`];
      if (w[1] === "cube") { const [c, pos] = w[2].split("@"); return [`pyr:${me}:${pos}`, `res:${me}:${c}`]; }
      if (w[1] === "reserve") return [`res:${me}:${w[2]}`, `priv:${me}`];
      break;
    case "pyramid": return [`res:${me}:${w[1]}`];
    case "sail": return [`node:${w[1]}`];
    case "go": return ctx.sail_target ? [`node:${ctx.sail_target}`] : [];
    case "swap": case "with": { const [isl, c] = w[1].split(":"); return [`dock:${isl}:${c}`]; }
    case "draw": return w[1] === "deck" ? ["fishdeck"] : [`fish:${w[1]}`];
    case "send": return [`ring:${me}`];
    case "sell": return [`ship:${w[1]}`];
    case "lace": return [`sq:${w[1]}`];
    case "recall": return [w[1].startsWith("r") ? `sq:${w[1]}` : `node:${w[1]}`, `ring:${me}`];
    case "bonus": return w[1] === "privilege" ? [`priv:${me}`] : w[1] === "deck" ? ["blddeck"] : [`bld:${w[1]}`];
    case "pay": return (ctx.pay_queue && ctx.pay_queue.length) ? [`sq:${ctx.pay_queue[0]}`] : [];
    case "replenish": return [`res:${me}:${w[1]}`];
    case "discard": return [`slot:${me}:${w[2]}`];
    case "pick": return [`kind:${w[1]}`];
  }
  return [];
}

function roofLines(moves) {
  const lines = new Set();
  moves.forEach(m => { const w = m.split(" "); if (w[0] === "roof") lines.add(w[2].split("-").sort().join("-")); });
  return [...lines];
}

// -- the position editor's tools (the page's "Set up a position"; the spec's `web_editor` capability) ---
// The page owns the position, its JSON box and the loader check; these tools change the position dict
// in place through ed.edit(change). ed: {state: {colour, tool, roofStart}, edit(fn), highlight(keys),
// error(message)}. Tools: "cube" (the palette's colour, or × to take off), "worker" / "boat" for the
// seat chosen next to them, "roof", "ring". Ring workers are adjusted so every seat keeps its 10 workers.
const EDITOR_COLOURS = ["pink", "blue", "yellow", "green", "orange", "white"];
const ROOF_KINDS = ["flat", "island", "workshop", "fountains"];

function editorToolbar(ed) {
  const colour = ed.state.colour || "pink", tool = ed.state.tool || "cube";
  const palette = [...EDITOR_COLOURS, "erase"].map(c =>
    `<button data-colour="${c}" title="${c}" style="background:${c === "erase" ? "#fff" : COLOUR_FILL[c]}"${c === colour ? ' class="selected"' : ""}>${c === "erase" ? "×" : ""}</button>`).join("");
  const tools = [
    ["cube", "cubes: holes, pyramids, preparation areas, reserves, docks, action markers", "cubes"],
    ["worker", "workers: click a workshop square or an island (× removes)", "workers"],
    ["boat", "boat: click a route node", "boat"],
    ["roof", "roof: click two cubes of one level two cells apart (× removes a roof)", "roof"],
  ].map(([t, title, label]) => `<button data-tool="${t}" title="${title}"${t === tool ? ' class="selected"' : ""}>${label}</button>`).join("\n");
  return `<div class="row" id="ed-palette">cube: ${palette}</div>
    <div class="row" id="ed-tools">${tools}
      <select id="ed-roof-kind" title="the kind of roof laid">${ROOF_KINDS.map(k => `<option>${k}</option>`).join("")}</select>
      <button data-tool="ring" title="ring: click a seat's ring to turn its wheel by one house (× turns it back)"${tool === "ring" ? ' class="selected"' : ""}>ring</button>
      of seat <select id="ed-seat">${[...LETTERS].map(l => `<option>${l}</option>`).join("")}</select></div>`;
}

function editorWire(root, ed) {
  root.querySelectorAll("#ed-palette button").forEach(b => b.onclick = () => {
    ed.state.colour = b.dataset.colour;
    root.querySelectorAll("#ed-palette button").forEach(x => x.classList.toggle("selected", x === b));
  });
  root.querySelectorAll("#ed-tools button").forEach(b => b.onclick = () => {
    ed.state.tool = b.dataset.tool;
    root.querySelectorAll("#ed-tools button").forEach(x => x.classList.toggle("selected", x === b));
  });
}

function editorClick(p, key, ed) {
  if (!p || !Array.isArray(p.seats)) return;
  const [kind, a, b] = key.split(":");
  const colour = ed.state.colour || "pink", erase = colour === "erase", tool = ed.state.tool || "cube";
  const seatOf = (letter) => p.seats[seatIndex(letter)];
  const bump = (counts, c, d) => { counts = counts || {}; const n = (counts[c] || 0) + d; if (n > 0) counts[c] = n; else delete counts[c]; return counts; };
  const chosen = seatOf(document.querySelector("#ed-seat").value);
  if (tool === "roof" && kind === "hole") { roofClick(p, a, erase, ed); return; }
  ed.edit(() => {
    if (tool === "boat") { if (kind === "node" && chosen) chosen.boat = a; return; }
    if (tool === "ring") {
      const seat = kind === "ring" ? seatOf(a) : null;
      if (seat && seat.ring) seat.ring.offset = (seat.ring.offset + (erase ? 11 : 1)) % 12;
      return;
    }
    if (tool === "worker") {
      if (!chosen) return;
      if (kind === "sq") {
        const owner = p.seats.find(s => (s.workshop || []).includes(a));
        if (owner) { owner.workshop = owner.workshop.filter(q => q !== a); owner.ring.workers += 1; }
        else if (!erase && chosen.ring.workers > 1) { chosen.workshop = [...(chosen.workshop || []), a]; chosen.ring.workers -= 1; }
      } else if (kind === "node" && a.startsWith("I")) {
        const n = (chosen.islands || {})[a] || 0;
        if (erase && n > 0) { chosen.islands = bump(chosen.islands, a, -1); chosen.ring.workers += 1; }
        else if (!erase && chosen.ring.workers > 1) { chosen.islands = bump(chosen.islands, a, 1); chosen.ring.workers -= 1; }
      }
      return;
    }
    if (kind === "hole") {
      p.island = p.island || {cubes: {}, roofs: []};
      const cubes = p.island.cubes = p.island.cubes || {};
      const stack = cubes[a] || [];
      if (erase) stack.pop(); else if (stack.length < 3) stack.push(colour);
      if (stack.length) cubes[a] = stack; else delete cubes[a];
    } else if (kind === "pyr") {
      const seat = seatOf(a), i = PYRAMID_NAMES.indexOf(b);
      if (seat && Array.isArray(seat.pyramid) && i >= 0) seat.pyramid[i] = erase ? null : colour;
    } else if (kind === "prep" || kind === "prepslot") {
      const seat = seatOf(a);
      if (!seat) return;
      if (kind === "prep" && erase) seat.prep = bump(seat.prep, b, -1);
      else if (kind === "prep") seat.prep = bump(bump(seat.prep, b, -1), colour, 1);
      else if (!erase) seat.prep = bump(seat.prep, colour, 1);
    } else if (kind === "res") {
      const seat = seatOf(a);
      if (seat && seat.reserve) seat.reserve = bump(seat.reserve, b, erase ? -1 : 1);
    } else if (kind === "dock" && !erase) {
      const docks = (p.docks || {})[a];
      const i = docks ? docks.indexOf(b) : -1;
      if (i >= 0) docks[i] = colour;
    } else if (kind === "marker" && !erase) {
      const cell = (p.markers || {})[a];
      if (cell) cell[Number(b)] = colour;
    }
  });
}

// The roof tool: the first click picks a cube, the second lays the roof (the kind from the select,
// the fields from the two cubes' colours); with × a click takes off the last roof on that hole.
function roofClick(p, hole, erase, ed) {
  p.island = p.island || {cubes: {}, roofs: []};
  const roofs = p.island.roofs = p.island.roofs || [];
  if (erase) {
    const i = roofs.map(r => r.cells.includes(hole)).lastIndexOf(true);
    if (i >= 0) ed.edit(() => roofs.splice(i, 1));
    return;
  }
  const first = ed.state.roofStart;
  if (!first || first === hole) { ed.state.roofStart = hole; ed.highlight([`hole:${hole}`]); return; }
  ed.state.roofStart = null;
  const cubes = p.island.cubes || {};
  const a = cubes[first] || [], b = cubes[hole] || [];
  const level = a.length;
  if (level < 1 || level > 2 || b.length !== level) {
    ed.error(`a roof lies on two cubes of the same level (1 or 2): ${first} has ${a.length}, ${hole} has ${b.length}`);
    return;
  }
  ed.edit(() => roofs.push({level, cells: [first, hole], fields: [a[level - 1], b[level - 1]], kind: document.querySelector("#ed-roof-kind").value}));
}

// "Empty island": every cube and roof off, the fountain's ground cube kept.
function editorClear(p) {
  const f = ((p.island || {}).cubes || {}).e5;
  p.island = {cubes: f ? {e5: [f[0]]} : {}, roofs: []};
}

const editor = {toolbar: editorToolbar, wire: editorWire, click: editorClick, clear: editorClear,
                clearLabel: "Empty island", seatFields: ["coins", "vp", "privilege"]};

// Where the game stands, in words: the season's round (of how many), or the season's end, or the game's.
const PHASE_WORDS = {"roof-pick": "pick a roof tile", pyramid: "build the pyramid", turn: "a turn", "fish-sail": "fishing, sail",
                     "fish-swap": "fishing, swap a dock cube", "fish-draw": "fishing, draw fish", "fish-send": "fishing, send workers",
                     "port-trade": "sell fish", lace: "make lace", recall: "recall workers", "roof-bonus": "a roof bonus",
                     "lace-pay": "pay for lace", replenish: "replenish cubes", "privilege-reserve": "privilege, a reserve cube",
                     "roof-discard": "discard a roof tile", chance: "chance", "game-over": "game over"};
const SEASON_ROUNDS = {spring: 4, summer: 4, autumn: 3, winter: 3};
const STAGE_WORDS = {setup: "setting up", pyramid: "building pyramids", rounds: "", "lace-scoring": "lace scoring",
                     replenish: "replenishing", "roof-refill": "refilling the roof tiles", end: "final scoring"};
function statusLine(v) {
  if (v.phase === "game-over") return "game over";
  const rounds = SEASON_ROUNDS[v.season];
  const stage = STAGE_WORDS[v.stage] !== undefined ? STAGE_WORDS[v.stage] : (v.stage || "");
  if (v.stage === "end") return `end of the game · ${stage}`;
  // between seasons the round counter has run past the season's last round
  if (rounds && v.round > rounds) return `end of ${v.season}${stage ? " · " + stage : ""}`;
  return `${v.season} · round ${v.round} of ${rounds || "?"}${stage ? " · " + stage : ""}`;
}

window.BuranoBoard = {renderBoard, moveTargets, changedKeys, roofLines, statusLine, editor, holeNames, REGIONS, BLOCKS, panelBox, COLOUR_FILL, SPECIES};
(window.BoardModules = window.BoardModules || {}).burano = window.BuranoBoard;
