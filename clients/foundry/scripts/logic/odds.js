// A preview's odds in words, before a command is sent: "hit 35 %, destroys g1 12 %". Read from the fields
// POST /battles/{id}/previews answers (each scalar of the result with its probabilities): a hit, a
// contest's result, what is destroyed (a stand, a section, an effect's hp down to 0), mishaps; then the
// chance the command is rejected and why.

import { term } from "./i18n.js";

/**
 * @typedef {import("./i18n.js").Translate} Translate
 * @typedef {{kind: "categorical", p: Record<string, number>, se?: Record<string, number>}} Categorical
 * @typedef {{kind: "numeric", p: number, null: number, min: number | null, mean: number | null, max: number | null, histogram: {from: number, to: number, p: number}[]}} Numeric
 * @typedef {object} Preview
 * @property {boolean} exact
 * @property {number} samples
 * @property {{applied: number, rejected: number}} status
 * @property {Record<string, number>} reasons
 * @property {Record<string, Categorical | Numeric>} fields
 */

/**
 * One chance in words: its message key, the names it fills, and its probability.
 * @typedef {{key: string, data: Record<string, string>, p: number}} Chance
 */

const FLAGS = ["hit", "mishap", "misfire", "exploded"]; // boolean results worth a line, where a result has them

/**
 * The chances worth telling, in order: flags, a contest's result, what is destroyed, the rejection.
 * @param {Preview} preview
 * @param {Record<string, unknown>} command
 * @returns {Chance[]}
 */
export function chances(preview, command) {
  /** @type {Chance[]} */
  const out = [];
  const fields = preview.fields;
  for (const flag of FLAGS) {
    const field = fields[flag];
    if (field?.kind === "categorical" && "true" in field.p) out.push({ key: `SIEGE.Odds.${flag}`, data: {}, p: field.p.true });
  }
  const result = fields.result;
  if (result?.kind === "categorical") {
    for (const [value, p] of Object.entries(result.p)) {
      if (value !== "null") out.push({ key: `SIEGE.Odds.result.${value}`, data: { value }, p });
    }
  }
  /** @type {Map<string, number>} */
  const destroyed = new Map();
  const add = (/** @type {string} */ id, /** @type {number} */ p) => destroyed.set(id, (destroyed.get(id) ?? 0) + p);
  for (const [path, field] of Object.entries(fields)) {
    // a stand appears at most once in a path's list, so its chances over the list's places add up
    if (/^destroyed_stands\.\d+$/.test(path) && field.kind === "categorical") {
      for (const [id, p] of Object.entries(field.p)) if (id !== "null") add(id, p);
    }
    const effect = path.match(/^effects\.(\d+)\.hp_after$/);
    if (effect && field.kind === "numeric") {
      const down = field.histogram.filter((bucket) => bucket.to <= 0).reduce((sum, bucket) => sum + bucket.p, 0);
      const who = fields[`effects.${effect[1]}.entity_id`];
      if (down > 0 && who?.kind === "categorical") add(Object.keys(who.p).filter((id) => id !== "null").join("/"), down);
    }
  }
  const section = fields.section_destroyed;
  if (section?.kind === "categorical" && section.p.true) add(String(command.section_id ?? "?"), section.p.true);
  for (const [id, p] of destroyed) out.push({ key: "SIEGE.Odds.destroys", data: { id }, p });
  if (preview.status.rejected > 0) {
    const reasons = Object.keys(preview.reasons).join(", ");
    out.push({ key: "SIEGE.Odds.rejected", data: { reasons }, p: preview.status.rejected });
  }
  return out;
}

/**
 * The odds in one line, in the user's language: "hit 35 %, destroys g1 12 %".
 * @param {Preview} preview
 * @param {Record<string, unknown>} command
 * @param {Translate} t
 */
export function oddsText(preview, command, t) {
  const told = chances(preview, command).map(({ key, data, p }) => {
    const what = term(t, key, "") ? t.format(key, data) : data.value ?? key;
    return t.format("SIEGE.Odds.chance", { what, p: percent(p) });
  });
  if (told.length === 0) return t.localize("SIEGE.Odds.none");
  const line = told.join(t.localize("SIEGE.Odds.separator"));
  return preview.exact ? line : `${line} ${t.format("SIEGE.Odds.sampled", { samples: preview.samples })}`;
}

/**
 * A probability as a whole percentage; never 0 or 100 for what may or may not happen.
 * @param {number} p
 */
export function percent(p) {
  if (p > 0 && p < 0.005) return "< 1";
  if (p < 1 && p > 0.995) return "> 99";
  return String(Math.round(p * 100));
}
