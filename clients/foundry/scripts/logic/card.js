// A chat card per outcome: its summary in the reader's language, every die with its source, each check's
// modifiers against its target, where the dice came from, and a link to the battle viewer. Cards are plain
// HTML strings (Foundry stores a chat message's content as one), every value escaped.

import { term } from "./i18n.js";
import { diceSource } from "./dice.js";
import { TERMS } from "../terms.js";

/**
 * @typedef {import("./i18n.js").Translate} Translate
 * @typedef {import("../siege.js").Outcome} Outcome
 * @typedef {import("../siege.js").LogEntry} LogEntry
 */

/** The Idempotency-Key prefix of commands whose dice Foundry rolled: the log keeps it, so every card says so. */
export const FOUNDRY_ROLL_KEY = "foundry-roll:";

/**
 * @typedef {object} Check
 * @property {string} path where in the result (`attacker`, `roll`, `effects.0.save`)
 * @property {number[]} dice
 * @property {{label: string, value: number}[]} modifiers
 * @property {number | null} total
 * @property {number | string | null} target
 * @property {boolean | null} success
 */

/**
 * Every roll-like record of a result: a total with dice, a natural die or modifiers.
 * @param {unknown} value
 * @param {string} [path]
 * @param {Check[]} [found]
 * @returns {Check[]}
 */
export function checksIn(value, path = "", found = []) {
  if (Array.isArray(value)) {
    value.forEach((item, i) => checksIn(item, path ? `${path}.${i}` : String(i), found));
  } else if (value && typeof value === "object") {
    const record = /** @type {Record<string, unknown>} */ (value);
    const rolled = Array.isArray(record.modifiers) || "natural" in record || Array.isArray(record.dice);
    if ((typeof record.total === "number" && rolled) || ("needed" in record && "die" in record)) {
      found.push(check(path || "roll", record));
    }
    for (const [key, child] of Object.entries(record)) {
      if (key !== "dice_used" && key !== "unused_dice") checksIn(child, path ? `${path}.${key}` : key, found);
    }
  }
  return found;
}

/**
 * @param {string} path
 * @param {Record<string, unknown>} record
 * @returns {Check}
 */
function check(path, record) {
  const dice = Array.isArray(record.dice)
    ? /** @type {number[]} */ (record.dice)
    : typeof record.natural === "number"
      ? [record.natural]
      : typeof record.die === "number"
        ? [record.die]
        : [];
  const modifiers = Array.isArray(record.modifiers) ? /** @type {{label: string, value: number}[]} */ (record.modifiers) : [];
  /** @type {number | string | null} */
  let target = null;
  for (const key of ["target_number", "target", "dc"]) if (typeof record[key] === "number") target = /** @type {number} */ (record[key]);
  if (target === null && "needed" in record) target = `${record.needed}+`;
  const success = typeof record.success === "boolean" ? record.success : typeof record.hit === "boolean" ? record.hit : null;
  return { path, dice, modifiers, total: typeof record.total === "number" ? record.total : null, target, success };
}

/**
 * A check in words: "attacker [6, 6] + 3 CAF = 15 vs 11", labels in the catalogs' terms.
 * @param {Check} found
 * @param {Record<string, unknown>} result
 * @param {string} ruleset
 * @param {Translate} t
 */
export function checkText(found, result, ruleset, t) {
  const terms = TERMS[/** @type {keyof typeof TERMS} */ (t.lang in TERMS ? t.lang : "en")];
  const said = (/** @type {string} */ label) =>
    /** @type {Record<string, string>} */ (terms)[`${ruleset}.label.${label}`] ?? label;
  const parts = [found.dice.length ? `[${found.dice.join(", ")}]` : ""];
  for (const { label, value } of found.modifiers) parts.push(`${value < 0 ? "−" : "+"} ${Math.abs(value)} ${said(label)}`);
  if (found.total !== null) parts.push(`= ${found.total}`);
  let target = found.target;
  const other = found.path === "attacker" ? result.defender : found.path === "defender" ? result.attacker : null;
  if (target === null && other && typeof other === "object") {
    const total = /** @type {Record<string, unknown>} */ (other).total;
    if (typeof total === "number") target = total; // a fight: each side's total against the other's
  }
  if (target !== null) parts.push(t.format("SIEGE.Card.versus", { target }));
  if (found.success !== null) parts.push(`(${t.localize(found.success ? "SIEGE.Card.success" : "SIEGE.Card.failure")})`);
  return parts.filter(Boolean).join(" ");
}

