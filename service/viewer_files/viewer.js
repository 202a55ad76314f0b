// The viewer page: reads the token from the URL fragment (then clears it), loads the battle, its log and
// audit, and shows the map at the version the timeline points to; live mode follows new outcomes.

import { labels, pickLanguage } from "./i18n.js";
import { isHidden, logRow, undoneBy } from "./log.js";
import { drawEpic, epicCaption, gateState, sectionOrder, sectionStatus } from "./map-epic.js";
import { drawPathfinder, pathfinderCaption, shotsOf, squareText } from "./map-pathfinder.js";
import { SiegeClient } from "./siege.js";
import { html } from "./svg.js";
import { browserVerifier, headline } from "/verify/static/verifier.js";

const PAGE = 200; // events per request: the service clamps it to its own page maximum
const SLIDER_REST_MS = 120;
const STATES_KEPT = 200; // states remembered for stepping back and forth; the oldest read goes first

const $ = (id) => document.getElementById(id);

// The token is kept in memory only (by the client): read from the fragment, which then leaves the address
// bar and the history, so it never reaches a request line, a Referer or a bookmark.
function takeToken() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const token = fragment.get("token");
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  return token;
}

function translatePage(words, language) {
  document.documentElement.lang = language;
  for (const node of document.querySelectorAll("[data-label]")) node.textContent = words[node.dataset.label];
  for (const node of document.querySelectorAll("[data-label-aria]")) node.setAttribute("aria-label", words[node.dataset.labelAria]);
  document.title = words.title;
}

const BADGES = { verified: "ok", tampered: "failed", unusable: "failed", unsupported: "unsupported" };

class Viewer {
  constructor(client, words, fetchExport) {
    this.client = client;
    this.words = words;
    this.fetchExport = fetchExport; // the battle's export, with the token the page holds in memory
    this.entries = [];
    this.states = new Map();
    this.shown = null;
    this.wanted = null;
    this.subscription = null;
    this.badgeTurn = 0; // the checks the badge was handed to, server's or browser's: the last one speaks
  }

  async start() {
    $("status").textContent = this.words.loading;
    this.battle = await this.client.battle();
    $("battle-name").textContent = this.battle.name ? `· ${this.battle.name}` : "";
    $("battle-meta").textContent = `${this.battle.ruleset} · ${this.battle.rules_version} · ${this.battle.id}`;
    await this.loadEvents(0);
    this.bindTimeline();
    await this.show(this.head());
    $("status").textContent = "";
    this.audit();
    $("verify-here").disabled = false;
    $("verify-here").addEventListener("click", () => this.verifyHere());
  }

  async loadEvents(after) {
    let page = await this.client.events({ after, limit: PAGE });
    for (;;) {
      this.entries.push(...page.events.filter((e) => e.outcome));
      if (page.next === null || page.events.some((e) => !e.outcome)) break;
      page = await this.client.events({ after: page.next, limit: PAGE });
    }
    this.renderLog();
  }

  head() {
    return this.entries.length ? this.entries[this.entries.length - 1].version : 1;
  }

