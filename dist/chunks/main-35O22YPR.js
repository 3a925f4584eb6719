import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  EXIT,
  folderProblem,
  parseFlags
} from "./chunk-OXMWOBVU.js";
import {
  EXPIRING_WITHIN_DAYS,
  Git,
  JS_GROUP_FUNCTIONS,
  JS_TEST_FUNCTIONS,
  PY_TEST_CLASS,
  PY_TEST_FUNCTION,
  addDays,
  check,
  checkShard,
  childEnv,
  cleanupWorktree,
  compileGlobs,
  compileRunnerMatcher,
  configFromAnswer,
  daysBetween,
  detectRunner,
  emptyScorecard,
  finalize,
  formatOf,
  formatProblem,
  globRegExp,
  isCalendarDate,
  isCredentialName,
  languageOf,
  layoutProduction,
  ledgerFromText,
  loadShards,
  mergeShards,
  observe,
  parseLedger,
  parserFor,
  policyDigest,
  prepareWorktree,
  primeCommit,
  primedBase,
  pytestConfigArgs,
  pytestRootdir,
  readPrimed,
  readPytestConfig,
  require_picomatch,
  rootdirInputs,
  runFacts,
  runShell,
  runSuite,
  runUrl,
  shellQuote,
  sideEnv,
  statementOf,
  worktreeFiles,
  worktreeIdContext
} from "./chunk-ZLS2JF4G.js";
import {
  exitCode
} from "./chunk-6UJ6F6YO.js";
import {
  VERSION
} from "./chunk-4TO6EUUJ.js";
import {
  DEFAULT_POLICY_PATH,
  GateError,
  isInstrumentPlane,
  parsePolicy,
  parseShard,
  policySchema,
  reasonFromError,
  renderMarkdown,
  require_dist,
  title,
  utcToday
} from "./chunk-HK3DH5BL.js";
import {
  logText,
  shortSha
} from "./chunk-Q2EL2VEE.js";
import {
  __toESM
} from "./chunk-BLJCPJ76.js";

// src/cli/main.ts
import { writeFile as writeFile5 } from "node:fs/promises";
import { resolve as resolve8 } from "node:path";

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

// src/cli/doctor.ts
import { writeFile } from "node:fs/promises";
import { resolve as resolve2 } from "node:path";

