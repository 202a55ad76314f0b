// The panel's markup: each part drawn from what it is given alone (the model, the open form, the words),
// every text escaped. panel.js decides which parts show and keeps what the user typed across redraws.

import { escape } from "./card.js";
import { term } from "./i18n.js";

/**
 * @typedef {import("./i18n.js").Translate} Translate
 * @typedef {import("./settings.js").Role} Role
 * @typedef {import("./panel-model.js").PanelModel} PanelModel
 * @typedef {import("./form-model.js").Form} Form
 * @typedef {import("./form-model.js").Field} Field
 */

/**
 * @param {{text: string, kind: "ok" | "error"}} message
 */
export function messageHtml(message) {
  return `<p class="siege-message siege-${message.kind}" role="status">${escape(message.text)}</p>`;
}

/**
 * @param {Translate} t
 * @param {Role} role
 * @param {PanelModel} model
 * @param {string} diceMode
 */
export function headerHtml(t, role, model, diceMode) {
  const who = role.kind === "side" ? t.format("SIEGE.Panel.youSide", { side: role.side }) : t.localize(`SIEGE.Panel.you.${role.kind}`);
  const phase = model.phase ? term(t, `SIEGE.Phase.${model.phase}`, model.phase) : null;
  const where = [
    `${escape(t.format("SIEGE.Panel.version", { version: model.version }))}`,
    model.turn !== null ? escape(t.format("SIEGE.Panel.turn", { turn: model.turn })) : "",
    phase ? `<span data-phase="${escape(model.phase)}">${escape(t.format("SIEGE.Panel.phase", { phase }))}</span>` : "",
    model.concluded ? `<strong data-concluded>${escape(t.localize("SIEGE.Panel.concluded"))}</strong>` : "",
    escape(t.localize(`SIEGE.Settings.diceMode.${diceMode === "foundry" ? "foundry" : "service"}`)),
  ].filter(Boolean);
  return `<header class="siege-panel-header"><p><strong>${escape(model.ruleset)}</strong> · ${where.join(" · ")}</p><p class="siege-role" data-role="${escape(role.kind)}">${escape(who)}</p></header>`;
}

/**
 * Each collection's entities, their facts and the commands each allows this user now.
 * @param {Translate} t
 * @param {PanelModel} model
 * @param {{selected: string | null, linkTokens: boolean}} shown `linkTokens`: the GM's button on each entity
 */
export function groupsHtml(t, model, { selected, linkTokens }) {
  const parts = [];
  for (const group of model.groups) {
    if (group.entities.length === 0) continue;
    const title = term(t, `SIEGE.Collection.${group.collection}`, group.collection);
    const items = group.entities.map((entity) => {
      const facts = entity.facts.map(([name, value]) => `<span class="siege-fact">${escape(value ? `${name} ${value}` : name)}</span>`).join(" ");
      const offers = entity.offers
        .map((offer) => `<button type="button" data-action="open" data-type="${escape(offer.type)}" data-field="${escape(offer.field ?? "")}" data-id="${escape(entity.id)}">${escape(commandName(t, offer.type))}</button>`)
        .join("");
      const link = linkTokens
        ? `<button type="button" class="siege-link-token" data-action="link-token" data-id="${escape(entity.id)}">${escape(t.localize("SIEGE.Panel.linkToken"))}</button>`
        : "";
      const classes = ["siege-entity", entity.mine ? "siege-mine" : "", selected === entity.id ? "siege-selected" : ""].filter(Boolean).join(" ");
      return `<li class="${classes}" data-entity="${escape(entity.id)}"><button type="button" class="siege-entity-id" data-action="select" data-id="${escape(entity.id)}">${escape(entity.id)}</button> ${facts}<div class="siege-offers">${offers}${link}</div></li>`;
    });
    parts.push(`<section class="siege-group" data-collection="${escape(group.collection)}"><h3>${escape(title)}</h3><ul>${items.join("")}</ul></section>`);
  }
  return parts.join("");
}

/**
 * The battle's own commands (undo and conclude are the GM's, drawn apart), or nothing.
 * @param {Translate} t
 * @param {PanelModel} model
 */
export function battleHtml(t, model) {
  const battle = model.battle.filter((offer) => offer.type !== "undo" && offer.type !== "conclude");
  if (!battle.length) return "";
  const buttons = battle.map((offer) => `<button type="button" data-action="open" data-type="${escape(offer.type)}" data-prefill="${escape(JSON.stringify(offer.prefill))}">${escape(commandName(t, offer.type))}</button>`);
  return `<section class="siege-group" data-collection="battle"><h3>${escape(t.localize("SIEGE.Panel.battle"))}</h3><div class="siege-offers">${buttons.join("")}</div></section>`;
}

/**
 * @param {Translate} t
 * @param {PanelModel} model
 * @param {{side: string, pass: string} | null} minted the pass just minted, shown once
 */