  bindTimeline() {
    const slider = $("version");
    slider.disabled = false;
    slider.max = String(this.head());
    let dragging = null; // a drag across many versions reads only the one it rests on
    slider.addEventListener("input", () => {
      clearTimeout(dragging);
      dragging = setTimeout(() => this.show(Number(slider.value)), SLIDER_REST_MS);
    });
    $("first").addEventListener("click", () => this.show(1));
    $("previous").addEventListener("click", () => this.show(this.wanted - 1));
    $("next").addEventListener("click", () => this.show(this.wanted + 1));
    $("last").addEventListener("click", () => this.show(this.head()));
    $("live").addEventListener("change", (event) => (event.target.checked ? this.follow() : this.unfollow()));
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const onSlider = event.target === slider; // the range input moves itself on arrows; keep one step
      const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName) && !onSlider;
      if (typing) return;
      const moves = { ArrowLeft: this.wanted - 1, ArrowRight: this.wanted + 1, Home: 1, End: this.head() };
      if (!(event.key in moves)) return;
      event.preventDefault();
      this.show(moves[event.key]);
    });
  }

  async show(version) {
    const v = Math.max(1, Math.min(this.head(), version));
    this.wanted = v;
    $("version").value = String(v);
    $("version-out").textContent = this.words.versionOf(v, this.head());
    $("previous").disabled = v <= 1;
    $("first").disabled = v <= 1;
    $("next").disabled = v >= this.head();
    $("last").disabled = v >= this.head();
    let state;
    try {
      state = await this.stateAt(v);
    } catch (error) {
      $("status").textContent = this.words.loadFailed(error.message);
      return;
    }
    if (this.wanted !== v) return; // a later step overtook this one
    $("status").textContent = "";
    this.shown = v;
    this.renderMap(state, v);
    this.markCurrent(v);
  }

  async stateAt(v) {
    if (!this.states.has(v)) {
      this.states.set(v, this.client.state({ at: v }));
      if (this.states.size > STATES_KEPT) this.states.delete(this.states.keys().next().value);
    }
    try {
      return await this.states.get(v);
    } catch (error) {
      this.states.delete(v);
      throw error;
    }
  }

  renderMap(state, v) {
    const words = this.words;
    const map = $("map");
    const notes = [];
    if (state.ruleset === "epic") {
      map.replaceChildren(drawEpic(state.game, words));
      $("map-caption").textContent = epicCaption(state, words);
      for (const section of sectionOrder(state.game.sections || [])) {
        const gate = gateState(section, words);
        const said = `${section.id} (${words.term(`epic.kind.${section.kind}`)}): ${sectionStatus(section, words)}${gate ? ` · ${gate}` : ""}`;
        notes.push(html("li", { "data-entity-id": section.id, class: "note section-note" }, said));
      }
    } else {
      const shots = shotsOf(this.entries, v);
      map.replaceChildren(drawPathfinder(state.game, shots, words));
      $("map-caption").textContent = pathfinderCaption(state, words);
      for (const shot of shots) {
        const strayed = shot.scatter ? ` · ${shot.scatter.direction} ${shot.scatter.distance_squares}` : "";
        notes.push(
          html(
            "li",
            { class: "note shot-note", "data-version": shot.version, "data-entity-id": shot.engineId },
            `v${shot.version} ${shot.engineId}: ${words.aimedSquare} ${squareText(shot.origin)} → ${words.landing} ${squareText(shot.landing)}${strayed}`,
          ),
        );
      }
    }
    $("map-notes").replaceChildren(...notes);
  }

  renderLog() {
    const undone = undoneBy(this.entries);
    $("log").replaceChildren(...this.entries.map((entry) => logRow(entry, undone, this.words, this.battle.ruleset, (v) => this.show(v))));
    if (this.shown !== null) this.markCurrent(this.shown);
  }

  markCurrent(v) {
    for (const row of $("log").querySelectorAll("[aria-current]")) row.removeAttribute("aria-current");
    const row = $("log").querySelector(`[data-version="${v}"]`);
    if (!row) return;
    row.setAttribute("aria-current", "step");
    const list = $("log"); // scroll the log only, never the page under the reader
    if (row.offsetTop < list.scrollTop || row.offsetTop + row.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = row.offsetTop - list.clientHeight / 3;
    }
  }

  // the badge speaks for the check started last: an answer to an earlier one is dropped, so a slow server
  // audit never overwrites the browser's verdict the reader asked for after it (nor the other way round)
  #turn() {
    const turn = ++this.badgeTurn;
    return () => turn === this.badgeTurn;
  }

  async audit() {
    const badge = $("audit");
    const words = this.words;
    const current = this.#turn();
    badge.className = "badge checking";
    badge.dataset.verifier = "server";
    badge.textContent = words.auditChecking;
    try {
      const audit = await this.client.audit();
      if (!current()) return;
      const dice = audit.dice;
      const lines = [
        audit.chain.ok ? words.chainOk : words.chainBroken(audit.chain.broken_at),
        audit.replay.skipped // rules this release does not fold: not replayed, never a difference
          ? words.replaySkipped(audit.rules_version, audit.supported.join(", "))
          : audit.replay.ok ? words.replayOk : words.replayDiffers(audit.replay.first_difference?.version),
        !dice.verifiable ? words.seedHidden : dice.commitment_ok ? words.seedRevealed : words.seedWrong,
      ];
      if (dice.verifiable) lines.push(dice.mismatches.length ? words.rollsWrong(dice.mismatches.length) : words.rollsVerified(dice.checked_rolls));
      const verdict = { ok: words.auditOk, failed: words.auditFailed, unsupported: words.auditUnsupported };
      badge.className = `badge ${audit.status}`;
      badge.replaceChildren(
        html("strong", {}, `${verdict[audit.status]} · v${audit.audited_upto} · ${words.byServer}`),
        html("ul", {}, lines.map((line) => html("li", {}, line))),
      );
    } catch (error) {
      if (!current()) return;
      badge.className = "badge failed";
      badge.textContent = `${words.auditUnavailable}: ${error.message}`;
    }
  }

  // the export re-folded by this browser (Pyodide running the service's own verifier): the badge says so
  async verifyHere() {
    const badge = $("audit");
    const bar = $("verify-progress");
    const words = this.words;
    const current = this.#turn();
    $("verify-here").disabled = true;
    bar.value = 0;
    bar.hidden = false;
    badge.className = "badge checking";
    badge.dataset.verifier = "browser";
    badge.textContent = words.verifyingHere;
    try {
      const verifier = browserVerifier();
      const about = await verifier.start();
      const { report, ms } = await verifier.verify(await this.fetchExport(), (done, total) => (bar.value = total ? done / total : 1));
      if (!current()) return;
      const dice = report.dice;
      const lines = report.finding ? [headline(report)] : [words.chainOk, words.refolded(report.outcomes.compared, report.outcomes.pending)];
      if (!report.finding) lines.push(!dice.verifiable ? words.seedHidden : words.rollsVerified(dice.checked_rolls));
      lines.push(words.codeDigest(about.sha256), words.took((ms / 1000).toFixed(2)));
      badge.className = `badge ${BADGES[report.status]}`;
      badge.replaceChildren(
        html("strong", {}, `${words.browserVerdict[report.status]} · v${report.head_version} · ${words.byBrowser}`),
        html("ul", {}, lines.map((line) => html("li", {}, line))),
      );
    } catch (error) {
      if (!current()) return;
      badge.className = "badge failed";
      badge.textContent = `${words.verifyUnavailable}: ${error.message}`;
    } finally {
      bar.hidden = true;
      $("verify-here").disabled = false;
    }
  }

  // each new outcome from the event stream, resumed after the last one seen across reconnections
  follow() {
    $("live-status").textContent = "";
    this.subscription = this.client.subscribe({
      after: this.head(),
      onOpen: () => ($("live-status").textContent = this.words.live_on),
      onOutcome: (outcome) => this.arrived(outcome),
      onEnd: () => {
        this.stopped(this.words.concluded);
        this.audit();
      },
      onError: (error, { willRetry }) => {
        if (willRetry) $("live-status").textContent = this.words.live_retrying;
        else this.stopped(error.message);
      },
    });
  }

  // after a reveal the entries that were shown hidden are served whole: read them again
  async revealed() {
    this.states.clear(); // states read before showed the others' orders as hidden
    for (const [i, e] of this.entries.entries()) {
      if (!isHidden(e)) continue;
      try {
        this.entries[i] = await this.client.event(e.version);
      } catch (error) {
        $("live-status").textContent = error.message;
      }
    }
  }

  stopped(why) {
    this.subscription = null;
    $("live").checked = false;
    $("live-status").textContent = why;
  }

  unfollow() {
    this.subscription?.close();
    this.subscription = null;
    $("live-status").textContent = "";
  }

  async arrived(outcome) {
    const following = this.wanted === this.head();
    let entry;
    try {
      entry = await this.client.event(outcome.version); // the command as logged too (who fired, at what)
    } catch (error) {
      $("live-status").textContent = error.message;
      return;
    }
    if (this.entries.some((e) => e.version === entry.version)) return;
    this.entries.push({ ...entry, outcome: entry.outcome || outcome });
    this.entries.sort((a, b) => a.version - b.version);
    if (revealing(outcome)) await this.revealed();
    $("version").max = String(this.head());
    this.renderLog();
    await this.show(following ? this.head() : this.wanted);
  }
}

// an outcome that reveals hidden orders: epic's advance_phase out of the orders phase, or a conclude
const revealing = (outcome) =>
  outcome.status === "applied" && (outcome.type === "conclude" || (outcome.type === "advance_phase" && outcome.result?.revealed_orders));

async function main() {
  const language = pickLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
  const words = labels(language);
  translatePage(words, language);
  const token = takeToken();
  const battleId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());
  if (!token) {
    $("status").textContent = words.noToken;
    return;
  }
  const client = new SiegeClient({ baseUrl: location.origin, battleId, token, language });
  const fetchExport = async () => {
    const answer = await fetch(`/battles/${encodeURIComponent(battleId)}/export`, { headers: { Authorization: `Bearer ${token}` } });
    if (!answer.ok) throw new Error(`${answer.status} ${answer.statusText}`);
    return answer.arrayBuffer();
  };
  try {
    await new Viewer(client, words, fetchExport).start();
  } catch (error) {
    $("status").textContent = words.loadFailed(error.message);
  }
}

main();
