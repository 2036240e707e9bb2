// chuhan's board page: draws what the server's state says and sends the person's actions.
// The server (src/serve) judges every move and keeps the game; this page holds no rules.
"use strict";

const SIZE = 60, LEFT = 70, TOP = 70, MAX_MESSAGE = 64 * 1024;
const NS = "http://www.w3.org/2000/svg";
const GLYPHS = {
  K: "帅", A: "仕", B: "相", N: "马", R: "车", C: "炮", P: "兵",
  k: "将", a: "士", b: "象", n: "马", r: "车", c: "炮", p: "卒",
};
const $ = (id) => document.getElementById(id);
const board = $("board");

let state = null;          // the server's last state
let flipped = false;
let selected = null;       // a square name such as "h2"
let drag = null;           // {sq, moved}
let lines = [];            // analysis lines of the current position, by multipv
let liveScores = [];       // scores from info messages, by ply
let socket = null;

// --- connection ---------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws`);
  socket.onopen = () => setStatus("connected");
  socket.onclose = () => {
    setStatus("disconnected");
    showMessage("The connection to chuhan closed: reload the page to start again.");
  };
  socket.onmessage = (e) => receive(JSON.parse(e.data));
}

function send(message) {
  const text = JSON.stringify(message);
  if (text.length > MAX_MESSAGE) {
    showMessage(`That is too large to send (${text.length} bytes, at most ${MAX_MESSAGE}).`);
    return;
  }
  if (!socket || socket.readyState !== WebSocket.OPEN) {
    showMessage("Not connected to chuhan: reload the page.");
    return;
  }
  hideMessage();
  socket.send(text);
}

function receive(m) {
  switch (m.type) {
    case "state": return setState(m);
    case "info": return addInfo(m);
    case "engine_move": return;
    case "pgn": return showPgn(m.pgn);
    case "error": return showMessage(m.message);
  }
}

// --- state --------------------------------------------------------------------------------

function setState(s) {
  const changed = !state || state.fen !== s.fen || state.moves.length !== s.moves.length;
  const sideChanged = !state || state.settings.side !== s.settings.side || state.settings.mode !== s.settings.mode;
  state = s;
  if (changed) {
    lines = [];
    selected = null;
    liveScores.length = s.moves.length + 1;
  }
  if (sideChanged) flipped = s.settings.mode === "play" && s.settings.side === "black";
  for (const [id, key] of [["mode", "mode"], ["side", "side"], ["movetime", "movetime_ms"], ["multipv", "multipv"]]) {
    $(id).value = String(s.settings[key]);
  }
  $("elo").value = s.settings.elo === null ? "" : String(s.settings.elo);
  if (document.activeElement !== $("fen")) $("fen").value = s.fen;
  drawBoard();
  drawMoves();
  drawLines();
  drawGraph();
  const ending = $("ending");
  ending.hidden = !s.ending;
  if (s.ending) ending.textContent = `Game over: ${s.ending.result}, ${s.ending.reason}`;
  const who = s.side_to_move === "red" ? "Red" : "Black";
  const busy = s.settings.mode === "analyze" ? " · chuhan is analysing…" : " · chuhan is thinking…";
  setStatus(s.ending ? "game over" : `${who} to move${s.in_check ? ", in check" : ""}${s.thinking ? busy : ""}`);
}

function addInfo(m) {
  if (!state || m.ply !== state.moves.length) return;
  lines[m.multipv - 1] = m;
  if (m.multipv === 1 && m.bound === "exact") {
    liveScores[m.ply] = m.score.cp !== undefined ? m.score.cp : 2000 * Math.sign(m.score.mate);
    drawGraph();
  }
  drawLines();
}

// --- the board ----------------------------------------------------------------------------

function squareName(file, rank) { return "abcdefghi"[file] + rank; }

