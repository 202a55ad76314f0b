// The battle as this user's client sees it: created or linked by the GM, read and sent with this user's own
// token (so each reader gets the service's view for its role), previews included.

import { SiegeClient, SiegeError } from "../siege.js";
import { sidePass } from "./settings.js";

/**
 * @typedef {import("../siege.js").FetchFunction} FetchFunction
 * @typedef {import("../siege.js").EventSourceClass} EventSourceClass
 * @typedef {import("./settings.js").SettingValues} SettingValues
 * @typedef {import("./settings.js").Role} Role
 * @typedef {import("./odds.js").Preview} Preview
 * @typedef {{fetch?: FetchFunction, EventSource?: EventSourceClass}} Transport
 */

/**
 * A client of the linked battle with this role's token, in the user's language.
 * @param {SettingValues} values
 * @param {Role} role
 * @param {string} language
 * @param {Transport} [transport]
 */
export function clientFor(values, role, language, transport = {}) {
  return new SiegeClient({ baseUrl: values.serviceUrl, battleId: values.battleId, token: role.token, language, ...transport });
}

/**
 * Create a battle with the service key (used once, never stored), mint the observer token every client
 * reads with, and answer the settings to keep.
 * @param {{serviceUrl: string, apiKey: string, ruleset: string, name?: string, language: string} & Transport} options
 * @returns {Promise<Partial<SettingValues>>}
 */
export async function createBattle({ serviceUrl, apiKey, ruleset, name, language, fetch, EventSource }) {
  const { battle, client } = await SiegeClient.createBattle({
    baseUrl: serviceUrl, apiKey: apiKey || undefined, ruleset: /** @type {"epic" | "pathfinder"} */ (ruleset), name, language, fetch, EventSource,
  });
  const observer = await client.mintToken("observer");
  return { serviceUrl, battleId: battle.id, ruleset: battle.ruleset, gmToken: battle.gm_token, observerToken: observer.token };
}

/**
 * Link an existing battle with a GM token: read it, mint an observer token, answer the settings to keep.
 * @param {{serviceUrl: string, battleId: string, gmToken: string, language: string} & Transport} options
 * @returns {Promise<Partial<SettingValues>>}
 */
export async function linkBattle({ serviceUrl, battleId, gmToken, language, fetch, EventSource }) {
  const gm = new SiegeClient({ baseUrl: serviceUrl, battleId, token: gmToken, language, fetch, EventSource });
  const summary = await gm.battle();
  const observer = await gm.mintToken("observer");
  return { serviceUrl, battleId, ruleset: summary.ruleset, gmToken, observerToken: observer.token };
}

/**
 * A side pass for one player: a `side:<name>` token, shown to the GM once to hand over.
 * @param {SiegeClient} gm
 * @param {string} side
 * @param {number} [expiresIn] seconds
 */
export async function mintPass(gm, side, expiresIn) {
  const minted = await gm.mintToken(`side:${side}`, expiresIn ? { expiresIn } : {});
  return sidePass(side, minted.token);
}

/**
 * The odds of a command before it is sent: POST /battles/{id}/previews with this user's token, the same
 * ownership rules as sending it (a side previews only its own units' commands). The `dice` member is
 * dropped: a preview walks the dice itself.
 * @param {SiegeClient} client
 * @param {Record<string, unknown> & {type: string}} command
 * @param {FetchFunction} [fetch]
 * @returns {Promise<Preview>}
 */
export async function preview(client, command, fetch = globalThis.fetch) {
  const { dice: _dice, ...body } = command;
  const url = `${client.baseUrl}/battles/${encodeURIComponent(client.battleId)}/previews`;
  /** @type {Response} */
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${client.token}`,
        "Accept-Language": client.language,
        "Content-Type": "application/json",
        Accept: "application/json, application/problem+json",
      },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new SiegeError(0, null, `POST ${url}: no answer (${error})`, { cause: error });
  }
  const answer = await response.json().catch(() => null);
  if (response.ok) return answer;
  throw new SiegeError(response.status, answer && typeof answer === "object" && "type" in answer ? answer : null);
}
