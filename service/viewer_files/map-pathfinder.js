// The pathfinder map: the square grid (x east, y north), engines with their state, creatures and crews,
// structures with hp bars, each engine's aimed square, and its latest shot's landing, scatter path and splash.

import { hpBar, svg, titled } from "./svg.js";

const CELL = 18;
const SCALE = 1.5; // drawn size per unit of the view box, before the page shrinks it to fit
const PAD = 2; // squares of margin around what is drawn
const COMPASS = { N: [0, 1], NE: [1, 1], E: [1, 0], SE: [1, -1], S: [0, -1], SW: [-1, -1], W: [-1, 0], NW: [-1, 1] };
const AREA_ZONES = new Set(["splash", "burst", "area", "inner", "outer", "explosion"]);

export function squareText(square) {
  return `(${square.x}, ${square.y})`;
}

// where an engine's aim points: its square, or the position of the entity it names
export function aimedSquare(target, game) {
  if (!target) return null;
  if (target.square) return target.square;
  const pool = { creature: game.creatures, engine: game.engines, structure: game.structures }[target.kind] || [];
  return pool.find((e) => e.id === target.id)?.position || null;
}

// the latest applied shot of each engine up to the version shown: its landing and where it strayed from
export function shotsOf(entries, version) {
  const shots = new Map();
  for (const entry of entries) {
    const outcome = entry.outcome;
    if (entry.version > version || !outcome || outcome.status !== "applied" || entry.type !== "fire") continue;
    const landing = outcome.result?.landing;
    if (!landing) continue;
    const scatter = landing.scatter;
    const [dx, dy] = scatter ? COMPASS[scatter.direction] || [0, 0] : [0, 0];
    const distance = scatter ? scatter.distance_squares : 0;
    const origin = { x: landing.square.x - dx * distance, y: landing.square.y - dy * distance };
    const engineId = entry.data?.engine_id ?? null;
    shots.set(engineId, { version: entry.version, engineId, landing: landing.square, scatter, origin, effects: outcome.result.effects || [] });
  }
  return [...shots.values()];
}

function bounds(points) {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return {
    minX: Math.min(0, ...xs) - PAD,
    maxX: Math.max(0, ...xs) + PAD,
    minY: Math.min(0, ...ys) - PAD,
    maxY: Math.max(0, ...ys) + PAD,
  };
}

export function drawPathfinder(game, shots, words) {
  const creatures = game.creatures || [];
  const engines = game.engines || [];
  const structures = game.structures || [];
  const aims = engines.map((e) => [e, aimedSquare(e.aim_target, game)]).filter(([, sq]) => sq);
  const points = [
    ...creatures.map((c) => c.position),
    ...engines.map((e) => e.position),
    ...structures.map((s) => s.position),
    ...aims.map(([, sq]) => sq),
    ...shots.flatMap((s) => [s.landing, s.origin]),
  ];
  const box = bounds(points);
  const cols = box.maxX - box.minX + 1;
  const rows = box.maxY - box.minY + 1;
  const px = (x) => (x - box.minX) * CELL;
  const py = (y) => (box.maxY - y) * CELL; // north up
  const centre = (sq) => [px(sq.x) + CELL / 2, py(sq.y) + CELL / 2];
  const map = svg("svg", {
    viewBox: `0 0 ${cols * CELL} ${rows * CELL}`,
    width: Math.round(cols * CELL * SCALE),
    height: Math.round(rows * CELL * SCALE),
    class: "map map-pathfinder",
    role: "group", // a group, not an img: each entity inside keeps its own accessible name
    "aria-labelledby": "map-caption",
  });
  map.append(svg("defs", {}, svg("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" }, svg("path", { d: "M0,0 L10,5 L0,10 z", class: "arrow-head" }))));
  map.append(grid(cols, rows, box));
  for (const shot of shots) map.append(...drawShot(shot, game, centre, words));
  for (const [engine, square] of aims) map.append(drawAim(engine, square, centre, words));
  for (const structure of structures) map.append(drawStructure(structure, px, py, words));
  for (const engine of engines) map.append(drawEngine(engine, px, py, words));
  for (const creature of creatures) map.append(drawCreature(creature, centre, words));
  return map;
}

function grid(cols, rows, box) {
  const step = cols * rows > 40000 ? 5 : 1; // a large field gets a line every 5 squares only
  const lines = [];
  for (let i = 0; i <= cols; i += step) lines.push(`M${i * CELL},0 V${rows * CELL}`);
  for (let j = 0; j <= rows; j += step) lines.push(`M0,${j * CELL} H${cols * CELL}`);
  const origin = svg("text", { x: (0 - box.minX) * CELL + 2, y: (box.maxY + 1) * CELL - 3, class: "grid-origin" }, "0,0");
  return svg("g", { class: "grid", "aria-hidden": "true" }, svg("path", { d: lines.join(" ") }), origin);
}

