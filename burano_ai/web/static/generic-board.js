// The generic board: the board of every game without a board module of its own (and of any game with
// ?board=generic). It shows the seat's view (`state.to_dict(seat)`, exactly what the server sent) as
// readable key/value blocks, and one button per legal move (the move's text, `action_to_string`), so the
// page's move/undo/bot flow is the same as on a drawn board: a move's element is its button.
// Same interface as a board module: renderBoard(view, opts) -> markup; moveTargets(move) -> element keys.
"use strict";

(function () {
  function esc(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"); }
  const scalar = (x) => x === null || typeof x !== "object";
  const shown = (x) => x === null ? "–" : typeof x === "boolean" ? (x ? "yes" : "no") : String(x);

  // A value as text: scalars inline, lists of scalars comma-separated, objects as nested key/value lists.
  function renderValue(v) {
    if (scalar(v)) return `<span class="gv">${esc(shown(v))}</span>`;
    if (Array.isArray(v)) {
      if (!v.length) return `<span class="gv">none</span>`;
      if (v.every(scalar)) return `<span class="gv">${esc(v.map(shown).join(", "))}</span>`;
      return `<ol class="gv-list">${v.map(x => `<li>${renderValue(x)}</li>`).join("")}</ol>`;
    }
    const entries = Object.entries(v);
    if (!entries.length) return `<span class="gv">none</span>`;
    return `<dl class="gv-dict">${entries.map(([k, x]) => `<dt>${esc(k)}</dt><dd>${renderValue(x)}</dd>`).join("")}</dl>`;
  }

  // Scalars (and lists of them) first, in one "position" block; then one block per other top-level key,
  // and one per item of a list of objects (the seats: titled by their seat letter, the page's own marked).
  function blocks(view, seat, letters) {
    let s = "", facts = [];
    for (const [key, value] of Object.entries(view)) {
      if (scalar(value) || (Array.isArray(value) && value.every(scalar))) { facts.push([key, value]); continue; }
      if (Array.isArray(value) && value.every(x => x && typeof x === "object" && !Array.isArray(x))) {
        value.forEach((item, i) => {
          // a seat list's items are the seats in order (A, B, ...) unless they name their seat
          const letter = item.seat !== undefined ? item.seat : key === "seats" ? letters[i] : undefined;
          const name = letter !== undefined ? `${key} · seat ${letter}` : item.name !== undefined ? `${key} · ${item.name}` : `${key} ${i + 1}`;
          const me = letter !== undefined && letter === seat;
          s += `<section class="gb-block${me ? " me" : ""}" data-block="${esc(key)}:${i}" data-key="${esc(`block:${key}:${i}`)}"><h4>${esc(name)}${me ? " (you)" : ""}</h4>${renderValue(item)}</section>`;
        });
        continue;
      }
      s += `<section class="gb-block" data-block="${esc(key)}" data-key="${esc("block:" + key)}"><h4>${esc(key)}</h4>${renderValue(value)}</section>`;
    }
    const head = facts.length ? `<section class="gb-block" data-block="facts" data-key="block:facts"><h4>position</h4>${renderValue(Object.fromEntries(facts))}</section>` : "";
    return head + s;
  }

  function renderBoard(view, opts) {
    opts = opts || {};
    const legal = opts.legal || [];
    const moves = legal.length
      ? legal.map(m => `<button class="gb-move" data-key="${esc("move:" + m)}" data-move="${esc(m)}">${esc(m)}</button>`).join("")
      : `<span class="gv">${opts.editable ? "" : "no move of yours now"}</span>`;
    return `<div class="generic-board"><section class="gb-moves"><h4>your moves</h4><div class="gb-buttons">${moves}</div></section>` +
           `<div class="gb-blocks">${blocks(view, opts.seat, opts.letters || "ABCDEF")}</div></div>`;
  }

  function moveTargets(move) { return ["move:" + move]; }

  // The last-move marks: the blocks a list of view changes ([path, before, after]) touches.
  function changedKeys(changes, view) {
    const keys = new Set();
    for (const [path] of changes || []) {
      const key = path[0], value = view[key];
      if (scalar(value) || (Array.isArray(value) && value.every(scalar))) keys.add("block:facts");
      else if (Array.isArray(value) && typeof path[1] === "number") keys.add(`block:${key}:${path[1]}`);
      else keys.add(`block:${key}`);
    }
    return [...keys];
  }

  window.GenericBoard = {renderBoard, moveTargets, changedKeys, renderValue, generic: true};
})();
