// The panel's model: the battle's entities (engines, creatures, structures, sections, stands) with their
// state and the commands each allows now, read from the ruleset's own description (GET /rulesets/{name}):
// its commands, their JSON Schemas, their phases and which are the referee's. Nothing here names a command.

/**
 * A JSON Schema, as GET /rulesets/{name} serves each command's body.
 * @typedef {object} Schema
 * @property {string | string[]} [type]
 * @property {Record<string, Schema>} [properties]
 * @property {string[]} [required]
 * @property {unknown[]} [enum]
 * @property {unknown} [const]
 * @property {unknown} [default]
 * @property {Schema[]} [oneOf]
 * @property {Schema[]} [anyOf]
 * @property {Schema} [items]
 * @property {number} [minimum]
 * @property {number} [maximum]
 * @property {number} [minItems]
 * @property {string} [description]
 * @property {string} [title]
 */

/**
 * @typedef {object} CommandSpec
 * @property {string} doc
 * @property {string[]} phases empty: any time
 * @property {string[]} dice the dice slots the command may draw from
 * @property {boolean} referee_only
 * @property {Schema} body
 * @property {Record<string, unknown>} [example]
 */

/**
 * @typedef {object} Ruleset
 * @property {string} name
 * @property {string} title
 * @property {string} rules_version
 * @property {string[]} phases
 * @property {Record<string, CommandSpec>} commands
 * @property {string[]} dice_slots
 */

/**
 * @typedef {import("./settings.js").Role} Role
 * @typedef {Record<string, unknown> & {id: string}} Entity
 */

/**
 * One command this user may send now from an entity, the entity's id already in `field`.
 * @typedef {object} Offer
 * @property {string} type
 * @property {string | null} field the command's field that names the entity (null for the battle's own)
 * @property {Record<string, unknown>} prefill
 */

/**
 * @typedef {object} EntityView
 * @property {string} id
 * @property {string} collection
 * @property {[string, string][]} facts its state in short: name and value
 * @property {string | null | undefined} side undefined where its kind has no side
 * @property {boolean} mine whether this user's role acts with it
 * @property {Offer[]} offers
 */

/**
 * @typedef {object} PanelModel
 * @property {string} ruleset
 * @property {number} version
 * @property {string | null} phase
 * @property {number | null} turn
 * @property {boolean} concluded
 * @property {number} undoable the version an undo would cancel (0: none)
 * @property {{collection: string, entities: EntityView[]}[]} groups
 * @property {Offer[]} battle the commands that act with no entity (setup, phases, undo, conclude)
 */

// the entity kinds a command field may name by something other than `<kind>_id`: a gate is a section of
// kind `gate`, a transport a stand; `by` and the crew's names are creatures (pathfinder)
const ALIASES = /** @type {Record<string, {collection: string, kind?: string}>} */ ({
  gate: { collection: "sections", kind: "gate" },
  transport: { collection: "stands" },
  by: { collection: "creatures" },
  leader: { collection: "creatures" },
  observer: { collection: "creatures" },
});

/**
 * The state's collections of entities: every array of objects with an `id` in the ruleset's state.
 * @param {Record<string, unknown>} game
 * @returns {Record<string, Entity[]>}
 */
export function collections(game) {
  /** @type {Record<string, Entity[]>} */
  const found = {};
  for (const [name, value] of Object.entries(game)) {
    if (Array.isArray(value) && value.every((item) => typeof item === "object" && item && "id" in item)) {
      found[name] = /** @type {Entity[]} */ (value);
    }
  }
  return found;
}

/**
 * Which collection a field of a command names, if any: `engine_id` → engines, `gate_id` → the sections
 * of kind gate, `by` → creatures.
 * @param {string} field
 * @param {Schema} schema
 * @param {Record<string, Entity[]>} known
 * @returns {{collection: string, kind?: string} | null}
 */
export function fieldTarget(field, schema, known) {
  if (!isString(schema)) return null;
  const stem = field.endsWith("_id") ? field.slice(0, -3) : field;
  const alias = ALIASES[stem];
  if (alias && alias.collection in known) return alias;
  if (field.endsWith("_id") && `${stem}s` in known) return { collection: `${stem}s` };
  return null;
}

/**
 * The fields a command acts with: its first required field naming an entity or, when none is required
 * (exactly one of `stand_id` and `gate_id`), each optional one.
 * @param {CommandSpec} spec
 * @param {Record<string, Entity[]>} known
 * @returns {{field: string, collection: string, kind?: string}[]}
 */
export function actingFields(spec, known) {
  const properties = spec.body.properties ?? {};
  const required = spec.body.required ?? [];
  const named = Object.entries(properties)
    .filter(([field]) => field !== "type" && field !== "dice")
    .map(([field, schema]) => ({ field, target: fieldTarget(field, schema, known) }))
    .filter(({ target }) => target !== null)
    .map(({ field, target }) => ({ field, ...(/** @type {{collection: string, kind?: string}} */ (target)) }));
  const first = named.find(({ field }) => required.includes(field));
  return first ? [first] : named;
}

