// The log: one row per version with its outcome's summary, every die (slot, value, source), each check's
// modifiers labelled in the reader's words and its total against its target; rejections marked with their
// reason and detail.

import { html } from "./svg.js";

const signed = (n) => (n < 0 ? `− ${-n}` : `+ ${n}`);

// every roll-like record in a result, with the path that names it (attacker, roll, effects[0].save, …)
export function checksIn(value, path = "", found = []) {
  if (Array.isArray(value)) {
    value.forEach((item, i) => checksIn(item, `${path}[${i}]`, found));
  } else if (value && typeof value === "object") {
    const rolled = Array.isArray(value.modifiers) || "natural" in value || Array.isArray(value.dice);
    if ((typeof value.total === "number" && rolled) || ("needed" in value && "die" in value)) {
      found.push({ path: path || "roll", check: value });
    }
    for (const [key, child] of Object.entries(value)) {
      if (key !== "dice_used" && key !== "unused_dice") checksIn(child, path ? `${path}.${key}` : key, found);
    }
  }
  return found;
}

function targetOf(path, check, result) {
  for (const key of ["target_number", "target", "dc"]) if (typeof check[key] === "number") return check[key];
  if ("needed" in check) return `${check.needed}+`;
  if (path === "attacker" && result.defender) return result.defender.total; // a fight: each side's total
  if (path === "defender" && result.attacker) return result.attacker.total;
  return null;
}

function success(check) {
  if (typeof check.success === "boolean") return check.success;
  if (typeof check.hit === "boolean") return check.hit;
  return null;
}

// each modifier with its label in the reader's words (`said`): the catalogs' term for the rules' label, else
// the code itself (a label no catalog knows, of an older battle); a save's bonus and a damage's static part
// are the viewer's own
export function describeCheck(path, check, result, words, ruleset) {
  const dice = Array.isArray(check.dice) ? check.dice : "natural" in check ? [check.natural] : "die" in check && check.die !== null ? [check.die] : [];
  const modifiers = (check.modifiers || []).map((m) => ({ ...m, said: words.term(`${ruleset}.label.${m.label}`) }));
  if (typeof check.bonus === "number") modifiers.push({ label: "bonus", value: check.bonus, said: words.bonusLabel });
  if (typeof check.static === "number" && check.static !== 0) modifiers.push({ label: "static", value: check.static, said: words.staticLabel });
  const parts = [dice.length ? `[${dice.join(", ")}]` : ""];
  for (const m of modifiers) parts.push(`${signed(m.value)} ${m.said}`);
  if (typeof check.total === "number") parts.push(`= ${check.total}`);
  const target = targetOf(path, check, result);
  if (target !== null) parts.push(`${words.vs} ${target}`);
  const ok = success(check);
  if (ok !== null) parts.push(`(${ok ? words.success : words.failure})`);
  return { path, text: parts.filter(Boolean).join(" "), dice, modifiers, total: check.total ?? null, target };
}

function checkList(outcome, words, ruleset) {
  const result = outcome.result || {};
  const checks = checksIn(result).map(({ path, check }) => describeCheck(path, check, result, words, ruleset));
  if (!checks.length) return null;
  return html(
    "ul",
    { class: "checks" },
    checks.map((c) =>
      html(
        "li",
        { class: "check", "data-check": c.path },
        html("span", { class: "check-name" }, c.path),
        " ",
        html("span", { class: "check-text" }, c.text),
      ),
    ),
  );
}

function rollList(outcome, words) {
  if (!outcome.rolls?.length) return null;
  return html(
    "ul",
    { class: "rolls", "aria-label": words.rolls },
    outcome.rolls.map((r) =>
      html(
        "li",
        { class: `die source-${r.source}`, "data-slot": r.slot, "data-value": r.value },
        html("span", { class: "die-slot" }, r.slot),
        " ",
        html("span", { class: "die-face" }, r.die),
        " ",
        html("strong", { class: "die-value" }, String(r.value)),
        " ",
        html("span", { class: "die-source" }, r.source),
      ),
    ),
  );
}

function rejection(outcome) {
  if (outcome.status !== "rejected") return null;
  const detail = outcome.detail ? ` ${JSON.stringify(outcome.detail)}` : "";
  return html("p", { class: "reason" }, html("code", {}, outcome.reason), detail);
}

// undone version → the version of the applied undo that cancelled it
export function undoneBy(entries) {
  const undone = new Map();
  for (const entry of entries) {
    const result = entry.outcome?.result;
    if (entry.outcome?.status === "applied" && entry.type === "undo" && result?.undone_version) {
      undone.set(result.undone_version, entry.version);
    }
  }
  return undone;
}

// an entry the service shows hidden to this token (a hidden order, until the reveal): no data, no result
export const isHidden = (entry) => entry.hidden === true || entry.outcome?.hidden === true;

export function logRow(entry, undone, words, ruleset, onPick) {
  const outcome = entry.outcome;
  const status = isHidden(entry) ? "hidden" : outcome ? outcome.status : "pending";
  const cancelledBy = undone.get(entry.version);
  const classes = ["entry", status, cancelledBy ? "undone" : ""].filter(Boolean).join(" ");
  const statusWord = words[status] || status;
  // named by the text it shows (no aria-label): what a reader sees is what a voice command can say
  const button = html(
    "button",
    { type: "button", class: "entry-head" },
    html("span", { class: "entry-version" }, `v${entry.version}`),
    " ",
    html("span", { class: "entry-type" }, entry.type),
    " ",
    html("span", { class: `entry-status status-${status}` }, statusWord),
    cancelledBy ? html("span", { class: "entry-undone" }, ` · ${words.undone(cancelledBy)}`) : null,
  );
  button.addEventListener("click", () => onPick(entry.version));
  return html(
    "li",
    { class: classes, "data-version": entry.version },
    button,
    outcome?.summary ? html("p", { class: "summary" }, outcome.summary) : null,
    outcome ? rejection(outcome) : null,
    outcome ? checkList(outcome, words, ruleset) : null,
    outcome ? rollList(outcome, words) : null,
  );
}
