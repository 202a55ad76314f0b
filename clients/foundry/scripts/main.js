// The Foundry adapter: the only code that touches Foundry's globals. It registers the settings, the panel's
// window and key, posts the chat cards from the active GM's client, draws every card again in each user's
// view and language, opens the viewer with the reader's own token, and links scene tokens to entities.
// Everything it calls in ./logic runs without Foundry (the tests run it in Chromium against the service).

import { viewerWithToken } from "./logic/card.js";
import { CardPoster, CardReader, isPoster, reveals } from "./logic/feed.js";
import { entityForToken } from "./logic/links.js";
import { Panel } from "./logic/panel.js";
import { clientFor } from "./logic/session.js";
import { MODULE_ID, SETTINGS, roleOf } from "./logic/settings.js";
import { hostPanel, SiegePanelApp } from "./foundry/panel-app.js";

/**
 * @typedef {import("./logic/settings.js").SettingValues} SettingValues
 * @typedef {import("./logic/i18n.js").Translate} Translate
 * @typedef {import("./logic/feed.js").ChatLog} ChatLog
 */

/** @type {{panel: Panel, reader: CardReader | null, poster: CardPoster | null, app: SiegePanelApp | null}} */
const siege = { panel: /** @type {Panel} */ (/** @type {unknown} */ (null)), reader: null, poster: null, app: null };

/** @type {Translate} */
const t = {
  get lang() {
    return game.i18n?.lang ?? "en";
  },
  localize: (key) => game.i18n?.localize(key) ?? key,
  format: (key, data = {}) =>
    game.i18n?.format(key, Object.fromEntries(Object.entries(data).map(([name, value]) => [name, String(value)]))) ?? key,
};

Hooks.once("init", () => {
  for (const spec of SETTINGS) {
    const choices = spec.choices
      ? Object.fromEntries(spec.choices.map((choice) => [choice, `SIEGE.Settings.${spec.key}.${choice}`]))
      : undefined;
    game.settings?.register(MODULE_ID, /** @type {SettingKey} */ (spec.key), {
      name: `SIEGE.Settings.${spec.key}.name`,
      hint: `SIEGE.Settings.${spec.key}.hint`,
      scope: spec.scope,
      config: spec.config,
      type: String,
      default: spec.default,
      ...(choices ? { choices } : {}),
      onChange: () => {
        void relink();
      },
    });
  }
  game.settings?.registerMenu(MODULE_ID, "openPanel", {
    name: "SIEGE.Settings.openPanel.name",
    label: "SIEGE.Settings.openPanel.label",
    hint: "SIEGE.Settings.openPanel.hint",
    icon: "fa-solid fa-chess-rook",
    type: SiegePanelApp,
    restricted: false,
  });
  game.keybindings?.register(MODULE_ID, "openPanel", {
    name: "SIEGE.Keybinding.name",
    editable: [{ key: "KeyS", modifiers: ["SHIFT"] }],
    onDown: () => {
      void openPanel();
      return true;
    },
  });
});

Hooks.once("ready", () => {
  const root = document.createElement("div");
  siege.panel = new Panel({
    root,
    t,
    isGM: game.user?.isGM ?? false,
    settings: readSettings(),
    save: saveSettings,
    roll: rollWithFoundry,
    linkToken,
    onError: (error) => console.warn("siege:", error),
    // orders revealed: the cards that hid them are drawn again, whole
    onOutcome: (outcome) => {
      if (reveals(outcome)) void ui.chat?.render();
    },
  });
  hostPanel(() => root);
  const module = game.modules?.get(MODULE_ID);
  // for macros: game.modules.get("siege-foundry").api.open()
  if (module) module.api = { panel: siege.panel, open: openPanel };
  const generation = game.release?.generation ?? 13;
  if (generation >= 13) {
    Hooks.on("renderChatMessageHTML", (message, html) => {
      void redraw(message, html);
    });
  } else {
    // v12 names the hook renderChatMessage and hands a jQuery object
    Hooks.on("renderChatMessage", (message, html) => {
      void redraw(message, /** @type {HTMLElement} */ (html[0]));
    });
  }
  Hooks.on("controlToken", (token, controlled) => {
    const model = siege.panel.model;
    if (!controlled || !model) return;
    const entity = entityForToken({ flag: token.document.getFlag(MODULE_ID, "entity"), name: token.document.name }, model);
    if (entity) siege.panel.select(entity);
  });
  void relink();
});

