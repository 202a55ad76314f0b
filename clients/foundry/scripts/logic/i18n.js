// Translation as Foundry's game.i18n does it (dotted keys into nested lang files, `{name}` placeholders), so
// the logic runs the same with game.i18n in Foundry and with the lang files alone in a test page.

/**
 * What the logic needs of a translator: game.i18n has both methods.
 * @typedef {object} Translate
 * @property {string} lang the user's language (`en`, `fr`, …)
 * @property {(key: string) => string} localize the key itself when the lang file lacks it
 * @property {(key: string, data?: Record<string, string | number>) => string} format
 */

/**
 * A translator over one parsed lang file, falling back to another (English) for keys it lacks.
 * @param {string} lang
 * @param {Record<string, unknown>} messages
 * @param {Record<string, unknown>} [fallback]
 * @returns {Translate}
 */
export function translator(lang, messages, fallback = {}) {
  const lookup = (/** @type {string} */ key) => find(messages, key) ?? find(fallback, key);
  return {
    lang,
    localize: (key) => lookup(key) ?? key,
    format: (key, data = {}) => fill(lookup(key) ?? key, data),
  };
}

/**
 * `{name}` placeholders filled, as game.i18n.format fills them; unknown ones kept.
 * @param {string} template
 * @param {Record<string, string | number>} data
 */
export function fill(template, data) {
  return template.replace(/{([^{}]+)}/g, (whole, name) => (name in data ? String(data[name]) : whole));
}

/**
 * A key or its fallback when the lang file has no such key: terms such as rules' labels are optional.
 * @param {Translate} t
 * @param {string} key
 * @param {string} otherwise
 */
export function term(t, key, otherwise) {
  const found = t.localize(key);
  return found === key ? otherwise : found;
}

/**
 * @param {Record<string, unknown>} messages
 * @param {string} key
 * @returns {string | undefined}
 */
function find(messages, key) {
  if (typeof messages[key] === "string") return /** @type {string} */ (messages[key]); // a flat file
  /** @type {unknown} */
  let node = messages;
  for (const part of key.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = /** @type {Record<string, unknown>} */ (node)[part];
  }
  return typeof node === "string" ? node : undefined;
}
