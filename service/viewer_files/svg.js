// Small DOM builders for the maps and the log: elements with attributes and children, no markup strings.

const SVG_NS = "http://www.w3.org/2000/svg";

function build(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function svg(name, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, name), attrs, children);
}

export function html(name, attrs = {}, ...children) {
  return build(document.createElement(name), attrs, children);
}

// a tooltip and an accessible name for an SVG shape
export function titled(text) {
  return svg("title", {}, text);
}

// a horizontal bar of hit points: the full width is max, the filled part what is left
export function hpBar(x, y, width, hp, max, words) {
  const left = Math.max(0, Math.min(1, max > 0 ? hp / max : 0));
  const level = left > 0.5 ? "high" : left > 0.25 ? "mid" : "low";
  return svg(
    "g",
    { class: "hp-bar" },
    svg("rect", { x, y, width, height: 5, class: "hp-back" }),
    svg("rect", { x, y, width: Math.round(width * left * 10) / 10, height: 5, class: `hp-fill hp-${level}` }),
    titled(`${hp} / ${max} ${words.hp}`),
  );
}