// src/doctor/markdown.ts
var code = (s) => `\`${s.replace(/[`\r\n]/g, " ").slice(0, 400)}\``;
function doctorMarkdown(r) {
  const lines = [
    `# oracle-gate doctor: ${code(r.ref)}`,
    "",
    r.fit ? "**Fit to vote.**" : "**Not fit to vote**: fix the blockers below.",
    "",
    "## Runs",
    "",
    "| run | seconds | exit | tests |",
    "| --- | ---: | ---: | ---: |",
    ...r.runs.map((x, i) => `| ${i + 1} | ${x.seconds} | ${x.exitCode ?? "killed"} | ${x.tests} |`),
    "",
    "## Voting tests by file",
    "",
    ...Object.entries(r.votingByFile).sort(([a], [b]) => a.localeCompare(b)).map(([f, n]) => `- ${code(f)}: ${n}`),
    ""
  ];
  if (r.findings.length > 0) lines.push("## Findings", "");
  for (const f of r.findings) {
    lines.push(`- **${f.level}** ${f.code}: ${f.message}`);
    for (const item of f.items ?? []) lines.push(`  - ${code(item)}`);
  }
  if (r.proposedRows.length > 0) {
    lines.push("", "## Proposed ledger rows", "", "```sh");
    for (const row of r.proposedRows)
      lines.push(
        `oracle-gate ledger add --test ${shell(row.test)} --cause ${row.cause} --owner ${shell(row.owner)} --reason ${shell(row.reason)} --expires ${row.expires_on}`
      );
    lines.push("```");
  }
  return `${lines.join("\n")}
`;
}
function shell(s) {
  return `'${s.replace(/[\r\n]/g, " ").replace(/'/g, `'\\''`)}'`;
}

// src/doctor/run.ts
import { mkdtemp as mkdtemp2, open, readFile, realpath, rm as rm2 } from "node:fs/promises";
import { tmpdir as tmpdir2 } from "node:os";
import { basename, join as join3 } from "node:path";

// src/policy/fixture-strength.ts
var DATA_FILE = /\.(json|ya?ml|csv|tsv|txt|xml|html?|golden|snap|expected|out|bin|dat)$/i;
var DATA_FOLDER = /(^|\/)(fixtures?|golden|goldens|snapshots|__snapshots__|testdata|expected)\//i;
function fixtureFiles(files, testFiles) {
  const tests = new Set(testFiles);
  const folders = new Set(testFiles.map(folderOf));
  const roots = new Set(testFiles.map((f) => f.split("/")[0]));
  return files.filter((f) => {
    if (tests.has(f) || !DATA_FILE.test(f)) return false;
    if (folders.has(folderOf(f))) return true;
    return DATA_FOLDER.test(f) && roots.has(f.split("/")[0]);
  });
}
function folderOf(path) {
  const at = path.lastIndexOf("/");
  return at < 0 ? "" : path.slice(0, at);
}
function seedsWithDistance(seeds) {
  return seeds !== void 0 && seeds.min_hits > 0 && seeds.min_distance > 0;
}
function fixtureStrengthNote(fixtures, generators, seeds) {
  if (fixtures.length === 0 || generators !== null || seedsWithDistance(seeds)) return null;
  const sample = fixtures.slice(0, 3).join(", ") + (fixtures.length > 3 ? ", \u2026" : "");
  return `the tests compare with ${fixtures.length} fixture file(s) (${sample}) but no voting test generates inputs (hypothesis, fast-check) and no seeds corpus asks for hits apart (seeds.min_hits, seeds.min_distance): a patch can answer each locked case from a table keyed on its input, which no oracle-reach rule can call reach. Add property tests over generated inputs or seeds with distance (docs/lints.md "What oracle-reach cannot see")`;
}

// src/policy/inspect.ts
import { accessSync, constants, readdirSync, readFileSync } from "node:fs";
import { delimiter, join as join2, posix as posix2 } from "node:path";
var import_picomatch2 = __toESM(require_picomatch(), 1);

// src/policy/ask-runner.ts
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
var TIMEOUT_SEC = 120;
async function askRunner(repoDir, project, env) {
  if (project.kind !== "node" || project.runner === "node-test") return null;
  const bin = join(repoDir, "node_modules", ".bin", project.runner);
  if (!existsSync(bin)) return null;
  const temp = await mkdtemp(join(tmpdir(), "oracle-gate-init-"));
  try {
    const ask = (args) => listed(repoDir, `node_modules/.bin/${project.runner} ${args}`, env, join(temp, "ask.log"));
    if (project.runner === "jest") {
      const collected2 = await ask("--listTests --json");
      return collected2 && { by: "jest --listTests", collected: collected2, withTests: null };
    }
    const collected = await ask("list --json --filesOnly");
    const withTests = collected && await ask("list --json");
    return collected && withTests && { by: "vitest list", collected, withTests };
  } finally {
    await rm(temp, { recursive: true, force: true }).catch(() => void 0);
  }
}
async function listed(repoDir, command, env, logFile) {
  try {
    const result = await runShell({
      command,
      cwd: repoDir,
      env: childEnv(env, { CI: "true" }),
      timeoutSec: TIMEOUT_SEC,
      logFile,
      captureStdout: true
    });
    if (result.exitCode !== 0) return null;
    return filesOf(result.stdout, repoDir);
  } catch {
    return null;
  }
}
function filesOf(stdout, repoDir) {
  const start = stdout.indexOf("[");
  if (start < 0) return null;
  let parsed;
  try {
    parsed = JSON.parse(stdout.slice(start));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  const files = /* @__PURE__ */ new Set();
  for (const entry of parsed) {
    const abs = typeof entry === "string" ? entry : typeof entry?.file === "string" ? entry.file : null;
    if (abs === null) continue;
    const rel = relative(repoDir, abs).split("\\").join("/");
    if (rel !== "" && !rel.startsWith("..")) files.add(rel);
  }
  return [...files].sort();
}
var PYTEST_MARK = "@@oracle-gate-pytest@@";
var PYTEST_ASK = `
import json, sys
import pytest
class Ask:
    @pytest.hookimpl(tryfirst=True)
    def pytest_cmdline_main(self, config):
        def ini(name):
            try:
                value = config.getini(name)
            except Exception:
                return []
            return [str(v) for v in value] if isinstance(value, (list, tuple)) else value
        testpaths = ini("testpaths")
        used = config.invocation_params.dir == config.rootpath
        print("${PYTEST_MARK}" + json.dumps({
            "rootdir": str(config.rootpath),
            "inifile": str(config.inipath) if config.inipath else None,
            "testpaths": testpaths if used else [],
            "python_files": ini("python_files"),
            "python_classes": ini("python_classes"),
            "python_functions": ini("python_functions"),
            "pythonpath": bool(ini("pythonpath")),
            "ignore": [str(p) for p in (config.getoption("ignore") or [])]
                + [str(p) for p in (config.getoption("ignore_glob") or [])],
        }), flush=True)
        return 0
sys.exit(pytest.main(sys.argv[1:], plugins=[Ask()]))
`;
function repositoryPython(repoDir, fallback) {
  for (const venv of [".venv", "venv"]) {
    const bin = join(repoDir, venv, "bin", "python");
    if (existsSync(bin)) return bin;
  }
  return fallback;
}
async function askPytest(repoDir, python, args, env) {
  const temp = await mkdtemp(join(tmpdir(), "oracle-gate-init-"));
  try {
    const quoted = [python, "-I", "-c", PYTEST_ASK, ...args].map(shellQuoted).join(" ");
    const result = await runShell({
      command: quoted,
      cwd: repoDir,
      env: childEnv(env, { CI: "true" }),
      timeoutSec: TIMEOUT_SEC,
      logFile: join(temp, "ask.log"),
      captureStdout: true
    });
    const line = result.stdout.split("\n").find((l) => l.startsWith(PYTEST_MARK));
    if (line === void 0) {
      const why = result.timedOut ? "timed out" : `exit ${result.exitCode ?? result.signal}`;
      return `${python} could not run pytest (${why})`;
    }
    return pytestAnswer(line.slice(PYTEST_MARK.length), repoDir, python);
  } catch (error) {
    return `pytest could not be asked: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await rm(temp, { recursive: true, force: true }).catch(() => void 0);
  }
}
function shellQuoted(value) {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
function pytestAnswer(json, repoDir, python) {
  let raw;
  try {
    raw = JSON.parse(json);
  } catch {
    return "pytest answered something that is not JSON";
  }
  const strings = (v) => Array.isArray(v) ? v.filter((s) => typeof s === "string") : [];
  const rel = (p) => relative(repoDir, p).split("\\").join("/") || ".";
  if (typeof raw.rootdir !== "string") return "pytest named no rootdir";
  const rootdir = rel(raw.rootdir);
  const fromRoot = (p) => rel(join(raw.rootdir, p));
  return {
    python,
    rootdir,
    inifile: typeof raw.inifile === "string" ? rel(raw.inifile) : null,
    testpaths: strings(raw.testpaths).map(fromRoot),
    pythonFiles: strings(raw.python_files),
    pythonClasses: strings(raw.python_classes),
    pythonFunctions: strings(raw.python_functions),
    pythonpath: raw.pythonpath === true,
    ignore: strings(raw.ignore).map((p) => rel(resolve(repoDir, p)))
  };
}

// src/policy/ci.ts
var import_yaml = __toESM(require_dist(), 1);
var TEST_COMMAND = /\b(npm (run )?test|npm t\b|pnpm (run )?test|yarn (run )?test|bun (run )?test|pytest|vitest|jest|node --test|tox|nox|make test|python[\d.]* -m (pytest|unittest))/;
var IGNORED = /^(CI|GITHUB_\w*|RUNNER_\w*|ACTIONS_\w*|FORCE_COLOR|TERM)$|KEY|TOKEN|SECRET|PASSW|AUTH|CREDENTIAL|COOKIE|SESSION/i;
function ciProposal(workflows) {
  for (const wf of [...workflows].sort((a, b) => a.path.localeCompare(b.path))) {
    let doc;
    try {
      doc = (0, import_yaml.parse)(wf.text);
    } catch {
      continue;
    }
    const found = testStep(wf.path, asMap(doc));
    if (found !== null) return found;
  }
  return null;
}
function testStep(path, doc) {
  if (doc === null) return null;
  const jobs = asMap(doc.jobs) ?? {};
  for (const [jobName, jobValue] of Object.entries(jobs)) {
    const job = asMap(jobValue);
    if (job === null || !Array.isArray(job.steps)) continue;
    for (const stepValue of job.steps) {
      const step = asMap(stepValue);
      const run = typeof step?.run === "string" ? step.run : null;
      if (run === null) continue;
      const line = run.split("\n").find((l) => TEST_COMMAND.test(l));
      if (line === void 0) continue;
      const { inline, command } = leadingAssignments(line.trim());
      const env = {
        ...literalEnv(doc.env),
        ...literalEnv(job.env),
        ...literalEnv(step?.env),
        ...inline
      };
      const name = typeof step?.name === "string" ? step.name : jobName;
      return { source: `${path} (job ${jobName}, step ${name})`, env, command };
    }
  }
  return null;
}
function asMap(v) {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? v : null;
}
function literalEnv(v) {
  const out = {};
  for (const [name, value] of Object.entries(asMap(v) ?? {})) {
    if (!/^[A-Za-z_]\w*$/.test(name) || IGNORED.test(name) || isCredentialName(name)) continue;
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean")
      continue;
    const text = String(value);
    if (text.includes("${{") || /[\r\n]/.test(text)) continue;
    out[name] = text;
  }
  return out;
}
function leadingAssignments(line) {
  const inline = {};
  let rest = line;
  for (; ; ) {
    const m = /^([A-Za-z_]\w*)=("[^"]*"|'[^']*'|[^\s"'$`]*)\s+/.exec(rest);
    if (m?.[1] === void 0) break;
    const value = (m[2] ?? "").replace(/^(["'])(.*)\1$/, "$2");
    if (!IGNORED.test(m[1]) && !isCredentialName(m[1]) && !value.includes("$")) inline[m[1]] = value;
    rest = rest.slice(m[0].length);
  }
  return { inline, command: rest };
}

// src/policy/js-config.ts
var import_picomatch = __toESM(require_picomatch(), 1);
var VITEST_CONFIGS = ["vitest.config", "vite.config"].flatMap(
  (b) => ["ts", "mts", "cts", "js", "mjs", "cjs"].map((e) => `${b}.${e}`)
);
var JEST_CONFIGS = [
  "jest.config.json",
  "jest.config.js",
  "jest.config.ts",
  "jest.config.mjs",
  "jest.config.cjs"
];
var VITEST_INCLUDE = ["**/*.{test,spec}.?(c|m)[jt]s?(x)"];
var VITEST_EXCLUDE = ["**/node_modules/**", "**/dist/**", "**/.{idea,git,cache,output,temp}/**"];
var JEST_MATCH = ["**/__tests__/**/*.[jt]s?(x)", "**/?(*.)+(spec|test).[jt]s?(x)"];
function vitestCollection(read) {
  for (const file of VITEST_CONFIGS) {
    const text = read(file);
    if (text === null) continue;
    const at = text.search(/\btest\s*:\s*\{/);
    const body = at < 0 ? "" : text.slice(at);
    const include = arrayOf(body, "include");
    const exclude = arrayOf(body, "exclude");
    return globCollection(file, include ?? VITEST_INCLUDE, [...VITEST_EXCLUDE, ...exclude ?? []]);
  }
  return globCollection(null, VITEST_INCLUDE, VITEST_EXCLUDE);
}
function jestCollection(read) {
  const fromPackage = packageJest(read("package.json"));
  const found = fromPackage ?? JEST_CONFIGS.map((f) => ({ file: f, text: read(f) })).find((c) => c.text !== null) ?? null;
  const text = found?.text ?? "";
  const list2 = (key) => arrayOf(text, key);
  const strip = (s) => s.replace(/^<rootDir>\/?/, "");
  const roots = list2("roots")?.map(strip).filter((r) => r !== "" && r !== ".") ?? [];
  const match = list2("testMatch")?.map(strip) ?? null;
  const regex = list2("testRegex") ?? stringOf(text, "testRegex");
  const ignore = (list2("testPathIgnorePatterns") ?? ["/node_modules/"]).map(
    (p) => safeRegExp(p.replace(/<rootDir>\/?/g, ""))
  );
  const matchers = (match ?? (regex === null ? JEST_MATCH : [])).map(
    (g) => (0, import_picomatch.default)(g, { dot: true })
  );
  const regexes = (regex ?? []).map(safeRegExp);
  return {
    source: found?.file ?? null,
    collects: (path) => {
      if (path.split("/").includes("node_modules")) return false;
      if (roots.length > 0 && !roots.some((r) => path === r || path.startsWith(`${r}/`))) return false;
      if (ignore.some((r) => r.test(`/${path}`))) return false;
      return matchers.some((m) => m(path)) || regexes.some((r) => r.test(`/${path}`));
    }
  };
}
function globCollection(source, include, exclude) {
  const yes = (0, import_picomatch.default)(include, { dot: true });
  const no = (0, import_picomatch.default)(exclude, { dot: true });
  return { source, collects: (path) => yes(path) && !no(path) };
}
function packageJest(text) {
  if (text === null) return null;
  try {
    const jest = JSON.parse(text).jest;
    return jest === void 0 ? null : { file: "package.json", text: JSON.stringify(jest) };
  } catch {
    return null;
  }
}
function arrayOf(text, key) {
  const m = new RegExp(`["']?\\b${key}["']?\\s*:\\s*\\[([^\\]]*)\\]`).exec(text);
  if (m === null) return null;
  return [...(m[1] ?? "").matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`([^`$]*)`/g)].map(
    (x) => (x[1] ?? x[2] ?? x[3] ?? "").replace(/\\\\/g, "\\")
  );
}
function stringOf(text, key) {
  const m = new RegExp(
    `["']?\\b${key}["']?\\s*:\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|'((?:[^'\\\\]|\\\\.)*)')`
  ).exec(text);
  return m === null ? null : [(m[1] ?? m[2] ?? "").replace(/\\\\/g, "\\")];
}
function safeRegExp(source) {
  try {
    return new RegExp(source);
  } catch {
    return /(?!)/;
  }
}
function definesNoTest(text) {
  return !/\b(it|test|describe|suite|bench|specify|context)(\.\w+)*\s*(\(|`)/.test(text);
}

// src/policy/starter.ts
import { posix } from "node:path";
var NODE_LOCKFILES = [
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
  ["bun.lock", "bun"],
  ["bun.lockb", "bun"],
  ["package-lock.json", "npm"],
  ["npm-shrinkwrap.json", "npm"]
];
function describeProject(p) {
  const from = p.lockfile === null ? "no lockfile" : p.lockfile;
  return p.kind === "node" ? `JavaScript/TypeScript, ${p.manager} (${from}), ${p.runner === "node-test" ? "node:test" : p.runner}` : `Python, ${p.manager === "none" ? "pytest from the environment" : `${p.manager} (${from})`}`;
}
function detectProject(rootNames, packageJson2) {
  const has = (n) => rootNames.includes(n);
  const nodeLock = NODE_LOCKFILES.find(([file]) => has(file));
  if (nodeLock !== void 0 || packageJson2 !== void 0) {
    let manager = nodeLock?.[1] ?? "npm";
    if (manager === "yarn" && has(".yarnrc.yml")) manager = "yarn-berry";
    const project = {
      kind: "node",
      manager,
      lockfile: nodeLock?.[0] ?? null,
      runner: nodeRunner(packageJson2)
    };
    if (nodeLock === void 0 && !hasDependencies(packageJson2)) project.noDependencies = true;
    return project;
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
function nodeRunner(packageJson2) {
  let deps = {};
  try {
    const parsed = JSON.parse(packageJson2 ?? "{}");
    deps = { ...parsed.dependencies, ...parsed.devDependencies };
  } catch {
  }
  if ("vitest" in deps) return "vitest";
  if ("jest" in deps) return "jest";
  return "node-test";
}
function hasDependencies(packageJson2) {
  try {
    const parsed = JSON.parse(packageJson2 ?? "{}");
    return ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"].some(
      (k) => typeof parsed[k] === "object" && Object.keys(parsed[k] ?? {}).length > 0
    );
  } catch {
    return true;
  }
}
function nodeSetupLines(p, comment) {
  if (p.noDependencies)
    return "\n  # No dependencies in package.json and no lockfile: nothing to install, so no setup.";
  return `
  # Installs dependencies in each fresh worktree (${p.manager}, ${comment}).
  # A failing setup on the base is a gate error; on the head it is a red vote.
  setup: ${nodeSetup(p.manager, p.lockfile, p.launcher)}
  setup_timeout: 900
  # Link the checkout's node_modules instead of installing, but only into a worktree whose
  # lockfile is byte-identical to the checkout's (otherwise setup runs for that side).
  # Install in the checkout before the gate runs (e.g. the same command in an earlier step).
  reuse: [node_modules]`;
}
function nodeSetup(manager, lockfile, launcher) {
  switch (manager) {
    case "pnpm":
      return `${launcher ?? "pnpm"} install --frozen-lockfile --prefer-offline`;
    case "yarn":
      return "yarn install --frozen-lockfile --prefer-offline --non-interactive";
    case "yarn-berry":
      return "yarn install --immutable";
    case "bun":
      return "bun install --frozen-lockfile";
    case "npm":
      return lockfile === null ? "npm install --no-package-lock --prefer-offline --no-audit --no-fund" : "npm ci --prefer-offline --no-audit --no-fund";
  }
}
function nodeExec(manager, launcher) {
  if (launcher !== void 0) return "npx --no";
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
  const exec = nodeExec(p.manager, p.launcher);
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
  reruns: 2           # reruns of a failing voting test, to tell flaky from failing${nodeSetupLines(p, lock)}`;
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
function renderStarter(p, propertyLibrary2 = null) {
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
${runnerLine(p)}

ledger: oracle/flake_ledger.yml          # dated, owned flake rows
# fixtures: oracle/fixtures/manifest.json  # {name: {file, sha256}}
${campaignBlock(propertyLibrary2)}`;
}
function campaignBlock(propertyLibrary2) {
  return propertyLibrary2 === null ? "" : `# ${propertyLibrary2} is in use: property tests run with this seed and budget.
campaign: {seed: 20260913, max_examples: 128, wall_clock: 90}
`;
}
var EMPTY_LEDGER = "version: 1\nentries: []\n";
var STARTER_LEDGER_PATH = "oracle/flake_ledger.yml";
function renderInspected(ins) {
  if (ins.testFiles.length === 0) return renderStarter(ins.project, ins.propertyLibrary);
  const protectedPaths = ["oracle/**", ".github/workflows/**", ...ins.protectedFiles];
  return `# oracle-gate policy: who may write what, and which tests vote.
# The gate reads this file from the merge base; a PR cannot change how it is judged.
# Written by oracle-gate init from ${ins.testFiles.length} tracked test file(s); review it, then
# run \`oracle-gate doctor\` before committing it in a PR of its own.
version: 1

# A patch may add test files matching the voting globs and add tests (and imports) to
# existing voting files; editing or deleting an existing test is protected-path.
voting_edits: append

# Paths a patch may not add, modify, delete or rename (the instrument: the ledger and
# fixtures live under oracle/, runner configuration at the root).
protected:
${protectedPaths.map((p) => `  - ${yamlString(p)}`).join("\n")}

planes:
  # The existing suite votes (the merge base's version of each file).
  voting: [${ins.voting.map(yamlString).join(", ")}]
  # New test files elsewhere: run as diagnostics, never vote. A file matching a voting glob
  # is on the voting plane even inside ${ins.inDiff}/ (voting wins over in_diff).
  in_diff: [${ins.inDiff}/**]
${productionLines(ins.production)}
suite:
${ins.project.kind === "node" ? fittedNode(ins, ins.project) : fittedPython(ins, ins.project)}
${runnerLine(ins.project)}
  timeout: 600        # seconds per side; a timed-out side is a red vote
  # Reruns of a failing voting test, to tell flaky from failing. They select the failing
  # tests only (suite.runner above; set suite.rerun_command with {tests} to override).
  reruns: 2

ledger: ${STARTER_LEDGER_PATH}          # dated, owned flake rows (init created it empty)
# Rows of tests broken by the environment (cause env) may live longer than flakes, e.g.
# ledger_max_days: {default: 30, env: 180}
# fixtures: oracle/fixtures/manifest.json  # {name: {file, sha256}}
${campaignBlock(ins.propertyLibrary)}`;
}
function productionLines(globs) {
  if (globs.length === 0)
    return "  # production: [src/**]   # name the production code: the vote then takes every other path from the merge base\n";
  return `  # The production code: for the vote, every other path of the head is the merge base's.
  production: [${globs.map(yamlString).join(", ")}]
`;
}
function runnerLine(p) {
  const kind = p.kind === "node" ? p.runner : "pytest";
  return `  # Decides how a rerun selects the failing tests only ({tests}) and the canary.
  runner: ${kind}`;
}
function yamlString(s) {
  return /^[\w./-][\w./*-]*$/.test(s) && !s.startsWith("*") ? s : JSON.stringify(s);
}
function fallbackComment(ins) {
  if (ins.fallback === null) return "";
  if (ins.project.kind === "node" && ins.project.launcher !== void 0)
    return `  # ${ins.fallback.wanted} is not installed here: setup runs the version the project names
  # from the registry (${ins.project.launcher}), so the lockfile decides what is installed.
`;
  return `  # The lockfile names ${ins.fallback.wanted}, which is not installed here: using ${ins.fallback.used}.
  # Install ${ins.fallback.wanted} where the gate runs and rerun init for its locked setup.
`;
}
function sourceComment(ins) {
  const lines = [];
  if (ins.ci !== null)
    lines.push(`# The project's CI runs: ${oneLine(ins.ci.command)} (${oneLine(ins.ci.source)})`);
  if (ins.testScript !== null)
    lines.push(`# package.json's test script: ${oneLine(ins.testScript)}`);
  return lines.map((l) => `  ${l}
`).join("");
}
function oneLine(s) {
  return s.replace(/[\r\n\u2028\u2029]+/g, " ").slice(0, 200);
}
function dataExclusions(ins, runner) {
  if (ins.dataFiles.length === 0) return "";
  if (runner === "vitest") return ins.dataFiles.map((f) => ` --exclude ${shellWord(f)}`).join("");
  if (runner === "jest") {
    const patterns = ["/node_modules/", ...ins.dataFiles.map((f) => `/${escapeRegExp(f)}$`)];
    return ` --testPathIgnorePatterns ${patterns.map(shellWord).join(" ")}`;
  }
  return "";
}
function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
function shellWord(s) {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
function nodeTestArgs(files) {
  const out = /* @__PURE__ */ new Set();
  for (const f of files) {
    const dir = posix.dirname(f);
    const kind = /\.(test|spec)\.[cm]?js$/.exec(f)?.[1];
    out.add(kind ? dir === "." ? `*.${kind}.*js` : `${dir}/*.${kind}.*js` : f);
  }
  return [...out].sort();
}
function jestJunitComment(ins, p) {
  if (ins.jestJunit)
    return `  # jest-junit (a dependency of the package) writes the report; the file attribute and
  # templates map each case to its file (the gate sets the same variables on its own runs).
`;
  const add2 = p.manager === "npm" ? "npm install --save-dev jest-junit@16" : p.manager === "pnpm" ? `${p.launcher ?? "pnpm"} add -D jest-junit@16` : p.manager === "bun" ? "bun add -d jest-junit@16" : "yarn add -D jest-junit@16";
  return `  # jest-junit is NOT a dependency of this package, and the gate reads its report: run
  #   ${add2}
  # and commit package.json and the lockfile with this policy (without it every run is
  # "no report"). The file attribute and templates map each case to its file.
`;
}
function fittedNode(ins, p) {
  const exec = nodeExec(p.manager, p.launcher);
  const paths = ins.commandPaths.filter((x) => x !== ".").join(" ");
  const skip = dataExclusions(ins, p.runner);
  const command = p.runner === "jest" ? `${jestJunitComment(ins, p)}  command: JEST_JUNIT_OUTPUT_FILE={junit} JEST_JUNIT_ADD_FILE_ATTRIBUTE=true JEST_JUNIT_CLASSNAME='{classname}' JEST_JUNIT_TITLE='{title}' JEST_JUNIT_ANCESTOR_SEPARATOR=' > ' ${exec} jest ${paths}${skip} --ci --reporters=default --reporters=jest-junit` : p.runner === "vitest" ? `  # The voting tests only; vitest writes JUnit XML next to its usual output.
  command: ${exec} vitest run ${paths}${skip} --reporter=default --reporter=junit --outputFile.junit={junit}` : `  # node:test's built-in junit reporter, plus the usual output on stdout. Files named
  # *.test.js are given as a folder glob, so the gate's canary beside them runs too.
  command: node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination={junit} ${nodeTestArgs(ins.testFiles).map(yamlString).join(" ")}`;
  const lock = p.lockfile === null ? "no lockfile: commit one so reuse can be proved safe" : `from ${p.lockfile}`;
  return `${fallbackComment(ins)}${sourceComment(ins)}${command.replace(/ {2,}--/g, " --")}${nodeSetupLines(p, lock)}${envBlock(ins)}`;
}
function fittedPython(ins, p) {
  const paths = ins.commandPaths.join(" ");
  const pytest = `-m pytest ${paths} -p no:cacheprovider --junitxml={junit}`;
  const interpreter = p.manager === "uv" ? "uv run --frozen --no-sync python" : p.manager === "poetry" || p.manager === "pip" ? ".venv/bin/python" : ins.python;
  const setup = p.manager === "uv" ? "  setup: uv sync --frozen --no-install-project\n  setup_timeout: 900\n  reuse: [.venv]\n" : p.manager === "poetry" ? "  setup: POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-interaction --no-root\n  setup_timeout: 900\n  reuse: [.venv]\n" : p.manager === "pip" ? `  setup: ${ins.python} -m venv .venv && .venv/bin/python -m pip install --disable-pip-version-check -q -r ${p.lockfile}
  setup_timeout: 900
  reuse: [.venv]
` : `  # pytest comes from the environment the gate runs in (${ins.python} on PATH).
`;
  const selected = ins.pytest?.file != null && ins.pytest.testpaths.length > 0 ? `  # The folders ${ins.pytest.file}'s testpaths names (pytest's own configuration).
` : "";
  return `${fallbackComment(ins)}${sourceComment(ins)}${setup}${selected}  command: ${interpreter} ${pytest}${envBlock(ins)}`;
}
function envBlock(ins) {
  const entries = [];
  const ci = Object.entries(ins.ci?.env ?? {}).filter(
    ([k]) => /^[A-Za-z_]\w*$/.test(k) && k !== "PYTHONPATH"
  );
  if (ins.ci !== null && ci.length > 0)
    entries.push(
      `# Set by the project's CI for its tests (${oneLine(ins.ci.source)}).`,
      ...ci.map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    );
  if (!ins.pytestPythonpath && ins.pythonPath !== null)
    entries.push(
      ins.pythonPath === "src" ? "# src/ layout: without this the tests import the installed release, not the commit." : "# children run with PYTHONSAFEPATH=1, so the root is not on sys.path by itself.",
      `PYTHONPATH: ${ins.pythonPath}`
    );
  const note = ins.pytestPythonpath ? "\n  # pytest's own configuration sets pythonpath, so the tests import the commit under test." : "";
  return entries.length === 0 ? note : `${note}
  env:
${entries.map((e) => `    ${e}`).join("\n")}`;
}

// src/policy/inspect.ts
var DEDICATED_DIRS = /* @__PURE__ */ new Set(["tests", "test", "__tests__", "spec", "testing"]);
var PYTEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test)\.py$/;
var JS_TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;
var JS_FILE = /\.[cm]?[jt]sx?$/;
var RUNNER_CONFIGS = /^(conftest\.py|pytest\.ini|tox\.ini|setup\.cfg|(vitest|jest|vite)\.config\.[cm]?[jt]s|jest\.config\.json)$/;
function isTestFile(path, kind) {
  if (path.split("/").includes("node_modules")) return false;
  if (kind === "pytest") return PYTEST_FILE.test(path);
  return JS_TEST_FILE.test(path) || path.includes("__tests__/") && JS_FILE.test(path);
}
function votingGlobs(files) {
  const voting = /* @__PURE__ */ new Set();
  const paths = /* @__PURE__ */ new Set();
  for (const file of files) {
    const parts = file.split("/");
    const dedicated = parts.slice(0, -1).findIndex((p) => DEDICATED_DIRS.has(p));
    if (dedicated >= 0) {
      const dir = parts.slice(0, dedicated + 1).join("/");
      voting.add(`${dir}/**`);
      paths.add(dir);
      continue;
    }
    const base = parts[parts.length - 1] ?? file;
    const pattern = /^test_.*\.py$/.test(base) ? "test_*.py" : /_test\.py$/.test(base) ? "*_test.py" : base.replace(/^.*?\.(test|spec)\./, "*.$1.");
    const top = parts.length > 1 ? parts[0] ?? "." : ".";
    voting.add(top === "." ? pattern : `${top}/**/${pattern}`);
    paths.add(top);
  }
  return { voting: [...voting].sort(), paths: [...paths].sort() };
}
function onPath(name, path) {
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    try {
      accessSync(join2(dir, name), constants.X_OK);
      return true;
    } catch {
    }
  }
  return false;
}
function inspect(input) {
  const rootNames = [
    .../* @__PURE__ */ new Set([...input.files.filter((f) => !f.includes("/")), ...input.rootNames ?? []])
  ];
  const pkg = input.read("package.json") ?? void 0;
  let project = detectProject(rootNames, pkg);
  const fallback = toolFallback(project, input.has, input.read);
  if (fallback !== null) project = fallback.project;
  const asked = typeof input.pytest === "object" ? input.pytest : null;
  const pytest = project.kind !== "python" ? null : asked !== null ? configFromAnswer(asked) : readPytestConfig(input.read);
  const pytestSource = project.kind !== "python" ? null : asked !== null ? { by: "pytest", python: asked.python, rootdir: asked.rootdir } : { by: "files", why: typeof input.pytest === "string" ? input.pytest : "not asked" };
  const selected = selectTests(project, pytest, input);
  const withTests = input.answer?.withTests ?? null;
  const dataFiles = withTests !== null ? selected.files.filter((f) => !withTests.includes(f)) : project.kind === "node" ? selected.files.filter((f) => {
    const text = input.read(f);
    return text !== null && definesNoTest(text);
  }) : [];
  const testFiles = selected.files.filter((f) => !dataFiles.includes(f));
  const globs = votingGlobs(testFiles);
  const voting = globs.voting;
  const paths = pytest !== null && pytest.testpaths.length > 0 ? [...pytest.testpaths].sort() : globs.paths;
  const python = input.has("python3") || !input.has("python") ? "python3" : "python";
  const pkgJson = packageJson(pkg);
  return {
    project,
    testFiles,
    voting,
    commandPaths: paths,
    inDiff: "agent-tests",
    python,
    pythonPath: project.kind === "python" ? pythonPathFor(input.files) : null,
    pytestPythonpath: pytest?.pythonpath ?? false,
    fallback: fallback?.note ?? null,
    propertyLibrary: propertyLibrary(project, input),
    protectedFiles: [...rootNames.filter((n) => RUNNER_CONFIGS.test(n)), ...dataFiles].sort(),
    production: layoutProduction(
      input.files,
      (f) => isTestFile(f, project.kind === "python" ? "pytest" : "js") || isTestFile(f, "js")
    ),
    pytest,
    pytestSource,
    jsConfig: selected.source,
    dataFiles,
    fixtures: fixtureFiles(input.files, testFiles),
    jestJunit: "jest-junit" in pkgJson.deps,
    testScript: pkgJson.testScript,
    ci: ciProposal(
      input.files.filter((f) => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(f)).map((path) => ({ path, text: input.read(path) ?? "" }))
    )
  };
}
function selectTests(project, pytest, input) {
  if (project.kind === "python") {
    const config = pytest ?? readPytestConfig(input.read);
    const names = config.pythonFiles.map(globRegExp);
    const under = config.testpaths.map(
      (t) => /[*?[]/.test(t) ? (0, import_picomatch2.default)(`${t.replace(/\/$/, "")}{,/**}`) : (f) => f === t || f.startsWith(`${t.replace(/\/$/, "")}/`)
    );
    const ignored = (config.ignore ?? []).map(
      (i) => /[*?[]/.test(i) ? (0, import_picomatch2.default)(i) : (f) => f === i || f.startsWith(`${i.replace(/\/$/, "")}/`)
    );
    const files2 = input.files.filter(
      (f) => f.endsWith(".py") && !f.split("/").includes("node_modules") && names.some((n) => n.test(posix2.basename(f))) && (under.length === 0 || under.some((u) => u(f))) && !ignored.some((i) => i(f))
    );
    return { files: files2.sort(), source: config.file };
  }
  if (input.answer) {
    const collected = new Set(input.answer.collected);
    return { files: input.files.filter((f) => collected.has(f)).sort(), source: input.answer.by };
  }
  const collection = project.runner === "vitest" ? vitestCollection(input.read) : project.runner === "jest" ? jestCollection(input.read) : null;
  const files = input.files.filter(
    (f) => isTestFile(f, "js") && (collection === null || collection.collects(f))
  );
  return { files: files.sort(), source: collection?.source ?? null };
}
function packageJson(text) {
  try {
    const parsed = JSON.parse(text ?? "{}");
    const test = parsed.scripts?.test;
    return {
      deps: { ...parsed.dependencies, ...parsed.devDependencies },
      testScript: typeof test === "string" ? test : null
    };
  } catch {
    return { deps: {}, testScript: null };
  }
}
function pythonPathFor(files) {
  if (files.some((f) => /^src\/[^/]+\/__init__\.py$/.test(f) || /^src\/[^/]+\.py$/.test(f)))
    return "src";
  const rootPackage = files.some((f) => {
    const m = /^([^/]+)\/__init__\.py$/.exec(f);
    return m !== null && !DEDICATED_DIRS.has(m[1] ?? "");
  });
  return rootPackage ? "." : null;
}
function toolFallback(project, has, read) {
  if (project.kind === "python" && (project.manager === "uv" || project.manager === "poetry")) {
    if (has(project.manager)) return null;
    return {
      project: { kind: "python", manager: "none", lockfile: project.lockfile },
      note: { wanted: project.manager, used: "pytest from the environment" }
    };
  }
  if (project.kind === "node" && project.manager !== "npm") {
    const tool = project.manager === "yarn-berry" ? "yarn" : project.manager;
    if (has(tool)) return null;
    if (project.manager === "pnpm" && has("npx")) {
      const launcher = `npx --yes pnpm@${pnpmVersion(read)}`;
      return { project: { ...project, launcher }, note: { wanted: tool, used: launcher } };
    }
    return {
      project: { ...project, manager: "npm", lockfile: null },
      note: { wanted: tool, used: "npm" }
    };
  }
  return null;
}
function pnpmVersion(read) {
  try {
    const named = JSON.parse(read("package.json") ?? "{}").packageManager;
    const m = typeof named === "string" ? /^pnpm@(\d+\.\d+\.\d+[\w.-]*)/.exec(named) : null;
    if (m?.[1] !== void 0) return m[1];
  } catch {
  }
  const lock = /^lockfileVersion:\s*['"]?(\d+)/m.exec(read("pnpm-lock.yaml") ?? "")?.[1];
  return lock === "5" ? "7" : lock === "6" ? "8" : "9";
}
function propertyLibrary(project, input) {
  if (project.kind === "node")
    return /"fast-check"/.test(input.read("package.json") ?? "") ? "fast-check" : null;
  const declared = ["pyproject.toml", "requirements.txt", "requirements-dev.txt", "setup.cfg"].map((f) => input.read(f) ?? "").join("\n");
  if (/hypothesis/i.test(declared)) return "hypothesis";
  const imports = input.files.filter((f) => isTestFile(f, "pytest") || posix2.basename(f) === "conftest.py").slice(0, 200).some((f) => /^\s*(from|import)\s+hypothesis\b/m.test(input.read(f) ?? ""));
  return imports ? "hypothesis" : null;
}
async function inspectRepository(repoDir, env) {
  const files = await new Git(repoDir, env).indexFiles(repoDir).catch(() => []);
  const read = (p) => {
    try {
      return readFileSync(join2(repoDir, p), "utf8");
    } catch {
      return null;
    }
  };
  let rootNames = [];
  try {
    rootNames = readdirSync(repoDir);
  } catch {
  }
  const input = { files, rootNames, read, has: (tool) => onPath(tool, env.PATH) };
  const first = inspect(input);
  if (first.project.kind === "python") {
    const python = repositoryPython(repoDir, first.python);
    const args = pytestConfigArgs(first.ci?.command);
    return inspect({ ...input, pytest: await askPytest(repoDir, python, args, env) });
  }
  const answer = await askRunner(repoDir, first.project, env);
  return answer === null ? first : inspect({ ...input, answer });
}

// src/doctor/collection.ts
var ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
function logCollectionErrors(log, worktree) {
  const lines = log.replace(ANSI, "").split(/\r?\n/);
  const found = /* @__PURE__ */ new Map();
  const add2 = (file, cause) => {
    const rel = relative2(file.trim(), worktree);
    if (rel !== "" && (!found.has(rel) || found.get(rel) === "")) found.set(rel, cause.trim());
  };
  let jestFail = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const pytestSection = /^_+ ERROR collecting (\S+) _+$/.exec(line);
    if (pytestSection?.[1] !== void 0) add2(pytestSection[1], pytestCause(lines, i + 1));
    const summary2 = /^ERROR (\S+\.py)(?: - (.*))?$/.exec(line);
    if (summary2?.[1] !== void 0) add2(summary2[1], summary2[2] ?? "");
    const fail = /^\s*FAIL\s+(\S+)/.exec(line);
    if (fail?.[1] !== void 0) jestFail = fail[1];
    if (/●\s+Test suite failed to run/.test(line) && jestFail !== null)
      add2(jestFail, nextText(lines, i + 1));
    const vitest = /No test suite found in file (\S+)/.exec(line);
    if (vitest?.[1] !== void 0) add2(vitest[1], "No test suite found in file");
  }
  return [...found].map(([file, cause]) => ({ file, cause: cause.slice(0, 300) }));
}
function isFileLevel(o) {
  if (o.id.endsWith("::<collection>")) return true;
  return o.file !== null && o.id === `${o.file}::${o.file}`;
}
function pytestCause(lines, from) {
  let first = "";
  for (let i = from; i < lines.length && i < from + 200; i++) {
    const line = lines[i] ?? "";
    if (/^(_{3,}|={3,}|-{3,})/.test(line)) break;
    if (/^E\s+\S/.test(line)) return line.replace(/^E\s+/, "");
    if (first === "" && line.trim() !== "") first = line.trim();
  }
  return first;
}
function nextText(lines, from) {
  for (let i = from; i < lines.length && i < from + 10; i++) {
    const t = (lines[i] ?? "").trim();
    if (t !== "") return t;
  }
  return "";
}
function relative2(file, worktree) {
  const prefix = worktree.endsWith("/") ? worktree : `${worktree}/`;
  return file.startsWith(prefix) ? file.slice(prefix.length) : file.replace(/^\.\//, "");
}

// src/doctor/findings.ts
function guessCause(message) {
  const m = message.toLowerCase();
  if (/timeout|timed out|time|clock|deadline|sleep/.test(m)) return "time";
  if (/connection|socket|network|econn|dns|http/.test(m)) return "net";
  if (/random|seed|rng|shuffle/.test(m)) return "rng";
  if (/order|before|after|sequence|already/.test(m)) return "order";
  return "shared";
}
function addDays2(date, days) {
  const d = /* @__PURE__ */ new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
function unmappedCause(input, perId) {
  if (perId.size === 0 || [...perId.values()].some((r) => r.file !== null)) return "";
  const why = `none of the ${perId.size} test(s) the runner reported maps to a file of the checkout`;
  if (input.runner !== "pytest") return ` (${why})`;
  return ` (${why}: pytest names tests relative to its rootdir, taken from the command's --rootdir or -c, else the first folder from its path arguments upwards holding pytest.ini, .pytest.ini, pyproject.toml [tool.pytest.ini_options], tox.ini [pytest] or setup.cfg [tool:pytest]; the gate found ${input.pyRoot ? `\`${input.pyRoot}/\`` : "the repository root"})`;
}
var failing = (o) => o === "failed" || o === "error";
function diagnose(input) {
  const findings = [];
  const perId = /* @__PURE__ */ new Map();
  for (const run of input.runs)
    for (const o of run.observations.values()) {
      const row = perId.get(o.id) ?? { outcomes: [], message: "", file: o.file };
      row.outcomes.push(...o.outcomes);
      if (o.message !== void 0 && row.message === "") row.message = o.message;
      perId.set(o.id, row);
    }
  const plane = (file) => file === null ? "unknown" : input.planeOf(file);
  const votingByFile = {};
  const otherPlanes = [];
  for (const [id, row] of perId) {
    const p = plane(row.file);
    if (p === "voting") votingByFile[row.file ?? ""] = (votingByFile[row.file ?? ""] ?? 0) + 1;
    else otherPlanes.push(`${id} (${p})`);
  }
  const flaky = [];
  const alwaysFailing = [];
  for (const [id, row] of [...perId].sort(([a], [b]) => a.localeCompare(b))) {
    const ran = row.outcomes.filter((o) => o !== "skipped");
    if (ran.some(failing) && ran.some((o) => o === "passed"))
      flaky.push({ id, outcomes: row.outcomes, cause: guessCause(row.message) });
    else if (ran.length > 0 && ran.every(failing) && plane(row.file) === "voting" && !isFileLevel({ id, file: row.file, outcomes: [], runnerFlaky: false }))
      alwaysFailing.push(`${id}: ${row.message.split("\n")[0] ?? ""}`.slice(0, 300));
  }
  const unledgered = flaky.filter((f) => !input.ledgered.has(f.id));
  const proposedRows = unledgered.map((f) => ({
    test: f.id,
    cause: f.cause,
    reason: `doctor on ${input.ref}: ${f.outcomes.join(", ")} across ${input.runs.length} runs`,
    owner: input.owner,
    first_seen: input.today,
    expires_on: addDays2(input.today, 14),
    max_runs: 3
  }));
  const noReport = input.runs.filter((r) => r.reportError !== void 0);
  if (noReport.length > 0)
    findings.push({
      level: "blocker",
      code: "no-report",
      message: `${noReport.length} of ${input.runs.length} runs left no readable report`,
      items: noReport.map((r) => r.reportError ?? "")
    });
  const uncollected = collectionErrors(input, perId);
  if (uncollected.length > 0)
    findings.push({
      level: "blocker",
      code: "collection-error",
      message: "the runner could not collect these files (a collection error, or a file whose runs yield only a file-level failure): no test in them votes and every PR would see them fail. Fix the file, or take it off the voting plane (a data file named like a test: rename it, or narrow planes.voting / the runner configuration)",
      items: uncollected
    });
  if (Object.keys(votingByFile).length === 0)
    findings.push({
      level: "blocker",
      code: "no-voting-test",
      message: `the suite command collects no test on the voting plane: nothing would vote${unmappedCause(input, perId)}`
    });
  if (unledgered.length > 0)
    findings.push({
      level: "blocker",
      code: "flaky",
      message: `${unledgered.length} test(s) changed outcome across runs with the same code; add the proposed ledger rows (oracle-gate ledger add) or fix them`,
      items: unledgered.map((f) => `${f.id}: ${f.outcomes.join(", ")} (cause guess: ${f.cause})`)
    });
  const trapped = input.imports.filter((i) => !i.inside);
  if (trapped.length > 0)
    findings.push({
      level: "blocker",
      code: "import-outside-checkout",
      message: "a package of the checkout is imported from elsewhere (or not at all): the tests would measure the installed copy, not the commit. Set suite.env.PYTHONPATH (src for a src/ layout) or pytest pythonpath",
      items: trapped.map((i) => `${i.module}: ${i.file ?? "not importable from the worktree"}`)
    });
  if ((input.unmeasuredImports ?? []).length > 0)
    findings.push({
      level: "blocker",
      code: "import-not-production",
      message: "voting tests import repository files that are neither production code (planes.production) nor instrument: the head's vote takes those files from the merge base, so a fix there is never measured. Add them to planes.production (or protect them)",
      items: [...input.unmeasuredImports ?? []]
    });
  const duplicates = new Set(input.runs.flatMap((r) => [...r.duplicates]));
  if (duplicates.size > 0)
    findings.push({
      level: "warning",
      code: "duplicate-ids",
      message: `${duplicates.size} id(s) reported more than once in one run: they share one vote (the worst outcome)`,
      items: [...duplicates].sort()
    });
  if (input.shadowed.length > 0)
    findings.push({
      level: "warning",
      code: "shadowed",
      message: "tests defined twice under one name in one scope (Python runs only the last; JS collapses them into one id)",
      items: input.shadowed.map((s) => `${s.file}: ${s.name} (lines ${s.lines.join(", ")})`)
    });
  if (input.fixtureStrength)
    findings.push({ level: "info", code: "fixtures-only", message: input.fixtureStrength });
  if (alwaysFailing.length > 0)
    findings.push({
      level: "warning",
      code: "always-failing",
      message: "voting tests failing in every run: every PR would see them red; fix them or ledger them (cause env if the environment breaks them)",
      items: alwaysFailing
    });
  pushIf(
    findings,
    "warning",
    "collects-other-planes",
    "the suite command collects tests that are not on the voting plane",
    otherPlanes.sort()
  );
  pushIf(
    findings,
    "warning",
    "test-on-no-plane",
    "test files on no plane (they never run in the gate)",
    input.testFiles.filter((f) => ["source", "other"].includes(input.planeOf(f)))
  );
  const votingFiles = input.files.filter((f) => input.planeOf(f) === "voting");
  const testSet = new Set(input.testFiles);
  pushIf(
    findings,
    "warning",
    "voting-file-without-test",
    "files on the voting plane that hold no test (a runner may fail on them; helpers are fine)",
    votingFiles.filter(
      (f) => !testSet.has(f) && !Object.hasOwn(votingByFile, f) && !/(^|\/)(conftest\.py|__init__\.py)$/.test(f)
    )
  );
  pushIf(
    findings,
    "warning",
    "glob-matches-nothing",
    "voting globs that match no tracked file",
    input.votingGlobs.filter((g) => input.globMatches.get(g) === false)
  );
  pushIf(
    findings,
    "info",
    "runner-config",
    "runner configuration found (read from the merge base, protected)",
    [...input.runnerConfig]
  );
  return {
    ref: input.ref,
    fit: !findings.some((f) => f.level === "blocker"),
    runs: input.runs.map((r) => ({
      seconds: Math.round(r.seconds * 10) / 10,
      exitCode: r.exitCode,
      tests: r.observations.size,
      ...r.reportError !== void 0 ? { reportError: r.reportError } : {}
    })),
    votingByFile,
    flaky,
    proposedRows,
    findings
  };
}
function collectionErrors(input, perId) {
  const causes = /* @__PURE__ */ new Map();
  for (const run of input.runs)
    for (const e of run.collectionErrors ?? [])
      if (!causes.has(e.file) || causes.get(e.file) === "") causes.set(e.file, e.cause);
  for (const [file, message] of fileLevelFailures(input, perId))
    if (!causes.has(file) || causes.get(file) === "") causes.set(file, message);
  const items = [...causes].sort(([a], [b]) => a.localeCompare(b)).map(([f, c]) => `${f}: ${c || "no cause printed"}`);
  const interrupted = input.runs.filter((r) => r.exitCode === 2);
  if (input.runner === "pytest" && interrupted.length > 0 && items.length === 0)
    items.push(
      `pytest exited 2 (interrupted: a collection error or a usage error) in ${interrupted.length} of ${input.runs.length} runs; see its output`
    );
  return items;
}
function fileLevelFailures(input, perId) {
  const files = /* @__PURE__ */ new Map();
  for (const [id, row] of perId) {
    if (row.file === null || input.planeOf(row.file) !== "voting") continue;
    const fileLevel = isFileLevel({ id, file: row.file, outcomes: [], runnerFlaky: false }) && row.outcomes.some(failing);
    const seen = files.get(row.file) ?? { only: true, collection: false, message: "" };
    seen.only &&= fileLevel;
    seen.collection ||= fileLevel && id.endsWith("::<collection>");
    if (fileLevel && seen.message === "") seen.message = row.message.split("\n")[0] ?? "";
    files.set(row.file, seen);
  }
  return new Map(
    [...files].filter(([, f]) => f.only || f.collection).map(([file, f]) => [file, f.message])
  );
}
function pushIf(findings, level, code2, message, items) {
  if (items.length > 0) findings.push({ level, code: code2, message, items });
}

// src/doctor/production.ts
import { posix as posix3 } from "node:path";
var PY_FROM = /^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([\w, \t*]+)/gm;
var PY_IMPORT = /^[ \t]*import[ \t]+([\w., \t]+)/gm;
var JS_SPEC = /(?:\bfrom\s*|\brequire\(\s*|\bimport\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
var JS_EXT = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
function importedFiles(test, text, files, pythonRoots) {
  const found = /* @__PURE__ */ new Set();
  const first = (candidates) => {
    const hit = candidates.find((c) => files.has(c));
    if (hit !== void 0) found.add(hit);
  };
  if (test.endsWith(".py")) {
    for (const m of text.matchAll(PY_FROM)) {
      const mod = m[1] ?? "";
      for (const name of (m[2] ?? "").split(",").map((s) => s.trim()))
        first(pythonCandidates(test, mod, name, pythonRoots));
      first(pythonCandidates(test, mod, "", pythonRoots));
    }
    for (const m of text.matchAll(PY_IMPORT))
      for (const mod of (m[1] ?? "").split(","))
        first(pythonCandidates(test, mod.trim().split(/\s/)[0] ?? "", "", pythonRoots));
  } else {
    for (const m of text.matchAll(JS_SPEC)) first(jsCandidates(test, m[1] ?? ""));
  }
  return [...found].sort();
}
function pythonCandidates(test, mod, name, roots) {
  const dots = /^\.*/.exec(mod)?.[0].length ?? 0;
  const parts = [...mod.slice(dots).split("."), ...name && name !== "*" ? [name] : []].filter(
    Boolean
  );
  if (parts.length === 0) return [];
  let bases = roots;
  if (dots > 0) {
    let dir = posix3.dirname(test);
    for (let i = 1; i < dots; i++) dir = posix3.dirname(dir);
    bases = [dir === "." ? "" : dir];
  }
  const rel = parts.join("/");
  return bases.flatMap((b) => {
    const at = b === "" ? rel : `${b}/${rel}`;
    return [`${at}.py`, `${at}/__init__.py`];
  });
}
function jsCandidates(test, spec) {
  const at = posix3.normalize(posix3.join(posix3.dirname(test), spec));
  const stem = at.replace(/\.(?:c|m)?js$/, "");
  return [
    at,
    ...JS_EXT.map((e) => `${at}${e}`),
    ...JS_EXT.map((e) => `${stem}${e}`),
    ...JS_EXT.map((e) => `${at}/index${e}`)
  ];
}
function unmeasuredImports(input) {
  const files = new Set(input.files);
  const out = [];
  for (const [test, text] of input.voting)
    for (const file of importedFiles(test, text, files, input.pythonRoots))
      if (!input.measured(file)) out.push(`${test}: ${file}`);
  return out.sort();
}

// src/doctor/shadow.ts
var JS_CALLS = /* @__PURE__ */ new Set([...JS_TEST_FUNCTIONS, ...JS_GROUP_FUNCTIONS]);
async function shadowedTests(file, text) {
  const language = languageOf(file);
  if (language === void 0) return [];
  const parser = await parserFor(language);
  const tree = parser.parse(text);
  if (tree === null) return [];
  try {
    const groups = /* @__PURE__ */ new Map();
    const add2 = (key, line) => {
      groups.set(key, [...groups.get(key) ?? [], line]);
    };
    if (language === "python") pythonScopes(tree.rootNode, "module", add2);
    else jsScopes(tree.rootNode, "file", add2);
    const out = [];
    for (const [key, lines] of groups)
      if (lines.length > 1) out.push({ file, name: key.slice(key.indexOf("\0") + 1), lines });
    return out.sort((a, b) => (a.lines[0] ?? 0) - (b.lines[0] ?? 0));
  } finally {
    tree.delete();
  }
}
function pythonScopes(block, scope, add2) {
  for (const child of block.namedChildren) {
    if (child === null) continue;
    const def = child.type === "decorated_definition" ? child.childForFieldName("definition") : child;
    if (def === null) continue;
    const name = def.childForFieldName("name")?.text ?? "";
    if (def.type === "function_definition" && PY_TEST_FUNCTION.test(name))
      add2(`${scope}\0${name}`, def.startPosition.row + 1);
    if (def.type === "class_definition") {
      if (PY_TEST_CLASS.test(name)) add2(`${scope}\0${name}`, def.startPosition.row + 1);
      const body = def.childForFieldName("body");
      if (body !== null) pythonScopes(body, `${scope}.${name}`, add2);
    }
  }
}
function jsScopes(node, scope, add2) {
  for (const child of node.namedChildren) {
    if (child === null) continue;
    const title2 = child.type === "call_expression" ? testTitle(child) : null;
    if (title2 === null) {
      jsScopes(child, scope, add2);
      continue;
    }
    add2(`${scope}\0${title2}`, child.startPosition.row + 1);
    jsScopes(child, `${scope} > ${title2}`, add2);
  }
}
function testTitle(call) {
  const fn = call.childForFieldName("function");
  if (fn === null) return null;
  const head = fn.type === "member_expression" ? fn.childForFieldName("object") : fn;
  if (head === null || head.type !== "identifier" || !JS_CALLS.has(head.text)) return null;
  const first = call.childForFieldName("arguments")?.namedChildren[0];
  if (first === null || first === void 0 || first.type !== "string") return null;
  return first.text.slice(1, -1);
}

// src/doctor/run.ts
async function doctor(options) {
  const git = new Git(options.repoDir, options.env);
  const sha = await git.resolveCommit(options.ref);
  const text = await git.showText(sha, options.policyPath);
  if (text === null) throw new Error(`no policy at ${options.policyPath} in ${options.ref}`);
  const policy = parsePolicy(text, options.policyPath);
  const tempDir = await mkdtemp2(join3(tmpdir2(), "tmp."));
  const ctx = {
    ...runFacts(git, policy),
    repoDir: options.repoDir,
    git,
    policy,
    mergeBase: sha,
    head: sha,
    today: options.today,
    log: options.log,
    writeSet: [],
    childEnv: childEnv(options.env, {}, []),
    tempDir
  };
  const worktree = join3(tempDir, basename(options.repoDir) || "project");
  let links = [];
  try {
    await git.addWorktree(worktree, sha);
    const setup = await prepareWorktree(ctx, "base", worktree, join3(tempDir, "setup.log"));
    links = setup.links ?? [];
    if (!setup.ok) throw new Error(`setup failed: ${setup.reason}
${setup.tail ?? ""}`);
    const files = await worktreeFiles(ctx, worktree);
    const pyRoot = await checkoutPyRoot(ctx, worktree, files);
    const runs = [];
    for (let attempt = 0; attempt < options.runs; attempt++) {
      options.log.info(`doctor: run ${attempt + 1} of ${options.runs}`);
      runs.push(await oneRun(ctx, worktree, files, attempt, pyRoot));
    }
    return diagnose({
      ref: options.ref,
      runs,
      files,
      planeOf: (p) => ctx.planes.planeOf(p),
      votingGlobs: policy.planes.voting,
      globMatches: new Map(
        policy.planes.voting.map((g) => [g, files.some(compileGlobs([g], false))])
      ),
      testFiles: files.filter((f) => isTestFile(f, f.endsWith(".py") ? "pytest" : "js")),
      shadowed: await scanShadowed(
        worktree,
        files.filter((f) => ctx.planes.planeOf(f) === "voting")
      ),
      imports: await probeImports(ctx, worktree, files),
      ...await productionImports(ctx, worktree, files),
      runnerConfig: runnerConfig(ctx, files),
      ledgered: await ledgered(ctx, sha),
      today: options.today,
      owner: options.owner,
      runner: detectRunner(policy.suite),
      ...pyRoot !== "" ? { pyRoot } : {},
      fixtureStrength: await fixtureStrength(ctx, worktree, files)
    });
  } finally {
    await cleanupWorktree(links).catch(() => void 0);
    await git.removeWorktree(worktree).catch(() => void 0);
    await git.pruneWorktrees().catch(() => void 0);
    await rm2(tempDir, { recursive: true, force: true }).catch(() => void 0);
    await git.close();
  }
}
async function checkoutPyRoot(ctx, worktree, files) {
  const texts = /* @__PURE__ */ new Map();
  for (const path of rootdirInputs(files)) {
    const text = await readFile(join3(worktree, path), "utf8").catch(() => null);
    if (text !== null) texts.set(path, text);
  }
  return pytestRootdir(ctx.policy.suite.command, files, (p) => texts.get(p) ?? null);
}
async function oneRun(ctx, worktree, files, attempt, pyRoot) {
  const started = Date.now();
  const logFile = join3(ctx.tempDir, `run-${attempt}.log`);
  const r = await runSuite(ctx, {
    side: "base",
    worktree,
    attempt,
    command: ctx.policy.suite.command,
    logFile
  });
  const seconds = (Date.now() - started) / 1e3;
  const duplicates = /* @__PURE__ */ new Set();
  const collectionErrors2 = logCollectionErrors(
    await logText2(logFile),
    await realpath(worktree).catch(() => worktree)
  );
  if (r.report === null)
    return {
      observations: /* @__PURE__ */ new Map(),
      seconds,
      exitCode: r.result.exitCode,
      reportError: `${r.reportError ?? "no report"}${r.result.tail ? `
${r.result.tail}` : ""}`,
      duplicates,
      collectionErrors: collectionErrors2
    };
  const ids = worktreeIdContext(
    worktree,
    files,
    (p) => ctx.planes.planeOf(p),
    ctx.policy.suite.report,
    { runner: detectRunner(ctx.policy.suite), pyRoot }
  );
  return {
    observations: observe(r.report, ids, duplicates),
    seconds,
    exitCode: r.result.exitCode,
    duplicates,
    collectionErrors: collectionErrors2
  };
}
async function logText2(file) {
  const limit = 4 << 20;
  const handle = await open(file, "r").catch(() => null);
  if (handle === null) return "";
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, limit);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return buffer.toString("utf8");
  } finally {
    await handle.close();
  }
}
async function fixtureStrength(ctx, worktree, files) {
  const voting = files.filter((f) => ctx.planes.planeOf(f) === "voting");
  const fixtures = fixtureFiles(files, voting);
  if (fixtures.length === 0) return null;
  let generators = null;
  for (const file of voting.filter((f) => languageOf(f) !== void 0).slice(0, 500)) {
    const text = await readFile(join3(worktree, file), "utf8").catch(() => "");
    const found = PROPERTY_IMPORT.exec(text.slice(0, 1e6));
    if (found) {
      generators = found[1] ?? found[2] ?? "property tests";
      break;
    }
  }
  return fixtureStrengthNote(fixtures, generators, ctx.policy.seeds);
}
var PROPERTY_IMPORT = /^\s*(?:from|import)\s+(hypothesis)\b|(?:from\s+|require\(\s*)['"](fast-check|@fast-check\/[\w-]+)['"]/m;
async function scanShadowed(worktree, files) {
  const out = [];
  for (const file of files) {
    if (languageOf(file) === void 0) continue;
    const text = await readFile(join3(worktree, file), "utf8").catch(() => null);
    if (text === null || text.length > 1e6) continue;
    out.push(...await shadowedTests(file, text));
  }
  return out;
}
function checkoutPackages(files) {
  const src = /* @__PURE__ */ new Set();
  const root = /* @__PURE__ */ new Set();
  for (const f of files) {
    const s = /^src\/([A-Za-z_]\w*)\/__init__\.py$/.exec(f);
    if (s?.[1] !== void 0) src.add(s[1]);
    const r = /^([A-Za-z_]\w*)\/__init__\.py$/.exec(f);
    if (r?.[1] !== void 0 && !["tests", "test", "testing", "docs"].includes(r[1])) root.add(r[1]);
  }
  return [...src.size > 0 ? src : root].sort().slice(0, 20);
}
function suitePython(command) {
  return /(?:^|\s)(\S*python[\d.]*)\s+-m\s+pytest\b/.exec(command)?.[1] ?? "python3";
}
var PROBE = `import importlib, json, sys
out = {}
for name in sys.argv[1:]:
    try:
        out[name] = getattr(importlib.import_module(name), '__file__', None) or ''
    except Exception:
        out[name] = None
print(json.dumps(out))`;
async function probeImports(ctx, worktree, files) {
  const packages = checkoutPackages(files);
  if (packages.length === 0 || detectRunner(ctx.policy.suite) !== "pytest") return [];
  const root = await realpath(worktree);
  let found;
  try {
    const result = await runShell({
      command: [suitePython(ctx.policy.suite.command), "-c", PROBE, ...packages].map(shellQuote).join(" "),
      cwd: worktree,
      env: await sideEnv(ctx),
      timeoutSec: 60,
      logFile: join3(ctx.tempDir, "import-probe.log"),
      captureStdout: true
    });
    if (result.exitCode !== 0)
      throw new Error(`exit ${result.exitCode ?? result.signal ?? "?"}: ${result.tail}`);
    found = JSON.parse(result.stdout);
  } catch (error) {
    ctx.log.warning(`doctor: the import probe failed: ${String(error)}`);
    return [];
  }
  const out = [];
  for (const module of packages) {
    const file = found[module] ?? null;
    const real = file === null || file === "" ? null : await realpath(file).catch(() => file);
    out.push({ module, file: real, inside: real !== null && real.startsWith(`${root}/`) });
  }
  return out;
}
async function productionImports(ctx, worktree, files) {
  if (!ctx.planes.hasProduction) return {};
  const voting = /* @__PURE__ */ new Map();
  for (const f of files.filter((f2) => ctx.planes.planeOf(f2) === "voting" && languageOf(f2))) {
    const text = await readFile(join3(worktree, f), "utf8").catch(() => null);
    if (text !== null && text.length <= 1e6) voting.set(f, text);
  }
  const measured = (p) => ctx.planes.isProduction(p) || isInstrumentPlane(ctx.planes.planeOf(p));
  const pythonRoots = ["", "src", ...(ctx.policy.suite.env.PYTHONPATH ?? "").split(":")];
  return {
    unmeasuredImports: unmeasuredImports({ voting, files, pythonRoots, measured })
  };
}
function runnerConfig(ctx, files) {
  const voting = files.filter((f) => ctx.planes.planeOf(f) === "voting");
  const matcher = compileRunnerMatcher(ctx.policy, voting);
  return files.filter((f) => matcher.entryFor(f) !== null);
}
async function ledgered(ctx, sha) {
  const path = ctx.policy.ledger;
  if (path === void 0) return /* @__PURE__ */ new Set();
  const text = await ctx.git.showText(sha, path);
  if (text === null) return /* @__PURE__ */ new Set();
  try {
    return new Set(ledgerFromText(text, path, ctx.today, ctx.policy.ledger_max_days).live.keys());
  } catch {
    return /* @__PURE__ */ new Set();
  }
}

// src/cli/doctor.ts
var DOCTOR_USAGE = `Usage: oracle-gate doctor [--ref REF] [--runs N] [--repo DIR] [--policy PATH]
                         [--owner WHO] [--today YYYY-MM-DD] [--json FILE] [--markdown FILE]

Runs the locked suite of REF (default HEAD; policy read at REF) N times (default 3) in a
temporary worktree, and reports voting tests by file, runtimes, tests that flake across
runs (with proposed ledger rows), collection errors (file and cause), duplicate and
shadowed test ids, test files on no plane,
voting files without tests, globs matching nothing, the src/ layout import trap and the
runner configuration found. Markdown on stdout (or --markdown FILE), JSON with --json FILE.
Exit codes: 0 fit to vote, 1 not fit (a blocker is listed), 4 usage or the run failed.
`;
async function runDoctor(argv, io) {
  const parsed = parseFlags(argv, {
    ref: { type: "string" },
    runs: { type: "string" },
    repo: { type: "string" },
    policy: { type: "string" },
    owner: { type: "string" },
    today: { type: "string" },
    json: { type: "string" },
    markdown: { type: "string" },
    help: { type: "boolean", short: "h" }
  });
  if ("error" in parsed) {
    io.stderr.write(`oracle-gate doctor: ${logText(parsed.error)}
${DOCTOR_USAGE}`);
    return EXIT.error;
  }
  const v = parsed.values;
  if (v.help) {
    io.stdout.write(DOCTOR_USAGE);
    return EXIT.ok;
  }
  const runs = Number(v.runs ?? "3");
  if (!Number.isInteger(runs) || runs < 1 || runs > 50) {
    io.stderr.write("oracle-gate doctor: --runs takes a whole number from 1 to 50\n");
    return EXIT.error;
  }
  try {
    const report = await doctor({
      repoDir: resolve2(io.cwd, v.repo ?? "."),
      ref: v.ref ?? "HEAD",
      policyPath: v.policy ?? DEFAULT_POLICY_PATH,
      runs,
      today: v.today ?? utcToday(),
      owner: v.owner ?? "unassigned",
      log: stderrLogger(io.stderr, true),
      env: io.env
    });
    const md = doctorMarkdown(report);
    if (v.json) await writeFile(resolve2(io.cwd, v.json), JSON.stringify(report, null, 2) + "\n");
    if (v.markdown) await writeFile(resolve2(io.cwd, v.markdown), md);
    else io.stdout.write(md);
    io.stderr.write(
      report.fit ? "doctor: fit to vote\n" : "doctor: NOT fit to vote (see the blockers)\n"
    );
    return report.fit ? EXIT.ok : 1;
  } catch (error) {
    io.stderr.write(
      `oracle-gate doctor: ${logText(error instanceof Error ? error.message : String(error))}
`
    );
    return EXIT.error;
  }
}

// src/cli/init.ts
import { existsSync as existsSync2 } from "node:fs";
import { mkdir, writeFile as writeFile2 } from "node:fs/promises";
import { dirname, resolve as resolve3 } from "node:path";
var INIT_USAGE = `Usage: oracle-gate init [--repo DIR] [--policy PATH] [--force]

Inspects the repository (git ls-files, the runner's configuration, the CI workflow) and
writes a policy fitted to it (default ${DEFAULT_POLICY_PATH}): the test files the runner
collects vote (voting_edits: append, so a patch may add tests but not edit existing ones),
files named like tests that define none are protected data, new files under agent-tests/
are the patch's own tests, the package manager is the one installed (pnpm: the pinned
version from the registry), the CI's test environment becomes suite.env, a Python src/
layout gets PYTHONPATH. Creates an empty ledger at ${STARTER_LEDGER_PATH} when there is none.
Next: oracle-gate doctor, then commit the policy in a PR of its own.
`;
async function runInit(argv, io) {
  const parsed = parseFlags(argv, {
    repo: { type: "string" },
    policy: { type: "string" },
    force: { type: "boolean" },
    help: { type: "boolean", short: "h" }
  });
  if ("error" in parsed) {
    io.stderr.write(`oracle-gate init: ${logText(parsed.error)}
`);
    return EXIT.error;
  }
  const { values } = parsed;
  if (values.help) {
    io.stdout.write(INIT_USAGE);
    return EXIT.ok;
  }
  const repo = resolve3(io.cwd, values.repo ?? ".");
  const problem = folderProblem(repo) ?? await notRepository(repo, io.env);
  if (problem !== null) {
    io.stderr.write(`oracle-gate init: ${logText(problem)}
`);
    return EXIT.error;
  }
  const target = resolve3(repo, values.policy ?? DEFAULT_POLICY_PATH);
  if (existsSync2(target) && !values.force) {
    io.stderr.write(`oracle-gate init: ${target} exists; pass --force to overwrite
`);
    return EXIT.error;
  }
  const ins = await inspectRepository(repo, io.env);
  await mkdir(dirname(target), { recursive: true });
  await writeFile2(target, renderInspected(ins));
  const ledger = resolve3(repo, STARTER_LEDGER_PATH);
  if (!existsSync2(ledger)) {
    await mkdir(dirname(ledger), { recursive: true });
    await writeFile2(ledger, EMPTY_LEDGER);
  }
  io.stderr.write(summary(target, ins));
  return EXIT.ok;
}
async function notRepository(dir, env) {
  const git = new Git(dir, env);
  try {
    await git.commonDir();
    return null;
  } catch {
    return `not a git repository: ${dir}`;
  } finally {
    await git.close().catch(() => void 0);
  }
}
function notes(ins) {
  const out = [];
  const source = ins.pytestSource;
  if (source?.by === "pytest")
    out.push(
      `pytest's configuration asked of pytest (${source.python}): rootdir ${source.rootdir}, ${ins.pytest?.file ?? "no configuration file"}${ins.pytest?.ignore?.length ? `, ignoring ${ins.pytest.ignore.join(" ")}` : ""}`
    );
  if (source?.by === "files")
    out.push(
      `pytest could not be asked (${source.why}): its configuration was read from the files (${ins.pytest?.file ?? "none found: pytest defaults"})`
    );
  if (ins.pytest?.file && ins.pytest.testpaths.length > 0)
    out.push(`tests selected by ${ins.pytest.file}'s testpaths: ${ins.pytest.testpaths.join(" ")}`);
  if (ins.jsConfig !== null) out.push(`tests selected by ${ins.jsConfig}`);
  if (ins.dataFiles.length > 0)
    out.push(
      `named like tests but defining none (data: protected, left out of the run by the suite command; the voting globs stay): ${ins.dataFiles.join(", ")}`
    );
  const ciEnv = Object.keys(ins.ci?.env ?? {});
  if (ins.ci !== null && ciEnv.length > 0)
    out.push(`suite.env from the CI workflow (${ins.ci.source}): ${ciEnv.join(", ")}`);
  if (ins.project.kind === "node" && ins.project.runner === "jest" && !ins.jestJunit)
    out.push(
      "jest-junit is NOT a dependency: add it as a devDependency (the policy says how) and commit the lockfile with the policy, or every run leaves no report"
    );
  const strength = fixtureStrengthNote(ins.fixtures, ins.propertyLibrary, void 0);
  if (strength !== null) out.push(strength);
  return out.map((l) => `${logText(l)}
`).join("");
}
function summary(target, ins) {
  const tests = ins.testFiles.length === 0 ? "no tracked test files: the voting plane is a placeholder (oracle/properties/**)" : `${ins.testFiles.length} test file(s) vote: ${ins.voting.join(", ")}`;
  return `wrote ${target} (detected: ${describeProject(ins.project)})
${tests}
` + (ins.fallback ? `${ins.fallback.wanted} is not installed: using ${ins.fallback.used}
` : "") + notes(ins) + "Next: oracle-gate doctor (runs the suite 3 times), then commit the policy and ledger in a PR of their own: the gate reads them from the merge base.\n";
}

// src/cli/ledger.ts
import { existsSync as existsSync3 } from "node:fs";
import { mkdir as mkdir2, readFile as readFile2, writeFile as writeFile3 } from "node:fs/promises";
import { dirname as dirname2, relative as relative3, resolve as resolve4 } from "node:path";
import { parseArgs } from "node:util";

// src/ledger/edit.ts
var import_yaml2 = __toESM(require_dist(), 1);
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
  if (blank) return (0, import_yaml2.stringify)({ version: 1, entries: [value] });
  const doc = (0, import_yaml2.parseDocument)(existing);
  const entries = doc.get("entries", true);
  if (!(0, import_yaml2.isSeq)(entries)) throw new Error(`${file} has no "entries" list to add to`);
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
  oracle-gate ledger add --from-card CARD.json --owner WHO [--cause CAUSE] [--reason TEXT]
                         [--expires DATE] [--max-runs N] [--ticket REF] [common options]
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
        --from-card adds one row per test of a scorecard's flakes (cause: --cause, else
        guessed from the card's messages, else shared) and per voting test that failed on
        both sides (fail_to_fail: cause env, broken in this environment), skipping tests
        the ledger already covers; each row is validated as with --test.
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
  "from-card": { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" }
};
function parse2(argv) {
  return parseArgs({ args: argv, strict: true, allowPositionals: true, options: OPTIONS });
}
var Usage = class extends Error {
};
async function runLedgerCommand(argv, io) {
  try {
    const { values, positionals } = parse2(argv);
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
  const repo = resolve4(io.cwd, v.repo ?? ".");
  const today = v.today ?? utcToday();
  if (!isCalendarDate(today))
    throw new Usage(`--today must be a calendar date YYYY-MM-DD, got "${today}"`);
  let maxDays;
  if (v["max-days"] !== void 0) {
    const days = Number(v["max-days"]);
    maxDays = days;
    if (!Number.isInteger(days) || days < 1)
      throw new Usage(`--max-days must be an integer >= 1, got "${v["max-days"]}"`);
  }
  let file = v.file;
  if (file === void 0 || maxDays === void 0) {
    const policyPath = v.policy ?? DEFAULT_POLICY_PATH;
    const policyFile = resolve4(repo, policyPath);
    if (existsSync3(policyFile)) {
      const policy = parsePolicy(await readFile2(policyFile, "utf8"), policyPath);
      file ??= policy.ledger;
      maxDays ??= policy.ledger_max_days;
    } else if (v.policy !== void 0) {
      throw new Usage(`policy ${policyPath} not found in ${repo}`);
    }
  }
  if (file === void 0)
    throw new Usage(`no ledger: pass --file PATH or set "ledger:" in the policy`);
  const abs = resolve4(repo, file);
  return {
    abs,
    file: relative3(repo, abs).replace(/\\/g, "/") || file,
    today,
    // No policy to read: the policy schema's own default, never a second copy of it.
    maxDays: maxDays ?? policySchema.properties.ledger_max_days.default
  };
}
async function readLedger(target) {
  return existsSync3(target.abs) ? readFile2(target.abs, "utf8") : null;
}
async function add(v, target, io) {
  if (v["from-card"] !== void 0) return fromCard(v, target, io);
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
  await writeFile3(target.abs, text);
  io.stdout.write(
    `added ${logText(String(row.id))}: ${logText(String(row.test))} (owner ${logText(String(row.owner))}, expires ${String(row.expires_on)}) to ${target.file}
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
function cardRows(card, cause) {
  const c = card ?? {};
  const at = typeof c.head === "string" ? ` at ${shortSha(c.head)}` : "";
  const messages = (c.reasons ?? []).map((r) => String(r.message ?? ""));
  const rows = /* @__PURE__ */ new Map();
  for (const f of Array.isArray(c.flakes) ? c.flakes : []) {
    if (typeof f.test !== "string" || rows.has(f.test)) continue;
    const text = messages.filter((m) => m.includes(f.test)).join(" ");
    const outcomes = Array.isArray(f.outcomes) ? f.outcomes.map(String).join(", ") : "";
    rows.set(f.test, {
      test: f.test,
      cause: cause ?? (text === "" ? "shared" : guessCause(text)),
      reason: `flaky on ${String(f.side)}${at}: ${outcomes}`
    });
  }
  for (const test of c.transitions?.fail_to_fail ?? []) {
    if (typeof test !== "string" || rows.has(test)) continue;
    rows.set(test, {
      test,
      cause: cause ?? "env",
      reason: `failed on base and head${at}: broken in this environment`
    });
  }
  return [...rows.values()];
}
async function fromCard(v, target, io) {
  if (v.test !== void 0 || v.id !== void 0)
    throw new Usage("--from-card takes the tests from the card: drop --test and --id");
  if (v.owner === void 0 || v.owner.trim() === "") throw new Usage("add needs --owner");
  let card;
  try {
    card = JSON.parse(await readFile2(resolve4(io.cwd, v["from-card"] ?? ""), "utf8"));
  } catch (error) {
    throw new Usage(
      `cannot read the card: ${error instanceof Error ? error.message : String(error)}`
    );
  }
  const existing = await readLedger(target);
  const live = existing === null ? /* @__PURE__ */ new Set() : new Set(ledgerFromText(existing, target.file, target.today, target.maxDays).live.keys());
  const rows = cardRows(card, v.cause).filter((r) => !live.has(r.test));
  if (rows.length === 0) {
    io.stderr.write(
      "nothing to add: the card lists no flaky or environment-broken test the ledger does not cover\n"
    );
    return EXIT.ok;
  }
  for (const row of rows) {
    const code2 = await add(
      {
        ...v,
        "from-card": void 0,
        test: row.test,
        cause: row.cause,
        reason: v.reason ?? row.reason
      },
      target,
      io
    );
    if (code2 !== EXIT.ok) return code2;
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

// src/cli/card-out.ts
import { writeFile as writeFile4 } from "node:fs/promises";
import { resolve as resolve5 } from "node:path";

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

// src/cli/card-out.ts
async function emitCard(card, v, io, repoDir) {
  const json = JSON.stringify(card, null, 2) + "\n";
  if (v.json) await writeFile4(resolve5(io.cwd, v.json), json);
  else io.stdout.write(json);
  if (v.markdown)
    await writeFile4(
      resolve5(io.cwd, v.markdown),
      renderMarkdown(card, { fullCardHint: v.json ?? "on stdout" })
    );
  if (v.attestation && v.json) await writeStatement(card, json, v.json, v.attestation, io, repoDir);
  io.stderr.write(humanSummary(card));
  return exitCode(card.verdict);
}
async function writeStatement(card, json, jsonPath, out, io, repoDir) {
  const digest = repoDir ? await policyDigest(repoDir, card, io.env) : void 0;
  const url = runUrl(io.env);
  const statement = statementOf({
    card,
    scorecardPath: jsonPath,
    scorecardBytes: json,
    ...digest ? { policyDigest: digest } : {},
    ...url ? { url } : {}
  });
  await writeFile4(resolve5(io.cwd, out), JSON.stringify(statement, null, 2) + "\n");
}

// src/cli/merge.ts
import { readFile as readFile3 } from "node:fs/promises";
import { resolve as resolve6 } from "node:path";
import { parseArgs as parseArgs2 } from "node:util";
var OPTIONS2 = {
  repo: { type: "string" },
  json: { type: "string" },
  markdown: { type: "string" },
  attestation: { type: "string" },
  quiet: { type: "boolean", short: "q" }
};
async function runMerge(argv, io) {
  let parsed;
  try {
    parsed = parseArgs2({ args: argv, options: OPTIONS2, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr.write(
      `oracle-gate merge: ${logText(error instanceof Error ? error.message : String(error))}
`
    );
    return EXIT.error;
  }
  const v = parsed.values;
  if (v.attestation !== void 0 && v.json === void 0) {
    io.stderr.write("oracle-gate merge: --attestation needs --json FILE (its subject)\n");
    return EXIT.error;
  }
  const repoDir = resolve6(io.cwd, v.repo ?? ".");
  const log = stderrLogger(io.stderr, !v.quiet);
  try {
    const files = await readShardFiles(parsed.positionals, io.cwd);
    const card = await mergeShards(loadShards(files), { repoDir, log, env: io.env });
    return emitCard(card, v, io, repoDir);
  } catch (error) {
    log.warning(`gate error: ${logText(error instanceof Error ? error.message : String(error))}`);
    const card = finalize(
      emptyScorecard({ version: VERSION, today: utcToday(), policyPath: DEFAULT_POLICY_PATH }),
      [reasonFromError(error)]
    );
    return emitCard(card, v, io);
  }
}
async function readShardFiles(paths, cwd) {
  return Promise.all(
    paths.map(async (name) => {
      try {
        return { name, text: await readFile3(resolve6(cwd, name), "utf8") };
      } catch (error) {
        throw new GateError(
          `merge: cannot read ${logText(name)} (${error instanceof Error ? error.message : String(error)})`
        );
      }
    })
  );
}

// src/cli/prime.ts
import { resolve as resolve7 } from "node:path";
async function runPrime(argv, io) {
  const parsed = parseFlags(argv, {
    out: { type: "string" },
    commit: { type: "string" },
    repo: { type: "string" },
    policy: { type: "string" },
    label: { type: "string" },
    quiet: { type: "boolean", short: "q" }
  });
  if ("error" in parsed) {
    io.stderr.write(`oracle-gate prime: ${logText(parsed.error)}
`);
    return EXIT.error;
  }
  const { values } = parsed;
  if (!values.out) {
    io.stderr.write("oracle-gate prime: --out FILE is required\n");
    return EXIT.error;
  }
  const out = resolve7(io.cwd, values.out);
  const commit = values.commit ?? "HEAD";
  const label = values.label ?? `oracle-gate prime of ${commit} (local)`;
  const result = await primeCommit(
    {
      repoDir: resolve7(io.cwd, values.repo ?? "."),
      base: commit,
      policyPath: values.policy ?? DEFAULT_POLICY_PATH,
      log: stderrLogger(io.stderr, !values.quiet),
      env: io.env
    },
    out,
    { kind: "local", label }
  );
  const { card } = result;
  if (!result.written) {
    io.stderr.write(`oracle-gate prime: no primed result written: ${logText(result.why)}
`);
    return EXIT.error;
  }
  io.stderr.write(`oracle-gate prime: wrote ${logText(out)} for ${card.base || commit}
`);
  return EXIT.ok;
}

// src/cli/main.ts
var USAGE = `oracle-gate ${VERSION}: may an agent's pull request merge?

Usage:
  oracle-gate check --base REF [--head REF] [--repo DIR] [--policy PATH]
                    [--today YYYY-MM-DD] [--json FILE] [--markdown FILE] [--quiet]
                    [--base-results FILE] [--attestation FILE]
                    [--shard I/N --out FILE]
  oracle-gate merge FILE... [--repo DIR] [--json FILE] [--markdown FILE]
                    [--attestation FILE]
  oracle-gate prime --out FILE [--commit REF] [--repo DIR] [--policy PATH]
  oracle-gate init [--repo DIR] [--policy PATH] [--force]
  oracle-gate doctor [--ref REF] [--runs N] [--json FILE] [--markdown FILE]   (doctor --help)
  oracle-gate ledger add|check|list [options]   (oracle-gate ledger --help)
  oracle-gate --help | --version

check   judges HEAD (or --head) against the merge base with --base. The policy, ledger,
        fixtures, seeds and runner configuration are read from the merge base.
        Prints progress and a summary on stderr, the scorecard JSON on stdout
        (or into --json FILE).
prime   measures the base side of --commit (default HEAD) and stores it with its
        fingerprint; check --base-results FILE reuses it when the merge base and the
        fingerprint match, and runs the base as usual otherwise (the reason is logged).
--shard I/N --out FILE  runs only shard I of N of the voting test files on both sides
        and writes a shard scorecard (exit 0 unless the shard ended in error);
merge   merges the N shard scorecards into one verdict (an error when a shard is
        missing, duplicated, foreign or altered); --repo is the checkout of the commits.
--attestation FILE  an in-toto Statement (test-result predicate) over the --json file.
init    writes a commented starter policy (default ${DEFAULT_POLICY_PATH}).

Exit codes: 0 merge, 1 product, 2 policy, 3 no-vote, 4 error.
`;
var defaultIo = () => ({
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env
});
var COMMANDS = {
  check: runCheck,
  init: runInit,
  ledger: runLedgerCommand,
  prime: runPrime,
  merge: runMerge,
  doctor: runDoctor
};
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
  }
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : void 0;
  if (run) return run(rest, io);
  io.stderr.write(`oracle-gate: unknown command "${logText(command)}"

${USAGE}`);
  return EXIT.error;
}
async function runCheck(argv, io) {
  const parsed = parseFlags(argv, {
    base: { type: "string" },
    head: { type: "string" },
    repo: { type: "string" },
    policy: { type: "string" },
    today: { type: "string" },
    json: { type: "string" },
    markdown: { type: "string" },
    quiet: { type: "boolean", short: "q" },
    "base-results": { type: "string" },
    attestation: { type: "string" },
    shard: { type: "string" },
    out: { type: "string" },
    help: { type: "boolean", short: "h" }
  });
  if ("error" in parsed) return usageFailure(io, parsed.error, {});
  const v = parsed.values;
  if (v.help) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  if (!v.base) return usageFailure(io, "--base REF is required", v);
  if (v.attestation !== void 0 && v.json === void 0)
    return usageFailure(io, "--attestation needs --json FILE (its subject)", v);
  const repoDir = resolve8(io.cwd, v.repo ?? ".");
  const missing = folderProblem(repoDir);
  if (missing !== null) return usageFailure(io, `--repo: ${missing}`, v);
  const options = {
    repoDir,
    base: v.base,
    ...v.head !== void 0 ? { head: v.head } : {},
    policyPath: v.policy ?? DEFAULT_POLICY_PATH,
    ...v.today !== void 0 ? { today: v.today } : {},
    log: stderrLogger(io.stderr, !v.quiet),
    env: io.env,
    ...v["base-results"] !== void 0 ? {
      baseSource: primedBase(() => readPrimed(resolve8(io.cwd, v["base-results"] ?? "")), io.env)
    } : {}
  };
  if (v.shard !== void 0 || v.out !== void 0) return runShardCheck(options, v, io);
  return emitCard(await check(options), v, io, repoDir);
}
async function runShardCheck(options, v, io) {
  const shard = v.shard === void 0 ? "--out FILE needs --shard I/N" : parseShard(v.shard);
  if (typeof shard === "string") return usageFailure(io, shard, v);
  if (v.out === void 0) return usageFailure(io, "--shard I/N needs --out FILE", v);
  const card = await checkShard({ ...options, shard });
  await writeFile5(resolve8(io.cwd, v.out), JSON.stringify(card, null, 2) + "\n");
  io.stderr.write(humanSummary(card));
  io.stderr.write(`oracle-gate: shard ${shard.index}/${shard.total} written to ${logText(v.out)}
`);
  return card.verdict === "error" ? EXIT.error : EXIT.ok;
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
  return emitCard(card, v, io);
}
export {
  USAGE,
  main
};
