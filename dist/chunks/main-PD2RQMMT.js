import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  EXIT
} from "./chunk-TADAZM5Q.js";
import {
  EXPIRING_WITHIN_DAYS,
  addDays,
  check,
  daysBetween,
  emptyScorecard,
  finalize,
  formatOf,
  formatProblem,
  isCalendarDate,
  ledgerFromText,
  parseLedger
} from "./chunk-DUJQ6YVM.js";
import {
  exitCode
} from "./chunk-GL77JWVN.js";
import {
  VERSION
} from "./chunk-4TO6EUUJ.js";
import {
  DEFAULT_POLICY_PATH,
  GateError,
  parsePolicy,
  policySchema,
  reasonFromError,
  renderMarkdown,
  require_dist,
  title,
  utcToday
} from "./chunk-B5LBP7XO.js";
import {
  logText
} from "./chunk-FAPZVZVY.js";
import {
  __toESM
} from "./chunk-BLJCPJ76.js";

// src/cli/main.ts
import { writeFile as writeFile3 } from "node:fs/promises";
import { resolve as resolve3 } from "node:path";
import { parseArgs as parseArgs3 } from "node:util";

// src/cli/logger.ts
function stderrLogger(stream = process.stderr, verbose = true) {
  return {
    info: (message) => {
      if (verbose) stream.write(`  ${logText(message)}
`);
    },
    warning: (message) => stream.write(`warning: ${logText(message)}
`),
    group: async (name, fn) => {
      if (verbose) stream.write(`\u25B8 ${logText(name)}
`);
      return fn();
    }
  };
}

// src/cli/init.ts
import { existsSync as existsSync2 } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";

