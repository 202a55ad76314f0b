// Scene tokens linked to the battle's entities: a token's flag names an engine, a creature or a stand, so
// selecting the token selects the entity in the panel. A token without a flag whose name is an entity's
// id is taken for it.

/**
 * @typedef {import("./panel-model.js").PanelModel} PanelModel
 */

/**
 * The entity a scene token stands for, if any.
 * @param {{flag: unknown, name: string | null | undefined}} token
 * @param {PanelModel} model
 * @returns {string | null}
 */
export function entityForToken({ flag, name }, model) {
  const ids = model.groups.flatMap((group) => group.entities.map((entity) => entity.id));
  if (typeof flag === "string" && ids.includes(flag)) return flag;
  if (!name) return null;
  return ids.find((id) => id.toLowerCase() === name.trim().toLowerCase()) ?? null;
}
