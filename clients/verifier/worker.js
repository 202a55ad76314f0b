// The in-browser verifier's worker: starts Pyodide and the zip of the service's own Python, all from the
// origin that served this file, then runs `siege verify` on each export it is sent, telling its progress.
// Messages in: {op: "start"} once, then {op: "verify", id, bytes}; out: {id, about | progress | json | error},
// `json` the report as canonical JSON, byte for byte what the server's verifier gives.

const BASE = new URL("./", import.meta.url); // /verify/static/
const EXPORT = "/tmp/export.jsonl"; // where a file sent is written, in the worker's own memory file system
const WHEELS = "/wheels"; // where the runtime's compiled wheels are unpacked (msgspec: the zip's JSON)

let started = null; // {pyodide, entry, about} once ready

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

async function start() {
  const status = await (await fetch(new URL("verifier.json", BASE))).json();
  const missing = status.pyodide.problem || status.bundle.problem;
  if (missing) throw new Error(missing);
  const { loadPyodide } = await import(new URL("pyodide/pyodide.mjs", BASE).href);
  const pyodide = await loadPyodide({ indexURL: new URL("pyodide/", BASE).href, fullStdLib: false });
  const wheels = {}; // name -> the SHA-256 of the bytes unpacked, shown with the zip's
  for (const [wheel, expected] of Object.entries(status.pyodide.wheels)) {
    const fetched = await fetch(new URL(`pyodide/${wheel}`, BASE));
    if (!fetched.ok) throw new Error(`${wheel} could not be fetched (HTTP ${fetched.status})`);
    const bytes = await fetched.arrayBuffer();
    const sha256 = hex(await crypto.subtle.digest("SHA-256", bytes));
    if (sha256 !== expected) throw new Error(`${wheel} is not the file the service pins (sha256 ${sha256})`);
    pyodide.unpackArchive(bytes, "wheel", { extractDir: WHEELS });
    wheels[wheel] = sha256;
  }
  const zip = await (await fetch(new URL(status.bundle.name, BASE))).arrayBuffer();
  const sha256 = hex(await crypto.subtle.digest("SHA-256", zip)); // of the very bytes this worker runs
  pyodide.unpackArchive(zip, "zip", { extractDir: "/siege" });
  pyodide.runPython(`import sys; sys.path[:0] = ["/siege", "${WHEELS}"]`);
  const entry = pyodide.pyimport("replay.in_browser.entry");
  const about = { ...JSON.parse(entry.about()), sha256, published: status.bundle.sha256, pyodide: pyodide.version, wheels };
  // two small exports folded before the reader's: their first run is the slow one (a self-check besides)
  const warmed = entry.warm_up();
  about.warm_up = warmed.toJs();
  warmed.destroy();
  if (!about.warm_up.every((said) => said === "verified")) {
    throw new Error(`the verifier's own sample exports do not verify here (${about.warm_up.join(", ")})`);
  }
  // reachable from the worker's console, so a reader can look at what ran
  self.siege = { pyodide, entry, about };
  return self.siege;
}

function verify({ pyodide, entry }, id, bytes) {
  const began = performance.now(); // from the bytes received: their copy into Python's file system counts too
  pyodide.FS.writeFile(EXPORT, new Uint8Array(bytes));
  try {
    const json = entry.verify_file(EXPORT, (done, total) => postMessage({ id, progress: { done, total } }));
    return { json, ms: performance.now() - began };
  } finally {
    pyodide.FS.unlink(EXPORT);
  }
}

self.onmessage = async ({ data }) => {
  const { op, id } = data;
  try {
    if (op === "start") {
      started = started || start();
      postMessage({ id, about: (await started).about });
    } else if (op === "verify") {
      postMessage({ id, ...verify(await started, id, data.bytes) });
    }
  } catch (error) {
    postMessage({ id, error: String(error?.message || error) });
  }
};
