import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);

// src/json.ts
function isRecord(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
function canonicalJson(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== void 0).sort(([a], [b]) => byCodeUnit(a, b));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}
function byCodeUnit(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}
function shortSha(sha) {
  return sha ? sha.slice(0, 12) : "?";
}

// src/report/sanitize.ts
var LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;
var INVISIBLE = (
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g
);
function hex(code, width) {
  return code.toString(16).padStart(width, "0");
}
function visibleEscape(ch) {
  const code = ch.codePointAt(0) ?? 0;
  if (ch === "\n") return "\\n";
  if (ch === "\r") return "\\r";
  return code <= 255 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
}
function logText(text) {
  return String(text).replace(/\r\n/g, "\n").replace(LINE_BREAK, visibleEscape).replace(INVISIBLE, visibleEscape);
}
function mayBeWorkflowCommand(line) {
  return /^\s*::/.test(line) || line.includes("##[");
}
function fencedLogLines(text, token) {
  const line = logText(text);
  if (!mayBeWorkflowCommand(line)) return [line];
  const t = token();
  return [`::stop-commands::${t}`, line, `::${t}::`];
}
function plainText(text) {
  return String(text).replace(/\r\n?/g, "\n").replace(/[\v\f\u0085\u2028\u2029]/g, visibleEscape).replace(INVISIBLE, visibleEscape);
}
var MD_INLINE = /[\\`*_~[\]!|]/g;
var HTML_CHARS = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
var LINKY = /@|:\/\/|(^|[^\w])www\.|#\d/i;
function oneLine(text) {
  return String(text).replace(LINE_BREAK, " ").replace(/\t/g, " ").replace(INVISIBLE, (ch) => `U+${hex(ch.codePointAt(0) ?? 0, 4).toUpperCase()}`);
}
function escapeInline(token) {
  return token.replace(/[&<>]/g, (ch) => HTML_CHARS[ch] ?? ch).replace(MD_INLINE, (ch) => `\\${ch}`);
}
function neutraliseLeading(text) {
  return text.replace(/^[ ]+/, "").replace(/^([#+\-=])/, "\\$1").replace(/^(\d+)([.)])/, "$1\\$2");
}
function mdText(text, options = {}) {
  const cell = options.cell ?? true;
  const parts = oneLine(text).split(/( +)/);
  const out = parts.map(
    (part) => part.trim() === "" ? part : LINKY.test(part) ? codeSpan(part, cell) : escapeInline(part)
  ).join("");
  return neutraliseLeading(out);
}
function mdQuoted(text, options = {}) {
  const cell = options.cell ?? true;
  return oneLine(text).split(/(`[^`]*`)/).map(
    (part) => part.length >= 2 && part.startsWith("`") && part.endsWith("`") ? codeSpan(part.slice(1, -1), cell) : (
      // The spaces around the pieces stay; mdText would drop a leading one.
      part.replace(/\S(?:.*\S)?/s, (t) => mdText(t, { cell }))
    )
  ).join("");
}
function mdCellCode(text) {
  return codeSpan(oneLine(text), true);
}
function mdCode(text) {
  return codeSpan(oneLine(text), false);
}
function longestRun(text, ch) {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  return longest;
}
function codeSpan(text, cell) {
  if (text === "") return "` `";
  const body = cell ? text.replace(/\|/g, "\\|") : text;
  const fence = "`".repeat(longestRun(body, "`") + 1);
  const pad = body.startsWith("`") || body.endsWith("`") || /^ .* $/.test(body) ? " " : "";
  return `${fence}${pad}${body}${pad}${fence}`;
}
function mdFence(text) {
  const body = String(text).replace(LINE_BREAK, "\n").replace(INVISIBLE, (ch) => `U+${hex(ch.codePointAt(0) ?? 0, 4).toUpperCase()}`);
  const fence = "`".repeat(Math.max(3, longestRun(body, "`") + 1, longestRun(body, "~") + 1));
  return `${fence}
${body}${body.endsWith("\n") ? "" : "\n"}${fence}`;
}

export {
  isRecord,
  canonicalJson,
  byCodeUnit,
  shortSha,
  logText,
  fencedLogLines,
  plainText,
  mdText,
  mdQuoted,
  mdCellCode,
  mdCode,
  mdFence
};