/** The battle as the settings say now: this user's reader and panel, and the poster on the active GM's. */
async function relink() {
  if (!siege.panel) return;
  const values = readSettings();
  siege.panel.settings = values;
  siege.poster?.stop();
  siege.poster = null;
  siege.panel.close();
  const role = roleOf(values, game.user?.isGM ?? false);
  siege.reader = role ? new CardReader({ client: clientFor(values, role, t.lang), ruleset: values.ruleset, t }) : null;
  const userId = game.user?.id ?? "";
  const activeGMId = game.users?.activeGM?.id ?? null;
  if (values.observerToken && isPoster({ isGM: game.user?.isGM ?? false, userId, activeGMId })) {
    const observer = clientFor(values, { kind: "observer", token: values.observerToken }, t.lang);
    siege.poster = new CardPoster({
      observer,
      chat: chatLog(values.battleId),
      ruleset: values.ruleset,
      t,
      onError: (error) => ui.notifications?.error(t.format("SIEGE.Error.stream", { detail: error.message })),
    });
    siege.poster.start();
  }
  siege.panel.follow();
  await siege.panel.refresh();
  // the cards already in the chat log, drawn again in this user's view for their role now
  await ui.chat?.render();
}

async function openPanel() {
  siege.app ??= new SiegePanelApp();
  await siege.panel.refresh();
  await siege.app.render({ force: true });
}

/** @returns {SettingValues} */
function readSettings() {
  const settings = game.settings;
  /** @type {Record<string, string>} */
  const values = {};
  for (const spec of SETTINGS) values[spec.key] = String(settings?.get(MODULE_ID, /** @type {SettingKey} */ (spec.key)) ?? spec.default);
  return /** @type {SettingValues} */ (/** @type {unknown} */ (values));
}

/**
 * Keep what the panel changed (a world setting only when this user may write it: the GM).
 * @param {SettingValues} values
 */
async function saveSettings(values) {
  const settings = game.settings;
  if (!settings) return;
  for (const spec of SETTINGS) {
    const key = /** @type {SettingKey} */ (spec.key);
    const value = values[/** @type {keyof SettingValues} */ (spec.key)];
    if (settings.get(MODULE_ID, key) === value) continue;
    if (spec.scope === "world" && !game.user?.isGM) continue;
    await settings.set(MODULE_ID, key, value);
  }
}

/**
 * Foundry's dice: each die of a formula such as `2d6`.
 * @param {string} formula
 * @returns {Promise<number[]>}
 */
async function rollWithFoundry(formula) {
  const roll = await new Roll(formula).evaluate();
  return roll.dice.flatMap((die) => die.results.map((result) => result.result));
}

/**
 * The chat log of one battle's cards.
 * @param {string} battleId
 * @returns {ChatLog}
 */
function chatLog(battleId) {
  return {
    versions: () =>
      (game.messages?.contents ?? [])
        .filter((message) => message.getFlag(MODULE_ID, "battleId") === battleId)
        .map((message) => Number(message.getFlag(MODULE_ID, "version")))
        .filter((version) => Number.isInteger(version)),
    post: async ({ version, content }) => {
      await ChatMessage.create({
        speaker: { alias: t.localize("SIEGE.Title") },
        content,
        flags: { [MODULE_ID]: { version, battleId } },
      });
    },
  };
}

/**
 * A card drawn again as this user reads it: their token's view, their language; its viewer link opened
 * with their own token in the fragment.
 * @param {ChatMessage.Implementation} message
 * @param {HTMLElement} html
 */
async function redraw(message, html) {
  const version = Number(message.getFlag(MODULE_ID, "version"));
  const values = siege.panel?.settings;
  if (!Number.isInteger(version) || !values || message.getFlag(MODULE_ID, "battleId") !== values.battleId) return;
  const card = html.querySelector(".siege-card");
  if (siege.reader && card) {
    try {
      card.outerHTML = await siege.reader.card(version);
    } catch (error) {
      console.warn("siege: the card stays as posted", error);
    }
  }
  html.querySelector("a[data-siege-viewer]")?.addEventListener("click", (event) => {
    const role = roleOf(values, game.user?.isGM ?? false);
    const link = event.currentTarget;
    if (!role || !(link instanceof HTMLAnchorElement)) return;
    event.preventDefault();
    window.open(viewerWithToken(link.href, role.token), "_blank", "noopener,noreferrer");
  });
}

/**
 * The scene's selected token stands for an entity from now on.
 * @param {string} entityId
 */
async function linkToken(entityId) {
  const token = canvas?.tokens?.controlled[0];
  if (!token) {
    ui.notifications?.warn(t.localize("SIEGE.Panel.noToken"));
    return;
  }
  await token.document.setFlag(MODULE_ID, "entity", entityId);
  ui.notifications?.info(t.format("SIEGE.Panel.linked", { token: token.document.name ?? token.id, entity: entityId }));
}