export function gmHtml(t, model, minted) {
  const undo = model.undoable > 0 && !model.concluded
    ? `<button type="button" data-action="undo">${escape(t.format("SIEGE.Panel.undo", { version: model.undoable }))}</button>`
    : "";
  const conclude = model.concluded
    ? ""
    : `<label><input type="checkbox" data-confirm="conclude"> ${escape(t.localize("SIEGE.Panel.concludeSure"))}</label> <button type="button" data-action="conclude">${escape(t.localize("SIEGE.Panel.conclude"))}</button>`;
  const sides = [...new Set(model.groups.flatMap((g) => g.entities.map((e) => e.side)).filter((s) => typeof s === "string"))];
  const options = sides.map((side) => `<option value="${escape(side)}"></option>`).join("");
  const pass = minted
    ? `<p class="siege-pass" data-side="${escape(minted.side)}">${escape(t.format("SIEGE.Panel.passFor", { side: minted.side }))} <input readonly name="minted" value="${escape(minted.pass)}"> <button type="button" data-action="copy-pass">${escape(t.localize("SIEGE.Panel.copy"))}</button></p>`
    : "";
  return `<section class="siege-gm"><h3>${escape(t.localize("SIEGE.Panel.referee"))}</h3><div class="siege-offers">${undo}${conclude}</div>
      <form data-form="mint"><label>${escape(t.localize("SIEGE.Panel.side"))} <input name="side" list="siege-sides" required pattern="[a-z0-9_.\\-]{1,64}"></label><datalist id="siege-sides">${options}</datalist> <button type="submit">${escape(t.localize("SIEGE.Panel.mint"))}</button></form>${pass}</section>`;
}

/**
 * The GM's forms before a battle is linked: create one, or link one.
 * @param {Translate} t
 * @param {string} serviceUrl
 * @param {string[]} rulesets
 */
export function setupHtml(t, serviceUrl, rulesets) {
  const url = escape(serviceUrl);
  const options = rulesets.map((name) => `<option value="${escape(name)}">${escape(name)}</option>`).join("");
  return `<section class="siege-setup"><h3>${escape(t.localize("SIEGE.Panel.create"))}</h3>
      <form data-form="create"><label>${escape(t.localize("SIEGE.Settings.serviceUrl.name"))} <input name="serviceUrl" type="url" required value="${url}"></label>
      <label>${escape(t.localize("SIEGE.Panel.apiKey"))} <input name="apiKey" type="password" autocomplete="off"></label>
      <label>${escape(t.localize("SIEGE.Panel.ruleset"))} <select name="ruleset" required>${options}</select></label>
      <label>${escape(t.localize("SIEGE.Panel.name"))} <input name="name"></label>
      <button type="submit">${escape(t.localize("SIEGE.Panel.createButton"))}</button></form>
      <h3>${escape(t.localize("SIEGE.Panel.link"))}</h3>
      <form data-form="link"><label>${escape(t.localize("SIEGE.Settings.serviceUrl.name"))} <input name="serviceUrl" type="url" required value="${url}"></label>
      <label>${escape(t.localize("SIEGE.Settings.battleId.name"))} <input name="battleId" required></label>
      <label>${escape(t.localize("SIEGE.Settings.gmToken.name"))} <input name="gmToken" type="password" required autocomplete="off"></label>
      <button type="submit">${escape(t.localize("SIEGE.Panel.linkButton"))}</button></form></section>`;
}

/** @param {Translate} t */
export function passHtml(t) {
  return `<section class="siege-setup"><p>${escape(t.localize("SIEGE.Panel.askPass"))}</p>
      <form data-form="pass"><label>${escape(t.localize("SIEGE.Settings.sidePass.name"))} <input name="pass" type="password" required autocomplete="off"></label> <button type="submit">${escape(t.localize("SIEGE.Panel.usePass"))}</button></form></section>`;
}

/**
 * The open command's form: its required fields, the optional ones and the dice each in a part of its own.
 * @param {Translate} t
 * @param {Form} form
 * @param {string} odds the command's odds, once previewed
 * @param {Record<string, string>} [typed] what was typed, kept when the form is drawn again
 * @param {Set<string>} [opened] the parts drawn open
 */
export function formHtml(t, form, odds, typed, opened = new Set()) {
  const required = form.fields.filter((field) => field.required && field.name !== "dice");
  const optional = form.fields.filter((field) => !field.required && field.name !== "dice");
  const dice = form.fields.find((field) => field.name === "dice");
  const more = optional.length
    ? `<details data-part="more"${opened.has("more") ? " open" : ""}><summary>${escape(t.localize("SIEGE.Form.more"))}</summary>${optional.map((f) => fieldHtml(f, t, typed)).join("")}</details>`
    : "";
  const diceHtml = dice?.fields?.length
    ? `<details class="siege-dice-fields" data-part="dice"${opened.has("dice") ? " open" : ""}><summary>${escape(t.localize("SIEGE.Form.dice"))}</summary>${dice.fields.map((f) => fieldHtml(f, t, typed)).join("")}</details>`
    : "";
  return `<form class="siege-command" data-form="command" data-type="${escape(form.type)}"><h3>${escape(commandName(t, form.type))}</h3>
      <p class="siege-doc">${escape(form.doc ?? "")}</p>${required.map((f) => fieldHtml(f, t, typed)).join("")}${more}${diceHtml}
      <p class="siege-odds" aria-live="polite">${escape(odds)}</p>
      <div class="siege-offers"><button type="button" data-action="preview">${escape(t.localize("SIEGE.Form.preview"))}</button> <button type="submit">${escape(t.localize("SIEGE.Form.send"))}</button> <button type="button" data-action="close-form">${escape(t.localize("SIEGE.Form.cancel"))}</button></div></form>`;
}

