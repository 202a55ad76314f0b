// The in-browser verifier's loader: one worker (worker.js) that runs the service's own verifier in Pyodide,
// started once and reused for every export; used by the verify page and by the viewer.

const BASE = new URL("./", import.meta.url);

export class BrowserVerifier {
  constructor() {
    this.worker = null;
    this.calls = new Map();
    this.next = 0;
    this.about = null;
  }

  // the worker and Pyodide, started on first use: {rules, python, pyodide, sha256, published, modules};
  // a start that fails is forgotten with its worker, so the reader's next try starts afresh
  start() {
    if (!this.about) {
      const worker = new Worker(new URL("worker.js", BASE), { type: "module" });
      worker.onmessage = ({ data }) => this.answered(data);
      worker.onerror = (event) => {
        if (this.worker === worker) this.failAll(event.message || "the verifier's worker failed to start");
      };
      this.worker = worker;
      const about = this.call({ op: "start" });
      about.catch(() => {
        if (this.about === about) this.reset();
      });
      this.about = about;
    }
    return this.about;
  }

  // {report, json, ms}: the report `siege verify --json` would print, as canonical JSON too, and the
  // milliseconds the verify took in this browser
  async verify(bytes, onProgress = () => {}) {
    await this.start();
    return this.call({ op: "verify", bytes }, onProgress, [bytes]);
  }

  call(message, onProgress = () => {}, transfer = []) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.calls.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ ...message, id }, transfer);
    });
  }

  answered(data) {
    const call = this.calls.get(data.id);
    if (!call) return;
    if (data.progress) return call.onProgress(data.progress.done, data.progress.total);
    this.calls.delete(data.id);
    if (data.error) call.reject(new Error(data.error));
    else call.resolve(data.about || { report: JSON.parse(data.json), json: data.json, ms: data.ms });
  }

  failAll(why) {
    for (const call of this.calls.values()) call.reject(new Error(why));
    this.calls.clear();
    this.reset();
  }

  // no worker: the next call starts one (a broken worker is stopped, never left running beside it)
  reset() {
    this.worker?.terminate();
    this.worker = null;
    this.about = null;
  }
}

// one verifier per page
let shared = null;
export function browserVerifier() {
  shared = shared || new BrowserVerifier();
  return shared;
}

const VERDICTS = { verified: "VERIFIED", tampered: "TAMPERED", unusable: "UNUSABLE", unsupported: "UNSUPPORTED" };

// the first line `siege verify` prints: the verdict, and the first thing wrong
export function headline(report) {
  return VERDICTS[report.status] + (report.finding ? ` ${report.finding.summary}` : "");
}
