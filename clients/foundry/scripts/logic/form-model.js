// A command's form, generated from its JSON Schema (GET /rulesets/{name}), and the command read back from
// what was typed: strings, numbers, booleans, choices, nested objects, lists, variants (a location's
// `kind`), dice by slot; anything else as JSON. The service validates again: this only shapes the body.

/**
 * @typedef {import("./panel-model.js").Schema} Schema
 * @typedef {import("./panel-model.js").CommandSpec} CommandSpec
 */

/**
 * One field of the form; `path` names its input (`location.section_id`, `dice.attacker`).
 * @typedef {object} Field
 * @property {string} path
 * @property {string} name the property's own name
 * @property {"text" | "integer" | "number" | "boolean" | "choice" | "object" | "variant" | "list" | "dice" | "json"} kind
 * @property {boolean} required
 * @property {boolean} nullable
 * @property {unknown} [initial] the prefill (or a required field's default): the input's value
 * @property {unknown} [fallback] the schema's default, shown as a placeholder
 * @property {string[]} [choices] a choice's values; a variant's kinds
 * @property {"text" | "integer" | "number"} [items] a list's item kind
 * @property {Field[]} [fields] an object's members
 * @property {Record<string, Field[]>} [variants] a variant's members by kind
 * @property {number} [minimum]
 * @property {number} [maximum]
 * @property {string} [description]
 */

/**
 * @typedef {object} Form
 * @property {string} type the command
 * @property {Field[]} fields
 * @property {string} [doc]
 */

/**
 * @param {string} type
 * @param {CommandSpec} spec
 * @param {Record<string, unknown>} [prefill]
 * @returns {Form}
 */
export function formFor(type, spec, prefill = {}) {
  return { type, doc: spec.doc, fields: objectFields("", spec.body, prefill, new Set(["type"])) };
}

/**
 * @param {string} prefix
 * @param {Schema} schema
 * @param {Record<string, unknown>} prefill
 * @param {Set<string>} [skip]
 * @returns {Field[]}
 */
function objectFields(prefix, schema, prefill, skip = new Set()) {
  const required = schema.required ?? [];
  return Object.entries(schema.properties ?? {})
    .filter(([name]) => !skip.has(name))
    .map(([name, child]) =>
      fieldFor(`${prefix}${name}`, name, child, required.includes(name), prefill[name], prefix === ""),
    );
}

/**
 * @param {string} path
 * @param {string} name
 * @param {Schema} schema
 * @param {boolean} required
 * @param {unknown} prefilled
 * @param {boolean} top
 * @returns {Field}
 */
function fieldFor(path, name, schema, required, prefilled, top) {
  const options = schema.anyOf ?? schema.oneOf;
  const nonNull = options?.filter((option) => option.type !== "null") ?? [];
  const nullable = options !== undefined && nonNull.length < options.length;
  // an optional field shows its default without sending it: left empty, the service applies it
  const initial = prefilled !== undefined ? prefilled : required ? schema.default : undefined;
  const base = { path, name, required, nullable, initial, fallback: schema.default, description: schema.description };
  if (top && name === "dice") {
    const slots = Object.keys(schema.properties ?? {});
    const fields = slots.map((slot) => ({
      path: `${path}.${slot}`, name: slot, kind: /** @type {const} */ ("dice"), required: false, nullable: false,
    }));
    return { ...base, kind: "object", fields };
  }
  if (options && nonNull.length === 1) {
    return { ...fieldFor(path, name, nonNull[0], required, prefilled, false), nullable, initial, fallback: base.fallback, description: base.description };
  }
  if (options && nonNull.length > 1) {
    const variants = variantsOf(path, nonNull, prefilled);
    if (variants) return { ...base, kind: "variant", choices: Object.keys(variants), variants };
    return { ...base, kind: "json" };
  }
  if (schema.enum) return { ...base, kind: "choice", choices: schema.enum.map(String) };
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "boolean") return { ...base, kind: "boolean" };
  if (type === "integer" || type === "number") {
    return { ...base, kind: type, minimum: schema.minimum, maximum: schema.maximum };
  }
  if (type === "string") return { ...base, kind: "text" };
  if (type === "array") {
    const items = schema.items ?? {};
    const itemType = Array.isArray(items.type) ? items.type[0] : items.type;
    if (items.enum || itemType === "string") return { ...base, kind: "list", items: "text", choices: items.enum?.map(String) };
    if (itemType === "integer" || itemType === "number") return { ...base, kind: "list", items: itemType };
    return { ...base, kind: "json" };
  }
  if (type === "object" && schema.properties) {
    const inner = typeof prefilled === "object" && prefilled !== null ? /** @type {Record<string, unknown>} */ (prefilled) : {};
    return { ...base, kind: "object", fields: objectFields(`${path}.`, schema, inner) };
  }
  return { ...base, kind: "json" };
}

/**
 * Objects told apart by one member with a single value (`kind: "at_foot"`): a variant per value.
 * @param {string} path
 * @param {Schema[]} options
 * @param {unknown} prefilled
 * @returns {Record<string, Field[]> | null}
 */