// src/policy/starter.ts
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
var NODE_LOCKFILES = [
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
  ["bun.lock", "bun"],
  ["bun.lockb", "bun"],
  ["package-lock.json", "npm"],
  ["npm-shrinkwrap.json", "npm"]
];
function detectRepository(repoDir) {
  const names = existsSync(repoDir) ? readdirSync(repoDir) : [];
  const pkg = names.includes("package.json") ? readFileSync(join(repoDir, "package.json"), "utf8") : void 0;
  return detectProject(names, pkg);
}
function describeProject(p) {
  const from = p.lockfile === null ? "no lockfile" : p.lockfile;
  return p.kind === "node" ? `JavaScript/TypeScript, ${p.manager} (${from}), ${p.runner === "node-test" ? "node:test" : p.runner}` : `Python, ${p.manager === "none" ? "pytest from the environment" : `${p.manager} (${from})`}`;
}
function detectProject(rootNames, packageJson) {
  const has = (n) => rootNames.includes(n);
  const nodeLock = NODE_LOCKFILES.find(([file]) => has(file));
  if (nodeLock !== void 0 || packageJson !== void 0) {
    let manager = nodeLock?.[1] ?? "npm";
    if (manager === "yarn" && has(".yarnrc.yml")) manager = "yarn-berry";
    return {
      kind: "node",
      manager,
      lockfile: nodeLock?.[0] ?? null,
      runner: nodeRunner(packageJson)
    };
  }
  if (has("uv.lock")) return { kind: "python", manager: "uv", lockfile: "uv.lock" };
  if (has("poetry.lock")) return { kind: "python", manager: "poetry", lockfile: "poetry.lock" };
  const requirements = rootNames.filter((n) => /^requirements.*\.txt$/.test(n)).sort();
  if (requirements.length > 0) {
    const main2 = requirements.includes("requirements.txt") ? "requirements.txt" : requirements[0] ?? null;
    return { kind: "python", manager: "pip", lockfile: main2 };
  }
  return { kind: "python", manager: "none", lockfile: null };
}
function nodeRunner(packageJson) {
  let deps = {};
  try {
    const parsed = JSON.parse(packageJson ?? "{}");
    deps = { ...parsed.dependencies, ...parsed.devDependencies };
  } catch {
  }
  if ("vitest" in deps) return "vitest";
  if ("jest" in deps) return "jest";
  return "node-test";
}
function nodeSetup(manager, lockfile) {
  switch (manager) {
    case "pnpm":
      return "pnpm install --frozen-lockfile --prefer-offline";
    case "yarn":
      return "yarn install --frozen-lockfile --prefer-offline --non-interactive";
    case "yarn-berry":
      return "yarn install --immutable";
    case "bun":
      return "bun install --frozen-lockfile";
    case "npm":
      return lockfile === null ? "npm install --prefer-offline --no-audit --no-fund" : "npm ci --prefer-offline --no-audit --no-fund";
  }
}
function nodeExec(manager) {
  switch (manager) {
    case "pnpm":
      return "pnpm exec";
    case "yarn":
    case "yarn-berry":
      return "yarn";
    case "bun":
      return "bun run";
    case "npm":
      return "npx --no";
  }
}
function nodeSuite(p) {
  const exec = nodeExec(p.manager);
  switch (p.runner) {
    case "vitest":
      return `  # vitest writes JUnit XML next to its usual output.
  command: ${exec} vitest run oracle/properties --reporter=default --reporter=junit --outputFile.junit={junit}`;
    case "jest":
      return `  # Needs jest-junit in devDependencies; it reads the report path from the environment.
  command: JEST_JUNIT_OUTPUT_FILE="$ORACLE_GATE_JUNIT" ${exec} jest oracle/properties --ci --reporters=default --reporters=jest-junit`;
    case "node-test":
      return `  # node:test's built-in junit reporter (Node 20 and later), plus the usual output on stdout.
  command: node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination={junit} oracle/properties/`;
  }
}
function nodeBlock(p) {
  const lock = p.lockfile === null ? "no lockfile found: commit one, so reuse can be proved safe" : `detected from ${p.lockfile}`;
  return `${nodeSuite(p)}
  timeout: 600        # seconds per side; a timed-out side is a red vote
  reruns: 2           # reruns of a failing voting test, to tell flaky from failing
  # Installs dependencies in each fresh worktree (${p.manager}, ${lock}).
  # A failing setup on the base is a gate error; on the head it is a red vote.
  setup: ${nodeSetup(p.manager, p.lockfile)}
  setup_timeout: 900
  # Link the checkout's node_modules instead of installing, but only into a worktree whose
  # lockfile is byte-identical to the checkout's (otherwise setup runs for that side).
  # Install in the checkout before the gate runs (e.g. the same command in an earlier step).
  reuse: [node_modules]`;
}
function pythonBlock(p) {
  const pytest = "-m pytest oracle/properties -p no:cacheprovider --junitxml={junit}";
  const common = `  timeout: 600        # seconds per side; a timed-out side is a red vote
  reruns: 2           # reruns of a failing voting test, to tell flaky from failing`;
  const reuse = `  # Link the checkout's .venv instead of installing, only into a worktree whose ${p.lockfile ?? "lockfile"}
  # is byte-identical to the checkout's. The project itself must not be installed into
  # it in editable mode (the gate refuses such a .venv: it would import the checkout's code).
  reuse: [.venv]`;
  switch (p.manager) {
    case "uv":
      return `  command: uv run --frozen --no-sync python ${pytest}
${common}
  # Installs the locked dependencies (not the project) into .venv in each fresh worktree.
  setup: uv sync --frozen --no-install-project
  setup_timeout: 900
${reuse}`;
    case "poetry":
      return `  command: .venv/bin/python ${pytest}
${common}
  # Installs the locked dependencies into .venv inside each fresh worktree.
  setup: POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-interaction --no-root
  setup_timeout: 900
${reuse}`;
    case "pip":
      return `  command: .venv/bin/python ${pytest}
${common}
  # A virtual environment per worktree, from ${p.lockfile}.
  setup: python3 -m venv .venv && .venv/bin/python -m pip install --disable-pip-version-check -q -r ${p.lockfile}
  setup_timeout: 900
${reuse}`;
    case "none":
      return `  # pytest and hypothesis come from the environment the gate runs in.
  command: python -m pytest oracle/properties -p no:cacheprovider --junitxml={junit}
${common}`;
  }
}
function renderStarter(p) {
  return `# oracle-gate policy: who may write what, and which tests vote.
# The gate reads this file from the merge base; a PR cannot change how it is judged.
version: 1

# Paths a patch may not add, modify, delete or rename into/out of (the instrument).
# This file, the ledger, the fixture manifest and the seed corpus are always protected.
protected:
  - oracle/**
  - .github/workflows/**

planes:
  voting: [oracle/properties/**]   # the locked suite: only these tests vote
  drafts: [drafts/**]              # run as diagnostics, never vote
  in_diff: [tests/**]              # the patch may write these; they never vote

suite:
  # Run once on the merge base and once on the head, from the worktree root. Name only
  # the voting tests: the patch's own tests run apart, as diagnostics (docs/replay.md).
  # Python runs with PYTHONSAFEPATH=1 (python_safe_path): say where the code is, e.g.
  # pythonpath = src in pytest's configuration.
${p.kind === "node" ? nodeBlock(p) : pythonBlock(p)}

ledger: oracle/flake_ledger.yml          # dated, owned flake rows
# fixtures: oracle/fixtures/manifest.json  # {name: {file, sha256}}
campaign: {seed: 20260913, max_examples: 128, wall_clock: 90}
`;
}

