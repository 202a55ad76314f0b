// The epic map: fortification sections in a row (adjacent ones side by side), the stands on each section,
// at its foot, inside and outside by side, the gates' doors and the transports with their passengers.

import { svg, titled } from "./svg.js";

const SECTION_W = 150;
const GAP = 14;
const TOKEN = 40;
const BAND = 58; // the height of one band of stands (inside, at the foot, outside)
const SCALE = 1.5; // drawn size per unit of the view box, before the page shrinks it to fit

// sections ordered so that adjacent ones follow each other; the rest keep their creation order
export function sectionOrder(sections) {
  const byId = new Map(sections.map((s) => [s.id, s]));
  const seen = new Set();
  const ordered = [];
  const visit = (section) => {
    seen.add(section.id);
    ordered.push(section);
    for (const id of section.adjacent || []) {
      const next = byId.get(id);
      if (next && !seen.has(id)) visit(next);
    }
  };
  for (const section of sections) if (!seen.has(section.id)) visit(section);
  return ordered;
}

export function sectionStatus(section, words) {
  if (section.status === "destroyed") return words.destroyed;
  const failed = section.consecutive_failed_saves || 0;
  return failed ? `${words.intact} · ${words.failedSaves(failed)}` : words.intact;
}

export function gateState(section, words) {
  if (section.kind !== "gate") return null;
  const door = section.door === "open" ? words.open : words.closed;
  return section.jammed ? `${door} · ${words.jammed}` : door;
}

function stand(s, x, y, passengers, words) {
  const classes = ["stand", `side-${s.side}`, `type-${s.stand_type}`, s.destroyed ? "destroyed" : ""];
  const carried = passengers.length ? ` · ${words.transport}: ${passengers.map((p) => p.id).join(", ")}` : "";
  const description = `${s.id} (${s.stand_type}, ${s.side === "attacker" ? words.attacker : words.defender}, caf ${s.caf})${s.destroyed ? ` · ${words.destroyed}` : ""}${carried}`;
  const group = svg(
    "g",
    { class: classes.join(" "), "data-entity-id": s.id, transform: `translate(${x},${y})`, role: "img", "aria-label": description },
    titled(description),
    s.stand_type === "infantry"
      ? svg("rect", { width: TOKEN, height: TOKEN - 12, y: 6, rx: 4, class: "token" })
      : svg("polygon", { points: `0,${TOKEN} ${TOKEN / 2},0 ${TOKEN},${TOKEN}`, class: "token" }),
    svg("text", { x: TOKEN / 2, y: TOKEN / 2 + 4, class: "token-label" }, s.id),
    s.destroyed ? svg("path", { d: `M2,2 L${TOKEN - 2},${TOKEN - 2} M${TOKEN - 2},2 L2,${TOKEN - 2}`, class: "cross" }) : null,
  );
  passengers.forEach((p, i) => {
    group.append(
      svg(
        "g",
        { class: `stand passenger side-${p.side}`, "data-entity-id": p.id, transform: `translate(${TOKEN + 3},${i * 14})` },
        titled(`${p.id}: ${words.embarked} (${s.id})`),
        svg("rect", { width: 30, height: 12, rx: 2, class: "token" }),
        svg("text", { x: 15, y: 9, class: "passenger-label" }, p.id),
      ),
    );
  });
  return group;
}

function row(stands, x, y, width, all, words) {
  const step = Math.max(TOKEN + 6, Math.min(width / Math.max(1, stands.length), TOKEN + 40));
  return stands.map((s, i) => stand(s, x + 4 + i * step, y, carriedBy(s, all), words));
}

function carriedBy(transport, all) {
  return all.filter((s) => s.location.kind === "embarked" && s.location.transport_id === transport.id);
}

function band(label, y, width) {
  return [
    svg("rect", { x: 0, y, width, height: BAND, class: "band" }),
    svg("text", { x: 6, y: y + 12, class: "band-label" }, label),
  ];
}

export function drawEpic(game, words) {
  const sections = sectionOrder(game.sections || []);
  const stands = game.stands || [];
  const columns = Math.max(1, sections.length);
  const width = columns * (SECTION_W + GAP) + GAP;
  const inside = stands.filter((s) => s.location.kind === "inside");
  const outside = stands.filter((s) => s.location.kind === "outside");
  const yInside = 0;
  const ySection = BAND + 8;
  const sectionH = 96;
  const yFoot = ySection + sectionH + 8;
  const yOutside = yFoot + BAND + 8;
  const height = yOutside + BAND;
  const map = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    width: Math.round(width * SCALE),
    height: Math.round(height * SCALE),
    class: "map map-epic",
    role: "group", // a group, not an img: each entity inside keeps its own accessible name
    "aria-labelledby": "map-caption",
  });
  map.append(...band(words.inside, yInside, width), ...row(inside, GAP, yInside + 14, width - GAP, stands, words));
  map.append(...band(words.atFoot, yFoot, width));
  const half = (width - GAP) / 2;
  map.append(...band(`${words.outside} · ${words.attacker}`, yOutside, width));
  map.append(svg("path", { d: `M${GAP + half},${yOutside} V${yOutside + BAND}`, class: "band-divider" }));
  map.append(svg("text", { x: GAP + half + 6, y: yOutside + 12, class: "band-label" }, `${words.outside} · ${words.defender}`));
  const bySide = (side) => outside.filter((s) => s.side === side);
  map.append(...row(bySide("attacker"), GAP, yOutside + 14, half, stands, words));
  map.append(...row(bySide("defender"), GAP + half, yOutside + 14, half, stands, words));
  sections.forEach((section, i) => {
    const x = GAP + i * (SECTION_W + GAP);
    const status = sectionStatus(section, words);
    const gate = gateState(section, words);
    const classes = ["section", `kind-${section.kind}`, section.status, section.consecutive_failed_saves ? "failing" : ""];
    const label = `${section.id} (${words.term(`epic.kind.${section.kind}`)}): ${status}${gate ? ` · ${gate}` : ""}`;
    map.append(
      svg(
        "g",
        { class: classes.join(" "), "data-entity-id": section.id, role: "img", "aria-label": label },
        titled(label),
        svg("rect", { x, y: ySection, width: SECTION_W, height: sectionH, rx: 3, class: "section-body" }),
        svg("text", { x: x + 6, y: ySection + 14, class: "section-name" }, `${section.id} · ${words.term(`epic.kind.${section.kind}`)}`),
        svg("text", { x: x + 6, y: ySection + 28, class: "section-status" }, status),
        gate
          ? svg("text", { x: x + 6, y: ySection + 42, class: `gate-state door-${section.door}${section.jammed ? " jammed" : ""}` }, gate)
          : null,
        section.status === "destroyed"
          ? svg("path", { d: `M${x},${ySection} L${x + SECTION_W},${ySection + sectionH}`, class: "rubble" })
          : null,
      ),
    );
    const on = stands.filter((s) => s.location.kind === "on" && s.location.section_id === section.id);
    map.append(...row(on, x, ySection + 48, SECTION_W, stands, words));
    const foot = stands.filter((s) => s.location.kind === "at_foot" && s.location.section_id === section.id);
    map.append(...row(foot, x, yFoot + 14, SECTION_W, stands, words));
  });
  return map;
}

export function epicCaption(state, words) {
  const game = state.game;
  return `${words.turn} ${game.turn} · ${words.term(`epic.phase.${game.phase}`)}`;
}