function variantsOf(path, options, prefilled) {
  /** @type {Record<string, Field[]>} */
  const variants = {};
  for (const option of options) {
    if (option.type !== "object" || !option.properties) return null;
    const tag = Object.entries(option.properties).find(
      ([, child]) => (child.enum?.length === 1 || child.const !== undefined) && (option.required ?? []).includes("kind"),
    );
    if (!tag || tag[0] !== "kind") return null;
    const value = String(tag[1].const ?? tag[1].enum?.[0]);
    const inner = typeof prefilled === "object" && prefilled !== null ? /** @type {Record<string, unknown>} */ (prefilled) : {};
    variants[value] = objectFields(`${path}.`, option, inner, new Set(["kind"]));
  }
  return variants;
}

/**
 * The command read from the form's inputs (name → typed string, as FormData gives them; a checkbox
 * present when ticked). Empty optional inputs are left out, so the service applies its defaults.
 * @param {Form} form
 * @param {Record<string, string>} inputs
 * @returns {{command: Record<string, unknown> & {type: string}, errors: Record<string, string>}}
 */
export function readForm(form, inputs) {
  /** @type {Record<string, string>} */
  const errors = {};
  const body = readFields(form.fields, inputs, errors);
  return { command: { type: form.type, ...body }, errors };
}

/**
 * @param {Field[]} fields
 * @param {Record<string, string>} inputs
 * @param {Record<string, string>} errors
 * @returns {Record<string, unknown>}
 */
function readFields(fields, inputs, errors) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const field of fields) {
    const value = readField(field, inputs, errors);
    if (value !== undefined) out[field.name] = value;
  }
  return out;
}

/**
 * @param {Field} field
 * @param {Record<string, string>} inputs
 * @param {Record<string, string>} errors
 * @returns {unknown}
 */
function readField(field, inputs, errors) {
  const raw = (inputs[field.path] ?? "").trim();
  const missing = () => {
    if (field.required) errors[field.path] = "required";
    return undefined;
  };
  switch (field.kind) {
    case "object": {
      // an optional object left empty is left out, whatever its own members require
      /** @type {Record<string, string>} */
      const own = {};
      const inner = readFields(field.fields ?? [], inputs, own);
      if (Object.keys(inner).length === 0 && !field.required) return undefined;
      Object.assign(errors, own);
      return inner;
    }
    case "variant": {
      if (!raw) return missing();
      const members = field.variants?.[raw];
      if (!members) return invalid(field, errors, "choice");
      return { kind: raw, ...readFields(members, inputs, errors) };
    }
    case "boolean":
      // a choice of default, yes and no (a checkbox could not say "no" where the default is yes)
      if (!raw) return missing();
      return raw === "true" || raw === "on";
    case "integer":
    case "number": {
      if (!raw) return missing();
      const number = Number(raw);
      if (!Number.isFinite(number) || (field.kind === "integer" && !Number.isInteger(number))) {
        return invalid(field, errors, field.kind);
      }
      return number;
    }
    case "choice":
    case "text":
      return raw ? raw : missing();
    case "list": {
      if (!raw) return missing();
      const items = raw.split(/[\s,]+/).filter(Boolean);
      if (field.items === "text") return items;
      const numbers = items.map(Number);
      return numbers.every(Number.isInteger) ? numbers : invalid(field, errors, "integer");
    }
    case "dice": {
      if (!raw) return undefined;
      const values = raw.split(/[\s,]+/).filter(Boolean).map(Number);
      return values.every((v) => Number.isInteger(v) && v >= 1) ? values : invalid(field, errors, "dice");
    }
    case "json": {
      if (!raw) return missing();
      try {
        return JSON.parse(raw);
      } catch {
        return invalid(field, errors, "json");
      }
    }
  }
}

/**
 * @param {Field} field
 * @param {Record<string, string>} errors
 * @param {string} why
 */
function invalid(field, errors, why) {
  errors[field.path] = why;
  return undefined;
}

/**
 * The inputs a command fills in a form: the reverse of readForm, for prefilled forms and for tests.
 * @param {Form} form
 * @param {Record<string, unknown>} command
 * @returns {Record<string, string>}
 */
export function inputsOf(form, command) {
  /** @type {Record<string, string>} */
  const out = {};
  const walk = (/** @type {Field[]} */ fields, /** @type {Record<string, unknown>} */ values) => {
    for (const field of fields) {
      const value = values[field.name];
      if (value === undefined || value === null) continue;
      if (field.kind === "object") walk(field.fields ?? [], /** @type {Record<string, unknown>} */ (value));
      else if (field.kind === "variant") {
        const kind = String(/** @type {Record<string, unknown>} */ (value).kind);
        out[field.path] = kind;
        walk(field.variants?.[kind] ?? [], /** @type {Record<string, unknown>} */ (value));
      } else if (field.kind === "boolean") out[field.path] = String(Boolean(value));
      else if (field.kind === "json") out[field.path] = JSON.stringify(value);
      else if (Array.isArray(value)) out[field.path] = value.join(", ");
      else out[field.path] = String(value);
    }
  };
  walk(form.fields, command);
  return out;
}
