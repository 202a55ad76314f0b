// The verify page: starts the in-browser verifier, shows which code it runs (the digest of the zip it loaded,
// the rules versions it folds), then verifies each export chosen, dropped or fetched with a token from the
// URL fragment (kept in memory only), and shows the verdict `siege verify` would print.

import { browserVerifier, headline } from "./verifier.js";

const $ = (id) => document.getElementById(id);

function rows(list, pairs) {
  list.replaceChildren();
  for (const [term, value] of pairs) {
    const dt = document.createElement("dt");
    const dd = document.createElement("dd");
    dt.textContent = term;
    dd.textContent = value;
    list.append(dt, dd);
  }
}

function showCode(about) {
  const rules = Object.entries(about.rules).map(([name, versions]) => `${name} ${versions.join(", ")}`);
  const published = about.published === about.sha256 ? "the digest the service publishes" : `the service publishes ${about.published}`;
  rows($("code"), [
    ["verifier", "the service's own Python, run by this browser"],
    ["zip sha256", `${about.sha256} (computed here from the bytes run; ${published})`],
    ["rules", rules.join("; ")],
    ["runtime", `Python ${about.python} on Pyodide ${about.pyodide}`],
    ...Object.entries(about.wheels).map(([name, sha256]) => ["wheel", `${name} sha256 ${sha256}`]),
  ]);
}

function folds(report) {
  if (report.status !== "unsupported" || report.supported === null) return "";
  return ` (this release folds ${report.supported.join(", ") || `none of ${report.ruleset}`})`;
}

function dice(report) {
  if (report.concluded_at === null) return "not verifiable yet: the battle is not concluded, its seed is still secret";
  if (!report.dice.commitment_ok) return `the seed revealed at version ${report.concluded_at} does not match its commitment`;
  return `the seed revealed at version ${report.concluded_at} matches its commitment; ${report.dice.checked_rolls} stream dice`;
}

// what `siege verify` prints, row for row (replay/cli/report.py)
export function showReport(report, ms) {
  const verdict = $("verdict");
  verdict.className = report.status;
  verdict.textContent = headline(report);
  const found = report.finding;
  rows($("details"), [
    ...(found ? [["found at", `line ${found.line} of the file`]] : []),
    ["battle", report.source || "-"],
    ["rules", `${report.ruleset || "-"} ${report.rules_version || ""}${folds(report)}`],
    ["entries", `${report.entries} chained (head ${report.head_version}, hash ${report.head_hash})`],
    [
      "outcomes",
      report.status === "unsupported"
        ? "not compared: this release does not fold these rules"
        : `${report.outcomes.compared} re-folded and equal, ${report.outcomes.pending} pending`,
    ],
    ["dice", dice(report)],
    ["checked by", "this browser"],
  ]);
  $("elapsed").textContent = `Checked in this browser in ${(ms / 1000).toFixed(2)} s.`;
}

async function check(verifier, bytes, name) {
  const bar = $("progress");
  bar.value = 0;
  $("elapsed").textContent = `Verifying ${name}…`;
  $("verdict").className = "";
  $("verdict").textContent = "Verifying…";
  rows($("details"), []);
  try {
    const { report, ms } = await verifier.verify(bytes, (done, total) => (bar.value = total ? done / total : 1));
    bar.value = 1;
    showReport(report, ms);
    return report;
  } catch (error) {
    $("verdict").className = "unusable";
    $("verdict").textContent = `The verifier failed: ${error.message}`;
    $("elapsed").textContent = "";
    return null;
  }
}

// `#battle=<id>&token=<token>`: the fragment leaves the address bar at once, the token stays in memory
function takeFragment() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  return { battle: fragment.get("battle"), token: fragment.get("token") };
}

async function fetched(battle, token) {
  const answer = await fetch(`/battles/${encodeURIComponent(battle)}/export`, { headers: { Authorization: `Bearer ${token}` } });
  if (!answer.ok) throw new Error(`the export of ${battle} answered ${answer.status}`);
  return answer.arrayBuffer();
}

function bindInput(verifier) {
  const input = $("file");
  const drop = $("drop");
  input.disabled = false;
  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (file) await check(verifier, await file.arrayBuffer(), file.name);
  });
  drop.addEventListener("dragover", (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", async (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    const file = event.dataTransfer.files[0];
    if (file) await check(verifier, await file.arrayBuffer(), file.name);
  });
}

async function main() {
  const wanted = takeFragment();
  const verifier = browserVerifier();
  let about;
  try {
    about = await verifier.start();
  } catch (error) {
    $("code-status").className = "missing";
    $("code-status").textContent = `The verifier cannot start here: ${error.message}`;
    return;
  }
  $("code-status").textContent = "Ready: the verifier runs in this browser.";
  showCode(about);
  bindInput(verifier);
  if (wanted.battle && wanted.token) {
    try {
      await check(verifier, await fetched(wanted.battle, wanted.token), `the export of ${wanted.battle}`);
    } catch (error) {
      $("verdict").textContent = `Could not fetch the export: ${error.message}`;
    }
  }
}

main();
