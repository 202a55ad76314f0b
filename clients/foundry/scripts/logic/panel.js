// The panel a GM and each player play from: it links a battle (GM), lists the battle's entities with their
// state and the commands each allows this user now, opens a command's form generated from its schema,
// shows its odds before it is sent, sends it (with the service's dice or Foundry's rolls), and offers undo
// and conclude to the GM. It renders into an element of its own; Foundry's window only hosts it.

import { SiegeError } from "../siege.js";
import { FOUNDRY_ROLL_KEY } from "./card.js";
import { diceFor } from "./dice.js";
import { formFor, readForm } from "./form-model.js";
import { term } from "./i18n.js";
import { oddsText } from "./odds.js";
import { panelModel } from "./panel-model.js";
import { battleHtml, formHtml, gmHtml, groupsHtml, headerHtml, messageHtml, passHtml, setupHtml } from "./panel-html.js";
import { clientFor, createBattle, linkBattle, mintPass, preview } from "./session.js";
import { changed, parsePass, roleOf } from "./settings.js";

/**
 * @typedef {import("../siege.js").SiegeClient} SiegeClient
 * @typedef {import("../siege.js").Subscription} Subscription
 * @typedef {import("./i18n.js").Translate} Translate
 * @typedef {import("./settings.js").SettingValues} SettingValues
 * @typedef {import("./settings.js").Role} Role
 * @typedef {import("./panel-model.js").Ruleset} Ruleset
 * @typedef {import("./panel-model.js").PanelModel} PanelModel
 * @typedef {import("./form-model.js").Form} Form
 * @typedef {import("./dice.js").Roller} Roller
 * @typedef {import("./session.js").Transport} Transport
 */

/**
 * @typedef {object} PanelOptions
 * @property {HTMLElement} root
 * @property {Translate} t
 * @property {boolean} isGM
 * @property {SettingValues} settings
 * @property {(values: SettingValues) => Promise<void>} save keeps changed settings (Foundry's settings)
 * @property {Roller} roll Foundry's dice, for the `foundry` dice mode
 * @property {Transport} [transport]
 * @property {(entityId: string) => Promise<void>} [linkToken] links the scene's selected token (GM)
 * @property {(error: unknown) => void} [onError]
 * @property {(outcome: import("../siege.js").Outcome) => void} [onOutcome] each outcome this user's stream brings
 */

export class Panel {
  /** @type {Ruleset | null} */
  ruleset = null;
  /** @type {PanelModel | null} */
  model = null;
  /** @type {string | null} */
  selected = null;
  /** @type {Form | null} */
  form = null;
  /** @type {string} the odds of the open form's command, once previewed */
  odds = "";
  /** @type {{text: string, kind: "ok" | "error"} | null} */
  message = null;
  /** @type {{side: string, pass: string} | null} the pass just minted, shown once */
  minted = null;
  /** @type {string[]} the rulesets the service referees, once a URL is known */
  rulesets = [];
  /** @type {Subscription | null} */
  #live = null;
  /** @type {Promise<void>} */
  busy = Promise.resolve();