/**
 * Whether the command may be sent now: in its phases, before conclude, the referee's by a GM only.
 * @param {CommandSpec} spec
 * @param {{phase: string | null, concluded: boolean}} battle
 * @param {Role} role
 */
export function allowedNow(spec, battle, role) {
  if (role.kind === "observer") return false;
  if (spec.referee_only && role.kind !== "gm") return false;
  if (battle.concluded) return false;
  return spec.phases.length === 0 || battle.phase === null || spec.phases.includes(battle.phase);
}

/**
 * Whether this role acts with the entity: a GM with all, a side with those of its side (entities whose kind
 * has no side, such as epic's sections, are left to the service: its preview says whose they are).
 * @param {Entity} entity
 * @param {Role} role
 */
export function actsWith(entity, role) {
  if (role.kind === "gm") return true;
  if (role.kind !== "side") return false;
  if (!("side" in entity)) return true;
  return entity.side === role.side;
}

/**
 * The panel for one user: every entity with its state, and the commands this user may send now.
 * @param {Ruleset} ruleset
 * @param {{version: number, game: Record<string, unknown>, concluded: boolean, undoable: number}} state
 * @param {Role} role
 * @returns {PanelModel}
 */
export function panelModel(ruleset, state, role) {
  const known = collections(state.game);
  const phase = typeof state.game.phase === "string" ? state.game.phase : null;
  const turn = typeof state.game.turn === "number" ? state.game.turn : null;
  const battle = { phase, concluded: state.concluded };
  /** @type {Record<string, EntityView[]>} */
  const views = {};
  for (const [collection, entities] of Object.entries(known)) {
    views[collection] = entities.map((entity) => ({
      id: entity.id,
      collection,
      facts: facts(entity),
      side: "side" in entity ? /** @type {string | null} */ (entity.side) : undefined,
      mine: actsWith(entity, role),
      offers: [],
    }));
  }
  /** @type {Offer[]} */
  const battleOffers = [];
  for (const [type, spec] of Object.entries(ruleset.commands)) {
    if (!allowedNow(spec, battle, role)) continue;
    const fields = actingFields(spec, known);
    if (fields.length === 0) {
      battleOffers.push({ type, field: null, prefill: sidePrefill(spec, role) });
      continue;
    }
    for (const { field, collection, kind } of fields) {
      for (const [index, entity] of known[collection].entries()) {
        if (kind !== undefined && entity.kind !== kind) continue;
        if (entity.destroyed === true || !actsWith(entity, role)) continue;
        views[collection][index].offers.push({ type, field, prefill: { [field]: entity.id } });
      }
    }
  }
  return {
    ruleset: ruleset.name,
    version: state.version,
    phase,
    turn,
    concluded: state.concluded,
    undoable: state.undoable,
    groups: Object.entries(views).map(([collection, entities]) => ({ collection, entities })),
    battle: battleOffers,
  };
}

/**
 * A side's own `side` filled in where a command names one (add_stand, add_creature, place_engine).
 * @param {CommandSpec} spec
 * @param {Role} role
 * @returns {Record<string, unknown>}
 */
function sidePrefill(spec, role) {
  return role.kind === "side" && spec.body.properties?.side ? { side: role.side } : {};
}

/**
 * An entity's state in short: its scalar members (true flags by name, false and null left out) and its
 * small objects (a square, a location) in one value each.
 * @param {Entity} entity
 * @returns {[string, string][]}
 */
export function facts(entity) {
  /** @type {[string, string][]} */
  const out = [];
  for (const [name, value] of Object.entries(entity)) {
    if (name === "id" || value === null || value === false || value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length > 0 && value.every((v) => typeof v !== "object")) out.push([name, value.join(", ")]);
    } else if (typeof value === "object") {
      const short = shortObject(/** @type {Record<string, unknown>} */ (value));
      if (short) out.push([name, short]);
    } else if (value === true) {
      out.push([name, ""]);
    } else {
      out.push([name, String(value)]);
    }
  }
  return out;
}

/** @param {Record<string, unknown>} value */
function shortObject(value) {
  if (typeof value.x === "number" && typeof value.y === "number") return `(${value.x}, ${value.y})`;
  const parts = Object.values(value).filter((v) => typeof v === "string" || typeof v === "number");
  if (parts.length === 0 || parts.length > 3) return "";
  return parts.join(" ");
}

/** @param {Schema} schema */
function isString(schema) {
  if (schema.type === "string") return true;
  return (schema.anyOf ?? []).some((option) => option.type === "string");
}