function point(file, rank) {
  const f = flipped ? 8 - file : file, r = flipped ? 9 - rank : rank;
  return [LEFT + f * SIZE, TOP + (9 - r) * SIZE];
}

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function line(g, a, b) {
  const [x1, y1] = point(...a), [x2, y2] = point(...b);
  el("line", { x1, y1, x2, y2 }, g);
}

function pieces(fen) {
  const out = {};
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else out[squareName(file++, 9 - i)] = ch;
    }
  });
  return out;
}

function drawGrid() {
  const g = el("g", { class: "grid" }, board);
  el("rect", { x: 0, y: 0, width: 620, height: 680, fill: "var(--wood)", rx: 10 }, g);
  const [fx, fy] = [LEFT - 8, TOP - 8];
  el("rect", { x: fx, y: fy, width: 8 * SIZE + 16, height: 9 * SIZE + 16, fill: "none", class: "frame", stroke: "var(--line)" }, g);
  for (let r = 0; r <= 9; r++) line(g, [0, r], [8, r]);
  for (let f = 0; f <= 8; f++) {
    if (f === 0 || f === 8) line(g, [f, 0], [f, 9]);
    else { line(g, [f, 0], [f, 4]); line(g, [f, 5], [f, 9]); }
  }
  for (const r of [0, 7]) { line(g, [3, r], [5, r + 2]); line(g, [5, r], [3, r + 2]); }
  // the cannons' and soldiers' points
  const marks = [[1, 2], [7, 2], [1, 7], [7, 7], [0, 3], [2, 3], [4, 3], [6, 3], [8, 3], [0, 6], [2, 6], [4, 6], [6, 6], [8, 6]];
  for (const [f, r] of marks) {
    const [x, y] = point(f, r);
    for (const dx of [-1, 1]) for (const dy of [-1, 1]) {
      if ((f === 0 && dx < 0) || (f === 8 && dx > 0)) continue;
      const sx = x + dx * 5, sy = y + dy * 5;
      el("polyline", { class: "mark", points: `${sx + dx * 10},${sy} ${sx},${sy} ${sx},${sy + dy * 10}` }, g);
    }
  }
  const riverY = TOP + 4.5 * SIZE;
  const left = flipped ? "漢　界" : "楚　河", right = flipped ? "楚　河" : "漢　界";
  el("text", { class: "river", x: LEFT + 1.5 * SIZE, y: riverY + 10 }, g).textContent = left;
  el("text", { class: "river", x: LEFT + 5.2 * SIZE, y: riverY + 10 }, g).textContent = right;
  for (let f = 0; f <= 8; f++) {
    const [x] = point(f, 0);
    el("text", { class: "coord", x: x - 4, y: 680 - 18 }, g).textContent = "abcdefghi"[f];
  }
  for (let r = 0; r <= 9; r++) {
    const [, y] = point(0, r);
    el("text", { class: "coord", x: 22, y: y + 5 }, g).textContent = String(r);
  }
}

function movesFrom(sq) {
  if (!state || !canMove()) return [];
  return state.legal.filter((m) => m.slice(0, 2) === sq).map((m) => m.slice(2));
}

function canMove() {
  if (state.ending) return false;
  return state.settings.mode === "analyze" || state.side_to_move === state.settings.side;
}

