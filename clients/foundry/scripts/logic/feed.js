// Chat cards once each, however many users are connected: one client posts (the active GM's), from the
// observer's view so a posted card never holds what a side may not see, resuming after the last card in
// the chat log and skipping a version already there; every client then draws each card again from its
// own user's view (its own token) in its own user's language.

import { renderCard, viewerUrl } from "./card.js";

/**
 * @typedef {import("../siege.js").SiegeClient} SiegeClient
 * @typedef {import("../siege.js").Outcome} Outcome
 * @typedef {import("../siege.js").LogEntry} LogEntry
 * @typedef {import("../siege.js").Subscription} Subscription
 * @typedef {import("./i18n.js").Translate} Translate
 */

/**
 * The chat log as the feed needs it: Foundry's messages in the module, an array in a test page.
 * @typedef {object} ChatLog
 * @property {() => number[]} versions the versions of the cards of this battle already in the log
 * @property {(card: {version: number, battleId: string, content: string}) => Promise<void>} post
 */

/**
 * Whether this client is the one that posts: the active GM's (Foundry elects one among connected GMs).
 * @param {{isGM: boolean, userId: string, activeGMId: string | null}} user
 */
export function isPoster({ isGM, userId, activeGMId }) {
  return isGM && activeGMId === userId;
}

/**
 * @param {SiegeClient} client
 * @param {number} version
 * @returns {Promise<LogEntry & {outcome: Outcome}>}
 */
async function entryOf(client, version) {
  const entry = await client.event(version);
  if (!entry.outcome) throw new Error(`v${version} has no outcome yet`);
  return /** @type {LogEntry & {outcome: Outcome}} */ (entry);
}

// the versions being posted in this client, by battle: a poster started again (the settings changed) while
// another was writing a card must not write it twice
const posting = new Set();

export class CardPoster {
  /** @type {Subscription | null} */
  #subscription = null;

  /**
   * @param {{observer: SiegeClient, chat: ChatLog, ruleset: string, t: Translate, onError?: (error: Error) => void}} options
   */
  constructor({ observer, chat, ruleset, t, onError }) {
    this.observer = observer;
    this.chat = chat;
    this.ruleset = ruleset;
    this.t = t;
    this.onError = onError;
    /** @type {Promise<void>} */
    this.idle = Promise.resolve();
  }

  /** Subscribe after the last card in the log (every outcome of the battle when there is none). */
  start() {
    const versions = this.chat.versions();
    const after = versions.length ? Math.max(...versions) : 0;
    this.#subscription = this.observer.subscribe({
      after,
      // one card at a time, in version order
      onOutcome: (outcome) => {
        this.idle = this.idle.then(() => this.post(outcome.version)).catch((error) => this.onError?.(error));
      },
      onError: (error, { willRetry }) => {
        if (!willRetry) this.onError?.(error);
      },
    });
    return this.#subscription;
  }

  stop() {
    this.#subscription?.close();
  }

  /**
   * Post the card of one version unless the log has it (or this client is posting it).
   * @param {number} version
   */
  async post(version) {
    const key = `${this.observer.battleId}:${version}`;
    if (posting.has(key) || this.chat.versions().includes(version)) return;
    posting.add(key);
    try {
      const entry = await entryOf(this.observer, version);
      const content = renderCard(entry, {
        ruleset: this.ruleset, viewerUrl: viewerUrl(this.observer.baseUrl, this.observer.battleId), t: this.t,
      });
      if (!this.chat.versions().includes(version)) await this.chat.post({ version, battleId: this.observer.battleId, content });
    } finally {
      posting.delete(key);
    }
  }
}

/**
 * Whether an outcome reveals what was hidden (epic's orders, as the phase leaves `orders`): the cards
 * drawn before it are drawn again.
 * @param {Outcome} outcome
 */
export function reveals(outcome) {
  return outcome.status === "applied" && outcome.result !== null && "revealed_orders" in outcome.result;
}

/** Each user's own reading of the cards: from their token's view, in their language, each version once. */
export class CardReader {
  /** @type {Map<number, Promise<string>>} */
  #drawn = new Map();

  /** @param {{client: SiegeClient, ruleset: string, t: Translate}} options */
  constructor({ client, ruleset, t }) {
    this.client = client;
    this.ruleset = ruleset;
    this.t = t;
  }

  /**
   * The card of a version as this user reads it.
   * @param {number} version
   */
  card(version) {
    let drawn = this.#drawn.get(version);
    if (!drawn) {
      const url = viewerUrl(this.client.baseUrl, this.client.battleId);
      drawn = entryOf(this.client, version).then((entry) => {
        // what the service hides from this reader (another side's order) is read again next time: a reveal
        // serves it whole
        if (/** @type {{hidden?: boolean}} */ (entry).hidden) this.#drawn.delete(version);
        return renderCard(entry, { ruleset: this.ruleset, viewerUrl: url, t: this.t });
      });
      drawn.catch(() => this.#drawn.delete(version)); // a failed read is tried again next time
      this.#drawn.set(version, drawn);
    }
    return drawn;
  }
}
