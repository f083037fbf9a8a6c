// The guide's strategy browser: stored card-level solutions, read in the page (offline).
// Data: <script type="application/json" id="spot-data"> written by analysis.studies.solved_spots.browser_data.
(function () {
  "use strict";
  const root = document.getElementById("spot-browser");
  if (!root) return;
  const data = JSON.parse(document.getElementById("spot-data").textContent);
  const RANKS = ["A", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
  const COLOURS = {fold: "#6c8ebf", check: "#7fb77e", call: "#7fb77e", bet: "#e07b67", raise: "#c0392b", allin: "#7b241c"};
  const $ = (sel) => root.querySelector(sel);
  const HEADS_UP = ["oop", "ip"];  // seat names of data written before three-handed spots
  const state = {seats: 0, family: "", gstate: "", spot: 0, line: 0, cls: null, made: -1};

  function unpack(b64, Type) {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new Type(bytes.buffer);
  }
  function colour(action) { return COLOURS[action.split(" ")[0]] || "#999"; }
  function rankOf(card) { return card.slice(0, -1); }
  function classOf(holding) {  // "10sAh" -> "A10o"
    const m = holding.match(/^(10|[2-9A])([shdc])(10|[2-9A])([shdc])$/);
    let [a, sa, b, sb] = [m[1], m[2], m[3], m[4]];
    if (RANKS.indexOf(a) > RANKS.indexOf(b)) { [a, sa, b, sb] = [b, sb, a, sa]; }
    if (a === b) return a + b;
    return a + b + (sa === sb ? "s" : "o");
  }
  function cellClass(i, j) {  // row i, column j of the 10 x 10 grid: pairs on the diagonal, suited above
    const a = RANKS[Math.min(i, j)], b = RANKS[Math.max(i, j)];
    return i === j ? a + b : a + b + (i < j ? "s" : "o");
  }
  function seatsOf(spot) { return spot.seats || 2; }
  function seatName(spot, player) { return (spot.seat_names || HEADS_UP)[player]; }
  function distinct(values) { return values.filter((v, i) => values.indexOf(v) === i); }
  function matching() {  // indices of the spots of the chosen player count, family and game state
    return data.spots.map((s, i) => i).filter((i) => {
      const s = data.spots[i];
      return seatsOf(s) === state.seats && s.family === state.family && s.state === state.gstate;
    });
  }
  function options(id, items, value) {  // items: [value, text] pairs; keeps value if offered, else the first
    const el = $(id);
    el.innerHTML = items.map(([v, t]) => `<option value="${v}">${t}</option>`).join("");
    const keep = items.some(([v]) => String(v) === String(value));
    el.value = String(keep ? value : items[0][0]);
    return keep ? value : items[0][0];
  }
  function fillSpots(from) {  // refill the pickers below ``from`` (seats > family > state > spot > line)
    const spots = data.spots;
    const order = ["seats", "family", "gstate", "spot"];
    const level = order.indexOf(from);
    if (level < 1) {
      const families = distinct(spots.filter((s) => seatsOf(s) === state.seats).map((s) => s.family));
      state.family = options("#sb-family", families.map((f) => [f, f]), state.family);
    }
    if (level < 2) {
      const states = distinct(spots.filter((s) => seatsOf(s) === state.seats && s.family === state.family)
        .map((s) => s.state));
      state.gstate = options("#sb-state", states.map((g) => [g, g]), state.gstate);
    }
    if (level < 3) {
      state.spot = +options("#sb-spot", matching().map((i) => [i, spots[i].board]), state.spot);
      state.line = 0;
    }
    fillLines();
  }
  function current() {
    const spot = data.spots[state.spot];
    const line = spot.lines[state.line];
    const player = spot.players[String(line.player)];
    if (!line._freq) {
      line._freq = unpack(line.freq, Uint8Array);
      line._ev = unpack(line.ev, Int16Array);
      line._reach = unpack(line.reach, Uint8Array);
    }
    return {spot, line, player};
  }
  function rows() {  // per holding of the actor: class, made hand, reach, frequencies, EVs
    const {line, player} = current();
    const n = player.holdings.length, k = line.actions.length;
    const out = [];
    for (let h = 0; h < n; h++) {
      const made = player.made[h];
      if (state.made >= 0 && made !== state.made) continue;
      const freq = [], ev = [];
      for (let a = 0; a < k; a++) {
        freq.push(line._freq[a * n + h] / data.freq_scale);
        const e = line._ev[a * n + h];
        ev.push(e === data.ev_missing ? null : e / data.ev_scale);
      }
      out.push({holding: player.holdings[h], cls: classOf(player.holdings[h]), made: data.made_hands[made],
                reach: line._reach[h] / 255, freq, ev});
    }
    return out;
  }
  function render() {
    const {spot, line} = current();
    $("#sb-info").textContent = `${spot.family}, ${spot.state} (${data.states[spot.state]}); board ${spot.board}; ` +
      `exploitability ${spot.exploitability_pct_pot.toFixed(2)}% of the pot after ${spot.iterations} iterations; ` +
      `${seatName(spot, line.player)} to act after ${line.line}`;
    const all = rows();
    const byClass = {};
    for (const r of all) {
      const c = byClass[r.cls] || (byClass[r.cls] = {w: 0, freq: line.actions.map(() => 0), n: 0});
      const w = r.reach;
      c.n += 1; c.w += w;
      r.freq.forEach((f, a) => { c.freq[a] += w * f; });
    }
    const grid = $("#sb-grid");
    grid.innerHTML = "";
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        const name = cellClass(i, j);
        const cell = document.createElement("div");
        cell.className = "sb-cell" + (state.cls === name ? " sb-selected" : "");
        cell.dataset.cls = name;
        const c = byClass[name];
        if (c && c.w > 0) {
          let left = 0;
          c.freq.forEach((f, a) => {
            const share = f / c.w;
            if (share <= 0) return;
            const bar = document.createElement("span");
            bar.className = "sb-bar";
            bar.style.left = (100 * left) + "%";
            bar.style.width = (100 * share) + "%";
            bar.style.background = colour(line.actions[a]);
            cell.appendChild(bar);
            left += share;
          });
        } else {
          cell.classList.add("sb-empty");
        }
        const label = document.createElement("b");
        label.textContent = name;
        cell.appendChild(label);
        cell.addEventListener("click", () => { state.cls = name; render(); });
        grid.appendChild(cell);
      }
    }
    $("#sb-legend").innerHTML = line.actions.map((a) =>
      `<span><i style="background:${colour(a)}"></i>${a}</span>`).join(" ");
    const detail = $("#sb-detail");
    const picked = all.filter((r) => r.cls === state.cls);
    if (!state.cls) { detail.innerHTML = "<p>Click a class to see its holdings.</p>"; return; }
    let html = `<table><thead><tr><th>holding</th><th>made hand</th><th>reach</th>` +
      line.actions.map((a) => `<th>${a} %</th><th>${a} EV</th>`).join("") + "</tr></thead><tbody>";
    for (const r of picked) {
      html += `<tr data-holding="${r.holding}"><td>${r.holding}</td><td>${r.made}</td><td>${r.reach.toFixed(2)}</td>` +
        r.freq.map((f, a) => `<td>${(100 * f).toFixed(1)}</td><td>${r.ev[a] === null ? "" : r.ev[a].toFixed(1)}</td>`).join("") +
        "</tr>";
    }
    detail.innerHTML = html + "</tbody></table>" + (picked.length ? "" : `<p>No ${state.cls} holding here.</p>`);
  }
  function fillLines() {
    const {spot} = current();
    $("#sb-line").innerHTML = spot.lines.map((l, i) =>
      `<option value="${i}">${l.line} (${seatName(spot, l.player)} acts)</option>`).join("");
    $("#sb-line").value = String(state.line);
  }
  const counts = distinct(data.spots.map(seatsOf)).sort();
  state.seats = seatsOf(data.spots[0]);
  options("#sb-seats", counts.map((n) => [n, `${n} players`]), state.seats);
  $("#sb-made").innerHTML = `<option value="-1">every made hand</option>` +
    data.made_hands.map((m, i) => `<option value="${i}">${m}</option>`).join("");
  const on = (id, handler) => $(id).addEventListener("change", (e) => { handler(e.target.value); render(); });
  on("#sb-seats", (v) => { state.seats = +v; fillSpots("seats"); });
  on("#sb-family", (v) => { state.family = v; fillSpots("family"); });
  on("#sb-state", (v) => { state.gstate = v; fillSpots("gstate"); });
  on("#sb-spot", (v) => { state.spot = +v; state.line = 0; fillSpots("spot"); });
  on("#sb-line", (v) => { state.line = +v; });
  on("#sb-made", (v) => { state.made = +v; });
  fillSpots("seats");
  render();
  root.dataset.readyMs = performance.now().toFixed(1);  // ms since navigation: the first view
  root.dataset.ready = "1";
})();