/**
 * @param {Translate} t
 * @param {string} type
 */
function commandName(t, type) {
  return term(t, `SIEGE.Command.${type}`, type);
}

/**
 * One field's inputs; `typed` keeps what was typed when the form is drawn again.
 * @param {Field} field
 * @param {Translate} t
 * @param {Record<string, string>} [typed]
 * @param {boolean} [within] whether every object around it is required (else the browser may not insist)
 * @returns {string}
 */
function fieldHtml(field, t, typed, within = true) {
  const label = term(t, `SIEGE.Field.${field.name}`, field.name);
  const name = escape(field.path);
  const value = typed && field.path in typed ? typed[field.path] : initialText(field);
  const required = field.required && within ? " required" : "";
  const inner = within && field.required;
  const hint = field.description ? ` title="${escape(field.description)}"` : "";
  const fallback = field.fallback === undefined || field.fallback === null || typeof field.fallback === "object" ? "" : String(field.fallback);
  const placeholder = fallback ? ` placeholder="${escape(fallback)}"` : "";
  const emptyOption = escape(fallback ? t.format("SIEGE.Form.defaultIs", { value: term(t, `SIEGE.Form.${fallback}`, fallback) }) : "");
  const wrap = (/** @type {string} */ input) => `<label class="siege-field" data-field="${name}"${hint}><span>${escape(label)}</span> ${input}</label>`;
  switch (field.kind) {
    case "object":
      return `<fieldset data-field="${name}"><legend>${escape(label)}</legend>${(field.fields ?? []).map((f) => fieldHtml(f, t, typed, inner)).join("")}</fieldset>`;
    case "variant": {
      const kinds = field.choices ?? [];
      const chosen = value || (inner ? kinds[0] : "");
      const options = [inner ? "" : `<option value=""></option>`, ...kinds.map((k) => `<option value="${escape(k)}"${k === chosen ? " selected" : ""}>${escape(k)}</option>`)].join("");
      const members = (field.variants?.[chosen] ?? []).map((f) => fieldHtml(f, t, typed, inner)).join("");
      return `<fieldset data-field="${name}"><legend>${escape(label)}</legend>${wrap(`<select name="${name}" data-variant${required}>${options}</select>`)}${members}</fieldset>`;
    }
    case "choice": {
      const options = [inner ? "" : `<option value="">${emptyOption}</option>`, ...(field.choices ?? []).map((c) => `<option value="${escape(c)}"${c === value ? " selected" : ""}>${escape(term(t, `SIEGE.Choice.${c}`, c))}</option>`)].join("");
      return wrap(`<select name="${name}"${required}>${options}</select>`);
    }
    case "boolean": {
      const options = ["", "true", "false"].map((v) => `<option value="${v}"${v === value ? " selected" : ""}>${v ? escape(t.localize(`SIEGE.Form.${v}`)) : emptyOption || escape(t.localize("SIEGE.Form.default"))}</option>`).join("");
      return wrap(`<select name="${name}"${required}>${options}</select>`);
    }
    case "integer":
    case "number": {
      const bounds = `${field.minimum !== undefined ? ` min="${field.minimum}"` : ""}${field.maximum !== undefined ? ` max="${field.maximum}"` : ""}`;
      return wrap(`<input name="${name}" type="number"${field.kind === "integer" ? ' step="1"' : ' step="any"'}${bounds} value="${escape(value)}"${placeholder}${required}>`);
    }
    case "json":
      return wrap(`<textarea name="${name}" rows="2" placeholder="JSON"${required}>${escape(value)}</textarea>`);
    default:
      return wrap(`<input name="${name}" value="${escape(value)}"${required}${field.kind === "dice" ? ' inputmode="numeric" placeholder="6, 6"' : placeholder}>`);
  }
}

/** @param {Field} field */
function initialText(field) {
  const initial = field.initial;
  if (initial === undefined || initial === null) return "";
  if (field.kind === "json") return JSON.stringify(initial);
  if (Array.isArray(initial)) return initial.join(", ");
  if (typeof initial === "object") return field.kind === "variant" ? String(/** @type {Record<string, unknown>} */ (initial).kind ?? "") : "";
  return String(initial);
}