  /** @param {PanelOptions} options */
  constructor(options) {
    this.options = options;
    this.root = options.root;
    this.t = options.t;
    this.settings = options.settings;
    this.root.classList.add("siege-panel");
    this.root.addEventListener("click", (event) => this.#clicked(event));
    this.root.addEventListener("submit", (event) => this.#submitted(event));
    this.root.addEventListener("change", (event) => this.#changed(event));
  }

  /** This user's role, or null before the battle is linked. */
  get role() {
    return roleOf(this.settings, this.options.isGM);
  }

  /** A client with this user's own token, or null before the battle is linked. */
  get client() {
    const role = this.role;
    return role ? clientFor(this.settings, role, this.t.lang, this.options.transport) : null;
  }

  /** Read the ruleset and the state again, then draw. */
  async refresh() {
    const client = this.client;
    if (client) {
      try {
        const state = await client.state();
        if (!this.ruleset || this.ruleset.name !== state.ruleset) this.ruleset = await client.ruleset(state.ruleset);
        this.model = panelModel(/** @type {Ruleset} */ (this.ruleset), state, /** @type {Role} */ (this.role));
      } catch (error) {
        this.#fail(error);
      }
    } else if (this.settings.serviceUrl && this.rulesets.length === 0 && this.options.isGM) {
      await this.#loadRulesets(this.settings.serviceUrl);
    }
    this.render();
  }

  /** Follow the battle: each outcome (any user's) draws the panel again. */
  follow() {
    this.#live?.close();
    const client = this.client;
    if (!client) return;
    this.#live = client.subscribe({
      onOutcome: (outcome) => {
        this.options.onOutcome?.(outcome);
        this.#queue(() => this.refresh());
      },
    });
  }

  close() {
    this.#live?.close();
    this.#live = null;
  }

  /**
   * Select an entity (a linked token was selected on the scene).
   * @param {string | null} entityId
   */
  select(entityId) {
    this.selected = entityId;
    this.render();
    if (entityId) this.root.querySelector(`[data-entity="${CSS.escape(entityId)}"]`)?.scrollIntoView({ block: "nearest" });
  }

  /**
   * Open a command's form, prefilled.
   * @param {string} type
   * @param {Record<string, unknown>} [prefill]
   */
  open(type, prefill = {}) {
    const spec = this.ruleset?.commands[type];
    if (!spec) throw new Error(`no command ${type} in this ruleset`);
    this.form = formFor(type, spec, prefill);
    this.odds = "";
    this.message = null;
    this.root.querySelector("form[data-form=command]")?.remove(); // a new form starts from its prefill
    this.render();
  }

  /** The open form's command as typed now. */
  typed() {
    const element = this.root.querySelector("form[data-form=command]");
    if (!this.form || !(element instanceof HTMLFormElement)) throw new Error("no command form is open");
    /** @type {Record<string, string>} */
    const inputs = {};
    for (const [name, value] of new FormData(element)) inputs[name] = String(value);
    return readForm(this.form, inputs);
  }

  /** Preview the open form's command: its odds, in words. */
  async preview() {
    const { command, errors } = this.typed();
    if (this.#invalid(errors)) return;
    try {
      const answer = await preview(/** @type {SiegeClient} */ (this.client), command, this.options.transport?.fetch);
      this.odds = oddsText(answer, command, this.t);
      this.message = null;
    } catch (error) {
      this.odds = "";
      this.#fail(error);
    }
    this.render();
  }

  /** Send the open form's command; with Foundry's dice, the slots it may draw from are rolled first. */
  async send() {
    const { command, errors } = this.typed();
    if (this.#invalid(errors)) return null;
    const ruleset = /** @type {Ruleset} */ (this.ruleset);
    const mode = this.settings.diceMode === "foundry" ? "foundry" : "service";
    const rolled = await diceFor(mode, ruleset.name, command, ruleset.commands[command.type]?.dice ?? [], this.options.roll);
    if (rolled) command.dice = { .../** @type {Record<string, unknown>} */ (command.dice ?? {}), ...rolled };
    const outcome = await this.#send(command, rolled ? FOUNDRY_ROLL_KEY : "foundry:");
    if (outcome && "summary" in outcome) this.form = null;
    await this.refresh();
    return outcome;
  }

  /** The GM's undo: cancels the latest applied command. */
  async undo() {
    const outcome = await this.#send({ type: "undo" }, "foundry:");
    await this.refresh();
    return outcome;
  }

  /** The GM's conclude: ends the battle and reveals its dice seed. */
  async conclude() {
    const outcome = await this.#send({ type: "conclude" }, "foundry:");
    await this.refresh();
    return outcome;
  }

  /**
   * Mint a side pass for a player (GM): shown once in the panel, to hand over.
   * @param {string} side
   */
  async mint(side) {
    const role = this.role;
    if (role?.kind !== "gm") throw new Error("only the GM mints passes");
    try {
      this.minted = { side, pass: await mintPass(/** @type {SiegeClient} */ (this.client), side) };
      this.message = null;
    } catch (error) {
      this.#fail(error);
    }
    this.render();
    return this.minted?.pass ?? null;
  }

  /**
   * A player keeps the pass the GM handed them.
   * @param {string} pass
   */
  async usePass(pass) {
    if (!parsePass(pass)) {
      this.message = { kind: "error", text: this.t.localize("SIEGE.Panel.badPass") };
      this.render();
      return;
    }
    await this.#keep({ sidePass: pass.trim() });
    this.follow();
    await this.refresh();
  }

  /**
   * The GM creates a battle with the service key (used for this request only).
   * @param {{serviceUrl: string, apiKey: string, ruleset: string, name?: string}} options
   */
  async create(options) {
    try {
      await this.#keep(await createBattle({ ...options, language: this.t.lang, ...this.options.transport }));
      this.follow();
    } catch (error) {
      this.#fail(error);
    }
    await this.refresh();
  }

  /**
   * The GM links an existing battle with its GM token.
   * @param {{serviceUrl: string, battleId: string, gmToken: string}} options
   */
  async link(options) {
    try {
      await this.#keep(await linkBattle({ ...options, language: this.t.lang, ...this.options.transport }));
      this.follow();
    } catch (error) {
      this.#fail(error);
    }
    await this.refresh();
  }

  /**
   * @param {Record<string, unknown> & {type: string}} command
   * @param {string} keyPrefix
   */
  async #send(command, keyPrefix) {
    try {
      const outcome = await /** @type {SiegeClient} */ (this.client).send(command, {
        idempotencyKey: `${keyPrefix}${crypto.randomUUID()}`,
      });
      if ("summary" in outcome) {
        const kind = outcome.status === "applied" ? "ok" : "error";
        this.message = { kind, text: `v${outcome.version} · ${outcome.summary}` };
      } else {
        this.message = { kind: "ok", text: this.t.format("SIEGE.Panel.accepted", { version: outcome.version }) };
      }
      return outcome;
    } catch (error) {
      this.#fail(error);
      return null;
    }
  }

  /** @param {Partial<SettingValues>} changes */
  async #keep(changes) {
    this.settings = changed(this.settings, changes);
    await this.options.save(this.settings);
  }

  /** @param {string} url */
  async #loadRulesets(url) {
    try {
      const client = clientFor({ ...this.settings, serviceUrl: url, battleId: "-" }, { kind: "observer", token: "-" }, this.t.lang, this.options.transport);
      const listed = await client.rulesets();
      this.rulesets = (Array.isArray(listed) ? listed : listed.rulesets ?? []).map((/** @type {{name: string}} */ r) => r.name);
    } catch (error) {
      this.#fail(error);
    }
  }

