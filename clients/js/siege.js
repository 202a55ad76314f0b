// siege.js: a dependency-free ES module for the siege rules service, in a browser, a VTT module or Node 22+.
// The API it wraps is docs/api.md's "HTTP contract"; clients/js/README.md documents this module.

/**
 * An RFC 9457 problem, as every 4xx/5xx of the service answers it (`application/problem+json`).
 * @typedef {object} Problem
 * @property {string} type a stable URI, e.g. `https://siege.example/problems/validation`
 * @property {string} title
 * @property {number} status
 * @property {string} [detail]
 * @property {Record<string, unknown>} [errors] validation: the offending fields and why
 * @property {number} [current_version] stale-version (412): the battle's head
 */

/**
 * One die of an outcome.
 * @typedef {object} Roll
 * @property {string} slot
 * @property {string} die
 * @property {number} value
 * @property {string} source `client` (sent with the command) or `stream` (the battle's committed dice)
 */

/**
 * The outcome of one command, as `GET .../events/{v}` serves it, a `Prefer: wait` 200 answers it and the
 * stream sends it; its `summary` is in the client's language.
 * @typedef {object} Outcome
 * @property {number} version
 * @property {string} type the command's type
 * @property {"applied" | "rejected"} status
 * @property {string | null} reason the spec's code when rejected
 * @property {Record<string, unknown> | null} [detail] when rejected, what caused it
 * @property {Record<string, unknown> | null} result the command's result record when applied
 * @property {Roll[]} rolls
 * @property {string} summary one line in words
 */

/**
 * What a command answers when its outcome is not ready within the wait (202).
 * @typedef {object} Accepted
 * @property {"accepted"} status
 * @property {number} version the log version the command was appended at
 * @property {string} hash
 */

/**
 * One log entry with its outcome (null while pending).
 * @typedef {object} LogEntry
 * @property {number} version
 * @property {string} type
 * @property {Record<string, unknown>} data
 * @property {string} actor
 * @property {string} recorded_at
 * @property {string} hash
 * @property {string} prev_hash
 * @property {string | null} idempotency_key
 * @property {Outcome | null} outcome
 */

/**
 * @typedef {object} EventPage
 * @property {LogEntry[]} events
 * @property {number | null} next the `after` of the next page, null on the last
 */

/**
 * @typedef {object} BattleCreated
 * @property {string} id
 * @property {string} ruleset
 * @property {string} rules_version
 * @property {number} version
 * @property {Record<string, unknown>} options
 * @property {string} dice_commitment
 * @property {string} gm_token shown once
 */

/**
 * @typedef {object} BattleSummary
 * @property {string} id
 * @property {string | null} name
 * @property {string} ruleset
 * @property {string} rules_version
 * @property {Record<string, unknown>} options
 * @property {number} version the log head
 * @property {number} projected_version the last version folded (0 before the first fold)
 * @property {string} head_hash
 * @property {string} dice_commitment
 * @property {string} created_at
 */

/**
 * @typedef {object} BattleState
 * @property {number} version the version this state is just after
 * @property {string} ruleset
 * @property {string} rules_version
 * @property {Record<string, unknown>} options
 * @property {Record<string, unknown>} game the ruleset's own state
 * @property {boolean} concluded
 * @property {number} undoable the version an `undo` would cancel now (0: none)
 * @property {string} dice_commitment
 */

/**
 * @typedef {object} TokenMinted
 * @property {string} id names the token for revocation and in `actor`
 * @property {string} token the bearer token, shown this once
 * @property {string} role
 * @property {string | null} expires_at
 */

/**
 * @typedef {object} StreamTicket
 * @property {string} ticket single use, bound to the battle and the token's role
 * @property {number} expires_in seconds
 */

/**
 * @typedef {object} EndOfStream
 * @property {string} reason `concluded`, `token_revoked` or `token_expired`
 * @property {number} [version] the conclude's version (only when `concluded`)
 */

/**
 * @typedef {object} Subscription
 * @property {() => void} close stop for good: no reconnect
 * @property {() => number | null} lastVersion the last outcome delivered
 */

