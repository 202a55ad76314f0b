// The viewer's own read-only client, with SiegeClient's method names (clients/js/siege.js), so the page can
// switch to that module by changing one import.

export class SiegeError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

const POLL_MS = 2000; // no stream served: poll the log this often

export class SiegeClient {
  constructor({ baseUrl, battleId, token, language = "en", fetch: fetcher } = {}) {
    this.baseUrl = (baseUrl || "").replace(/\/$/, "");
    this.battleId = battleId;
    this.language = language;
    this.#token = token;
    this.#fetch = fetcher || globalThis.fetch.bind(globalThis);
  }

  #token;
  #fetch;

  battle() {
    return this.#get("");
  }

  state({ at } = {}) {
    return this.#get("/state", at === undefined ? {} : { at });
  }

  async events({ after, limit } = {}) {
    const query = {};
    if (after !== undefined) query.after = after;
    if (limit !== undefined) query.limit = limit;
    const response = await this.#call("GET", "/events", query);
    const events = await response.json();
    const link = response.headers.get("Link") || "";
    const next = /[?&]after=(\d+)[^>]*>;\s*rel="next"/.exec(link);
    return { events, next: next ? Number(next[1]) : null };
  }

  event(version) {
    return this.#get(`/events/${version}`);
  }

  audit() {
    return this.#get("/audit");
  }

  async streamTicket() {
    const response = await this.#call("POST", "/stream-tickets");
    return response.json();
  }

  // Outcomes after `after` as they land: the event stream when the service serves one, else a poll of the log.
  subscribe({ after = 0, onOutcome, onEnd, onError, onOpen } = {}) {
    let last = after;
    let source = null;
    let timer = null;
    let closed = false;
    const seen = (outcome) => {
      if (outcome.version <= last) return;
      last = outcome.version;
      onOutcome?.(outcome);
      if (outcome.type === "conclude" && outcome.status === "applied") {
        close();
        onEnd?.({ version: outcome.version, reason: "concluded" });
      }
    };
    const poll = async () => {
      try {
        for (let page = await this.events({ after: last }); ; page = await this.events({ after: last })) {
          for (const entry of page.events) {
            if (!entry.outcome) return; // pending: the next poll picks it up in order
            seen(entry.outcome);
          }
          if (page.next === null) break;
        }
      } catch (error) {
        onError?.(error);
      } finally {
        if (!closed) timer = setTimeout(poll, POLL_MS);
      }
    };
    const stream = async () => {
      const { ticket } = await this.streamTicket();
      if (closed) return;
      const query = new URLSearchParams({ ticket, after: String(last), lang: this.language });
      source = new EventSource(`${this.#url("/stream")}?${query}`);
      source.addEventListener("open", () => onOpen?.());
      source.addEventListener("outcome", (event) => seen(JSON.parse(event.data)));
      source.addEventListener("end", (event) => {
        close();
        onEnd?.(JSON.parse(event.data));
      });
      source.addEventListener("error", () => {
        if (closed) return;
        source.close(); // a ticket is single use: reconnect through a fresh one, after the last outcome seen
        timer = setTimeout(() => stream().catch(fallback), POLL_MS);
      });
    };
    const fallback = (error) => {
      if (closed) return;
      if (!(error instanceof SiegeError && error.status === 404)) onError?.(error);
      onOpen?.();
      poll();
    };
    const close = () => {
      closed = true;
      source?.close();
      clearTimeout(timer);
    };
    stream().catch(fallback);
    return { close };
  }

  async #get(path, query = {}) {
    const response = await this.#call("GET", path, query);
    return response.json();
  }

  #url(path) {
    return `${this.baseUrl}/battles/${encodeURIComponent(this.battleId)}${path}`;
  }

  // The token travels in Authorization only, never in a URL.
  async #call(method, path, query = {}) {
    const search = new URLSearchParams(query).toString();
    const response = await this.#fetch(`${this.#url(path)}${search ? `?${search}` : ""}`, {
      method,
      headers: { Authorization: `Bearer ${this.#token}`, "Accept-Language": this.language },
      credentials: "omit",
      referrerPolicy: "no-referrer",
    });
    if (!response.ok) {
      const problem = await response.json().catch(() => null);
      throw new SiegeError(response.status, problem);
    }
    return response;
  }
}