  /** @param {Record<string, string>} errors */
  #invalid(errors) {
    const fields = Object.entries(errors);
    if (fields.length === 0) return false;
    const said = fields.map(([path, why]) => `${path}: ${term(this.t, `SIEGE.Form.error.${why}`, why)}`).join("; ");
    this.message = { kind: "error", text: said };
    this.render();
    return true;
  }

  /** @param {unknown} error */
  #fail(error) {
    let text = String(error);
    if (error instanceof SiegeError) {
      const errors = error.problem?.errors ? ` ${JSON.stringify(error.problem.errors)}` : "";
      text = `${error.status || ""} ${error.problem?.detail ?? error.problem?.title ?? error.message}${errors}`.trim();
    }
    this.message = { kind: "error", text };
    this.options.onError?.(error);
  }

  /** @param {() => Promise<unknown>} job */
  #queue(job) {
    this.busy = this.busy.then(job).then(() => undefined, (error) => this.#fail(error));
  }

  /** @param {Event} event */
  #clicked(event) {
    const target = event.target instanceof Element ? event.target.closest("[data-action]") : null;
    if (!(target instanceof HTMLElement)) return;
    const { action, type, field, id } = target.dataset;
    if (action === "open" && type) {
      event.preventDefault();
      this.open(type, field && id ? { [field]: id } : JSON.parse(target.dataset.prefill ?? "{}"));
    } else if (action === "select" && id) {
      this.select(this.selected === id ? null : id);
    } else if (action === "preview") {
      event.preventDefault();
      this.#queue(() => this.preview());
    } else if (action === "undo") {
      this.#queue(() => this.undo());
    } else if (action === "conclude") {
      if (this.root.querySelector("[data-confirm=conclude]:checked")) this.#queue(() => this.conclude());
    } else if (action === "close-form") {
      this.form = null;
      this.render();
    } else if (action === "link-token" && id) {
      this.#queue(async () => this.options.linkToken?.(id));
    } else if (action === "copy-pass" && this.minted) {
      navigator.clipboard?.writeText(this.minted.pass).catch(() => undefined);
    }
  }

  /** @param {SubmitEvent | Event} event */
  #submitted(event) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement)) return;
    event.preventDefault();
    const data = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)]));
    const which = form.dataset.form;
    if (which === "command") this.#queue(() => this.send());
    else if (which === "create") this.#queue(() => this.create({ serviceUrl: data.serviceUrl, apiKey: data.apiKey, ruleset: data.ruleset, name: data.name || undefined }));
    else if (which === "link") this.#queue(() => this.link({ serviceUrl: data.serviceUrl, battleId: data.battleId, gmToken: data.gmToken }));
    else if (which === "mint") this.#queue(() => this.mint(data.side));
    else if (which === "pass") this.#queue(() => this.usePass(data.pass));
  }

  /** @param {Event} event */
  #changed(event) {
    const input = event.target;
    if (input instanceof HTMLInputElement && input.name === "serviceUrl" && input.closest("form[data-form=create]")) {
      this.settings = { ...this.settings, serviceUrl: input.value.trim() };
      this.#queue(async () => {
        await this.#loadRulesets(input.value.trim());
        this.render();
      });
    } else if (input instanceof HTMLSelectElement && input.dataset.variant !== undefined) {
      // a variant's kind chosen: draw its members, keeping what was typed
      this.#redrawForm();
    }
  }

  #redrawForm() {
    if (!this.form) return;
    const element = this.root.querySelector("form[data-form=command]");
    if (!(element instanceof HTMLFormElement)) return;
    /** @type {Record<string, string>} */
    const inputs = {};
    for (const [name, value] of new FormData(element)) inputs[name] = String(value);
    this.render(inputs);
  }

  /**
   * Draw the panel.
   * @param {Record<string, string>} [typed] the open form's inputs to keep
   */
  render(typed) {
    // what was typed survives a redraw (an outcome from the stream, a preview's odds)
    const kept = this.#typedNow();
    const drawn = this.root.querySelector("form[data-form=command]");
    const same = Boolean(this.form && kept.command?.type === this.form.type);
    // the open form itself stays in the document unless it is drawn for itself (a variant's kind chosen):
    // its opened parts, the focused input, the caret, IME and undo history all stay the user's
    const live = same && !typed && drawn instanceof HTMLFormElement ? drawn : null;
    if (!typed && same) typed = kept.command?.inputs;
    // a form drawn again keeps its opened parts and focus at least
    const opened = new Set(same ? [...this.root.querySelectorAll("form[data-form=command] details[open][data-part]")].flatMap((d) => /** @type {HTMLElement} */ (d).dataset.part ?? []) : []);
    const focused = this.#focusedNow(same, live);
    this.#draw(typed, opened, live);
    for (const element of this.root.querySelectorAll("form[data-form]:not([data-form=command]) [name]")) {
      const form = /** @type {HTMLElement} */ (element.closest("form")).dataset.form ?? "";
      const value = kept[form]?.inputs[/** @type {HTMLInputElement} */ (element).name];
      if (value !== undefined && (element instanceof HTMLInputElement || element instanceof HTMLSelectElement)) {
        if (!(element instanceof HTMLInputElement && element.readOnly)) element.value = value;
      }
    }
    if (focused) this.#refocus(focused);
  }

  /**
   * The input the user is typing in, in a form the redraw rebuilds: where to put the focus and caret back.
   * @param {boolean} same whether the command form drawn next is the one open now
   * @param {HTMLFormElement | null} live the command form kept in the document: its focus never leaves
   * @returns {{form: string, name: string, start: number | null, end: number | null} | null}
   */
  #focusedNow(same, live) {
    const active = this.root.ownerDocument.activeElement;
    if (!(active instanceof HTMLInputElement || active instanceof HTMLSelectElement) || !this.root.contains(active)) return null;
    if (live?.contains(active)) return null;
    const form = active.form?.dataset.form;
    if (!form || (form === "command" && !same)) return null;
    const text = active instanceof HTMLInputElement ? active : null;
    return { form, name: active.name, start: text?.selectionStart ?? null, end: text?.selectionEnd ?? null };
  }

  /** @param {{form: string, name: string, start: number | null, end: number | null}} focused */
  #refocus(focused) {
    const again = this.root.querySelector(`form[data-form="${CSS.escape(focused.form)}"] [name="${CSS.escape(focused.name)}"]`);
    if (!(again instanceof HTMLInputElement || again instanceof HTMLSelectElement)) return;
    again.focus({ preventScroll: true });
    // text inputs only: a number input has no caret to set (its selectionStart is null)
    if (again instanceof HTMLInputElement && focused.start !== null && again.selectionStart !== null) {
      again.setSelectionRange(focused.start, focused.end ?? focused.start);
    }
  }

  /** @returns {Record<string, {type: string, inputs: Record<string, string>}>} each open form's inputs */
  #typedNow() {
    /** @type {Record<string, {type: string, inputs: Record<string, string>}>} */
    const kept = {};
    for (const element of this.root.querySelectorAll("form[data-form]")) {
      if (!(element instanceof HTMLFormElement)) continue;
      /** @type {Record<string, string>} */
      const inputs = {};
      for (const [name, value] of new FormData(element)) inputs[name] = String(value);
      kept[element.dataset.form ?? ""] = { type: element.dataset.type ?? "", inputs };
    }
    return kept;
  }

  /**
   * @param {Record<string, string>} [typed]
   * @param {Set<string>} [opened] the command form's parts drawn open
   * @param {HTMLFormElement | null} [live] the command form to keep where it is instead of drawing it
   */
  #draw(typed, opened = new Set(), live = null) {
    const t = this.t;
    const role = this.role;
    const parts = this.message ? [messageHtml(this.message)] : [];
    if (!role || !this.model) {
      parts.push(this.options.isGM ? setupHtml(t, this.settings.serviceUrl, this.rulesets) : passHtml(t));
      this.root.innerHTML = parts.join("");
      return;
    }
    parts.push(headerHtml(t, role, this.model, this.settings.diceMode));
    if (role.kind === "observer" && !this.options.isGM) parts.push(passHtml(t));
    if (this.form) parts.push(formHtml(t, this.form, this.odds, typed, opened));
    const linkTokens = role.kind === "gm" && Boolean(this.options.linkToken);
    parts.push(groupsHtml(t, this.model, { selected: this.selected, linkTokens }), battleHtml(t, this.model));
    if (role.kind === "gm") parts.push(gmHtml(t, this.model, this.minted));
    this.#place(parts.join(""), live);
  }

  /**
   * The panel's markup in place of the old; a `live` command form is kept in the document (never detached,
   * so it keeps the focus) and everything around it replaced, its odds only written anew.
   * @param {string} html
   * @param {HTMLFormElement | null} live
   */
  #place(html, live) {
    const fresh = this.root.ownerDocument.createElement("template");
    fresh.innerHTML = html;
    const nodes = [...fresh.content.childNodes];
    const at = nodes.findIndex((node) => node instanceof HTMLFormElement && node.dataset.form === "command");
    if (!live || live.parentNode !== this.root || at < 0) {
      this.root.replaceChildren(fresh.content);
      return;
    }
    const odds = live.querySelector(".siege-odds");
    const oddsNow = /** @type {HTMLElement} */ (nodes[at]).querySelector(".siege-odds");
    if (odds && oddsNow) odds.textContent = oddsNow.textContent;
    for (const child of [...this.root.childNodes]) if (child !== live) child.remove();
    live.before(...nodes.slice(0, at));
    live.after(...nodes.slice(at + 1));
  }
}
