// Dice: the service's verifiable stream (the default: the battle committed to its seed, and the audit
// checks every die once it is revealed), or the table's own rolls (Foundry's) sent as client dice.
// A client die must be exactly what the rules draw: a slot drawn once with a known die is rolled here; a
// slot whose count depends on the path (damage after a hit, a scatter's distance, one save per target) is
// left to the stream, and the outcome's rolls say for each die where it came from.

/**
 * The Foundry roll per slot a command draws from exactly once whenever it draws at all; a slot supplied but
 * not drawn (a confirmation without a threat) is returned unused, which the rules allow.
 * @type {Record<string, Record<string, Record<string, string>>>}
 */
export const ROLLS = {
  epic: {
    assault: { attacker: "2d6", defender: "2d6" },
    fire: { to_hit: "1d6", save: "2d6", unit_save: "1d6" },
    operate_gate: { jam: "1d6" },
    repair: { repair: "1d6" },
  },
  pathfinder: {
    fire: { attack: "1d20", confirm: "1d20", targeting: "1d20", scatter_direction: "1d8" },
    ram: { attack: "1d20", confirm: "1d20" },
    break: { check: "1d20" },
    use_corvus: { check: "1d20" },
    repair: { check: "1d20" },
  },
};

/**
 * @typedef {(formula: string) => Promise<number[]>} Roller a formula such as `2d6`, rolled: each die's value
 * @typedef {"service" | "foundry"} DiceMode
 */

/**
 * The `dice` a command carries in the chosen mode: none with the service's dice; with Foundry's, a roll
 * for each slot of ROLLS the command may draw from (slots the user typed in the form are kept as typed).
 * @param {DiceMode} mode
 * @param {string} ruleset
 * @param {Record<string, unknown> & {type: string}} command
 * @param {string[]} slots the command's dice slots, as GET /rulesets/{name} lists them
 * @param {Roller} roll
 * @returns {Promise<Record<string, number[]> | null>} null: nothing to add
 */
export async function diceFor(mode, ruleset, command, slots, roll) {
  if (mode !== "foundry") return null;
  const table = ROLLS[ruleset]?.[command.type] ?? {};
  const typed = /** @type {Record<string, unknown>} */ (command.dice ?? {});
  /** @type {Record<string, number[]>} */
  const dice = {};
  for (const slot of slots) {
    if (slot in typed || !(slot in table)) continue;
    dice[slot] = await roll(table[slot]);
  }
  return Object.keys(dice).length ? dice : null;
}

/**
 * Where an outcome's dice came from: the service's stream, the client (Foundry's rolls or typed), both, or
 * no dice at all.
 * @param {{rolls: {source: string}[]}} outcome
 * @returns {"service" | "client" | "mixed" | "none"}
 */
export function diceSource(outcome) {
  const sources = new Set(outcome.rolls.map((roll) => roll.source));
  if (sources.size === 0) return "none";
  if (sources.size > 1) return "mixed";
  return sources.has("stream") ? "service" : "client";
}
