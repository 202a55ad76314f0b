// Live mode: the event stream through SiegeClient.subscribe; where the service serves no stream (its
// stream-tickets route answers 404), the log is polled every 2 s instead, in version order all the same.

import { SiegeError } from "./siege.js";

const POLL_MS = 2000;

export function follow(client, { after, onOutcome, onEnd, onError, onMode }) {
  let last = after;
  let closed = false;
  let timer = null;
  let subscription = null;
  const deliver = (outcome) => {
    if (outcome.version <= last) return;
    last = outcome.version;
    onOutcome(outcome);
  };
  const poll = async () => {
    try {
      for (let page = await client.events({ after: last }); ; page = await client.events({ after: last })) {
        const ready = page.events.filter((entry) => entry.outcome);
        for (const entry of ready) deliver(entry.outcome);
        const ended = ready.find((e) => e.type === "conclude" && e.outcome.status === "applied");
        if (ended) return stop(() => onEnd({ version: ended.version, reason: "concluded" }));
        if (page.next === null || ready.length < page.events.length) break; // a pending one: next time
      }
    } catch (error) {
      onError(error);
    }
    if (!closed) timer = setTimeout(poll, POLL_MS);
  };
  const stop = (then) => {
    closed = true;
    clearTimeout(timer);
    subscription?.close();
    then?.();
  };
  subscription = client.subscribe({
    after,
    onOpen: () => onMode("stream"),
    onOutcome: deliver,
    onEnd: (end) => stop(() => onEnd(end)),
    onError: (error, { willRetry }) => {
      if (!willRetry && error instanceof SiegeError && error.status === 404 && !closed) {
        onMode("polling"); // no stream served here
        poll();
      } else if (!willRetry) {
        onError(error);
      }
    },
  });
  return { close: () => stop() };
}
