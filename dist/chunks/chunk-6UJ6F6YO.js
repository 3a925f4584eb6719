import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  byCodeUnit
} from "./chunk-Q2EL2VEE.js";

// src/verdict/verdict.ts
var RULE_VERDICT = {
  "config-invalid": "error",
  "gate-error": "error",
  "protected-path": "policy",
  "oracle-digest": "policy",
  "fixture-digest": "policy",
  "runner-tampered": "policy",
  "ungoverned-test": "policy",
  "skip-marker": "policy",
  "literal-overlap": "policy",
  "judge-import": "policy",
  "oracle-reach": "policy",
  "ledger-invalid": "policy",
  "ledger-expired": "policy",
  "ledger-expiring": "policy",
  "ledger-stale": "policy",
  "instrument-approval": "policy",
  "oracle-failed": "product",
  regression: "product",
  "vanished-oracle": "product",
  "flaky-oracle": "product",
  "suite-timeout": "product",
  "setup-failed": "product",
  "seed-regression": "product",
  "report-mismatch": "product",
  "unexplained-hit": "product",
  "weak-evidence": "product",
  "empty-vote": "no-vote",
  "insufficient-hits": "no-vote",
  "non-discriminating": "no-vote",
  "not-measured": "no-vote",
  diagnostic: "no-vote"
};
var PRECEDENCE = ["error", "policy", "product", "no-vote"];
function decide(reasons) {
  const present = /* @__PURE__ */ new Set();
  for (const reason of reasons) {
    if (reason.level === "failure") present.add(RULE_VERDICT[reason.rule]);
  }
  return PRECEDENCE.find((v) => present.has(v)) ?? "merge";
}
var EXIT_CODES = {
  merge: 0,
  product: 1,
  policy: 2,
  "no-vote": 3,
  error: 4
};
function exitCode(verdict) {
  return EXIT_CODES[verdict];
}
function conclusion(verdict) {
  return verdict === "merge" ? "success" : "failure";
}
function sortReasons(reasons) {
  const levelRank = { failure: 0, warning: 1, notice: 2 };
  const verdictRank = (r) => PRECEDENCE.indexOf(RULE_VERDICT[r.rule]);
  return [...reasons].sort(
    (a, b) => levelRank[a.level] - levelRank[b.level] || verdictRank(a) - verdictRank(b) || byCodeUnit(a.path ?? "", b.path ?? "") || (a.line ?? 0) - (b.line ?? 0)
  );
}

export {
  RULE_VERDICT,
  decide,
  EXIT_CODES,
  exitCode,
  conclusion,
  sortReasons
};