function drawBoard() {
  board.replaceChildren();
  drawGrid();
  if (!state) return;
  const last = state.moves.length ? state.moves[state.moves.length - 1].iccs : null;
  if (last) {
    for (const sq of [last.slice(0, 2), last.slice(2)]) {
      const [x, y] = point("abcdefghi".indexOf(sq[0]), Number(sq[1]));
      el("rect", { class: "last", x: x - 29, y: y - 29, width: 58, height: 58, rx: 6, "data-last": sq }, board);
    }
  }
  const ps = pieces(state.fen);
  // invisible targets for every point, so a click anywhere on a point is caught
  for (let f = 0; f <= 8; f++) for (let r = 0; r <= 9; r++) {
    const [x, y] = point(f, r);
    el("rect", { x: x - SIZE / 2, y: y - SIZE / 2, width: SIZE, height: SIZE, fill: "transparent", "data-sq": squareName(f, r), class: "point" }, board);
  }
  for (const [sq, letter] of Object.entries(ps)) {
    const [x, y] = point("abcdefghi".indexOf(sq[0]), Number(sq[1]));
    const red = letter === letter.toUpperCase();
    const classes = ["piece", red ? "red" : "black"];
    if (sq === selected) classes.push("selected");
    if (state.in_check && letter === (state.side_to_move === "red" ? "K" : "k")) classes.push("check");
    const g = el("g", { class: classes.join(" "), transform: `translate(${x},${y})`, "data-piece": sq, "data-letter": letter }, board);
    el("circle", { class: "outer", r: 27 }, g);
    el("circle", { class: "inner", r: 22 }, g);
    el("text", { x: 0, y: 1 }, g).textContent = GLYPHS[letter];
  }
  if (selected) {
    for (const to of movesFrom(selected)) {
      const [x, y] = point("abcdefghi".indexOf(to[0]), Number(to[1]));
      if (ps[to]) el("circle", { class: "target capture", cx: x, cy: y, r: 30, "data-target": to }, board);
      else el("circle", { class: "target", cx: x, cy: y, r: 9, "data-target": to }, board);
    }
  }
}

function svgPoint(e) {
  const p = board.createSVGPoint();
  p.x = e.clientX; p.y = e.clientY;
  return p.matrixTransform(board.getScreenCTM().inverse());
}

function squareAt(e) {
  const p = svgPoint(e);
  let f = Math.round((p.x - LEFT) / SIZE), r = 9 - Math.round((p.y - TOP) / SIZE);
  if (f < 0 || f > 8 || r < 0 || r > 9) return null;
  if (flipped) { f = 8 - f; r = 9 - r; }
  return squareName(f, r);
}

function play(move) {
  selected = null;
  drawBoard();
  send({ type: "move", move });
}

board.addEventListener("pointerdown", (e) => {
  const sq = squareAt(e);
  if (!sq || !state) return;
  if (selected && movesFrom(selected).includes(sq)) return play(selected + sq);
  if (movesFrom(sq).length) {
    selected = sq;
    drag = { sq, moved: false };
    board.setPointerCapture(e.pointerId);
  } else {
    selected = null;
  }
  drawBoard();
});

board.addEventListener("pointermove", (e) => {
  if (!drag) return;
  const piece = board.querySelector(`[data-piece="${drag.sq}"]`);
  if (!piece) return;
  const p = svgPoint(e);
  drag.moved = true;
  piece.setAttribute("transform", `translate(${p.x},${p.y})`);
  board.appendChild(piece);
});

board.addEventListener("pointerup", (e) => {
  if (!drag) return;
  const d = drag;
  drag = null;
  const sq = squareAt(e);
  if (d.moved && sq && sq !== d.sq && movesFrom(d.sq).includes(sq)) play(d.sq + sq);
  else if (d.moved) drawBoard();
});

// --- analysis, graph, moves ----------------------------------------------------------------

function scoreText(s) {
  if (s.mate !== undefined) return s.mate > 0 ? `M${s.mate}` : `-M${-s.mate}`;
  const p = s.cp / 100;
  return (p > 0 ? "+" : "") + p.toFixed(2);
}