/**
 * Where the card says its dice came from.
 * @param {LogEntry & {outcome: Outcome}} entry
 */
export function diceKey(entry) {
  const source = diceSource(entry.outcome);
  const rolledHere = entry.idempotency_key?.startsWith(FOUNDRY_ROLL_KEY) ?? false;
  if (source === "client") return rolledHere ? "SIEGE.Dice.foundry" : "SIEGE.Dice.typed";
  if (source === "mixed") return rolledHere ? "SIEGE.Dice.foundryAndService" : "SIEGE.Dice.typedAndService";
  return source === "service" ? "SIEGE.Dice.service" : null;
}

/**
 * The card of one log entry with its outcome, as this reader's token and language read it.
 * @param {LogEntry & {outcome: Outcome}} entry
 * @param {{ruleset: string, viewerUrl: string, t: Translate}} context
 */
export function renderCard(entry, { ruleset, viewerUrl, t }) {
  const outcome = entry.outcome;
  const result = outcome.result ?? {};
  const title = term(t, `SIEGE.Command.${outcome.type}`, outcome.type);
  // an entry hidden from this reader (another side's order before the reveal) has no status to tell
  const hidden = /** @type {{hidden?: boolean}} */ (entry).hidden === true;
  const said = hidden ? "hidden" : outcome.status === "applied" ? "applied" : "rejected";
  const status = t.localize(`SIEGE.Card.${said}`);
  const rows = [
    `<header class="siege-card-header"><strong>${escape(title)}</strong> <span class="siege-version">v${outcome.version}</span> <span class="siege-status">${escape(status)}</span></header>`,
    `<p class="siege-summary">${escape(outcome.summary)}</p>`,
  ];
  if (outcome.status === "rejected" && outcome.reason) {
    rows.push(`<p class="siege-reason"><code>${escape(outcome.reason)}</code></p>`);
  }
  const checks = checksIn(result);
  if (checks.length) {
    const items = checks.map((found) => {
      const name = term(t, `SIEGE.Check.${found.path.split(".").pop()}`, found.path);
      return `<li data-check="${escape(found.path)}"><span class="siege-check-name">${escape(name)}</span> ${escape(checkText(found, result, ruleset, t))}</li>`;
    });
    rows.push(`<ul class="siege-checks">${items.join("")}</ul>`);
  }
  if (outcome.rolls.length) {
    const faces = outcome.rolls.map(
      (roll) => `<li data-slot="${escape(roll.slot)}" data-source="${escape(roll.source)}">${escape(roll.slot)} ${escape(roll.die)} <strong>${roll.value}</strong></li>`,
    );
    rows.push(`<ul class="siege-dice">${faces.join("")}</ul>`);
  }
  const dice = diceKey(entry);
  if (dice) rows.push(`<p class="siege-dice-mode" data-dice="${dice.split(".").pop()}">${escape(t.localize(dice))}</p>`);
  rows.push(`<p class="siege-link"><a data-siege-viewer href="${escape(viewerUrl)}" target="_blank" rel="noopener noreferrer">${escape(t.localize("SIEGE.Card.viewer"))}</a></p>`);
  const flag = hidden ? " data-hidden" : "";
  return `<div class="siege-card siege-${said}" data-version="${outcome.version}"${flag} lang="${escape(t.lang)}">${rows.join("")}</div>`;
}

/**
 * The viewer's address for a battle, without any token: whoever opens it adds their own in the fragment.
 * @param {string} baseUrl
 * @param {string} battleId
 */
export function viewerUrl(baseUrl, battleId) {
  return `${baseUrl.replace(/\/+$/, "")}/viewer/${encodeURIComponent(battleId)}`;
}

/**
 * The viewer opened with the reader's own token in the fragment, which a browser never sends.
 * @param {string} url
 * @param {string} token
 */
export function viewerWithToken(url, token) {
  return `${url.split("#")[0]}#token=${encodeURIComponent(token)}`;
}

/** @param {unknown} value */
export function escape(value) {
  return String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