// src/cli/init.ts
async function runInit(argv, io) {
  let values;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      options: { repo: { type: "string" }, policy: { type: "string" }, force: { type: "boolean" } }
    }).values;
  } catch (error) {
    io.stderr.write(`oracle-gate init: ${error instanceof Error ? error.message : String(error)}
`);
    return EXIT.error;
  }
  const repo = resolve(io.cwd, values.repo ?? ".");
  const target = resolve(repo, values.policy ?? DEFAULT_POLICY_PATH);
  if (existsSync2(target) && !values.force) {
    io.stderr.write(`oracle-gate init: ${target} exists; pass --force to overwrite
`);
    return EXIT.error;
  }
  await mkdir(dirname(target), { recursive: true });
  const project = detectRepository(repo);
  await writeFile(target, renderStarter(project));
  io.stderr.write(
    `wrote ${target} (detected: ${describeProject(project)})
Review the suite command and setup, then commit it in a PR of its own: the gate reads the policy from the merge base.
The suite command should run the voting tests only; the patch's own tests run apart, as diagnostics.
`
  );
  return EXIT.ok;
}

// src/cli/ledger.ts
import { existsSync as existsSync3 } from "node:fs";
import { mkdir as mkdir2, readFile, writeFile as writeFile2 } from "node:fs/promises";
import { dirname as dirname2, relative, resolve as resolve2 } from "node:path";
import { parseArgs as parseArgs2 } from "node:util";