function drawAim(engine, square, centre, words) {
  const [ex, ey] = centre(engine.position);
  const [ax, ay] = centre(square);
  const label = `${engine.id}: ${words.aimedSquare} ${squareText(square)}`;
  return svg(
    "g",
    { class: "aim", "data-entity-id": engine.id, "data-square": `${square.x},${square.y}` },
    titled(label),
    svg("line", { x1: ex, y1: ey, x2: ax, y2: ay, class: "aim-line" }),
    svg("rect", { x: ax - CELL / 2, y: ay - CELL / 2, width: CELL, height: CELL, class: "aimed-square" }),
    svg("path", { d: `M${ax - 7},${ay} H${ax + 7} M${ax},${ay - 7} V${ay + 7}`, class: "crosshair" }),
  );
}

function drawShot(shot, game, centre, words) {
  const [ox, oy] = centre(shot.origin);
  const [lx, ly] = centre(shot.landing);
  const drawn = [];
  const areas = shot.effects.filter((e) => AREA_ZONES.has(e.zone));
  if (areas.length) {
    const radius = Math.max(...areas.map((e) => e.distance_ft), 5);
    drawn.push(svg("circle", { cx: lx, cy: ly, r: (radius / 5 + 0.5) * CELL, class: "splash" }, titled(`${words.splash}: ${radius} ft`)));
  }
  if (shot.scatter && shot.scatter.distance_squares > 0) {
    drawn.push(
      svg("line", { x1: ox, y1: oy, x2: lx, y2: ly, class: "scatter-path", "marker-end": "url(#arrow)" }, titled(`${words.scatter}: ${shot.scatter.direction} ${shot.scatter.distance_squares}`)),
    );
  }
  drawn.push(
    svg(
      "g",
      { class: "landing", "data-square": `${shot.landing.x},${shot.landing.y}`, "data-version": shot.version },
      titled(`${words.landing} ${squareText(shot.landing)}`),
      svg("rect", { x: lx - CELL / 2, y: ly - CELL / 2, width: CELL, height: CELL, class: "landing-square" }),
      svg("circle", { cx: lx, cy: ly, r: 4, class: "landing-dot" }),
    ),
  );
  return drawn;
}

function drawEngine(engine, px, py, words) {
  const flags = [
    engine.loaded ? words.loaded : null,
    engine.aim_target ? words.aimed : null,
    engine.broken_by_mishap || engine.hp * 2 <= engine.max_hp ? words.broken : null,
    engine.destroyed ? words.destroyed : null,
  ].filter(Boolean);
  const x = px(engine.position.x);
  const y = py(engine.position.y);
  const label = `${engine.id} (${engine.catalog_id}): ${flags.join(", ") || "—"} · ${engine.hp}/${engine.max_hp} ${words.hp}`;
  const classes = ["engine", engine.loaded ? "loaded" : "", engine.aim_target ? "aimed" : "", flags.includes(words.broken) ? "broken" : "", engine.destroyed ? "destroyed" : ""];
  return svg(
    "g",
    { class: classes.filter(Boolean).join(" "), "data-entity-id": engine.id, role: "img", "aria-label": label },
    titled(label),
    svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, rx: 2, class: "engine-body" }),
    svg("text", { x: x + CELL / 2, y: y + CELL / 2 + 4, class: "engine-mark" }, engine.loaded ? "L" : "E"),
    hpBar(x, y - 6, CELL, engine.hp, engine.max_hp, words),
  );
}

function drawCreature(creature, centre, words) {
  const [cx, cy] = centre(creature.position);
  const down = creature.hp <= 0 || (creature.conditions || []).includes("down");
  const role = creature.crewing ? ` · crew ${creature.crewing}` : "";
  const label = `${creature.id} (${words.creature}${role}) ${creature.hp}/${creature.max_hp} ${words.hp}`;
  const classes = ["creature", creature.crewing ? "crew" : "", down ? "down" : ""];
  return svg(
    "g",
    { class: classes.filter(Boolean).join(" "), "data-entity-id": creature.id, role: "img", "aria-label": label },
    titled(label),
    svg("circle", { cx, cy, r: CELL / 2 - 3, class: "creature-body" }),
    svg("text", { x: cx, y: cy - CELL / 2 - 1, class: "creature-label" }, creature.id),
  );
}

function drawStructure(structure, px, py, words) {
  const x = px(structure.position.x);
  const y = py(structure.position.y);
  const state = [structure.broken ? words.broken : null, structure.breached ? "breached" : null, structure.destroyed ? words.destroyed : null, structure.open === true ? words.open : structure.open === false ? words.closed : null].filter(Boolean);
  const label = `${structure.id} (${structure.kind}, ${structure.material}) ${structure.hp}/${structure.max_hp} ${words.hp}${state.length ? ` · ${state.join(", ")}` : ""}`;
  const classes = ["structure", `kind-${structure.kind}`, structure.broken ? "broken" : "", structure.destroyed ? "destroyed" : "", structure.open ? "open" : ""];
  return svg(
    "g",
    { class: classes.filter(Boolean).join(" "), "data-entity-id": structure.id, role: "img", "aria-label": label },
    titled(label),
    svg("rect", { x, y, width: CELL, height: CELL, class: "structure-body" }),
    svg("text", { x: x + CELL / 2, y: y + CELL + 9, class: "structure-label" }, structure.id),
    hpBar(x, y - 6, CELL, structure.hp, structure.max_hp, words),
  );
}

export function pathfinderCaption(state, words) {
  return `${words.round} ${state.game.round} · ${words.wind} ${words.term(`pathfinder.wind.${state.game.wind}`)}`;
}