/**
 * @typedef {(input: string, init?: RequestInit) => Promise<Response>} FetchFunction
 * @typedef {new (url: string) => EventSource} EventSourceClass
 */

/**
 * @typedef {object} ClientOptions
 * @property {string} baseUrl the service, e.g. `https://siege.example.org`
 * @property {string} battleId
 * @property {string} token a token of that battle (gm, side:<name> or observer)
 * @property {string} [language] summaries' language (`en`, `fr`); default the browser's, else `en`
 * @property {FetchFunction} [fetch] default `globalThis.fetch`
 * @property {EventSourceClass} [EventSource] default `globalThis.EventSource`
 */

const PROBLEM_JSON = "application/problem+json";
const LANGUAGES = ["en", "fr"]; // the service's catalogs; `?lang=` on the stream takes only these
const DEFAULT_WAIT_S = 5;
const SEND_RETRIES = 2; // network failures and a repeat still in flight, sent again with the same key
const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 30000;

/** A refused request: `status` (0 when no answer came) and the RFC 9457 `problem` the service sent. */
export class SiegeError extends Error {
  /**
   * @param {number} status
   * @param {Problem | null} problem null when the request got no answer (network, CORS)
   * @param {string} [message]
   * @param {{cause?: unknown, retryAfter?: number | null}} [more]
   */
  constructor(status, problem, message, more = {}) {
    super(message ?? problem?.detail ?? problem?.title ?? `HTTP ${status}`, { cause: more.cause });
    this.name = "SiegeError";
    /** @type {number} */
    this.status = status;
    /** @type {Problem | null} */
    this.problem = problem;
    /** @type {number | null} seconds, from Retry-After */
    this.retryAfter = more.retryAfter ?? null;
  }

  /** The problem's type slug (`validation`, `stale-version`, …), or null. */
  get type() {
    const type = this.problem?.type;
    return type ? type.slice(type.lastIndexOf("/") + 1) : null;
  }
}

export class SiegeClient {
  /** @type {FetchFunction} */
  #fetch;
  /** @type {EventSourceClass | undefined} */
  #EventSource;

  /** @param {ClientOptions} options */
  constructor({ baseUrl, battleId, token, language, fetch, EventSource }) {
    if (!baseUrl || !battleId || !token) throw new TypeError("baseUrl, battleId and token are needed");
    /** @type {string} */
    this.baseUrl = trimmed(baseUrl);
    /** @type {string} */
    this.battleId = battleId;
    /** @type {string} */
    this.token = token;
    /** @type {string} */
    this.language = language ?? defaultLanguage();
    this.#fetch = boundFetch(fetch);
    this.#EventSource = EventSource ?? globalThis.EventSource;
  }

  /** The languages the service tells outcomes in. */
  static languages = LANGUAGES;

  /**
   * Create a battle with the service key; the answer's GM token (shown once) makes the client.
   * @param {object} options
   * @param {string} options.baseUrl
   * @param {string} [options.apiKey] the service key (SIEGE_API_KEY), when the service has one
   * @param {"epic" | "pathfinder"} options.ruleset
   * @param {string} [options.name]
   * @param {Record<string, unknown>} [options.options] house rules; omitted ones take their defaults
   * @param {string} [options.clientSeed] mixed into the dice stream
   * @param {string} [options.language]
   * @param {FetchFunction} [options.fetch]
   * @param {EventSourceClass} [options.EventSource]
   * @returns {Promise<{battle: BattleCreated, client: SiegeClient}>}
   */
  static async createBattle({ baseUrl, apiKey, ruleset, name, options, clientSeed, language, fetch, EventSource }) {
    /** @type {Record<string, unknown>} */
    const body = { ruleset };
    if (name !== undefined) body.name = name;
    if (options !== undefined) body.options = options;
    if (clientSeed !== undefined) body.client_seed = clientSeed;
    const lang = language ?? defaultLanguage();
    const { body: battle } = await call(boundFetch(fetch), `${trimmed(baseUrl)}/battles`, {
      method: "POST",
      headers: { ...bearer(apiKey), "Accept-Language": lang },
      body,
    });
    const client = new SiegeClient({
      baseUrl, battleId: battle.id, token: battle.gm_token, language: lang, fetch, EventSource,
    });
    return { battle, client };
  }