// src/ledger/edit.ts
var import_yaml = __toESM(require_dist(), 1);
var ORDER = [
  "id",
  "test",
  "cause",
  "reason",
  "owner",
  "first_seen",
  "expires_on",
  "max_runs",
  "ticket",
  "counterexample"
];
function ordered(row) {
  const out = {};
  for (const key of ORDER) if (row[key] !== void 0) out[key] = row[key];
  for (const [key, value] of Object.entries(row))
    if (!(key in out) && value !== void 0) out[key] = value;
  return out;
}
function appendRow(existing, file, row) {
  const value = ordered(row);
  const blank = existing === null || existing.trim() === "";
  if (formatOf(file) === "json") {
    if (blank) return JSON.stringify({ version: 1, entries: [value] }, null, 2) + "\n";
    const data = JSON.parse(existing);
    if (!Array.isArray(data.entries)) throw new Error(`${file} has no "entries" list to add to`);
    data.entries.push(value);
    const indent = /^([ \t]+)"/m.exec(existing)?.[1] ?? 2;
    return JSON.stringify(data, null, indent) + (existing.endsWith("\n") ? "\n" : "");
  }
  if (blank) return (0, import_yaml.stringify)({ version: 1, entries: [value] });
  const doc = (0, import_yaml.parseDocument)(existing);
  const entries = doc.get("entries", true);
  if (!(0, import_yaml.isSeq)(entries)) throw new Error(`${file} has no "entries" list to add to`);
  entries.flow = false;
  entries.items.push(doc.createNode(value));
  return doc.toString();
}
function nextId(ids) {
  let max = 0;
  for (const id of ids) {
    const m = /^flake-(\d+)$/.exec(id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `flake-${max + 1}`;
}

// src/cli/ledger.ts
var LEDGER_USAGE = `Usage:
  oracle-gate ledger add --test ID --owner WHO --cause CAUSE --reason TEXT
                         [--id ID] [--first-seen DATE] [--expires DATE] [--max-runs N]
                         [--ticket REF] [common options]
  oracle-gate ledger check [common options]
  oracle-gate ledger list [--json] [common options]

Common options:
  --file PATH       the ledger (default: the "ledger:" of the policy)
  --repo DIR        repository root (default .)
  --policy PATH     policy file, for the ledger path and ledger_max_days
                    (default ${DEFAULT_POLICY_PATH})
  --today DATE      YYYY-MM-DD (default: the UTC date)
  --max-days N      longest first_seen \u2192 expires_on window (default: the policy's, else the policy default, 30)

add     appends a row: CAUSE is one of order, time, net, rng, shared, env; --first-seen
        defaults to today, --expires to today + 14 days, --max-runs to 3, --id to the
        next flake-N. Writes JSON or YAML (by extension) keeping the file's layout.
        Refuses (exit 2) a row or ledger that would not validate.
check   validates the ledger: exit 0 valid, 2 invalid or holding an expired row.
list    shows every row with its status (live, expiring, expired) and the debt.

Commit ledger changes in a PR of their own: the gate reads the ledger from the merge
base, and rejects a patch that edits it.
`;
var OPTIONS = {
  file: { type: "string" },
  repo: { type: "string" },
  policy: { type: "string" },
  today: { type: "string" },
  "max-days": { type: "string" },
  test: { type: "string" },
  owner: { type: "string" },
  cause: { type: "string" },
  reason: { type: "string" },
  id: { type: "string" },
  "first-seen": { type: "string" },
  expires: { type: "string" },
  "max-runs": { type: "string" },
  ticket: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" }
};
function parse(argv) {
  return parseArgs2({ args: argv, strict: true, allowPositionals: true, options: OPTIONS });
}
var Usage = class extends Error {
};
async function runLedgerCommand(argv, io) {
  try {
    const { values, positionals } = parse(argv);
    const [sub, ...extra] = positionals;
    if (values.help || sub === "help") {
      io.stdout.write(LEDGER_USAGE);
      return EXIT.ok;
    }
    if (extra.length > 0) throw new Usage(`unexpected argument "${extra[0]}"`);
    if (sub !== "add" && sub !== "check" && sub !== "list") {
      throw new Usage(
        sub === void 0 ? "missing subcommand (add, check or list)" : `unknown subcommand "${sub}"`
      );
    }
    const target = await resolveTarget(values, io);
    if (sub === "add") return await add(values, target, io);
    if (sub === "check") return await check2(target, io);
    return await list(values, target, io);
  } catch (error) {
    if (error instanceof Usage || error instanceof TypeError && "code" in error) {
      io.stderr.write(`oracle-gate ledger: ${logText(error.message)}

${LEDGER_USAGE}`);
      return EXIT.error;
    }
    io.stderr.write(
      `oracle-gate ledger: ${logText(error instanceof Error ? error.message : String(error))}
`
    );
    return EXIT.error;
  }
}
async function resolveTarget(v, io) {
  const repo = resolve2(io.cwd, v.repo ?? ".");
  const today = v.today ?? utcToday();
  if (!isCalendarDate(today))
    throw new Usage(`--today must be a calendar date YYYY-MM-DD, got "${today}"`);
  let maxDays;
  if (v["max-days"] !== void 0) {
    maxDays = Number(v["max-days"]);
    if (!Number.isInteger(maxDays) || maxDays < 1)
      throw new Usage(`--max-days must be an integer >= 1, got "${v["max-days"]}"`);
  }
  let file = v.file;
  if (file === void 0 || maxDays === void 0) {
    const policyPath = v.policy ?? DEFAULT_POLICY_PATH;
    const policyFile = resolve2(repo, policyPath);
    if (existsSync3(policyFile)) {
      const policy = parsePolicy(await readFile(policyFile, "utf8"), policyPath);
      file ??= policy.ledger;
      maxDays ??= policy.ledger_max_days;
    } else if (v.policy !== void 0) {
      throw new Usage(`policy ${policyPath} not found in ${repo}`);
    }
  }
  if (file === void 0)
    throw new Usage(`no ledger: pass --file PATH or set "ledger:" in the policy`);
  const abs = resolve2(repo, file);
  return {
    abs,
    file: relative(repo, abs).replace(/\\/g, "/") || file,
    today,
    // No policy to read: the policy schema's own default, never a second copy of it.
    maxDays: maxDays ?? policySchema.properties.ledger_max_days.default
  };
}
async function readLedger(target) {
  return existsSync3(target.abs) ? readFile(target.abs, "utf8") : null;
}
async function add(v, target, io) {
  const missing = ["test", "owner", "cause", "reason"].filter(
    (k) => v[k] === void 0 || v[k].trim() === ""
  );
  if (missing.length > 0) throw new Usage(`add needs ${missing.map((k) => `--${k}`).join(", ")}`);
  const existing = await readLedger(target);
  const before = existing === null ? void 0 : ledgerFromText(existing, target.file, target.today, target.maxDays);
  const invalid = before?.reasons.filter((r) => r.rule === "ledger-invalid") ?? [];
  if (invalid.length > 0) {
    io.stderr.write(
      `refused: ${target.file} is invalid; fix it first:
${invalid.map((r) => `  ${r.message}
`).join("")}`
    );
    return EXIT.refused;
  }
  const maxRuns = v["max-runs"] === void 0 ? 3 : Number(v["max-runs"]);
  const row = {
    id: v.id ?? nextId(before?.rows.map((r) => r.id) ?? []),
    test: v.test,
    cause: v.cause,
    reason: v.reason,
    owner: v.owner,
    first_seen: v["first-seen"] ?? target.today,
    expires_on: v.expires ?? addDays(target.today, 14),
    // A non-numeric --max-runs stays a string so the schema names it.
    max_runs: Number.isNaN(maxRuns) ? v["max-runs"] : maxRuns,
    ticket: v.ticket
  };
  const text = appendRow(existing, target.file, row);
  const index = before?.rows.length ?? 0;
  const problems = parseLedger(text, target.file, {
    today: target.today,
    maxDays: target.maxDays
  }).problems;
  if (problems.length > 0) {
    io.stderr.write(
      `refused: the row would not validate:
${problems.map((p) => `  ${describeForFlags(p, index)}
`).join("")}`
    );
    return EXIT.refused;
  }
  if (daysBetween(target.today, String(row.expires_on)) < 0) {
    io.stderr.write(
      `refused: --expires ${String(row.expires_on)} is before today (${target.today})
`
    );
    return EXIT.refused;
  }
  await mkdir2(dirname2(target.abs), { recursive: true });
  await writeFile2(target.abs, text);
  io.stdout.write(
    `added ${String(row.id)}: ${String(row.test)} (owner ${String(row.owner)}, expires ${String(row.expires_on)}) to ${target.file}
`
  );
  io.stderr.write("Commit it in a PR of its own: the gate reads the ledger from the merge base.\n");
  for (const debt of before?.freeze_debt ?? []) {
    io.stderr.write(
      `note: row "${debt.id}" (${debt.test}) expired ${debt.days_overdue} day(s) ago and still blocks the gate
`
    );
  }
  return EXIT.ok;
}
var FLAGS = {
  id: "--id",
  test: "--test",
  cause: "--cause",
  reason: "--reason",
  owner: "--owner",
  first_seen: "--first-seen",
  expires_on: "--expires",
  max_runs: "--max-runs",
  ticket: "--ticket"
};
function describeForFlags(p, newIndex) {
  if (p.index === newIndex && p.field !== void 0 && FLAGS[p.field])
    return `${FLAGS[p.field]}: ${p.message}`;
  return formatProblem(p);
}
async function check2(target, io) {
  const text = await readLedger(target);
  if (text === null) {
    io.stderr.write(`${target.file}: does not exist
`);
    return EXIT.refused;
  }
  const state = ledgerFromText(text, target.file, target.today, target.maxDays);
  for (const r of state.reasons)
    io.stderr.write(
      `${r.level === "failure" ? "error" : r.level}: ${r.rule}: ${logText(r.message)}
`
    );
  const failed = state.reasons.some((r) => r.level === "failure");
  io.stdout.write(
    `${target.file}: ${failed ? "INVALID" : "valid"}: ${state.rows.length} row(s), ${state.live.size} live, ${state.freeze_debt.length} expired (today ${target.today})
`
  );
  return failed ? EXIT.refused : EXIT.ok;
}
async function list(v, target, io) {
  const text = await readLedger(target);
  if (text === null) {
    io.stderr.write(`${target.file}: does not exist
`);
    return EXIT.refused;
  }
  const state = ledgerFromText(text, target.file, target.today, target.maxDays);
  const rows = state.rows.map((r) => ({ ...r, ...status(r.expires_on, target.today) }));
  const invalid = state.reasons.filter((r) => r.rule === "ledger-invalid");
  if (v.json) {
    io.stdout.write(
      JSON.stringify(
        {
          path: target.file,
          today: target.today,
          rows,
          freeze_debt: state.freeze_debt,
          problems: invalid.map((r) => r.message)
        },
        null,
        2
      ) + "\n"
    );
  } else {
    io.stdout.write(renderTable(rows, state, target));
  }
  for (const r of invalid) io.stderr.write(`error: ${logText(r.message)}
`);
  return invalid.length > 0 ? EXIT.refused : EXIT.ok;
}
function status(expires, today) {
  const left = daysBetween(today, expires);
  return {
    status: left < 0 ? "expired" : left <= EXPIRING_WITHIN_DAYS ? "expiring" : "live",
    days_left: left
  };
}
function renderTable(rows, state, target) {
  if (rows.length === 0) return `${target.file}: no rows
`;
  const header = ["ID", "TEST", "OWNER", "CAUSE", "EXPIRES", "STATUS"];
  const body = rows.map((r) => [
    r.id,
    r.test,
    r.owner,
    r.cause,
    r.expires_on,
    r.status === "expired" ? `EXPIRED ${-r.days_left}d ago` : r.status === "expiring" ? `expiring in ${r.days_left}d` : "live"
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd() + "\n";
  let out = line(header) + body.map(line).join("");
  const debt = state.freeze_debt;
  out += `
${rows.length} row(s), ${state.live.size} live; debt: ${debt.length === 0 ? "none" : debt.map((d) => `${d.id} (${d.owner}, ${d.days_overdue}d overdue)`).join(", ")}
`;
  return out;
}

// src/cli/summary.ts
function humanSummary(card) {
  const lines = [`oracle-gate: ${title(card)}`];
  for (const r of card.reasons) {
    const where = r.path ? ` ${r.path}${r.line ? `:${r.line}` : ""}` : "";
    lines.push(
      `  ${r.level === "failure" ? "x" : r.level === "warning" ? "!" : "-"} [${r.rule}]${logText(where)} ${logText(r.message)}`
    );
  }
  if (card.transitions.fail_to_pass.length > 0)
    lines.push(`  hits: ${logText(card.transitions.fail_to_pass.join(", "))}`);
  return lines.join("\n") + "\n";
}

// src/cli/main.ts
var USAGE = `oracle-gate ${VERSION}: may an agent's pull request merge?

Usage:
  oracle-gate check --base REF [--head REF] [--repo DIR] [--policy PATH]
                    [--today YYYY-MM-DD] [--json FILE] [--markdown FILE] [--quiet]
  oracle-gate init [--repo DIR] [--policy PATH] [--force]
  oracle-gate ledger add|check|list [options]   (oracle-gate ledger --help)
  oracle-gate --help | --version

check   judges HEAD (or --head) against the merge base with --base. The policy, ledger,
        fixtures, seeds and runner configuration are read from the merge base.
        Prints progress and a summary on stderr, the scorecard JSON on stdout
        (or into --json FILE).
init    writes a commented starter policy (default ${DEFAULT_POLICY_PATH}).

Exit codes: 0 merge, 1 product, 2 policy, 3 no-vote, 4 error.
`;
var defaultIo = () => ({
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env
});
async function main(argv, io = defaultIo()) {
  const [command, ...rest] = argv;
  switch (command) {
    case void 0:
    case "-h":
    case "--help":
    case "help":
      io.stdout.write(USAGE);
      return command === void 0 ? EXIT.error : EXIT.ok;
    case "-v":
    case "--version":
    case "version":
      io.stdout.write(`${VERSION}
`);
      return EXIT.ok;
    case "check":
      return runCheck(rest, io);
    case "init":
      return runInit(rest, io);
    case "ledger":
      return runLedgerCommand(rest, io);
    default:
      io.stderr.write(`oracle-gate: unknown command "${logText(command)}"

${USAGE}`);
      return EXIT.error;
  }
}
async function runCheck(argv, io) {
  let parsed;
  try {
    parsed = parseArgs3({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        base: { type: "string" },
        head: { type: "string" },
        repo: { type: "string" },
        policy: { type: "string" },
        today: { type: "string" },
        json: { type: "string" },
        markdown: { type: "string" },
        quiet: { type: "boolean", short: "q" },
        help: { type: "boolean", short: "h" }
      }
    });
  } catch (error) {
    return usageFailure(io, error instanceof Error ? error.message : String(error), {});
  }
  const v = parsed.values;
  if (v.help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  if (!v.base) return usageFailure(io, "--base REF is required", v);
  const repoDir = resolve3(io.cwd, v.repo ?? ".");
  const card = await check({
    repoDir,
    base: v.base,
    ...v.head !== void 0 ? { head: v.head } : {},
    policyPath: v.policy ?? DEFAULT_POLICY_PATH,
    ...v.today !== void 0 ? { today: v.today } : {},
    log: stderrLogger(io.stderr, !v.quiet),
    env: io.env
  });
  return emit(card, v, io);
}
async function emit(card, v, io) {
  const json = JSON.stringify(card, null, 2) + "\n";
  if (v.json) await writeFile3(resolve3(io.cwd, v.json), json);
  else io.stdout.write(json);
  if (v.markdown)
    await writeFile3(
      resolve3(io.cwd, v.markdown),
      renderMarkdown(card, { fullCardHint: v.json ?? "on stdout" })
    );
  io.stderr.write(humanSummary(card));
  return exitCode(card.verdict);
}
async function usageFailure(io, message, v) {
  io.stderr.write(`oracle-gate check: ${logText(message)}
(see oracle-gate check --help)
`);
  const card = finalize(
    emptyScorecard({
      version: VERSION,
      today: v.today ?? utcToday(),
      policyPath: v.policy ?? DEFAULT_POLICY_PATH
    }),
    [reasonFromError(new GateError(`usage: ${message}`, { rule: "config-invalid" }))]
  );
  return emit(card, v, io);
}
export {
  USAGE,
  main
};