function drawLines() {
  const ol = $("lines");
  ol.replaceChildren();
  const best = lines[0];
  $("summary").textContent = best
    ? `depth ${best.depth}/${best.seldepth} · ${scoreText(best.score)} (Red) · ${(best.nodes / 1000).toFixed(0)}k nodes · ${(best.nps / 1000).toFixed(0)}k nodes/s`
    : state && state.thinking ? "thinking…" : "";
  const [w, d, l] = best && best.wdl ? best.wdl : [0, 1000, 0];
  const bar = $("wdl");
  bar.querySelector(".w").style.width = `${w / 10}%`;
  bar.querySelector(".d").style.width = `${d / 10}%`;
  bar.querySelector(".l").style.width = `${l / 10}%`;
  bar.title = best && best.wdl ? `Red wins ${w / 10}%, draw ${d / 10}%, Black wins ${l / 10}%` : "";
  for (const m of lines) {
    if (!m) continue;
    const li = document.createElement("li");
    li.className = "line";
    li.dataset.depth = m.depth;
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = scoreText(m.score) + (m.bound === "exact" ? "" : m.bound === "lower" ? "↑" : "↓");
    const pv = document.createElement("span");
    pv.className = "pv";
    pv.textContent = m.pv_chinese.slice(0, 12).join(" ");
    const iccs = document.createElement("div");
    iccs.className = "iccs";
    iccs.textContent = `d${m.depth} ${m.pv.slice(0, 12).join(" ")}`;
    li.append(score, pv, iccs);
    ol.appendChild(li);
  }
}

function drawGraph() {
  const g = $("graph");
  g.replaceChildren();
  if (!state) return;
  const n = Math.max(state.moves.length, 1);
  const clamp = (cp) => Math.max(-1000, Math.min(1000, cp));
  const y = (cp) => 50 - clamp(cp) / 20;
  el("line", { class: "axis", x1: 0, y1: 50, x2: 400, y2: 50 }, g);
  const pts = [];
  for (let i = 0; i <= state.moves.length; i++) {
    const s = liveScores[i] !== undefined ? liveScores[i] : state.scores[i];
    if (s !== null && s !== undefined) pts.push(`${(i / n) * 400},${y(s)}`);
  }
  if (pts.length) el("polyline", { points: pts.join(" ") }, g);
  const x = (state.moves.length / n) * 400;
  el("line", { class: "now", x1: x, y1: 0, x2: x, y2: 100 }, g);
}

function drawMoves() {
  const ol = $("moves");
  ol.replaceChildren();
  const blackFirst = state.start_fen.split(" ")[1] === "b";
  let li = null;
  state.moves.forEach((m, i) => {
    const red = (i + (blackFirst ? 1 : 0)) % 2 === 0;
    if (red || !li) {
      li = document.createElement("li");
      ol.appendChild(li);
      if (!red) li.append("… ");
    }
    const span = document.createElement("span");
    span.className = "move";
    span.textContent = `${m.chinese} `;
    const iccs = document.createElement("span");
    iccs.className = "iccs";
    iccs.textContent = `${m.iccs} `;
    li.append(span, iccs);
  });
  ol.scrollTop = ol.scrollHeight;
}

// --- controls -----------------------------------------------------------------------------

function setStatus(text) { $("status").textContent = text; }
function showMessage(text) { const m = $("message"); m.textContent = text; m.hidden = false; }
function hideMessage() { $("message").hidden = true; }

function showPgn(text) {
  $("pgn").value = text;
  const a = $("download");
  if (a.href) URL.revokeObjectURL(a.href);
  a.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pgn" }));
  a.hidden = false;
}

function sendSettings() {
  const elo = $("elo").value;
  send({
    type: "settings",
    mode: $("mode").value,
    side: $("side").value,
    elo: elo === "" ? null : Number(elo),
    movetime_ms: Number($("movetime").value),
    multipv: Number($("multipv").value),
  });
}

for (const id of ["mode", "side", "elo", "movetime", "multipv"]) $(id).addEventListener("change", sendSettings);
$("new").onclick = () => send({ type: "new", fen: null });
$("undo").onclick = () => send({ type: "undo" });
$("flip").onclick = () => { flipped = !flipped; drawBoard(); };
$("go").onclick = () => send({ type: "go" });
$("stop").onclick = () => send({ type: "stop" });
$("load-fen").onclick = () => send({ type: "new", fen: $("fen").value });
$("load-pgn").onclick = () => send({ type: "pgn", pgn: $("pgn").value });
$("export-pgn").onclick = () => send({ type: "export_pgn" });

drawBoard();
connect();