  /**
   * The same battle and settings with another token (one `mintToken` gave).
   * @param {string} token
   */
  withToken(token) {
    return new SiegeClient({
      baseUrl: this.baseUrl, battleId: this.battleId, token, language: this.language,
      fetch: this.#fetch, EventSource: this.#EventSource,
    });
  }

  /**
   * The battle's summary: ruleset, options, log head (`version`) and `projected_version`.
   * @returns {Promise<BattleSummary>}
   */
  async battle() {
    return (await this.#request("GET", "")).body;
  }

  /**
   * The projected state, or the state just after version `at`.
   * @param {{at?: number}} [options]
   * @returns {Promise<BattleState>}
   */
  async state({ at } = {}) {
    return (await this.#request("GET", "/state", { query: { at } })).body;
  }

  /**
   * One page of the log after `after`, each entry with its outcome (null while pending).
   * @param {{after?: number, limit?: number}} [options]
   * @returns {Promise<EventPage>}
   */
  async events({ after, limit } = {}) {
    const { body, response } = await this.#request("GET", "/events", { query: { after, limit } });
    return { events: body, next: nextAfter(response.headers.get("Link")) };
  }

  /**
   * Every entry after `after`, page by page.
   * @param {{after?: number, limit?: number}} [options]
   * @returns {AsyncGenerator<LogEntry>}
   */
  async *allEvents({ after = 0, limit } = {}) {
    /** @type {number | null} */
    let from = after;
    while (from !== null) {
      const page = await this.events({ after: from, limit });
      yield* page.events;
      from = page.next;
    }
  }

  /**
   * One log entry and its outcome (null while pending).
   * @param {number} version
   * @returns {Promise<LogEntry>}
   */
  async event(version) {
    return (await this.#request("GET", `/events/${encodeURIComponent(version)}`)).body;
  }

  /** The audit: chain, replay and (once concluded) dice checks. */
  async audit() {
    return (await this.#request("GET", "/audit")).body;
  }

  /** The rulesets the service referees (public: no token sent). */
  async rulesets() {
    return (await call(this.#fetch, `${this.baseUrl}/rulesets`, { headers: this.#language() })).body;
  }

  /**
   * One ruleset's commands, options, phases and reason codes (public).
   * @param {string} name
   */
  async ruleset(name) {
    const url = `${this.baseUrl}/rulesets/${encodeURIComponent(name)}`;
    return (await call(this.#fetch, url, { headers: this.#language() })).body;
  }

  /**
   * Send a command. With `wait` (seconds, default 5; 0 not to wait) the answer is its outcome once folded,
   * else the 202's `{status: "accepted", version}`. The Idempotency-Key (a fresh UUID unless given) makes
   * a repeat safe: a network failure or a repeat still in flight is sent again with the same key, and
   * whatever the first one got is what the repeat answers, appended once.
   * @param {Record<string, unknown> & {type: string}} command
   * @param {{idempotencyKey?: string, wait?: number, ifMatch?: string | number}} [options]
   * @returns {Promise<Outcome | Accepted>}
   */
  async send(command, { idempotencyKey, wait = DEFAULT_WAIT_S, ifMatch } = {}) {
    /** @type {Record<string, string>} */
    const headers = { "Idempotency-Key": idempotencyKey ?? crypto.randomUUID() };
    if (wait > 0) headers.Prefer = `wait=${wait}`;
    if (ifMatch !== undefined) headers["If-Match"] = String(ifMatch);
    for (let attempt = 0; ; attempt += 1) {
      try {
        return (await this.#request("POST", "/commands", { headers, body: command })).body;
      } catch (error) {
        if (attempt >= SEND_RETRIES || !(error instanceof SiegeError) || !sendAgain(error)) throw error;
        await sleep(1000 * (error.retryAfter ?? 2 ** attempt));
      }
    }
  }

  /**
   * Mint a token of this battle (GM only).
   * @param {string} role `gm`, `observer` or `side:<name>`
   * @param {{expiresIn?: number}} [options] seconds; omitted: it never expires
   * @returns {Promise<TokenMinted>}
   */
  async mintToken(role, { expiresIn } = {}) {
    /** @type {Record<string, unknown>} */
    const body = { role };
    if (expiresIn !== undefined) body.expires_in = expiresIn;
    return (await this.#request("POST", "/tokens", { body })).body;
  }

  /**
   * A single-use ticket for the stream, since an EventSource cannot send Authorization.
   * @returns {Promise<StreamTicket>}
   */
  async streamTicket() {
    return (await this.#request("POST", "/stream-tickets")).body;
  }

  /** The stream's URL for a ticket, resuming after `after`, summaries in the client's language. */
  streamUrl(/** @type {string} */ ticket, /** @type {number | null} */ after = null) {
    return url(`${this.#battleUrl()}/stream`, { ticket, after: after ?? undefined, lang: streamLanguage(this.language) });
  }

  /**
   * Each outcome as the fold writes it, in version order, exactly once: every (re)connection takes a fresh
   * ticket and resumes after the last version delivered. Without `after` it starts after the version
   * projected now. A dropped connection is closed and opened again after 1 s, doubling to 30 s; it stops
   * on `close()`, on an `end` event, which `onEnd` is told (whatever its reason: the battle concluded, or
   * the token was revoked or expired), or when the ticket is refused for good (401/403/404: the token no
   * longer reads this battle), which `onError` is told.
   * @param {object} [handlers]
   * @param {number} [handlers.after]
   * @param {(outcome: Outcome) => void} [handlers.onOutcome]
   * @param {(end: EndOfStream) => void} [handlers.onEnd]
   * @param {(error: SiegeError | Error, {willRetry}: {willRetry: boolean}) => void} [handlers.onError]
   * @param {() => void} [handlers.onOpen]
   * @returns {Subscription}
   */
  subscribe({ after, onOutcome, onEnd, onError, onOpen } = {}) {
    const Source = this.#EventSource;
    if (!Source) throw new TypeError("no EventSource here: pass one to the SiegeClient constructor");
    /** @type {number | null} */
    let last = after ?? null;
    let closed = false;
    let failures = 0;
    /** @type {EventSource | null} */
    let source = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    let timer = null;

    const stop = () => {
      closed = true;
      if (timer !== null) clearTimeout(timer);
      source?.close();
      source = null;
    };
    const retry = (/** @type {SiegeError | Error} */ error) => {
      source?.close();
      source = null;
      if (closed) return;
      const fatal = error instanceof SiegeError && [401, 403, 404].includes(error.status);
      onError?.(error, { willRetry: !fatal });
      if (fatal) return stop();
      const backoff = Math.min(BACKOFF_FIRST_MS * 2 ** failures, BACKOFF_MAX_MS);
      failures += 1;
      timer = setTimeout(connect, backoff / 2 + Math.random() * (backoff / 2));
    };
    const connect = async () => {
      timer = null;
      try {
        if (last === null) last = (await this.battle()).projected_version;
        const { ticket } = await this.streamTicket();
        if (closed) return;
        const opened = new Source(this.streamUrl(ticket, last));
        source = opened;
        opened.onopen = () => {
          failures = 0;
          onOpen?.();
        };
        opened.addEventListener("outcome", (event) => {
          const outcome = JSON.parse(/** @type {MessageEvent} */ (event).data);
          if (last !== null && outcome.version <= last) return; // already delivered before a reconnect
          last = outcome.version;
          onOutcome?.(outcome);
        });
        // every end is final: after `token_revoked` or `token_expired` a reconnect would only meet a 401
        opened.addEventListener("end", (event) => {
          stop();
          onEnd?.(JSON.parse(/** @type {MessageEvent} */ (event).data));
        });
        // the browser would reconnect by itself, with a used ticket: close and reconnect with a fresh one
        opened.onerror = (event) => {
          if (source !== opened) return;
          retry(new SiegeError(0, null, "the stream was cut or refused", { cause: event }));
        };
      } catch (error) {
        retry(error instanceof Error ? error : new Error(String(error)));
      }
    };
    connect();
    return { close: stop, lastVersion: () => last };
  }

  #battleUrl() {
    return `${this.baseUrl}/battles/${encodeURIComponent(this.battleId)}`;
  }

  #language() {
    return { "Accept-Language": this.language };
  }

  /**
   * @param {string} method
   * @param {string} path under the battle
   * @param {{query?: Record<string, string | number | undefined>, headers?: Record<string, string>, body?: unknown}} [options]
   */
  #request(method, path, { query = {}, headers = {}, body } = {}) {
    return call(this.#fetch, url(`${this.#battleUrl()}${path}`, query), {
      method,
      headers: { ...bearer(this.token), ...this.#language(), ...headers },
      body,
    });
  }
}

/**
 * One request: JSON in, JSON out; any answer but a 2xx (or 304) is a SiegeError.
 * @param {FetchFunction} fetch
 * @param {string} target
 * @param {{method?: string, headers?: Record<string, string>, body?: unknown}} options
 * @returns {Promise<{body: any, response: Response}>}
 */
async function call(fetch, target, { method = "GET", headers = {}, body }) {
  /** @type {RequestInit} */
  const init = { method, headers: { Accept: `application/json, ${PROBLEM_JSON}`, ...headers } };
  if (body !== undefined) {
    init.headers = { ...init.headers, "Content-Type": "application/json" };
    init.body = JSON.stringify(body);
  }
  /** @type {Response} */
  let response;
  try {
    response = await fetch(target, init);
  } catch (error) {
    // the browser says no more than this for a refused connection or a CORS refusal alike
    throw new SiegeError(0, null, `${method} ${target}: no answer (${error})`, { cause: error });
  }
  const text = await response.text();
  const parsed = text ? parseJson(text) : null;
  if (response.ok) return { body: parsed, response };
  const problem = isProblem(parsed)
    ? parsed
    : { type: "about:blank", title: response.statusText || `HTTP ${response.status}`, status: response.status };
  const retryAfter = Number(response.headers.get("Retry-After")) || null;
  throw new SiegeError(response.status, problem, undefined, { retryAfter });
}

/** @param {SiegeError} error */
function sendAgain(error) {
  return error.status === 0 || error.type === "idempotency-key-in-flight" || error.status === 503;
}

/** @param {string | null} link an RFC 8288 Link header */
function nextAfter(link) {
  const next = link?.split(",").find((part) => /;\s*rel="?next"?/.test(part));
  const target = next?.match(/<([^>]*)>/)?.[1];
  if (!target) return null;
  const after = new URL(target, "http://relative.invalid").searchParams.get("after");
  return after === null ? null : Number(after);
}

/**
 * @param {string} base
 * @param {Record<string, string | number | undefined>} query
 */
function url(base, query) {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}

/** @param {string | undefined} secret @returns {Record<string, string>} */
function bearer(secret) {
  return secret ? { Authorization: `Bearer ${secret}` } : {};
}

/** @param {FetchFunction | undefined} fetch */
function boundFetch(fetch) {
  const chosen = fetch ?? globalThis.fetch;
  // window.fetch called as a method of anything else throws "Illegal invocation"
  return (/** @type {string} */ input, /** @type {RequestInit | undefined} */ init) => chosen(input, init);
}

/** @param {string} base */
function trimmed(base) {
  return base.replace(/\/+$/, "");
}

function defaultLanguage() {
  return globalThis.navigator?.language ?? "en";
}

/** `fr-CA` → `fr`; a language the service does not tell in → `en`, as its Accept-Language reading does. */
function streamLanguage(/** @type {string} */ language) {
  const primary = language.split(/[-_,;\s]/)[0].toLowerCase();
  return LANGUAGES.includes(primary) ? primary : "en";
}

/** @param {string} text */
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** @param {unknown} body @returns {body is Problem} */
function isProblem(body) {
  return typeof body === "object" && body !== null && "type" in body && "status" in body;
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
