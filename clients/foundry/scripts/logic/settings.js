// The module's settings: what each is, where Foundry keeps it, and which token a user reads and sends with.
// Foundry sends every world setting and every document (user flags and whispers included) to every client,
// so a world setting holds only the observer token; the GM's token and a player's side pass are client
// settings, kept in that browser alone.

export const MODULE_ID = "siege-foundry";

/**
 * @typedef {"world" | "client"} Scope
 * @typedef {object} SettingSpec
 * @property {string} key
 * @property {Scope} scope
 * @property {"string" | "choice"} kind
 * @property {string} default
 * @property {boolean} config shown in Foundry's settings dialog
 * @property {string[]} [choices] the values of a `choice`; each labelled `SIEGE.Settings.<key>.<value>`
 */

/** @type {SettingSpec[]} */
export const SETTINGS = [
  { key: "serviceUrl", scope: "world", kind: "string", default: "", config: true },
  { key: "battleId", scope: "world", kind: "string", default: "", config: true },
  { key: "ruleset", scope: "world", kind: "string", default: "", config: false },
  // read by every client: an observer token reads and streams, and sends nothing
  { key: "observerToken", scope: "world", kind: "string", default: "", config: true },
  { key: "diceMode", scope: "world", kind: "choice", default: "service", config: true, choices: ["service", "foundry"] },
  { key: "gmToken", scope: "client", kind: "string", default: "", config: true },
  { key: "sidePass", scope: "client", kind: "string", default: "", config: true },
];

/**
 * @typedef {object} SettingValues
 * @property {string} serviceUrl
 * @property {string} battleId
 * @property {string} ruleset
 * @property {string} observerToken
 * @property {string} diceMode `service` or `foundry`
 * @property {string} gmToken
 * @property {string} sidePass `<side>:<token>`, as the GM's panel mints it
 */

/**
 * Who this user is to the service: the role its token has, and that token.
 * @typedef {{kind: "gm", token: string} | {kind: "side", side: string, token: string} | {kind: "observer", token: string}} Role
 */

/**
 * The pass a GM hands a player: the side's name and its token in one string, so the panel knows the side
 * without asking the service (a side token cannot list tokens).
 * @param {string} side
 * @param {string} token
 */
export function sidePass(side, token) {
  return `${side}:${token}`;
}

/**
 * @param {string} pass
 * @returns {{side: string, token: string} | null}
 */
export function parsePass(pass) {
  const colon = pass.trim().indexOf(":");
  if (colon <= 0) return null;
  const side = pass.trim().slice(0, colon);
  const token = pass.trim().slice(colon + 1);
  return /^[a-z0-9_.-]{1,64}$/.test(side) && token ? { side, token } : null;
}

/**
 * The role this user reads and sends as: a GM with the GM token, a player with their side pass, anyone else
 * with the world's observer token; null when the battle is not linked yet.
 * @param {SettingValues} values
 * @param {boolean} isGM
 * @returns {Role | null}
 */
export function roleOf(values, isGM) {
  if (!values.serviceUrl || !values.battleId) return null;
  if (isGM && values.gmToken) return { kind: "gm", token: values.gmToken };
  const pass = isGM ? null : parsePass(values.sidePass);
  if (pass) return { kind: "side", side: pass.side, token: pass.token };
  return values.observerToken ? { kind: "observer", token: values.observerToken } : null;
}

/**
 * The values with what the GM's panel set; unknown keys are refused, so a typo never writes a setting.
 * @param {SettingValues} values
 * @param {Partial<SettingValues>} changes
 * @returns {SettingValues}
 */
export function changed(values, changes) {
  for (const key of Object.keys(changes)) {
    if (!SETTINGS.some((spec) => spec.key === key)) throw new TypeError(`no setting ${key}`);
  }
  return { ...values, ...changes };
}

/** @returns {SettingValues} */
export function defaults() {
  return /** @type {SettingValues} */ (Object.fromEntries(SETTINGS.map((spec) => [spec.key, spec.default])));
}
