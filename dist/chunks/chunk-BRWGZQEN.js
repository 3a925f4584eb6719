import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  mdCellCode,
  mdCode,
  mdFence,
  mdText
} from "./chunk-2BXU6TTU.js";

// src/report/markdown.ts
var ICON = {
  merge: "\u2705",
  product: "\u274C",
  policy: "\u26D4",
  "no-vote": "\u26AA",
  error: "\u{1F4A5}"
};
var MEANING = {
  merge: "mergeable: the locked oracle agrees",
  product: "the product fails the oracle",
  policy: "the instrument or its governance was violated; the suite result does not count",
  "no-vote": "no oracle vote: nothing measured the patch",
  error: "the gate could not decide; this is never a pass"
};
function title(card) {
  const t = card.transitions;
  const figures = [
    `${t.fail_to_pass.length} hit(s)`,
    `${t.pass_to_fail.length} regression(s)`,
    `${card.votes.passed}/${card.votes.passed + card.votes.failed} voting passed`,
    `${card.votes.frozen} frozen`
  ];
  if (card.seeds.raw_fail_to_pass > 0 || card.seeds.oracle_hits > 0)
    figures.push(`${card.seeds.oracle_hits} seed hit(s)`);
  return `${card.verdict}: ${figures.join(", ")}`;
}
function renderMarkdown(card, options = {}) {
  const maxRows = options.maxRows ?? 50;
  const sections = [
    header(card),
    reasonsSection(card.reasons, maxRows),
    transitionsSection(card, maxRows),
    votesSection(card),
    seedsSection(card),
    debtSection(card, maxRows),
    runsSection(card),
    writeSetSection(card, maxRows),
    timingsSection(card)
  ].filter((s) => s !== "");
  const limit = options.maxChars ?? Infinity;
  const hint = `

_\u2026cut to fit; the full scorecard is ${options.fullCardHint ?? "in the JSON card"}._
`;
  let out = "";
  for (const section of sections) {
    const next = out === "" ? section : `${out}

${section}`;
    if (next.length + hint.length > limit) return truncate(out, limit - hint.length) + hint;
    out = next;
  }
  return out + "\n";
}
function truncate(text, limit) {
  if (text.length <= limit) return text;
  const cut = text.slice(0, Math.max(0, limit));
  const lastLine = cut.lastIndexOf("\n");
  return lastLine > 0 ? cut.slice(0, lastLine) : cut;
}
function header(card) {
  const lines = [
    `## ${ICON[card.verdict]} oracle-gate: \`${card.verdict}\``,
    "",
    `**${MEANING[card.verdict]}.** ${title(card).replace(/^[^:]+: /, "")}.`,
    "",
    `base ${mdCode(short(card.base))} \xB7 head ${mdCode(short(card.head))} \xB7 today ${mdText(card.today, { cell: false })} \xB7 policy ${mdCode(card.policy_path)} \xB7 oracle ${card.oracle.unchanged ? "unchanged" : card.oracle.base_digest ? "**changed**" : "not measured"}`
  ];
  if (card.campaign)
    lines.push(
      "",
      `campaign: seed ${card.campaign.seed}, max_examples ${card.campaign.max_examples}, wall_clock ${card.campaign.wall_clock}s`
    );
  return lines.join("\n");
}
function reasonsSection(reasons, maxRows) {
  if (reasons.length === 0) return "### Reasons\n\nNone: every condition holds.";
  const rows = reasons.slice(0, maxRows).map((r) => {
    const where = r.path ? mdCellCode(`${r.path}${r.line ? `:${r.line}` : ""}`) : "";
    return `| ${r.level === "failure" ? "\u2716" : r.level === "warning" ? "\u26A0" : "\u2139"} | ${mdCellCode(r.rule)} | ${where} | ${mdText(r.message)} |`;
  });
  return [
    `### Reasons (${reasons.length})`,
    "",
    "| | rule | where | message |",
    "|---|---|---|---|",
    ...rows,
    more(reasons.length, maxRows)
  ].filter(Boolean).join("\n");
}
function transitionsSection(card, maxRows) {
  const t = card.transitions;
  if (card.runs.length === 0) return "";
  const list = (name, ids) => ids.length === 0 ? "" : `**${name}** (${ids.length}): ${ids.slice(0, maxRows).map((id) => mdCode(id)).join(", ")}${ids.length > maxRows ? `, \u2026 ${ids.length - maxRows} more` : ""}`;
  return [
    "### Transitions (voting tests, base \u2192 head)",
    "",
    "| fail\u2192pass (hits) | pass\u2192fail | fail\u2192fail | pass\u2192pass | vanished |",
    "|---|---|---|---|---|",
    `| ${t.fail_to_pass.length} | ${t.pass_to_fail.length} | ${t.fail_to_fail.length} | ${t.pass_to_pass} | ${t.vanished.length} |`,
    "",
    list("hits", t.fail_to_pass),
    list("regressions", t.pass_to_fail),
    list("still failing", t.fail_to_fail),
    list("vanished", t.vanished),
    list("non-discriminating in-diff tests", card.diagnostics.non_discriminating)
  ].filter((line, i, all) => line !== "" || i > 0 && all[i - 1] !== "").join("\n").trimEnd();
}
function votesSection(card) {
  const v = card.votes;
  if (card.runs.length === 0) return "";
  const lines = [
    "### Votes",
    "",
    "| class | passed | failed | frozen |",
    "|---|---|---|---|",
    `| all voting | ${v.passed} | ${v.failed} | ${v.frozen} |`
  ];
  for (const [name, c] of Object.entries(v.by_class))
    lines.push(`| ${mdText(name)} | ${c.passed} | ${c.failed} | ${c.frozen} |`);
  lines.push("", `drafts run as diagnostics: ${v.drafts}`);
  if (card.flakes.length > 0) {
    lines.push(
      "",
      "**Flaky outcomes**",
      "",
      "| test | side | outcomes | ledger |",
      "|---|---|---|---|"
    );
    for (const f of card.flakes)
      lines.push(
        `| ${mdCellCode(f.test)} | ${f.side} | ${f.outcomes.map((o) => mdText(o)).join(" \u2192 ")} | ${f.ledger_id ? mdText(f.ledger_id) : "\u2014"} |`
      );
  }
  return lines.join("\n");
}
function seedsSection(card) {
  const s = card.seeds;
  if (s.raw_fail_to_pass === 0 && s.oracle_hits === 0 && s.hit_ids.length === 0) return "";
  return [
    "### Seeds",
    "",
    `oracle hits **${s.oracle_hits}** of ${s.raw_fail_to_pass} raw fail\u2192pass (min distance ${s.min_distance})`,
    s.hit_ids.length ? `kept: ${s.hit_ids.map((id) => mdCode(id)).join(", ")}` : ""
  ].filter(Boolean).join("\n");
}
function debtSection(card, maxRows) {
  if (card.freeze_debt.length === 0) return "";
  const rows = card.freeze_debt.slice(0, maxRows).map(
    (d) => `| ${mdText(d.id)} | ${mdCellCode(d.test)} | ${mdText(d.owner)} | ${mdText(d.expires_on)} | ${d.days_overdue} |`
  );
  return [
    "### Freeze debt",
    "",
    "| row | test | owner | expired on | days overdue |",
    "|---|---|---|---|---|",
    ...rows,
    more(card.freeze_debt.length, maxRows)
  ].filter(Boolean).join("\n");
}
function runsSection(card) {
  if (card.runs.length === 0) return "";
  const rows = card.runs.map(
    (r) => `| ${r.side} | ${r.timed_out ? "timed out" : r.exit_code ?? "killed"} | ${r.tests} | ${(r.duration_ms / 1e3).toFixed(1)} s | ${r.setup ?? "\u2014"}${r.setup_reason ? ` (${mdText(r.setup_reason)})` : ""} |`
  );
  const tails = card.runs.filter((r) => r.log_tail).map(
    (r) => `<details><summary>${r.side} output (tail)</summary>

${mdFence(r.log_tail ?? "")}
</details>`
  );
  return [
    "### Runs",
    "",
    "| side | exit | tests | time | setup |",
    "|---|---|---|---|---|",
    ...rows,
    ...tails.length ? ["", ...tails] : []
  ].join("\n");
}
function writeSetSection(card, maxRows) {
  if (card.write_set.length === 0) return "";
  const rows = card.write_set.slice(0, maxRows).map(
    (w) => `| ${mdCellCode(w.previous_path ? `${w.previous_path} \u2192 ${w.path}` : w.path)} | ${w.status} | ${w.plane} | ${w.action} |`
  );
  return [
    `### Write set (${card.write_set.length})`,
    "",
    "| path | status | plane | action |",
    "|---|---|---|---|",
    ...rows,
    more(card.write_set.length, maxRows)
  ].filter(Boolean).join("\n");
}
function timingsSection(card) {
  const entries = Object.entries(card.timings_ms);
  if (entries.length === 0) return "";
  return `<sub>timings: ${entries.map(([k, v]) => `${k} ${(v / 1e3).toFixed(2)} s`).join(" \xB7 ")} \xB7 oracle-gate ${card.version}</sub>`;
}
function more(total, shown) {
  return total > shown ? `
_\u2026 and ${total - shown} more_` : "";
}
function short(sha) {
  return sha ? sha.slice(0, 12) : "?";
}

export {
  title,
  renderMarkdown
};
