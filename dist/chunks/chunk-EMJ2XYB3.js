import { createRequire as __oracleGateCreateRequire } from 'module'; const require = __oracleGateCreateRequire(import.meta.url);
import {
  decide,
  sortReasons
} from "./chunk-KK2OQ5NQ.js";
import {
  VERSION
} from "./chunk-4TO6EUUJ.js";
import {
  DEFAULT_POLICY_PATH,
  GateError,
  documentValue,
  errorMessage,
  findNode,
  freeze,
  instrumentTouched,
  isInstrumentFailure,
  isInstrumentPlane,
  parsePolicy,
  policySchema,
  reasonFromError,
  require_ajv,
  require_dist,
  splitFiles,
  uniteBySchema,
  utcToday,
  votingTestFiles
} from "./chunk-Z6EMB3GS.js";
import {
  byCodeUnit,
  canonicalJson,
  isRecord,
  logText,
  shortSha
} from "./chunk-AZRYRF6U.js";
import {
  __commonJS,
  __toESM
} from "./chunk-BLJCPJ76.js";

// node_modules/picomatch/lib/constants.js
var require_constants = __commonJS({
  "node_modules/picomatch/lib/constants.js"(exports, module2) {
    "use strict";
    var WIN_SLASH = "\\\\/";
    var WIN_NO_SLASH = `[^${WIN_SLASH}]`;
    var DEFAULT_MAX_EXTGLOB_RECURSION = 0;
    var DOT_LITERAL = "\\.";
    var PLUS_LITERAL = "\\+";
    var QMARK_LITERAL = "\\?";
    var SLASH_LITERAL = "\\/";
    var ONE_CHAR = "(?=.)";
    var QMARK = "[^/]";
    var END_ANCHOR = `(?:${SLASH_LITERAL}|$)`;
    var START_ANCHOR = `(?:^|${SLASH_LITERAL})`;
    var DOTS_SLASH = `${DOT_LITERAL}{1,2}${END_ANCHOR}`;
    var NO_DOT = `(?!${DOT_LITERAL})`;
    var NO_DOTS = `(?!${START_ANCHOR}${DOTS_SLASH})`;
    var NO_DOT_SLASH = `(?!${DOT_LITERAL}{0,1}${END_ANCHOR})`;
    var NO_DOTS_SLASH = `(?!${DOTS_SLASH})`;
    var QMARK_NO_DOT = `[^.${SLASH_LITERAL}]`;
    var STAR = `${QMARK}*?`;
    var SEP = "/";
    var POSIX_CHARS = {
      DOT_LITERAL,
      PLUS_LITERAL,
      QMARK_LITERAL,
      SLASH_LITERAL,
      ONE_CHAR,
      QMARK,
      END_ANCHOR,
      DOTS_SLASH,
      NO_DOT,
      NO_DOTS,
      NO_DOT_SLASH,
      NO_DOTS_SLASH,
      QMARK_NO_DOT,
      STAR,
      START_ANCHOR,
      SEP
    };
    var WINDOWS_CHARS = {
      ...POSIX_CHARS,
      SLASH_LITERAL: `[${WIN_SLASH}]`,
      QMARK: WIN_NO_SLASH,
      STAR: `${WIN_NO_SLASH}*?`,
      DOTS_SLASH: `${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$)`,
      NO_DOT: `(?!${DOT_LITERAL})`,
      NO_DOTS: `(?!(?:^|[${WIN_SLASH}])${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
      NO_DOT_SLASH: `(?!${DOT_LITERAL}{0,1}(?:[${WIN_SLASH}]|$))`,
      NO_DOTS_SLASH: `(?!${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
      QMARK_NO_DOT: `[^.${WIN_SLASH}]`,
      START_ANCHOR: `(?:^|[${WIN_SLASH}])`,
      END_ANCHOR: `(?:[${WIN_SLASH}]|$)`,
      SEP: "\\"
    };
    var POSIX_REGEX_SOURCE = {
      __proto__: null,
      alnum: "a-zA-Z0-9",
      alpha: "a-zA-Z",
      ascii: "\\x00-\\x7F",
      blank: " \\t",
      cntrl: "\\x00-\\x1F\\x7F",
      digit: "0-9",
      graph: "\\x21-\\x7E",
      lower: "a-z",
      print: "\\x20-\\x7E ",
      punct: "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",
      space: " \\t\\r\\n\\v\\f",
      upper: "A-Z",
      word: "A-Za-z0-9_",
      xdigit: "A-Fa-f0-9"
    };
    module2.exports = {
      DEFAULT_MAX_EXTGLOB_RECURSION,
      MAX_LENGTH: 1024 * 64,
      POSIX_REGEX_SOURCE,
      // regular expressions
      REGEX_BACKSLASH: /\\(?![*+?^${}(|)[\]])/g,
      REGEX_NON_SPECIAL_CHARS: /^[^@![\].,$*+?^{}()|\\/]+/,
      REGEX_SPECIAL_CHARS: /[-*+?.^${}(|)[\]]/,
      REGEX_SPECIAL_CHARS_BACKREF: /(\\?)((\W)(\3*))/g,
      REGEX_SPECIAL_CHARS_GLOBAL: /([-*+?.^${}(|)[\]])/g,
      REGEX_REMOVE_BACKSLASH: /(?:\[.*?[^\\]\]|\\(?=.))/g,
      // Replace globs with equivalent patterns to reduce parsing time.
      REPLACEMENTS: {
        __proto__: null,
        "***": "*",
        "**/**": "**",
        "**/**/**": "**"
      },
      // Digits
      CHAR_0: 48,
      /* 0 */
      CHAR_9: 57,
      /* 9 */
      // Alphabet chars.
      CHAR_UPPERCASE_A: 65,
      /* A */
      CHAR_LOWERCASE_A: 97,
      /* a */
      CHAR_UPPERCASE_Z: 90,
      /* Z */
      CHAR_LOWERCASE_Z: 122,
      /* z */
      CHAR_LEFT_PARENTHESES: 40,
      /* ( */
      CHAR_RIGHT_PARENTHESES: 41,
      /* ) */
      CHAR_ASTERISK: 42,
      /* * */
      // Non-alphabetic chars.
      CHAR_AMPERSAND: 38,
      /* & */
      CHAR_AT: 64,
      /* @ */
      CHAR_BACKWARD_SLASH: 92,
      /* \ */
      CHAR_CARRIAGE_RETURN: 13,
      /* \r */
      CHAR_CIRCUMFLEX_ACCENT: 94,
      /* ^ */
      CHAR_COLON: 58,
      /* : */
      CHAR_COMMA: 44,
      /* , */
      CHAR_DOT: 46,
      /* . */
      CHAR_DOUBLE_QUOTE: 34,
      /* " */
      CHAR_EQUAL: 61,
      /* = */
      CHAR_EXCLAMATION_MARK: 33,
      /* ! */
      CHAR_FORM_FEED: 12,
      /* \f */
      CHAR_FORWARD_SLASH: 47,
      /* / */
      CHAR_GRAVE_ACCENT: 96,
      /* ` */
      CHAR_HASH: 35,
      /* # */
      CHAR_HYPHEN_MINUS: 45,
      /* - */
      CHAR_LEFT_ANGLE_BRACKET: 60,
      /* < */
      CHAR_LEFT_CURLY_BRACE: 123,
      /* { */
      CHAR_LEFT_SQUARE_BRACKET: 91,
      /* [ */
      CHAR_LINE_FEED: 10,
      /* \n */
      CHAR_NO_BREAK_SPACE: 160,
      /* \u00A0 */
      CHAR_PERCENT: 37,
      /* % */
      CHAR_PLUS: 43,
      /* + */
      CHAR_QUESTION_MARK: 63,
      /* ? */
      CHAR_RIGHT_ANGLE_BRACKET: 62,
      /* > */
      CHAR_RIGHT_CURLY_BRACE: 125,
      /* } */
      CHAR_RIGHT_SQUARE_BRACKET: 93,
      /* ] */
      CHAR_SEMICOLON: 59,
      /* ; */
      CHAR_SINGLE_QUOTE: 39,
      /* ' */
      CHAR_SPACE: 32,
      /*   */
      CHAR_TAB: 9,
      /* \t */
      CHAR_UNDERSCORE: 95,
      /* _ */
      CHAR_VERTICAL_LINE: 124,
      /* | */
      CHAR_ZERO_WIDTH_NOBREAK_SPACE: 65279,
      /* \uFEFF */
      /**
       * Create EXTGLOB_CHARS
       */
      extglobChars(chars) {
        return {
          "!": { type: "negate", open: "(?:(?!(?:", close: `))${chars.STAR})` },
          "?": { type: "qmark", open: "(?:", close: ")?" },
          "+": { type: "plus", open: "(?:", close: ")+" },
          "*": { type: "star", open: "(?:", close: ")*" },
          "@": { type: "at", open: "(?:", close: ")" }
        };
      },
      /**
       * Create GLOB_CHARS
       */
      globChars(win32) {
        return win32 === true ? WINDOWS_CHARS : POSIX_CHARS;
      }
    };
  }
});

// node_modules/picomatch/lib/utils.js
var require_utils = __commonJS({
  "node_modules/picomatch/lib/utils.js"(exports) {
    "use strict";
    var {
      REGEX_BACKSLASH,
      REGEX_REMOVE_BACKSLASH,
      REGEX_SPECIAL_CHARS,
      REGEX_SPECIAL_CHARS_GLOBAL
    } = require_constants();
    exports.isObject = (val) => val !== null && typeof val === "object" && !Array.isArray(val);
    exports.hasRegexChars = (str3) => REGEX_SPECIAL_CHARS.test(str3);
    exports.isRegexChar = (str3) => str3.length === 1 && exports.hasRegexChars(str3);
    exports.escapeRegex = (str3) => str3.replace(REGEX_SPECIAL_CHARS_GLOBAL, "\\$1");
    exports.toPosixSlashes = (str3) => str3.replace(REGEX_BACKSLASH, "/");
    exports.isWindows = () => {
      if (typeof navigator !== "undefined" && navigator.platform) {
        const platform2 = navigator.platform.toLowerCase();
        return platform2 === "win32" || platform2 === "windows";
      }
      if (typeof process !== "undefined" && process.platform) {
        return process.platform === "win32";
      }
      return false;
    };
    exports.removeBackslashes = (str3) => {
      return str3.replace(REGEX_REMOVE_BACKSLASH, (match) => {
        return match === "\\" ? "" : match;
      });
    };
    exports.escapeLast = (input, char, lastIdx) => {
      const idx = input.lastIndexOf(char, lastIdx);
      if (idx === -1) return input;
      if (input[idx - 1] === "\\") return exports.escapeLast(input, char, idx - 1);
      return `${input.slice(0, idx)}\\${input.slice(idx)}`;
    };
    exports.removePrefix = (input, state = {}) => {
      let output = input;
      if (output.startsWith("./")) {
        output = output.slice(2);
        state.prefix = "./";
      }
      return output;
    };
    exports.wrapOutput = (input, state = {}, options = {}) => {
      const prepend = options.contains ? "" : "^";
      const append = options.contains ? "" : "$";
      let output = `${prepend}(?:${input})${append}`;
      if (state.negated === true) {
        output = `(?:^(?!${output}).*$)`;
      }
      return output;
    };
    exports.basename = (path, { windows } = {}) => {
      const segs = path.split(windows ? /[\\/]/ : "/");
      const last = segs[segs.length - 1];
      if (last === "") {
        return segs[segs.length - 2];
      }
      return last;
    };
  }
});

// node_modules/picomatch/lib/scan.js
var require_scan = __commonJS({
  "node_modules/picomatch/lib/scan.js"(exports, module2) {
    "use strict";
    var utils = require_utils();
    var {
      CHAR_ASTERISK,
      /* * */
      CHAR_AT,
      /* @ */
      CHAR_BACKWARD_SLASH,
      /* \ */
      CHAR_COMMA,
      /* , */
      CHAR_DOT,
      /* . */
      CHAR_EXCLAMATION_MARK,
      /* ! */
      CHAR_FORWARD_SLASH,
      /* / */
      CHAR_LEFT_CURLY_BRACE,
      /* { */
      CHAR_LEFT_PARENTHESES,
      /* ( */
      CHAR_LEFT_SQUARE_BRACKET,
      /* [ */
      CHAR_PLUS,
      /* + */
      CHAR_QUESTION_MARK,
      /* ? */
      CHAR_RIGHT_CURLY_BRACE,
      /* } */
      CHAR_RIGHT_PARENTHESES,
      /* ) */
      CHAR_RIGHT_SQUARE_BRACKET
      /* ] */
    } = require_constants();
    var isPathSeparator = (code) => {
      return code === CHAR_FORWARD_SLASH || code === CHAR_BACKWARD_SLASH;
    };
    var depth2 = (token) => {
      if (token.isPrefix !== true) {
        token.depth = token.isGlobstar ? Infinity : 1;
      }
    };
    var scan = (input, options) => {
      const opts = options || {};
      const length = input.length - 1;
      const scanToEnd = opts.parts === true || opts.tokens === true || opts.scanToEnd === true;
      const slashes = [];
      const tokens = [];
      const parts2 = [];
      let str3 = input;
      let index = -1;
      let start2 = 0;
      let lastIndex = 0;
      let isBrace = false;
      let isBracket = false;
      let isGlob = false;
      let isExtglob = false;
      let isGlobstar = false;
      let braceEscaped = false;
      let backslashes = false;
      let negated = false;
      let negatedExtglob = false;
      let finished = false;
      let braces2 = 0;
      let prev;
      let code;
      let token = { value: "", depth: 0, isGlob: false };
      const eos = () => index >= length;
      const peek = () => str3.charCodeAt(index + 1);
      const advance = () => {
        prev = code;
        return str3.charCodeAt(++index);
      };
      while (index < length) {
        code = advance();
        let next;
        if (code === CHAR_BACKWARD_SLASH) {
          backslashes = token.backslashes = true;
          code = advance();
          if (code === CHAR_LEFT_CURLY_BRACE) {
            braceEscaped = true;
          }
          continue;
        }
        if (braceEscaped === true || code === CHAR_LEFT_CURLY_BRACE) {
          braces2++;
          while (eos() !== true && (code = advance())) {
            if (code === CHAR_BACKWARD_SLASH) {
              backslashes = token.backslashes = true;
              advance();
              continue;
            }
            if (code === CHAR_LEFT_CURLY_BRACE) {
              braces2++;
              continue;
            }
            if (braceEscaped !== true && code === CHAR_DOT && (code = advance()) === CHAR_DOT) {
              isBrace = token.isBrace = true;
              isGlob = token.isGlob = true;
              finished = true;
              if (scanToEnd === true) {
                continue;
              }
              break;
            }
            if (braceEscaped !== true && code === CHAR_COMMA) {
              isBrace = token.isBrace = true;
              isGlob = token.isGlob = true;
              finished = true;
              if (scanToEnd === true) {
                continue;
              }
              break;
            }
            if (code === CHAR_RIGHT_CURLY_BRACE) {
              braces2--;
              if (braces2 === 0) {
                braceEscaped = false;
                isBrace = token.isBrace = true;
                finished = true;
                break;
              }
            }
          }
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_FORWARD_SLASH) {
          slashes.push(index);
          tokens.push(token);
          token = { value: "", depth: 0, isGlob: false };
          if (finished === true) continue;
          if (prev === CHAR_DOT && index === start2 + 1) {
            start2 += 2;
            continue;
          }
          lastIndex = index + 1;
          continue;
        }
        if (opts.noext !== true) {
          const isExtglobChar = code === CHAR_PLUS || code === CHAR_AT || code === CHAR_ASTERISK || code === CHAR_QUESTION_MARK || code === CHAR_EXCLAMATION_MARK;
          if (isExtglobChar === true && peek() === CHAR_LEFT_PARENTHESES) {
            isGlob = token.isGlob = true;
            isExtglob = token.isExtglob = true;
            finished = true;
            if (code === CHAR_EXCLAMATION_MARK && index === start2) {
              negatedExtglob = true;
            }
            if (scanToEnd === true) {
              let parens = 0;
              while (eos() !== true && (code = advance())) {
                if (code === CHAR_BACKWARD_SLASH) {
                  backslashes = token.backslashes = true;
                  advance();
                  continue;
                }
                if (code === CHAR_LEFT_PARENTHESES) {
                  parens++;
                  continue;
                }
                if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
                  finished = true;
                  break;
                }
              }
              continue;
            }
            break;
          }
        }
        if (code === CHAR_ASTERISK) {
          if (prev === CHAR_ASTERISK) isGlobstar = token.isGlobstar = true;
          isGlob = token.isGlob = true;
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_QUESTION_MARK) {
          isGlob = token.isGlob = true;
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_LEFT_SQUARE_BRACKET) {
          while (eos() !== true && (next = advance())) {
            if (next === CHAR_BACKWARD_SLASH) {
              backslashes = token.backslashes = true;
              advance();
              continue;
            }
            if (next === CHAR_RIGHT_SQUARE_BRACKET) {
              isBracket = token.isBracket = true;
              isGlob = token.isGlob = true;
              finished = true;
              break;
            }
          }
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (opts.nonegate !== true && code === CHAR_EXCLAMATION_MARK && index === start2) {
          negated = token.negated = true;
          start2++;
          continue;
        }
        if (opts.noparen !== true && code === CHAR_LEFT_PARENTHESES) {
          isGlob = token.isGlob = true;
          if (scanToEnd === true) {
            let parens = 1;
            while (eos() !== true && (code = advance())) {
              if (code === CHAR_BACKWARD_SLASH) {
                backslashes = token.backslashes = true;
                advance();
                continue;
              }
              if (code === CHAR_LEFT_PARENTHESES) {
                parens++;
                continue;
              }
              if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
                finished = true;
                break;
              }
            }
            continue;
          }
          break;
        }
        if (isGlob === true) {
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
      }
      if (opts.noext === true) {
        isExtglob = false;
        isGlob = false;
      }
      let base = str3;
      let prefix = "";
      let glob = "";
      if (start2 > 0) {
        prefix = str3.slice(0, start2);
        str3 = str3.slice(start2);
        lastIndex -= start2;
      }
      if (base && isGlob === true && lastIndex > 0) {
        base = str3.slice(0, lastIndex);
        glob = str3.slice(lastIndex);
      } else if (isGlob === true) {
        base = "";
        glob = str3;
      } else {
        base = str3;
      }
      if (base && base !== "" && base !== "/" && base !== str3) {
        if (isPathSeparator(base.charCodeAt(base.length - 1))) {
          base = base.slice(0, -1);
        }
      }
      if (opts.unescape === true) {
        if (glob) glob = utils.removeBackslashes(glob);
        if (base && backslashes === true) {
          base = utils.removeBackslashes(base);
        }
      }
      const state = {
        prefix,
        input,
        start: start2,
        base,
        glob,
        isBrace,
        isBracket,
        isGlob,
        isExtglob,
        isGlobstar,
        negated,
        negatedExtglob
      };
      if (opts.tokens === true) {
        state.maxDepth = 0;
        if (!isPathSeparator(code)) {
          tokens.push(token);
        }
        state.tokens = tokens;
      }
      if (opts.parts === true || opts.tokens === true) {
        let prevIndex;
        for (let idx = 0; idx < slashes.length; idx++) {
          const n2 = prevIndex !== void 0 ? prevIndex + 1 : start2;
          const i2 = slashes[idx];
          const value2 = input.slice(n2, i2);
          if (opts.tokens) {
            if (idx === 0 && start2 !== 0) {
              tokens[idx].isPrefix = true;
              tokens[idx].value = prefix;
            } else {
              tokens[idx].value = value2;
            }
            depth2(tokens[idx]);
            state.maxDepth += tokens[idx].depth;
          }
          if (i2 >= start2) {
            parts2.push(value2);
            prevIndex = i2;
          }
        }
        const n = prevIndex !== void 0 ? prevIndex + 1 : start2;
        const value = input.slice(n);
        parts2.push(value);
        if (opts.tokens && prevIndex && prevIndex + 1 < input.length) {
          tokens[tokens.length - 1].value = value;
          depth2(tokens[tokens.length - 1]);
          state.maxDepth += tokens[tokens.length - 1].depth;
        }
        state.slashes = slashes;
        state.parts = parts2;
      }
      return state;
    };
    module2.exports = scan;
  }
});

// node_modules/picomatch/lib/parse.js
var require_parse = __commonJS({
  "node_modules/picomatch/lib/parse.js"(exports, module2) {
    "use strict";
    var constants4 = require_constants();
    var utils = require_utils();
    var {
      MAX_LENGTH,
      POSIX_REGEX_SOURCE,
      REGEX_NON_SPECIAL_CHARS,
      REGEX_SPECIAL_CHARS_BACKREF,
      REPLACEMENTS
    } = constants4;
    var expandRange = (args3, options) => {
      if (typeof options.expandRange === "function") {
        return options.expandRange(...args3, options);
      }
      args3.sort();
      const value = `[${args3.join("-")}]`;
      try {
        new RegExp(value);
      } catch (ex) {
        return args3.map((v) => utils.escapeRegex(v)).join("..");
      }
      return value;
    };
    var syntaxError = (type, char) => {
      return `Missing ${type}: "${char}" - use "\\\\${char}" to match literal characters`;
    };
    var splitTopLevel = (input) => {
      const parts2 = [];
      let bracket = 0;
      let paren = 0;
      let quote3 = 0;
      let value = "";
      let escaped = false;
      for (const ch of input) {
        if (escaped === true) {
          value += ch;
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          value += ch;
          escaped = true;
          continue;
        }
        if (ch === '"') {
          quote3 = quote3 === 1 ? 0 : 1;
          value += ch;
          continue;
        }
        if (quote3 === 0) {
          if (ch === "[") {
            bracket++;
          } else if (ch === "]" && bracket > 0) {
            bracket--;
          } else if (bracket === 0) {
            if (ch === "(") {
              paren++;
            } else if (ch === ")" && paren > 0) {
              paren--;
            } else if (ch === "|" && paren === 0) {
              parts2.push(value);
              value = "";
              continue;
            }
          }
        }
        value += ch;
      }
      parts2.push(value);
      return parts2;
    };
    var isPlainBranch = (branch) => {
      let escaped = false;
      for (const ch of branch) {
        if (escaped === true) {
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          escaped = true;
          continue;
        }
        if (/[?*+@!()[\]{}]/.test(ch)) {
          return false;
        }
      }
      return true;
    };
    var normalizeSimpleBranch = (branch) => {
      let value = branch.trim();
      let changed = true;
      while (changed === true) {
        changed = false;
        if (/^@\([^\\()[\]{}|]+\)$/.test(value)) {
          value = value.slice(2, -1);
          changed = true;
        }
      }
      if (!isPlainBranch(value)) {
        return;
      }
      return value.replace(/\\(.)/g, "$1");
    };
    var hasRepeatedCharPrefixOverlap = (branches) => {
      const values = branches.map(normalizeSimpleBranch).filter(Boolean);
      for (let i2 = 0; i2 < values.length; i2++) {
        for (let j = i2 + 1; j < values.length; j++) {
          const a = values[i2];
          const b = values[j];
          const char = a[0];
          if (!char || a !== char.repeat(a.length) || b !== char.repeat(b.length)) {
            continue;
          }
          if (a === b || a.startsWith(b) || b.startsWith(a)) {
            return true;
          }
        }
      }
      return false;
    };
    var parseRepeatedExtglob = (pattern, requireEnd = true) => {
      if (pattern[0] !== "+" && pattern[0] !== "*" || pattern[1] !== "(") {
        return;
      }
      let bracket = 0;
      let paren = 0;
      let quote3 = 0;
      let escaped = false;
      for (let i2 = 1; i2 < pattern.length; i2++) {
        const ch = pattern[i2];
        if (escaped === true) {
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          escaped = true;
          continue;
        }
        if (ch === '"') {
          quote3 = quote3 === 1 ? 0 : 1;
          continue;
        }
        if (quote3 === 1) {
          continue;
        }
        if (ch === "[") {
          bracket++;
          continue;
        }
        if (ch === "]" && bracket > 0) {
          bracket--;
          continue;
        }
        if (bracket > 0) {
          continue;
        }
        if (ch === "(") {
          paren++;
          continue;
        }
        if (ch === ")") {
          paren--;
          if (paren === 0) {
            if (requireEnd === true && i2 !== pattern.length - 1) {
              return;
            }
            return {
              type: pattern[0],
              body: pattern.slice(2, i2),
              end: i2
            };
          }
        }
      }
    };
    var buildCharClassStar = (chars) => {
      const source = chars.length === 1 ? utils.escapeRegex(chars[0]) : `[${chars.map((ch) => utils.escapeRegex(ch)).join("")}]`;
      return `${source}*`;
    };
    var getStarExtglobSequenceChars = (pattern) => {
      let index = 0;
      const chars = [];
      while (index < pattern.length) {
        const match = parseRepeatedExtglob(pattern.slice(index), false);
        if (!match || match.type !== "*") {
          return;
        }
        const branches = splitTopLevel(match.body).map((branch2) => branch2.trim());
        if (branches.length !== 1) {
          return;
        }
        const branch = normalizeSimpleBranch(branches[0]);
        if (!branch || branch.length !== 1) {
          return;
        }
        chars.push(branch);
        index += match.end + 1;
      }
      if (chars.length < 1) {
        return;
      }
      return chars;
    };
    var repeatedExtglobRecursion = (pattern) => {
      let depth2 = 0;
      let value = pattern.trim();
      let match = parseRepeatedExtglob(value);
      while (match) {
        depth2++;
        value = match.body.trim();
        match = parseRepeatedExtglob(value);
      }
      return depth2;
    };
    var analyzeRepeatedExtglob = (body2, options) => {
      if (options.maxExtglobRecursion === false) {
        return { risky: false };
      }
      const max = typeof options.maxExtglobRecursion === "number" ? options.maxExtglobRecursion : constants4.DEFAULT_MAX_EXTGLOB_RECURSION;
      const branches = splitTopLevel(body2).map((branch) => branch.trim());
      if (branches.length > 1) {
        if (branches.some((branch) => branch === "") || branches.some((branch) => /^[*?]+$/.test(branch)) || hasRepeatedCharPrefixOverlap(branches)) {
          return { risky: true };
        }
      }
      const safeChars = [];
      let sawStarSequence = false;
      let combinable = true;
      for (const branch of branches) {
        const chars = getStarExtglobSequenceChars(branch);
        if (chars) {
          sawStarSequence = true;
          safeChars.push(...chars);
          continue;
        }
        const literal = normalizeSimpleBranch(branch);
        if (literal && literal.length === 1) {
          safeChars.push(literal);
          continue;
        }
        combinable = false;
        if (repeatedExtglobRecursion(branch) > max) {
          return { risky: true };
        }
      }
      if (sawStarSequence) {
        return combinable ? { risky: true, safeOutput: buildCharClassStar([...new Set(safeChars)]) } : { risky: true };
      }
      return { risky: false };
    };
    var parse = (input, options) => {
      if (typeof input !== "string") {
        throw new TypeError("Expected a string");
      }
      input = REPLACEMENTS[input] || input;
      const opts = { ...options };
      const max = typeof opts.maxLength === "number" ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;
      let len = input.length;
      if (len > max) {
        throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
      }
      const bos = { type: "bos", value: "", output: opts.prepend || "" };
      const tokens = [bos];
      const capture = opts.capture ? "" : "?:";
      const PLATFORM_CHARS = constants4.globChars(opts.windows);
      const EXTGLOB_CHARS = constants4.extglobChars(PLATFORM_CHARS);
      const {
        DOT_LITERAL,
        PLUS_LITERAL,
        SLASH_LITERAL,
        ONE_CHAR,
        DOTS_SLASH,
        NO_DOT,
        NO_DOT_SLASH,
        NO_DOTS_SLASH,
        QMARK,
        QMARK_NO_DOT,
        STAR,
        START_ANCHOR
      } = PLATFORM_CHARS;
      const globstar = (opts2) => {
        return `(${capture}(?:(?!${START_ANCHOR}${opts2.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
      };
      const nodot = opts.dot ? "" : NO_DOT;
      const qmarkNoDot = opts.dot ? QMARK : QMARK_NO_DOT;
      let star = opts.bash === true ? globstar(opts) : STAR;
      if (opts.capture) {
        star = `(${star})`;
      }
      if (typeof opts.noext === "boolean") {
        opts.noextglob = opts.noext;
      }
      const state = {
        input,
        index: -1,
        start: 0,
        dot: opts.dot === true,
        consumed: "",
        output: "",
        prefix: "",
        backtrack: false,
        negated: false,
        brackets: 0,
        braces: 0,
        parens: 0,
        quotes: 0,
        globstar: false,
        tokens
      };
      input = utils.removePrefix(input, state);
      len = input.length;
      const extglobs = [];
      const braces2 = [];
      const stack = [];
      let prev = bos;
      let value;
      const eos = () => state.index === len - 1;
      const peek = state.peek = (n = 1) => input[state.index + n];
      const advance = state.advance = () => input[++state.index] || "";
      const remaining = () => input.slice(state.index + 1);
      const consume = (value2 = "", num = 0) => {
        state.consumed += value2;
        state.index += num;
      };
      const append = (token) => {
        state.output += token.output != null ? token.output : token.value;
        consume(token.value);
      };
      const negate = () => {
        let count2 = 1;
        while (peek() === "!" && (peek(2) !== "(" || peek(3) === "?")) {
          advance();
          state.start++;
          count2++;
        }
        if (count2 % 2 === 0) {
          return false;
        }
        state.negated = true;
        state.start++;
        return true;
      };
      const increment = (type) => {
        state[type]++;
        stack.push(type);
      };
      const decrement = (type) => {
        state[type]--;
        stack.pop();
      };
      const push = (tok) => {
        if (prev.type === "globstar") {
          const isBrace = state.braces > 0 && (tok.type === "comma" || tok.type === "brace");
          const isExtglob = tok.extglob === true || extglobs.length && (tok.type === "pipe" || tok.type === "paren");
          if (tok.type !== "slash" && tok.type !== "paren" && !isBrace && !isExtglob) {
            state.output = state.output.slice(0, -prev.output.length);
            prev.type = "star";
            prev.value = "*";
            prev.output = star;
            state.output += prev.output;
          }
        }
        if (extglobs.length && tok.type !== "paren") {
          extglobs[extglobs.length - 1].inner += tok.value;
        }
        if (tok.value || tok.output) append(tok);
        if (prev && prev.type === "text" && tok.type === "text") {
          prev.output = (prev.output || prev.value) + tok.value;
          prev.value += tok.value;
          return;
        }
        tok.prev = prev;
        tokens.push(tok);
        prev = tok;
      };
      const extglobOpen = (type, value2) => {
        const token = { ...EXTGLOB_CHARS[value2], conditions: 1, inner: "" };
        token.prev = prev;
        token.parens = state.parens;
        token.output = state.output;
        token.startIndex = state.index;
        token.tokensIndex = tokens.length;
        const output = (opts.capture ? "(" : "") + token.open;
        increment("parens");
        push({ type, value: value2, output: state.output ? "" : ONE_CHAR });
        push({ type: "paren", extglob: true, value: advance(), output });
        extglobs.push(token);
      };
      const extglobClose = (token) => {
        const literal = input.slice(token.startIndex, state.index + 1);
        const body2 = input.slice(token.startIndex + 2, state.index);
        const analysis = analyzeRepeatedExtglob(body2, opts);
        if ((token.type === "plus" || token.type === "star") && analysis.risky) {
          const safeOutput = analysis.safeOutput ? (token.output ? "" : ONE_CHAR) + (opts.capture ? `(${analysis.safeOutput})` : analysis.safeOutput) : void 0;
          const open3 = tokens[token.tokensIndex];
          open3.type = "text";
          open3.value = literal;
          open3.output = safeOutput || utils.escapeRegex(literal);
          for (let i2 = token.tokensIndex + 1; i2 < tokens.length; i2++) {
            tokens[i2].value = "";
            tokens[i2].output = "";
            delete tokens[i2].suffix;
          }
          state.output = token.output + open3.output;
          state.backtrack = true;
          push({ type: "paren", extglob: true, value, output: "" });
          decrement("parens");
          return;
        }
        let output = token.close + (opts.capture ? ")" : "");
        let rest;
        if (token.type === "negate") {
          let extglobStar = star;
          if (token.inner && token.inner.length > 1 && token.inner.includes("/")) {
            extglobStar = globstar(opts);
          }
          if (extglobStar !== star || eos() || /^\)+$/.test(remaining())) {
            output = token.close = `)$))${extglobStar}`;
          }
          if (token.inner.includes("*") && (rest = remaining()) && /^\.[^\\/.]+$/.test(rest)) {
            const expression = parse(rest, { ...options, fastpaths: false }).output;
            output = token.close = `)${expression})${extglobStar})`;
          }
          if (token.prev.type === "bos") {
            state.negatedExtglob = true;
          }
        }
        push({ type: "paren", extglob: true, value, output });
        decrement("parens");
      };
      if (opts.fastpaths !== false && !/(^[*!]|[/()[\]{}"])/.test(input)) {
        let backslashes = false;
        let output = input.replace(REGEX_SPECIAL_CHARS_BACKREF, (m, esc, chars, first, rest, index) => {
          if (first === "\\") {
            backslashes = true;
            return m;
          }
          if (first === "?") {
            if (esc) {
              return esc + first + (rest ? QMARK.repeat(rest.length) : "");
            }
            if (index === 0) {
              return qmarkNoDot + (rest ? QMARK.repeat(rest.length) : "");
            }
            return QMARK.repeat(chars.length);
          }
          if (first === ".") {
            return DOT_LITERAL.repeat(chars.length);
          }
          if (first === "*") {
            if (esc) {
              return esc + first + (rest ? star : "");
            }
            return star;
          }
          return esc ? m : `\\${m}`;
        });
        if (backslashes === true) {
          if (opts.unescape === true) {
            output = output.replace(/\\/g, "");
          } else {
            output = output.replace(/\\+/g, (m) => {
              return m.length % 2 === 0 ? "\\\\" : m ? "\\" : "";
            });
          }
        }
        if (output === input && opts.contains === true) {
          state.output = input;
          return state;
        }
        state.output = utils.wrapOutput(output, state, options);
        return state;
      }
      while (!eos()) {
        value = advance();
        if (value === "\0") {
          continue;
        }
        if (value === "\\") {
          const next = peek();
          if (next === "/" && opts.bash !== true) {
            continue;
          }
          if (next === "." || next === ";") {
            continue;
          }
          if (!next) {
            value += "\\";
            push({ type: "text", value });
            continue;
          }
          const match = /^\\+/.exec(remaining());
          let slashes = 0;
          if (match && match[0].length > 2) {
            slashes = match[0].length;
            state.index += slashes;
            if (slashes % 2 !== 0) {
              value += "\\";
            }
          }
          if (opts.unescape === true) {
            value = advance();
          } else {
            value += advance();
          }
          if (state.brackets === 0) {
            push({ type: "text", value });
            continue;
          }
        }
        if (state.brackets > 0 && (value !== "]" || prev.value === "[" || prev.value === "[^")) {
          if (opts.posix !== false && value === ":") {
            const inner = prev.value.slice(1);
            if (inner.includes("[")) {
              prev.posix = true;
              if (inner.includes(":")) {
                const idx = prev.value.lastIndexOf("[");
                const pre = prev.value.slice(0, idx);
                const rest2 = prev.value.slice(idx + 2);
                const posix7 = POSIX_REGEX_SOURCE[rest2];
                if (posix7) {
                  prev.value = pre + posix7;
                  state.backtrack = true;
                  advance();
                  if (!bos.output && tokens.indexOf(prev) === 1) {
                    bos.output = ONE_CHAR;
                  }
                  continue;
                }
              }
            }
          }
          if (value === "[" && peek() !== ":" || value === "-" && peek() === "]") {
            value = `\\${value}`;
          }
          if (value === "]" && (prev.value === "[" || prev.value === "[^")) {
            value = `\\${value}`;
          }
          if (opts.posix === true && value === "!" && prev.value === "[") {
            value = "^";
          }
          prev.value += value;
          append({ value });
          continue;
        }
        if (state.quotes === 1 && value !== '"') {
          value = utils.escapeRegex(value);
          prev.value += value;
          append({ value });
          continue;
        }
        if (value === '"') {
          state.quotes = state.quotes === 1 ? 0 : 1;
          if (opts.keepQuotes === true) {
            push({ type: "text", value });
          }
          continue;
        }
        if (value === "(") {
          increment("parens");
          push({ type: "paren", value });
          continue;
        }
        if (value === ")") {
          if (state.parens === 0 && opts.strictBrackets === true) {
            throw new SyntaxError(syntaxError("opening", "("));
          }
          const extglob = extglobs[extglobs.length - 1];
          if (extglob && state.parens === extglob.parens + 1) {
            extglobClose(extglobs.pop());
            continue;
          }
          push({ type: "paren", value, output: state.parens ? ")" : "\\)" });
          decrement("parens");
          continue;
        }
        if (value === "[") {
          if (opts.nobracket === true || !remaining().includes("]")) {
            if (opts.nobracket !== true && opts.strictBrackets === true) {
              throw new SyntaxError(syntaxError("closing", "]"));
            }
            value = `\\${value}`;
          } else {
            increment("brackets");
          }
          push({ type: "bracket", value });
          continue;
        }
        if (value === "]") {
          if (opts.nobracket === true || prev && prev.type === "bracket" && prev.value.length === 1) {
            push({ type: "text", value, output: `\\${value}` });
            continue;
          }
          if (state.brackets === 0) {
            if (opts.strictBrackets === true) {
              throw new SyntaxError(syntaxError("opening", "["));
            }
            push({ type: "text", value, output: `\\${value}` });
            continue;
          }
          decrement("brackets");
          const prevValue = prev.value.slice(1);
          if (prev.posix !== true && prevValue[0] === "^" && !prevValue.includes("/")) {
            value = `/${value}`;
          }
          prev.value += value;
          append({ value });
          if (opts.literalBrackets === false || utils.hasRegexChars(prevValue)) {
            continue;
          }
          const escaped = utils.escapeRegex(prev.value);
          state.output = state.output.slice(0, -prev.value.length);
          if (opts.literalBrackets === true) {
            state.output += escaped;
            prev.value = escaped;
            continue;
          }
          prev.value = `(${capture}${escaped}|${prev.value})`;
          state.output += prev.value;
          continue;
        }
        if (value === "{" && opts.nobrace !== true) {
          increment("braces");
          const open3 = {
            type: "brace",
            value,
            output: "(",
            outputIndex: state.output.length,
            tokensIndex: state.tokens.length
          };
          braces2.push(open3);
          push(open3);
          continue;
        }
        if (value === "}") {
          const brace = braces2[braces2.length - 1];
          if (opts.nobrace === true || !brace) {
            push({ type: "text", value, output: value });
            continue;
          }
          let output = ")";
          if (brace.dots === true) {
            const arr = tokens.slice();
            const range = [];
            for (let i2 = arr.length - 1; i2 >= 0; i2--) {
              tokens.pop();
              if (arr[i2].type === "brace") {
                break;
              }
              if (arr[i2].type !== "dots") {
                range.unshift(arr[i2].value);
              }
            }
            output = expandRange(range, opts);
            state.backtrack = true;
          }
          if (brace.comma !== true && brace.dots !== true) {
            const out2 = state.output.slice(0, brace.outputIndex);
            const toks = state.tokens.slice(brace.tokensIndex);
            brace.value = brace.output = "\\{";
            value = output = "\\}";
            state.output = out2;
            for (const t of toks) {
              state.output += t.output || t.value;
            }
          }
          push({ type: "brace", value, output });
          decrement("braces");
          braces2.pop();
          continue;
        }
        if (value === "|") {
          if (extglobs.length > 0) {
            extglobs[extglobs.length - 1].conditions++;
          }
          push({ type: "text", value });
          continue;
        }
        if (value === ",") {
          let output = value;
          const brace = braces2[braces2.length - 1];
          if (brace && stack[stack.length - 1] === "braces") {
            brace.comma = true;
            output = "|";
          }
          push({ type: "comma", value, output });
          continue;
        }
        if (value === "/") {
          if (prev.type === "dot" && state.index === state.start + 1) {
            state.start = state.index + 1;
            state.consumed = "";
            state.output = "";
            tokens.pop();
            prev = bos;
            continue;
          }
          push({ type: "slash", value, output: SLASH_LITERAL });
          continue;
        }
        if (value === ".") {
          if (state.braces > 0 && prev.type === "dot") {
            if (prev.value === ".") prev.output = DOT_LITERAL;
            const brace = braces2[braces2.length - 1];
            prev.type = "dots";
            prev.output += value;
            prev.value += value;
            brace.dots = true;
            continue;
          }
          if (state.braces + state.parens === 0 && prev.type !== "bos" && prev.type !== "slash") {
            push({ type: "text", value, output: DOT_LITERAL });
            continue;
          }
          push({ type: "dot", value, output: DOT_LITERAL });
          continue;
        }
        if (value === "?") {
          const isGroup = prev && prev.value === "(";
          if (!isGroup && opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            extglobOpen("qmark", value);
            continue;
          }
          if (prev && prev.type === "paren") {
            const next = peek();
            let output = value;
            if (prev.value === "(" && !/[!=<:]/.test(next) || next === "<" && !/<([!=]|\w+>)/.test(remaining())) {
              output = `\\${value}`;
            }
            push({ type: "text", value, output });
            continue;
          }
          if (opts.dot !== true && (prev.type === "slash" || prev.type === "bos")) {
            push({ type: "qmark", value, output: QMARK_NO_DOT });
            continue;
          }
          push({ type: "qmark", value, output: QMARK });
          continue;
        }
        if (value === "!") {
          if (opts.noextglob !== true && peek() === "(") {
            if (peek(2) !== "?" || !/[!=<:]/.test(peek(3))) {
              extglobOpen("negate", value);
              continue;
            }
          }
          if (opts.nonegate !== true && state.index === 0) {
            negate();
            continue;
          }
        }
        if (value === "+") {
          if (opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            extglobOpen("plus", value);
            continue;
          }
          if (prev && prev.value === "(" || opts.regex === false) {
            push({ type: "plus", value, output: PLUS_LITERAL });
            continue;
          }
          if (prev && (prev.type === "bracket" || prev.type === "paren" || prev.type === "brace") || state.parens > 0) {
            push({ type: "plus", value });
            continue;
          }
          push({ type: "plus", value: PLUS_LITERAL });
          continue;
        }
        if (value === "@") {
          if (opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            push({ type: "at", extglob: true, value, output: "" });
            continue;
          }
          push({ type: "text", value });
          continue;
        }
        if (value !== "*") {
          if (value === "$" || value === "^") {
            value = `\\${value}`;
          }
          const match = REGEX_NON_SPECIAL_CHARS.exec(remaining());
          if (match) {
            value += match[0];
            state.index += match[0].length;
          }
          push({ type: "text", value });
          continue;
        }
        if (prev && (prev.type === "globstar" || prev.star === true)) {
          prev.type = "star";
          prev.star = true;
          prev.value += value;
          prev.output = star;
          state.backtrack = true;
          state.globstar = true;
          consume(value);
          continue;
        }
        let rest = remaining();
        if (opts.noextglob !== true && /^\([^?]/.test(rest)) {
          extglobOpen("star", value);
          continue;
        }
        if (prev.type === "star") {
          if (opts.noglobstar === true) {
            consume(value);
            continue;
          }
          const prior = prev.prev;
          const before = prior.prev;
          const isStart = prior.type === "slash" || prior.type === "bos";
          const afterStar = before && (before.type === "star" || before.type === "globstar");
          if (opts.bash === true && (!isStart || rest[0] && rest[0] !== "/")) {
            push({ type: "star", value, output: "" });
            continue;
          }
          const isBrace = state.braces > 0 && (prior.type === "comma" || prior.type === "brace");
          const isExtglob = extglobs.length && (prior.type === "pipe" || prior.type === "paren");
          if (!isStart && prior.type !== "paren" && !isBrace && !isExtglob) {
            push({ type: "star", value, output: "" });
            continue;
          }
          while (rest.slice(0, 3) === "/**") {
            const after = input[state.index + 4];
            if (after && after !== "/") {
              break;
            }
            rest = rest.slice(3);
            consume("/**", 3);
          }
          const isEnd2 = eos() || state.parens > 0 && rest === ")".repeat(state.parens) && !extglobs.some((extglob) => extglob.type === "negate");
          if (prior.type === "bos" && eos()) {
            prev.type = "globstar";
            prev.value += value;
            prev.output = globstar(opts);
            state.output = prev.output;
            state.globstar = true;
            consume(value);
            continue;
          }
          if (prior.type === "slash" && prior.prev.type !== "bos" && !afterStar && isEnd2) {
            state.output = state.output.slice(0, -(prior.output + prev.output).length);
            prior.output = `(?:${prior.output}`;
            prev.type = "globstar";
            prev.output = globstar(opts) + (opts.strictSlashes ? ")" : "|$)");
            prev.value += value;
            state.globstar = true;
            state.output += prior.output + prev.output;
            consume(value);
            continue;
          }
          if (prior.type === "slash" && prior.prev.type !== "bos" && rest[0] === "/") {
            const end = rest[1] !== void 0 ? "|$" : "";
            state.output = state.output.slice(0, -(prior.output + prev.output).length);
            prior.output = `(?:${prior.output}`;
            prev.type = "globstar";
            prev.output = `${globstar(opts)}${SLASH_LITERAL}|${SLASH_LITERAL}${end})`;
            prev.value += value;
            state.output += prior.output + prev.output;
            state.globstar = true;
            consume(value + advance());
            push({ type: "slash", value: "/", output: "" });
            continue;
          }
          if (prior.type === "bos" && rest[0] === "/") {
            prev.type = "globstar";
            prev.value += value;
            prev.output = `(?:^|${SLASH_LITERAL}|${globstar(opts)}${SLASH_LITERAL})`;
            state.output = prev.output;
            state.globstar = true;
            consume(value + advance());
            push({ type: "slash", value: "/", output: "" });
            continue;
          }
          state.output = state.output.slice(0, -prev.output.length);
          prev.type = "globstar";
          prev.output = globstar(opts);
          prev.value += value;
          state.output += prev.output;
          state.globstar = true;
          consume(value);
          continue;
        }
        const token = { type: "star", value, output: star };
        if (opts.bash === true) {
          token.output = ".*?";
          if (prev.type === "bos" || prev.type === "slash") {
            token.output = nodot + token.output;
          }
          push(token);
          continue;
        }
        if (prev && (prev.type === "bracket" || prev.type === "paren") && opts.regex === true) {
          token.output = value;
          push(token);
          continue;
        }
        if (state.index === state.start || prev.type === "slash" || prev.type === "dot") {
          if (prev.type === "dot") {
            state.output += NO_DOT_SLASH;
            prev.output += NO_DOT_SLASH;
          } else if (opts.dot === true) {
            state.output += NO_DOTS_SLASH;
            prev.output += NO_DOTS_SLASH;
          } else {
            state.output += nodot;
            prev.output += nodot;
          }
          if (peek() !== "*") {
            state.output += ONE_CHAR;
            prev.output += ONE_CHAR;
          }
        }
        push(token);
      }
      while (state.brackets > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", "]"));
        state.output = utils.escapeLast(state.output, "[");
        decrement("brackets");
      }
      while (state.parens > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", ")"));
        state.output = utils.escapeLast(state.output, "(");
        decrement("parens");
      }
      while (state.braces > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", "}"));
        state.output = utils.escapeLast(state.output, "{");
        decrement("braces");
      }
      if (opts.strictSlashes !== true && (prev.type === "star" || prev.type === "bracket")) {
        push({ type: "maybe_slash", value: "", output: `${SLASH_LITERAL}?` });
      }
      if (state.backtrack === true) {
        state.output = "";
        for (const token of state.tokens) {
          state.output += token.output != null ? token.output : token.value;
          if (token.suffix) {
            state.output += token.suffix;
          }
        }
      }
      return state;
    };
    parse.fastpaths = (input, options) => {
      const opts = { ...options };
      const max = typeof opts.maxLength === "number" ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;
      const len = input.length;
      if (len > max) {
        throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
      }
      input = REPLACEMENTS[input] || input;
      const {
        DOT_LITERAL,
        SLASH_LITERAL,
        ONE_CHAR,
        DOTS_SLASH,
        NO_DOT,
        NO_DOTS,
        NO_DOTS_SLASH,
        STAR,
        START_ANCHOR
      } = constants4.globChars(opts.windows);
      const nodot = opts.dot ? NO_DOTS : NO_DOT;
      const slashDot = opts.dot ? NO_DOTS_SLASH : NO_DOT;
      const capture = opts.capture ? "" : "?:";
      const state = { negated: false, prefix: "" };
      let star = opts.bash === true ? ".*?" : STAR;
      if (opts.capture) {
        star = `(${star})`;
      }
      const globstar = (opts2) => {
        if (opts2.noglobstar === true) return star;
        return `(${capture}(?:(?!${START_ANCHOR}${opts2.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
      };
      const create = (str3) => {
        switch (str3) {
          case "*":
            return `${nodot}${ONE_CHAR}${star}`;
          case ".*":
            return `${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "*.*":
            return `${nodot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "*/*":
            return `${nodot}${star}${SLASH_LITERAL}${ONE_CHAR}${slashDot}${star}`;
          case "**":
            return nodot + globstar(opts);
          case "**/*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${ONE_CHAR}${star}`;
          case "**/*.*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "**/.*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${DOT_LITERAL}${ONE_CHAR}${star}`;
          default: {
            const match = /^(.*?)\.(\w+)$/.exec(str3);
            if (!match) return;
            const source2 = create(match[1]);
            if (!source2) return;
            return source2 + DOT_LITERAL + match[2];
          }
        }
      };
      const output = utils.removePrefix(input, state);
      let source = create(output);
      if (source && opts.strictSlashes !== true) {
        source += `${SLASH_LITERAL}?`;
      }
      return source;
    };
    module2.exports = parse;
  }
});

// node_modules/picomatch/lib/picomatch.js
var require_picomatch = __commonJS({
  "node_modules/picomatch/lib/picomatch.js"(exports, module2) {
    "use strict";
    var scan = require_scan();
    var parse = require_parse();
    var utils = require_utils();
    var constants4 = require_constants();
    var isObject2 = (val) => val && typeof val === "object" && !Array.isArray(val);
    var picomatch5 = (glob, options, returnState = false) => {
      if (Array.isArray(glob)) {
        const fns = glob.map((input) => picomatch5(input, options, returnState));
        const arrayMatcher = (str3) => {
          for (const isMatch of fns) {
            const state2 = isMatch(str3);
            if (state2) return state2;
          }
          return false;
        };
        return arrayMatcher;
      }
      const isState = isObject2(glob) && glob.tokens && glob.input;
      if (glob === "" || typeof glob !== "string" && !isState) {
        throw new TypeError("Expected pattern to be a non-empty string");
      }
      const opts = options || {};
      const posix7 = opts.windows;
      const regex = isState ? picomatch5.compileRe(glob, options) : picomatch5.makeRe(glob, options, false, true);
      const state = regex.state;
      delete regex.state;
      let isIgnored = () => false;
      if (opts.ignore) {
        const ignoreOpts = { ...options, ignore: null, onMatch: null, onResult: null };
        isIgnored = picomatch5(opts.ignore, ignoreOpts, returnState);
      }
      const matcher = (input, returnObject = false) => {
        const { isMatch, match, output } = picomatch5.test(input, regex, options, { glob, posix: posix7 });
        const result = { glob, state, regex, posix: posix7, input, output, match, isMatch };
        if (typeof opts.onResult === "function") {
          opts.onResult(result);
        }
        if (isMatch === false) {
          result.isMatch = false;
          return returnObject ? result : false;
        }
        if (isIgnored(input)) {
          if (typeof opts.onIgnore === "function") {
            opts.onIgnore(result);
          }
          result.isMatch = false;
          return returnObject ? result : false;
        }
        if (typeof opts.onMatch === "function") {
          opts.onMatch(result);
        }
        return returnObject ? result : true;
      };
      if (returnState) {
        matcher.state = state;
      }
      return matcher;
    };
    picomatch5.test = (input, regex, options, { glob, posix: posix7 } = {}) => {
      if (typeof input !== "string") {
        throw new TypeError("Expected input to be a string");
      }
      if (input === "") {
        return { isMatch: false, output: "" };
      }
      const opts = options || {};
      const format = opts.format || (posix7 ? utils.toPosixSlashes : null);
      let match = input === glob;
      let output = match && format ? format(input) : input;
      if (match === false) {
        output = format ? format(input) : input;
        match = output === glob;
      }
      if (match === false || opts.capture === true) {
        if (opts.matchBase === true || opts.basename === true) {
          match = picomatch5.matchBase(input, regex, options, posix7);
        } else {
          match = regex.exec(output);
        }
      }
      return { isMatch: Boolean(match), match, output };
    };
    picomatch5.matchBase = (input, glob, options, posix7 = options && options.windows) => {
      const regex = glob instanceof RegExp ? glob : picomatch5.makeRe(glob, options);
      return regex.test(utils.basename(input, { windows: posix7 }));
    };
    picomatch5.isMatch = (str3, patterns, options) => picomatch5(patterns, options)(str3);
    picomatch5.parse = (pattern, options) => {
      if (Array.isArray(pattern)) return pattern.map((p) => picomatch5.parse(p, options));
      return parse(pattern, { ...options, fastpaths: false });
    };
    picomatch5.scan = (input, options) => scan(input, options);
    picomatch5.compileRe = (state, options, returnOutput = false, returnState = false) => {
      if (returnOutput === true) {
        return state.output;
      }
      const opts = options || {};
      const prepend = opts.contains ? "" : "^";
      const append = opts.contains ? "" : "$";
      let source = `${prepend}(?:${state.output})${append}`;
      if (state && state.negated === true) {
        source = `^(?!${source}).*$`;
      }
      const regex = picomatch5.toRegex(source, options);
      if (returnState === true) {
        regex.state = state;
      }
      return regex;
    };
    picomatch5.makeRe = (input, options = {}, returnOutput = false, returnState = false) => {
      if (!input || typeof input !== "string") {
        throw new TypeError("Expected a non-empty string");
      }
      let parsed = { negated: false, fastpaths: true };
      if (options.fastpaths !== false && (input[0] === "." || input[0] === "*")) {
        parsed.output = parse.fastpaths(input, options);
      }
      if (!parsed.output) {
        parsed = parse(input, options);
      }
      return picomatch5.compileRe(parsed, options, returnOutput, returnState);
    };
    picomatch5.toRegex = (source, options) => {
      try {
        const opts = options || {};
        return new RegExp(source, opts.flags || (opts.nocase ? "i" : ""));
      } catch (err2) {
        if (options && options.debug === true) throw err2;
        return /$^/;
      }
    };
    picomatch5.constants = constants4;
    module2.exports = picomatch5;
  }
});

// node_modules/picomatch/index.js
var require_picomatch2 = __commonJS({
  "node_modules/picomatch/index.js"(exports, module2) {
    "use strict";
    var pico = require_picomatch();
    var utils = require_utils();
    function picomatch5(glob, options, returnState = false) {
      if (options && (options.windows === null || options.windows === void 0)) {
        options = { ...options, windows: utils.isWindows() };
      }
      return pico(glob, options, returnState);
    }
    Object.assign(picomatch5, pico);
    module2.exports = picomatch5;
  }
});

// node_modules/xmlchars/xml/1.0/ed5.js
var require_ed5 = __commonJS({
  "node_modules/xmlchars/xml/1.0/ed5.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.CHAR = "	\n\r -\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}";
    exports.S = " 	\r\n";
    exports.NAME_START_CHAR = ":A-Z_a-z\xC0-\xD6\xD8-\xF6\xF8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}";
    exports.NAME_CHAR = "-" + exports.NAME_START_CHAR + ".0-9\xB7\u0300-\u036F\u203F-\u2040";
    exports.CHAR_RE = new RegExp("^[" + exports.CHAR + "]$", "u");
    exports.S_RE = new RegExp("^[" + exports.S + "]+$", "u");
    exports.NAME_START_CHAR_RE = new RegExp("^[" + exports.NAME_START_CHAR + "]$", "u");
    exports.NAME_CHAR_RE = new RegExp("^[" + exports.NAME_CHAR + "]$", "u");
    exports.NAME_RE = new RegExp("^[" + exports.NAME_START_CHAR + "][" + exports.NAME_CHAR + "]*$", "u");
    exports.NMTOKEN_RE = new RegExp("^[" + exports.NAME_CHAR + "]+$", "u");
    var TAB = 9;
    var NL = 10;
    var CR2 = 13;
    var SPACE2 = 32;
    exports.S_LIST = [SPACE2, NL, CR2, TAB];
    function isChar(c) {
      return c >= SPACE2 && c <= 55295 || c === NL || c === CR2 || c === TAB || c >= 57344 && c <= 65533 || c >= 65536 && c <= 1114111;
    }
    exports.isChar = isChar;
    function isS(c) {
      return c === SPACE2 || c === NL || c === CR2 || c === TAB;
    }
    exports.isS = isS;
    function isNameStartChar(c) {
      return c >= 65 && c <= 90 || c >= 97 && c <= 122 || c === 58 || c === 95 || c === 8204 || c === 8205 || c >= 192 && c <= 214 || c >= 216 && c <= 246 || c >= 248 && c <= 767 || c >= 880 && c <= 893 || c >= 895 && c <= 8191 || c >= 8304 && c <= 8591 || c >= 11264 && c <= 12271 || c >= 12289 && c <= 55295 || c >= 63744 && c <= 64975 || c >= 65008 && c <= 65533 || c >= 65536 && c <= 983039;
    }
    exports.isNameStartChar = isNameStartChar;
    function isNameChar(c) {
      return isNameStartChar(c) || c >= 48 && c <= 57 || c === 45 || c === 46 || c === 183 || c >= 768 && c <= 879 || c >= 8255 && c <= 8256;
    }
    exports.isNameChar = isNameChar;
  }
});

// node_modules/xmlchars/xml/1.1/ed2.js
var require_ed2 = __commonJS({
  "node_modules/xmlchars/xml/1.1/ed2.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.CHAR = "-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}";
    exports.RESTRICTED_CHAR = "-\b\v\f-\x7F-\x84\x86-\x9F";
    exports.S = " 	\r\n";
    exports.NAME_START_CHAR = ":A-Z_a-z\xC0-\xD6\xD8-\xF6\xF8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}";
    exports.NAME_CHAR = "-" + exports.NAME_START_CHAR + ".0-9\xB7\u0300-\u036F\u203F-\u2040";
    exports.CHAR_RE = new RegExp("^[" + exports.CHAR + "]$", "u");
    exports.RESTRICTED_CHAR_RE = new RegExp("^[" + exports.RESTRICTED_CHAR + "]$", "u");
    exports.S_RE = new RegExp("^[" + exports.S + "]+$", "u");
    exports.NAME_START_CHAR_RE = new RegExp("^[" + exports.NAME_START_CHAR + "]$", "u");
    exports.NAME_CHAR_RE = new RegExp("^[" + exports.NAME_CHAR + "]$", "u");
    exports.NAME_RE = new RegExp("^[" + exports.NAME_START_CHAR + "][" + exports.NAME_CHAR + "]*$", "u");
    exports.NMTOKEN_RE = new RegExp("^[" + exports.NAME_CHAR + "]+$", "u");
    var TAB = 9;
    var NL = 10;
    var CR2 = 13;
    var SPACE2 = 32;
    exports.S_LIST = [SPACE2, NL, CR2, TAB];
    function isChar(c) {
      return c >= 1 && c <= 55295 || c >= 57344 && c <= 65533 || c >= 65536 && c <= 1114111;
    }
    exports.isChar = isChar;
    function isRestrictedChar(c) {
      return c >= 1 && c <= 8 || c === 11 || c === 12 || c >= 14 && c <= 31 || c >= 127 && c <= 132 || c >= 134 && c <= 159;
    }
    exports.isRestrictedChar = isRestrictedChar;
    function isCharAndNotRestricted(c) {
      return c === 9 || c === 10 || c === 13 || c > 31 && c < 127 || c === 133 || c > 159 && c <= 55295 || c >= 57344 && c <= 65533 || c >= 65536 && c <= 1114111;
    }
    exports.isCharAndNotRestricted = isCharAndNotRestricted;
    function isS(c) {
      return c === SPACE2 || c === NL || c === CR2 || c === TAB;
    }
    exports.isS = isS;
    function isNameStartChar(c) {
      return c >= 65 && c <= 90 || c >= 97 && c <= 122 || c === 58 || c === 95 || c === 8204 || c === 8205 || c >= 192 && c <= 214 || c >= 216 && c <= 246 || c >= 248 && c <= 767 || c >= 880 && c <= 893 || c >= 895 && c <= 8191 || c >= 8304 && c <= 8591 || c >= 11264 && c <= 12271 || c >= 12289 && c <= 55295 || c >= 63744 && c <= 64975 || c >= 65008 && c <= 65533 || c >= 65536 && c <= 983039;
    }
    exports.isNameStartChar = isNameStartChar;
    function isNameChar(c) {
      return isNameStartChar(c) || c >= 48 && c <= 57 || c === 45 || c === 46 || c === 183 || c >= 768 && c <= 879 || c >= 8255 && c <= 8256;
    }
    exports.isNameChar = isNameChar;
  }
});

// node_modules/xmlchars/xmlns/1.0/ed3.js
var require_ed3 = __commonJS({
  "node_modules/xmlchars/xmlns/1.0/ed3.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.NC_NAME_START_CHAR = "A-Z_a-z\xC0-\xD6\xD8-\xF6\xF8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD\u{10000}-\u{EFFFF}";
    exports.NC_NAME_CHAR = "-" + exports.NC_NAME_START_CHAR + ".0-9\xB7\u0300-\u036F\u203F-\u2040";
    exports.NC_NAME_START_CHAR_RE = new RegExp("^[" + exports.NC_NAME_START_CHAR + "]$", "u");
    exports.NC_NAME_CHAR_RE = new RegExp("^[" + exports.NC_NAME_CHAR + "]$", "u");
    exports.NC_NAME_RE = new RegExp("^[" + exports.NC_NAME_START_CHAR + "][" + exports.NC_NAME_CHAR + "]*$", "u");
    function isNCNameStartChar(c) {
      return c >= 65 && c <= 90 || c === 95 || c >= 97 && c <= 122 || c >= 192 && c <= 214 || c >= 216 && c <= 246 || c >= 248 && c <= 767 || c >= 880 && c <= 893 || c >= 895 && c <= 8191 || c >= 8204 && c <= 8205 || c >= 8304 && c <= 8591 || c >= 11264 && c <= 12271 || c >= 12289 && c <= 55295 || c >= 63744 && c <= 64975 || c >= 65008 && c <= 65533 || c >= 65536 && c <= 983039;
    }
    exports.isNCNameStartChar = isNCNameStartChar;
    function isNCNameChar(c) {
      return isNCNameStartChar(c) || (c === 45 || c === 46 || c >= 48 && c <= 57 || c === 183 || c >= 768 && c <= 879 || c >= 8255 && c <= 8256);
    }
    exports.isNCNameChar = isNCNameChar;
  }
});

// node_modules/saxes/saxes.js
var require_saxes = __commonJS({
  "node_modules/saxes/saxes.js"(exports) {
    "use strict";
    Object.defineProperty(exports, "__esModule", { value: true });
    exports.SaxesParser = exports.EVENTS = void 0;
    var ed5 = require_ed5();
    var ed2 = require_ed2();
    var NSed3 = require_ed3();
    var isS = ed5.isS;
    var isChar10 = ed5.isChar;
    var isNameStartChar = ed5.isNameStartChar;
    var isNameChar = ed5.isNameChar;
    var S_LIST = ed5.S_LIST;
    var NAME_RE = ed5.NAME_RE;
    var isChar11 = ed2.isChar;
    var isNCNameStartChar = NSed3.isNCNameStartChar;
    var isNCNameChar = NSed3.isNCNameChar;
    var NC_NAME_RE = NSed3.NC_NAME_RE;
    var XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace";
    var XMLNS_NAMESPACE = "http://www.w3.org/2000/xmlns/";
    var rootNS = {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment
      __proto__: null,
      xml: XML_NAMESPACE,
      xmlns: XMLNS_NAMESPACE
    };
    var XML_ENTITIES = {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-assignment
      __proto__: null,
      amp: "&",
      gt: ">",
      lt: "<",
      quot: '"',
      apos: "'"
    };
    var EOC = -1;
    var NL_LIKE = -2;
    var S_BEGIN = 0;
    var S_BEGIN_WHITESPACE = 1;
    var S_DOCTYPE = 2;
    var S_DOCTYPE_QUOTE = 3;
    var S_DTD = 4;
    var S_DTD_QUOTED = 5;
    var S_DTD_OPEN_WAKA = 6;
    var S_DTD_OPEN_WAKA_BANG = 7;
    var S_DTD_COMMENT = 8;
    var S_DTD_COMMENT_ENDING = 9;
    var S_DTD_COMMENT_ENDED = 10;
    var S_DTD_PI = 11;
    var S_DTD_PI_ENDING = 12;
    var S_TEXT = 13;
    var S_ENTITY = 14;
    var S_OPEN_WAKA = 15;
    var S_OPEN_WAKA_BANG = 16;
    var S_COMMENT = 17;
    var S_COMMENT_ENDING = 18;
    var S_COMMENT_ENDED = 19;
    var S_CDATA = 20;
    var S_CDATA_ENDING = 21;
    var S_CDATA_ENDING_2 = 22;
    var S_PI_FIRST_CHAR = 23;
    var S_PI_REST = 24;
    var S_PI_BODY = 25;
    var S_PI_ENDING = 26;
    var S_XML_DECL_NAME_START = 27;
    var S_XML_DECL_NAME = 28;
    var S_XML_DECL_EQ = 29;
    var S_XML_DECL_VALUE_START = 30;
    var S_XML_DECL_VALUE = 31;
    var S_XML_DECL_SEPARATOR = 32;
    var S_XML_DECL_ENDING = 33;
    var S_OPEN_TAG = 34;
    var S_OPEN_TAG_SLASH = 35;
    var S_ATTRIB = 36;
    var S_ATTRIB_NAME = 37;
    var S_ATTRIB_NAME_SAW_WHITE = 38;
    var S_ATTRIB_VALUE = 39;
    var S_ATTRIB_VALUE_QUOTED = 40;
    var S_ATTRIB_VALUE_CLOSED = 41;
    var S_ATTRIB_VALUE_UNQUOTED = 42;
    var S_CLOSE_TAG = 43;
    var S_CLOSE_TAG_SAW_WHITE = 44;
    var TAB = 9;
    var NL = 10;
    var CR2 = 13;
    var SPACE2 = 32;
    var BANG = 33;
    var DQUOTE = 34;
    var AMP = 38;
    var SQUOTE = 39;
    var MINUS2 = 45;
    var FORWARD_SLASH = 47;
    var SEMICOLON = 59;
    var LESS = 60;
    var EQUAL = 61;
    var GREATER = 62;
    var QUESTION = 63;
    var OPEN_BRACKET = 91;
    var CLOSE_BRACKET = 93;
    var NEL = 133;
    var LS = 8232;
    var isQuote2 = (c) => c === DQUOTE || c === SQUOTE;
    var QUOTES = [DQUOTE, SQUOTE];
    var DOCTYPE_TERMINATOR = [...QUOTES, OPEN_BRACKET, GREATER];
    var DTD_TERMINATOR = [...QUOTES, LESS, CLOSE_BRACKET];
    var XML_DECL_NAME_TERMINATOR = [EQUAL, QUESTION, ...S_LIST];
    var ATTRIB_VALUE_UNQUOTED_TERMINATOR = [...S_LIST, GREATER, AMP, LESS];
    function nsPairCheck(parser, prefix, uri) {
      switch (prefix) {
        case "xml":
          if (uri !== XML_NAMESPACE) {
            parser.fail(`xml prefix must be bound to ${XML_NAMESPACE}.`);
          }
          break;
        case "xmlns":
          if (uri !== XMLNS_NAMESPACE) {
            parser.fail(`xmlns prefix must be bound to ${XMLNS_NAMESPACE}.`);
          }
          break;
        default:
      }
      switch (uri) {
        case XMLNS_NAMESPACE:
          parser.fail(prefix === "" ? `the default namespace may not be set to ${uri}.` : `may not assign a prefix (even "xmlns") to the URI ${XMLNS_NAMESPACE}.`);
          break;
        case XML_NAMESPACE:
          switch (prefix) {
            case "xml":
              break;
            case "":
              parser.fail(`the default namespace may not be set to ${uri}.`);
              break;
            default:
              parser.fail("may not assign the xml namespace to another prefix.");
          }
          break;
        default:
      }
    }
    function nsMappingCheck(parser, mapping) {
      for (const local of Object.keys(mapping)) {
        nsPairCheck(parser, local, mapping[local]);
      }
    }
    var isNCName = (name2) => NC_NAME_RE.test(name2);
    var isName = (name2) => NAME_RE.test(name2);
    var FORBIDDEN_START = 0;
    var FORBIDDEN_BRACKET = 1;
    var FORBIDDEN_BRACKET_BRACKET = 2;
    exports.EVENTS = [
      "xmldecl",
      "text",
      "processinginstruction",
      "doctype",
      "comment",
      "opentagstart",
      "attribute",
      "opentag",
      "closetag",
      "cdata",
      "error",
      "end",
      "ready"
    ];
    var EVENT_NAME_TO_HANDLER_NAME = {
      xmldecl: "xmldeclHandler",
      text: "textHandler",
      processinginstruction: "piHandler",
      doctype: "doctypeHandler",
      comment: "commentHandler",
      opentagstart: "openTagStartHandler",
      attribute: "attributeHandler",
      opentag: "openTagHandler",
      closetag: "closeTagHandler",
      cdata: "cdataHandler",
      error: "errorHandler",
      end: "endHandler",
      ready: "readyHandler"
    };
    var SaxesParser2 = class {
      /**
       * @param opt The parser options.
       */
      constructor(opt) {
        this.opt = opt !== null && opt !== void 0 ? opt : {};
        this.fragmentOpt = !!this.opt.fragment;
        const xmlnsOpt = this.xmlnsOpt = !!this.opt.xmlns;
        this.trackPosition = this.opt.position !== false;
        this.fileName = this.opt.fileName;
        if (xmlnsOpt) {
          this.nameStartCheck = isNCNameStartChar;
          this.nameCheck = isNCNameChar;
          this.isName = isNCName;
          this.processAttribs = this.processAttribsNS;
          this.pushAttrib = this.pushAttribNS;
          this.ns = Object.assign({ __proto__: null }, rootNS);
          const additional = this.opt.additionalNamespaces;
          if (additional != null) {
            nsMappingCheck(this, additional);
            Object.assign(this.ns, additional);
          }
        } else {
          this.nameStartCheck = isNameStartChar;
          this.nameCheck = isNameChar;
          this.isName = isName;
          this.processAttribs = this.processAttribsPlain;
          this.pushAttrib = this.pushAttribPlain;
        }
        this.stateTable = [
          /* eslint-disable @typescript-eslint/unbound-method */
          this.sBegin,
          this.sBeginWhitespace,
          this.sDoctype,
          this.sDoctypeQuote,
          this.sDTD,
          this.sDTDQuoted,
          this.sDTDOpenWaka,
          this.sDTDOpenWakaBang,
          this.sDTDComment,
          this.sDTDCommentEnding,
          this.sDTDCommentEnded,
          this.sDTDPI,
          this.sDTDPIEnding,
          this.sText,
          this.sEntity,
          this.sOpenWaka,
          this.sOpenWakaBang,
          this.sComment,
          this.sCommentEnding,
          this.sCommentEnded,
          this.sCData,
          this.sCDataEnding,
          this.sCDataEnding2,
          this.sPIFirstChar,
          this.sPIRest,
          this.sPIBody,
          this.sPIEnding,
          this.sXMLDeclNameStart,
          this.sXMLDeclName,
          this.sXMLDeclEq,
          this.sXMLDeclValueStart,
          this.sXMLDeclValue,
          this.sXMLDeclSeparator,
          this.sXMLDeclEnding,
          this.sOpenTag,
          this.sOpenTagSlash,
          this.sAttrib,
          this.sAttribName,
          this.sAttribNameSawWhite,
          this.sAttribValue,
          this.sAttribValueQuoted,
          this.sAttribValueClosed,
          this.sAttribValueUnquoted,
          this.sCloseTag,
          this.sCloseTagSawWhite
          /* eslint-enable @typescript-eslint/unbound-method */
        ];
        this._init();
      }
      /**
       * Indicates whether or not the parser is closed. If ``true``, wait for
       * the ``ready`` event to write again.
       */
      get closed() {
        return this._closed;
      }
      _init() {
        var _a;
        this.openWakaBang = "";
        this.text = "";
        this.name = "";
        this.piTarget = "";
        this.entity = "";
        this.q = null;
        this.tags = [];
        this.tag = null;
        this.topNS = null;
        this.chunk = "";
        this.chunkPosition = 0;
        this.i = 0;
        this.prevI = 0;
        this.carriedFromPrevious = void 0;
        this.forbiddenState = FORBIDDEN_START;
        this.attribList = [];
        const { fragmentOpt } = this;
        this.state = fragmentOpt ? S_TEXT : S_BEGIN;
        this.reportedTextBeforeRoot = this.reportedTextAfterRoot = this.closedRoot = this.sawRoot = fragmentOpt;
        this.xmlDeclPossible = !fragmentOpt;
        this.xmlDeclExpects = ["version"];
        this.entityReturnState = void 0;
        let { defaultXMLVersion } = this.opt;
        if (defaultXMLVersion === void 0) {
          if (this.opt.forceXMLVersion === true) {
            throw new Error("forceXMLVersion set but defaultXMLVersion is not set");
          }
          defaultXMLVersion = "1.0";
        }
        this.setXMLVersion(defaultXMLVersion);
        this.positionAtNewLine = 0;
        this.doctype = false;
        this._closed = false;
        this.xmlDecl = {
          version: void 0,
          encoding: void 0,
          standalone: void 0
        };
        this.line = 1;
        this.column = 0;
        this.ENTITIES = Object.create(XML_ENTITIES);
        (_a = this.readyHandler) === null || _a === void 0 ? void 0 : _a.call(this);
      }
      /**
       * The stream position the parser is currently looking at. This field is
       * zero-based.
       *
       * This field is not based on counting Unicode characters but is to be
       * interpreted as a plain index into a JavaScript string.
       */
      get position() {
        return this.chunkPosition + this.i;
      }
      /**
       * The column number of the next character to be read by the parser.  *
       * This field is zero-based. (The first column in a line is 0.)
       *
       * This field reports the index at which the next character would be in the
       * line if the line were represented as a JavaScript string.  Note that this
       * *can* be different to a count based on the number of *Unicode characters*
       * due to how JavaScript handles astral plane characters.
       *
       * See [[column]] for a number that corresponds to a count of Unicode
       * characters.
       */
      get columnIndex() {
        return this.position - this.positionAtNewLine;
      }
      /**
       * Set an event listener on an event. The parser supports one handler per
       * event type. If you try to set an event handler over an existing handler,
       * the old handler is silently overwritten.
       *
       * @param name The event to listen to.
       *
       * @param handler The handler to set.
       */
      on(name2, handler) {
        this[EVENT_NAME_TO_HANDLER_NAME[name2]] = handler;
      }
      /**
       * Unset an event handler.
       *
       * @parma name The event to stop listening to.
       */
      off(name2) {
        this[EVENT_NAME_TO_HANDLER_NAME[name2]] = void 0;
      }
      /**
       * Make an error object. The error object will have a message that contains
       * the ``fileName`` option passed at the creation of the parser. If position
       * tracking was turned on, it will also have line and column number
       * information.
       *
       * @param message The message describing the error to report.
       *
       * @returns An error object with a properly formatted message.
       */
      makeError(message2) {
        var _a;
        let msg = (_a = this.fileName) !== null && _a !== void 0 ? _a : "";
        if (this.trackPosition) {
          if (msg.length > 0) {
            msg += ":";
          }
          msg += `${this.line}:${this.column}`;
        }
        if (msg.length > 0) {
          msg += ": ";
        }
        return new Error(msg + message2);
      }
      /**
       * Report a parsing error. This method is made public so that client code may
       * check for issues that are outside the scope of this project and can report
       * errors.
       *
       * @param message The error to report.
       *
       * @returns this
       */
      fail(message2) {
        const err2 = this.makeError(message2);
        const handler = this.errorHandler;
        if (handler === void 0) {
          throw err2;
        } else {
          handler(err2);
        }
        return this;
      }
      /**
       * Write a XML data to the parser.
       *
       * @param chunk The XML data to write.
       *
       * @returns this
       */
      // We do need object for the type here. Yes, it often causes problems
      // but not in this case.
      write(chunk2) {
        if (this.closed) {
          return this.fail("cannot write after close; assign an onready handler.");
        }
        let end = false;
        if (chunk2 === null) {
          end = true;
          chunk2 = "";
        } else if (typeof chunk2 === "object") {
          chunk2 = chunk2.toString();
        }
        if (this.carriedFromPrevious !== void 0) {
          chunk2 = `${this.carriedFromPrevious}${chunk2}`;
          this.carriedFromPrevious = void 0;
        }
        let limit = chunk2.length;
        const lastCode = chunk2.charCodeAt(limit - 1);
        if (!end && // A trailing CR or surrogate must be carried over to the next
        // chunk.
        (lastCode === CR2 || lastCode >= 55296 && lastCode <= 56319)) {
          this.carriedFromPrevious = chunk2[limit - 1];
          limit--;
          chunk2 = chunk2.slice(0, limit);
        }
        const { stateTable } = this;
        this.chunk = chunk2;
        this.i = 0;
        while (this.i < limit) {
          stateTable[this.state].call(this);
        }
        this.chunkPosition += limit;
        return end ? this.end() : this;
      }
      /**
       * Close the current stream. Perform final well-formedness checks and reset
       * the parser tstate.
       *
       * @returns this
       */
      close() {
        return this.write(null);
      }
      /**
       * Get a single code point out of the current chunk. This updates the current
       * position if we do position tracking.
       *
       * This is the algorithm to use for XML 1.0.
       *
       * @returns The character read.
       */
      getCode10() {
        const { chunk: chunk2, i: i2 } = this;
        this.prevI = i2;
        this.i = i2 + 1;
        if (i2 >= chunk2.length) {
          return EOC;
        }
        const code = chunk2.charCodeAt(i2);
        this.column++;
        if (code < 55296) {
          if (code >= SPACE2 || code === TAB) {
            return code;
          }
          switch (code) {
            case NL:
              this.line++;
              this.column = 0;
              this.positionAtNewLine = this.position;
              return NL;
            case CR2:
              if (chunk2.charCodeAt(i2 + 1) === NL) {
                this.i = i2 + 2;
              }
              this.line++;
              this.column = 0;
              this.positionAtNewLine = this.position;
              return NL_LIKE;
            default:
              this.fail("disallowed character.");
              return code;
          }
        }
        if (code > 56319) {
          if (!(code >= 57344 && code <= 65533)) {
            this.fail("disallowed character.");
          }
          return code;
        }
        const final = 65536 + (code - 55296) * 1024 + (chunk2.charCodeAt(i2 + 1) - 56320);
        this.i = i2 + 2;
        if (final > 1114111) {
          this.fail("disallowed character.");
        }
        return final;
      }
      /**
       * Get a single code point out of the current chunk. This updates the current
       * position if we do position tracking.
       *
       * This is the algorithm to use for XML 1.1.
       *
       * @returns {number} The character read.
       */
      getCode11() {
        const { chunk: chunk2, i: i2 } = this;
        this.prevI = i2;
        this.i = i2 + 1;
        if (i2 >= chunk2.length) {
          return EOC;
        }
        const code = chunk2.charCodeAt(i2);
        this.column++;
        if (code < 55296) {
          if (code > 31 && code < 127 || code > 159 && code !== LS || code === TAB) {
            return code;
          }
          switch (code) {
            case NL:
              this.line++;
              this.column = 0;
              this.positionAtNewLine = this.position;
              return NL;
            case CR2: {
              const next = chunk2.charCodeAt(i2 + 1);
              if (next === NL || next === NEL) {
                this.i = i2 + 2;
              }
            }
            /* yes, fall through */
            case NEL:
            // 0x85
            case LS:
              this.line++;
              this.column = 0;
              this.positionAtNewLine = this.position;
              return NL_LIKE;
            default:
              this.fail("disallowed character.");
              return code;
          }
        }
        if (code > 56319) {
          if (!(code >= 57344 && code <= 65533)) {
            this.fail("disallowed character.");
          }
          return code;
        }
        const final = 65536 + (code - 55296) * 1024 + (chunk2.charCodeAt(i2 + 1) - 56320);
        this.i = i2 + 2;
        if (final > 1114111) {
          this.fail("disallowed character.");
        }
        return final;
      }
      /**
       * Like ``getCode`` but with the return value normalized so that ``NL`` is
       * returned for ``NL_LIKE``.
       */
      getCodeNorm() {
        const c = this.getCode();
        return c === NL_LIKE ? NL : c;
      }
      unget() {
        this.i = this.prevI;
        this.column--;
      }
      /**
       * Capture characters into a buffer until encountering one of a set of
       * characters.
       *
       * @param chars An array of codepoints. Encountering a character in the array
       * ends the capture. (``chars`` may safely contain ``NL``.)
       *
       * @return The character code that made the capture end, or ``EOC`` if we hit
       * the end of the chunk. The return value cannot be NL_LIKE: NL is returned
       * instead.
       */
      captureTo(chars) {
        let { i: start2 } = this;
        const { chunk: chunk2 } = this;
        while (true) {
          const c = this.getCode();
          const isNLLike = c === NL_LIKE;
          const final = isNLLike ? NL : c;
          if (final === EOC || chars.includes(final)) {
            this.text += chunk2.slice(start2, this.prevI);
            return final;
          }
          if (isNLLike) {
            this.text += `${chunk2.slice(start2, this.prevI)}
`;
            start2 = this.i;
          }
        }
      }
      /**
       * Capture characters into a buffer until encountering a character.
       *
       * @param char The codepoint that ends the capture. **NOTE ``char`` MAY NOT
       * CONTAIN ``NL``.** Passing ``NL`` will result in buggy behavior.
       *
       * @return ``true`` if we ran into the character. Otherwise, we ran into the
       * end of the current chunk.
       */
      captureToChar(char) {
        let { i: start2 } = this;
        const { chunk: chunk2 } = this;
        while (true) {
          let c = this.getCode();
          switch (c) {
            case NL_LIKE:
              this.text += `${chunk2.slice(start2, this.prevI)}
`;
              start2 = this.i;
              c = NL;
              break;
            case EOC:
              this.text += chunk2.slice(start2);
              return false;
            default:
          }
          if (c === char) {
            this.text += chunk2.slice(start2, this.prevI);
            return true;
          }
        }
      }
      /**
       * Capture characters that satisfy ``isNameChar`` into the ``name`` field of
       * this parser.
       *
       * @return The character code that made the test fail, or ``EOC`` if we hit
       * the end of the chunk. The return value cannot be NL_LIKE: NL is returned
       * instead.
       */
      captureNameChars() {
        const { chunk: chunk2, i: start2 } = this;
        while (true) {
          const c = this.getCode();
          if (c === EOC) {
            this.name += chunk2.slice(start2);
            return EOC;
          }
          if (!isNameChar(c)) {
            this.name += chunk2.slice(start2, this.prevI);
            return c === NL_LIKE ? NL : c;
          }
        }
      }
      /**
       * Skip white spaces.
       *
       * @return The character that ended the skip, or ``EOC`` if we hit
       * the end of the chunk. The return value cannot be NL_LIKE: NL is returned
       * instead.
       */
      skipSpaces() {
        while (true) {
          const c = this.getCodeNorm();
          if (c === EOC || !isS(c)) {
            return c;
          }
        }
      }
      setXMLVersion(version) {
        this.currentXMLVersion = version;
        if (version === "1.0") {
          this.isChar = isChar10;
          this.getCode = this.getCode10;
        } else {
          this.isChar = isChar11;
          this.getCode = this.getCode11;
        }
      }
      // STATE ENGINE METHODS
      // This needs to be a state separate from S_BEGIN_WHITESPACE because we want
      // to be sure never to come back to this state later.
      sBegin() {
        if (this.chunk.charCodeAt(0) === 65279) {
          this.i++;
          this.column++;
        }
        this.state = S_BEGIN_WHITESPACE;
      }
      sBeginWhitespace() {
        const iBefore = this.i;
        const c = this.skipSpaces();
        if (this.prevI !== iBefore) {
          this.xmlDeclPossible = false;
        }
        switch (c) {
          case LESS:
            this.state = S_OPEN_WAKA;
            if (this.text.length !== 0) {
              throw new Error("no-empty text at start");
            }
            break;
          case EOC:
            break;
          default:
            this.unget();
            this.state = S_TEXT;
            this.xmlDeclPossible = false;
        }
      }
      sDoctype() {
        var _a;
        const c = this.captureTo(DOCTYPE_TERMINATOR);
        switch (c) {
          case GREATER: {
            (_a = this.doctypeHandler) === null || _a === void 0 ? void 0 : _a.call(this, this.text);
            this.text = "";
            this.state = S_TEXT;
            this.doctype = true;
            break;
          }
          case EOC:
            break;
          default:
            this.text += String.fromCodePoint(c);
            if (c === OPEN_BRACKET) {
              this.state = S_DTD;
            } else if (isQuote2(c)) {
              this.state = S_DOCTYPE_QUOTE;
              this.q = c;
            }
        }
      }
      sDoctypeQuote() {
        const q = this.q;
        if (this.captureToChar(q)) {
          this.text += String.fromCodePoint(q);
          this.q = null;
          this.state = S_DOCTYPE;
        }
      }
      sDTD() {
        const c = this.captureTo(DTD_TERMINATOR);
        if (c === EOC) {
          return;
        }
        this.text += String.fromCodePoint(c);
        if (c === CLOSE_BRACKET) {
          this.state = S_DOCTYPE;
        } else if (c === LESS) {
          this.state = S_DTD_OPEN_WAKA;
        } else if (isQuote2(c)) {
          this.state = S_DTD_QUOTED;
          this.q = c;
        }
      }
      sDTDQuoted() {
        const q = this.q;
        if (this.captureToChar(q)) {
          this.text += String.fromCodePoint(q);
          this.state = S_DTD;
          this.q = null;
        }
      }
      sDTDOpenWaka() {
        const c = this.getCodeNorm();
        this.text += String.fromCodePoint(c);
        switch (c) {
          case BANG:
            this.state = S_DTD_OPEN_WAKA_BANG;
            this.openWakaBang = "";
            break;
          case QUESTION:
            this.state = S_DTD_PI;
            break;
          default:
            this.state = S_DTD;
        }
      }
      sDTDOpenWakaBang() {
        const char = String.fromCodePoint(this.getCodeNorm());
        const owb = this.openWakaBang += char;
        this.text += char;
        if (owb !== "-") {
          this.state = owb === "--" ? S_DTD_COMMENT : S_DTD;
          this.openWakaBang = "";
        }
      }
      sDTDComment() {
        if (this.captureToChar(MINUS2)) {
          this.text += "-";
          this.state = S_DTD_COMMENT_ENDING;
        }
      }
      sDTDCommentEnding() {
        const c = this.getCodeNorm();
        this.text += String.fromCodePoint(c);
        this.state = c === MINUS2 ? S_DTD_COMMENT_ENDED : S_DTD_COMMENT;
      }
      sDTDCommentEnded() {
        const c = this.getCodeNorm();
        this.text += String.fromCodePoint(c);
        if (c === GREATER) {
          this.state = S_DTD;
        } else {
          this.fail("malformed comment.");
          this.state = S_DTD_COMMENT;
        }
      }
      sDTDPI() {
        if (this.captureToChar(QUESTION)) {
          this.text += "?";
          this.state = S_DTD_PI_ENDING;
        }
      }
      sDTDPIEnding() {
        const c = this.getCodeNorm();
        this.text += String.fromCodePoint(c);
        if (c === GREATER) {
          this.state = S_DTD;
        }
      }
      sText() {
        if (this.tags.length !== 0) {
          this.handleTextInRoot();
        } else {
          this.handleTextOutsideRoot();
        }
      }
      sEntity() {
        let { i: start2 } = this;
        const { chunk: chunk2 } = this;
        loop:
          while (true) {
            switch (this.getCode()) {
              case NL_LIKE:
                this.entity += `${chunk2.slice(start2, this.prevI)}
`;
                start2 = this.i;
                break;
              case SEMICOLON: {
                const { entityReturnState } = this;
                const entity = this.entity + chunk2.slice(start2, this.prevI);
                this.state = entityReturnState;
                let parsed;
                if (entity === "") {
                  this.fail("empty entity name.");
                  parsed = "&;";
                } else {
                  parsed = this.parseEntity(entity);
                  this.entity = "";
                }
                if (entityReturnState !== S_TEXT || this.textHandler !== void 0) {
                  this.text += parsed;
                }
                break loop;
              }
              case EOC:
                this.entity += chunk2.slice(start2);
                break loop;
              default:
            }
          }
      }
      sOpenWaka() {
        const c = this.getCode();
        if (isNameStartChar(c)) {
          this.state = S_OPEN_TAG;
          this.unget();
          this.xmlDeclPossible = false;
        } else {
          switch (c) {
            case FORWARD_SLASH:
              this.state = S_CLOSE_TAG;
              this.xmlDeclPossible = false;
              break;
            case BANG:
              this.state = S_OPEN_WAKA_BANG;
              this.openWakaBang = "";
              this.xmlDeclPossible = false;
              break;
            case QUESTION:
              this.state = S_PI_FIRST_CHAR;
              break;
            default:
              this.fail("disallowed character in tag name");
              this.state = S_TEXT;
              this.xmlDeclPossible = false;
          }
        }
      }
      sOpenWakaBang() {
        this.openWakaBang += String.fromCodePoint(this.getCodeNorm());
        switch (this.openWakaBang) {
          case "[CDATA[":
            if (!this.sawRoot && !this.reportedTextBeforeRoot) {
              this.fail("text data outside of root node.");
              this.reportedTextBeforeRoot = true;
            }
            if (this.closedRoot && !this.reportedTextAfterRoot) {
              this.fail("text data outside of root node.");
              this.reportedTextAfterRoot = true;
            }
            this.state = S_CDATA;
            this.openWakaBang = "";
            break;
          case "--":
            this.state = S_COMMENT;
            this.openWakaBang = "";
            break;
          case "DOCTYPE":
            this.state = S_DOCTYPE;
            if (this.doctype || this.sawRoot) {
              this.fail("inappropriately located doctype declaration.");
            }
            this.openWakaBang = "";
            break;
          default:
            if (this.openWakaBang.length >= 7) {
              this.fail("incorrect syntax.");
            }
        }
      }
      sComment() {
        if (this.captureToChar(MINUS2)) {
          this.state = S_COMMENT_ENDING;
        }
      }
      sCommentEnding() {
        var _a;
        const c = this.getCodeNorm();
        if (c === MINUS2) {
          this.state = S_COMMENT_ENDED;
          (_a = this.commentHandler) === null || _a === void 0 ? void 0 : _a.call(this, this.text);
          this.text = "";
        } else {
          this.text += `-${String.fromCodePoint(c)}`;
          this.state = S_COMMENT;
        }
      }
      sCommentEnded() {
        const c = this.getCodeNorm();
        if (c !== GREATER) {
          this.fail("malformed comment.");
          this.text += `--${String.fromCodePoint(c)}`;
          this.state = S_COMMENT;
        } else {
          this.state = S_TEXT;
        }
      }
      sCData() {
        if (this.captureToChar(CLOSE_BRACKET)) {
          this.state = S_CDATA_ENDING;
        }
      }
      sCDataEnding() {
        const c = this.getCodeNorm();
        if (c === CLOSE_BRACKET) {
          this.state = S_CDATA_ENDING_2;
        } else {
          this.text += `]${String.fromCodePoint(c)}`;
          this.state = S_CDATA;
        }
      }
      sCDataEnding2() {
        var _a;
        const c = this.getCodeNorm();
        switch (c) {
          case GREATER: {
            (_a = this.cdataHandler) === null || _a === void 0 ? void 0 : _a.call(this, this.text);
            this.text = "";
            this.state = S_TEXT;
            break;
          }
          case CLOSE_BRACKET:
            this.text += "]";
            break;
          default:
            this.text += `]]${String.fromCodePoint(c)}`;
            this.state = S_CDATA;
        }
      }
      // We need this separate state to check the first character fo the pi target
      // with this.nameStartCheck which allows less characters than this.nameCheck.
      sPIFirstChar() {
        const c = this.getCodeNorm();
        if (this.nameStartCheck(c)) {
          this.piTarget += String.fromCodePoint(c);
          this.state = S_PI_REST;
        } else if (c === QUESTION || isS(c)) {
          this.fail("processing instruction without a target.");
          this.state = c === QUESTION ? S_PI_ENDING : S_PI_BODY;
        } else {
          this.fail("disallowed character in processing instruction name.");
          this.piTarget += String.fromCodePoint(c);
          this.state = S_PI_REST;
        }
      }
      sPIRest() {
        const { chunk: chunk2, i: start2 } = this;
        while (true) {
          const c = this.getCodeNorm();
          if (c === EOC) {
            this.piTarget += chunk2.slice(start2);
            return;
          }
          if (!this.nameCheck(c)) {
            this.piTarget += chunk2.slice(start2, this.prevI);
            const isQuestion = c === QUESTION;
            if (isQuestion || isS(c)) {
              if (this.piTarget === "xml") {
                if (!this.xmlDeclPossible) {
                  this.fail("an XML declaration must be at the start of the document.");
                }
                this.state = isQuestion ? S_XML_DECL_ENDING : S_XML_DECL_NAME_START;
              } else {
                this.state = isQuestion ? S_PI_ENDING : S_PI_BODY;
              }
            } else {
              this.fail("disallowed character in processing instruction name.");
              this.piTarget += String.fromCodePoint(c);
            }
            break;
          }
        }
      }
      sPIBody() {
        if (this.text.length === 0) {
          const c = this.getCodeNorm();
          if (c === QUESTION) {
            this.state = S_PI_ENDING;
          } else if (!isS(c)) {
            this.text = String.fromCodePoint(c);
          }
        } else if (this.captureToChar(QUESTION)) {
          this.state = S_PI_ENDING;
        }
      }
      sPIEnding() {
        var _a;
        const c = this.getCodeNorm();
        if (c === GREATER) {
          const { piTarget } = this;
          if (piTarget.toLowerCase() === "xml") {
            this.fail("the XML declaration must appear at the start of the document.");
          }
          (_a = this.piHandler) === null || _a === void 0 ? void 0 : _a.call(this, {
            target: piTarget,
            body: this.text
          });
          this.piTarget = this.text = "";
          this.state = S_TEXT;
        } else if (c === QUESTION) {
          this.text += "?";
        } else {
          this.text += `?${String.fromCodePoint(c)}`;
          this.state = S_PI_BODY;
        }
        this.xmlDeclPossible = false;
      }
      sXMLDeclNameStart() {
        const c = this.skipSpaces();
        if (c === QUESTION) {
          this.state = S_XML_DECL_ENDING;
          return;
        }
        if (c !== EOC) {
          this.state = S_XML_DECL_NAME;
          this.name = String.fromCodePoint(c);
        }
      }
      sXMLDeclName() {
        const c = this.captureTo(XML_DECL_NAME_TERMINATOR);
        if (c === QUESTION) {
          this.state = S_XML_DECL_ENDING;
          this.name += this.text;
          this.text = "";
          this.fail("XML declaration is incomplete.");
          return;
        }
        if (!(isS(c) || c === EQUAL)) {
          return;
        }
        this.name += this.text;
        this.text = "";
        if (!this.xmlDeclExpects.includes(this.name)) {
          switch (this.name.length) {
            case 0:
              this.fail("did not expect any more name/value pairs.");
              break;
            case 1:
              this.fail(`expected the name ${this.xmlDeclExpects[0]}.`);
              break;
            default:
              this.fail(`expected one of ${this.xmlDeclExpects.join(", ")}`);
          }
        }
        this.state = c === EQUAL ? S_XML_DECL_VALUE_START : S_XML_DECL_EQ;
      }
      sXMLDeclEq() {
        const c = this.getCodeNorm();
        if (c === QUESTION) {
          this.state = S_XML_DECL_ENDING;
          this.fail("XML declaration is incomplete.");
          return;
        }
        if (isS(c)) {
          return;
        }
        if (c !== EQUAL) {
          this.fail("value required.");
        }
        this.state = S_XML_DECL_VALUE_START;
      }
      sXMLDeclValueStart() {
        const c = this.getCodeNorm();
        if (c === QUESTION) {
          this.state = S_XML_DECL_ENDING;
          this.fail("XML declaration is incomplete.");
          return;
        }
        if (isS(c)) {
          return;
        }
        if (!isQuote2(c)) {
          this.fail("value must be quoted.");
          this.q = SPACE2;
        } else {
          this.q = c;
        }
        this.state = S_XML_DECL_VALUE;
      }
      sXMLDeclValue() {
        const c = this.captureTo([this.q, QUESTION]);
        if (c === QUESTION) {
          this.state = S_XML_DECL_ENDING;
          this.text = "";
          this.fail("XML declaration is incomplete.");
          return;
        }
        if (c === EOC) {
          return;
        }
        const value = this.text;
        this.text = "";
        switch (this.name) {
          case "version": {
            this.xmlDeclExpects = ["encoding", "standalone"];
            const version = value;
            this.xmlDecl.version = version;
            if (!/^1\.[0-9]+$/.test(version)) {
              this.fail("version number must match /^1\\.[0-9]+$/.");
            } else if (!this.opt.forceXMLVersion) {
              this.setXMLVersion(version);
            }
            break;
          }
          case "encoding":
            if (!/^[A-Za-z][A-Za-z0-9._-]*$/.test(value)) {
              this.fail("encoding value must match /^[A-Za-z0-9][A-Za-z0-9._-]*$/.");
            }
            this.xmlDeclExpects = ["standalone"];
            this.xmlDecl.encoding = value;
            break;
          case "standalone":
            if (value !== "yes" && value !== "no") {
              this.fail('standalone value must match "yes" or "no".');
            }
            this.xmlDeclExpects = [];
            this.xmlDecl.standalone = value;
            break;
          default:
        }
        this.name = "";
        this.state = S_XML_DECL_SEPARATOR;
      }
      sXMLDeclSeparator() {
        const c = this.getCodeNorm();
        if (c === QUESTION) {
          this.state = S_XML_DECL_ENDING;
          return;
        }
        if (!isS(c)) {
          this.fail("whitespace required.");
          this.unget();
        }
        this.state = S_XML_DECL_NAME_START;
      }
      sXMLDeclEnding() {
        var _a;
        const c = this.getCodeNorm();
        if (c === GREATER) {
          if (this.piTarget !== "xml") {
            this.fail("processing instructions are not allowed before root.");
          } else if (this.name !== "version" && this.xmlDeclExpects.includes("version")) {
            this.fail("XML declaration must contain a version.");
          }
          (_a = this.xmldeclHandler) === null || _a === void 0 ? void 0 : _a.call(this, this.xmlDecl);
          this.name = "";
          this.piTarget = this.text = "";
          this.state = S_TEXT;
        } else {
          this.fail("The character ? is disallowed anywhere in XML declarations.");
        }
        this.xmlDeclPossible = false;
      }
      sOpenTag() {
        var _a;
        const c = this.captureNameChars();
        if (c === EOC) {
          return;
        }
        const tag = this.tag = {
          name: this.name,
          attributes: /* @__PURE__ */ Object.create(null)
        };
        this.name = "";
        if (this.xmlnsOpt) {
          this.topNS = tag.ns = /* @__PURE__ */ Object.create(null);
        }
        (_a = this.openTagStartHandler) === null || _a === void 0 ? void 0 : _a.call(this, tag);
        this.sawRoot = true;
        if (!this.fragmentOpt && this.closedRoot) {
          this.fail("documents may contain only one root.");
        }
        switch (c) {
          case GREATER:
            this.openTag();
            break;
          case FORWARD_SLASH:
            this.state = S_OPEN_TAG_SLASH;
            break;
          default:
            if (!isS(c)) {
              this.fail("disallowed character in tag name.");
            }
            this.state = S_ATTRIB;
        }
      }
      sOpenTagSlash() {
        if (this.getCode() === GREATER) {
          this.openSelfClosingTag();
        } else {
          this.fail("forward-slash in opening tag not followed by >.");
          this.state = S_ATTRIB;
        }
      }
      sAttrib() {
        const c = this.skipSpaces();
        if (c === EOC) {
          return;
        }
        if (isNameStartChar(c)) {
          this.unget();
          this.state = S_ATTRIB_NAME;
        } else if (c === GREATER) {
          this.openTag();
        } else if (c === FORWARD_SLASH) {
          this.state = S_OPEN_TAG_SLASH;
        } else {
          this.fail("disallowed character in attribute name.");
        }
      }
      sAttribName() {
        const c = this.captureNameChars();
        if (c === EQUAL) {
          this.state = S_ATTRIB_VALUE;
        } else if (isS(c)) {
          this.state = S_ATTRIB_NAME_SAW_WHITE;
        } else if (c === GREATER) {
          this.fail("attribute without value.");
          this.pushAttrib(this.name, this.name);
          this.name = this.text = "";
          this.openTag();
        } else if (c !== EOC) {
          this.fail("disallowed character in attribute name.");
        }
      }
      sAttribNameSawWhite() {
        const c = this.skipSpaces();
        switch (c) {
          case EOC:
            return;
          case EQUAL:
            this.state = S_ATTRIB_VALUE;
            break;
          default:
            this.fail("attribute without value.");
            this.text = "";
            this.name = "";
            if (c === GREATER) {
              this.openTag();
            } else if (isNameStartChar(c)) {
              this.unget();
              this.state = S_ATTRIB_NAME;
            } else {
              this.fail("disallowed character in attribute name.");
              this.state = S_ATTRIB;
            }
        }
      }
      sAttribValue() {
        const c = this.getCodeNorm();
        if (isQuote2(c)) {
          this.q = c;
          this.state = S_ATTRIB_VALUE_QUOTED;
        } else if (!isS(c)) {
          this.fail("unquoted attribute value.");
          this.state = S_ATTRIB_VALUE_UNQUOTED;
          this.unget();
        }
      }
      sAttribValueQuoted() {
        const { q, chunk: chunk2 } = this;
        let { i: start2 } = this;
        while (true) {
          switch (this.getCode()) {
            case q:
              this.pushAttrib(this.name, this.text + chunk2.slice(start2, this.prevI));
              this.name = this.text = "";
              this.q = null;
              this.state = S_ATTRIB_VALUE_CLOSED;
              return;
            case AMP:
              this.text += chunk2.slice(start2, this.prevI);
              this.state = S_ENTITY;
              this.entityReturnState = S_ATTRIB_VALUE_QUOTED;
              return;
            case NL:
            case NL_LIKE:
            case TAB:
              this.text += `${chunk2.slice(start2, this.prevI)} `;
              start2 = this.i;
              break;
            case LESS:
              this.text += chunk2.slice(start2, this.prevI);
              this.fail("disallowed character.");
              return;
            case EOC:
              this.text += chunk2.slice(start2);
              return;
            default:
          }
        }
      }
      sAttribValueClosed() {
        const c = this.getCodeNorm();
        if (isS(c)) {
          this.state = S_ATTRIB;
        } else if (c === GREATER) {
          this.openTag();
        } else if (c === FORWARD_SLASH) {
          this.state = S_OPEN_TAG_SLASH;
        } else if (isNameStartChar(c)) {
          this.fail("no whitespace between attributes.");
          this.unget();
          this.state = S_ATTRIB_NAME;
        } else {
          this.fail("disallowed character in attribute name.");
        }
      }
      sAttribValueUnquoted() {
        const c = this.captureTo(ATTRIB_VALUE_UNQUOTED_TERMINATOR);
        switch (c) {
          case AMP:
            this.state = S_ENTITY;
            this.entityReturnState = S_ATTRIB_VALUE_UNQUOTED;
            break;
          case LESS:
            this.fail("disallowed character.");
            break;
          case EOC:
            break;
          default:
            if (this.text.includes("]]>")) {
              this.fail('the string "]]>" is disallowed in char data.');
            }
            this.pushAttrib(this.name, this.text);
            this.name = this.text = "";
            if (c === GREATER) {
              this.openTag();
            } else {
              this.state = S_ATTRIB;
            }
        }
      }
      sCloseTag() {
        const c = this.captureNameChars();
        if (c === GREATER) {
          this.closeTag();
        } else if (isS(c)) {
          this.state = S_CLOSE_TAG_SAW_WHITE;
        } else if (c !== EOC) {
          this.fail("disallowed character in closing tag.");
        }
      }
      sCloseTagSawWhite() {
        switch (this.skipSpaces()) {
          case GREATER:
            this.closeTag();
            break;
          case EOC:
            break;
          default:
            this.fail("disallowed character in closing tag.");
        }
      }
      // END OF STATE ENGINE METHODS
      handleTextInRoot() {
        let { i: start2, forbiddenState } = this;
        const { chunk: chunk2, textHandler: handler } = this;
        scanLoop:
          while (true) {
            switch (this.getCode()) {
              case LESS: {
                this.state = S_OPEN_WAKA;
                if (handler !== void 0) {
                  const { text: text2 } = this;
                  const slice = chunk2.slice(start2, this.prevI);
                  if (text2.length !== 0) {
                    handler(text2 + slice);
                    this.text = "";
                  } else if (slice.length !== 0) {
                    handler(slice);
                  }
                }
                forbiddenState = FORBIDDEN_START;
                break scanLoop;
              }
              case AMP:
                this.state = S_ENTITY;
                this.entityReturnState = S_TEXT;
                if (handler !== void 0) {
                  this.text += chunk2.slice(start2, this.prevI);
                }
                forbiddenState = FORBIDDEN_START;
                break scanLoop;
              case CLOSE_BRACKET:
                switch (forbiddenState) {
                  case FORBIDDEN_START:
                    forbiddenState = FORBIDDEN_BRACKET;
                    break;
                  case FORBIDDEN_BRACKET:
                    forbiddenState = FORBIDDEN_BRACKET_BRACKET;
                    break;
                  case FORBIDDEN_BRACKET_BRACKET:
                    break;
                  default:
                    throw new Error("impossible state");
                }
                break;
              case GREATER:
                if (forbiddenState === FORBIDDEN_BRACKET_BRACKET) {
                  this.fail('the string "]]>" is disallowed in char data.');
                }
                forbiddenState = FORBIDDEN_START;
                break;
              case NL_LIKE:
                if (handler !== void 0) {
                  this.text += `${chunk2.slice(start2, this.prevI)}
`;
                }
                start2 = this.i;
                forbiddenState = FORBIDDEN_START;
                break;
              case EOC:
                if (handler !== void 0) {
                  this.text += chunk2.slice(start2);
                }
                break scanLoop;
              default:
                forbiddenState = FORBIDDEN_START;
            }
          }
        this.forbiddenState = forbiddenState;
      }
      handleTextOutsideRoot() {
        let { i: start2 } = this;
        const { chunk: chunk2, textHandler: handler } = this;
        let nonSpace = false;
        outRootLoop:
          while (true) {
            const code = this.getCode();
            switch (code) {
              case LESS: {
                this.state = S_OPEN_WAKA;
                if (handler !== void 0) {
                  const { text: text2 } = this;
                  const slice = chunk2.slice(start2, this.prevI);
                  if (text2.length !== 0) {
                    handler(text2 + slice);
                    this.text = "";
                  } else if (slice.length !== 0) {
                    handler(slice);
                  }
                }
                break outRootLoop;
              }
              case AMP:
                this.state = S_ENTITY;
                this.entityReturnState = S_TEXT;
                if (handler !== void 0) {
                  this.text += chunk2.slice(start2, this.prevI);
                }
                nonSpace = true;
                break outRootLoop;
              case NL_LIKE:
                if (handler !== void 0) {
                  this.text += `${chunk2.slice(start2, this.prevI)}
`;
                }
                start2 = this.i;
                break;
              case EOC:
                if (handler !== void 0) {
                  this.text += chunk2.slice(start2);
                }
                break outRootLoop;
              default:
                if (!isS(code)) {
                  nonSpace = true;
                }
            }
          }
        if (!nonSpace) {
          return;
        }
        if (!this.sawRoot && !this.reportedTextBeforeRoot) {
          this.fail("text data outside of root node.");
          this.reportedTextBeforeRoot = true;
        }
        if (this.closedRoot && !this.reportedTextAfterRoot) {
          this.fail("text data outside of root node.");
          this.reportedTextAfterRoot = true;
        }
      }
      pushAttribNS(name2, value) {
        var _a;
        const { prefix, local } = this.qname(name2);
        const attr = { name: name2, prefix, local, value };
        this.attribList.push(attr);
        (_a = this.attributeHandler) === null || _a === void 0 ? void 0 : _a.call(this, attr);
        if (prefix === "xmlns") {
          const trimmed = value.trim();
          if (this.currentXMLVersion === "1.0" && trimmed === "") {
            this.fail("invalid attempt to undefine prefix in XML 1.0");
          }
          this.topNS[local] = trimmed;
          nsPairCheck(this, local, trimmed);
        } else if (name2 === "xmlns") {
          const trimmed = value.trim();
          this.topNS[""] = trimmed;
          nsPairCheck(this, "", trimmed);
        }
      }
      pushAttribPlain(name2, value) {
        var _a;
        const attr = { name: name2, value };
        this.attribList.push(attr);
        (_a = this.attributeHandler) === null || _a === void 0 ? void 0 : _a.call(this, attr);
      }
      /**
       * End parsing. This performs final well-formedness checks and resets the
       * parser to a clean state.
       *
       * @returns this
       */
      end() {
        var _a, _b;
        if (!this.sawRoot) {
          this.fail("document must contain a root element.");
        }
        const { tags } = this;
        while (tags.length > 0) {
          const tag = tags.pop();
          this.fail(`unclosed tag: ${tag.name}`);
        }
        if (this.state !== S_BEGIN && this.state !== S_TEXT) {
          this.fail("unexpected end.");
        }
        const { text: text2 } = this;
        if (text2.length !== 0) {
          (_a = this.textHandler) === null || _a === void 0 ? void 0 : _a.call(this, text2);
          this.text = "";
        }
        this._closed = true;
        (_b = this.endHandler) === null || _b === void 0 ? void 0 : _b.call(this);
        this._init();
        return this;
      }
      /**
       * Resolve a namespace prefix.
       *
       * @param prefix The prefix to resolve.
       *
       * @returns The namespace URI or ``undefined`` if the prefix is not defined.
       */
      resolve(prefix) {
        var _a, _b;
        let uri = this.topNS[prefix];
        if (uri !== void 0) {
          return uri;
        }
        const { tags } = this;
        for (let index = tags.length - 1; index >= 0; index--) {
          uri = tags[index].ns[prefix];
          if (uri !== void 0) {
            return uri;
          }
        }
        uri = this.ns[prefix];
        if (uri !== void 0) {
          return uri;
        }
        return (_b = (_a = this.opt).resolvePrefix) === null || _b === void 0 ? void 0 : _b.call(_a, prefix);
      }
      /**
       * Parse a qname into its prefix and local name parts.
       *
       * @param name The name to parse
       *
       * @returns
       */
      qname(name2) {
        const colon = name2.indexOf(":");
        if (colon === -1) {
          return { prefix: "", local: name2 };
        }
        const local = name2.slice(colon + 1);
        const prefix = name2.slice(0, colon);
        if (prefix === "" || local === "" || local.includes(":")) {
          this.fail(`malformed name: ${name2}.`);
        }
        return { prefix, local };
      }
      processAttribsNS() {
        var _a;
        const { attribList } = this;
        const tag = this.tag;
        {
          const { prefix, local } = this.qname(tag.name);
          tag.prefix = prefix;
          tag.local = local;
          const uri = tag.uri = (_a = this.resolve(prefix)) !== null && _a !== void 0 ? _a : "";
          if (prefix !== "") {
            if (prefix === "xmlns") {
              this.fail('tags may not have "xmlns" as prefix.');
            }
            if (uri === "") {
              this.fail(`unbound namespace prefix: ${JSON.stringify(prefix)}.`);
              tag.uri = prefix;
            }
          }
        }
        if (attribList.length === 0) {
          return;
        }
        const { attributes } = tag;
        const seen = /* @__PURE__ */ new Set();
        for (const attr of attribList) {
          const { name: name2, prefix, local } = attr;
          let uri;
          let eqname;
          if (prefix === "") {
            uri = name2 === "xmlns" ? XMLNS_NAMESPACE : "";
            eqname = name2;
          } else {
            uri = this.resolve(prefix);
            if (uri === void 0) {
              this.fail(`unbound namespace prefix: ${JSON.stringify(prefix)}.`);
              uri = prefix;
            }
            eqname = `{${uri}}${local}`;
          }
          if (seen.has(eqname)) {
            this.fail(`duplicate attribute: ${eqname}.`);
          }
          seen.add(eqname);
          attr.uri = uri;
          attributes[name2] = attr;
        }
        this.attribList = [];
      }
      processAttribsPlain() {
        const { attribList } = this;
        const attributes = this.tag.attributes;
        for (const { name: name2, value } of attribList) {
          if (attributes[name2] !== void 0) {
            this.fail(`duplicate attribute: ${name2}.`);
          }
          attributes[name2] = value;
        }
        this.attribList = [];
      }
      /**
       * Handle a complete open tag. This parser code calls this once it has seen
       * the whole tag. This method checks for well-formeness and then emits
       * ``onopentag``.
       */
      openTag() {
        var _a;
        this.processAttribs();
        const { tags } = this;
        const tag = this.tag;
        tag.isSelfClosing = false;
        (_a = this.openTagHandler) === null || _a === void 0 ? void 0 : _a.call(this, tag);
        tags.push(tag);
        this.state = S_TEXT;
        this.name = "";
      }
      /**
       * Handle a complete self-closing tag. This parser code calls this once it has
       * seen the whole tag. This method checks for well-formeness and then emits
       * ``onopentag`` and ``onclosetag``.
       */
      openSelfClosingTag() {
        var _a, _b, _c;
        this.processAttribs();
        const { tags } = this;
        const tag = this.tag;
        tag.isSelfClosing = true;
        (_a = this.openTagHandler) === null || _a === void 0 ? void 0 : _a.call(this, tag);
        (_b = this.closeTagHandler) === null || _b === void 0 ? void 0 : _b.call(this, tag);
        const top = this.tag = (_c = tags[tags.length - 1]) !== null && _c !== void 0 ? _c : null;
        if (top === null) {
          this.closedRoot = true;
        }
        this.state = S_TEXT;
        this.name = "";
      }
      /**
       * Handle a complete close tag. This parser code calls this once it has seen
       * the whole tag. This method checks for well-formeness and then emits
       * ``onclosetag``.
       */
      closeTag() {
        const { tags, name: name2 } = this;
        this.state = S_TEXT;
        this.name = "";
        if (name2 === "") {
          this.fail("weird empty close tag.");
          this.text += "</>";
          return;
        }
        const handler = this.closeTagHandler;
        let l = tags.length;
        while (l-- > 0) {
          const tag = this.tag = tags.pop();
          this.topNS = tag.ns;
          handler === null || handler === void 0 ? void 0 : handler(tag);
          if (tag.name === name2) {
            break;
          }
          this.fail("unexpected close tag.");
        }
        if (l === 0) {
          this.closedRoot = true;
        } else if (l < 0) {
          this.fail(`unmatched closing tag: ${name2}.`);
          this.text += `</${name2}>`;
        }
      }
      /**
       * Resolves an entity. Makes any necessary well-formedness checks.
       *
       * @param entity The entity to resolve.
       *
       * @returns The parsed entity.
       */
      parseEntity(entity) {
        if (entity[0] !== "#") {
          const defined = this.ENTITIES[entity];
          if (defined !== void 0) {
            return defined;
          }
          this.fail(this.isName(entity) ? "undefined entity." : "disallowed character in entity name.");
          return `&${entity};`;
        }
        let num = NaN;
        if (entity[1] === "x" && /^#x[0-9a-f]+$/i.test(entity)) {
          num = parseInt(entity.slice(2), 16);
        } else if (/^#[0-9]+$/.test(entity)) {
          num = parseInt(entity.slice(1), 10);
        }
        if (!this.isChar(num)) {
          this.fail("malformed character entity.");
          return `&${entity};`;
        }
        return String.fromCodePoint(num);
      }
    };
    exports.SaxesParser = SaxesParser2;
  }
});

// src/verdict/scorecard.ts
var SCORECARD_SCHEMA = "oracle-gate/scorecard@1";
function emptyScorecard(init2) {
  return {
    schema: SCORECARD_SCHEMA,
    version: init2.version,
    verdict: "error",
    merge: false,
    base: "",
    head: "",
    today: init2.today,
    policy_path: init2.policyPath,
    reasons: [],
    write_set: [],
    oracle: { base_digest: "", head_digest: "", unchanged: false },
    votes: emptyVotes(),
    transitions: emptyTransitions(),
    seeds: emptySeeds(0),
    freeze_debt: [],
    flakes: [],
    runs: [],
    diagnostics: emptyDiagnostics(),
    timings_ms: {}
  };
}
var emptyVotes = () => ({
  passed: 0,
  failed: 0,
  frozen: 0,
  drafts: 0,
  by_class: {}
});
var emptyTransitions = () => ({
  fail_to_pass: [],
  pass_to_fail: [],
  fail_to_fail: [],
  pass_to_pass: 0,
  vanished: []
});
var emptySeeds = (minDistance) => ({
  oracle_hits: 0,
  raw_fail_to_pass: 0,
  min_distance: minDistance,
  hit_ids: []
});
var emptyDiagnostics = () => ({
  non_discriminating: [],
  drafts: {}
});
function finalize(card, extra = []) {
  const reasons = sortReasons([...card.reasons, ...extra]);
  const verdict = decide(reasons);
  return { ...card, reasons, verdict, merge: verdict === "merge" };
}

// src/gate.ts
import { mkdtemp, rm as rm8 } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join as join23 } from "node:path";

// src/git/blobs.ts
async function readBlobs(git, requests) {
  const unique3 = [...new Set(requests)];
  const answers = await Promise.all(unique3.map((request) => git.readObject(request)));
  const result = /* @__PURE__ */ new Map();
  unique3.forEach((request, i2) => {
    const answer = answers[i2];
    result.set(request, answer?.type === "blob" ? answer.bytes : null);
  });
  return result;
}

// src/policy/pytest-config.ts
var PYTEST_CONFIG_FILES = [
  "pytest.ini",
  ".pytest.ini",
  "pyproject.toml",
  "tox.ini",
  "setup.cfg"
];
var PYTEST_DEFAULTS = {
  file: null,
  testpaths: [],
  pythonFiles: ["test_*.py", "*_test.py"],
  pythonClasses: ["Test"],
  pythonFunctions: ["test"],
  pythonpath: false
};
function readPytestConfig(read) {
  for (const file of PYTEST_CONFIG_FILES) {
    const text2 = read(file);
    if (text2 === null) continue;
    const section = sectionOf(file, text2);
    if (section === null) continue;
    const list2 = (key4, fallback) => {
      const value = section.get(key4);
      return value === void 0 || value.length === 0 ? fallback : value;
    };
    return {
      file,
      testpaths: list2("testpaths", []),
      pythonFiles: list2("python_files", PYTEST_DEFAULTS.pythonFiles),
      pythonClasses: list2("python_classes", PYTEST_DEFAULTS.pythonClasses),
      pythonFunctions: list2("python_functions", PYTEST_DEFAULTS.pythonFunctions),
      pythonpath: section.has("pythonpath")
    };
  }
  return PYTEST_DEFAULTS;
}
function sectionOf(file, text2) {
  if (file === "pyproject.toml") return tomlSection(text2, "tool.pytest.ini_options");
  const name2 = file === "setup.cfg" ? "tool:pytest" : "pytest";
  const section = iniSection(text2, name2);
  if (section === null && (file === "pytest.ini" || file === ".pytest.ini")) return /* @__PURE__ */ new Map();
  return section;
}
function iniSection(text2, name2) {
  let inside3 = false;
  let found = false;
  let key4 = null;
  const values = /* @__PURE__ */ new Map();
  for (const raw of text2.split(/\r?\n/)) {
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      inside3 = header[1]?.trim() === name2;
      found ||= inside3;
      key4 = null;
      continue;
    }
    if (!inside3 || /^\s*[#;]/.test(raw) || raw.trim() === "") continue;
    const pair = /^([A-Za-z_][\w-]*)\s*[=:]\s*(.*)$/.exec(raw);
    if (pair?.[1] !== void 0) {
      key4 = pair[1];
      values.set(key4, words(pair[2] ?? ""));
    } else if (key4 !== null && /^\s/.test(raw)) {
      values.get(key4)?.push(...words(raw));
    }
  }
  return found ? values : null;
}
function words(s) {
  return s.replace(/\s[#;].*$/, "").split(/[\s,]+/).filter((w) => w !== "");
}
function tomlSection(text2, name2) {
  let inside3 = false;
  let found = false;
  const values = /* @__PURE__ */ new Map();
  const lines = text2.split(/\r?\n/);
  for (let i2 = 0; i2 < lines.length; i2++) {
    const raw = lines[i2] ?? "";
    const header = /^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$/.exec(raw);
    if (header) {
      inside3 = header[1] === name2;
      found ||= inside3;
      continue;
    }
    if (!inside3) continue;
    const pair = /^\s*([A-Za-z_][\w-]*)\s*=\s*(.*)$/.exec(raw);
    if (pair?.[1] === void 0) continue;
    let value = pair[2] ?? "";
    while (value.trimStart().startsWith("[") && !closed(value) && i2 + 1 < lines.length)
      value += `
${lines[++i2] ?? ""}`;
    values.set(pair[1], tomlStrings(value));
  }
  return found ? values : null;
}
function closed(value) {
  return /\]\s*(#.*)?$/.test(value.replace(/"[^"]*"|'[^']*'/g, '""'));
}
function tomlStrings(value) {
  const strings = [...value.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((m) => m[1] ?? m[2] ?? "");
  return value.trimStart().startsWith("[") ? strings : strings.flatMap(words);
}
function configFromAnswer(answer) {
  return {
    file: answer.inifile,
    testpaths: answer.testpaths,
    pythonFiles: answer.pythonFiles.length > 0 ? answer.pythonFiles : PYTEST_DEFAULTS.pythonFiles,
    pythonClasses: answer.pythonClasses.length > 0 ? answer.pythonClasses : PYTEST_DEFAULTS.pythonClasses,
    pythonFunctions: answer.pythonFunctions.length > 0 ? answer.pythonFunctions : PYTEST_DEFAULTS.pythonFunctions,
    pythonpath: answer.pythonpath,
    ignore: answer.ignore
  };
}
function pytestConfigArgs(command) {
  const words2 = (command ?? "").split(/\s+/).filter((w) => w !== "");
  const at2 = words2.findIndex((w) => /(^|\/)(pytest|py\.test)$/.test(w));
  if (at2 < 0) return [];
  const out2 = [];
  const takes = /* @__PURE__ */ new Set(["-c", "--config-file", "--rootdir", "-o", "--override-ini"]);
  for (let i2 = at2 + 1; i2 < words2.length; i2++) {
    const w = words2[i2] ?? "";
    if (/^[;&|]/.test(w)) break;
    const name2 = w.split("=")[0] ?? "";
    if (takes.has(w) && i2 + 1 < words2.length) out2.push(w, words2[++i2] ?? "");
    else if (w.includes("=") && takes.has(name2)) out2.push(w);
  }
  return out2;
}
function namePatterns(patterns) {
  const tests = patterns.map(
    (p) => /[*?[]/.test(p) ? globRegExp(p) : new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`)
  );
  return (name2) => tests.some((t) => t.test(name2));
}
function globRegExp(glob) {
  let out2 = "";
  for (let i2 = 0; i2 < glob.length; i2++) {
    const c = glob[i2] ?? "";
    if (c === "*") out2 += ".*";
    else if (c === "?") out2 += ".";
    else if (c === "[") {
      const end = glob.indexOf("]", i2 + 1);
      if (end < 0) out2 += "\\[";
      else {
        const body2 = glob.slice(i2 + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\");
        out2 += `[${body2}]`;
        i2 = end;
      }
    } else out2 += c.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  return new RegExp(`^${out2}$`);
}

// src/writeset/append-only.ts
var DEFAULT_STYLE = {
  pythonClasses: PYTEST_DEFAULTS.pythonClasses,
  pythonFunctions: PYTEST_DEFAULTS.pythonFunctions
};
var TRANSPARENT = {
  python: /* @__PURE__ */ new Set([
    "if_statement",
    "elif_clause",
    "else_clause",
    "block",
    "for_statement",
    "while_statement",
    "try_statement",
    "except_clause",
    "finally_clause",
    "with_statement"
  ]),
  script: /* @__PURE__ */ new Set([
    "if_statement",
    "else_clause",
    "statement_block",
    "for_statement",
    "for_in_statement",
    "while_statement",
    "do_statement",
    "try_statement",
    "catch_clause",
    "finally_clause",
    "labeled_statement"
  ])
};
var JS_TESTS = /* @__PURE__ */ new Set(["it", "test", "specify", "bench"]);
var JS_GROUPS = /* @__PURE__ */ new Set(["describe", "suite", "context"]);
function checkAppendOnly(language, base, head, style = DEFAULT_STYLE) {
  const rules = compileRules(language, style, [base.tree, head.tree]);
  const removed = [];
  const added = [];
  const conflict = subtract(rules, base.tree.rootNode, head.tree.rootNode, false, removed, added);
  if (conflict) return conflict;
  return compareRemainder(rules, base, head, removed, added);
}
function compileRules(language, style, trees) {
  return {
    language,
    isClass: namePatterns(style.pythonClasses),
    isFunction: namePatterns(style.pythonFunctions),
    unittestClasses: language === "python" ? unittestClasses(trees) : /* @__PURE__ */ new Set()
  };
}
function unittestClasses(trees) {
  const classes = [];
  for (const tree of trees)
    for (const node of tree.rootNode.descendantsOfType("class_definition")) {
      if (!node) continue;
      const bases = (node.childForFieldName("superclasses")?.namedChildren ?? []).filter((b) => b !== null && (b.type === "identifier" || b.type === "attribute")).map((b) => (b?.text ?? "").split(".").pop() ?? "");
      classes.push({ name: node.childForFieldName("name")?.text ?? "", bases });
    }
  const found = /* @__PURE__ */ new Set();
  for (let grew = true; grew; ) {
    grew = false;
    for (const c of classes) {
      if (found.has(c.name)) continue;
      if (c.bases.some((b) => b.endsWith("TestCase") || found.has(b))) {
        found.add(c.name);
        grew = true;
      }
    }
  }
  return found;
}
function subtract(rules, baseScope, headScope, unittest, removed, added) {
  const baseDefs = definitions(rules, baseScope, unittest);
  const byName = new Map(baseDefs.filter((d) => d.kind !== "import").map((d) => [key(d), d]));
  const baseImports = new Set(baseDefs.filter((d) => d.kind === "import").map((d) => d.node.text));
  const seen = /* @__PURE__ */ new Set();
  for (const def of definitions(rules, headScope, unittest)) {
    if (def.kind === "import") {
      if (!baseImports.has(def.node.text)) removed.push(def.node);
      continue;
    }
    const k = key(def);
    const inBase = byName.get(k);
    if (seen.has(k) && inBase !== void 0) {
      return conflictAt(
        def.node,
        `${describe(def)} is defined twice (it would replace the locked one)`
      );
    }
    seen.add(k);
    if (inBase === void 0) {
      removed.push(def.node);
      added.push({ name: def.name, line: def.node.startPosition.row + 1 });
    } else if (def.body && inBase.body) {
      const inner = subtract(
        rules,
        inBase.body,
        def.body,
        (inBase.unittest ?? false) && (def.unittest ?? false),
        removed,
        added
      );
      if (inner) return inner;
    }
  }
  return null;
}
function key(d) {
  return `${d.kind}\0${d.name}`;
}
function describe(d) {
  return d.kind === "group" ? `group "${d.name}"` : `test "${d.name}"`;
}
function conflictAt(node, what) {
  return { ok: false, what, line: node.startPosition.row + 1, hunk: firstLines(node.text, 6) };
}
function definitions(rules, scope, unittest) {
  const out2 = [];
  const transparent = TRANSPARENT[rules.language === "python" ? "python" : "script"];
  for (const child of scope.namedChildren) {
    if (!child) continue;
    if (transparent.has(child.type)) {
      out2.push(...definitions(rules, child, unittest));
      continue;
    }
    const def = rules.language === "python" ? pythonDefinition(rules, child, unittest) : scriptDefinition(child);
    if (def) out2.push(def);
  }
  return out2;
}
function pythonDefinition(rules, node, unittest) {
  if (["import_statement", "import_from_statement", "future_import_statement"].includes(node.type))
    return { node, name: node.text, kind: "import" };
  const inner = node.type === "decorated_definition" ? node.childForFieldName("definition") : node;
  if (!inner) return null;
  const name2 = inner.childForFieldName("name")?.text ?? "";
  if (inner.type === "function_definition" && (rules.isFunction(name2) || unittest && name2.startsWith("test")))
    return { node, name: name2, kind: "test" };
  if (inner.type !== "class_definition") return null;
  const isUnittest = rules.unittestClasses.has(name2);
  if (!isUnittest && !rules.isClass(name2)) return null;
  const body2 = inner.childForFieldName("body");
  return body2 ? { node, name: name2, kind: "group", body: body2, unittest: isUnittest } : { node, name: name2, kind: "group", unittest: isUnittest };
}
function scriptDefinition(node) {
  if (node.type === "import_statement") return { node, name: node.text, kind: "import" };
  if (node.type !== "expression_statement") return null;
  const call = node.namedChildren[0];
  if (call?.type !== "call_expression") return null;
  const root = calleeRoot(call);
  if (root === null) return null;
  const kind = JS_TESTS.has(root) ? "test" : JS_GROUPS.has(root) ? "group" : null;
  if (kind === null) return null;
  const args3 = call.childForFieldName("arguments");
  const title = args3?.namedChildren[0];
  const name2 = title ? title.text : "";
  if (kind === "test") return { node, name: name2, kind };
  const fn = args3?.namedChildren.find(
    (a) => a?.type === "arrow_function" || a?.type === "function_expression"
  );
  const body2 = fn?.childForFieldName("body");
  return body2 && body2.type === "statement_block" ? { node, name: name2, kind, body: body2 } : { node, name: name2, kind };
}
function calleeRoot(call) {
  let n = call.childForFieldName("function");
  while (n) {
    if (n.type === "identifier") return n.text;
    if (n.type === "member_expression") n = n.childForFieldName("object");
    else if (n.type === "call_expression") n = n.childForFieldName("function");
    else return null;
  }
  return null;
}
function compareRemainder(rules, base, head, removed, added) {
  const gone = /* @__PURE__ */ new Set();
  for (const node of removed) {
    if (!ownsItsLines(node, head.text)) {
      return conflictAt(node, "a test or import was added on a line shared with other code");
    }
    for (let r = node.startPosition.row; r <= node.endPosition.row; r++) gone.add(r);
  }
  const headLines = head.text.split("\n");
  const baseLines = base.text.split("\n");
  let b = 0;
  for (let h = 0; h < headLines.length; h++) {
    if (gone.has(h)) continue;
    const line2 = headLines[h] ?? "";
    if (b < baseLines.length && line2 === baseLines[b]) {
      b++;
      continue;
    }
    if (line2.trim() === "" && !insideString(head.tree, h)) continue;
    return mismatch(rules, base, b, h, headLines);
  }
  while (b < baseLines.length && (baseLines[b] ?? "").trim() === "") b++;
  if (b < baseLines.length) return mismatch(rules, base, b, headLines.length - 1, headLines);
  return { ok: true, added };
}
function ownsItsLines(node, text2) {
  const lines = text2.split("\n");
  const first = lines[node.startPosition.row] ?? "";
  const last = lines[node.endPosition.row] ?? "";
  return first.slice(0, node.startPosition.column).trim() === "" && last.slice(node.endPosition.column).trim() === "";
}
function insideString(tree, row) {
  let n = tree.rootNode.descendantForPosition({ row, column: 0 });
  for (; n; n = n.parent) {
    if (/string|template/.test(n.type) && n.startPosition.row < row) return true;
  }
  return false;
}
function mismatch(rules, base, baseRow, headRow, headLines) {
  const lines = base.text.split("\n");
  while (baseRow + 1 < lines.length && (lines[baseRow] ?? "").trim() === "") baseRow++;
  const enclosing = enclosingDefinition(rules, base.tree.rootNode, false, baseRow);
  const what = enclosing === null ? `a statement outside the tests changed (base line ${baseRow + 1})` : `${describe(enclosing)} was changed or removed`;
  const lo = Math.max(0, headRow - 2);
  const hunk = headLines.slice(lo, headRow + 3).join("\n");
  return { ok: false, what, line: headRow + 1, baseLine: baseRow + 1, hunk };
}
function enclosingDefinition(rules, scope, unittest, row) {
  for (const def of definitions(rules, scope, unittest)) {
    if (def.kind === "import") continue;
    if (def.node.startPosition.row > row || def.node.endPosition.row < row) continue;
    return (def.body && enclosingDefinition(rules, def.body, def.unittest ?? false, row)) ?? def;
  }
  return null;
}
function firstLines(text2, n) {
  return text2.split("\n").slice(0, n).join("\n");
}

// src/lints/parsers.ts
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// node_modules/web-tree-sitter/web-tree-sitter.js
var __defProp = Object.defineProperty;
var __name = (target, value) => __defProp(target, "name", { value, configurable: true });
var Edit = class {
  static {
    __name(this, "Edit");
  }
  /** The start position of the change. */
  startPosition;
  /** The end position of the change before the edit. */
  oldEndPosition;
  /** The end position of the change after the edit. */
  newEndPosition;
  /** The start index of the change. */
  startIndex;
  /** The end index of the change before the edit. */
  oldEndIndex;
  /** The end index of the change after the edit. */
  newEndIndex;
  constructor({
    startIndex,
    oldEndIndex,
    newEndIndex,
    startPosition,
    oldEndPosition,
    newEndPosition
  }) {
    this.startIndex = startIndex >>> 0;
    this.oldEndIndex = oldEndIndex >>> 0;
    this.newEndIndex = newEndIndex >>> 0;
    this.startPosition = startPosition;
    this.oldEndPosition = oldEndPosition;
    this.newEndPosition = newEndPosition;
  }
  /**
   * Edit a point and index to keep it in-sync with source code that has been edited.
   *
   * This function updates a single point's byte offset and row/column position
   * based on an edit operation. This is useful for editing points without
   * requiring a tree or node instance.
   */
  editPoint(point, index) {
    let newIndex = index;
    const newPoint = { ...point };
    if (index >= this.oldEndIndex) {
      newIndex = this.newEndIndex + (index - this.oldEndIndex);
      const originalRow = point.row;
      newPoint.row = this.newEndPosition.row + (point.row - this.oldEndPosition.row);
      newPoint.column = originalRow === this.oldEndPosition.row ? this.newEndPosition.column + (point.column - this.oldEndPosition.column) : point.column;
    } else if (index > this.startIndex) {
      newIndex = this.newEndIndex;
      newPoint.row = this.newEndPosition.row;
      newPoint.column = this.newEndPosition.column;
    }
    return { point: newPoint, index: newIndex };
  }
  /**
   * Edit a range to keep it in-sync with source code that has been edited.
   *
   * This function updates a range's start and end positions based on an edit
   * operation. This is useful for editing ranges without requiring a tree
   * or node instance.
   */
  editRange(range) {
    const newRange = {
      startIndex: range.startIndex,
      startPosition: { ...range.startPosition },
      endIndex: range.endIndex,
      endPosition: { ...range.endPosition }
    };
    if (range.endIndex >= this.oldEndIndex) {
      if (range.endIndex !== Number.MAX_SAFE_INTEGER) {
        newRange.endIndex = this.newEndIndex + (range.endIndex - this.oldEndIndex);
        newRange.endPosition = {
          row: this.newEndPosition.row + (range.endPosition.row - this.oldEndPosition.row),
          column: range.endPosition.row === this.oldEndPosition.row ? this.newEndPosition.column + (range.endPosition.column - this.oldEndPosition.column) : range.endPosition.column
        };
        if (newRange.endIndex < this.newEndIndex) {
          newRange.endIndex = Number.MAX_SAFE_INTEGER;
          newRange.endPosition = { row: Number.MAX_SAFE_INTEGER, column: Number.MAX_SAFE_INTEGER };
        }
      }
    } else if (range.endIndex > this.startIndex) {
      newRange.endIndex = this.startIndex;
      newRange.endPosition = { ...this.startPosition };
    }
    if (range.startIndex >= this.oldEndIndex) {
      newRange.startIndex = this.newEndIndex + (range.startIndex - this.oldEndIndex);
      newRange.startPosition = {
        row: this.newEndPosition.row + (range.startPosition.row - this.oldEndPosition.row),
        column: range.startPosition.row === this.oldEndPosition.row ? this.newEndPosition.column + (range.startPosition.column - this.oldEndPosition.column) : range.startPosition.column
      };
      if (newRange.startIndex < this.newEndIndex) {
        newRange.startIndex = Number.MAX_SAFE_INTEGER;
        newRange.startPosition = { row: Number.MAX_SAFE_INTEGER, column: Number.MAX_SAFE_INTEGER };
      }
    } else if (range.startIndex > this.startIndex) {
      newRange.startIndex = this.startIndex;
      newRange.startPosition = { ...this.startPosition };
    }
    return newRange;
  }
};
var SIZE_OF_SHORT = 2;
var SIZE_OF_INT = 4;
var SIZE_OF_CURSOR = 4 * SIZE_OF_INT;
var SIZE_OF_NODE = 5 * SIZE_OF_INT;
var SIZE_OF_POINT = 2 * SIZE_OF_INT;
var SIZE_OF_RANGE = 2 * SIZE_OF_INT + 2 * SIZE_OF_POINT;
var ZERO_POINT = { row: 0, column: 0 };
var INTERNAL = /* @__PURE__ */ Symbol("INTERNAL");
function assertInternal(x) {
  if (x !== INTERNAL) throw new Error("Illegal constructor");
}
__name(assertInternal, "assertInternal");
function isPoint(point) {
  return !!point && typeof point.row === "number" && typeof point.column === "number";
}
__name(isPoint, "isPoint");
function setModule(module2) {
  C = module2;
}
__name(setModule, "setModule");
var C;
function newFinalizer(handler) {
  try {
    return new FinalizationRegistry(handler);
  } catch (e) {
    console.error("Unsupported FinalizationRegistry:", e);
    return;
  }
}
__name(newFinalizer, "newFinalizer");
var finalizer = newFinalizer((address) => {
  C._ts_lookahead_iterator_delete(address);
});
var LookaheadIterator = class {
  static {
    __name(this, "LookaheadIterator");
  }
  /** @internal */
  [0] = 0;
  // Internal handle for Wasm
  /** @internal */
  language;
  /** @internal */
  positioned = false;
  /** @internal */
  constructor(internal, address, language) {
    assertInternal(internal);
    this[0] = address;
    this.language = language;
    finalizer?.register(this, address, this);
  }
  /**
   * Get the current symbol of the lookahead iterator.
   *
   * Returns `null` if the iterator is not positioned on a symbol:
   *
   * - Before the first iteration step
   * - After the iterator is exhausted
   * - After a {@link reset} or {@link resetState} call
   */
  get currentTypeId() {
    return this.positioned ? C._ts_lookahead_iterator_current_symbol(this[0]) : null;
  }
  /**
   * Get the current symbol name of the lookahead iterator.
   *
   * Returns `null` if the iterator is not positioned on a symbol.
   */
  get currentType() {
    const id = this.currentTypeId;
    if (id === null) return null;
    return this.language.types[id] ?? C.UTF8ToString(C._ts_language_symbol_name(this.language[0], id));
  }
  /** Delete the lookahead iterator, freeing its resources. */
  delete() {
    finalizer?.unregister(this);
    C._ts_lookahead_iterator_delete(this[0]);
    this[0] = 0;
  }
  /**
   * Reset the lookahead iterator.
   *
   * This returns `true` if the language was set successfully and `false`
   * otherwise.
   */
  reset(language, stateId) {
    if (C._ts_lookahead_iterator_reset(this[0], language[0], stateId)) {
      this.language = language;
      this.positioned = false;
      return true;
    }
    return false;
  }
  /**
   * Reset the lookahead iterator to another state.
   *
   * This returns `true` if the iterator was reset to the given state and
   * `false` otherwise.
   */
  resetState(stateId) {
    if (!C._ts_lookahead_iterator_reset_state(this[0], stateId)) return false;
    this.positioned = false;
    return true;
  }
  /**
   * Returns an iterator that iterates over the symbols of the lookahead iterator.
   *
   * The iterator will yield the current symbol name as a string for each step
   * until there are no more symbols to iterate over.
   */
  [Symbol.iterator]() {
    return {
      next: /* @__PURE__ */ __name(() => {
        this.positioned = Boolean(C._ts_lookahead_iterator_next(this[0]));
        const value = this.currentType;
        return value === null ? { done: true, value: "" } : { done: false, value };
      }, "next")
    };
  }
};
function getText(tree, startIndex, endIndex, startPosition) {
  const length = endIndex - startIndex;
  let result = tree.textCallback(startIndex, startPosition);
  if (result) {
    startIndex += result.length;
    while (startIndex < endIndex) {
      const string = tree.textCallback(startIndex, startPosition);
      if (string && string.length > 0) {
        startIndex += string.length;
        result += string;
      } else {
        break;
      }
    }
    if (startIndex > endIndex) {
      result = result.slice(0, length);
    }
  }
  return result ?? "";
}
__name(getText, "getText");
var finalizer2 = newFinalizer((address) => {
  C._ts_tree_delete(address);
});
var Tree = class _Tree {
  static {
    __name(this, "Tree");
  }
  /** @internal */
  [0] = 0;
  // Internal handle for Wasm
  /** @internal */
  textCallback;
  /** The language that was used to parse the syntax tree. */
  language;
  /** @internal */
  constructor(internal, address, language, textCallback) {
    assertInternal(internal);
    this[0] = address;
    this.language = language;
    this.textCallback = textCallback;
    finalizer2?.register(this, address, this);
  }
  /** Create a shallow copy of the syntax tree. This is very fast. */
  copy() {
    const address = C._ts_tree_copy(this[0]);
    return new _Tree(INTERNAL, address, this.language, this.textCallback);
  }
  /** Delete the syntax tree, freeing its resources. */
  delete() {
    finalizer2?.unregister(this);
    C._ts_tree_delete(this[0]);
    this[0] = 0;
  }
  /** Get the root node of the syntax tree. */
  get rootNode() {
    C._ts_tree_root_node_wasm(this[0]);
    return unmarshalNode(this);
  }
  /**
   * Get the root node of the syntax tree, but with its position shifted
   * forward by the given offset.
   */
  rootNodeWithOffset(offsetBytes, offsetExtent) {
    const address = TRANSFER_BUFFER + SIZE_OF_NODE;
    C.setValue(address, offsetBytes, "i32");
    marshalPoint(address + SIZE_OF_INT, offsetExtent);
    C._ts_tree_root_node_with_offset_wasm(this[0]);
    return unmarshalNode(this);
  }
  /**
   * Edit the syntax tree to keep it in sync with source code that has been
   * edited.
   *
   * You must describe the edit both in terms of byte offsets and in terms of
   * row/column coordinates.
   */
  edit(edit) {
    marshalEdit(edit);
    C._ts_tree_edit_wasm(this[0]);
  }
  /** Create a new {@link TreeCursor} starting from the root of the tree. */
  walk() {
    return this.rootNode.walk();
  }
  /**
   * Compare this old edited syntax tree to a new syntax tree representing
   * the same document, returning a sequence of ranges whose syntactic
   * structure has changed.
   *
   * For this to work correctly, this syntax tree must have been edited such
   * that its ranges match up to the new tree. Generally, you'll want to
   * call this method right after calling one of the [`Parser::parse`]
   * functions. Call it on the old tree that was passed to parse, and
   * pass the new tree that was returned from `parse`.
   */
  getChangedRanges(other) {
    if (!(other instanceof _Tree)) {
      throw new TypeError("Argument must be a Tree");
    }
    C._ts_tree_get_changed_ranges_wasm(this[0], other[0]);
    const count2 = C.getValue(TRANSFER_BUFFER, "i32");
    const buffer = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
    const result = new Array(count2);
    if (count2 > 0) {
      let address = buffer;
      for (let i2 = 0; i2 < count2; i2++) {
        result[i2] = unmarshalRange(address);
        address += SIZE_OF_RANGE;
      }
      C._free(buffer);
    }
    return result;
  }
  /** Get the included ranges that were used to parse the syntax tree. */
  getIncludedRanges() {
    C._ts_tree_included_ranges_wasm(this[0]);
    const count2 = C.getValue(TRANSFER_BUFFER, "i32");
    const buffer = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
    const result = new Array(count2);
    if (count2 > 0) {
      let address = buffer;
      for (let i2 = 0; i2 < count2; i2++) {
        result[i2] = unmarshalRange(address);
        address += SIZE_OF_RANGE;
      }
      C._free(buffer);
    }
    return result;
  }
};
var finalizer3 = newFinalizer((handles) => {
  marshalTreeCursor({ handles });
  C._ts_tree_cursor_delete_wasm(0);
});
var TreeCursor = class _TreeCursor {
  static {
    __name(this, "TreeCursor");
  }
  /** @internal */
  handles = [0, 0, 0, 0];
  // Internal handles for Wasm, shared with the finalizer.
  /** @internal */
  tree;
  /** @internal */
  constructor(internal, tree) {
    assertInternal(internal);
    this.tree = tree;
    unmarshalTreeCursor(this);
    finalizer3?.register(this, this.handles, this);
  }
  /** Creates a deep copy of the tree cursor. This allocates new memory. */
  copy() {
    marshalTreeCursor(this);
    C._ts_tree_cursor_copy_wasm(this.tree[0]);
    return new _TreeCursor(INTERNAL, this.tree);
  }
  /** Delete the tree cursor, freeing its resources. */
  delete() {
    finalizer3?.unregister(this);
    marshalTreeCursor(this);
    C._ts_tree_cursor_delete_wasm(this.tree[0]);
    this.handles.fill(0);
  }
  /** Get the tree cursor's current {@link Node}. */
  get currentNode() {
    marshalTreeCursor(this);
    C._ts_tree_cursor_current_node_wasm(this.tree[0]);
    return unmarshalNode(this.tree);
  }
  /**
   * Get the numerical field id of this tree cursor's current node.
   *
   * See also {@link TreeCursor#currentFieldName}.
   */
  get currentFieldId() {
    marshalTreeCursor(this);
    return C._ts_tree_cursor_current_field_id_wasm(this.tree[0]);
  }
  /** Get the field name of this tree cursor's current node. */
  get currentFieldName() {
    return this.tree.language.fields[this.currentFieldId];
  }
  /**
   * Get the depth of the cursor's current node relative to the original
   * node that the cursor was constructed with.
   */
  get currentDepth() {
    marshalTreeCursor(this);
    return C._ts_tree_cursor_current_depth_wasm(this.tree[0]);
  }
  /**
   * Get the index of the cursor's current node out of all of the
   * descendants of the original node that the cursor was constructed with.
   */
  get currentDescendantIndex() {
    marshalTreeCursor(this);
    return C._ts_tree_cursor_current_descendant_index_wasm(this.tree[0]);
  }
  /** Get the type of the cursor's current node. */
  get nodeType() {
    return this.tree.language.types[this.nodeTypeId] || "ERROR";
  }
  /** Get the type id of the cursor's current node. */
  get nodeTypeId() {
    marshalTreeCursor(this);
    return C._ts_tree_cursor_current_node_type_id_wasm(this.tree[0]);
  }
  /** Get the state id of the cursor's current node. */
  get nodeStateId() {
    marshalTreeCursor(this);
    return C._ts_tree_cursor_current_node_state_id_wasm(this.tree[0]);
  }
  /** Get the id of the cursor's current node. */
  get nodeId() {
    marshalTreeCursor(this);
    return C._ts_tree_cursor_current_node_id_wasm(this.tree[0]);
  }
  /**
   * Check if the cursor's current node is *named*.
   *
   * Named nodes correspond to named rules in the grammar, whereas
   * *anonymous* nodes correspond to string literals in the grammar.
   */
  get nodeIsNamed() {
    marshalTreeCursor(this);
    return C._ts_tree_cursor_current_node_is_named_wasm(this.tree[0]) === 1;
  }
  /**
   * Check if the cursor's current node is *missing*.
   *
   * Missing nodes are inserted by the parser in order to recover from
   * certain kinds of syntax errors.
   */
  get nodeIsMissing() {
    marshalTreeCursor(this);
    return C._ts_tree_cursor_current_node_is_missing_wasm(this.tree[0]) === 1;
  }
  /** Get the string content of the cursor's current node. */
  get nodeText() {
    marshalTreeCursor(this);
    const startIndex = C._ts_tree_cursor_start_index_wasm(this.tree[0]);
    const endIndex = C._ts_tree_cursor_end_index_wasm(this.tree[0]);
    C._ts_tree_cursor_start_position_wasm(this.tree[0]);
    const startPosition = unmarshalPoint(TRANSFER_BUFFER);
    return getText(this.tree, startIndex, endIndex, startPosition);
  }
  /** Get the start position of the cursor's current node. */
  get startPosition() {
    marshalTreeCursor(this);
    C._ts_tree_cursor_start_position_wasm(this.tree[0]);
    return unmarshalPoint(TRANSFER_BUFFER);
  }
  /** Get the end position of the cursor's current node. */
  get endPosition() {
    marshalTreeCursor(this);
    C._ts_tree_cursor_end_position_wasm(this.tree[0]);
    return unmarshalPoint(TRANSFER_BUFFER);
  }
  /** Get the start index of the cursor's current node. */
  get startIndex() {
    marshalTreeCursor(this);
    return C._ts_tree_cursor_start_index_wasm(this.tree[0]);
  }
  /** Get the end index of the cursor's current node. */
  get endIndex() {
    marshalTreeCursor(this);
    return C._ts_tree_cursor_end_index_wasm(this.tree[0]);
  }
  /**
   * Move this cursor to the first child of its current node.
   *
   * This returns `true` if the cursor successfully moved, and returns
   * `false` if there were no children.
   */
  gotoFirstChild() {
    marshalTreeCursor(this);
    const result = C._ts_tree_cursor_goto_first_child_wasm(this.tree[0]);
    unmarshalTreeCursor(this);
    return result === 1;
  }
  /**
   * Move this cursor to the last child of its current node.
   *
   * This returns `true` if the cursor successfully moved, and returns
   * `false` if there were no children.
   *
   * Note that this function may be slower than
   * {@link TreeCursor#gotoFirstChild} because it needs to
   * iterate through all the children to compute the child's position.
   */
  gotoLastChild() {
    marshalTreeCursor(this);
    const result = C._ts_tree_cursor_goto_last_child_wasm(this.tree[0]);
    unmarshalTreeCursor(this);
    return result === 1;
  }
  /**
   * Move this cursor to the parent of its current node.
   *
   * This returns `true` if the cursor successfully moved, and returns
   * `false` if there was no parent node (the cursor was already on the
   * root node).
   *
   * Note that the node the cursor was constructed with is considered the root
   * of the cursor, and the cursor cannot walk outside this node.
   */
  gotoParent() {
    marshalTreeCursor(this);
    const result = C._ts_tree_cursor_goto_parent_wasm(this.tree[0]);
    unmarshalTreeCursor(this);
    return result === 1;
  }
  /**
   * Move this cursor to the next sibling of its current node.
   *
   * This returns `true` if the cursor successfully moved, and returns
   * `false` if there was no next sibling node.
   *
   * Note that the node the cursor was constructed with is considered the root
   * of the cursor, and the cursor cannot walk outside this node.
   */
  gotoNextSibling() {
    marshalTreeCursor(this);
    const result = C._ts_tree_cursor_goto_next_sibling_wasm(this.tree[0]);
    unmarshalTreeCursor(this);
    return result === 1;
  }
  /**
   * Move this cursor to the previous sibling of its current node.
   *
   * This returns `true` if the cursor successfully moved, and returns
   * `false` if there was no previous sibling node.
   *
   * Note that this function may be slower than
   * {@link TreeCursor#gotoNextSibling} due to how node
   * positions are stored. In the worst case, this will need to iterate
   * through all the children up to the previous sibling node to recalculate
   * its position. Also note that the node the cursor was constructed with is
   * considered the root of the cursor, and the cursor cannot walk outside this node.
   */
  gotoPreviousSibling() {
    marshalTreeCursor(this);
    const result = C._ts_tree_cursor_goto_previous_sibling_wasm(this.tree[0]);
    unmarshalTreeCursor(this);
    return result === 1;
  }
  /**
   * Move the cursor to the node that is the nth descendant of
   * the original node that the cursor was constructed with, where
   * zero represents the original node itself.
   */
  gotoDescendant(goalDescendantIndex) {
    marshalTreeCursor(this);
    C._ts_tree_cursor_goto_descendant_wasm(this.tree[0], goalDescendantIndex);
    unmarshalTreeCursor(this);
  }
  /**
   * Move this cursor to the first child of its current node that contains or
   * starts after the given byte offset.
   *
   * This returns `true` if the cursor successfully moved to a child node, and returns
   * `false` if no such child was found.
   */
  gotoFirstChildForIndex(goalIndex) {
    marshalTreeCursor(this);
    C.setValue(TRANSFER_BUFFER + SIZE_OF_CURSOR, goalIndex, "i32");
    const result = C._ts_tree_cursor_goto_first_child_for_index_wasm(this.tree[0]);
    unmarshalTreeCursor(this);
    return result === 1;
  }
  /**
   * Move this cursor to the first child of its current node that contains or
   * starts after the given position.
   *
   * This returns `true` if the cursor successfully moved to a child node, and returns
   * `false` if no such child was found.
   */
  gotoFirstChildForPosition(goalPosition) {
    marshalTreeCursor(this);
    marshalPoint(TRANSFER_BUFFER + SIZE_OF_CURSOR, goalPosition);
    const result = C._ts_tree_cursor_goto_first_child_for_position_wasm(this.tree[0]);
    unmarshalTreeCursor(this);
    return result === 1;
  }
  /**
   * Re-initialize this tree cursor to start at the original node that the
   * cursor was constructed with.
   */
  reset(node) {
    marshalNode(node);
    marshalTreeCursor(this, TRANSFER_BUFFER + SIZE_OF_NODE);
    C._ts_tree_cursor_reset_wasm(node.tree[0]);
    unmarshalTreeCursor(this);
    this.tree = node.tree;
  }
  /**
   * Re-initialize a tree cursor to the same position as another cursor.
   *
   * Unlike {@link TreeCursor#reset}, this will not lose parent
   * information and allows reusing already created cursors.
   */
  resetTo(cursor) {
    marshalTreeCursor(this, TRANSFER_BUFFER);
    marshalTreeCursor(cursor, TRANSFER_BUFFER + SIZE_OF_CURSOR);
    C._ts_tree_cursor_reset_to_wasm(this.tree[0], cursor.tree[0]);
    unmarshalTreeCursor(this);
    this.tree = cursor.tree;
  }
};
var Node = class {
  static {
    __name(this, "Node");
  }
  /** @internal */
  // @ts-expect-error: never read
  [0] = 0;
  // Internal handle for Wasm
  /** @internal */
  _children;
  /** @internal */
  _namedChildren;
  /** @internal */
  constructor(internal, {
    id,
    tree,
    startIndex,
    startPosition,
    other
  }) {
    assertInternal(internal);
    this[0] = other;
    this.id = id;
    this.tree = tree;
    this.startIndex = startIndex;
    this.startPosition = startPosition;
  }
  /**
   * The numeric id for this node that is unique.
   *
   * Within a given syntax tree, no two nodes have the same id. However:
   *
   * * If a new tree is created based on an older tree, and a node from the old tree is reused in
   *   the process, then that node will have the same id in both trees.
   *
   * * A node not marked as having changes does not guarantee it was reused.
   *
   * * If a node is marked as having changed in the old tree, it will not be reused.
   */
  id;
  /** The byte index where this node starts. */
  startIndex;
  /** The position where this node starts. */
  startPosition;
  /** The tree that this node belongs to. */
  tree;
  /** Get this node's type as a numerical id. */
  get typeId() {
    marshalNode(this);
    return C._ts_node_symbol_wasm(this.tree[0]);
  }
  /**
   * Get the node's type as a numerical id as it appears in the grammar,
   * ignoring aliases.
   */
  get grammarId() {
    marshalNode(this);
    return C._ts_node_grammar_symbol_wasm(this.tree[0]);
  }
  /** Get this node's type as a string. */
  get type() {
    return this.tree.language.types[this.typeId] || "ERROR";
  }
  /**
   * Get this node's symbol name as it appears in the grammar, ignoring
   * aliases as a string.
   */
  get grammarType() {
    return this.tree.language.types[this.grammarId] || "ERROR";
  }
  /**
   * Check if this node is *named*.
   *
   * Named nodes correspond to named rules in the grammar, whereas
   * *anonymous* nodes correspond to string literals in the grammar.
   */
  get isNamed() {
    marshalNode(this);
    return C._ts_node_is_named_wasm(this.tree[0]) === 1;
  }
  /**
   * Check if this node is *extra*.
   *
   * Extra nodes represent things like comments, which are not required
   * by the grammar, but can appear anywhere.
   */
  get isExtra() {
    marshalNode(this);
    return C._ts_node_is_extra_wasm(this.tree[0]) === 1;
  }
  /**
   * Check if this node represents a syntax error.
   *
   * Syntax errors represent parts of the code that could not be incorporated
   * into a valid syntax tree.
   */
  get isError() {
    marshalNode(this);
    return C._ts_node_is_error_wasm(this.tree[0]) === 1;
  }
  /**
   * Check if this node is *missing*.
   *
   * Missing nodes are inserted by the parser in order to recover from
   * certain kinds of syntax errors.
   */
  get isMissing() {
    marshalNode(this);
    return C._ts_node_is_missing_wasm(this.tree[0]) === 1;
  }
  /** Check if this node has been edited. */
  get hasChanges() {
    marshalNode(this);
    return C._ts_node_has_changes_wasm(this.tree[0]) === 1;
  }
  /**
   * Check if this node represents a syntax error or contains any syntax
   * errors anywhere within it.
   */
  get hasError() {
    marshalNode(this);
    return C._ts_node_has_error_wasm(this.tree[0]) === 1;
  }
  /** Get the byte index where this node ends. */
  get endIndex() {
    marshalNode(this);
    return C._ts_node_end_index_wasm(this.tree[0]);
  }
  /** Get the position where this node ends. */
  get endPosition() {
    marshalNode(this);
    C._ts_node_end_point_wasm(this.tree[0]);
    return unmarshalPoint(TRANSFER_BUFFER);
  }
  /** Get the string content of this node. */
  get text() {
    return getText(this.tree, this.startIndex, this.endIndex, this.startPosition);
  }
  /** Get this node's parse state. */
  get parseState() {
    marshalNode(this);
    return C._ts_node_parse_state_wasm(this.tree[0]);
  }
  /** Get the parse state after this node. */
  get nextParseState() {
    marshalNode(this);
    return C._ts_node_next_parse_state_wasm(this.tree[0]);
  }
  /** Check if this node is equal to another node. */
  equals(other) {
    return this.tree === other.tree && this.id === other.id;
  }
  /**
   * Get the node's child at the given index, where zero represents the first child.
   *
   * This method is fairly fast, but its cost is technically log(n), so if
   * you might be iterating over a long list of children, you should use
   * {@link Node#children} instead.
   */
  child(index) {
    marshalNode(this);
    C._ts_node_child_wasm(this.tree[0], index);
    return unmarshalNode(this.tree);
  }
  /**
   * Get this node's *named* child at the given index.
   *
   * See also {@link Node#isNamed}.
   * This method is fairly fast, but its cost is technically log(n), so if
   * you might be iterating over a long list of children, you should use
   * {@link Node#namedChildren} instead.
   */
  namedChild(index) {
    marshalNode(this);
    C._ts_node_named_child_wasm(this.tree[0], index);
    return unmarshalNode(this.tree);
  }
  /**
   * Get this node's child with the given numerical field id.
   *
   * See also {@link Node#childForFieldName}. You can
   * convert a field name to an id using {@link Language#fieldIdForName}.
   */
  childForFieldId(fieldId) {
    marshalNode(this);
    C._ts_node_child_by_field_id_wasm(this.tree[0], fieldId);
    return unmarshalNode(this.tree);
  }
  /**
   * Get the first child with the given field name.
   *
   * If multiple children may have the same field name, access them using
   * {@link Node#childrenForFieldName}.
   */
  childForFieldName(fieldName) {
    const fieldId = this.tree.language.fields.indexOf(fieldName);
    if (fieldId !== -1) return this.childForFieldId(fieldId);
    return null;
  }
  /** Get the field name of this node's child at the given index. */
  fieldNameForChild(index) {
    marshalNode(this);
    const address = C._ts_node_field_name_for_child_wasm(this.tree[0], index);
    if (!address) return null;
    return C.AsciiToString(address);
  }
  /** Get the field name of this node's named child at the given index. */
  fieldNameForNamedChild(index) {
    marshalNode(this);
    const address = C._ts_node_field_name_for_named_child_wasm(this.tree[0], index);
    if (!address) return null;
    return C.AsciiToString(address);
  }
  /**
   * Get an array of this node's children with a given field name.
   *
   * See also {@link Node#children}.
   */
  childrenForFieldName(fieldName) {
    const fieldId = this.tree.language.fields.indexOf(fieldName);
    if (fieldId !== -1 && fieldId !== 0) return this.childrenForFieldId(fieldId);
    return [];
  }
  /**
    * Get an array of this node's children with a given field id.
    *
    * See also {@link Node#childrenForFieldName}.
    */
  childrenForFieldId(fieldId) {
    marshalNode(this);
    C._ts_node_children_by_field_id_wasm(this.tree[0], fieldId);
    const count2 = C.getValue(TRANSFER_BUFFER, "i32");
    const buffer = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
    const result = new Array(count2);
    if (count2 > 0) {
      let address = buffer;
      for (let i2 = 0; i2 < count2; i2++) {
        result[i2] = unmarshalNode(this.tree, address);
        address += SIZE_OF_NODE;
      }
      C._free(buffer);
    }
    return result;
  }
  /** Get the node's first child that contains or starts after the given byte offset. */
  firstChildForIndex(index) {
    marshalNode(this);
    const address = TRANSFER_BUFFER + SIZE_OF_NODE;
    C.setValue(address, index, "i32");
    C._ts_node_first_child_for_byte_wasm(this.tree[0]);
    return unmarshalNode(this.tree);
  }
  /** Get the node's first named child that contains or starts after the given byte offset. */
  firstNamedChildForIndex(index) {
    marshalNode(this);
    const address = TRANSFER_BUFFER + SIZE_OF_NODE;
    C.setValue(address, index, "i32");
    C._ts_node_first_named_child_for_byte_wasm(this.tree[0]);
    return unmarshalNode(this.tree);
  }
  /** Get this node's number of children. */
  get childCount() {
    marshalNode(this);
    return C._ts_node_child_count_wasm(this.tree[0]);
  }
  /**
   * Get this node's number of *named* children.
   *
   * See also {@link Node#isNamed}.
   */
  get namedChildCount() {
    marshalNode(this);
    return C._ts_node_named_child_count_wasm(this.tree[0]);
  }
  /** Get this node's first child. */
  get firstChild() {
    return this.child(0);
  }
  /**
   * Get this node's first named child.
   *
   * See also {@link Node#isNamed}.
   */
  get firstNamedChild() {
    return this.namedChild(0);
  }
  /** Get this node's last child. */
  get lastChild() {
    return this.child(this.childCount - 1);
  }
  /**
   * Get this node's last named child.
   *
   * See also {@link Node#isNamed}.
   */
  get lastNamedChild() {
    return this.namedChild(this.namedChildCount - 1);
  }
  /**
   * Iterate over this node's children.
   *
   * If you're walking the tree recursively, you may want to use the
   * {@link TreeCursor} APIs directly instead.
   */
  get children() {
    if (!this._children) {
      marshalNode(this);
      C._ts_node_children_wasm(this.tree[0]);
      const count2 = C.getValue(TRANSFER_BUFFER, "i32");
      const buffer = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
      this._children = new Array(count2);
      if (count2 > 0) {
        let address = buffer;
        for (let i2 = 0; i2 < count2; i2++) {
          this._children[i2] = unmarshalNode(this.tree, address);
          address += SIZE_OF_NODE;
        }
        C._free(buffer);
      }
    }
    return this._children;
  }
  /**
   * Iterate over this node's named children.
   *
   * See also {@link Node#children}.
   */
  get namedChildren() {
    if (!this._namedChildren) {
      marshalNode(this);
      C._ts_node_named_children_wasm(this.tree[0]);
      const count2 = C.getValue(TRANSFER_BUFFER, "i32");
      const buffer = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
      this._namedChildren = new Array(count2);
      if (count2 > 0) {
        let address = buffer;
        for (let i2 = 0; i2 < count2; i2++) {
          this._namedChildren[i2] = unmarshalNode(this.tree, address);
          address += SIZE_OF_NODE;
        }
        C._free(buffer);
      }
    }
    return this._namedChildren;
  }
  /**
   * Get the descendants of this node that are the given type, or in the given types array.
   *
   * The types array should contain node type strings, which can be retrieved from {@link Language#types}.
   *
   * Additionally, a `startPosition` and `endPosition` can be passed in to restrict the search to a byte range.
   */
  descendantsOfType(types, startPosition = ZERO_POINT, endPosition = ZERO_POINT) {
    if (!Array.isArray(types)) types = [types];
    const symbols = [];
    const typesBySymbol = this.tree.language.types;
    for (let i2 = 0, n = typesBySymbol.length; i2 < n; i2++) {
      if (types.includes(typesBySymbol[i2])) {
        symbols.push(i2);
      }
    }
    if (types.includes("ERROR")) {
      symbols.push(65535);
    }
    const symbolsAddress = C._malloc(SIZE_OF_INT * symbols.length);
    for (let i2 = 0, n = symbols.length; i2 < n; i2++) {
      C.setValue(symbolsAddress + i2 * SIZE_OF_INT, symbols[i2], "i32");
    }
    marshalNode(this);
    C._ts_node_descendants_of_type_wasm(
      this.tree[0],
      symbolsAddress,
      symbols.length,
      startPosition.row,
      startPosition.column,
      endPosition.row,
      endPosition.column
    );
    const descendantCount = C.getValue(TRANSFER_BUFFER, "i32");
    const descendantAddress = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
    const result = new Array(descendantCount);
    if (descendantCount > 0) {
      let address = descendantAddress;
      for (let i2 = 0; i2 < descendantCount; i2++) {
        result[i2] = unmarshalNode(this.tree, address);
        address += SIZE_OF_NODE;
      }
    }
    C._free(descendantAddress);
    C._free(symbolsAddress);
    return result;
  }
  /** Get this node's next sibling. */
  get nextSibling() {
    marshalNode(this);
    C._ts_node_next_sibling_wasm(this.tree[0]);
    return unmarshalNode(this.tree);
  }
  /** Get this node's previous sibling. */
  get previousSibling() {
    marshalNode(this);
    C._ts_node_prev_sibling_wasm(this.tree[0]);
    return unmarshalNode(this.tree);
  }
  /**
   * Get this node's next *named* sibling.
   *
   * See also {@link Node#isNamed}.
   */
  get nextNamedSibling() {
    marshalNode(this);
    C._ts_node_next_named_sibling_wasm(this.tree[0]);
    return unmarshalNode(this.tree);
  }
  /**
   * Get this node's previous *named* sibling.
   *
   * See also {@link Node#isNamed}.
   */
  get previousNamedSibling() {
    marshalNode(this);
    C._ts_node_prev_named_sibling_wasm(this.tree[0]);
    return unmarshalNode(this.tree);
  }
  /** Get the node's number of descendants, including one for the node itself. */
  get descendantCount() {
    marshalNode(this);
    return C._ts_node_descendant_count_wasm(this.tree[0]);
  }
  /**
   * Get this node's immediate parent.
   * Prefer {@link Node#childWithDescendant} for iterating over this node's ancestors.
   */
  get parent() {
    marshalNode(this);
    C._ts_node_parent_wasm(this.tree[0]);
    return unmarshalNode(this.tree);
  }
  /**
   * Get the node that contains `descendant`.
   *
   * Note that this can return `descendant` itself.
   */
  childWithDescendant(descendant) {
    marshalNode(this);
    marshalNode(descendant, 1);
    C._ts_node_child_with_descendant_wasm(this.tree[0]);
    return unmarshalNode(this.tree);
  }
  /** Get the smallest node within this node that spans the given byte range. */
  descendantForIndex(start2, end = start2) {
    if (typeof start2 !== "number" || typeof end !== "number") {
      throw new Error("Arguments must be numbers");
    }
    marshalNode(this);
    const address = TRANSFER_BUFFER + SIZE_OF_NODE;
    C.setValue(address, start2, "i32");
    C.setValue(address + SIZE_OF_INT, end, "i32");
    C._ts_node_descendant_for_index_wasm(this.tree[0]);
    return unmarshalNode(this.tree);
  }
  /** Get the smallest named node within this node that spans the given byte range. */
  namedDescendantForIndex(start2, end = start2) {
    if (typeof start2 !== "number" || typeof end !== "number") {
      throw new Error("Arguments must be numbers");
    }
    marshalNode(this);
    const address = TRANSFER_BUFFER + SIZE_OF_NODE;
    C.setValue(address, start2, "i32");
    C.setValue(address + SIZE_OF_INT, end, "i32");
    C._ts_node_named_descendant_for_index_wasm(this.tree[0]);
    return unmarshalNode(this.tree);
  }
  /** Get the smallest node within this node that spans the given point range. */
  descendantForPosition(start2, end = start2) {
    if (!isPoint(start2) || !isPoint(end)) {
      throw new Error("Arguments must be {row, column} objects");
    }
    marshalNode(this);
    const address = TRANSFER_BUFFER + SIZE_OF_NODE;
    marshalPoint(address, start2);
    marshalPoint(address + SIZE_OF_POINT, end);
    C._ts_node_descendant_for_position_wasm(this.tree[0]);
    return unmarshalNode(this.tree);
  }
  /** Get the smallest named node within this node that spans the given point range. */
  namedDescendantForPosition(start2, end = start2) {
    if (!isPoint(start2) || !isPoint(end)) {
      throw new Error("Arguments must be {row, column} objects");
    }
    marshalNode(this);
    const address = TRANSFER_BUFFER + SIZE_OF_NODE;
    marshalPoint(address, start2);
    marshalPoint(address + SIZE_OF_POINT, end);
    C._ts_node_named_descendant_for_position_wasm(this.tree[0]);
    return unmarshalNode(this.tree);
  }
  /**
   * Create a new {@link TreeCursor} starting from this node.
   *
   * Note that the given node is considered the root of the cursor,
   * and the cursor cannot walk outside this node.
   */
  walk() {
    marshalNode(this);
    C._ts_tree_cursor_new_wasm(this.tree[0]);
    return new TreeCursor(INTERNAL, this.tree);
  }
  /**
   * Edit this node to keep it in-sync with source code that has been edited.
   *
   * This function is only rarely needed. When you edit a syntax tree with
   * the {@link Tree#edit} method, all of the nodes that you retrieve from
   * the tree afterward will already reflect the edit. You only need to
   * use {@link Node#edit} when you have a specific {@link Node} instance that
   * you want to keep and continue to use after an edit.
   */
  edit(edit) {
    const { point, index } = edit.editPoint(this.startPosition, this.startIndex);
    this.startPosition = point;
    this.startIndex = index;
  }
  /** Get the S-expression representation of this node. */
  toString() {
    marshalNode(this);
    const address = C._ts_node_to_string_wasm(this.tree[0]);
    const result = C.AsciiToString(address);
    C._free(address);
    return result;
  }
};
function unmarshalCaptures(query, tree, address, patternIndex, result) {
  for (let i2 = 0, n = result.length; i2 < n; i2++) {
    const captureIndex = C.getValue(address, "i32");
    address += SIZE_OF_INT;
    const node = unmarshalNode(tree, address);
    address += SIZE_OF_NODE;
    result[i2] = { patternIndex, name: query.captureNames[captureIndex], node };
  }
  return address;
}
__name(unmarshalCaptures, "unmarshalCaptures");
function marshalNode(node, index = 0) {
  let address = TRANSFER_BUFFER + index * SIZE_OF_NODE;
  C.setValue(address, node.id, "i32");
  address += SIZE_OF_INT;
  C.setValue(address, node.startIndex, "i32");
  address += SIZE_OF_INT;
  C.setValue(address, node.startPosition.row, "i32");
  address += SIZE_OF_INT;
  C.setValue(address, node.startPosition.column, "i32");
  address += SIZE_OF_INT;
  C.setValue(address, node[0], "i32");
}
__name(marshalNode, "marshalNode");
function unmarshalNode(tree, address = TRANSFER_BUFFER) {
  const id = C.getValue(address, "i32");
  address += SIZE_OF_INT;
  if (id === 0) return null;
  const index = C.getValue(address, "i32");
  address += SIZE_OF_INT;
  const row = C.getValue(address, "i32");
  address += SIZE_OF_INT;
  const column = C.getValue(address, "i32");
  address += SIZE_OF_INT;
  const other = C.getValue(address, "i32");
  const result = new Node(INTERNAL, {
    id,
    tree,
    startIndex: index,
    startPosition: { row, column },
    other
  });
  return result;
}
__name(unmarshalNode, "unmarshalNode");
function marshalTreeCursor({ handles }, address = TRANSFER_BUFFER) {
  C.setValue(address + 0 * SIZE_OF_INT, handles[0], "i32");
  C.setValue(address + 1 * SIZE_OF_INT, handles[1], "i32");
  C.setValue(address + 2 * SIZE_OF_INT, handles[2], "i32");
  C.setValue(address + 3 * SIZE_OF_INT, handles[3], "i32");
}
__name(marshalTreeCursor, "marshalTreeCursor");
function unmarshalTreeCursor({ handles }) {
  handles[0] = C.getValue(TRANSFER_BUFFER + 0 * SIZE_OF_INT, "i32");
  handles[1] = C.getValue(TRANSFER_BUFFER + 1 * SIZE_OF_INT, "i32");
  handles[2] = C.getValue(TRANSFER_BUFFER + 2 * SIZE_OF_INT, "i32");
  handles[3] = C.getValue(TRANSFER_BUFFER + 3 * SIZE_OF_INT, "i32");
}
__name(unmarshalTreeCursor, "unmarshalTreeCursor");
function marshalPoint(address, point) {
  C.setValue(address, point.row, "i32");
  C.setValue(address + SIZE_OF_INT, point.column, "i32");
}
__name(marshalPoint, "marshalPoint");
function unmarshalPoint(address) {
  const result = {
    row: C.getValue(address, "i32") >>> 0,
    column: C.getValue(address + SIZE_OF_INT, "i32") >>> 0
  };
  return result;
}
__name(unmarshalPoint, "unmarshalPoint");
function marshalRange(address, range) {
  marshalPoint(address, range.startPosition);
  address += SIZE_OF_POINT;
  marshalPoint(address, range.endPosition);
  address += SIZE_OF_POINT;
  C.setValue(address, range.startIndex, "i32");
  address += SIZE_OF_INT;
  C.setValue(address, range.endIndex, "i32");
  address += SIZE_OF_INT;
}
__name(marshalRange, "marshalRange");
function unmarshalRange(address) {
  const result = {};
  result.startPosition = unmarshalPoint(address);
  address += SIZE_OF_POINT;
  result.endPosition = unmarshalPoint(address);
  address += SIZE_OF_POINT;
  result.startIndex = C.getValue(address, "i32") >>> 0;
  address += SIZE_OF_INT;
  result.endIndex = C.getValue(address, "i32") >>> 0;
  return result;
}
__name(unmarshalRange, "unmarshalRange");
function marshalEdit(edit, address = TRANSFER_BUFFER) {
  marshalPoint(address, edit.startPosition);
  address += SIZE_OF_POINT;
  marshalPoint(address, edit.oldEndPosition);
  address += SIZE_OF_POINT;
  marshalPoint(address, edit.newEndPosition);
  address += SIZE_OF_POINT;
  C.setValue(address, edit.startIndex, "i32");
  address += SIZE_OF_INT;
  C.setValue(address, edit.oldEndIndex, "i32");
  address += SIZE_OF_INT;
  C.setValue(address, edit.newEndIndex, "i32");
  address += SIZE_OF_INT;
}
__name(marshalEdit, "marshalEdit");
function unmarshalLanguageMetadata(address) {
  const major_version = C.getValue(address, "i32");
  const minor_version = C.getValue(address += SIZE_OF_INT, "i32");
  const patch_version = C.getValue(address += SIZE_OF_INT, "i32");
  return { major_version, minor_version, patch_version };
}
__name(unmarshalLanguageMetadata, "unmarshalLanguageMetadata");
var LANGUAGE_FUNCTION_REGEX = /^tree_sitter_\w+$/;
var Language = class _Language {
  static {
    __name(this, "Language");
  }
  /** @internal */
  [0] = 0;
  // Internal handle for Wasm
  /**
   * A list of all node types in the language. The index of each type in this
   * array is its node type id.
   */
  types;
  /**
   * A list of all field names in the language. The index of each field name in
   * this array is its field id.
   */
  fields;
  /** @internal */
  constructor(internal, address) {
    assertInternal(internal);
    this[0] = address;
    this.types = new Array(C._ts_language_symbol_count(this[0]));
    for (let i2 = 0, n = this.types.length; i2 < n; i2++) {
      if (C._ts_language_symbol_type(this[0], i2) < 2) {
        this.types[i2] = C.UTF8ToString(C._ts_language_symbol_name(this[0], i2));
      }
    }
    this.fields = new Array(C._ts_language_field_count(this[0]) + 1);
    for (let i2 = 0, n = this.fields.length; i2 < n; i2++) {
      const fieldName = C._ts_language_field_name_for_id(this[0], i2);
      if (fieldName !== 0) {
        this.fields[i2] = C.UTF8ToString(fieldName);
      } else {
        this.fields[i2] = null;
      }
    }
  }
  /**
   * Gets the name of the language.
   */
  get name() {
    const ptr = C._ts_language_name(this[0]);
    if (ptr === 0) return null;
    return C.UTF8ToString(ptr);
  }
  /**
   * Gets the ABI version of the language.
   */
  get abiVersion() {
    return C._ts_language_abi_version(this[0]);
  }
  /**
  * Get the metadata for this language. This information is generated by the
  * CLI, and relies on the language author providing the correct metadata in
  * the language's `tree-sitter.json` file.
  */
  get metadata() {
    C._ts_language_metadata_wasm(this[0]);
    const length = C.getValue(TRANSFER_BUFFER, "i32");
    if (length === 0) return null;
    return unmarshalLanguageMetadata(TRANSFER_BUFFER + SIZE_OF_INT);
  }
  /**
   * Gets the number of fields in the language.
   */
  get fieldCount() {
    return this.fields.length - 1;
  }
  /**
   * Gets the number of states in the language.
   */
  get stateCount() {
    return C._ts_language_state_count(this[0]);
  }
  /**
   * Get the field id for a field name.
   */
  fieldIdForName(fieldName) {
    const result = this.fields.indexOf(fieldName);
    return result !== -1 ? result : null;
  }
  /**
   * Get the field name for a field id.
   */
  fieldNameForId(fieldId) {
    return this.fields[fieldId] ?? null;
  }
  /**
   * Get the node type id for a node type name.
   */
  idForNodeType(type, named) {
    const typeLength = C.lengthBytesUTF8(type);
    const typeAddress = C._malloc(typeLength + 1);
    C.stringToUTF8(type, typeAddress, typeLength + 1);
    const result = C._ts_language_symbol_for_name(this[0], typeAddress, typeLength, named ? 1 : 0);
    C._free(typeAddress);
    return result || null;
  }
  /**
   * Gets the number of node types in the language.
   */
  get nodeTypeCount() {
    return C._ts_language_symbol_count(this[0]);
  }
  /**
   * Get the node type name for a node type id.
   */
  nodeTypeForId(typeId) {
    const name2 = C._ts_language_symbol_name(this[0], typeId);
    return name2 ? C.UTF8ToString(name2) : null;
  }
  /**
   * Check if a node type is named.
   *
   * @see {@link https://tree-sitter.github.io/tree-sitter/using-parsers/2-basic-parsing.html#named-vs-anonymous-nodes}
   */
  nodeTypeIsNamed(typeId) {
    return C._ts_language_type_is_named_wasm(this[0], typeId) ? true : false;
  }
  /**
   * Check if a node type is visible.
   */
  nodeTypeIsVisible(typeId) {
    return C._ts_language_type_is_visible_wasm(this[0], typeId) ? true : false;
  }
  /**
   * Get the supertypes ids of this language.
   *
   * @see {@link https://tree-sitter.github.io/tree-sitter/using-parsers/6-static-node-types.html?highlight=supertype#supertype-nodes}
   */
  get supertypes() {
    C._ts_language_supertypes_wasm(this[0]);
    const count2 = C.getValue(TRANSFER_BUFFER, "i32");
    const buffer = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
    const result = new Array(count2);
    if (count2 > 0) {
      let address = buffer;
      for (let i2 = 0; i2 < count2; i2++) {
        result[i2] = C.getValue(address, "i16");
        address += SIZE_OF_SHORT;
      }
    }
    return result;
  }
  /**
   * Get the subtype ids for a given supertype node id.
   */
  subtypes(supertype) {
    C._ts_language_subtypes_wasm(this[0], supertype);
    const count2 = C.getValue(TRANSFER_BUFFER, "i32");
    const buffer = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
    const result = new Array(count2);
    if (count2 > 0) {
      let address = buffer;
      for (let i2 = 0; i2 < count2; i2++) {
        result[i2] = C.getValue(address, "i16");
        address += SIZE_OF_SHORT;
      }
    }
    return result;
  }
  /**
   * Get the next state id for a given state id and node type id.
   */
  nextState(stateId, typeId) {
    return C._ts_language_next_state(this[0], stateId, typeId);
  }
  /**
   * Create a new lookahead iterator for this language and parse state.
   *
   * This returns `null` if state is invalid for this language.
   *
   * Iterating {@link LookaheadIterator} will yield valid symbols in the given
   * parse state. A newly created iterator is not positioned on a symbol, so
   * {@link LookaheadIterator#currentType} returns `null` until the first
   * iteration step.
   *
   * Lookahead iterators can be useful for generating suggestions and improving
   * syntax error diagnostics. To get symbols valid in an `ERROR` node, use the
   * lookahead iterator on its first leaf node state. For `MISSING` nodes, a
   * lookahead iterator created on the previous non-extra leaf node may be
   * appropriate.
   */
  lookaheadIterator(stateId) {
    const address = C._ts_lookahead_iterator_new(this[0], stateId);
    if (address) return new LookaheadIterator(INTERNAL, address, this);
    return null;
  }
  /**
   * Load a language from a WebAssembly module.
   * The module can be provided as a path to a file, a `URL` to a file, or as a
   * buffer.
   */
  static async load(input) {
    let binary2;
    if (input instanceof Uint8Array) {
      binary2 = input;
    } else if (globalThis.process?.versions.node) {
      const fs2 = await import("fs/promises");
      binary2 = await fs2.readFile(input);
    } else {
      const response = await fetch(input);
      if (!response.ok) {
        const body2 = await response.text();
        throw new Error(`Language.load failed with status ${response.status}.

${body2}`);
      }
      const retryResp = response.clone();
      try {
        binary2 = await WebAssembly.compileStreaming(response);
      } catch (reason2) {
        console.error("wasm streaming compile failed:", reason2);
        console.error("falling back to ArrayBuffer instantiation");
        binary2 = new Uint8Array(await retryResp.arrayBuffer());
      }
    }
    const mod = await C.loadWebAssemblyModule(binary2, { loadAsync: true });
    return _Language.loadFromWasmExports(mod, { sync: false });
  }
  static loadFromWasmExports(mod, { sync }) {
    const symbolNames = Object.keys(mod);
    const functionName = symbolNames.find((key4) => LANGUAGE_FUNCTION_REGEX.test(key4) && !key4.includes("external_scanner_"));
    if (!functionName) {
      console.log(`Couldn't find language function in Wasm file. Symbols:
${JSON.stringify(symbolNames, null, 2)}`);
      throw new Error(`Language.${sync ? "loadSync" : "load"} failed: no language function found in Wasm file`);
    }
    const languageAddress = mod[functionName]();
    return new _Language(INTERNAL, languageAddress);
  }
  /**
   * Load a language synchronously from a pre-compiled WebAssembly module.
   * Use this when the host environment provides a `WebAssembly.Module` directly.
   */
  static loadSync(wasmModule) {
    const mod = C.loadWebAssemblyModule(wasmModule, { loadAsync: false });
    return _Language.loadFromWasmExports(mod, { sync: true });
  }
};
async function Module2(moduleArg = {}) {
  var moduleRtn;
  var Module = moduleArg;
  var ENVIRONMENT_IS_WEB = typeof window == "object";
  var ENVIRONMENT_IS_WORKER = typeof WorkerGlobalScope != "undefined";
  var ENVIRONMENT_IS_NODE = typeof process == "object" && process.versions?.node && process.type != "renderer";
  if (ENVIRONMENT_IS_NODE) {
    const { createRequire } = await import("module");
    var require = createRequire(import.meta.url);
  }
  Module.currentQueryProgressCallback = null;
  Module.currentProgressCallback = null;
  Module.currentLogCallback = null;
  Module.currentParseCallback = null;
  var arguments_ = [];
  var thisProgram = "./this.program";
  var quit_ = /* @__PURE__ */ __name((status, toThrow) => {
    throw toThrow;
  }, "quit_");
  var _scriptName = import.meta.url;
  var scriptDirectory = "";
  function locateFile(path) {
    if (Module["locateFile"]) {
      return Module["locateFile"](path, scriptDirectory);
    }
    return scriptDirectory + path;
  }
  __name(locateFile, "locateFile");
  var readAsync, readBinary;
  if (ENVIRONMENT_IS_NODE) {
    var fs = require("fs");
    if (_scriptName.startsWith("file:")) {
      scriptDirectory = require("path").dirname(require("url").fileURLToPath(_scriptName)) + "/";
    }
    readBinary = /* @__PURE__ */ __name((filename) => {
      filename = isFileURI(filename) ? new URL(filename) : filename;
      var ret = fs.readFileSync(filename);
      return ret;
    }, "readBinary");
    readAsync = /* @__PURE__ */ __name(async (filename, binary2 = true) => {
      filename = isFileURI(filename) ? new URL(filename) : filename;
      var ret = fs.readFileSync(filename, binary2 ? void 0 : "utf8");
      return ret;
    }, "readAsync");
    if (process.argv.length > 1) {
      thisProgram = process.argv[1].replace(/\\/g, "/");
    }
    arguments_ = process.argv.slice(2);
    quit_ = /* @__PURE__ */ __name((status, toThrow) => {
      process.exitCode = status;
      throw toThrow;
    }, "quit_");
  } else if (ENVIRONMENT_IS_WEB || ENVIRONMENT_IS_WORKER) {
    try {
      scriptDirectory = new URL(".", _scriptName).href;
    } catch {
    }
    {
      if (ENVIRONMENT_IS_WORKER) {
        readBinary = /* @__PURE__ */ __name((url) => {
          var xhr = new XMLHttpRequest();
          xhr.open("GET", url, false);
          xhr.responseType = "arraybuffer";
          xhr.send(null);
          return new Uint8Array(
            /** @type{!ArrayBuffer} */
            xhr.response
          );
        }, "readBinary");
      }
      readAsync = /* @__PURE__ */ __name(async (url) => {
        if (isFileURI(url)) {
          return new Promise((resolve5, reject2) => {
            var xhr = new XMLHttpRequest();
            xhr.open("GET", url, true);
            xhr.responseType = "arraybuffer";
            xhr.onload = () => {
              if (xhr.status == 200 || xhr.status == 0 && xhr.response) {
                resolve5(xhr.response);
                return;
              }
              reject2(xhr.status);
            };
            xhr.onerror = reject2;
            xhr.send(null);
          });
        }
        var response = await fetch(url, {
          credentials: "same-origin"
        });
        if (response.ok) {
          return response.arrayBuffer();
        }
        throw new Error(response.status + " : " + response.url);
      }, "readAsync");
    }
  } else {
  }
  var out = console.log.bind(console);
  var err = console.error.bind(console);
  var dynamicLibraries = [];
  var wasmBinary;
  var ABORT = false;
  var EXITSTATUS;
  var isFileURI = /* @__PURE__ */ __name((filename) => filename.startsWith("file://"), "isFileURI");
  var readyPromiseResolve, readyPromiseReject;
  var wasmMemory;
  var HEAP8, HEAPU8, HEAP16, HEAPU16, HEAP32, HEAPU32, HEAPF32, HEAPF64;
  var HEAP64, HEAPU64;
  var HEAP_DATA_VIEW;
  var runtimeInitialized = false;
  function updateMemoryViews() {
    var b = wasmMemory.buffer;
    Module["HEAP8"] = HEAP8 = new Int8Array(b);
    Module["HEAP16"] = HEAP16 = new Int16Array(b);
    Module["HEAPU8"] = HEAPU8 = new Uint8Array(b);
    Module["HEAPU16"] = HEAPU16 = new Uint16Array(b);
    Module["HEAP32"] = HEAP32 = new Int32Array(b);
    Module["HEAPU32"] = HEAPU32 = new Uint32Array(b);
    Module["HEAPF32"] = HEAPF32 = new Float32Array(b);
    Module["HEAPF64"] = HEAPF64 = new Float64Array(b);
    Module["HEAP64"] = HEAP64 = new BigInt64Array(b);
    Module["HEAPU64"] = HEAPU64 = new BigUint64Array(b);
    Module["HEAP_DATA_VIEW"] = HEAP_DATA_VIEW = new DataView(b);
    LE_HEAP_UPDATE();
  }
  __name(updateMemoryViews, "updateMemoryViews");
  function initMemory() {
    if (Module["wasmMemory"]) {
      wasmMemory = Module["wasmMemory"];
    } else {
      var INITIAL_MEMORY = Module["INITIAL_MEMORY"] || 33554432;
      wasmMemory = new WebAssembly.Memory({
        "initial": INITIAL_MEMORY / 65536,
        // In theory we should not need to emit the maximum if we want "unlimited"
        // or 4GB of memory, but VMs error on that atm, see
        // https://github.com/emscripten-core/emscripten/issues/14130
        // And in the pthreads case we definitely need to emit a maximum. So
        // always emit one.
        "maximum": 32768
      });
    }
    updateMemoryViews();
  }
  __name(initMemory, "initMemory");
  var __RELOC_FUNCS__ = [];
  function preRun() {
    if (Module["preRun"]) {
      if (typeof Module["preRun"] == "function") Module["preRun"] = [Module["preRun"]];
      while (Module["preRun"].length) {
        addOnPreRun(Module["preRun"].shift());
      }
    }
    callRuntimeCallbacks(onPreRuns);
  }
  __name(preRun, "preRun");
  function initRuntime() {
    runtimeInitialized = true;
    callRuntimeCallbacks(__RELOC_FUNCS__);
    wasmExports["__wasm_call_ctors"]();
    callRuntimeCallbacks(onPostCtors);
  }
  __name(initRuntime, "initRuntime");
  function preMain() {
  }
  __name(preMain, "preMain");
  function postRun() {
    if (Module["postRun"]) {
      if (typeof Module["postRun"] == "function") Module["postRun"] = [Module["postRun"]];
      while (Module["postRun"].length) {
        addOnPostRun(Module["postRun"].shift());
      }
    }
    callRuntimeCallbacks(onPostRuns);
  }
  __name(postRun, "postRun");
  function abort(what) {
    Module["onAbort"]?.(what);
    what = "Aborted(" + what + ")";
    err(what);
    ABORT = true;
    what += ". Build with -sASSERTIONS for more info.";
    var e = new WebAssembly.RuntimeError(what);
    readyPromiseReject?.(e);
    throw e;
  }
  __name(abort, "abort");
  var wasmBinaryFile;
  function findWasmBinary() {
    if (Module["locateFile"]) {
      return locateFile("web-tree-sitter.wasm");
    }
    return new URL("web-tree-sitter.wasm", import.meta.url).href;
  }
  __name(findWasmBinary, "findWasmBinary");
  function getBinarySync(file) {
    if (file == wasmBinaryFile && wasmBinary) {
      return new Uint8Array(wasmBinary);
    }
    if (readBinary) {
      return readBinary(file);
    }
    throw "both async and sync fetching of the wasm failed";
  }
  __name(getBinarySync, "getBinarySync");
  async function getWasmBinary(binaryFile) {
    if (!wasmBinary) {
      try {
        var response = await readAsync(binaryFile);
        return new Uint8Array(response);
      } catch {
      }
    }
    return getBinarySync(binaryFile);
  }
  __name(getWasmBinary, "getWasmBinary");
  async function instantiateArrayBuffer(binaryFile, imports) {
    try {
      var binary2 = await getWasmBinary(binaryFile);
      var instance2 = await WebAssembly.instantiate(binary2, imports);
      return instance2;
    } catch (reason2) {
      err(`failed to asynchronously prepare wasm: ${reason2}`);
      abort(reason2);
    }
  }
  __name(instantiateArrayBuffer, "instantiateArrayBuffer");
  async function instantiateAsync(binary2, binaryFile, imports) {
    if (!binary2 && !isFileURI(binaryFile) && !ENVIRONMENT_IS_NODE) {
      try {
        var response = fetch(binaryFile, {
          credentials: "same-origin"
        });
        var instantiationResult = await WebAssembly.instantiateStreaming(response, imports);
        return instantiationResult;
      } catch (reason2) {
        err(`wasm streaming compile failed: ${reason2}`);
        err("falling back to ArrayBuffer instantiation");
      }
    }
    return instantiateArrayBuffer(binaryFile, imports);
  }
  __name(instantiateAsync, "instantiateAsync");
  function getWasmImports() {
    return {
      "env": wasmImports,
      "wasi_snapshot_preview1": wasmImports,
      "GOT.mem": new Proxy(wasmImports, GOTHandler),
      "GOT.func": new Proxy(wasmImports, GOTHandler)
    };
  }
  __name(getWasmImports, "getWasmImports");
  async function createWasm() {
    function receiveInstance(instance2, module2) {
      wasmExports = instance2.exports;
      wasmExports = relocateExports(wasmExports, 1024);
      var metadata2 = getDylinkMetadata(module2);
      if (metadata2.neededDynlibs) {
        dynamicLibraries = metadata2.neededDynlibs.concat(dynamicLibraries);
      }
      mergeLibSymbols(wasmExports, "main");
      LDSO.init();
      loadDylibs();
      __RELOC_FUNCS__.push(wasmExports["__wasm_apply_data_relocs"]);
      assignWasmExports(wasmExports);
      return wasmExports;
    }
    __name(receiveInstance, "receiveInstance");
    function receiveInstantiationResult(result2) {
      return receiveInstance(result2["instance"], result2["module"]);
    }
    __name(receiveInstantiationResult, "receiveInstantiationResult");
    var info2 = getWasmImports();
    if (Module["instantiateWasm"]) {
      return new Promise((resolve5, reject2) => {
        Module["instantiateWasm"](info2, (mod, inst) => {
          resolve5(receiveInstance(mod, inst));
        });
      });
    }
    wasmBinaryFile ??= findWasmBinary();
    var result = await instantiateAsync(wasmBinary, wasmBinaryFile, info2);
    var exports = receiveInstantiationResult(result);
    return exports;
  }
  __name(createWasm, "createWasm");
  class ExitStatus {
    static {
      __name(this, "ExitStatus");
    }
    name = "ExitStatus";
    constructor(status) {
      this.message = `Program terminated with exit(${status})`;
      this.status = status;
    }
  }
  var GOT = {};
  var currentModuleWeakSymbols = /* @__PURE__ */ new Set([]);
  var GOTHandler = {
    get(obj, symName) {
      var rtn = GOT[symName];
      if (!rtn) {
        rtn = GOT[symName] = new WebAssembly.Global({
          "value": "i32",
          "mutable": true
        });
      }
      if (!currentModuleWeakSymbols.has(symName)) {
        rtn.required = true;
      }
      return rtn;
    }
  };
  var LE_ATOMICS_NATIVE_BYTE_ORDER = [];
  var LE_HEAP_LOAD_F32 = /* @__PURE__ */ __name((byteOffset) => HEAP_DATA_VIEW.getFloat32(byteOffset, true), "LE_HEAP_LOAD_F32");
  var LE_HEAP_LOAD_F64 = /* @__PURE__ */ __name((byteOffset) => HEAP_DATA_VIEW.getFloat64(byteOffset, true), "LE_HEAP_LOAD_F64");
  var LE_HEAP_LOAD_I16 = /* @__PURE__ */ __name((byteOffset) => HEAP_DATA_VIEW.getInt16(byteOffset, true), "LE_HEAP_LOAD_I16");
  var LE_HEAP_LOAD_I32 = /* @__PURE__ */ __name((byteOffset) => HEAP_DATA_VIEW.getInt32(byteOffset, true), "LE_HEAP_LOAD_I32");
  var LE_HEAP_LOAD_I64 = /* @__PURE__ */ __name((byteOffset) => HEAP_DATA_VIEW.getBigInt64(byteOffset, true), "LE_HEAP_LOAD_I64");
  var LE_HEAP_LOAD_U32 = /* @__PURE__ */ __name((byteOffset) => HEAP_DATA_VIEW.getUint32(byteOffset, true), "LE_HEAP_LOAD_U32");
  var LE_HEAP_STORE_F32 = /* @__PURE__ */ __name((byteOffset, value) => HEAP_DATA_VIEW.setFloat32(byteOffset, value, true), "LE_HEAP_STORE_F32");
  var LE_HEAP_STORE_F64 = /* @__PURE__ */ __name((byteOffset, value) => HEAP_DATA_VIEW.setFloat64(byteOffset, value, true), "LE_HEAP_STORE_F64");
  var LE_HEAP_STORE_I16 = /* @__PURE__ */ __name((byteOffset, value) => HEAP_DATA_VIEW.setInt16(byteOffset, value, true), "LE_HEAP_STORE_I16");
  var LE_HEAP_STORE_I32 = /* @__PURE__ */ __name((byteOffset, value) => HEAP_DATA_VIEW.setInt32(byteOffset, value, true), "LE_HEAP_STORE_I32");
  var LE_HEAP_STORE_I64 = /* @__PURE__ */ __name((byteOffset, value) => HEAP_DATA_VIEW.setBigInt64(byteOffset, value, true), "LE_HEAP_STORE_I64");
  var LE_HEAP_STORE_U32 = /* @__PURE__ */ __name((byteOffset, value) => HEAP_DATA_VIEW.setUint32(byteOffset, value, true), "LE_HEAP_STORE_U32");
  var callRuntimeCallbacks = /* @__PURE__ */ __name((callbacks) => {
    while (callbacks.length > 0) {
      callbacks.shift()(Module);
    }
  }, "callRuntimeCallbacks");
  var onPostRuns = [];
  var addOnPostRun = /* @__PURE__ */ __name((cb) => onPostRuns.push(cb), "addOnPostRun");
  var onPreRuns = [];
  var addOnPreRun = /* @__PURE__ */ __name((cb) => onPreRuns.push(cb), "addOnPreRun");
  var UTF8Decoder = typeof TextDecoder != "undefined" ? new TextDecoder() : void 0;
  var findStringEnd = /* @__PURE__ */ __name((heapOrArray, idx, maxBytesToRead, ignoreNul) => {
    var maxIdx = idx + maxBytesToRead;
    if (ignoreNul) return maxIdx;
    while (heapOrArray[idx] && !(idx >= maxIdx)) ++idx;
    return idx;
  }, "findStringEnd");
  var UTF8ArrayToString = /* @__PURE__ */ __name((heapOrArray, idx = 0, maxBytesToRead, ignoreNul) => {
    var endPtr = findStringEnd(heapOrArray, idx, maxBytesToRead, ignoreNul);
    if (endPtr - idx > 16 && heapOrArray.buffer && UTF8Decoder) {
      return UTF8Decoder.decode(heapOrArray.subarray(idx, endPtr));
    }
    var str3 = "";
    while (idx < endPtr) {
      var u0 = heapOrArray[idx++];
      if (!(u0 & 128)) {
        str3 += String.fromCharCode(u0);
        continue;
      }
      var u1 = heapOrArray[idx++] & 63;
      if ((u0 & 224) == 192) {
        str3 += String.fromCharCode((u0 & 31) << 6 | u1);
        continue;
      }
      var u2 = heapOrArray[idx++] & 63;
      if ((u0 & 240) == 224) {
        u0 = (u0 & 15) << 12 | u1 << 6 | u2;
      } else {
        u0 = (u0 & 7) << 18 | u1 << 12 | u2 << 6 | heapOrArray[idx++] & 63;
      }
      if (u0 < 65536) {
        str3 += String.fromCharCode(u0);
      } else {
        var ch = u0 - 65536;
        str3 += String.fromCharCode(55296 | ch >> 10, 56320 | ch & 1023);
      }
    }
    return str3;
  }, "UTF8ArrayToString");
  var getDylinkMetadata = /* @__PURE__ */ __name((binary2) => {
    var offset = 0;
    var end = 0;
    function getU8() {
      return binary2[offset++];
    }
    __name(getU8, "getU8");
    function getLEB() {
      var ret = 0;
      var mul = 1;
      while (1) {
        var byte = binary2[offset++];
        ret += (byte & 127) * mul;
        mul *= 128;
        if (!(byte & 128)) break;
      }
      return ret;
    }
    __name(getLEB, "getLEB");
    function getString() {
      var len = getLEB();
      offset += len;
      return UTF8ArrayToString(binary2, offset - len, len);
    }
    __name(getString, "getString");
    function getStringList() {
      var count22 = getLEB();
      var rtn = [];
      while (count22--) rtn.push(getString());
      return rtn;
    }
    __name(getStringList, "getStringList");
    function failIf(condition, message2) {
      if (condition) throw new Error(message2);
    }
    __name(failIf, "failIf");
    if (binary2 instanceof WebAssembly.Module) {
      var dylinkSection = WebAssembly.Module.customSections(binary2, "dylink.0");
      failIf(dylinkSection.length === 0, "need dylink section");
      binary2 = new Uint8Array(dylinkSection[0]);
      end = binary2.length;
    } else {
      var int32View = new Uint32Array(new Uint8Array(binary2.subarray(0, 24)).buffer);
      var magicNumberFound = int32View[0] == 1836278016 || int32View[0] == 6386541;
      failIf(!magicNumberFound, "need to see wasm magic number");
      failIf(binary2[8] !== 0, "need the dylink section to be first");
      offset = 9;
      var section_size = getLEB();
      end = offset + section_size;
      var name2 = getString();
      failIf(name2 !== "dylink.0");
    }
    var customSection = {
      neededDynlibs: [],
      tlsExports: /* @__PURE__ */ new Set(),
      weakImports: /* @__PURE__ */ new Set(),
      runtimePaths: []
    };
    var WASM_DYLINK_MEM_INFO = 1;
    var WASM_DYLINK_NEEDED = 2;
    var WASM_DYLINK_EXPORT_INFO = 3;
    var WASM_DYLINK_IMPORT_INFO = 4;
    var WASM_DYLINK_RUNTIME_PATH = 5;
    var WASM_SYMBOL_TLS = 256;
    var WASM_SYMBOL_BINDING_MASK = 3;
    var WASM_SYMBOL_BINDING_WEAK = 1;
    while (offset < end) {
      var subsectionType = getU8();
      var subsectionSize = getLEB();
      if (subsectionType === WASM_DYLINK_MEM_INFO) {
        customSection.memorySize = getLEB();
        customSection.memoryAlign = getLEB();
        customSection.tableSize = getLEB();
        customSection.tableAlign = getLEB();
      } else if (subsectionType === WASM_DYLINK_NEEDED) {
        customSection.neededDynlibs = getStringList();
      } else if (subsectionType === WASM_DYLINK_EXPORT_INFO) {
        var count2 = getLEB();
        while (count2--) {
          var symname = getString();
          var flags2 = getLEB();
          if (flags2 & WASM_SYMBOL_TLS) {
            customSection.tlsExports.add(symname);
          }
        }
      } else if (subsectionType === WASM_DYLINK_IMPORT_INFO) {
        var count2 = getLEB();
        while (count2--) {
          var modname = getString();
          var symname = getString();
          var flags2 = getLEB();
          if ((flags2 & WASM_SYMBOL_BINDING_MASK) == WASM_SYMBOL_BINDING_WEAK) {
            customSection.weakImports.add(symname);
          }
        }
      } else if (subsectionType === WASM_DYLINK_RUNTIME_PATH) {
        customSection.runtimePaths = getStringList();
      } else {
        offset += subsectionSize;
      }
    }
    return customSection;
  }, "getDylinkMetadata");
  function getValue(ptr, type = "i8") {
    if (type.endsWith("*")) type = "*";
    switch (type) {
      case "i1":
        return HEAP8[ptr];
      case "i8":
        return HEAP8[ptr];
      case "i16":
        return LE_HEAP_LOAD_I16((ptr >> 1) * 2);
      case "i32":
        return LE_HEAP_LOAD_I32((ptr >> 2) * 4);
      case "i64":
        return LE_HEAP_LOAD_I64((ptr >> 3) * 8);
      case "float":
        return LE_HEAP_LOAD_F32((ptr >> 2) * 4);
      case "double":
        return LE_HEAP_LOAD_F64((ptr >> 3) * 8);
      case "*":
        return LE_HEAP_LOAD_U32((ptr >> 2) * 4);
      default:
        abort(`invalid type for getValue: ${type}`);
    }
  }
  __name(getValue, "getValue");
  var newDSO = /* @__PURE__ */ __name((name2, handle2, syms) => {
    var dso = {
      refcount: Infinity,
      name: name2,
      exports: syms,
      global: true
    };
    LDSO.loadedLibsByName[name2] = dso;
    if (handle2 != void 0) {
      LDSO.loadedLibsByHandle[handle2] = dso;
    }
    return dso;
  }, "newDSO");
  var LDSO = {
    loadedLibsByName: {},
    loadedLibsByHandle: {},
    init() {
      newDSO("__main__", 0, wasmImports);
    }
  };
  var ___heap_base = 82240;
  var alignMemory = /* @__PURE__ */ __name((size, alignment) => Math.ceil(size / alignment) * alignment, "alignMemory");
  var getMemory = /* @__PURE__ */ __name((size) => {
    if (runtimeInitialized) {
      return _calloc(size, 1);
    }
    var ret = ___heap_base;
    var end = ret + alignMemory(size, 16);
    ___heap_base = end;
    GOT["__heap_base"].value = end;
    return ret;
  }, "getMemory");
  var isInternalSym = /* @__PURE__ */ __name((symName) => ["__cpp_exception", "__c_longjmp", "__wasm_apply_data_relocs", "__dso_handle", "__tls_size", "__tls_align", "__set_stack_limits", "_emscripten_tls_init", "__wasm_init_tls", "__wasm_call_ctors", "__start_em_asm", "__stop_em_asm", "__start_em_js", "__stop_em_js"].includes(symName) || symName.startsWith("__em_js__"), "isInternalSym");
  var uleb128EncodeWithLen = /* @__PURE__ */ __name((arr) => {
    const n = arr.length;
    return [n % 128 | 128, n >> 7, ...arr];
  }, "uleb128EncodeWithLen");
  var wasmTypeCodes = {
    "i": 127,
    // i32
    "p": 127,
    // i32
    "j": 126,
    // i64
    "f": 125,
    // f32
    "d": 124,
    // f64
    "e": 111
  };
  var generateTypePack = /* @__PURE__ */ __name((types) => uleb128EncodeWithLen(Array.from(types, (type) => {
    var code = wasmTypeCodes[type];
    return code;
  })), "generateTypePack");
  var convertJsFunctionToWasm = /* @__PURE__ */ __name((func2, sig) => {
    var bytes = Uint8Array.of(
      0,
      97,
      115,
      109,
      // magic ("\0asm")
      1,
      0,
      0,
      0,
      // version: 1
      1,
      ...uleb128EncodeWithLen([
        1,
        // count: 1
        96,
        // param types
        ...generateTypePack(sig.slice(1)),
        // return types (for now only supporting [] if `void` and single [T] otherwise)
        ...generateTypePack(sig[0] === "v" ? "" : sig[0])
      ]),
      // The rest of the module is static
      2,
      7,
      // import section
      // (import "e" "f" (func 0 (type 0)))
      1,
      1,
      101,
      1,
      102,
      0,
      0,
      7,
      5,
      // export section
      // (export "f" (func 0 (type 0)))
      1,
      1,
      102,
      0,
      0
    );
    var module2 = new WebAssembly.Module(bytes);
    var instance2 = new WebAssembly.Instance(module2, {
      "e": {
        "f": func2
      }
    });
    var wrappedFunc = instance2.exports["f"];
    return wrappedFunc;
  }, "convertJsFunctionToWasm");
  var wasmTableMirror = [];
  var wasmTable = new WebAssembly.Table({
    "initial": 31,
    "element": "anyfunc"
  });
  var getWasmTableEntry = /* @__PURE__ */ __name((funcPtr) => {
    var func2 = wasmTableMirror[funcPtr];
    if (!func2) {
      wasmTableMirror[funcPtr] = func2 = wasmTable.get(funcPtr);
    }
    return func2;
  }, "getWasmTableEntry");
  var updateTableMap = /* @__PURE__ */ __name((offset, count2) => {
    if (functionsInTableMap) {
      for (var i2 = offset; i2 < offset + count2; i2++) {
        var item = getWasmTableEntry(i2);
        if (item) {
          functionsInTableMap.set(item, i2);
        }
      }
    }
  }, "updateTableMap");
  var functionsInTableMap;
  var getFunctionAddress = /* @__PURE__ */ __name((func2) => {
    if (!functionsInTableMap) {
      functionsInTableMap = /* @__PURE__ */ new WeakMap();
      updateTableMap(0, wasmTable.length);
    }
    return functionsInTableMap.get(func2) || 0;
  }, "getFunctionAddress");
  var freeTableIndexes = [];
  var getEmptyTableSlot = /* @__PURE__ */ __name(() => {
    if (freeTableIndexes.length) {
      return freeTableIndexes.pop();
    }
    return wasmTable["grow"](1);
  }, "getEmptyTableSlot");
  var setWasmTableEntry = /* @__PURE__ */ __name((idx, func2) => {
    wasmTable.set(idx, func2);
    wasmTableMirror[idx] = wasmTable.get(idx);
  }, "setWasmTableEntry");
  var addFunction = /* @__PURE__ */ __name((func2, sig) => {
    var rtn = getFunctionAddress(func2);
    if (rtn) {
      return rtn;
    }
    var ret = getEmptyTableSlot();
    try {
      setWasmTableEntry(ret, func2);
    } catch (err2) {
      if (!(err2 instanceof TypeError)) {
        throw err2;
      }
      var wrapped = convertJsFunctionToWasm(func2, sig);
      setWasmTableEntry(ret, wrapped);
    }
    functionsInTableMap.set(func2, ret);
    return ret;
  }, "addFunction");
  var updateGOT = /* @__PURE__ */ __name((exports, replace2) => {
    for (var symName in exports) {
      if (isInternalSym(symName)) {
        continue;
      }
      var value = exports[symName];
      GOT[symName] ||= new WebAssembly.Global({
        "value": "i32",
        "mutable": true
      });
      if (replace2 || GOT[symName].value == 0) {
        if (typeof value == "function") {
          GOT[symName].value = addFunction(value);
        } else if (typeof value == "number") {
          GOT[symName].value = value;
        } else {
          err(`unhandled export type for '${symName}': ${typeof value}`);
        }
      }
    }
  }, "updateGOT");
  var relocateExports = /* @__PURE__ */ __name((exports, memoryBase2, replace2) => {
    var relocated = {};
    for (var e in exports) {
      var value = exports[e];
      if (typeof value == "object") {
        value = value.value;
      }
      if (typeof value == "number") {
        value += memoryBase2;
      }
      relocated[e] = value;
    }
    updateGOT(relocated, replace2);
    return relocated;
  }, "relocateExports");
  var isSymbolDefined = /* @__PURE__ */ __name((symName) => {
    var existing = wasmImports[symName];
    if (!existing || existing.stub) {
      return false;
    }
    return true;
  }, "isSymbolDefined");
  var dynCall = /* @__PURE__ */ __name((sig, ptr, args22 = [], promising = false) => {
    var func2 = getWasmTableEntry(ptr);
    var rtn = func2(...args22);
    function convert(rtn2) {
      return rtn2;
    }
    __name(convert, "convert");
    return convert(rtn);
  }, "dynCall");
  var stackSave = /* @__PURE__ */ __name(() => _emscripten_stack_get_current(), "stackSave");
  var stackRestore = /* @__PURE__ */ __name((val) => __emscripten_stack_restore(val), "stackRestore");
  var createInvokeFunction = /* @__PURE__ */ __name((sig) => (ptr, ...args22) => {
    var sp = stackSave();
    try {
      return dynCall(sig, ptr, args22);
    } catch (e) {
      stackRestore(sp);
      if (e !== e + 0) throw e;
      _setThrew(1, 0);
      if (sig[0] == "j") return 0n;
    }
  }, "createInvokeFunction");
  var resolveGlobalSymbol = /* @__PURE__ */ __name((symName, direct2 = false) => {
    var sym;
    if (isSymbolDefined(symName)) {
      sym = wasmImports[symName];
    } else if (symName.startsWith("invoke_")) {
      sym = wasmImports[symName] = createInvokeFunction(symName.split("_")[1]);
    }
    return {
      sym,
      name: symName
    };
  }, "resolveGlobalSymbol");
  var onPostCtors = [];
  var addOnPostCtor = /* @__PURE__ */ __name((cb) => onPostCtors.push(cb), "addOnPostCtor");
  var UTF8ToString = /* @__PURE__ */ __name((ptr, maxBytesToRead, ignoreNul) => ptr ? UTF8ArrayToString(HEAPU8, ptr, maxBytesToRead, ignoreNul) : "", "UTF8ToString");
  var loadWebAssemblyModule = /* @__PURE__ */ __name((binary, flags, libName, localScope, handle) => {
    var metadata = getDylinkMetadata(binary);
    function loadModule() {
      var memAlign = Math.pow(2, metadata.memoryAlign);
      var memoryBase = metadata.memorySize ? alignMemory(getMemory(metadata.memorySize + memAlign), memAlign) : 0;
      var tableBase = metadata.tableSize ? wasmTable.length : 0;
      if (handle) {
        HEAP8[handle + 8] = 1;
        LE_HEAP_STORE_U32((handle + 12 >> 2) * 4, memoryBase);
        LE_HEAP_STORE_I32((handle + 16 >> 2) * 4, metadata.memorySize);
        LE_HEAP_STORE_U32((handle + 20 >> 2) * 4, tableBase);
        LE_HEAP_STORE_I32((handle + 24 >> 2) * 4, metadata.tableSize);
      }
      if (metadata.tableSize) {
        wasmTable.grow(metadata.tableSize);
      }
      var moduleExports;
      function resolveSymbol(sym) {
        var resolved = resolveGlobalSymbol(sym).sym;
        if (!resolved && localScope) {
          resolved = localScope[sym];
        }
        if (!resolved) {
          resolved = moduleExports[sym];
        }
        return resolved;
      }
      __name(resolveSymbol, "resolveSymbol");
      var proxyHandler = {
        get(stubs, prop) {
          switch (prop) {
            case "__memory_base":
              return memoryBase;
            case "__table_base":
              return tableBase;
          }
          if (prop in wasmImports && !wasmImports[prop].stub) {
            var res = wasmImports[prop];
            return res;
          }
          if (!(prop in stubs)) {
            var resolved;
            stubs[prop] = (...args22) => {
              resolved ||= resolveSymbol(prop);
              return resolved(...args22);
            };
          }
          return stubs[prop];
        }
      };
      var proxy = new Proxy({}, proxyHandler);
      currentModuleWeakSymbols = metadata.weakImports;
      var info = {
        "GOT.mem": new Proxy({}, GOTHandler),
        "GOT.func": new Proxy({}, GOTHandler),
        "env": proxy,
        "wasi_snapshot_preview1": proxy
      };
      function postInstantiation(module, instance) {
        updateTableMap(tableBase, metadata.tableSize);
        moduleExports = relocateExports(instance.exports, memoryBase);
        if (!flags.allowUndefined) {
          reportUndefinedSymbols();
        }
        function addEmAsm(addr, body) {
          var args = [];
          var arity = 0;
          for (; arity < 16; arity++) {
            if (body.indexOf("$" + arity) != -1) {
              args.push("$" + arity);
            } else {
              break;
            }
          }
          args = args.join(",");
          var func = `(${args}) => { ${body} };`;
          ASM_CONSTS[start] = eval(func);
        }
        __name(addEmAsm, "addEmAsm");
        if ("__start_em_asm" in moduleExports) {
          var start = moduleExports["__start_em_asm"];
          var stop = moduleExports["__stop_em_asm"];
          while (start < stop) {
            var jsString = UTF8ToString(start);
            addEmAsm(start, jsString);
            start = HEAPU8.indexOf(0, start) + 1;
          }
        }
        function addEmJs(name, cSig, body) {
          var jsArgs = [];
          cSig = cSig.slice(1, -1);
          if (cSig != "void") {
            cSig = cSig.split(",");
            for (var i in cSig) {
              var jsArg = cSig[i].split(" ").pop();
              jsArgs.push(jsArg.replace("*", ""));
            }
          }
          var func = `(${jsArgs}) => ${body};`;
          moduleExports[name] = eval(func);
        }
        __name(addEmJs, "addEmJs");
        for (var name in moduleExports) {
          if (name.startsWith("__em_js__")) {
            var start = moduleExports[name];
            var jsString = UTF8ToString(start);
            var parts = jsString.split("<::>");
            addEmJs(name.replace("__em_js__", ""), parts[0], parts[1]);
            delete moduleExports[name];
          }
        }
        var applyRelocs = moduleExports["__wasm_apply_data_relocs"];
        if (applyRelocs) {
          if (runtimeInitialized) {
            applyRelocs();
          } else {
            __RELOC_FUNCS__.push(applyRelocs);
          }
        }
        var init = moduleExports["__wasm_call_ctors"];
        if (init) {
          if (runtimeInitialized) {
            init();
          } else {
            addOnPostCtor(init);
          }
        }
        return moduleExports;
      }
      __name(postInstantiation, "postInstantiation");
      if (flags.loadAsync) {
        return (async () => {
          var instance2;
          if (binary instanceof WebAssembly.Module) {
            instance2 = new WebAssembly.Instance(binary, info);
          } else {
            ({ module: binary, instance: instance2 } = await WebAssembly.instantiate(binary, info));
          }
          return postInstantiation(binary, instance2);
        })();
      }
      var module = binary instanceof WebAssembly.Module ? binary : new WebAssembly.Module(binary);
      var instance = new WebAssembly.Instance(module, info);
      return postInstantiation(module, instance);
    }
    __name(loadModule, "loadModule");
    flags = {
      ...flags,
      rpath: {
        parentLibPath: libName,
        paths: metadata.runtimePaths
      }
    };
    if (flags.loadAsync) {
      return metadata.neededDynlibs.reduce((chain, dynNeeded) => chain.then(() => loadDynamicLibrary(dynNeeded, flags, localScope)), Promise.resolve()).then(loadModule);
    }
    metadata.neededDynlibs.forEach((needed) => loadDynamicLibrary(needed, flags, localScope));
    return loadModule();
  }, "loadWebAssemblyModule");
  var mergeLibSymbols = /* @__PURE__ */ __name((exports, libName2) => {
    for (var [sym, exp] of Object.entries(exports)) {
      const setImport = /* @__PURE__ */ __name((target) => {
        if (!isSymbolDefined(target)) {
          wasmImports[target] = exp;
        }
      }, "setImport");
      setImport(sym);
      const main_alias = "__main_argc_argv";
      if (sym == "main") {
        setImport(main_alias);
      }
      if (sym == main_alias) {
        setImport("main");
      }
    }
  }, "mergeLibSymbols");
  var asyncLoad = /* @__PURE__ */ __name(async (url) => {
    var arrayBuffer = await readAsync(url);
    return new Uint8Array(arrayBuffer);
  }, "asyncLoad");
  function loadDynamicLibrary(libName2, flags2 = {
    global: true,
    nodelete: true
  }, localScope2, handle2) {
    var dso = LDSO.loadedLibsByName[libName2];
    if (dso) {
      if (!flags2.global) {
        if (localScope2) {
          Object.assign(localScope2, dso.exports);
        }
      } else if (!dso.global) {
        dso.global = true;
        mergeLibSymbols(dso.exports, libName2);
      }
      if (flags2.nodelete && dso.refcount !== Infinity) {
        dso.refcount = Infinity;
      }
      dso.refcount++;
      if (handle2) {
        LDSO.loadedLibsByHandle[handle2] = dso;
      }
      return flags2.loadAsync ? Promise.resolve(true) : true;
    }
    dso = newDSO(libName2, handle2, "loading");
    dso.refcount = flags2.nodelete ? Infinity : 1;
    dso.global = flags2.global;
    function loadLibData() {
      if (handle2) {
        var data = LE_HEAP_LOAD_U32((handle2 + 28 >> 2) * 4);
        var dataSize = LE_HEAP_LOAD_U32((handle2 + 32 >> 2) * 4);
        if (data && dataSize) {
          var libData = HEAP8.slice(data, data + dataSize);
          return flags2.loadAsync ? Promise.resolve(libData) : libData;
        }
      }
      var libFile = locateFile(libName2);
      if (flags2.loadAsync) {
        return asyncLoad(libFile);
      }
      if (!readBinary) {
        throw new Error(`${libFile}: file not found, and synchronous loading of external files is not available`);
      }
      return readBinary(libFile);
    }
    __name(loadLibData, "loadLibData");
    function getExports() {
      if (flags2.loadAsync) {
        return loadLibData().then((libData) => loadWebAssemblyModule(libData, flags2, libName2, localScope2, handle2));
      }
      return loadWebAssemblyModule(loadLibData(), flags2, libName2, localScope2, handle2);
    }
    __name(getExports, "getExports");
    function moduleLoaded(exports) {
      if (dso.global) {
        mergeLibSymbols(exports, libName2);
      } else if (localScope2) {
        Object.assign(localScope2, exports);
      }
      dso.exports = exports;
    }
    __name(moduleLoaded, "moduleLoaded");
    if (flags2.loadAsync) {
      return getExports().then((exports) => {
        moduleLoaded(exports);
        return true;
      });
    }
    moduleLoaded(getExports());
    return true;
  }
  __name(loadDynamicLibrary, "loadDynamicLibrary");
  var reportUndefinedSymbols = /* @__PURE__ */ __name(() => {
    for (var [symName, entry] of Object.entries(GOT)) {
      if (entry.value == 0) {
        var value = resolveGlobalSymbol(symName, true).sym;
        if (!value && !entry.required) {
          continue;
        }
        if (typeof value == "function") {
          entry.value = addFunction(value, value.sig);
        } else if (typeof value == "number") {
          entry.value = value;
        } else {
          throw new Error(`bad export type for '${symName}': ${typeof value}`);
        }
      }
    }
  }, "reportUndefinedSymbols");
  var runDependencies = 0;
  var dependenciesFulfilled = null;
  var removeRunDependency = /* @__PURE__ */ __name((id) => {
    runDependencies--;
    Module["monitorRunDependencies"]?.(runDependencies);
    if (runDependencies == 0) {
      if (dependenciesFulfilled) {
        var callback = dependenciesFulfilled;
        dependenciesFulfilled = null;
        callback();
      }
    }
  }, "removeRunDependency");
  var addRunDependency = /* @__PURE__ */ __name((id) => {
    runDependencies++;
    Module["monitorRunDependencies"]?.(runDependencies);
  }, "addRunDependency");
  var loadDylibs = /* @__PURE__ */ __name(async () => {
    if (!dynamicLibraries.length) {
      reportUndefinedSymbols();
      return;
    }
    addRunDependency("loadDylibs");
    for (var lib of dynamicLibraries) {
      await loadDynamicLibrary(lib, {
        loadAsync: true,
        global: true,
        nodelete: true,
        allowUndefined: true
      });
    }
    reportUndefinedSymbols();
    removeRunDependency("loadDylibs");
  }, "loadDylibs");
  var noExitRuntime = true;
  function setValue(ptr, value, type = "i8") {
    if (type.endsWith("*")) type = "*";
    switch (type) {
      case "i1":
        HEAP8[ptr] = value;
        break;
      case "i8":
        HEAP8[ptr] = value;
        break;
      case "i16":
        LE_HEAP_STORE_I16((ptr >> 1) * 2, value);
        break;
      case "i32":
        LE_HEAP_STORE_I32((ptr >> 2) * 4, value);
        break;
      case "i64":
        LE_HEAP_STORE_I64((ptr >> 3) * 8, BigInt(value));
        break;
      case "float":
        LE_HEAP_STORE_F32((ptr >> 2) * 4, value);
        break;
      case "double":
        LE_HEAP_STORE_F64((ptr >> 3) * 8, value);
        break;
      case "*":
        LE_HEAP_STORE_U32((ptr >> 2) * 4, value);
        break;
      default:
        abort(`invalid type for setValue: ${type}`);
    }
  }
  __name(setValue, "setValue");
  var ___memory_base = new WebAssembly.Global({
    "value": "i32",
    "mutable": false
  }, 1024);
  var ___stack_high = 82240;
  var ___stack_low = 16704;
  var ___stack_pointer = new WebAssembly.Global({
    "value": "i32",
    "mutable": true
  }, 82240);
  var ___table_base = new WebAssembly.Global({
    "value": "i32",
    "mutable": false
  }, 1);
  var __abort_js = /* @__PURE__ */ __name(() => abort(""), "__abort_js");
  __abort_js.sig = "v";
  var getHeapMax = /* @__PURE__ */ __name(() => (
    // Stay one Wasm page short of 4GB: while e.g. Chrome is able to allocate
    // full 4GB Wasm memories, the size will wrap back to 0 bytes in Wasm side
    // for any code that deals with heap sizes, which would require special
    // casing all heap size related code to treat 0 specially.
    2147483648
  ), "getHeapMax");
  var growMemory = /* @__PURE__ */ __name((size) => {
    var oldHeapSize = wasmMemory.buffer.byteLength;
    var pages = (size - oldHeapSize + 65535) / 65536 | 0;
    try {
      wasmMemory.grow(pages);
      updateMemoryViews();
      return 1;
    } catch (e) {
    }
  }, "growMemory");
  var _emscripten_resize_heap = /* @__PURE__ */ __name((requestedSize) => {
    var oldSize = HEAPU8.length;
    requestedSize >>>= 0;
    var maxHeapSize = getHeapMax();
    if (requestedSize > maxHeapSize) {
      return false;
    }
    for (var cutDown = 1; cutDown <= 4; cutDown *= 2) {
      var overGrownHeapSize = oldSize * (1 + 0.2 / cutDown);
      overGrownHeapSize = Math.min(overGrownHeapSize, requestedSize + 100663296);
      var newSize = Math.min(maxHeapSize, alignMemory(Math.max(requestedSize, overGrownHeapSize), 65536));
      var replacement = growMemory(newSize);
      if (replacement) {
        return true;
      }
    }
    return false;
  }, "_emscripten_resize_heap");
  _emscripten_resize_heap.sig = "ip";
  var _fd_close = /* @__PURE__ */ __name((fd) => 52, "_fd_close");
  _fd_close.sig = "ii";
  var INT53_MAX = 9007199254740992;
  var INT53_MIN = -9007199254740992;
  var bigintToI53Checked = /* @__PURE__ */ __name((num) => num < INT53_MIN || num > INT53_MAX ? NaN : Number(num), "bigintToI53Checked");
  function _fd_seek(fd, offset, whence, newOffset) {
    offset = bigintToI53Checked(offset);
    return 70;
  }
  __name(_fd_seek, "_fd_seek");
  _fd_seek.sig = "iijip";
  var printCharBuffers = [null, [], []];
  var printChar = /* @__PURE__ */ __name((stream, curr) => {
    var buffer = printCharBuffers[stream];
    if (curr === 0 || curr === 10) {
      (stream === 1 ? out : err)(UTF8ArrayToString(buffer));
      buffer.length = 0;
    } else {
      buffer.push(curr);
    }
  }, "printChar");
  var _fd_write = /* @__PURE__ */ __name((fd, iov, iovcnt, pnum) => {
    var num = 0;
    for (var i2 = 0; i2 < iovcnt; i2++) {
      var ptr = LE_HEAP_LOAD_U32((iov >> 2) * 4);
      var len = LE_HEAP_LOAD_U32((iov + 4 >> 2) * 4);
      iov += 8;
      for (var j = 0; j < len; j++) {
        printChar(fd, HEAPU8[ptr + j]);
      }
      num += len;
    }
    LE_HEAP_STORE_U32((pnum >> 2) * 4, num);
    return 0;
  }, "_fd_write");
  _fd_write.sig = "iippp";
  function _tree_sitter_log_callback(isLexMessage, messageAddress) {
    if (Module.currentLogCallback) {
      const message2 = UTF8ToString(messageAddress);
      Module.currentLogCallback(message2, isLexMessage !== 0);
    }
  }
  __name(_tree_sitter_log_callback, "_tree_sitter_log_callback");
  function _tree_sitter_parse_callback(inputBufferAddress, index, row, column, lengthAddress) {
    const INPUT_BUFFER_SIZE = 10 * 1024;
    const string = Module.currentParseCallback(index, {
      row,
      column
    });
    if (typeof string === "string") {
      setValue(lengthAddress, string.length, "i32");
      stringToUTF16(string, inputBufferAddress, INPUT_BUFFER_SIZE);
    } else {
      setValue(lengthAddress, 0, "i32");
    }
  }
  __name(_tree_sitter_parse_callback, "_tree_sitter_parse_callback");
  function _tree_sitter_progress_callback(currentOffset, hasError) {
    if (Module.currentProgressCallback) {
      return Module.currentProgressCallback({
        currentOffset,
        hasError
      });
    }
    return false;
  }
  __name(_tree_sitter_progress_callback, "_tree_sitter_progress_callback");
  function _tree_sitter_query_progress_callback(currentOffset) {
    if (Module.currentQueryProgressCallback) {
      return Module.currentQueryProgressCallback({
        currentOffset
      });
    }
    return false;
  }
  __name(_tree_sitter_query_progress_callback, "_tree_sitter_query_progress_callback");
  var runtimeKeepaliveCounter = 0;
  var keepRuntimeAlive = /* @__PURE__ */ __name(() => noExitRuntime || runtimeKeepaliveCounter > 0, "keepRuntimeAlive");
  var _proc_exit = /* @__PURE__ */ __name((code) => {
    EXITSTATUS = code;
    if (!keepRuntimeAlive()) {
      Module["onExit"]?.(code);
      ABORT = true;
    }
    quit_(code, new ExitStatus(code));
  }, "_proc_exit");
  _proc_exit.sig = "vi";
  var exitJS = /* @__PURE__ */ __name((status, implicit) => {
    EXITSTATUS = status;
    _proc_exit(status);
  }, "exitJS");
  var handleException = /* @__PURE__ */ __name((e) => {
    if (e instanceof ExitStatus || e == "unwind") {
      return EXITSTATUS;
    }
    quit_(1, e);
  }, "handleException");
  var lengthBytesUTF8 = /* @__PURE__ */ __name((str3) => {
    var len = 0;
    for (var i2 = 0; i2 < str3.length; ++i2) {
      var c = str3.charCodeAt(i2);
      if (c <= 127) {
        len++;
      } else if (c <= 2047) {
        len += 2;
      } else if (c >= 55296 && c <= 57343) {
        len += 4;
        ++i2;
      } else {
        len += 3;
      }
    }
    return len;
  }, "lengthBytesUTF8");
  var stringToUTF8Array = /* @__PURE__ */ __name((str3, heap, outIdx, maxBytesToWrite) => {
    if (!(maxBytesToWrite > 0)) return 0;
    var startIdx = outIdx;
    var endIdx = outIdx + maxBytesToWrite - 1;
    for (var i2 = 0; i2 < str3.length; ++i2) {
      var u = str3.codePointAt(i2);
      if (u <= 127) {
        if (outIdx >= endIdx) break;
        heap[outIdx++] = u;
      } else if (u <= 2047) {
        if (outIdx + 1 >= endIdx) break;
        heap[outIdx++] = 192 | u >> 6;
        heap[outIdx++] = 128 | u & 63;
      } else if (u <= 65535) {
        if (outIdx + 2 >= endIdx) break;
        heap[outIdx++] = 224 | u >> 12;
        heap[outIdx++] = 128 | u >> 6 & 63;
        heap[outIdx++] = 128 | u & 63;
      } else {
        if (outIdx + 3 >= endIdx) break;
        heap[outIdx++] = 240 | u >> 18;
        heap[outIdx++] = 128 | u >> 12 & 63;
        heap[outIdx++] = 128 | u >> 6 & 63;
        heap[outIdx++] = 128 | u & 63;
        i2++;
      }
    }
    heap[outIdx] = 0;
    return outIdx - startIdx;
  }, "stringToUTF8Array");
  var stringToUTF8 = /* @__PURE__ */ __name((str3, outPtr, maxBytesToWrite) => stringToUTF8Array(str3, HEAPU8, outPtr, maxBytesToWrite), "stringToUTF8");
  var stackAlloc = /* @__PURE__ */ __name((sz) => __emscripten_stack_alloc(sz), "stackAlloc");
  var stringToUTF8OnStack = /* @__PURE__ */ __name((str3) => {
    var size = lengthBytesUTF8(str3) + 1;
    var ret = stackAlloc(size);
    stringToUTF8(str3, ret, size);
    return ret;
  }, "stringToUTF8OnStack");
  var AsciiToString = /* @__PURE__ */ __name((ptr) => {
    var str3 = "";
    while (1) {
      var ch = HEAPU8[ptr++];
      if (!ch) return str3;
      str3 += String.fromCharCode(ch);
    }
  }, "AsciiToString");
  var stringToUTF16 = /* @__PURE__ */ __name((str3, outPtr, maxBytesToWrite) => {
    maxBytesToWrite ??= 2147483647;
    if (maxBytesToWrite < 2) return 0;
    maxBytesToWrite -= 2;
    var startPtr = outPtr;
    var numCharsToWrite = maxBytesToWrite < str3.length * 2 ? maxBytesToWrite / 2 : str3.length;
    for (var i2 = 0; i2 < numCharsToWrite; ++i2) {
      var codeUnit = str3.charCodeAt(i2);
      LE_HEAP_STORE_I16((outPtr >> 1) * 2, codeUnit);
      outPtr += 2;
    }
    LE_HEAP_STORE_I16((outPtr >> 1) * 2, 0);
    return outPtr - startPtr;
  }, "stringToUTF16");
  LE_ATOMICS_NATIVE_BYTE_ORDER = new Int8Array(new Int16Array([1]).buffer)[0] === 1 ? [
    /* little endian */
    ((x) => x),
    ((x) => x),
    void 0,
    ((x) => x)
  ] : [
    /* big endian */
    ((x) => x),
    ((x) => ((x & 65280) << 8 | (x & 255) << 24) >> 16),
    void 0,
    ((x) => x >> 24 & 255 | x >> 8 & 65280 | (x & 65280) << 8 | (x & 255) << 24)
  ];
  function LE_HEAP_UPDATE() {
    HEAPU16.unsigned = ((x) => x & 65535);
    HEAPU32.unsigned = ((x) => x >>> 0);
  }
  __name(LE_HEAP_UPDATE, "LE_HEAP_UPDATE");
  {
    initMemory();
    if (Module["noExitRuntime"]) noExitRuntime = Module["noExitRuntime"];
    if (Module["print"]) out = Module["print"];
    if (Module["printErr"]) err = Module["printErr"];
    if (Module["dynamicLibraries"]) dynamicLibraries = Module["dynamicLibraries"];
    if (Module["wasmBinary"]) wasmBinary = Module["wasmBinary"];
    if (Module["arguments"]) arguments_ = Module["arguments"];
    if (Module["thisProgram"]) thisProgram = Module["thisProgram"];
    if (Module["preInit"]) {
      if (typeof Module["preInit"] == "function") Module["preInit"] = [Module["preInit"]];
      while (Module["preInit"].length > 0) {
        Module["preInit"].shift()();
      }
    }
  }
  Module["setValue"] = setValue;
  Module["getValue"] = getValue;
  Module["UTF8ToString"] = UTF8ToString;
  Module["stringToUTF8"] = stringToUTF8;
  Module["lengthBytesUTF8"] = lengthBytesUTF8;
  Module["AsciiToString"] = AsciiToString;
  Module["stringToUTF16"] = stringToUTF16;
  Module["loadWebAssemblyModule"] = loadWebAssemblyModule;
  Module["LE_HEAP_STORE_I64"] = LE_HEAP_STORE_I64;
  var ASM_CONSTS = {};
  var _malloc, _calloc, _realloc, _free, _ts_range_edit, _memcmp, _ts_language_symbol_count, _ts_language_state_count, _ts_language_abi_version, _ts_language_name, _ts_language_field_count, _ts_language_next_state, _ts_language_symbol_name, _ts_language_symbol_for_name, _strncmp, _strlen, _ts_language_symbol_type, _ts_language_field_name_for_id, _ts_lookahead_iterator_new, _ts_lookahead_iterator_delete, _ts_lookahead_iterator_reset_state, _ts_lookahead_iterator_reset, _ts_lookahead_iterator_next, _ts_lookahead_iterator_current_symbol, _ts_point_edit, _ts_parser_delete, _ts_parser_reset, _ts_parser_set_language, _ts_parser_set_included_ranges, _ts_query_new, _ts_query_delete, _iswspace, _iswalnum, _ts_query_copy, _ts_query_pattern_count, _ts_query_capture_count, _ts_query_string_count, _ts_query_capture_name_for_id, _ts_query_capture_quantifier_for_id, _ts_query_string_value_for_id, _ts_query_predicates_for_pattern, _ts_query_start_byte_for_pattern, _ts_query_end_byte_for_pattern, _ts_query_is_pattern_rooted, _ts_query_is_pattern_non_local, _ts_query_is_pattern_guaranteed_at_step, _ts_query_disable_capture, _ts_query_disable_pattern, _ts_tree_copy, _ts_tree_delete, _ts_init, _ts_parser_new_wasm, _ts_parser_enable_logger_wasm, _ts_parser_parse_wasm, _ts_parser_included_ranges_wasm, _ts_language_type_is_named_wasm, _ts_language_type_is_visible_wasm, _ts_language_metadata_wasm, _ts_language_supertypes_wasm, _ts_language_subtypes_wasm, _ts_tree_root_node_wasm, _ts_tree_root_node_with_offset_wasm, _ts_tree_edit_wasm, _ts_tree_included_ranges_wasm, _ts_tree_get_changed_ranges_wasm, _ts_tree_cursor_new_wasm, _ts_tree_cursor_copy_wasm, _ts_tree_cursor_delete_wasm, _ts_tree_cursor_reset_wasm, _ts_tree_cursor_reset_to_wasm, _ts_tree_cursor_goto_first_child_wasm, _ts_tree_cursor_goto_last_child_wasm, _ts_tree_cursor_goto_first_child_for_index_wasm, _ts_tree_cursor_goto_first_child_for_position_wasm, _ts_tree_cursor_goto_next_sibling_wasm, _ts_tree_cursor_goto_previous_sibling_wasm, _ts_tree_cursor_goto_descendant_wasm, _ts_tree_cursor_goto_parent_wasm, _ts_tree_cursor_current_node_type_id_wasm, _ts_tree_cursor_current_node_state_id_wasm, _ts_tree_cursor_current_node_is_named_wasm, _ts_tree_cursor_current_node_is_missing_wasm, _ts_tree_cursor_current_node_id_wasm, _ts_tree_cursor_start_position_wasm, _ts_tree_cursor_end_position_wasm, _ts_tree_cursor_start_index_wasm, _ts_tree_cursor_end_index_wasm, _ts_tree_cursor_current_field_id_wasm, _ts_tree_cursor_current_depth_wasm, _ts_tree_cursor_current_descendant_index_wasm, _ts_tree_cursor_current_node_wasm, _ts_node_symbol_wasm, _ts_node_field_name_for_child_wasm, _ts_node_field_name_for_named_child_wasm, _ts_node_children_by_field_id_wasm, _ts_node_first_child_for_byte_wasm, _ts_node_first_named_child_for_byte_wasm, _ts_node_grammar_symbol_wasm, _ts_node_child_count_wasm, _ts_node_named_child_count_wasm, _ts_node_child_wasm, _ts_node_named_child_wasm, _ts_node_child_by_field_id_wasm, _ts_node_next_sibling_wasm, _ts_node_prev_sibling_wasm, _ts_node_next_named_sibling_wasm, _ts_node_prev_named_sibling_wasm, _ts_node_descendant_count_wasm, _ts_node_parent_wasm, _ts_node_child_with_descendant_wasm, _ts_node_descendant_for_index_wasm, _ts_node_named_descendant_for_index_wasm, _ts_node_descendant_for_position_wasm, _ts_node_named_descendant_for_position_wasm, _ts_node_start_point_wasm, _ts_node_end_point_wasm, _ts_node_start_index_wasm, _ts_node_end_index_wasm, _ts_node_to_string_wasm, _ts_node_children_wasm, _ts_node_named_children_wasm, _ts_node_descendants_of_type_wasm, _ts_node_is_named_wasm, _ts_node_has_changes_wasm, _ts_node_has_error_wasm, _ts_node_is_error_wasm, _ts_node_is_missing_wasm, _ts_node_is_extra_wasm, _ts_node_parse_state_wasm, _ts_node_next_parse_state_wasm, _ts_query_matches_wasm, _ts_query_captures_wasm, _memset, _memcpy, _memmove, _iswalpha, _iswblank, _iswdigit, _iswlower, _iswpunct, _iswupper, _iswxdigit, _memchr, _strcmp, _strncat, _strncpy, _towlower, _towupper, _setThrew, __emscripten_stack_restore, __emscripten_stack_alloc, _emscripten_stack_get_current, ___wasm_apply_data_relocs;
  function assignWasmExports(wasmExports2) {
    Module["_malloc"] = _malloc = wasmExports2["malloc"];
    Module["_calloc"] = _calloc = wasmExports2["calloc"];
    Module["_realloc"] = _realloc = wasmExports2["realloc"];
    Module["_free"] = _free = wasmExports2["free"];
    Module["_ts_range_edit"] = _ts_range_edit = wasmExports2["ts_range_edit"];
    Module["_memcmp"] = _memcmp = wasmExports2["memcmp"];
    Module["_ts_language_symbol_count"] = _ts_language_symbol_count = wasmExports2["ts_language_symbol_count"];
    Module["_ts_language_state_count"] = _ts_language_state_count = wasmExports2["ts_language_state_count"];
    Module["_ts_language_abi_version"] = _ts_language_abi_version = wasmExports2["ts_language_abi_version"];
    Module["_ts_language_name"] = _ts_language_name = wasmExports2["ts_language_name"];
    Module["_ts_language_field_count"] = _ts_language_field_count = wasmExports2["ts_language_field_count"];
    Module["_ts_language_next_state"] = _ts_language_next_state = wasmExports2["ts_language_next_state"];
    Module["_ts_language_symbol_name"] = _ts_language_symbol_name = wasmExports2["ts_language_symbol_name"];
    Module["_ts_language_symbol_for_name"] = _ts_language_symbol_for_name = wasmExports2["ts_language_symbol_for_name"];
    Module["_strncmp"] = _strncmp = wasmExports2["strncmp"];
    Module["_strlen"] = _strlen = wasmExports2["strlen"];
    Module["_ts_language_symbol_type"] = _ts_language_symbol_type = wasmExports2["ts_language_symbol_type"];
    Module["_ts_language_field_name_for_id"] = _ts_language_field_name_for_id = wasmExports2["ts_language_field_name_for_id"];
    Module["_ts_lookahead_iterator_new"] = _ts_lookahead_iterator_new = wasmExports2["ts_lookahead_iterator_new"];
    Module["_ts_lookahead_iterator_delete"] = _ts_lookahead_iterator_delete = wasmExports2["ts_lookahead_iterator_delete"];
    Module["_ts_lookahead_iterator_reset_state"] = _ts_lookahead_iterator_reset_state = wasmExports2["ts_lookahead_iterator_reset_state"];
    Module["_ts_lookahead_iterator_reset"] = _ts_lookahead_iterator_reset = wasmExports2["ts_lookahead_iterator_reset"];
    Module["_ts_lookahead_iterator_next"] = _ts_lookahead_iterator_next = wasmExports2["ts_lookahead_iterator_next"];
    Module["_ts_lookahead_iterator_current_symbol"] = _ts_lookahead_iterator_current_symbol = wasmExports2["ts_lookahead_iterator_current_symbol"];
    Module["_ts_point_edit"] = _ts_point_edit = wasmExports2["ts_point_edit"];
    Module["_ts_parser_delete"] = _ts_parser_delete = wasmExports2["ts_parser_delete"];
    Module["_ts_parser_reset"] = _ts_parser_reset = wasmExports2["ts_parser_reset"];
    Module["_ts_parser_set_language"] = _ts_parser_set_language = wasmExports2["ts_parser_set_language"];
    Module["_ts_parser_set_included_ranges"] = _ts_parser_set_included_ranges = wasmExports2["ts_parser_set_included_ranges"];
    Module["_ts_query_new"] = _ts_query_new = wasmExports2["ts_query_new"];
    Module["_ts_query_delete"] = _ts_query_delete = wasmExports2["ts_query_delete"];
    Module["_iswspace"] = _iswspace = wasmExports2["iswspace"];
    Module["_iswalnum"] = _iswalnum = wasmExports2["iswalnum"];
    Module["_ts_query_copy"] = _ts_query_copy = wasmExports2["ts_query_copy"];
    Module["_ts_query_pattern_count"] = _ts_query_pattern_count = wasmExports2["ts_query_pattern_count"];
    Module["_ts_query_capture_count"] = _ts_query_capture_count = wasmExports2["ts_query_capture_count"];
    Module["_ts_query_string_count"] = _ts_query_string_count = wasmExports2["ts_query_string_count"];
    Module["_ts_query_capture_name_for_id"] = _ts_query_capture_name_for_id = wasmExports2["ts_query_capture_name_for_id"];
    Module["_ts_query_capture_quantifier_for_id"] = _ts_query_capture_quantifier_for_id = wasmExports2["ts_query_capture_quantifier_for_id"];
    Module["_ts_query_string_value_for_id"] = _ts_query_string_value_for_id = wasmExports2["ts_query_string_value_for_id"];
    Module["_ts_query_predicates_for_pattern"] = _ts_query_predicates_for_pattern = wasmExports2["ts_query_predicates_for_pattern"];
    Module["_ts_query_start_byte_for_pattern"] = _ts_query_start_byte_for_pattern = wasmExports2["ts_query_start_byte_for_pattern"];
    Module["_ts_query_end_byte_for_pattern"] = _ts_query_end_byte_for_pattern = wasmExports2["ts_query_end_byte_for_pattern"];
    Module["_ts_query_is_pattern_rooted"] = _ts_query_is_pattern_rooted = wasmExports2["ts_query_is_pattern_rooted"];
    Module["_ts_query_is_pattern_non_local"] = _ts_query_is_pattern_non_local = wasmExports2["ts_query_is_pattern_non_local"];
    Module["_ts_query_is_pattern_guaranteed_at_step"] = _ts_query_is_pattern_guaranteed_at_step = wasmExports2["ts_query_is_pattern_guaranteed_at_step"];
    Module["_ts_query_disable_capture"] = _ts_query_disable_capture = wasmExports2["ts_query_disable_capture"];
    Module["_ts_query_disable_pattern"] = _ts_query_disable_pattern = wasmExports2["ts_query_disable_pattern"];
    Module["_ts_tree_copy"] = _ts_tree_copy = wasmExports2["ts_tree_copy"];
    Module["_ts_tree_delete"] = _ts_tree_delete = wasmExports2["ts_tree_delete"];
    Module["_ts_init"] = _ts_init = wasmExports2["ts_init"];
    Module["_ts_parser_new_wasm"] = _ts_parser_new_wasm = wasmExports2["ts_parser_new_wasm"];
    Module["_ts_parser_enable_logger_wasm"] = _ts_parser_enable_logger_wasm = wasmExports2["ts_parser_enable_logger_wasm"];
    Module["_ts_parser_parse_wasm"] = _ts_parser_parse_wasm = wasmExports2["ts_parser_parse_wasm"];
    Module["_ts_parser_included_ranges_wasm"] = _ts_parser_included_ranges_wasm = wasmExports2["ts_parser_included_ranges_wasm"];
    Module["_ts_language_type_is_named_wasm"] = _ts_language_type_is_named_wasm = wasmExports2["ts_language_type_is_named_wasm"];
    Module["_ts_language_type_is_visible_wasm"] = _ts_language_type_is_visible_wasm = wasmExports2["ts_language_type_is_visible_wasm"];
    Module["_ts_language_metadata_wasm"] = _ts_language_metadata_wasm = wasmExports2["ts_language_metadata_wasm"];
    Module["_ts_language_supertypes_wasm"] = _ts_language_supertypes_wasm = wasmExports2["ts_language_supertypes_wasm"];
    Module["_ts_language_subtypes_wasm"] = _ts_language_subtypes_wasm = wasmExports2["ts_language_subtypes_wasm"];
    Module["_ts_tree_root_node_wasm"] = _ts_tree_root_node_wasm = wasmExports2["ts_tree_root_node_wasm"];
    Module["_ts_tree_root_node_with_offset_wasm"] = _ts_tree_root_node_with_offset_wasm = wasmExports2["ts_tree_root_node_with_offset_wasm"];
    Module["_ts_tree_edit_wasm"] = _ts_tree_edit_wasm = wasmExports2["ts_tree_edit_wasm"];
    Module["_ts_tree_included_ranges_wasm"] = _ts_tree_included_ranges_wasm = wasmExports2["ts_tree_included_ranges_wasm"];
    Module["_ts_tree_get_changed_ranges_wasm"] = _ts_tree_get_changed_ranges_wasm = wasmExports2["ts_tree_get_changed_ranges_wasm"];
    Module["_ts_tree_cursor_new_wasm"] = _ts_tree_cursor_new_wasm = wasmExports2["ts_tree_cursor_new_wasm"];
    Module["_ts_tree_cursor_copy_wasm"] = _ts_tree_cursor_copy_wasm = wasmExports2["ts_tree_cursor_copy_wasm"];
    Module["_ts_tree_cursor_delete_wasm"] = _ts_tree_cursor_delete_wasm = wasmExports2["ts_tree_cursor_delete_wasm"];
    Module["_ts_tree_cursor_reset_wasm"] = _ts_tree_cursor_reset_wasm = wasmExports2["ts_tree_cursor_reset_wasm"];
    Module["_ts_tree_cursor_reset_to_wasm"] = _ts_tree_cursor_reset_to_wasm = wasmExports2["ts_tree_cursor_reset_to_wasm"];
    Module["_ts_tree_cursor_goto_first_child_wasm"] = _ts_tree_cursor_goto_first_child_wasm = wasmExports2["ts_tree_cursor_goto_first_child_wasm"];
    Module["_ts_tree_cursor_goto_last_child_wasm"] = _ts_tree_cursor_goto_last_child_wasm = wasmExports2["ts_tree_cursor_goto_last_child_wasm"];
    Module["_ts_tree_cursor_goto_first_child_for_index_wasm"] = _ts_tree_cursor_goto_first_child_for_index_wasm = wasmExports2["ts_tree_cursor_goto_first_child_for_index_wasm"];
    Module["_ts_tree_cursor_goto_first_child_for_position_wasm"] = _ts_tree_cursor_goto_first_child_for_position_wasm = wasmExports2["ts_tree_cursor_goto_first_child_for_position_wasm"];
    Module["_ts_tree_cursor_goto_next_sibling_wasm"] = _ts_tree_cursor_goto_next_sibling_wasm = wasmExports2["ts_tree_cursor_goto_next_sibling_wasm"];
    Module["_ts_tree_cursor_goto_previous_sibling_wasm"] = _ts_tree_cursor_goto_previous_sibling_wasm = wasmExports2["ts_tree_cursor_goto_previous_sibling_wasm"];
    Module["_ts_tree_cursor_goto_descendant_wasm"] = _ts_tree_cursor_goto_descendant_wasm = wasmExports2["ts_tree_cursor_goto_descendant_wasm"];
    Module["_ts_tree_cursor_goto_parent_wasm"] = _ts_tree_cursor_goto_parent_wasm = wasmExports2["ts_tree_cursor_goto_parent_wasm"];
    Module["_ts_tree_cursor_current_node_type_id_wasm"] = _ts_tree_cursor_current_node_type_id_wasm = wasmExports2["ts_tree_cursor_current_node_type_id_wasm"];
    Module["_ts_tree_cursor_current_node_state_id_wasm"] = _ts_tree_cursor_current_node_state_id_wasm = wasmExports2["ts_tree_cursor_current_node_state_id_wasm"];
    Module["_ts_tree_cursor_current_node_is_named_wasm"] = _ts_tree_cursor_current_node_is_named_wasm = wasmExports2["ts_tree_cursor_current_node_is_named_wasm"];
    Module["_ts_tree_cursor_current_node_is_missing_wasm"] = _ts_tree_cursor_current_node_is_missing_wasm = wasmExports2["ts_tree_cursor_current_node_is_missing_wasm"];
    Module["_ts_tree_cursor_current_node_id_wasm"] = _ts_tree_cursor_current_node_id_wasm = wasmExports2["ts_tree_cursor_current_node_id_wasm"];
    Module["_ts_tree_cursor_start_position_wasm"] = _ts_tree_cursor_start_position_wasm = wasmExports2["ts_tree_cursor_start_position_wasm"];
    Module["_ts_tree_cursor_end_position_wasm"] = _ts_tree_cursor_end_position_wasm = wasmExports2["ts_tree_cursor_end_position_wasm"];
    Module["_ts_tree_cursor_start_index_wasm"] = _ts_tree_cursor_start_index_wasm = wasmExports2["ts_tree_cursor_start_index_wasm"];
    Module["_ts_tree_cursor_end_index_wasm"] = _ts_tree_cursor_end_index_wasm = wasmExports2["ts_tree_cursor_end_index_wasm"];
    Module["_ts_tree_cursor_current_field_id_wasm"] = _ts_tree_cursor_current_field_id_wasm = wasmExports2["ts_tree_cursor_current_field_id_wasm"];
    Module["_ts_tree_cursor_current_depth_wasm"] = _ts_tree_cursor_current_depth_wasm = wasmExports2["ts_tree_cursor_current_depth_wasm"];
    Module["_ts_tree_cursor_current_descendant_index_wasm"] = _ts_tree_cursor_current_descendant_index_wasm = wasmExports2["ts_tree_cursor_current_descendant_index_wasm"];
    Module["_ts_tree_cursor_current_node_wasm"] = _ts_tree_cursor_current_node_wasm = wasmExports2["ts_tree_cursor_current_node_wasm"];
    Module["_ts_node_symbol_wasm"] = _ts_node_symbol_wasm = wasmExports2["ts_node_symbol_wasm"];
    Module["_ts_node_field_name_for_child_wasm"] = _ts_node_field_name_for_child_wasm = wasmExports2["ts_node_field_name_for_child_wasm"];
    Module["_ts_node_field_name_for_named_child_wasm"] = _ts_node_field_name_for_named_child_wasm = wasmExports2["ts_node_field_name_for_named_child_wasm"];
    Module["_ts_node_children_by_field_id_wasm"] = _ts_node_children_by_field_id_wasm = wasmExports2["ts_node_children_by_field_id_wasm"];
    Module["_ts_node_first_child_for_byte_wasm"] = _ts_node_first_child_for_byte_wasm = wasmExports2["ts_node_first_child_for_byte_wasm"];
    Module["_ts_node_first_named_child_for_byte_wasm"] = _ts_node_first_named_child_for_byte_wasm = wasmExports2["ts_node_first_named_child_for_byte_wasm"];
    Module["_ts_node_grammar_symbol_wasm"] = _ts_node_grammar_symbol_wasm = wasmExports2["ts_node_grammar_symbol_wasm"];
    Module["_ts_node_child_count_wasm"] = _ts_node_child_count_wasm = wasmExports2["ts_node_child_count_wasm"];
    Module["_ts_node_named_child_count_wasm"] = _ts_node_named_child_count_wasm = wasmExports2["ts_node_named_child_count_wasm"];
    Module["_ts_node_child_wasm"] = _ts_node_child_wasm = wasmExports2["ts_node_child_wasm"];
    Module["_ts_node_named_child_wasm"] = _ts_node_named_child_wasm = wasmExports2["ts_node_named_child_wasm"];
    Module["_ts_node_child_by_field_id_wasm"] = _ts_node_child_by_field_id_wasm = wasmExports2["ts_node_child_by_field_id_wasm"];
    Module["_ts_node_next_sibling_wasm"] = _ts_node_next_sibling_wasm = wasmExports2["ts_node_next_sibling_wasm"];
    Module["_ts_node_prev_sibling_wasm"] = _ts_node_prev_sibling_wasm = wasmExports2["ts_node_prev_sibling_wasm"];
    Module["_ts_node_next_named_sibling_wasm"] = _ts_node_next_named_sibling_wasm = wasmExports2["ts_node_next_named_sibling_wasm"];
    Module["_ts_node_prev_named_sibling_wasm"] = _ts_node_prev_named_sibling_wasm = wasmExports2["ts_node_prev_named_sibling_wasm"];
    Module["_ts_node_descendant_count_wasm"] = _ts_node_descendant_count_wasm = wasmExports2["ts_node_descendant_count_wasm"];
    Module["_ts_node_parent_wasm"] = _ts_node_parent_wasm = wasmExports2["ts_node_parent_wasm"];
    Module["_ts_node_child_with_descendant_wasm"] = _ts_node_child_with_descendant_wasm = wasmExports2["ts_node_child_with_descendant_wasm"];
    Module["_ts_node_descendant_for_index_wasm"] = _ts_node_descendant_for_index_wasm = wasmExports2["ts_node_descendant_for_index_wasm"];
    Module["_ts_node_named_descendant_for_index_wasm"] = _ts_node_named_descendant_for_index_wasm = wasmExports2["ts_node_named_descendant_for_index_wasm"];
    Module["_ts_node_descendant_for_position_wasm"] = _ts_node_descendant_for_position_wasm = wasmExports2["ts_node_descendant_for_position_wasm"];
    Module["_ts_node_named_descendant_for_position_wasm"] = _ts_node_named_descendant_for_position_wasm = wasmExports2["ts_node_named_descendant_for_position_wasm"];
    Module["_ts_node_start_point_wasm"] = _ts_node_start_point_wasm = wasmExports2["ts_node_start_point_wasm"];
    Module["_ts_node_end_point_wasm"] = _ts_node_end_point_wasm = wasmExports2["ts_node_end_point_wasm"];
    Module["_ts_node_start_index_wasm"] = _ts_node_start_index_wasm = wasmExports2["ts_node_start_index_wasm"];
    Module["_ts_node_end_index_wasm"] = _ts_node_end_index_wasm = wasmExports2["ts_node_end_index_wasm"];
    Module["_ts_node_to_string_wasm"] = _ts_node_to_string_wasm = wasmExports2["ts_node_to_string_wasm"];
    Module["_ts_node_children_wasm"] = _ts_node_children_wasm = wasmExports2["ts_node_children_wasm"];
    Module["_ts_node_named_children_wasm"] = _ts_node_named_children_wasm = wasmExports2["ts_node_named_children_wasm"];
    Module["_ts_node_descendants_of_type_wasm"] = _ts_node_descendants_of_type_wasm = wasmExports2["ts_node_descendants_of_type_wasm"];
    Module["_ts_node_is_named_wasm"] = _ts_node_is_named_wasm = wasmExports2["ts_node_is_named_wasm"];
    Module["_ts_node_has_changes_wasm"] = _ts_node_has_changes_wasm = wasmExports2["ts_node_has_changes_wasm"];
    Module["_ts_node_has_error_wasm"] = _ts_node_has_error_wasm = wasmExports2["ts_node_has_error_wasm"];
    Module["_ts_node_is_error_wasm"] = _ts_node_is_error_wasm = wasmExports2["ts_node_is_error_wasm"];
    Module["_ts_node_is_missing_wasm"] = _ts_node_is_missing_wasm = wasmExports2["ts_node_is_missing_wasm"];
    Module["_ts_node_is_extra_wasm"] = _ts_node_is_extra_wasm = wasmExports2["ts_node_is_extra_wasm"];
    Module["_ts_node_parse_state_wasm"] = _ts_node_parse_state_wasm = wasmExports2["ts_node_parse_state_wasm"];
    Module["_ts_node_next_parse_state_wasm"] = _ts_node_next_parse_state_wasm = wasmExports2["ts_node_next_parse_state_wasm"];
    Module["_ts_query_matches_wasm"] = _ts_query_matches_wasm = wasmExports2["ts_query_matches_wasm"];
    Module["_ts_query_captures_wasm"] = _ts_query_captures_wasm = wasmExports2["ts_query_captures_wasm"];
    Module["_memset"] = _memset = wasmExports2["memset"];
    Module["_memcpy"] = _memcpy = wasmExports2["memcpy"];
    Module["_memmove"] = _memmove = wasmExports2["memmove"];
    Module["_iswalpha"] = _iswalpha = wasmExports2["iswalpha"];
    Module["_iswblank"] = _iswblank = wasmExports2["iswblank"];
    Module["_iswdigit"] = _iswdigit = wasmExports2["iswdigit"];
    Module["_iswlower"] = _iswlower = wasmExports2["iswlower"];
    Module["_iswpunct"] = _iswpunct = wasmExports2["iswpunct"];
    Module["_iswupper"] = _iswupper = wasmExports2["iswupper"];
    Module["_iswxdigit"] = _iswxdigit = wasmExports2["iswxdigit"];
    Module["_memchr"] = _memchr = wasmExports2["memchr"];
    Module["_strcmp"] = _strcmp = wasmExports2["strcmp"];
    Module["_strncat"] = _strncat = wasmExports2["strncat"];
    Module["_strncpy"] = _strncpy = wasmExports2["strncpy"];
    Module["_towlower"] = _towlower = wasmExports2["towlower"];
    Module["_towupper"] = _towupper = wasmExports2["towupper"];
    _setThrew = wasmExports2["setThrew"];
    __emscripten_stack_restore = wasmExports2["_emscripten_stack_restore"];
    __emscripten_stack_alloc = wasmExports2["_emscripten_stack_alloc"];
    _emscripten_stack_get_current = wasmExports2["emscripten_stack_get_current"];
    ___wasm_apply_data_relocs = wasmExports2["__wasm_apply_data_relocs"];
  }
  __name(assignWasmExports, "assignWasmExports");
  var wasmImports = {
    /** @export */
    __heap_base: ___heap_base,
    /** @export */
    __indirect_function_table: wasmTable,
    /** @export */
    __memory_base: ___memory_base,
    /** @export */
    __stack_high: ___stack_high,
    /** @export */
    __stack_low: ___stack_low,
    /** @export */
    __stack_pointer: ___stack_pointer,
    /** @export */
    __table_base: ___table_base,
    /** @export */
    _abort_js: __abort_js,
    /** @export */
    emscripten_resize_heap: _emscripten_resize_heap,
    /** @export */
    fd_close: _fd_close,
    /** @export */
    fd_seek: _fd_seek,
    /** @export */
    fd_write: _fd_write,
    /** @export */
    memory: wasmMemory,
    /** @export */
    tree_sitter_log_callback: _tree_sitter_log_callback,
    /** @export */
    tree_sitter_parse_callback: _tree_sitter_parse_callback,
    /** @export */
    tree_sitter_progress_callback: _tree_sitter_progress_callback,
    /** @export */
    tree_sitter_query_progress_callback: _tree_sitter_query_progress_callback
  };
  function callMain(args22 = []) {
    var entryFunction = resolveGlobalSymbol("main").sym;
    if (!entryFunction) return;
    args22.unshift(thisProgram);
    var argc = args22.length;
    var argv = stackAlloc((argc + 1) * 4);
    var argv_ptr = argv;
    args22.forEach((arg) => {
      LE_HEAP_STORE_U32((argv_ptr >> 2) * 4, stringToUTF8OnStack(arg));
      argv_ptr += 4;
    });
    LE_HEAP_STORE_U32((argv_ptr >> 2) * 4, 0);
    try {
      var ret = entryFunction(argc, argv);
      exitJS(
        ret,
        /* implicit = */
        true
      );
      return ret;
    } catch (e) {
      return handleException(e);
    }
  }
  __name(callMain, "callMain");
  function run(args22 = arguments_) {
    if (runDependencies > 0) {
      dependenciesFulfilled = run;
      return;
    }
    preRun();
    if (runDependencies > 0) {
      dependenciesFulfilled = run;
      return;
    }
    function doRun() {
      Module["calledRun"] = true;
      if (ABORT) return;
      initRuntime();
      preMain();
      readyPromiseResolve?.(Module);
      Module["onRuntimeInitialized"]?.();
      var noInitialRun = Module["noInitialRun"] || false;
      if (!noInitialRun) callMain(args22);
      postRun();
    }
    __name(doRun, "doRun");
    if (Module["setStatus"]) {
      Module["setStatus"]("Running...");
      setTimeout(() => {
        setTimeout(() => Module["setStatus"](""), 1);
        doRun();
      }, 1);
    } else {
      doRun();
    }
  }
  __name(run, "run");
  var wasmExports;
  wasmExports = await createWasm();
  run();
  if (runtimeInitialized) {
    moduleRtn = Module;
  } else {
    moduleRtn = new Promise((resolve5, reject2) => {
      readyPromiseResolve = resolve5;
      readyPromiseReject = reject2;
    });
  }
  return moduleRtn;
}
__name(Module2, "Module");
var web_tree_sitter_default = Module2;
var Module3 = null;
async function initializeBinding(moduleOptions) {
  return Module3 ??= await web_tree_sitter_default(moduleOptions);
}
__name(initializeBinding, "initializeBinding");
function checkModule() {
  return !!Module3;
}
__name(checkModule, "checkModule");
var TRANSFER_BUFFER;
var LANGUAGE_VERSION;
var MIN_COMPATIBLE_VERSION;
var finalizer4 = newFinalizer((addresses) => {
  C._ts_parser_delete(addresses[0]);
  C._free(addresses[1]);
});
var Parser = class {
  static {
    __name(this, "Parser");
  }
  /** @internal */
  [0] = 0;
  // Internal handle for Wasm
  /** @internal */
  [1] = 0;
  // Internal handle for Wasm
  /** @internal */
  logCallback = null;
  /** The parser's current language. */
  language = null;
  /**
   * This must always be called before creating a Parser.
   *
   * You can optionally pass in options to configure the Wasm module, the most common
   * one being `locateFile` to help the module find the `.wasm` file.
   */
  static async init(moduleOptions) {
    setModule(await initializeBinding(moduleOptions));
    TRANSFER_BUFFER = C._ts_init();
    LANGUAGE_VERSION = C.getValue(TRANSFER_BUFFER, "i32");
    MIN_COMPATIBLE_VERSION = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
  }
  /**
   * Create a new parser.
   */
  constructor() {
    this.initialize();
    finalizer4?.register(this, [this[0], this[1]], this);
  }
  /** @internal */
  initialize() {
    if (!checkModule()) {
      throw new Error("cannot construct a Parser before calling `init()`");
    }
    C._ts_parser_new_wasm();
    this[0] = C.getValue(TRANSFER_BUFFER, "i32");
    this[1] = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
  }
  /** Delete the parser, freeing its resources. */
  delete() {
    finalizer4?.unregister(this);
    C._ts_parser_delete(this[0]);
    C._free(this[1]);
    this[0] = 0;
    this[1] = 0;
  }
  /**
   * Set the language that the parser should use for parsing.
   *
   * If the language was not successfully assigned, an error will be thrown.
   * This happens if the language was generated with an incompatible
   * version of the Tree-sitter CLI. Check the language's version using
   * {@link Language#version} and compare it to this library's
   * {@link LANGUAGE_VERSION} and {@link MIN_COMPATIBLE_VERSION} constants.
   */
  setLanguage(language) {
    let address;
    if (!language) {
      address = 0;
      this.language = null;
    } else if (language.constructor === Language) {
      address = language[0];
      const version = C._ts_language_abi_version(address);
      if (version < MIN_COMPATIBLE_VERSION || LANGUAGE_VERSION < version) {
        throw new Error(
          `Incompatible language version ${version}. Compatibility range ${MIN_COMPATIBLE_VERSION} through ${LANGUAGE_VERSION}.`
        );
      }
      this.language = language;
    } else {
      throw new Error("Argument must be a Language");
    }
    C._ts_parser_set_language(this[0], address);
    return this;
  }
  /**
   * Parse a slice of UTF8 text.
   *
   * @param {string | ParseCallback} callback - The UTF8-encoded text to parse or a callback function.
   *
   * @param {Tree | null} [oldTree] - A previous syntax tree parsed from the same document. If the text of the
   *   document has changed since `oldTree` was created, then you must edit `oldTree` to match
   *   the new text using {@link Tree#edit}.
   *
   * @param {ParseOptions} [options] - Options for parsing the text.
   *  This can be used to set the included ranges, or a progress callback.
   *
   * @returns {Tree | null} A {@link Tree} if parsing succeeded, or `null` if:
   *  - The parser has not yet had a language assigned with {@link Parser#setLanguage}.
   *  - The progress callback returned true.
   */
  parse(callback, oldTree, options) {
    if (typeof callback === "string") {
      C.currentParseCallback = (index) => callback.slice(index);
    } else if (typeof callback === "function") {
      C.currentParseCallback = callback;
    } else {
      throw new Error("Argument must be a string or a function");
    }
    if (options?.progressCallback) {
      C.currentProgressCallback = options.progressCallback;
    } else {
      C.currentProgressCallback = null;
    }
    if (this.logCallback) {
      C.currentLogCallback = this.logCallback;
      C._ts_parser_enable_logger_wasm(this[0], 1);
    } else {
      C.currentLogCallback = null;
      C._ts_parser_enable_logger_wasm(this[0], 0);
    }
    let rangeCount = 0;
    let rangeAddress = 0;
    if (options?.includedRanges) {
      rangeCount = options.includedRanges.length;
      rangeAddress = C._calloc(rangeCount, SIZE_OF_RANGE);
      let address = rangeAddress;
      for (let i2 = 0; i2 < rangeCount; i2++) {
        marshalRange(address, options.includedRanges[i2]);
        address += SIZE_OF_RANGE;
      }
    }
    const treeAddress = C._ts_parser_parse_wasm(
      this[0],
      this[1],
      oldTree ? oldTree[0] : 0,
      rangeAddress,
      rangeCount
    );
    if (!treeAddress) {
      C.currentParseCallback = null;
      C.currentLogCallback = null;
      C.currentProgressCallback = null;
      return null;
    }
    if (!this.language) {
      throw new Error("Parser must have a language to parse");
    }
    const result = new Tree(INTERNAL, treeAddress, this.language, C.currentParseCallback);
    C.currentParseCallback = null;
    C.currentLogCallback = null;
    C.currentProgressCallback = null;
    return result;
  }
  /**
   * Instruct the parser to start the next parse from the beginning.
   *
   * If the parser previously failed because of a callback, 
   * then by default, it will resume where it left off on the
   * next call to {@link Parser#parse} or other parsing functions.
   * If you don't want to resume, and instead intend to use this parser to
   * parse some other document, you must call `reset` first.
   */
  reset() {
    C._ts_parser_reset(this[0]);
  }
  /** Get the ranges of text that the parser will include when parsing. */
  getIncludedRanges() {
    C._ts_parser_included_ranges_wasm(this[0]);
    const count2 = C.getValue(TRANSFER_BUFFER, "i32");
    const buffer = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
    const result = new Array(count2);
    if (count2 > 0) {
      let address = buffer;
      for (let i2 = 0; i2 < count2; i2++) {
        result[i2] = unmarshalRange(address);
        address += SIZE_OF_RANGE;
      }
      C._free(buffer);
    }
    return result;
  }
  /** Set the logging callback that a parser should use during parsing. */
  setLogger(callback) {
    if (!callback) {
      this.logCallback = null;
    } else if (typeof callback !== "function") {
      throw new Error("Logger callback must be a function");
    } else {
      this.logCallback = callback;
    }
    return this;
  }
  /** Get the parser's current logger. */
  getLogger() {
    return this.logCallback;
  }
};
var PREDICATE_STEP_TYPE_CAPTURE = 1;
var PREDICATE_STEP_TYPE_STRING = 2;
var QUERY_WORD_REGEX = /[\w-]+/g;
var CaptureQuantifier = {
  Zero: 0,
  ZeroOrOne: 1,
  ZeroOrMore: 2,
  One: 3,
  OneOrMore: 4
};
var isCaptureStep = /* @__PURE__ */ __name((step2) => step2.type === "capture", "isCaptureStep");
var isStringStep = /* @__PURE__ */ __name((step2) => step2.type === "string", "isStringStep");
var QueryErrorKind = {
  Syntax: 1,
  NodeName: 2,
  FieldName: 3,
  CaptureName: 4,
  PatternStructure: 5
};
var QueryError = class _QueryError extends Error {
  constructor(kind, info2, index, length) {
    super(_QueryError.formatMessage(kind, info2));
    this.kind = kind;
    this.info = info2;
    this.index = index;
    this.length = length;
    this.name = "QueryError";
  }
  kind;
  info;
  index;
  length;
  static {
    __name(this, "QueryError");
  }
  /** Formats an error message based on the error kind and info */
  static formatMessage(kind, info2) {
    switch (kind) {
      case QueryErrorKind.NodeName:
        return `Bad node name '${info2.word}'`;
      case QueryErrorKind.FieldName:
        return `Bad field name '${info2.word}'`;
      case QueryErrorKind.CaptureName:
        return `Bad capture name @${info2.word}`;
      case QueryErrorKind.PatternStructure:
        return `Bad pattern structure at offset ${info2.suffix}`;
      case QueryErrorKind.Syntax:
        return `Bad syntax at offset ${info2.suffix}`;
    }
  }
};
function parseAnyPredicate(steps, index, operator, textPredicates) {
  if (steps.length !== 3) {
    throw new Error(
      `Wrong number of arguments to \`#${operator}\` predicate. Expected 2, got ${steps.length - 1}`
    );
  }
  if (!isCaptureStep(steps[1])) {
    throw new Error(
      `First argument of \`#${operator}\` predicate must be a capture. Got "${steps[1].value}"`
    );
  }
  const isPositive = operator === "eq?" || operator === "any-eq?";
  const matchAll = !operator.startsWith("any-");
  if (isCaptureStep(steps[2])) {
    const captureName1 = steps[1].name;
    const captureName2 = steps[2].name;
    textPredicates[index].push((captures) => {
      const nodes1 = [];
      const nodes2 = [];
      for (const c of captures) {
        if (c.name === captureName1) nodes1.push(c.node);
        if (c.name === captureName2) nodes2.push(c.node);
      }
      const compare = /* @__PURE__ */ __name((n1, n2, positive) => {
        return positive ? n1.text === n2.text : n1.text !== n2.text;
      }, "compare");
      return matchAll ? nodes1.every((n1) => nodes2.some((n2) => compare(n1, n2, isPositive))) : nodes1.some((n1) => nodes2.some((n2) => compare(n1, n2, isPositive)));
    });
  } else {
    const captureName = steps[1].name;
    const stringValue3 = steps[2].value;
    const matches = /* @__PURE__ */ __name((n) => n.text === stringValue3, "matches");
    const doesNotMatch = /* @__PURE__ */ __name((n) => n.text !== stringValue3, "doesNotMatch");
    textPredicates[index].push((captures) => {
      const nodes = [];
      for (const c of captures) {
        if (c.name === captureName) nodes.push(c.node);
      }
      const test = isPositive ? matches : doesNotMatch;
      return matchAll ? nodes.every(test) : nodes.some(test);
    });
  }
}
__name(parseAnyPredicate, "parseAnyPredicate");
function parseMatchPredicate(steps, index, operator, textPredicates) {
  if (steps.length !== 3) {
    throw new Error(
      `Wrong number of arguments to \`#${operator}\` predicate. Expected 2, got ${steps.length - 1}.`
    );
  }
  if (steps[1].type !== "capture") {
    throw new Error(
      `First argument of \`#${operator}\` predicate must be a capture. Got "${steps[1].value}".`
    );
  }
  if (steps[2].type !== "string") {
    throw new Error(
      `Second argument of \`#${operator}\` predicate must be a string. Got @${steps[2].name}.`
    );
  }
  const isPositive = operator === "match?" || operator === "any-match?";
  const matchAll = !operator.startsWith("any-");
  const captureName = steps[1].name;
  const regex = new RegExp(steps[2].value);
  textPredicates[index].push((captures) => {
    const nodes = [];
    for (const c of captures) {
      if (c.name === captureName) nodes.push(c.node.text);
    }
    const test = /* @__PURE__ */ __name((text2, positive) => {
      return positive ? regex.test(text2) : !regex.test(text2);
    }, "test");
    if (nodes.length === 0) return !isPositive;
    return matchAll ? nodes.every((text2) => test(text2, isPositive)) : nodes.some((text2) => test(text2, isPositive));
  });
}
__name(parseMatchPredicate, "parseMatchPredicate");
function parseAnyOfPredicate(steps, index, operator, textPredicates) {
  if (steps.length < 2) {
    throw new Error(
      `Wrong number of arguments to \`#${operator}\` predicate. Expected at least 1. Got ${steps.length - 1}.`
    );
  }
  if (steps[1].type !== "capture") {
    throw new Error(
      `First argument of \`#${operator}\` predicate must be a capture. Got "${steps[1].value}".`
    );
  }
  const isPositive = operator === "any-of?";
  const captureName = steps[1].name;
  const stringSteps = steps.slice(2);
  if (!stringSteps.every(isStringStep)) {
    throw new Error(
      `Arguments to \`#${operator}\` predicate must be strings.".`
    );
  }
  const values = stringSteps.map((s) => s.value);
  textPredicates[index].push((captures) => {
    const nodes = [];
    for (const c of captures) {
      if (c.name === captureName) nodes.push(c.node.text);
    }
    if (nodes.length === 0) return !isPositive;
    return nodes.every((text2) => values.includes(text2)) === isPositive;
  });
}
__name(parseAnyOfPredicate, "parseAnyOfPredicate");
function parseIsPredicate(steps, index, operator, assertedProperties, refutedProperties) {
  if (steps.length < 2 || steps.length > 3) {
    throw new Error(
      `Wrong number of arguments to \`#${operator}\` predicate. Expected 1 or 2. Got ${steps.length - 1}.`
    );
  }
  if (!steps.every(isStringStep)) {
    throw new Error(
      `Arguments to \`#${operator}\` predicate must be strings.".`
    );
  }
  const properties = operator === "is?" ? assertedProperties : refutedProperties;
  if (!properties[index]) properties[index] = {};
  properties[index][steps[1].value] = steps[2]?.value ?? null;
}
__name(parseIsPredicate, "parseIsPredicate");
function parseSetDirective(steps, index, setProperties) {
  if (steps.length < 2 || steps.length > 3) {
    throw new Error(`Wrong number of arguments to \`#set!\` predicate. Expected 1 or 2. Got ${steps.length - 1}.`);
  }
  if (!steps.every(isStringStep)) {
    throw new Error(`Arguments to \`#set!\` predicate must be strings.".`);
  }
  if (!setProperties[index]) setProperties[index] = {};
  setProperties[index][steps[1].value] = steps[2]?.value ?? null;
}
__name(parseSetDirective, "parseSetDirective");
function parsePattern(index, stepType, stepValueId, captureNames, stringValues, steps, textPredicates, predicates, setProperties, assertedProperties, refutedProperties) {
  if (stepType === PREDICATE_STEP_TYPE_CAPTURE) {
    const name2 = captureNames[stepValueId];
    steps.push({ type: "capture", name: name2 });
  } else if (stepType === PREDICATE_STEP_TYPE_STRING) {
    steps.push({ type: "string", value: stringValues[stepValueId] });
  } else if (steps.length > 0) {
    if (steps[0].type !== "string") {
      throw new Error("Predicates must begin with a literal value");
    }
    const operator = steps[0].value;
    switch (operator) {
      case "any-not-eq?":
      case "not-eq?":
      case "any-eq?":
      case "eq?":
        parseAnyPredicate(steps, index, operator, textPredicates);
        break;
      case "any-not-match?":
      case "not-match?":
      case "any-match?":
      case "match?":
        parseMatchPredicate(steps, index, operator, textPredicates);
        break;
      case "not-any-of?":
      case "any-of?":
        parseAnyOfPredicate(steps, index, operator, textPredicates);
        break;
      case "is?":
      case "is-not?":
        parseIsPredicate(steps, index, operator, assertedProperties, refutedProperties);
        break;
      case "set!":
        parseSetDirective(steps, index, setProperties);
        break;
      default:
        predicates[index].push({ operator, operands: steps.slice(1) });
    }
    steps.length = 0;
  }
}
__name(parsePattern, "parsePattern");
function indexForByteOffset(source, byteOffset) {
  return new TextEncoder().encodeInto(source, new Uint8Array(byteOffset)).read;
}
__name(indexForByteOffset, "indexForByteOffset");
var finalizer5 = newFinalizer((address) => {
  C._ts_query_delete(address);
});
var Query = class {
  static {
    __name(this, "Query");
  }
  /** @internal */
  [0] = 0;
  // Internal handle for Wasm
  /** @internal */
  exceededMatchLimit;
  /** @internal */
  textPredicates;
  /** @internal */
  source;
  /** The names of the captures used in the query. */
  captureNames;
  /** The quantifiers of the captures used in the query. */
  captureQuantifiers;
  /**
   * The other user-defined predicates associated with the given index.
   *
   * This includes predicates with operators other than:
   * - `match?`
   * - `eq?` and `not-eq?`
   * - `any-of?` and `not-any-of?`
   * - `is?` and `is-not?`
   * - `set!`
   */
  predicates;
  /** The properties for predicates with the operator `set!`. */
  setProperties;
  /** The properties for predicates with the operator `is?`. */
  assertedProperties;
  /** The properties for predicates with the operator `is-not?`. */
  refutedProperties;
  /** The maximum number of in-progress matches for this cursor. */
  matchLimit;
  /**
   * Create a new query from a string containing one or more S-expression
   * patterns.
   *
   * The query is associated with a particular language, and can only be run
   * on syntax nodes parsed with that language. References to Queries can be
   * shared between multiple threads.
   *
   * @link {@see https://tree-sitter.github.io/tree-sitter/using-parsers/queries}
   */
  constructor(language, source) {
    const sourceLength = C.lengthBytesUTF8(source);
    const sourceAddress = C._malloc(sourceLength + 1);
    C.stringToUTF8(source, sourceAddress, sourceLength + 1);
    const address = C._ts_query_new(
      language[0],
      sourceAddress,
      sourceLength,
      TRANSFER_BUFFER,
      TRANSFER_BUFFER + SIZE_OF_INT
    );
    if (!address) {
      const errorId = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
      const errorByte = C.getValue(TRANSFER_BUFFER, "i32");
      const errorIndex = C.UTF8ToString(sourceAddress, errorByte).length;
      const suffix = source.slice(errorIndex, errorIndex + 100).split("\n")[0];
      const word = suffix.match(QUERY_WORD_REGEX)?.[0] ?? "";
      C._free(sourceAddress);
      switch (errorId) {
        case QueryErrorKind.Syntax:
          throw new QueryError(QueryErrorKind.Syntax, { suffix: `${errorIndex}: '${suffix}'...` }, errorIndex, 0);
        case QueryErrorKind.NodeName:
          throw new QueryError(errorId, { word }, errorIndex, word.length);
        case QueryErrorKind.FieldName:
          throw new QueryError(errorId, { word }, errorIndex, word.length);
        case QueryErrorKind.CaptureName:
          throw new QueryError(errorId, { word }, errorIndex, word.length);
        case QueryErrorKind.PatternStructure:
          throw new QueryError(errorId, { suffix: `${errorIndex}: '${suffix}'...` }, errorIndex, 0);
      }
    }
    const stringCount = C._ts_query_string_count(address);
    const captureCount = C._ts_query_capture_count(address);
    const patternCount = C._ts_query_pattern_count(address);
    const captureNames = new Array(captureCount);
    const captureQuantifiers = new Array(patternCount);
    const stringValues = new Array(stringCount);
    for (let i2 = 0; i2 < captureCount; i2++) {
      const nameAddress = C._ts_query_capture_name_for_id(
        address,
        i2,
        TRANSFER_BUFFER
      );
      const nameLength = C.getValue(TRANSFER_BUFFER, "i32");
      captureNames[i2] = C.UTF8ToString(nameAddress, nameLength);
    }
    for (let i2 = 0; i2 < patternCount; i2++) {
      const captureQuantifiersArray = new Array(captureCount);
      for (let j = 0; j < captureCount; j++) {
        const quantifier = C._ts_query_capture_quantifier_for_id(address, i2, j);
        captureQuantifiersArray[j] = quantifier;
      }
      captureQuantifiers[i2] = captureQuantifiersArray;
    }
    for (let i2 = 0; i2 < stringCount; i2++) {
      const valueAddress = C._ts_query_string_value_for_id(
        address,
        i2,
        TRANSFER_BUFFER
      );
      const nameLength = C.getValue(TRANSFER_BUFFER, "i32");
      stringValues[i2] = C.UTF8ToString(valueAddress, nameLength);
    }
    const setProperties = new Array(patternCount);
    const assertedProperties = new Array(patternCount);
    const refutedProperties = new Array(patternCount);
    const predicates = new Array(patternCount);
    const textPredicates = new Array(patternCount);
    for (let i2 = 0; i2 < patternCount; i2++) {
      const predicatesAddress = C._ts_query_predicates_for_pattern(address, i2, TRANSFER_BUFFER);
      const stepCount = C.getValue(TRANSFER_BUFFER, "i32");
      predicates[i2] = [];
      textPredicates[i2] = [];
      const steps = new Array();
      let stepAddress = predicatesAddress;
      for (let j = 0; j < stepCount; j++) {
        const stepType = C.getValue(stepAddress, "i32");
        stepAddress += SIZE_OF_INT;
        const stepValueId = C.getValue(stepAddress, "i32");
        stepAddress += SIZE_OF_INT;
        parsePattern(
          i2,
          stepType,
          stepValueId,
          captureNames,
          stringValues,
          steps,
          textPredicates,
          predicates,
          setProperties,
          assertedProperties,
          refutedProperties
        );
      }
      Object.freeze(textPredicates[i2]);
      Object.freeze(predicates[i2]);
      Object.freeze(setProperties[i2]);
      Object.freeze(assertedProperties[i2]);
      Object.freeze(refutedProperties[i2]);
    }
    C._free(sourceAddress);
    this[0] = address;
    this.captureNames = captureNames;
    this.captureQuantifiers = captureQuantifiers;
    this.textPredicates = textPredicates;
    this.source = source;
    this.predicates = predicates;
    this.setProperties = setProperties;
    this.assertedProperties = assertedProperties;
    this.refutedProperties = refutedProperties;
    this.exceededMatchLimit = false;
    finalizer5?.register(this, address, this);
  }
  /** Delete the query, freeing its resources. */
  delete() {
    finalizer5?.unregister(this);
    C._ts_query_delete(this[0]);
    this[0] = 0;
  }
  /**
   * Iterate over all of the matches in the order that they were found.
   *
   * Each match contains the index of the pattern that matched, and a list of
   * captures. Because multiple patterns can match the same set of nodes,
   * one match may contain captures that appear *before* some of the
   * captures from a previous match.
   *
   * @param {Node} node - The node to execute the query on.
   *
   * @param {QueryOptions} options - Options for query execution.
   */
  matches(node, options = {}) {
    const startPosition = options.startPosition ?? ZERO_POINT;
    const endPosition = options.endPosition ?? ZERO_POINT;
    const startIndex = options.startIndex ?? 0;
    const endIndex = options.endIndex ?? 0;
    const startContainingPosition = options.startContainingPosition ?? ZERO_POINT;
    const endContainingPosition = options.endContainingPosition ?? ZERO_POINT;
    const startContainingIndex = options.startContainingIndex ?? 0;
    const endContainingIndex = options.endContainingIndex ?? 0;
    const matchLimit = options.matchLimit ?? 4294967295;
    const maxStartDepth = options.maxStartDepth ?? 4294967295;
    const progressCallback = options.progressCallback;
    if (typeof matchLimit !== "number") {
      throw new Error("Arguments must be numbers");
    }
    this.matchLimit = matchLimit;
    if (endIndex !== 0 && startIndex > endIndex) {
      throw new Error("`startIndex` cannot be greater than `endIndex`");
    }
    if (endPosition !== ZERO_POINT && (startPosition.row > endPosition.row || startPosition.row === endPosition.row && startPosition.column > endPosition.column)) {
      throw new Error("`startPosition` cannot be greater than `endPosition`");
    }
    if (endContainingIndex !== 0 && startContainingIndex > endContainingIndex) {
      throw new Error("`startContainingIndex` cannot be greater than `endContainingIndex`");
    }
    if (endContainingPosition !== ZERO_POINT && (startContainingPosition.row > endContainingPosition.row || startContainingPosition.row === endContainingPosition.row && startContainingPosition.column > endContainingPosition.column)) {
      throw new Error("`startContainingPosition` cannot be greater than `endContainingPosition`");
    }
    if (progressCallback) {
      C.currentQueryProgressCallback = progressCallback;
    }
    marshalNode(node);
    C._ts_query_matches_wasm(
      this[0],
      node.tree[0],
      startPosition.row,
      startPosition.column,
      endPosition.row,
      endPosition.column,
      startIndex,
      endIndex,
      startContainingPosition.row,
      startContainingPosition.column,
      endContainingPosition.row,
      endContainingPosition.column,
      startContainingIndex,
      endContainingIndex,
      matchLimit,
      maxStartDepth
    );
    const rawCount = C.getValue(TRANSFER_BUFFER, "i32");
    const startAddress = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
    const didExceedMatchLimit = C.getValue(TRANSFER_BUFFER + 2 * SIZE_OF_INT, "i32");
    const result = new Array(rawCount);
    this.exceededMatchLimit = Boolean(didExceedMatchLimit);
    let filteredCount = 0;
    let address = startAddress;
    for (let i2 = 0; i2 < rawCount; i2++) {
      const patternIndex = C.getValue(address, "i32");
      address += SIZE_OF_INT;
      const captureCount = C.getValue(address, "i32");
      address += SIZE_OF_INT;
      const captures = new Array(captureCount);
      address = unmarshalCaptures(this, node.tree, address, patternIndex, captures);
      if (this.textPredicates[patternIndex].every((p) => p(captures))) {
        result[filteredCount] = { patternIndex, captures };
        const setProperties = this.setProperties[patternIndex];
        result[filteredCount].setProperties = setProperties;
        const assertedProperties = this.assertedProperties[patternIndex];
        result[filteredCount].assertedProperties = assertedProperties;
        const refutedProperties = this.refutedProperties[patternIndex];
        result[filteredCount].refutedProperties = refutedProperties;
        filteredCount++;
      }
    }
    result.length = filteredCount;
    C._free(startAddress);
    C.currentQueryProgressCallback = null;
    return result;
  }
  /**
   * Iterate over all of the individual captures in the order that they
   * appear.
   *
   * This is useful if you don't care about which pattern matched, and just
   * want a single, ordered sequence of captures.
   *
   * @param {Node} node - The node to execute the query on.
   *
   * @param {QueryOptions} options - Options for query execution.
   */
  captures(node, options = {}) {
    const startPosition = options.startPosition ?? ZERO_POINT;
    const endPosition = options.endPosition ?? ZERO_POINT;
    const startIndex = options.startIndex ?? 0;
    const endIndex = options.endIndex ?? 0;
    const startContainingPosition = options.startContainingPosition ?? ZERO_POINT;
    const endContainingPosition = options.endContainingPosition ?? ZERO_POINT;
    const startContainingIndex = options.startContainingIndex ?? 0;
    const endContainingIndex = options.endContainingIndex ?? 0;
    const matchLimit = options.matchLimit ?? 4294967295;
    const maxStartDepth = options.maxStartDepth ?? 4294967295;
    const progressCallback = options.progressCallback;
    if (typeof matchLimit !== "number") {
      throw new Error("Arguments must be numbers");
    }
    this.matchLimit = matchLimit;
    if (endIndex !== 0 && startIndex > endIndex) {
      throw new Error("`startIndex` cannot be greater than `endIndex`");
    }
    if (endPosition !== ZERO_POINT && (startPosition.row > endPosition.row || startPosition.row === endPosition.row && startPosition.column > endPosition.column)) {
      throw new Error("`startPosition` cannot be greater than `endPosition`");
    }
    if (endContainingIndex !== 0 && startContainingIndex > endContainingIndex) {
      throw new Error("`startContainingIndex` cannot be greater than `endContainingIndex`");
    }
    if (endContainingPosition !== ZERO_POINT && (startContainingPosition.row > endContainingPosition.row || startContainingPosition.row === endContainingPosition.row && startContainingPosition.column > endContainingPosition.column)) {
      throw new Error("`startContainingPosition` cannot be greater than `endContainingPosition`");
    }
    if (progressCallback) {
      C.currentQueryProgressCallback = progressCallback;
    }
    marshalNode(node);
    C._ts_query_captures_wasm(
      this[0],
      node.tree[0],
      startPosition.row,
      startPosition.column,
      endPosition.row,
      endPosition.column,
      startIndex,
      endIndex,
      startContainingPosition.row,
      startContainingPosition.column,
      endContainingPosition.row,
      endContainingPosition.column,
      startContainingIndex,
      endContainingIndex,
      matchLimit,
      maxStartDepth
    );
    const count2 = C.getValue(TRANSFER_BUFFER, "i32");
    const startAddress = C.getValue(TRANSFER_BUFFER + SIZE_OF_INT, "i32");
    const didExceedMatchLimit = C.getValue(TRANSFER_BUFFER + 2 * SIZE_OF_INT, "i32");
    const result = new Array();
    this.exceededMatchLimit = Boolean(didExceedMatchLimit);
    const captures = new Array();
    let address = startAddress;
    for (let i2 = 0; i2 < count2; i2++) {
      const patternIndex = C.getValue(address, "i32");
      address += SIZE_OF_INT;
      const captureCount = C.getValue(address, "i32");
      address += SIZE_OF_INT;
      const captureIndex = C.getValue(address, "i32");
      address += SIZE_OF_INT;
      captures.length = captureCount;
      address = unmarshalCaptures(this, node.tree, address, patternIndex, captures);
      if (this.textPredicates[patternIndex].every((p) => p(captures))) {
        const capture = captures[captureIndex];
        const setProperties = this.setProperties[patternIndex];
        capture.setProperties = setProperties;
        const assertedProperties = this.assertedProperties[patternIndex];
        capture.assertedProperties = assertedProperties;
        const refutedProperties = this.refutedProperties[patternIndex];
        capture.refutedProperties = refutedProperties;
        result.push(capture);
      }
    }
    C._free(startAddress);
    C.currentQueryProgressCallback = null;
    return result;
  }
  /** Get the predicates for a given pattern. */
  predicatesForPattern(patternIndex) {
    return this.predicates[patternIndex];
  }
  /**
   * Disable a certain capture within a query.
   *
   * This prevents the capture from being returned in matches, and also
   * avoids any resource usage associated with recording the capture.
   */
  disableCapture(captureName) {
    const captureNameLength = C.lengthBytesUTF8(captureName);
    const captureNameAddress = C._malloc(captureNameLength + 1);
    C.stringToUTF8(captureName, captureNameAddress, captureNameLength + 1);
    C._ts_query_disable_capture(this[0], captureNameAddress, captureNameLength);
    C._free(captureNameAddress);
  }
  /**
   * Disable a certain pattern within a query.
   *
   * This prevents the pattern from matching, and also avoids any resource
   * usage associated with the pattern. This throws an error if the pattern
   * index is out of bounds.
   */
  disablePattern(patternIndex) {
    if (patternIndex >= this.predicates.length) {
      throw new Error(
        `Pattern index is ${patternIndex} but the pattern count is ${this.predicates.length}`
      );
    }
    C._ts_query_disable_pattern(this[0], patternIndex);
  }
  /**
   * Check if, on its last execution, this cursor exceeded its maximum number
   * of in-progress matches.
   */
  didExceedMatchLimit() {
    return this.exceededMatchLimit;
  }
  /** Get the index where the given pattern starts in the query's source. */
  startIndexForPattern(patternIndex) {
    if (patternIndex >= this.predicates.length) {
      throw new Error(
        `Pattern index is ${patternIndex} but the pattern count is ${this.predicates.length}`
      );
    }
    const byteOffset = C._ts_query_start_byte_for_pattern(this[0], patternIndex);
    return indexForByteOffset(this.source, byteOffset);
  }
  /** Get the index where the given pattern ends in the query's source. */
  endIndexForPattern(patternIndex) {
    if (patternIndex >= this.predicates.length) {
      throw new Error(
        `Pattern index is ${patternIndex} but the pattern count is ${this.predicates.length}`
      );
    }
    const byteOffset = C._ts_query_end_byte_for_pattern(this[0], patternIndex);
    return indexForByteOffset(this.source, byteOffset);
  }
  /** Get the number of patterns in the query. */
  patternCount() {
    return C._ts_query_pattern_count(this[0]);
  }
  /** Get the index for a given capture name. */
  captureIndexForName(captureName) {
    return this.captureNames.indexOf(captureName);
  }
  /** Check if a given pattern within a query has a single root node. */
  isPatternRooted(patternIndex) {
    return C._ts_query_is_pattern_rooted(this[0], patternIndex) === 1;
  }
  /** Check if a given pattern within a query has a single root node. */
  isPatternNonLocal(patternIndex) {
    return C._ts_query_is_pattern_non_local(this[0], patternIndex) === 1;
  }
  /**
   * Check if the step at the given index in the query's source is 'definite'.
   *
   * A query step is 'definite' if its parent pattern will be guaranteed to
   * match successfully once it reaches the step.
   */
  isPatternGuaranteedAtStep(index) {
    const byteOffset = C.lengthBytesUTF8(this.source.slice(0, index));
    return C._ts_query_is_pattern_guaranteed_at_step(this[0], byteOffset) === 1;
  }
};

// src/lang.ts
var EXTENSIONS = {
  py: "python",
  pyi: "python",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
  go: "go",
  java: "java",
  kt: "kotlin",
  kts: "kotlin",
  groovy: "groovy",
  scala: "scala",
  rb: "ruby",
  rs: "rust",
  cs: "csharp",
  php: "php",
  swift: "swift"
};
function languageOf(path) {
  const name2 = path.slice(path.lastIndexOf("/") + 1);
  const dot = name2.lastIndexOf(".");
  if (dot <= 0) return void 0;
  const ext = name2.slice(dot + 1).toLowerCase();
  return Object.hasOwn(EXTENSIONS, ext) ? EXTENSIONS[ext] : void 0;
}
var PARSED = /* @__PURE__ */ new Set([
  "python",
  "javascript",
  "typescript",
  "tsx"
]);
function parsedLanguageOf(path) {
  const language = languageOf(path);
  return language !== void 0 && PARSED.has(language) ? language : void 0;
}
var FAMILY = {
  python: "python",
  javascript: "js",
  typescript: "js",
  tsx: "js",
  go: "go",
  java: "java",
  kotlin: "java"
};
function familyOf(path) {
  const language = languageOf(path);
  return language === void 0 ? void 0 : FAMILY[language];
}
function extensionPattern(keep2) {
  const exts = Object.entries(EXTENSIONS).filter(([, language]) => keep2(language)).map(([ext]) => ext);
  return new RegExp(`\\.(?:${exts.join("|")})$`, "i");
}
var SOURCE_PATH = extensionPattern(() => true);
var SCRIPT_PATH = extensionPattern((language) => FAMILY[language] === "js");
var JVM_EXTENSIONS = Object.entries(EXTENSIONS).filter(([, language]) => ["java", "kotlin", "groovy", "scala"].includes(language)).map(([ext]) => `.${ext}`);

// src/lints/parsers.ts
var GRAMMARS = {
  python: { pkg: "tree-sitter-python", file: "tree-sitter-python.wasm" },
  javascript: { pkg: "tree-sitter-javascript", file: "tree-sitter-javascript.wasm" },
  typescript: { pkg: "tree-sitter-typescript", file: "tree-sitter-typescript.wasm" },
  tsx: { pkg: "tree-sitter-typescript", file: "tree-sitter-tsx.wasm" }
};
var languageOf2 = parsedLanguageOf;
var runtime;
var parsers = /* @__PURE__ */ new Map();
function parserFor(language) {
  let parser = parsers.get(language);
  if (parser === void 0) {
    parser = loadParser(language);
    parser.catch(() => parsers.delete(language));
    parsers.set(language, parser);
  }
  return parser;
}
async function loadParser(language) {
  runtime ??= initRuntime2().catch((error) => {
    runtime = void 0;
    throw error;
  });
  await runtime;
  const { pkg, file } = GRAMMARS[language];
  const path = locate([`grammars/${file}`, `../grammars/${file}`], join(pkg, file));
  let grammar;
  try {
    grammar = await Language.load(new Uint8Array(await readFile(path)));
  } catch (error) {
    throw new GateError(`cannot load the ${language} grammar from ${path}: ${String(error)}`, {
      cause: error
    });
  }
  return new Parser().setLanguage(grammar);
}
async function initRuntime2() {
  const path = locate(
    ["web-tree-sitter.wasm", "../web-tree-sitter.wasm"],
    join("web-tree-sitter", "web-tree-sitter.wasm")
  );
  try {
    const wasmBinary2 = await readFile(path);
    await Parser.init({ wasmBinary: wasmBinary2, locateFile: () => path });
  } catch (error) {
    throw new GateError(`cannot start the tree-sitter runtime from ${path}: ${String(error)}`, {
      cause: error
    });
  }
}
function locate(besideModule, inPackage) {
  const here = dirname(fileURLToPath(import.meta.url));
  const tried = [];
  for (const name2 of besideModule) {
    const candidate = join(here, name2);
    if (existsSync(candidate)) return candidate;
    tried.push(candidate);
  }
  for (let dir = here; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", inPackage);
    if (existsSync(candidate)) return candidate;
    tried.push(candidate);
    if (dirname(dir) === dir) break;
  }
  throw new GateError(`tree-sitter file not found; looked in ${tried.join(", ")}`);
}

// src/writeset/planes.ts
var import_picomatch = __toESM(require_picomatch2(), 1);
function alwaysProtected(policy) {
  return [policy.path, policy.ledger, policy.fixtures, policy.seeds?.corpus].filter((p) => !!p).map(normalisePath);
}
function compilePlanes(policy) {
  const compile = (globs) => compileGlobs(globs, policy.case_insensitive);
  const fixed = new Set(
    alwaysProtected(policy).map((p) => policy.case_insensitive ? p.toLowerCase() : p)
  );
  const protectedGlob = compile(policy.protected);
  const voting = compile(policy.planes.voting);
  const drafts = compile(policy.planes.drafts);
  const inDiff = compile(policy.planes.in_diff);
  const testLike = compile(policy.test_patterns);
  const production = compile(policy.planes.production ?? []);
  const protectedNormal = (p) => fixed.has(policy.case_insensitive ? p.toLowerCase() : p) || protectedGlob(p);
  const planeOfForm = (p) => {
    if (protectedNormal(p)) return voting(p) ? "voting" : "protected";
    if (voting(p)) return "voting";
    if (drafts(p)) return "drafts";
    if (inDiff(p)) return "in_diff";
    return testLike(p) ? "other" : "source";
  };
  return {
    isProtected: (path) => pathForms(normalisePath(path)).some(protectedNormal),
    isTestLike: (path) => pathForms(normalisePath(path)).some(testLike),
    // Every form must be production: a name that reads as something else is not the head's.
    isProduction: (path) => pathForms(normalisePath(path)).every(production),
    hasProduction: policy.planes.production !== void 0,
    planeOf: (path) => {
      const [raw, ...others] = pathForms(normalisePath(path));
      const plane = planeOfForm(raw);
      if (isInstrumentPlane(plane)) return plane;
      for (const form of others) {
        const p = planeOfForm(form);
        if (isInstrumentPlane(p)) return p;
      }
      return plane;
    }
  };
}
var HIDDEN_CHARACTER = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
var HIDDEN_CHARACTERS = new RegExp(HIDDEN_CHARACTER.source, "gu");
var PLAIN_ASCII = /^[\x20-\x7e]*$/;
var NEEDS_WORK = /\/\/|(?:^|\/)\.\.?(?:\/|$)|^\/|\/$/;
function suspiciousName(path) {
  if (PLAIN_ASCII.test(path)) return false;
  if (HIDDEN_CHARACTER.test(path)) return true;
  return path.normalize("NFKC") !== path.normalize("NFC");
}
function pathForms(path) {
  if (PLAIN_ASCII.test(path)) return [path];
  const forms = [path, path.normalize("NFC"), path.normalize("NFKC")];
  const visible = path.replace(HIDDEN_CHARACTERS, "");
  forms.push(visible, visible.normalize("NFKC"));
  return [...new Set(forms)];
}
function normalisePath(path) {
  if (!NEEDS_WORK.test(path)) return path;
  let p = path.replace(/\/{2,}/g, "/");
  while (p.startsWith("./")) p = p.slice(2);
  const parts2 = [];
  for (const part of p.split("/")) {
    if (part === "." || part === "") continue;
    if (part === "..") {
      if (parts2.length === 0 || parts2[parts2.length - 1] === "..") parts2.push("..");
      else parts2.pop();
      continue;
    }
    parts2.push(part);
  }
  return parts2.join("/");
}
function compileGlobs(globs, nocase) {
  if (globs.length === 0) return () => false;
  const sources = globs.map((g) => import_picomatch.default.makeRe(normalisePath(g), { dot: true, nocase }).source);
  const union = new RegExp(sources.map((source) => `(?:${source})`).join("|"), nocase ? "is" : "s");
  return (path) => union.test(path);
}
function isConftest(path) {
  return path.slice(path.lastIndexOf("/") + 1).toLowerCase() === "conftest.py";
}

// src/writeset/append.ts
var APPEND_ALLOWED = "with voting_edits: append a patch may add new test files under the voting globs and add new tests (Python functions and classes pytest collects by the python_functions and python_classes at the merge base, methods of unittest.TestCase subclasses, JS/TS it/test/describe blocks, also inside if blocks and loops) and import statements to a voting file; anything else in a voting file stays as the merge base has it";
async function appendVerdicts(git, planes, changes, trees, fixed = /* @__PURE__ */ new Set()) {
  const verdicts = /* @__PURE__ */ new Map();
  const candidates = changes.filter(
    (c) => (c.status === "added" || c.status === "modified") && c.previous_path === void 0 && (c.new_kind ?? "file") === "file" && planes.planeOf(c.path) === "voting" && !fixed.has(c.path)
  );
  const modified = [];
  for (const c of candidates) {
    const head = trees.head.get(c.path);
    const base = trees.base.get(c.path);
    if (head === void 0) continue;
    if (c.status === "added" || base === void 0) verdicts.set(c.path, addedFile(planes, c.path));
    else if (isTestFile(planes, c.path)) modified.push({ path: c.path, base, head });
  }
  if (modified.length === 0) return verdicts;
  const configs = PYTEST_CONFIG_FILES.flatMap((f) => {
    const entry = trees.base.get(f);
    return entry === void 0 || entry.type !== "blob" ? [] : [[f, entry.sha]];
  });
  const blobs = await readBlobs(git, [
    ...modified.flatMap((m) => [m.base.sha, m.head.sha]),
    ...configs.map(([, sha2]) => sha2)
  ]);
  const style = baseStyle(new Map(configs), (sha2) => blobs.get(sha2)?.toString("utf8") ?? null);
  for (const m of modified) {
    const before = blobs.get(m.base.sha)?.toString("utf8");
    const after = blobs.get(m.head.sha)?.toString("utf8");
    verdicts.set(m.path, await modifiedFile(m.path, before, after, style));
  }
  return verdicts;
}
function baseStyle(configs, text2) {
  const config = readPytestConfig((path) => {
    const sha2 = configs.get(path);
    return sha2 === void 0 ? null : text2(sha2);
  });
  return { pythonClasses: config.pythonClasses, pythonFunctions: config.pythonFunctions };
}
function isTestFile(planes, path) {
  return planes.isTestLike(path) && !isConftest(path);
}
function addedFile(planes, path) {
  if (isTestFile(planes, path)) return { ok: true, added: [], newFile: true };
  return {
    ok: false,
    message: `${path} is a new file under the voting globs but not a test file (test_patterns); ${APPEND_ALLOWED}. Put support files the new tests need on the in_diff plane`
  };
}
async function modifiedFile(path, before, after, style) {
  const language = languageOf2(path);
  if (language === void 0 || before === void 0 || after === void 0) {
    return {
      ok: false,
      message: `${path} is a voting test; the patch modifies it, and test-level locking (voting_edits: append) covers Python, JavaScript and TypeScript only, so this file is locked as a whole`
    };
  }
  const parser = await parserFor(language);
  const baseTree = parser.parse(before);
  const headTree = parser.parse(after);
  try {
    if (baseTree === null || headTree === null) {
      return { ok: false, message: `${path}: the voting file could not be parsed` };
    }
    const result = checkAppendOnly(
      language,
      { text: before, tree: baseTree },
      { text: after, tree: headTree },
      style
    );
    if (result.ok) return { ok: true, added: result.added, newFile: false };
    const where = result.baseLine === void 0 ? "" : ` (line ${result.baseLine} at the merge base)`;
    return {
      ok: false,
      line: result.line,
      message: `${path} is a voting test: ${result.what}${where}; ${APPEND_ALLOWED}. The change, at line ${result.line}:
${result.hunk}`
    };
  } finally {
    baseTree?.delete();
    headTree?.delete();
  }
}

// src/writeset/symlinks.ts
var MAX_HOPS = 40;
function resolveSymlink(linkPath, target, links = /* @__PURE__ */ new Map()) {
  if (target.startsWith("/") || /^[A-Za-z]:[\\/]/.test(target)) return null;
  const dir = linkPath.split("/").slice(0, -1);
  let pending = [...dir, ...target.replace(/\\/g, "/").split("/")];
  const resolved = [];
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.shift();
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (resolved.length === 0) return null;
      resolved.pop();
      continue;
    }
    resolved.push(part);
    const next = links.get(resolved.join("/"));
    if (next !== void 0) {
      if (++hops > MAX_HOPS || next.startsWith("/")) return null;
      resolved.pop();
      pending = [...next.split("/"), ...pending];
    }
  }
  return resolved.join("/");
}

// src/writeset/classify.ts
var reject = () => "reject";
var CLASSIFICATION_TABLE = [
  {
    row: "escapes-repository",
    when: (f) => f.escaping !== void 0,
    plane: () => "other",
    action: reject,
    rule: "protected-path",
    message: (f) => `path ${f.escaping ?? ""} leaves the repository`
  },
  {
    row: "voting-append",
    when: (f) => f.append?.ok === true && f.instrumentName === f.path && f.instrumentPlane === "voting" && f.viaLink === void 0 && f.suspicious === void 0,
    plane: () => "voting",
    action: () => "continue",
    message: appendMessage
  },
  {
    row: "instrument",
    when: (f) => f.instrumentName !== void 0,
    plane: (f) => f.instrumentPlane ?? "protected",
    action: reject,
    rule: "protected-path",
    message: instrumentMessage
  },
  {
    row: "symlink-into-instrument",
    when: (f) => f.linkHitsInstrument,
    plane: () => "protected",
    action: reject,
    rule: "protected-path",
    message: (f) => `symlink ${f.path} resolves to ${f.linkTarget === "" ? "the repository root" : f.linkTarget ?? ""}, which holds the instrument`
  },
  {
    row: "symlink-leaves-repository",
    when: (f) => f.linkTarget === null,
    action: reject,
    rule: "protected-path",
    message: (f) => `symlink ${f.path} points outside the repository (or loops); the gate cannot tell what it reads`
  },
  {
    row: "deleted",
    when: (f) => f.status === "deleted",
    action: () => "ignore",
    message: (f) => `${f.path} deleted outside the instrument`
  },
  {
    row: "suspicious-name",
    when: (f) => f.suspicious !== void 0,
    plane: () => "other",
    action: reject,
    rule: "protected-path",
    message: (f) => `the name ${printable(f.suspicious ?? "")} holds control, invisible, line-separator or compatibility characters, so it does not read as what it is; rename it to plain text`
  },
  {
    row: "drafts-or-in-diff",
    when: (f) => f.plane === "drafts" || f.plane === "in_diff",
    action: () => "continue",
    message: (f) => `${f.path} is on the ${f.plane} plane`
  },
  {
    row: "ungoverned-test",
    when: (f) => f.plane === "other",
    action: (_f, mode) => mode === "error" ? "reject" : mode === "warn" ? "continue" : "ignore",
    rule: "ungoverned-test",
    message: (f) => `${f.path} looks like a test but is on no plane (voting, drafts, in_diff): put it under an in_diff glob or remove it`
  },
  {
    row: "source",
    when: () => true,
    action: () => "continue",
    message: (f) => `${f.path} is ${f.plane}`
  }
];
function printable(name2) {
  return `"${name2.replace(/[^\x20-\x7e]/gu, (c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`)}"`;
}
function appendMessage(f) {
  const added = f.append?.ok ? f.append.added : [];
  const what = f.append?.ok && f.append.newFile ? "is a new test file" : `gains ${added.length} test(s)`;
  const names = added.map((a) => a.name).join(", ");
  return `${f.path} ${what} under the voting globs (voting_edits: append)${names ? `: ${names}` : ""}; the vote runs the merge base's version, the added tests run as diagnostics`;
}
function instrumentMessage(f) {
  if (f.append?.ok === false && f.instrumentName === f.path) return f.append.message;
  const name2 = f.instrumentName ?? f.path;
  const what = f.viaLink !== void 0 ? `part of the instrument (the protected symlink ${f.viaLink} points at it)` : f.instrumentPlane === "voting" ? "a voting test (part of the instrument)" : "protected";
  if (f.status === "renamed" || f.status === "copied") {
    const into = name2 === f.path;
    return into ? `${f.previous ?? ""} ${f.status} into ${f.path}, which is ${what}` : `${name2}, which is ${what}, ${f.status} out to ${f.path}`;
  }
  return `${name2} is ${what}; the patch ${verb(f.status)} it`;
}
function verb(status) {
  switch (status) {
    case "added":
      return "adds";
    case "deleted":
      return "deletes";
    case "type-changed":
      return "changes the type of";
    case "mode-changed":
      return "changes the mode of";
    default:
      return "modifies";
  }
}
function pathFacts(change, ctx) {
  const path = normalisePath(change.path);
  const previous = change.previous_path === void 0 ? void 0 : normalisePath(change.previous_path);
  const plane = ctx.planes.planeOf(path);
  const facts = { path, status: change.status, linkHitsInstrument: false, plane };
  const append = ctx.append?.get(path);
  if (append !== void 0) facts.append = append;
  const named = [[path, plane]];
  if (previous !== void 0) facts.previous = previous;
  if (previous !== void 0 && change.status !== "copied") {
    named.unshift([previous, ctx.planes.planeOf(previous)]);
  }
  const odd = named.find(([n]) => suspiciousName(n));
  if (odd !== void 0) facts.suspicious = odd[0];
  const escaping = named.find(([n]) => n === ".." || n.startsWith("../") || n === "");
  if (escaping !== void 0) facts.escaping = escaping[0] === "" ? "(empty path)" : escaping[0];
  const instrument = named.find(([, p]) => isInstrumentPlane(p));
  if (instrument !== void 0) {
    facts.instrumentName = instrument[0];
    facts.instrumentPlane = instrument[1];
  } else if (ctx.linkedInstrument !== void 0) {
    for (const [name2] of named) {
      const link = ctx.linkedInstrument(name2);
      if (link === void 0) continue;
      facts.instrumentName = name2;
      facts.instrumentPlane = "protected";
      facts.viaLink = link;
      break;
    }
  }
  if (change.new_kind === "symlink" && change.status !== "deleted" && change.symlink_target !== void 0) {
    const target = resolveSymlink(path, change.symlink_target, ctx.links);
    facts.linkTarget = target === null ? null : normalisePath(target);
    if (facts.linkTarget !== null) {
      const t = facts.linkTarget;
      const plane2 = t === "" ? "other" : ctx.planes.planeOf(t);
      facts.linkHitsInstrument = isInstrumentPlane(plane2) || (ctx.containsInstrument?.(t) ?? false);
    }
  }
  return facts;
}
function classifyChange(change, ctx) {
  const facts = pathFacts(change, ctx);
  for (const row of CLASSIFICATION_TABLE) {
    if (!row.when(facts)) continue;
    const result = {
      plane: row.plane ? row.plane(facts) : facts.plane,
      action: row.action(facts, ctx.ungovernedTest),
      row: row.row,
      message: row.message(facts)
    };
    if (row.rule !== void 0) result.rule = row.rule;
    return result;
  }
  throw new Error("unreachable: the last classification row matches everything");
}

// src/writeset/diff.ts
function kindOfMode(mode) {
  switch (mode) {
    case "100644":
    case "100664":
      return "file";
    case "100755":
      return "executable";
    case "120000":
      return "symlink";
    case "160000":
      return "submodule";
    default:
      return void 0;
  }
}
function sameType(a, b) {
  const type = (k) => k === "executable" ? "file" : k;
  return type(a) === type(b);
}
function statusOf(letter, oldMode, newMode) {
  switch (letter) {
    case "A":
      return "added";
    case "D":
      return "deleted";
    case "R":
      return "renamed";
    case "C":
      return "copied";
    case "T":
      return "type-changed";
    case "M":
      return oldMode !== newMode ? "mode-changed" : "modified";
    default:
      throw new GateError(`git diff reported status "${letter}", which the gate cannot judge`);
  }
}
function parseRawDiff(out2) {
  const fields = out2.split("\0");
  const changes = [];
  let i2 = 0;
  while (i2 < fields.length) {
    const meta = fields[i2++] ?? "";
    if (meta === "") continue;
    if (!meta.startsWith(":"))
      throw new GateError(`unexpected git diff --raw record "${meta.slice(0, 80)}"`);
    const [oldMode = "", newMode = "", , newOid = "", score2 = ""] = meta.slice(1).split(" ");
    const letter = score2.charAt(0);
    const first = fields[i2++];
    if (first === void 0) throw new GateError("git diff --raw output ended inside a record");
    const change = { path: first, status: statusOf(letter, oldMode, newMode) };
    if (letter === "R" || letter === "C") {
      const second = fields[i2++];
      if (second === void 0)
        throw new GateError("git diff --raw output ended inside a rename record");
      change.previous_path = first;
      change.path = second;
    }
    const oldKind = kindOfMode(oldMode);
    const newKind = kindOfMode(newMode);
    if (oldKind) change.old_kind = oldKind;
    if (newKind) {
      change.new_kind = newKind;
      change.new_oid = newOid;
    }
    changes.push(change);
  }
  return changes;
}

// src/writeset/index.ts
async function buildWriteSet(git, mergeBase, head, policy, api, facts) {
  const { planes, trees } = facts;
  const changes = api === null ? await gitChanges(git, mergeBase, head) : await fillFromTrees(api, await trees.get(mergeBase), await trees.get(head));
  await readLinkTargets(git, changes);
  const ctx = await classifierContext(git, planes, policy, changes, trees, mergeBase, head);
  return changes.map(({ new_oid: _oid, ...change }) => toRow(change, ctx)).sort((a, b) => byCodeUnit(a.path, b.path));
}
function toRow(change, ctx) {
  const classification = classifyChange(change, ctx);
  const { plane, action } = classification;
  const row = {
    ...change,
    path: normalisePath(change.path),
    plane,
    action,
    classification
  };
  if (change.previous_path !== void 0) row.previous_path = normalisePath(change.previous_path);
  return row;
}
function publicRow({ classification: _c, ...row }) {
  return row;
}
async function gitChanges(git, mergeBase, head) {
  return parseRawDiff(await git.diffRaw(mergeBase, head));
}
function fillFromTrees(api, base, head) {
  return api.map((change) => {
    const oldPath = change.previous_path ?? change.path;
    const before = change.status === "added" ? void 0 : base.get(oldPath);
    const after = change.status === "deleted" ? void 0 : head.get(change.path);
    const filled = { path: change.path, status: change.status };
    if (change.previous_path !== void 0) filled.previous_path = change.previous_path;
    const oldKind = before ? kindOfMode(before.mode) : void 0;
    const newKind = after ? kindOfMode(after.mode) : void 0;
    if (oldKind) filled.old_kind = oldKind;
    if (newKind && after) {
      filled.new_kind = newKind;
      filled.new_oid = after.sha;
    }
    if (filled.status === "renamed" || filled.status === "copied") return filled;
    if (before && !after) filled.status = "deleted";
    else if (!before && after) filled.status = "added";
    else if (before && after) {
      if (!sameType(oldKind, newKind)) filled.status = "type-changed";
      else if (before.mode !== after.mode) filled.status = "mode-changed";
      else filled.status = "modified";
    }
    return filled;
  });
}
async function readLinkTargets(git, changes) {
  const links = changes.filter((c) => c.new_kind === "symlink" && c.new_oid !== void 0);
  if (links.length === 0) return;
  const blobs = await readBlobs(
    git,
    links.map((c) => c.new_oid)
  );
  for (const c of links) {
    const bytes = blobs.get(c.new_oid);
    if (bytes) c.symlink_target = bytes.toString("utf8");
  }
}
async function classifierContext(git, planes, policy, changes, trees, mergeBase, head) {
  const ctx = { planes, ungovernedTest: policy.lints["ungoverned-test"] };
  const baseTree = await trees.get(mergeBase);
  if (policy.voting_edits === "append") {
    const headTree2 = await trees.get(head);
    const fixed = new Set(alwaysProtected(policy));
    ctx.append = await appendVerdicts(
      git,
      planes,
      changes,
      { base: baseTree, head: headTree2 },
      fixed
    );
  }
  const linked = await linkedInstrument(git, planes, baseTree);
  if (linked !== void 0) ctx.linkedInstrument = linked;
  if (!changes.some((c) => c.new_kind === "symlink")) return ctx;
  const headTree = await trees.get(head);
  ctx.links = await symlinkMap(git, headTree);
  ctx.containsInstrument = instrumentDirs(planes, [baseTree, headTree]);
  return ctx;
}
async function symlinkMap(git, tree) {
  const links = [...tree.values()].filter((e) => e.mode === "120000");
  const blobs = await readBlobs(
    git,
    links.map((e) => e.sha)
  );
  const map = /* @__PURE__ */ new Map();
  for (const e of links) map.set(e.path, blobs.get(e.sha)?.toString("utf8") ?? "");
  return map;
}
async function linkedInstrument(git, planes, baseTree) {
  const isInstrument = (p) => isInstrumentPlane(planes.planeOf(p));
  const links = [...baseTree.values()].filter((e) => e.mode === "120000" && isInstrument(e.path));
  if (links.length === 0) return void 0;
  const blobs = await readBlobs(
    git,
    links.map((e) => e.sha)
  );
  const targets = [];
  for (const e of links) {
    const target = resolveSymlink(e.path, blobs.get(e.sha)?.toString("utf8") ?? "");
    if (target !== null && !isInstrument(target))
      targets.push([normalisePath(target), normalisePath(e.path)]);
  }
  if (targets.length === 0) return void 0;
  return (path) => {
    const p = normalisePath(path);
    for (const [target, link] of targets) {
      if (target === "" || p === target || p.startsWith(`${target}/`)) return link;
    }
    return void 0;
  };
}
function instrumentDirs(planes, trees) {
  const dirs = /* @__PURE__ */ new Set();
  for (const tree of trees) {
    for (const path of tree.keys()) {
      if (!isInstrumentPlane(planes.planeOf(path))) continue;
      const parts2 = normalisePath(path).split("/");
      for (let i2 = 0; i2 < parts2.length; i2++) dirs.add(parts2.slice(0, i2).join("/"));
    }
  }
  return (dir) => dirs.has(normalisePath(dir));
}
var TreeCache = class {
  constructor(git) {
    this.git = git;
  }
  git;
  cache = /* @__PURE__ */ new Map();
  get(rev) {
    let hit = this.cache.get(rev);
    if (hit === void 0) {
      hit = this.git.lsTree(rev).then((entries) => new Map(entries.map((e) => [e.path, e])));
      this.cache.set(rev, hit);
    }
    return hit;
  }
};

// src/context.ts
function runFacts(git, policy) {
  return { planes: compilePlanes(policy), trees: new TreeCache(git) };
}

// src/exec/env.ts
var CREDENTIAL_NAMES = /* @__PURE__ */ new Set([
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "INPUT_TOKEN",
  "ACTIONS_RUNTIME_TOKEN",
  "ACTIONS_RUNTIME_URL",
  "ACTIONS_CACHE_URL",
  "ACTIONS_RESULTS_URL",
  "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
  "ACTIONS_ID_TOKEN_REQUEST_URL",
  "ORACLE_GATE_TOKEN"
]);
var CREDENTIAL_PATTERNS = [
  /^ACTIONS_ID_TOKEN_REQUEST_/,
  /^ACTIONS_.*(TOKEN|URL)$/,
  /^INPUT_.*TOKEN/i,
  /^GITHUB_.*TOKEN$/i
];
var FILE_COMMAND_NAMES = /* @__PURE__ */ new Set([
  "GITHUB_ENV",
  "GITHUB_PATH",
  "GITHUB_OUTPUT",
  "GITHUB_STATE",
  "GITHUB_STEP_SUMMARY"
]);
var FILE_COMMAND_DIR = /[\\/]_runner_file_commands([\\/]|$)/;
function isRunnerFileCommand(name2, value) {
  return FILE_COMMAND_NAMES.has(name2) || value !== void 0 && FILE_COMMAND_DIR.test(value);
}
function secretValues(env) {
  const values = /* @__PURE__ */ new Set();
  for (const [name2, value] of Object.entries(env)) {
    if (value && value.length >= 8 && isCredentialName(name2)) values.add(value);
  }
  return [...values];
}
function isCredentialName(name2) {
  return CREDENTIAL_NAMES.has(name2) || CREDENTIAL_PATTERNS.some((p) => p.test(name2));
}
function measuring(name2) {
  return name2.startsWith("ORACLE_GATE_") || name2 === "NODE_V8_COVERAGE";
}
function childEnv(parent, extra = {}, secrets = []) {
  const known = [...secretValues(parent), ...secrets.filter((s) => s.length >= 8)];
  const env = {};
  const inherited = Object.entries(parent).filter(([name2]) => !measuring(name2));
  for (const [name2, value] of [...inherited, ...Object.entries(extra)]) {
    if (value === void 0 || isCredentialName(name2) || isRunnerFileCommand(name2, value)) continue;
    if (known.some((secret) => value.includes(secret))) continue;
    env[name2] = value;
  }
  return env;
}

// src/ledger/dates.ts
var DAY_MS = 864e5;
var SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;
function isCalendarDate(text2) {
  const match = SHAPE.exec(text2);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
function epochDay(text2) {
  if (!isCalendarDate(text2)) throw new RangeError(`not a calendar date: "${text2}"`);
  const [year, month, day] = text2.split("-").map(Number);
  return Date.UTC(year, month - 1, day) / DAY_MS;
}
function daysBetween(from, to) {
  return epochDay(to) - epochDay(from);
}
function addDays(date, days) {
  return new Date((epochDay(date) + days) * DAY_MS).toISOString().slice(0, 10);
}

// src/git/git.ts
import { execFile, spawn } from "node:child_process";

// src/git/batch.ts
var HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) ([a-z]+) (\d+)$/;
var CLOSE_GRACE_MS = 2e3;
function sendableAsLine(request) {
  return !request.includes("\n") && !request.endsWith("\r") && !request.includes("\0");
}
var CatFile = class {
  constructor(mode, start2, where) {
    this.mode = mode;
    this.start = start2;
    this.where = where;
    this.parser = new AnswerParser(mode, () => this.queue[0]?.request, this.answered);
  }
  mode;
  start;
  where;
  child;
  queue = [];
  parser;
  failed;
  closed = false;
  stderr = "";
  exited;
  /** The object a request names (an object id or `rev:path`), or null when there is none. */
  read(request) {
    if (!sendableAsLine(request))
      return Promise.reject(
        new GateError(`${this.command()}: cannot send ${JSON.stringify(request)} as a line`)
      );
    if (this.closed)
      return Promise.reject(
        new GateError(`${this.command()} in ${this.where}: read after the run ended`)
      );
    if (this.failed) return Promise.reject(this.failed);
    const child = this.child ?? this.spawn();
    return new Promise((resolve5, reject2) => {
      this.queue.push({ request, resolve: resolve5, reject: reject2 });
      if (this.queue.length === 1) setRef(child, true);
      child.stdin?.write(`${request}
`);
    });
  }
  /** Ends the child: its input closed, then killed if it has not exited in a grace period. */
  async close() {
    this.closed = true;
    const child = this.child;
    if (child === void 0 || this.exited === void 0) return;
    setRef(child, true);
    child.stdin?.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), CLOSE_GRACE_MS);
    timer.unref();
    await this.exited;
    clearTimeout(timer);
  }
  /** The process id while the child runs (for the owner's logs), else undefined. */
  get pid() {
    return this.child?.exitCode === null ? this.child.pid : void 0;
  }
  spawn() {
    const child = this.start();
    this.child = child;
    this.exited = new Promise((resolve5) => child.once("close", () => resolve5()));
    child.stdout?.on("data", (chunk2) => {
      try {
        this.parser.push(chunk2);
      } catch (error) {
        this.fail(error instanceof GateError ? error : new GateError(String(error)));
        child.kill("SIGKILL");
      }
    });
    child.stderr?.on("data", (chunk2) => {
      this.stderr = (this.stderr + chunk2.toString("utf8")).slice(-4e3);
    });
    child.stdin?.on("error", () => void 0);
    child.on(
      "error",
      (error) => this.fail(new GateError(`${this.command()} could not run in ${this.where}: ${error.message}`))
    );
    child.on("close", (code, signal) => {
      if (this.queue.length === 0 && this.closed) return;
      const detail = this.stderr.trim().split("\n").slice(-3).join(" / ") || `exit ${code ?? signal}`;
      this.fail(new GateError(`${this.command()} ended in ${this.where}: ${detail}`));
    });
    setRef(child, false);
    return child;
  }
  answered = (answer) => {
    const pending = this.queue.shift();
    if (pending === void 0) throw new GateError(`${this.command()}: an answer nobody asked for`);
    if (this.queue.length === 0 && this.child) setRef(this.child, false);
    pending.resolve(answer);
  };
  /** Every pending and later read fails with `error` (fail closed: no read is guessed). */
  fail(error) {
    this.failed ??= error;
    for (const pending of this.queue.splice(0)) pending.reject(this.failed);
  }
  command() {
    return `git cat-file --batch${this.mode === "check" ? "-check" : ""}`;
  }
};
function setRef(child, on) {
  for (const handle2 of [child, child.stdin, child.stdout, child.stderr]) {
    const h = handle2;
    if (on) h?.ref?.();
    else h?.unref?.();
  }
}
var AnswerParser = class {
  constructor(mode, expected, emit) {
    this.mode = mode;
    this.expected = expected;
    this.emit = emit;
  }
  mode;
  expected;
  emit;
  parts = [];
  have = 0;
  /** While reading an object's bytes: its header and how many bytes (with the newline). */
  body;
  push(chunk2) {
    let rest = chunk2;
    while (rest.length > 0)
      rest = this.body ? this.takeBody(rest, this.body) : this.takeHeader(rest);
  }
  takeHeader(chunk2) {
    const eol = chunk2.indexOf(10);
    if (eol < 0) {
      this.keep(chunk2);
      return Buffer.alloc(0);
    }
    this.keep(chunk2.subarray(0, eol));
    const header = this.joined().toString("utf8");
    this.onHeader(header);
    return chunk2.subarray(eol + 1);
  }
  onHeader(header) {
    const request = this.expected();
    if (request === void 0) throw new GateError(`git cat-file: unexpected output "${header}"`);
    if (header === `${request} missing` || header === `${request} ambiguous`) {
      this.emit(null);
      return;
    }
    const match = HEADER.exec(header);
    if (!match) throw new GateError(`git cat-file: unexpected answer "${header}" to "${request}"`);
    const info2 = { oid: match[1] ?? "", type: match[2] ?? "", size: Number(match[3]) };
    if (!Number.isSafeInteger(info2.size)) throw new GateError(`git cat-file: size in "${header}"`);
    if (this.mode === "check") this.emit({ ...info2, bytes: null });
    else this.body = { info: info2, need: info2.size + 1 };
  }
  takeBody(chunk2, body2) {
    const take = Math.min(body2.need - this.have, chunk2.length);
    this.keep(chunk2.subarray(0, take));
    if (this.have === body2.need) {
      const bytes = this.joined();
      if (bytes[body2.info.size] !== 10)
        throw new GateError(`git cat-file: ${body2.info.oid} does not end where its size says`);
      this.body = void 0;
      this.emit({ ...body2.info, bytes: bytes.subarray(0, body2.info.size) });
    }
    return chunk2.subarray(take);
  }
  keep(part) {
    this.parts.push(part);
    this.have += part.length;
  }
  /** The kept parts as one buffer of their own (never a view of a chunk), then forgotten. */
  joined() {
    const out2 = Buffer.concat(this.parts, this.have);
    this.parts = [];
    this.have = 0;
    return out2;
  }
};

// src/git/git.ts
var MAX_BUFFER = 1024 * 1024 * 1024;
var STDERR_KEPT = 64 * 1024;
var HARDENED_CONFIG = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.untrackedCache=false",
  "core.sparseCheckout=false",
  "core.autocrlf=false",
  "core.quotePath=true",
  "core.pager=cat",
  "color.ui=false",
  "safe.directory=*",
  "diff.noprefix=false",
  "diff.mnemonicPrefix=false",
  "diff.relative=false",
  "diff.srcPrefix=a/",
  "diff.dstPrefix=b/",
  "grep.lineNumber=false",
  "grep.column=false",
  "grep.fullName=false",
  "grep.fallbackToNoIndex=false",
  "submodule.recurse=false",
  "gc.auto=0",
  "maintenance.auto=false"
];
var KEPT_GIT_VARIABLE = /^GIT_(SSH|SSH_COMMAND|SSH_VARIANT|SSL_[A-Z_]+|HTTP_[A-Z_]+|PROXY_[A-Z_]+|TRACE[A-Z0-9_]*|CURL_VERBOSE)$/;
function hardenedGitEnv(inherited) {
  const env = {};
  for (const [key4, value] of Object.entries(inherited)) {
    if (!key4.startsWith("GIT_") || KEPT_GIT_VARIABLE.test(key4)) env[key4] = value;
  }
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_PAGER: "cat",
    LC_ALL: "C"
  };
}
function hardenedArgs() {
  return ["--no-pager", ...HARDENED_CONFIG.flatMap((setting) => ["-c", setting])];
}
var OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
var Git = class {
  /**
   * @param cwd the checkout
   * @param inherited the environment the edge was started with; hardened once here
   *   (hardenedGitEnv), never read again
   */
  constructor(cwd, inherited) {
    this.cwd = cwd;
    this.env = hardenedGitEnv(inherited);
  }
  cwd;
  env;
  readers = {};
  /** Output of listings and diffs between object ids, by command line, for this run. */
  kept = /* @__PURE__ */ new Map();
  closed = false;
  /**
   * Ends the run's long-lived git processes (the batch readers); later reads are errors.
   * Safe to call more than once; never throws (cleanup).
   */
  async close() {
    this.closed = true;
    const readers = [this.readers.batch, this.readers.check];
    await Promise.all(readers.map((r) => r?.close().catch(() => void 0)));
  }
  // -------------------------------------------------------------------------------------
  // Commits and refs
  /** Resolves a ref to a full commit sha. */
  async resolveCommit(ref) {
    const result = await this.exec(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]);
    if (result.code !== 0) {
      throw new GateError(
        `cannot resolve "${ref}" to a commit in ${this.cwd} (is it fetched? a shallow clone may lack it)`
      );
    }
    return text(result).trim();
  }
  async hasCommit(sha2) {
    const result = await this.exec(["cat-file", "-e", `${sha2}^{commit}`]);
    return result.code === 0;
  }
  async mergeBase(a, b) {
    const args3 = ["merge-base", a, b];
    const result = await this.exec(args3);
    if (result.code === 1)
      throw new GateError(
        `${a} and ${b} have no common ancestor (unrelated histories or a shallow clone)`
      );
    if (result.code !== 0) throw this.failure(args3, result);
    return text(result).trim();
  }
  /** Whether the two commits have a merge base (false also when one is missing). */
  async hasMergeBase(a, b) {
    return (await this.exec(["merge-base", a, b])).code === 0;
  }
  /** The parents of a commit, in order (a merge queue's group commit: base tip, PR head). */
  async parents(sha2) {
    const line2 = await this.run(["rev-list", "--parents", "-n", "1", sha2, "--"]);
    return line2.trim().split(/\s+/).slice(1);
  }
  async isShallow() {
    return (await this.run(["rev-parse", "--is-shallow-repository"])).trim() === "true";
  }
  /** Fetches from origin without tags or submodules; resolves with why it failed, or null. */
  async tryFetch(spec) {
    const args3 = fetchArgs(spec);
    const result = await this.exec(args3);
    return result.code === 0 ? null : this.failure(args3, result);
  }
  async fetch(spec) {
    const problem = await this.tryFetch(spec);
    if (problem) throw problem;
  }
  // -------------------------------------------------------------------------------------
  // Objects and trees
  /** File bytes at a revision, or null when the path does not exist there. */
  async showFile(rev, path) {
    const spec = `${rev}:${path}`;
    const answer = await this.readObject(spec);
    if (answer === null) return null;
    if (answer.type !== "blob" || answer.bytes === null)
      throw new GateError(
        `cannot read ${JSON.stringify(spec)} in ${this.cwd}: a ${answer.type}, not a file`
      );
    return answer.bytes;
  }
  async showText(rev, path) {
    const bytes = await this.showFile(rev, path);
    return bytes === null ? null : bytes.toString("utf8");
  }
  /** Object id of a path (tree or blob) at a revision, or null when absent. */
  async objectId(rev, path) {
    const spec = `${rev}:${path}`;
    const info2 = sendableAsLine(spec) ? await this.objectInfo(spec) : null;
    return info2?.oid ?? this.revParseObject(spec);
  }
  /**
   * An object by request (an object id or `rev:path`) through the run's one `cat-file
   * --batch`: its type, size and bytes, or null when there is no such object. A name a
   * line cannot carry (a newline, a final carriage return) is resolved to its id first.
   */
  async readObject(request) {
    const asked = await this.sendable(request);
    return asked === null ? null : this.reader("batch").read(asked);
  }
  /** Type and size of an object (as readObject, without the bytes), through `--batch-check`. */
  async objectInfo(request) {
    const asked = await this.sendable(request);
    const answer = asked === null ? null : await this.reader("check").read(asked);
    return answer === null ? null : { oid: answer.oid, type: answer.type, size: answer.size };
  }
  /**
   * Recursive listing of a revision's tree, optionally restricted to paths (taken
   * literally: a file named `*.py` is that file, not a glob).
   */
  async lsTree(rev, paths2 = [], options = {}) {
    const out2 = await this.keep(
      [rev],
      [
        ...paths2.length ? ["--literal-pathspecs"] : [],
        "ls-tree",
        "-r",
        "-z",
        ...options.sizes ? ["-l"] : [],
        "--full-tree",
        rev,
        ...paths2.length ? ["--", ...paths2] : []
      ]
    );
    return parseLsTree(out2);
  }
  // -------------------------------------------------------------------------------------
  // Diffs and searches (no external diff, no textconv: the bytes as committed)
  /** `git diff --raw -z` between two commits: every change, renames detected. */
  async diffRaw(from, to) {
    return this.keep(
      [from, to],
      [
        "diff",
        "--raw",
        "-z",
        "--no-abbrev",
        "-M",
        "--no-ext-diff",
        "--no-textconv",
        "--no-relative",
        "--ignore-submodules=none",
        from,
        to,
        "--"
      ]
    );
  }
  /**
   * `git diff -U0` of added, modified, renamed, copied and retyped files (paths literal),
   * streamed: each piece of stdout goes to `onChunk` as git writes it, and none is kept
   * here, so a diff of any size costs the memory its reader keeps (hunks.ts keeps a
   * bounded part of it). Resolves when git has ended; a failure of git, or an error thrown
   * by `onChunk` (git is then killed), rejects.
   */
  async diffZeroContext(from, to, paths2, onChunk) {
    const args3 = [
      "diff",
      "--no-color",
      "--no-ext-diff",
      "--no-textconv",
      "--no-relative",
      // --text: a file git calls binary (a NUL byte, a `-diff` or `binary` attribute) still
      // shows its added lines; fixed prefixes: diff.noprefix or diff.mnemonicPrefix in the
      // user's config cannot change the names the parser reads.
      "--text",
      "--src-prefix=a/",
      "--dst-prefix=b/",
      "-U0",
      "-M",
      "--diff-filter=AMRCT",
      from,
      to
    ];
    await this.stream(
      paths2 === void 0 ? args3 : ["--literal-pathspecs", ...args3, "--", ...paths2],
      onChunk
    );
  }
  /**
   * Files of `rev` (among `paths`, when given, taken literally) that hold any of the fixed
   * strings in `patternsFile`, one a line; binary files are skipped. Paths as git prints
   * them: `rev:path`.
   */
  async grepFiles(rev, patternsFile, options = {}) {
    const args3 = [
      ...options.paths ? ["--literal-pathspecs"] : [],
      "grep",
      "--no-color",
      "--no-textconv",
      "-l",
      "-z",
      "-F",
      "-I",
      ...options.ignoreCase ? ["-i"] : [],
      "-f",
      patternsFile,
      rev,
      "--",
      ...options.paths ?? []
    ];
    const result = await this.exec(args3);
    if (result.code === 1) return [];
    if (result.code !== 0) throw this.failure(args3, result);
    return text(result).split("\0").filter((p) => p !== "");
  }
  /**
   * Lines of `rev` that hold any of the fixed strings in `patternsFile`, as git prints them
   * with -z: `rev:path\0line`, newline-separated. Empty when nothing matches.
   */
  async grepLines(rev, patternsFile) {
    const args3 = ["grep", "--no-color", "--no-textconv", "-F", "-I", "-z", "-f", patternsFile, rev];
    const result = await this.exec(args3);
    if (result.code === 1) return "";
    if (result.code !== 0) throw this.failure(args3, result);
    return text(result);
  }
  // -------------------------------------------------------------------------------------
  // The checkout and its worktrees
  /** The repository's common git directory (shared by its worktrees), absolute. */
  async commonDir() {
    return (await this.run(["rev-parse", "--path-format=absolute", "--git-common-dir"])).trim();
  }
  /** Paths tracked in the checkout at or below `path` (taken literally), or why git refused. */
  async trackedPaths(path) {
    const listed2 = await this.exec(["--literal-pathspecs", "ls-files", "-z", "--", path]);
    if (listed2.code !== 0) return { refused: listed2.stderr.trim().split("\n")[0] ?? "" };
    return {
      paths: text(listed2).split("\0").filter((p) => p !== "")
    };
  }
  /** A detached worktree of `rev` at `dir`. */
  async addWorktree(dir, rev) {
    await this.run(["worktree", "add", "--detach", "--force", "--quiet", dir, rev]);
  }
  /** Removes a worktree and its bookkeeping; never throws (cleanup). */
  async removeWorktree(dir) {
    await this.exec(["worktree", "remove", "--force", "--force", dir]).catch(() => void 0);
  }
  /** Forgets worktrees whose directories are gone; never throws (cleanup). */
  async pruneWorktrees() {
    await this.exec(["worktree", "prune"]).catch(() => void 0);
  }
  /** Checks out `paths` (taken literally) of `rev` into the worktree at `worktree`. */
  async checkoutPaths(worktree, rev, paths2) {
    await this.run(["--literal-pathspecs", "checkout", rev, "--", ...paths2], { cwd: worktree });
  }
  /** Files in the index of the worktree at `worktree`. */
  async indexFiles(worktree) {
    const out2 = await this.run(["ls-files", "-z", "--cached"], { cwd: worktree });
    return out2.split("\0").filter((f) => f !== "");
  }
  /** `git --version` as git prints it (src/git/version.ts reads it). */
  async version() {
    return this.run(["--version"]);
  }
  // -------------------------------------------------------------------------------------
  // Running git
  /** The run's reader of one kind, started hardened like every other command. */
  reader(mode) {
    if (this.closed) throw new GateError(`git in ${this.cwd}: read after the run ended`);
    const args3 = ["cat-file", mode === "batch" ? "--batch" : "--batch-check"];
    this.readers[mode] ??= new CatFile(
      mode,
      () => spawn("git", [...hardenedArgs(), ...args3], { cwd: this.cwd, env: this.env }),
      this.cwd
    );
    return this.readers[mode];
  }
  /** The request as a batch line, or null when it names nothing (resolved by rev-parse). */
  async sendable(request) {
    if (sendableAsLine(request)) return request;
    if (request.startsWith("-") || request.includes("\0"))
      throw new GateError(`cannot read ${JSON.stringify(request)} in ${this.cwd}`);
    return this.revParseObject(request);
  }
  async revParseObject(spec) {
    const result = await this.exec(["rev-parse", "--verify", "--quiet", spec]);
    return result.code === 0 ? text(result).trim() : null;
  }
  /**
   * run(), once per run for a command whose revisions are all object ids (its output
   * cannot change); a ref name may move, so such a command runs each time.
   */
  keep(revs, args3) {
    if (!revs.every((r) => OBJECT_ID.test(r))) return this.run(args3);
    const key4 = args3.join("\0");
    let out2 = this.kept.get(key4);
    if (out2 === void 0) {
      out2 = this.run(args3);
      this.kept.set(key4, out2);
    }
    return out2;
  }
  /** Runs git hardened; resolves with the exit code instead of throwing (callers decide). */
  exec(args3, options = {}) {
    const cwd = options.cwd ?? this.cwd;
    return new Promise((resolve5, reject2) => {
      const child = execFile(
        "git",
        [...hardenedArgs(), ...args3],
        {
          cwd,
          encoding: "buffer",
          maxBuffer: MAX_BUFFER,
          env: this.env
        },
        (error, stdout, stderr) => {
          const code = error ? typeof error.code === "number" ? error.code : -1 : 0;
          if (error && typeof error.code !== "number") {
            reject2(new GateError(`git ${args3.join(" ")} could not run in ${cwd}: ${error.message}`));
            return;
          }
          resolve5({ stdout, stderr: stderr.toString("utf8"), code });
        }
      );
      if (options.input !== void 0) child.stdin?.end(options.input);
    });
  }
  /**
   * Runs git hardened with its stdout handed to `onChunk` piece by piece (nothing kept but
   * the last of stderr, for the failure); rejects as run() does when git fails, and with
   * the sink's own error (git killed) when `onChunk` throws.
   */
  stream(args3, onChunk) {
    return new Promise((resolve5, reject2) => {
      const child = spawn("git", [...hardenedArgs(), ...args3], {
        cwd: this.cwd,
        env: this.env,
        stdio: ["ignore", "pipe", "pipe"]
      });
      let stderr = "";
      let sinkError;
      child.stdout.on("data", (chunk2) => {
        if (sinkError !== void 0) return;
        try {
          onChunk(chunk2);
        } catch (error) {
          sinkError = error;
          child.kill("SIGKILL");
        }
      });
      child.stderr.on("data", (chunk2) => {
        stderr = (stderr + chunk2.toString("utf8")).slice(-STDERR_KEPT);
      });
      child.on(
        "error",
        (error) => reject2(
          new GateError(`git ${args3.join(" ")} could not run in ${this.cwd}: ${error.message}`)
        )
      );
      child.on("close", (code) => {
        if (sinkError !== void 0) reject2(sinkError);
        else if (code === 0) resolve5();
        else reject2(this.failure(args3, { stdout: Buffer.alloc(0), stderr, code: code ?? -1 }));
      });
    });
  }
  /** Runs git and returns stdout as text; throws a GateError naming the command on failure. */
  async run(args3, options = {}) {
    const result = await this.exec(args3, options);
    if (result.code !== 0) throw this.failure(args3, result, options.cwd);
    return text(result);
  }
  failure(args3, result, cwd = this.cwd) {
    const detail = result.stderr.trim().split("\n").slice(-3).join(" / ") || `exit ${result.code}`;
    return new GateError(`git ${args3.join(" ")} failed in ${cwd}: ${detail}`);
  }
};
function text(result) {
  return result.stdout.toString("utf8");
}
function fetchArgs(spec) {
  return [
    "fetch",
    "--no-tags",
    "--no-recurse-submodules",
    ...spec.depth === void 0 ? [] : ["--depth", String(spec.depth)],
    ...spec.deepen === void 0 ? [] : ["--deepen", String(spec.deepen)],
    ...spec.unshallow ? ["--unshallow"] : [],
    "origin",
    ...spec.refspecs
  ];
}
function parseLsTree(out2) {
  const entries = [];
  for (const record of out2.split("\0")) {
    if (record === "") continue;
    const tab = record.indexOf("	");
    const [mode, type, sha2, size] = record.slice(0, tab).split(/ +/);
    const entry = {
      mode: mode ?? "",
      type: type ?? "blob",
      sha: sha2 ?? "",
      path: record.slice(tab + 1)
    };
    if (size !== void 0 && /^\d+$/.test(size)) entry.size = Number(size);
    entries.push(entry);
  }
  return entries;
}

// src/instrument/digest.ts
import { createHash } from "node:crypto";
function instrumentDigest(tree, isInstrument) {
  const entries = /* @__PURE__ */ new Map();
  for (const e of tree) if (isInstrument(e.path)) entries.set(e.path, `${e.mode} ${e.sha}`);
  const hash = createHash("sha256");
  for (const path of [...entries.keys()].sort())
    hash.update(`${path}\0${entries.get(path) ?? ""}
`);
  return { digest: `sha256:${hash.digest("hex")}`, entries };
}
function digestDifferences(base, head) {
  const paths2 = /* @__PURE__ */ new Set([...base.entries.keys(), ...head.entries.keys()]);
  return [...paths2].filter((p) => base.entries.get(p) !== head.entries.get(p)).sort();
}

// src/instrument/fixtures.ts
import { createHash as createHash2 } from "node:crypto";
import { posix } from "node:path";

// src/schema.ts
var import_ajv = __toESM(require_ajv(), 1);
var SCHEMA_OPTIONS = { allErrors: true, strict: true, allowUnionTypes: true };
function schemaValidator(schema) {
  const validate = new import_ajv.Ajv({ ...SCHEMA_OPTIONS, validateSchema: false }).compile(schema);
  return (value) => {
    if (validate(value)) return [];
    const seen = /* @__PURE__ */ new Set();
    return (validate.errors ?? []).map(issueOf).filter((issue) => {
      const key4 = `${issue.path.join("/")}|${issue.message}`;
      if (seen.has(key4)) return false;
      seen.add(key4);
      return true;
    });
  };
}
function formatIssue(issue) {
  return `${issue.path.length ? issue.path.join("/") : "(top level)"}: ${issue.message}`;
}
function issueOf(error) {
  const path = error.instancePath.split("/").slice(1).map((s) => clip(s.replace(/~1/g, "/").replace(/~0/g, "~")));
  const params = error.params;
  switch (error.keyword) {
    case "additionalProperties": {
      const key4 = String(params.additionalProperty);
      return {
        path,
        message: `unknown key ${JSON.stringify(key4.length > 80 ? `${key4.slice(0, 80)}\u2026` : key4)}`
      };
    }
    case "required":
      return { path, message: `missing required key ${JSON.stringify(params.missingProperty)}` };
    case "enum":
      return {
        path,
        message: `expected one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`
      };
    case "const":
      return { path, message: `expected ${JSON.stringify(params.allowedValue)}` };
    case "type":
      return { path, message: `expected ${String(params.type)}` };
    default:
      return { path, message: error.message ?? error.keyword };
  }
}
function clip(key4) {
  return key4.length > 80 ? `${key4.slice(0, 80)}\u2026` : key4;
}

// src/instrument/fixtures.schema.json
var fixtures_schema_default = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://oracle-gate.dev/schema/fixture-manifest-v1.json",
  title: "oracle-gate fixture manifest",
  description: "{NAME: {file, sha256}}, read from the merge base; `file` is relative to the manifest's folder and may not leave the repository (checked in code).",
  type: "object",
  additionalProperties: {
    type: "object",
    required: ["file", "sha256"],
    properties: {
      file: { type: "string", minLength: 1 },
      sha256: { type: "string", pattern: "^[0-9a-fA-F]{64}$" }
    }
  }
};

// src/instrument/fixtures.ts
function parseManifest(text2, manifestPath) {
  let value;
  try {
    value = JSON.parse(text2);
  } catch (error) {
    throw new GateError(
      `fixture manifest ${manifestPath} is not valid JSON: ${error.message}`,
      { rule: "config-invalid", path: manifestPath }
    );
  }
  const [issue] = schemaValidator(fixtures_schema_default)(value);
  if (issue) {
    const where = issue.path.length > 0 ? `, entry "${issue.path[0]}"` : "";
    throw new GateError(
      `fixture manifest ${manifestPath}${where} must be {NAME: {file, sha256}} (sha256: 64 hex digits): ${formatIssue(issue)}`,
      { rule: "config-invalid", path: manifestPath }
    );
  }
  const folder = posix.dirname(normalisePath(manifestPath));
  const entries = value;
  return Object.entries(entries).map(([name2, { file, sha256: sha2562 }]) => {
    const bad = (what) => new GateError(`fixture manifest ${manifestPath}, entry "${name2}": ${what}`, {
      rule: "config-invalid",
      path: manifestPath
    });
    const path = normalisePath(folder === "." ? file : `${folder}/${file}`);
    if (path === "" || path === ".." || path.startsWith("../"))
      throw bad(`"file" ${file} leaves the repository`);
    return { name: name2, path, sha256: sha2562.toLowerCase() };
  });
}
async function readManifest(git, mergeBase, manifestPath) {
  if (manifestPath === void 0) return null;
  const text2 = await git.showText(mergeBase, manifestPath);
  if (text2 === null) {
    throw new GateError(
      `the policy names fixture manifest ${manifestPath}, which does not exist at the merge base ${shortSha(mergeBase)}`,
      {
        rule: "config-invalid",
        path: manifestPath
      }
    );
  }
  return parseManifest(text2, manifestPath);
}
async function checkFixtures(git, mergeBase, head, manifestPath, entries) {
  const key4 = (rev, e) => `${rev}:${e.path}`;
  const blobs = await readBlobs(
    git,
    entries.flatMap((e) => [key4(mergeBase, e), key4(head, e)])
  );
  const reasons = [];
  for (const e of entries) {
    const atBase = blobs.get(key4(mergeBase, e)) ?? null;
    if (atBase === null || sha256(atBase) !== e.sha256) {
      reasons.push({
        rule: "config-invalid",
        level: "failure",
        path: manifestPath,
        message: `policy error in the base branch: fixture manifest ${manifestPath}, entry "${e.name}": ${e.path} ` + (atBase === null ? "does not exist at the merge base" : `at the merge base hashes to ${sha256(atBase)}, not ${e.sha256}`) + ". Fix the manifest (or the file) on the base branch; the patch is not to blame."
      });
      continue;
    }
    const atHead = blobs.get(key4(head, e)) ?? null;
    if (atHead === null) {
      reasons.push({
        rule: "fixture-digest",
        level: "failure",
        path: e.path,
        message: `fixture "${e.name}" (${e.path}) is missing at head (${manifestPath} at the merge base lists it)`
      });
    } else if (sha256(atHead) !== e.sha256) {
      reasons.push({
        rule: "fixture-digest",
        level: "failure",
        path: e.path,
        message: `fixture "${e.name}" (${e.path}) at head hashes to ${sha256(atHead)}; ${manifestPath} at the merge base says ${e.sha256}`
      });
    }
  }
  return reasons;
}
function sha256(bytes) {
  return createHash2("sha256").update(bytes).digest("hex");
}

// src/policy/production.ts
var MANIFEST = /(?:^|\/)(?:package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|pnpm-workspace\.yaml|bun\.lockb?|\.npmrc|\.yarnrc(?:\.yml)?|pyproject\.toml|setup\.py|setup\.cfg|requirements[^/]*\.txt|constraints[^/]*\.txt|Pipfile(?:\.lock)?|poetry\.lock|uv\.lock|pdm\.lock|go\.mod|go\.sum|Cargo\.toml|Cargo\.lock|Gemfile(?:\.lock)?)$/i;
var BUILD_CONFIG = /(?:^|\/)(?:tsconfig[^/]*\.json|jsconfig[^/]*\.json|babel\.config\.[^/]+|\.babelrc(?:\.[^/]+)?|[^/]*\.config\.(?:js|cjs|mjs|ts|cts|mts)|Makefile|CMakeLists\.txt|build\.gradle(?:\.kts)?|pom\.xml|tox\.ini|noxfile\.py|MANIFEST\.in)$/i;
function isManifest(path) {
  return MANIFEST.test(path);
}
function isBuildInput(path) {
  return MANIFEST.test(path) || BUILD_CONFIG.test(path);
}
function dependencySource(policy) {
  return policy.dependencies ?? (policy.planes.production !== void 0 ? "base" : "head");
}
function headVersionCounts(policy, isProduction) {
  const deps = dependencySource(policy);
  const hasProduction = policy.planes.production !== void 0;
  return (path) => {
    if (isManifest(path)) return deps === "head";
    return !hasProduction || isProduction(path);
  };
}
var CODE_DIRS = ["src", "lib", "app", "pkg", "cmd", "internal"];
var TEST_DIRS = /* @__PURE__ */ new Set(["tests", "test", "__tests__", "spec", "testing", "oracle", "e2e"]);
var ROOT_TOOLING = /^(?:setup\.py|conftest\.py|noxfile\.py|fabfile\.py|tasks\.py|dodo\.py|[^/]*\.config\.[^/]+|\.[^/]*)$/i;
var ROOT_CODE = /^[^/]+\.(?:py|js|mjs|cjs|ts|mts|cts|jsx|tsx)$/;
function layoutProduction(files, isTest) {
  const globs = /* @__PURE__ */ new Set();
  const top = (f) => f.slice(0, f.indexOf("/"));
  for (const f of files) {
    if (isTest(f)) continue;
    const slash = f.indexOf("/");
    if (slash < 0) {
      if (ROOT_CODE.test(f) && !ROOT_TOOLING.test(f)) globs.add(f);
      if (f === "go.mod") globs.add("**/*.go");
      continue;
    }
    const dir = top(f);
    if (TEST_DIRS.has(dir.toLowerCase())) continue;
    if (CODE_DIRS.includes(dir)) globs.add(`${dir}/**`);
    else if (f === `${dir}/__init__.py`) globs.add(`${dir}/**`);
    const mono = /^(packages|apps|libs)\/([^/]+)\/(src|lib)\//.exec(f);
    if (mono) globs.add(`${mono[1]}/*/${mono[3]}/**`);
  }
  return [...globs].sort();
}

// src/instrument/overlay.ts
function voteUsesHead(view, policy) {
  const counts = headVersionCounts(policy, (p) => view.planes.isProduction(p));
  return (path) => counts(path) && !view.isInstrument(path) && !view.fixturePaths.has(path);
}
function computeOverlay(view, runner, headCounts = () => true) {
  const runnerPaths = new Set(runner.map((c) => c.path));
  const restore = [];
  const remove = [];
  for (const path of view.changed) {
    const relevant = view.isInstrument(path) || view.fixturePaths.has(path) || runnerPaths.has(path) && headCounts(path);
    if (!relevant) continue;
    if (view.base.has(path)) restore.push(path);
    else remove.push(path);
  }
  return { restore, remove };
}
function productionReset(view, headCounts, handled) {
  const done = /* @__PURE__ */ new Set([...handled.restore, ...handled.remove]);
  const restore = [];
  const remove = [];
  for (const path of view.changed) {
    if (done.has(path) || headCounts(path)) continue;
    if (view.base.has(path)) restore.push(path);
    else remove.push(path);
  }
  return { restore, remove };
}
function unmeasuredPaths(view, resets) {
  const paths2 = /* @__PURE__ */ new Set();
  for (const r of resets)
    for (const p of [...r.restore, ...r.remove])
      if (!view.isInstrument(p) && !view.fixturePaths.has(p)) paths2.add(p);
  return [...paths2].sort();
}

// src/instrument/loading.ts
import { posix as posix2 } from "node:path";

// src/instrument/pynames.ts
var STDLIB_MODULES = /* @__PURE__ */ new Set([
  "__future__",
  "_abc",
  "_aix_support",
  "_android_support",
  "_ast",
  "_asyncio",
  "_bisect",
  "_blake2",
  "_bootsubprocess",
  "_bz2",
  "_codecs",
  "_codecs_cn",
  "_codecs_hk",
  "_codecs_iso2022",
  "_codecs_jp",
  "_codecs_kr",
  "_codecs_tw",
  "_collections",
  "_collections_abc",
  "_colorize",
  "_compat_pickle",
  "_compression",
  "_contextvars",
  "_crypt",
  "_csv",
  "_ctypes",
  "_curses",
  "_curses_panel",
  "_datetime",
  "_dbm",
  "_decimal",
  "_elementtree",
  "_frozen_importlib",
  "_frozen_importlib_external",
  "_functools",
  "_gdbm",
  "_hashlib",
  "_heapq",
  "_imp",
  "_interpchannels",
  "_interpqueues",
  "_interpreters",
  "_io",
  "_ios_support",
  "_json",
  "_locale",
  "_lsprof",
  "_lzma",
  "_markupbase",
  "_md5",
  "_msi",
  "_multibytecodec",
  "_multiprocessing",
  "_opcode",
  "_opcode_metadata",
  "_operator",
  "_osx_support",
  "_overlapped",
  "_pickle",
  "_posixshmem",
  "_posixsubprocess",
  "_py_abc",
  "_pydatetime",
  "_pydecimal",
  "_pyio",
  "_pylong",
  "_pyrepl",
  "_queue",
  "_random",
  "_scproxy",
  "_sha1",
  "_sha2",
  "_sha256",
  "_sha3",
  "_sha512",
  "_signal",
  "_sitebuiltins",
  "_socket",
  "_sqlite3",
  "_sre",
  "_ssl",
  "_stat",
  "_statistics",
  "_string",
  "_strptime",
  "_struct",
  "_suggestions",
  "_symtable",
  "_sysconfig",
  "_thread",
  "_threading_local",
  "_tkinter",
  "_tokenize",
  "_tracemalloc",
  "_typing",
  "_uuid",
  "_warnings",
  "_weakref",
  "_weakrefset",
  "_winapi",
  "_wmi",
  "_zoneinfo",
  "abc",
  "aifc",
  "antigravity",
  "argparse",
  "array",
  "ast",
  "asynchat",
  "asyncio",
  "asyncore",
  "atexit",
  "audioop",
  "base64",
  "bdb",
  "binascii",
  "bisect",
  "builtins",
  "bz2",
  "cProfile",
  "calendar",
  "cgi",
  "cgitb",
  "chunk",
  "cmath",
  "cmd",
  "code",
  "codecs",
  "codeop",
  "collections",
  "colorsys",
  "compileall",
  "concurrent",
  "configparser",
  "contextlib",
  "contextvars",
  "copy",
  "copyreg",
  "crypt",
  "csv",
  "ctypes",
  "curses",
  "dataclasses",
  "datetime",
  "dbm",
  "decimal",
  "difflib",
  "dis",
  "distutils",
  "doctest",
  "email",
  "encodings",
  "ensurepip",
  "enum",
  "errno",
  "faulthandler",
  "fcntl",
  "filecmp",
  "fileinput",
  "fnmatch",
  "fractions",
  "ftplib",
  "functools",
  "gc",
  "genericpath",
  "getopt",
  "getpass",
  "gettext",
  "glob",
  "graphlib",
  "grp",
  "gzip",
  "hashlib",
  "heapq",
  "hmac",
  "html",
  "http",
  "idlelib",
  "imaplib",
  "imghdr",
  "imp",
  "importlib",
  "inspect",
  "io",
  "ipaddress",
  "itertools",
  "json",
  "keyword",
  "lib2to3",
  "linecache",
  "locale",
  "logging",
  "lzma",
  "mailbox",
  "mailcap",
  "marshal",
  "math",
  "mimetypes",
  "mmap",
  "modulefinder",
  "msilib",
  "msvcrt",
  "multiprocessing",
  "netrc",
  "nis",
  "nntplib",
  "nt",
  "ntpath",
  "nturl2path",
  "numbers",
  "opcode",
  "operator",
  "optparse",
  "os",
  "ossaudiodev",
  "pathlib",
  "pdb",
  "pickle",
  "pickletools",
  "pipes",
  "pkgutil",
  "platform",
  "plistlib",
  "poplib",
  "posix",
  "posixpath",
  "pprint",
  "profile",
  "pstats",
  "pty",
  "pwd",
  "py_compile",
  "pyclbr",
  "pydoc",
  "pydoc_data",
  "pyexpat",
  "queue",
  "quopri",
  "random",
  "re",
  "readline",
  "reprlib",
  "resource",
  "rlcompleter",
  "runpy",
  "sched",
  "secrets",
  "select",
  "selectors",
  "shelve",
  "shlex",
  "shutil",
  "signal",
  "site",
  "smtpd",
  "smtplib",
  "sndhdr",
  "socket",
  "socketserver",
  "spwd",
  "sqlite3",
  "sre_compile",
  "sre_constants",
  "sre_parse",
  "ssl",
  "stat",
  "statistics",
  "string",
  "stringprep",
  "struct",
  "subprocess",
  "sunau",
  "symtable",
  "sys",
  "sysconfig",
  "syslog",
  "tabnanny",
  "tarfile",
  "telnetlib",
  "tempfile",
  "termios",
  "textwrap",
  "this",
  "threading",
  "time",
  "timeit",
  "tkinter",
  "token",
  "tokenize",
  "tomllib",
  "trace",
  "traceback",
  "tracemalloc",
  "tty",
  "turtle",
  "turtledemo",
  "types",
  "typing",
  "unicodedata",
  "unittest",
  "urllib",
  "uu",
  "uuid",
  "venv",
  "warnings",
  "wave",
  "weakref",
  "webbrowser",
  "winreg",
  "winsound",
  "wsgiref",
  "xdrlib",
  "xml",
  "xmlrpc",
  "zipapp",
  "zipfile",
  "zipimport",
  "zlib",
  "zoneinfo"
]);
var TEST_DEPENDENCY_MODULES = /* @__PURE__ */ new Set([
  "pytest",
  "_pytest",
  "pluggy",
  "iniconfig",
  "packaging",
  "py",
  "pygments",
  "exceptiongroup",
  "tomli",
  "hypothesis",
  "_hypothesis_pytestplugin",
  "_hypothesis_globals",
  "_hypothesis_ftz_detector",
  "sortedcontainers",
  "attr",
  "attrs",
  "coverage",
  "pytest_cov",
  "xdist",
  "execnet",
  "pytest_asyncio",
  "pytest_mock",
  "pytest_timeout",
  "pytest_randomly",
  "mock",
  "typing_extensions",
  "setuptools",
  "pkg_resources",
  "_distutils_hack",
  "pip",
  "six",
  "colorama"
]);

// src/instrument/sections.ts
function iniSections(text2, wanted) {
  if (text2 === null) return null;
  const kept2 = [];
  let inside3 = false;
  for (const raw of text2.split(/\r?\n/)) {
    const line2 = raw.trim();
    const header = /^\[([^\]]*)\]/.exec(line2);
    if (header) {
      inside3 = wanted((header[1] ?? "").trim());
      if (inside3) kept2.push(`[${(header[1] ?? "").trim()}]`);
      continue;
    }
    if (!inside3 || line2 === "" || line2.startsWith("#") || line2.startsWith(";")) continue;
    kept2.push(/^\s/.test(raw) ? `  ${line2}` : line2);
  }
  return kept2.join("\n");
}
function tomlSections(text2, prefix) {
  if (text2 === null) return null;
  const kept2 = [];
  let table = "";
  for (const statement of tomlStatements(text2)) {
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(statement);
    if (header) {
      table = normaliseKey(header[1] ?? "");
      if (startsWithKey(table, prefix)) kept2.push(`[${table}]`);
      continue;
    }
    const eq = keyEnd(statement);
    const key4 = normaliseKey(eq < 0 ? statement : statement.slice(0, eq));
    const full = table === "" ? key4 : `${table}.${key4}`;
    if (startsWithKey(full, prefix) || startsWithKey(prefix, full))
      kept2.push(`${table}|${statement}`);
  }
  return kept2.join("\n");
}
function startsWithKey(key4, prefix) {
  return key4 === prefix || key4.startsWith(`${prefix}.`);
}
function normaliseKey(key4) {
  return key4.split(".").map((part) => {
    const p = part.trim();
    if (p.startsWith('"')) return decodeBasicEscapes(p.replace(/^"|"$/g, ""));
    return p.replace(/^'|'$/g, "");
  }).join(".");
}
var TOML_ESCAPES = {
  b: "\b",
  t: "	",
  n: "\n",
  f: "\f",
  r: "\r",
  e: "\x1B",
  '"': '"',
  "\\": "\\"
};
function decodeBasicEscapes(text2) {
  return text2.replace(
    /\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|.)/g,
    (whole, esc) => {
      if (esc.length > 1) {
        const code = Number.parseInt(esc.slice(1), 16);
        return code <= 1114111 ? String.fromCodePoint(code) : whole;
      }
      return TOML_ESCAPES[esc] ?? whole;
    }
  );
}
function keyEnd(statement) {
  let quote3 = "";
  for (let i2 = 0; i2 < statement.length; i2++) {
    const c = statement[i2];
    if (quote3) {
      if (c === quote3) quote3 = "";
    } else if (c === '"' || c === "'") quote3 = c;
    else if (c === "=") return i2;
  }
  return -1;
}
function tomlStatements(text2) {
  const statements = [];
  let current = "";
  let depth2 = 0;
  let quote3 = "";
  let i2 = 0;
  const flush = () => {
    const s = current.trim();
    if (s !== "") statements.push(s);
    current = "";
  };
  while (i2 < text2.length) {
    const c = text2[i2] ?? "";
    if (quote3) {
      if (quote3.length === 1 && c === "\\" && quote3 === '"') {
        current += text2.slice(i2, i2 + 2);
        i2 += 2;
        continue;
      }
      if (quote3.length === 3 && c === "\\" && quote3 === '"""') {
        current += text2.slice(i2, i2 + 2);
        i2 += 2;
        continue;
      }
      if (text2.startsWith(quote3, i2)) {
        current += quote3;
        i2 += quote3.length;
        quote3 = "";
        continue;
      }
      if (quote3.length === 1 && c === "\n") quote3 = "";
      current += c;
      i2++;
      continue;
    }
    if (text2.startsWith('"""', i2) || text2.startsWith("'''", i2)) {
      quote3 = text2.slice(i2, i2 + 3);
      current += quote3;
      i2 += 3;
      continue;
    }
    if (c === '"' || c === "'") {
      quote3 = c;
      current += c;
      i2++;
      continue;
    }
    if (c === "#") {
      while (i2 < text2.length && text2[i2] !== "\n") i2++;
      continue;
    }
    if (c === "[" || c === "{") depth2++;
    if (c === "]" || c === "}") depth2 = Math.max(0, depth2 - 1);
    if (c === "\n" || c === "\r") {
      if (depth2 === 0) flush();
      else current = current.trimEnd() + " ";
      i2++;
      continue;
    }
    current += c;
    i2++;
  }
  flush();
  return statements;
}
var PACKAGE_TEST_KEYS = [
  "jest",
  "mocha",
  "vitest",
  "ava",
  "tap",
  "c8",
  "nyc",
  "jest-junit",
  "playwright",
  "jasmine",
  "babel",
  "imports",
  "exports"
];
var LIFECYCLE_SCRIPTS = /^(preinstall|install|postinstall|preprepare|prepare|postprepare|prepublish|prepack|postpack|dependencies)$/;
function packageTestFields(text2) {
  if (text2 === null) return null;
  let parsed;
  try {
    parsed = JSON.parse(text2);
  } catch {
    return `unparsable:${text2}`;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    return `not-an-object:${text2}`;
  const pkg = parsed;
  const picked = {};
  const scripts = pkg.scripts;
  if (scripts && typeof scripts === "object") {
    for (const [name2, value] of Object.entries(scripts)) {
      if (/^(pre|post)?test($|[:_-])/.test(name2) || LIFECYCLE_SCRIPTS.test(name2))
        picked[`scripts.${name2}`] = value;
    }
  }
  for (const key4 of PACKAGE_TEST_KEYS) if (key4 in pkg) picked[key4] = pkg[key4];
  return canonicalJson(picked);
}
function goModTestDirectives(text2) {
  if (text2 === null) return null;
  const kept2 = [];
  let block = "";
  for (const raw of text2.split(/\r?\n/)) {
    const line2 = raw.replace(/\/\/.*$/, "").trim();
    if (line2 === "") continue;
    if (block) {
      if (line2 === ")") block = "";
      else if (block === "godebug") kept2.push(`godebug ${line2}`);
      continue;
    }
    const open3 = /^(\w+)\s*\($/.exec(line2);
    if (open3) {
      block = open3[1] ?? "";
      continue;
    }
    if (/^(go|toolchain|godebug)\s/.test(line2)) kept2.push(line2.replace(/\s+/g, " "));
  }
  return kept2.join("\n");
}
function parseJsonc(text2) {
  let out2 = "";
  let i2 = 0;
  while (i2 < text2.length) {
    const c = text2[i2] ?? "";
    if (c === '"') {
      const end = stringEnd(text2, i2);
      out2 += text2.slice(i2, end);
      i2 = end;
    } else if (text2.startsWith("//", i2)) {
      while (i2 < text2.length && text2[i2] !== "\n") i2++;
    } else if (text2.startsWith("/*", i2)) {
      const end = text2.indexOf("*/", i2 + 2);
      i2 = end < 0 ? text2.length : end + 2;
    } else {
      out2 += c;
      i2++;
    }
  }
  try {
    return JSON.parse(out2.replace(/,(\s*[}\]])/g, "$1"));
  } catch {
    return void 0;
  }
}
function stringEnd(text2, start2) {
  let i2 = start2 + 1;
  while (i2 < text2.length && text2[i2] !== '"') i2 += text2[i2] === "\\" ? 2 : 1;
  return i2 + 1;
}
var TSCONFIG_RESOLUTION_OPTIONS = [
  "paths",
  "baseUrl",
  "rootDirs",
  "customConditions",
  "moduleSuffixes",
  "moduleResolution",
  "typeRoots",
  "allowJs",
  "jsxImportSource",
  "resolvePackageJsonExports",
  "resolvePackageJsonImports"
];
function tsconfigResolution(text2) {
  if (text2 === null) return null;
  const parsed = parseJsonc(text2);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    return `unparsable:${text2}`;
  const config = parsed;
  const picked = {};
  for (const key4 of ["extends", "references"]) if (key4 in config) picked[key4] = config[key4];
  const options = config.compilerOptions;
  if (options && typeof options === "object") {
    for (const key4 of TSCONFIG_RESOLUTION_OPTIONS) {
      if (key4 in options)
        picked[`compilerOptions.${key4}`] = options[key4];
    }
  }
  return canonicalJson(picked);
}
var NPMRC_CODE_KEYS = /* @__PURE__ */ new Set([
  "node-options",
  "script-shell",
  "shell",
  "onload-script",
  "init-module",
  "ignore-scripts",
  "node-gyp",
  "git",
  "userconfig",
  "globalconfig",
  "prefix",
  "scripts-prepend-node-path",
  "npm-path",
  "node"
]);
function npmrcCodeSettings(text2) {
  if (text2 === null) return null;
  const kept2 = [];
  for (const raw of text2.split(/\r?\n/)) {
    const line2 = raw.trim();
    if (line2 === "" || line2.startsWith("#") || line2.startsWith(";")) continue;
    const eq = line2.indexOf("=");
    const key4 = (eq < 0 ? line2 : line2.slice(0, eq)).trim().toLowerCase().replace(/_/g, "-");
    const bare = key4.replace(/^.*:/, "");
    if (NPMRC_CODE_KEYS.has(bare) || key4.startsWith("$") || bare.includes("${"))
      kept2.push(`${bare}=${eq < 0 ? "" : line2.slice(eq + 1).trim()}`);
  }
  return kept2.join("\n");
}
var BYTE_ATTRIBUTES = /^[-!]?(text|eol|crlf|working-tree-encoding|encoding|filter|ident|diff|merge|binary)(=|$)/;
function gitattributesFor(dir, watched) {
  return (text2) => {
    if (text2 === null) return null;
    const kept2 = [];
    for (const raw of text2.split(/\r?\n/)) {
      const line2 = raw.trim();
      if (line2 === "" || line2.startsWith("#")) continue;
      const [pattern = "", ...attrs] = line2.split(/\s+/);
      if (pattern.startsWith("[attr]")) {
        kept2.push(line2);
        continue;
      }
      if (!attrs.some((a) => BYTE_ATTRIBUTES.test(a))) continue;
      if (watched(attributePattern(dir, pattern))) kept2.push(line2);
    }
    return kept2.join("\n");
  };
}
function attributePattern(dir, pattern) {
  const anchored2 = pattern.includes("/") && !pattern.endsWith("/");
  const body2 = pattern.replace(/^\//, "").replace(/\/$/, "");
  let source = "";
  for (let i2 = 0; i2 < body2.length; i2++) {
    const c = body2[i2] ?? "";
    if (body2.startsWith("**/", i2)) {
      source += "(?:.*/)?";
      i2 += 2;
    } else if (body2.startsWith("/**", i2) && i2 + 3 === body2.length) {
      source += "/.*";
      i2 += 2;
    } else if (c === "[" && body2.indexOf("]", i2 + 2) > 0) {
      const end = body2.indexOf("]", i2 + 2);
      const inner = body2.slice(i2 + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\");
      source += `[${inner}]`;
      i2 = end;
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else if (c === "\\" && i2 + 1 < body2.length) source += escapeRe(body2[++i2] ?? "");
    else source += escapeRe(c);
  }
  const prefix = dir === "" ? "" : `${escapeRe(dir)}/`;
  const where = anchored2 ? prefix : `${prefix}(?:.*/)?`;
  return new RegExp(`^${where}${source}(?:/.*)?$`, "is");
}
function escapeRe(text2) {
  return text2.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

// src/instrument/loading.ts
var JS_EXTENSIONS = /* @__PURE__ */ new Set(["js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "json"]);
function moduleIndex(baseFiles, pythonPath, collected = []) {
  const jsModules = /* @__PURE__ */ new Map();
  const pyModules = /* @__PURE__ */ new Set();
  const dirs = ["", "src", ...pythonPath.map((d) => normalisePath(d).toLowerCase())];
  const roots = collected.map((c) => normalisePath(c).toLowerCase());
  const files = /* @__PURE__ */ new Set();
  for (const path of baseFiles) {
    const p = normalisePath(path).toLowerCase();
    files.add(p);
    const m = /^(.*?)(?:\/index)?\.([a-z]+)$/.exec(p);
    const plain = /^(.*)\.([a-z]+)$/.exec(p);
    if (plain && plain[2] === "py") pyModules.add(plain[1] ?? "");
    if (/(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(p) && roots.some((r) => r === "" || p.startsWith(`${r}/`)))
      dirs.push(p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : "");
    for (const match of [plain, m]) {
      if (!match || !JS_EXTENSIONS.has(match[2] ?? "")) continue;
      const key4 = match[1] ?? "";
      const set = jsModules.get(key4) ?? /* @__PURE__ */ new Set();
      set.add(match[2] ?? "");
      jsModules.set(key4, set);
    }
  }
  return { pythonPath: [...new Set(dirs)], jsModules, pyModules, files };
}
function importName(rel) {
  const parts2 = rel.split("/");
  if (parts2.length === 1) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(?:\.[^.]+)*\.(py|pyc|pyd|so)$/.exec(parts2[0] ?? "");
    return m ? m[1] ?? null : null;
  }
  if (parts2.length === 2 && /^__init__\.(py|pyc|pyd|so)$/.test(parts2[1] ?? ""))
    return parts2[0] ?? null;
  return null;
}
function shadowedModule(path, index) {
  const p = path.toLowerCase();
  if (index.files.has(p)) return null;
  for (const root of index.pythonPath) {
    if (root !== "" && !p.startsWith(`${root}/`)) continue;
    const name2 = importName(path.slice(root === "" ? 0 : root.length + 1));
    if (name2 === null) continue;
    const where = root === "" ? "the repository root" : `${root}/`;
    if (STDLIB_MODULES.has(name2))
      return `a module named ${name2} in ${where} shadows the standard-library module ${name2} for every import of it in the voting run`;
    if (TEST_DEPENDENCY_MODULES.has(name2))
      return `a module named ${name2} in ${where} shadows the test dependency ${name2}: the voting run would import it instead of the real one`;
  }
  const pkg = /^(.*)\/__init__\.(py|pyc|so)$/.exec(p);
  if (pkg && index.pyModules.has(pkg[1] ?? ""))
    return `the package ${pkg[1] ?? ""}/ takes precedence over the module ${pkg[1] ?? ""}.py the merge base has`;
  const ext = /^(.*?)(?:\.[^./]+)*\.(so|pyd)$/.exec(p);
  if (ext && index.pyModules.has(ext[1] ?? ""))
    return `an extension module takes precedence over ${ext[1] ?? ""}.py the merge base has`;
  const js = /^(.*)\.([a-z]+)$/.exec(p);
  if (js && JS_EXTENSIONS.has(js[2] ?? "")) {
    const existing = index.jsModules.get(js[1] ?? "");
    const others = [...existing ?? []].filter((e) => e !== js[2]);
    if (others.length > 0)
      return `${js[1] ?? ""}.${js[2] ?? ""} shadows the merge base's ${js[1] ?? ""}.${others[0] ?? ""}: an extensionless import resolves to whichever extension the runner tries first`;
  }
  return null;
}
var SETUP_KEYS = /["']?\b(setupFiles|setupFilesAfterEnv|globalSetup|globalTeardown|snapshotResolver|testSequencer|resolver|testResultsProcessor|testEnvironment|prettierPath|dependencyExtractor)\b["']?\s*:\s*(\[[^\]]*\]|"[^"]*"|'[^']*'|`[^`]*`)/g;
function setupFilesOf(configPath, text2, baseFiles) {
  const dir = posix2.dirname(normalisePath(configPath));
  const found = [];
  for (const m of text2.matchAll(SETUP_KEYS)) {
    for (const lit of (m[2] ?? "").matchAll(/"([^"]*)"|'([^']*)'|`([^`]*)`/g)) {
      const value = (lit[1] ?? lit[2] ?? lit[3] ?? "").replace(/^<rootDir>\//, "");
      if (value === "" || value.includes("${")) continue;
      const joined2 = normalisePath(dir === "." ? value : `${dir}/${value}`);
      for (const candidate of [
        joined2,
        ...[".js", ".ts", ".mjs", ".cjs", ".tsx", ".jsx"].map((e) => joined2 + e)
      ]) {
        if (baseFiles.has(candidate)) found.push(candidate);
      }
    }
  }
  return found;
}
function pytestPart(configPath, text2) {
  const name2 = posix2.basename(configPath).toLowerCase();
  if (name2 === "pyproject.toml") return tomlSections(text2, "tool.pytest") ?? "";
  if (name2 === "setup.cfg") return iniSections(text2, (s) => s === "tool:pytest") ?? "";
  if (name2 === "tox.ini") return iniSections(text2, (s) => s === "pytest") ?? "";
  return text2;
}
function pytestPathsOption(configPath, text2, option) {
  const dir = posix2.dirname(normalisePath(configPath));
  const re = new RegExp(
    `^(?:[^|\\n]*\\|)?\\s*${option}\\s*=\\s*(\\[[^\\]]*\\]|[^\\n]*(?:\\n[ \\t]+[^\\n]+)*)`,
    "m"
  );
  const m = re.exec(pytestPart(configPath, text2));
  if (!m) return [];
  const raw = m[1] ?? "";
  const values = raw.startsWith("[") ? [...raw.matchAll(/"([^"]*)"|'([^']*)'/g)].map((v) => v[1] ?? v[2] ?? "") : raw.split(/\s+/);
  return values.filter((v) => v !== "" && !v.startsWith("/") && !/[*?[]/.test(v)).map((v) => normalisePath(dir === "." ? v : `${dir}/${v}`));
}
function pythonPathOf(configPath, text2) {
  return pytestPathsOption(configPath, text2, "pythonpath");
}
function collectedRoots(commands, baseFiles, testpaths = []) {
  const dirs = /* @__PURE__ */ new Set();
  const files = /* @__PURE__ */ new Set();
  for (const f of baseFiles) {
    files.add(f);
    const parts2 = f.split("/");
    for (let i2 = 1; i2 < parts2.length; i2++) dirs.add(parts2.slice(0, i2).join("/"));
  }
  const roots = /* @__PURE__ */ new Set();
  let named = false;
  for (const command of commands) {
    for (const raw of command.split(/[\s;&|()]+/)) {
      const token = normalisePath(raw.replace(/^['"]|['"]$/g, "").replace(/::.*$/, ""));
      if (token === "" || token.startsWith("-") || token.includes("{")) continue;
      if (dirs.has(token)) {
        roots.add(token);
        named = true;
      } else if (files.has(token)) named = true;
    }
  }
  if (named) return [...roots];
  return testpaths.length > 0 ? [...testpaths] : [""];
}
function loadingConfigFiles(baseFiles, ancestors) {
  const wanted = [];
  for (const f of baseFiles) {
    const slash = f.lastIndexOf("/");
    const dir = slash < 0 ? "" : f.slice(0, slash);
    if (!ancestors.has(dir)) continue;
    const base = f.slice(slash + 1).toLowerCase();
    if (/^(jest|vitest|vite)\.config\.[a-z]+$/.test(base) || /^vitest\.workspace\.[a-z]+$/.test(base) || base === "package.json" || [
      "pyproject.toml",
      "pytest.ini",
      ".pytest.ini",
      "pytest.toml",
      ".pytest.toml",
      "setup.cfg",
      "tox.ini"
    ].includes(base))
      wanted.push(f);
  }
  return wanted;
}

// src/instrument/runner.ts
var RUNNER_TABLE = [
  {
    names: ["conftest.py"],
    scope: "voting-tree",
    why: "pytest loads conftest.py from the rootdir and every ancestor of a collected test; its hooks can deselect tests or rewrite outcomes"
  },
  {
    names: ["pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml", "tox.ini"],
    scope: "voting-ancestor",
    why: "pytest ini file: addopts, markers, testpaths and plugins change what is collected and how it is reported"
  },
  {
    names: ["setup.cfg"],
    scope: "voting-ancestor",
    part: {
      label: "[tool:pytest] section",
      extract: (t) => iniSections(t, (s) => s === "tool:pytest"),
      marker: /^\s*\[tool:pytest\]/
    },
    why: "setup.cfg's [tool:pytest] section is pytest configuration"
  },
  {
    names: ["pyproject.toml"],
    scope: "voting-ancestor",
    part: {
      label: "[tool.pytest...] section",
      extract: (t) => tomlSections(t, "tool.pytest"),
      marker: /tool\.pytest|^\s*pytest\s*[.=]/
    },
    why: "pyproject.toml's [tool.pytest.ini_options] is pytest configuration (dependencies elsewhere in the file are not)"
  },
  {
    names: ["sitecustomize.py", "usercustomize.py", "*.pth"],
    scope: "anywhere",
    why: "Python runs these at interpreter start-up when they are on sys.path, before any test"
  },
  {
    names: [],
    paths: ["**/*.dist-info/**", "**/*.egg-info/**"],
    scope: "anywhere",
    why: "distribution metadata: its entry points register pytest plugins (pytest11) that load into the voting run"
  },
  {
    names: ["*.pyc", "*.pyo"],
    paths: ["**/__pycache__/**"],
    scope: "anywhere",
    why: "committed bytecode: Python loads a .pyc instead of the source it claims to be compiled from, so the code that runs is not the code in the diff"
  },
  {
    names: [
      "jest.config.*",
      "vitest.config.*",
      "vite.config.*",
      "vitest.workspace.*",
      "playwright.config.*",
      ".mocharc",
      ".mocharc.*",
      "ava.config.*",
      "karma.conf.*",
      "cypress.config.*"
    ],
    scope: "voting-ancestor",
    why: "JavaScript test-runner configuration: collection, setup files, reporters"
  },
  {
    names: ["babel.config.*", ".babelrc", ".babelrc.*"],
    scope: "anywhere",
    why: "babel configuration: jest's default transform (babel-jest) runs its plugins over every test and module it loads"
  },
  {
    names: [".env", ".env.local", ".env.test", ".env.test.local"],
    scope: "voting-ancestor",
    why: 'vite and vitest load these into the test process (mode "test")'
  },
  {
    names: ["tsconfig*.json", "jsconfig*.json"],
    scope: "anywhere",
    part: {
      label: "module-resolution options (paths, baseUrl, rootDirs, customConditions, moduleSuffixes, extends, references, ...)",
      extract: tsconfigResolution,
      marker: /"(paths|baseUrl|rootDirs|customConditions|moduleSuffixes|moduleResolution|extends|references|typeRoots|allowJs|jsxImportSource)"\s*:/
    },
    why: "these options decide which file an import loads for TypeScript-aware runners (a target bump does not)"
  },
  {
    names: [".npmrc"],
    scope: "voting-ancestor",
    part: {
      label: "code-running settings (node-options, script-shell, ...)",
      extract: npmrcCodeSettings,
      marker: /^\s*(node[-_]options|script[-_]shell|shell|onload[-_]script|init[-_]module|ignore[-_]scripts|node[-_]gyp|git|userconfig|globalconfig|prefix)\s*=/i
    },
    why: "npm applies these to every script it runs, the suite's included (node-options preloads code into every Node process)"
  },
  {
    names: ["package.json"],
    scope: "voting-ancestor",
    part: {
      label: "test fields (scripts.test*, install lifecycle scripts, jest, vitest, babel, imports, exports, ...)",
      extract: packageTestFields,
      marker: /"(pre|post)?test[^"]*"\s*:|"(preinstall|install|postinstall|preprepare|prepare|postprepare|prepublish|prepack|postpack)"\s*:|"(jest|mocha|vitest|ava|tap|c8|nyc|jest-junit|playwright|jasmine|babel|imports|exports)"\s*:/
    },
    why: "package.json's test and install scripts, runner and babel keys, and imports/exports conditions decide how the JavaScript suite runs and what it loads"
  },
  {
    names: ["go.mod"],
    scope: "voting-ancestor",
    part: {
      label: "go/toolchain/godebug directives",
      extract: goModTestDirectives,
      marker: /^\s*(go|toolchain|godebug)\b/
    },
    why: "go.mod's go, toolchain and godebug directives change how go test builds and runs tests (require/replace do not count)"
  },
  {
    names: [".rspec"],
    scope: "voting-ancestor",
    why: "RSpec reads default command-line options (requires, formatters, filters) from .rspec"
  }
];
function compileRunnerMatcher(policy, votingPaths, inputs = {}) {
  const fold2 = (s) => s.toLowerCase();
  const ancestors = /* @__PURE__ */ new Set([""]);
  const votingDirs = /* @__PURE__ */ new Set();
  for (const path of votingPaths) {
    const parts2 = fold2(normalisePath(path)).split("/");
    for (let i2 = 1; i2 < parts2.length; i2++) ancestors.add(parts2.slice(0, i2).join("/"));
    votingDirs.add(parts2.slice(0, -1).join("/"));
  }
  const trees = [...votingDirs, ...(inputs.collected ?? []).map((d) => fold2(normalisePath(d)))];
  const inTree = (dir) => ancestors.has(dir) || trees.some((t) => t === "" || dir === t || dir.startsWith(`${t}/`));
  const compiled2 = RUNNER_TABLE.map((entry) => ({
    entry,
    name: compileGlobs(entry.names, true),
    path: compileGlobs(entry.paths ?? [], true)
  }));
  const anyName = compileGlobs(
    RUNNER_TABLE.flatMap((e) => e.names),
    true
  );
  const anyPath = compileGlobs(
    RUNNER_TABLE.flatMap((e) => e.paths ?? []),
    true
  );
  const policyEntry = {
    names: policy.runner_config,
    scope: "anywhere",
    why: "listed under runner_config in the policy"
  };
  const policyMatch = compileGlobs(policy.runner_config, true);
  const setupFiles = new Map([...inputs.setupFiles ?? []].map(([p, c]) => [fold2(p), c]));
  const inScope = (scope, dir) => scope === "anywhere" || (scope === "voting-tree" ? inTree(dir) : ancestors.has(dir));
  return {
    entryFor(path) {
      const p = normalisePath(path);
      if (policyMatch(p)) return policyEntry;
      const lower2 = fold2(p);
      const config = setupFiles.get(lower2);
      if (config !== void 0) return setupFileEntry(config);
      const slash = p.lastIndexOf("/");
      const base = p.slice(slash + 1);
      const dir = fold2(slash < 0 ? "" : p.slice(0, slash));
      if (anyName(base) || anyPath(p)) {
        for (const { entry, name: name2, path: pathMatch } of compiled2) {
          if ((name2(base) || pathMatch(p)) && inScope(entry.scope, dir)) return entry;
        }
      }
      if (fold2(base) === ".gitattributes" && inputs.watched !== void 0)
        return gitattributesEntry(slash < 0 ? "" : p.slice(0, slash), inputs.watched);
      if (inputs.modules !== void 0) {
        const shadow = shadowedModule(p, inputs.modules);
        if (shadow !== null) return { names: [], scope: "anywhere", addedOnly: true, why: shadow };
      }
      return null;
    }
  };
}
function setupFileEntry(config) {
  return {
    names: [],
    scope: "anywhere",
    why: `the merge base's ${config} names it as a setup file: it runs inside the voting run before the tests`
  };
}
function gitattributesEntry(dir, watched) {
  return {
    names: [".gitattributes"],
    scope: "anywhere",
    part: {
      label: "lines over instrument, fixture or runner paths (eol, text, encoding, filter, diff, ...)",
      extract: gitattributesFor(dir, watched),
      marker: /\b(text|eol|crlf|encoding|filter|ident|diff|merge|binary)\b/
    },
    why: "checkout attributes change the bytes written for those paths (line endings, encodings, filter drivers), so the worktree would hold another oracle than git does"
  };
}
function markerLine(entry, text2) {
  if (text2 === null || entry.part === void 0) return void 0;
  const lines = text2.split(/\r?\n/);
  const index = lines.findIndex((l) => entry.part?.marker.test(l));
  return index < 0 ? void 0 : index + 1;
}

// src/instrument/tampering.ts
async function runnerChanges(git, view) {
  const candidates = view.changed.map((path) => ({ path, entry: view.runner.entryFor(path) })).filter((c) => c.entry !== null).filter((c) => !(c.entry.addedOnly === true && view.base.has(c.path)));
  const sectioned = candidates.filter((c) => c.entry.part !== void 0);
  const oids = sectioned.flatMap((c) => [view.base.get(c.path)?.sha, view.head.get(c.path)?.sha]).filter((s) => s !== void 0);
  const blobs = await readBlobs(git, oids);
  const text2 = (sha2) => {
    if (sha2 === void 0) return null;
    return blobs.get(sha2)?.toString("utf8") ?? null;
  };
  const changes = [];
  for (const { path, entry } of candidates) {
    const atBase = view.base.has(path);
    const atHead = view.head.has(path);
    const change = { path, entry, atBase, atHead };
    if (entry.part !== void 0) {
      const headText = text2(view.head.get(path)?.sha);
      const before = entry.part.extract(text2(view.base.get(path)?.sha)) ?? "";
      const after = entry.part.extract(headText) ?? "";
      if (before === after) continue;
      const line2 = markerLine(entry, headText);
      if (line2 !== void 0) change.line = line2;
    }
    changes.push(change);
  }
  return changes;
}
function runnerReasons(changes) {
  return changes.map((c) => {
    const path = normalisePath(c.path);
    const what = c.entry.part ? `its ${c.entry.part.label}` : "it";
    const verb2 = !c.atBase ? "adds" : !c.atHead ? "deletes" : "changes";
    const reason2 = {
      rule: "runner-tampered",
      level: "failure",
      path,
      message: `${path} is runner configuration (${c.entry.why}); the patch ${verb2} ${what}. Change runner configuration in a PR of its own`
    };
    if (c.line !== void 0) reason2.line = c.line;
    return reason2;
  });
}

// src/instrument/view.ts
async function instrumentView(ctx) {
  const [base, head, fixtures] = await Promise.all([
    ctx.trees.get(ctx.mergeBase),
    ctx.trees.get(ctx.head),
    readManifest(ctx.git, ctx.mergeBase, ctx.policy.fixtures)
  ]);
  const { planes } = ctx;
  const voting = [...base.values()].filter((e) => planes.planeOf(e.path) === "voting").map((e) => e.path);
  const changed = [];
  for (const [path, b] of base) {
    const h = head.get(path);
    if (h === void 0 || h.mode !== b.mode || h.sha !== b.sha) changed.push(path);
  }
  for (const path of head.keys()) if (!base.has(path)) changed.push(path);
  changed.sort();
  const fixturePaths = new Set((fixtures ?? []).map((f) => f.path));
  const linked = await linkedInstrument(ctx.git, planes, base);
  const isInstrument = (path) => isInstrumentPlane(planes.planeOf(path)) || linked?.(path) !== void 0;
  const isOracle = (path) => isInstrument(path) || fixturePaths.has(path);
  const runner = compileRunnerMatcher(
    ctx.policy,
    voting,
    await runnerInputs(ctx, base, voting, isOracle)
  );
  const view = {
    base,
    head,
    planes,
    runner,
    fixtures,
    fixturePaths,
    changed,
    isInstrument,
    isOracle
  };
  if (linked !== void 0) view.linkedInstrument = linked;
  return view;
}
async function runnerInputs(ctx, base, voting, watchedPath) {
  const files = [...base.keys()];
  const fileSet = new Set(files);
  const ancestors = /* @__PURE__ */ new Set([""]);
  for (const v of voting) {
    const parts2 = v.split("/");
    for (let i2 = 1; i2 < parts2.length; i2++) ancestors.add(parts2.slice(0, i2).join("/"));
  }
  const configs = loadingConfigFiles(files, ancestors);
  const blobs = await readBlobs(
    ctx.git,
    configs.map((c) => base.get(c)?.sha).filter((s) => s !== void 0)
  );
  const setupFiles = /* @__PURE__ */ new Map();
  const pythonPath = [];
  const testpaths = [];
  for (const config of configs) {
    const text2 = blobs.get(base.get(config)?.sha ?? "")?.toString("utf8");
    if (text2 === void 0) continue;
    for (const f of setupFilesOf(config, text2, fileSet)) setupFiles.set(f, config);
    pythonPath.push(...pythonPathOf(config, text2));
    testpaths.push(...pytestPathsOption(config, text2, "testpaths"));
  }
  const commands = [ctx.policy.suite.command, ctx.policy.suite.rerun_command ?? ""];
  const collected = collectedRoots(commands, files, testpaths);
  const basic = compileRunnerMatcher(ctx.policy, voting, { collected, setupFiles });
  const watched = files.filter((f) => watchedPath(f) || basic.entryFor(f) !== null);
  return {
    collected,
    setupFiles,
    modules: moduleIndex(files, pythonPath, collected),
    watched: (pattern) => watched.some((f) => pattern.test(f))
  };
}

// src/instrument/index.ts
function judgedRunnerChanges(changes, headCounts) {
  return changes.filter(
    (c) => headCounts(c.path) || c.path.split("/").pop()?.toLowerCase() === ".gitattributes"
  );
}
async function checkInstrument(ctx) {
  const view = await instrumentView(ctx);
  const reasons = protectedPathReasons(ctx.writeSet);
  const base = instrumentDigest(view.base.values(), view.isInstrument);
  const head = instrumentDigest(headAsVoted(view, ctx.writeSet), view.isInstrument);
  const oracle = {
    base_digest: base.digest,
    head_digest: head.digest,
    unchanged: base.digest === head.digest
  };
  if (!oracle.unchanged) {
    const differs = digestDifferences(base, head);
    const shown2 = differs.slice(0, 5).join(", ") + (differs.length > 5 ? ` (+${differs.length - 5} more)` : "");
    const reason2 = {
      rule: "oracle-digest",
      level: "failure",
      message: `the oracle digest changed (${base.digest.slice(0, 19)}\u2026 \u2192 ${head.digest.slice(0, 19)}\u2026): ${differs.length} instrument entr${differs.length === 1 ? "y differs" : "ies differ"}: ${shown2}`
    };
    if (differs[0] !== void 0) reason2.path = differs[0];
    reasons.push(reason2);
  }
  if (view.fixtures !== null && ctx.policy.fixtures !== void 0) {
    reasons.push(
      ...await checkFixtures(ctx.git, ctx.mergeBase, ctx.head, ctx.policy.fixtures, view.fixtures)
    );
  }
  const uses = voteUsesHead(view, ctx.policy);
  const judged = judgedRunnerChanges(
    await runnerChanges(ctx.git, view),
    (p) => uses(p) || view.isInstrument(p) || view.fixturePaths.has(p)
  );
  reasons.push(...runnerReasons(judged));
  return { reasons, oracle, view };
}
function headAsVoted(view, writeSet) {
  const appended = new Set(
    writeSet.filter((r) => r.classification.row === "voting-append").map((r) => r.path)
  );
  if (appended.size === 0) return [...view.head.values()];
  const entries = [];
  for (const entry of view.head.values()) {
    if (!appended.has(entry.path)) entries.push(entry);
    else {
      const base = view.base.get(entry.path);
      if (base !== void 0) entries.push(base);
    }
  }
  return entries;
}
function protectedPathReasons(writeSet) {
  return writeSet.filter((r) => r.classification.rule === "protected-path" && r.action === "reject").map((r) => ({
    rule: "protected-path",
    level: "failure",
    path: r.path,
    message: r.classification.message
  }));
}

// src/ledger/expiry.ts
var EXPIRING_WITHIN_DAYS = 7;
function judgeRows(rows, lines, file, today) {
  const live = /* @__PURE__ */ new Map();
  const freeze_debt = [];
  const reasons = [];
  for (const row of rows) {
    const left = daysBetween(today, row.expires_on);
    const line2 = lines.get(row.id);
    const at2 = line2 === void 0 ? { path: file } : { path: file, line: line2 };
    if (left < 0) {
      const overdue = -left;
      freeze_debt.push({
        id: row.id,
        test: row.test,
        owner: row.owner,
        expires_on: row.expires_on,
        days_overdue: overdue
      });
      reasons.push({
        rule: "ledger-expired",
        level: "failure",
        message: `${file}${line2 === void 0 ? "" : `:${line2}`}: row "${row.id}" (${row.test}, owner ${row.owner}) expired on ${row.expires_on}, ${overdue} day(s) ago: fix the flake and delete the row, or renew it in a reviewed PR`,
        ...at2
      });
      continue;
    }
    live.set(row.test, row);
    if (left <= EXPIRING_WITHIN_DAYS) {
      reasons.push({
        rule: "ledger-expiring",
        level: "warning",
        message: `row "${row.id}" (${row.test}, owner ${row.owner}) expires ${left === 0 ? "today" : `in ${left} day(s)`} (${row.expires_on})`,
        ...at2
      });
    }
  }
  return { live, freeze_debt, reasons };
}

// src/ledger/parse.ts
var import_yaml = __toESM(require_dist(), 1);

// src/ledger/validate.ts
var import_ajv2 = __toESM(require_ajv(), 1);

// src/ledger/schema.json
var schema_default = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://oracle-gate.dev/schema/flake-ledger-v1.json",
  title: "oracle-gate flake ledger",
  description: "Flaky tests, each recorded, dated and owned. Read from the merge base. Cross-row rules (unique id and test, expires_on >= first_seen, window <= ledger_max_days) are checked in code.",
  type: "object",
  additionalProperties: false,
  required: ["version", "entries"],
  properties: {
    version: { const: 1, description: "Ledger format version. Must be 1." },
    entries: {
      type: "array",
      items: { $ref: "#/definitions/row" }
    }
  },
  definitions: {
    row: {
      type: "object",
      additionalProperties: false,
      required: [
        "id",
        "test",
        "cause",
        "reason",
        "owner",
        "first_seen",
        "expires_on",
        "max_runs"
      ],
      properties: {
        id: {
          type: "string",
          minLength: 1,
          pattern: "\\S",
          description: "Unique row id."
        },
        test: {
          type: "string",
          minLength: 1,
          pattern: "\\S",
          description: "Canonical test id: path/to/test_file.py::name."
        },
        cause: { enum: ["order", "time", "net", "rng", "shared", "env"] },
        reason: { type: "string", minLength: 1, pattern: "\\S" },
        owner: { type: "string", minLength: 1, pattern: "\\S" },
        first_seen: { type: "string", format: "calendar-date" },
        expires_on: { type: "string", format: "calendar-date" },
        max_runs: { type: "integer", minimum: 1 },
        ticket: { type: "string", minLength: 1 },
        counterexample: {}
      }
    }
  }
};

// src/ledger/validate.ts
function validator() {
  const ajv = new import_ajv2.Ajv({ allErrors: true, strict: true, validateSchema: false });
  ajv.addFormat("calendar-date", { type: "string", validate: isCalendarDate });
  return ajv.compile(schema_default);
}
function validateLedgerObject(value) {
  const validate = validator();
  if (validate(value)) return [];
  const seen = /* @__PURE__ */ new Set();
  return (validate.errors ?? []).map(toIssue).filter((issue) => {
    const key4 = `${issue.path.join("/")}|${issue.field ?? ""}|${issue.message}`;
    if (seen.has(key4)) return false;
    seen.add(key4);
    return true;
  });
}
function toIssue(error) {
  const path = error.instancePath.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const params = error.params;
  switch (error.keyword) {
    case "required": {
      const field = String(params.missingProperty);
      return { path, field, message: "missing (required)" };
    }
    case "additionalProperties": {
      const field = String(params.additionalProperty);
      const known = Object.keys(
        error.parentSchema?.properties ?? {}
      );
      return {
        path: [...path, field],
        field,
        message: `unknown field (known: ${known.join(", ")})`
      };
    }
    case "enum":
      return withField(
        path,
        `expected one of ${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")}`
      );
    case "const":
      return withField(path, `expected ${JSON.stringify(params.allowedValue)}`);
    case "type":
      return withField(path, `expected ${String(params.type)}`);
    case "format":
      return withField(path, "expected a real calendar date YYYY-MM-DD");
    case "minimum":
      return withField(path, `expected >= ${String(params.limit)}`);
    case "minLength":
    case "pattern":
      return withField(path, "expected a non-empty string");
    default:
      return withField(path, error.message ?? error.keyword);
  }
}
function withField(path, message2) {
  const field = path[0] === "entries" && path.length > 1 ? path[2] : path[0];
  return field === void 0 ? { path, message: message2 } : { path, field, message: message2 };
}

// src/ledger/limits.ts
var DEFAULT_MAX_DAYS = 30;
function maxDaysFor(limit, cause) {
  if (typeof limit === "number") return limit;
  return limit[cause] ?? limit.default ?? DEFAULT_MAX_DAYS;
}

// src/ledger/parse.ts
function formatOf(file) {
  return /\.json$/i.test(file) ? "json" : "yaml";
}
function formatProblem(p) {
  const where = p.index === void 0 ? "" : p.rowId !== void 0 ? `row "${p.rowId}" ` : `row #${p.index + 1} (no id) `;
  const field = p.field === void 0 ? "" : `field "${p.field}": `;
  return `${p.file}:${p.line}: ${where}${field}${p.message}`;
}
var MAX_LEDGER_CHARS = 4e6;
function tooLarge(chars, file) {
  return {
    file,
    line: 1,
    message: `the ledger is ${(chars / 1e6).toFixed(1)} MB, more than the ${MAX_LEDGER_CHARS / 1e6} MB the gate reads (the limit, about 20,000 rows): remove rows that are no longer needed`
  };
}
function parseLedger(text2, file, options) {
  try {
    return parseLedgerText(text2, file, options);
  } catch (error) {
    const message2 = error instanceof Error ? error.message : String(error);
    return {
      format: formatOf(file),
      rows: [],
      lines: /* @__PURE__ */ new Map(),
      problems: [{ file, line: 1, message: `cannot read the ledger: ${message2}` }]
    };
  }
}
function parseLedgerText(text2, file, options) {
  const format = formatOf(file);
  const empty = (problems2) => ({
    format,
    rows: [],
    lines: /* @__PURE__ */ new Map(),
    problems: problems2
  });
  if (text2.length > MAX_LEDGER_CHARS) return empty([tooLarge(text2.length, file)]);
  const lc = new import_yaml.LineCounter();
  if (format === "json") {
    const syntax = jsonSyntaxProblem(text2, file);
    if (syntax) return empty([syntax]);
  }
  const doc = (0, import_yaml.parseDocument)(text2, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const seen = /* @__PURE__ */ new Map();
    for (const e of doc.errors) {
      const line2 = lc.linePos(e.pos[0]).line;
      const message2 = `syntax: ${e.message.split("\n")[0]}`;
      seen.set(`${line2}
${message2}`, { file, line: line2, message: message2 });
    }
    return empty([...seen.values()]);
  }
  const read = documentValue(doc, lc);
  if (!read.ok) return empty([{ file, line: read.line, message: read.message }]);
  const value = read.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return empty([{ file, line: 1, message: "expected a mapping {version: 1, entries: [...]}" }]);
  }
  const locate2 = (path) => lc.linePos(findNode(doc, path).offset).line;
  const raw = value;
  const entries = Array.isArray(raw.entries) ? raw.entries : [];
  const idOf = (index) => {
    const id = entries[index]?.id;
    return typeof id === "string" && id.trim() !== "" ? id : void 0;
  };
  const problems = validateLedgerObject(value).map(
    (issue) => toProblem(issue, file, locate2, idOf)
  );
  const badRows = new Set(problems.map((p) => p.index).filter((i2) => i2 !== void 0));
  const topLevel = problems.some((p) => p.index === void 0);
  const rows = [];
  const lines = /* @__PURE__ */ new Map();
  const seenId = /* @__PURE__ */ new Map();
  const seenTest = /* @__PURE__ */ new Map();
  entries.forEach((entry, index) => {
    if (topLevel || badRows.has(index)) return;
    const row = entry;
    const line2 = locate2(["entries", String(index)]);
    const fail = (field, message2) => {
      problems.push({
        file,
        line: locate2(["entries", String(index), field]),
        rowId: row.id,
        index,
        field,
        message: message2
      });
    };
    const before = problems.length;
    const idLine = seenId.get(row.id);
    if (idLine !== void 0) fail("id", `duplicate id (first used on line ${idLine})`);
    const testLine = seenTest.get(row.test);
    if (testLine !== void 0)
      fail("test", `duplicate test "${row.test}" (already frozen on line ${testLine})`);
    const window2 = daysBetween(row.first_seen, row.expires_on);
    if (window2 < 0) fail("expires_on", `${row.expires_on} is before first_seen ${row.first_seen}`);
    else if (window2 > maxDaysFor(options.maxDays, row.cause)) {
      const limit = maxDaysFor(options.maxDays, row.cause);
      const which = typeof options.maxDays === "number" ? "" : ` for cause ${row.cause}`;
      fail(
        "expires_on",
        `window first_seen \u2192 expires_on is ${window2} days; the policy allows at most ${limit}${which} (ledger_max_days)`
      );
    }
    if (daysBetween(options.today, row.first_seen) > 0) {
      fail("first_seen", `${row.first_seen} is after today (${options.today})`);
    }
    if (idLine === void 0) seenId.set(row.id, line2);
    if (testLine === void 0) seenTest.set(row.test, line2);
    if (problems.length === before) {
      rows.push(row);
      lines.set(row.id, line2);
    }
  });
  return { format, rows, lines, problems };
}
function toProblem(issue, file, locate2, idOf) {
  const problem = { file, line: locate2(issue.path), message: issue.message };
  if (issue.path[0] === "entries" && issue.path[1] !== void 0) {
    problem.index = Number(issue.path[1]);
    const id = idOf(problem.index);
    if (id !== void 0) problem.rowId = id;
  }
  if (issue.field !== void 0) problem.field = issue.field;
  return problem;
}
function jsonSyntaxProblem(text2, file) {
  try {
    JSON.parse(text2);
    return void 0;
  } catch (error) {
    const message2 = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message2);
    const lineMatch = /line (\d+)/.exec(message2);
    let line2 = 1;
    if (lineMatch) line2 = Number(lineMatch[1]);
    else if (position) line2 = text2.slice(0, Number(position[1])).split("\n").length;
    return { file, line: line2, message: `JSON syntax: ${message2}` };
  }
}

// src/ledger/types.ts
var EMPTY_LEDGER = { rows: [], live: /* @__PURE__ */ new Map(), reasons: [], freeze_debt: [] };

// src/ledger/load.ts
async function loadLedger(ctx) {
  if (ctx.policy.ledger === void 0)
    return { ...EMPTY_LEDGER, live: /* @__PURE__ */ new Map(), reasons: [], freeze_debt: [] };
  const file = normalisePath(ctx.policy.ledger);
  const text2 = await ctx.git.showText(ctx.mergeBase, file);
  if (text2 === null) {
    const reason2 = {
      rule: "ledger-invalid",
      level: "failure",
      path: file,
      message: `ledger ${file} (named by the policy) does not exist at the merge base ${shortSha(ctx.mergeBase)}; add it (oracle-gate ledger add, or {version: 1, entries: []}) in a PR of its own, or remove "ledger:" from the policy`
    };
    return {
      path: file,
      rows: [],
      live: /* @__PURE__ */ new Map(),
      lines: /* @__PURE__ */ new Map(),
      reasons: [reason2],
      freeze_debt: []
    };
  }
  return ledgerFromText(text2, file, ctx.today, ctx.policy.ledger_max_days);
}
function ledgerFromText(text2, file, today, maxDays) {
  const parsed = parseLedger(text2, file, { today, maxDays });
  const invalid = parsed.problems.map((p) => ({
    rule: "ledger-invalid",
    level: "failure",
    path: file,
    line: p.line,
    message: formatProblem(p)
  }));
  const judged = judgeRows(parsed.rows, parsed.lines, file, today);
  return {
    path: file,
    rows: parsed.rows,
    live: judged.live,
    lines: parsed.lines,
    reasons: [...invalid, ...judged.reasons],
    freeze_debt: judged.freeze_debt
  };
}

// src/lints/blobs.ts
var PATHS_PER_CALL = 2e3;
var MAX_LINT_BLOB_BYTES = 8 * 1024 * 1024;
async function readBlobs2(git, rev, paths2) {
  const out2 = /* @__PURE__ */ new Map();
  const listed2 = await listBlobs(git, rev, paths2);
  for (const [path, { size }] of listed2) tooLarge2(path, size, rev);
  const unique3 = [...new Set([...listed2.values()].map((b) => b.sha))];
  if (unique3.length === 0) return out2;
  const bytes = await catBlobs(git, unique3);
  for (const [path, { sha: sha2 }] of listed2) {
    const content = bytes.get(sha2);
    if (content) out2.set(path, content);
  }
  return out2;
}
async function assertLintableSizes(git, rev, rows, isTest) {
  const paths2 = rows.filter((r) => r.status !== "deleted" && languageOf(r.path) !== void 0 && isTest(r.path)).map((r) => r.path);
  for (const [path, { size }] of await listBlobs(git, rev, paths2)) tooLarge2(path, size, rev);
}
async function listBlobs(git, rev, paths2) {
  const listed2 = /* @__PURE__ */ new Map();
  for (let i2 = 0; i2 < paths2.length; i2 += PATHS_PER_CALL) {
    const chunk2 = paths2.slice(i2, i2 + PATHS_PER_CALL);
    for (const { mode, type, sha: sha2, path, size } of await git.lsTree(rev, chunk2, { sizes: true })) {
      if (type === "blob" && (mode === "100644" || mode === "100755") && sha2)
        listed2.set(path, { sha: sha2, size: size ?? 0 });
    }
  }
  return listed2;
}
function tooLarge2(path, size, rev) {
  if (!(size > MAX_LINT_BLOB_BYTES)) return;
  throw new GateError(
    `${path} is ${(size / 1024 / 1024).toFixed(1)} MiB at ${shortSha(rev)}: the lints read files up to ${MAX_LINT_BLOB_BYTES / 1024 / 1024} MiB (the limit), and a file they cannot read is not passed`,
    { path }
  );
}
async function catBlobs(git, shas) {
  const blobs = /* @__PURE__ */ new Map();
  for (const [sha2, bytes] of await readBlobs(git, shas)) {
    if (bytes === null) {
      throw new GateError(`git cat-file: object ${sha2} is missing (a partial or shallow clone?)`);
    }
    blobs.set(sha2, bytes);
  }
  return blobs;
}

// src/lints/files.ts
var TEST_PLANES = /* @__PURE__ */ new Set(["voting", "drafts", "in_diff"]);
function isTestFile2(planes, path, plane = planes.planeOf(path)) {
  return TEST_PLANES.has(plane) || planes.isTestLike(path);
}
function roleFunction(planes) {
  return (path) => {
    const plane = planes.planeOf(path);
    if (isTestFile2(planes, path, plane)) return "test";
    return plane === "source" ? "production" : "none";
  };
}
function lintFiles(planes, writeSet) {
  const roleOf2 = roleFunction(planes);
  const tests = [];
  const production = [];
  for (const row of writeSet) {
    if (row.status === "deleted" || languageOf2(row.path) === void 0) continue;
    if (row.new_kind === "symlink" || row.new_kind === "submodule") continue;
    const role = roleOf2(row.path);
    if (role === "test") tests.push(row);
    else if (role === "production") production.push(row);
  }
  return { tests, production, roleOf: roleOf2 };
}
function basePath(row) {
  if (row.status === "added") return void 0;
  return row.previous_path ?? row.path;
}

// src/lints/judge-import.ts
import { writeFile } from "node:fs/promises";
import { join as join2 } from "node:path";

// src/lints/judges.ts
var DEFAULT_PYTHON_JUDGES = [
  "openai",
  "anthropic",
  "google.generativeai",
  "google.genai",
  "vertexai",
  "cohere",
  "mistralai",
  "groq",
  "litellm",
  "langchain*",
  "llama_index",
  "ollama"
];
var DEFAULT_NPM_JUDGES = [
  "openai",
  "@anthropic-ai/sdk",
  "@google/generative-ai",
  "@google/genai",
  "ai",
  "@ai-sdk/*",
  "ollama",
  "langchain",
  "@langchain/*",
  "cohere-ai",
  "@mistralai/mistralai",
  "groq-sdk",
  "llamaindex"
];
var DEFAULT_JUDGE_HOSTS = [
  "api.openai.com",
  "openai.azure.com",
  "api.anthropic.com",
  "generativelanguage.googleapis.com",
  "aiplatform.googleapis.com",
  "api.cohere.ai",
  "api.cohere.com",
  "api.mistral.ai",
  "api.groq.com",
  "api.together.xyz",
  "api.fireworks.ai",
  "api.deepseek.com",
  "api.perplexity.ai",
  "openrouter.ai"
];
function judgeList(lints) {
  const extra = lints.judge_modules.map((e) => e.trim()).filter((e) => e !== "");
  const hosts = extra.filter(looksLikeHost).map((h) => h.toLowerCase());
  if (lints.judge_modules_replace) return { python: extra, npm: extra, hosts };
  return {
    python: [...DEFAULT_PYTHON_JUDGES, ...extra],
    npm: [...DEFAULT_NPM_JUDGES, ...extra],
    hosts: [...DEFAULT_JUDGE_HOSTS, ...hosts]
  };
}
function looksLikeHost(entry) {
  const labels = entry.split(".");
  return labels.length >= 2 && labels.every((l) => l.length > 0 && [...l].every(isHostChar));
}
function isHostChar(c) {
  return c >= "a" && c <= "z" || c >= "A" && c <= "Z" || c >= "0" && c <= "9" || c === "-";
}
function judgeHits(facts, list2) {
  const hits2 = [];
  for (const ref of facts.imports) {
    const match = ref.ecosystem === "python" ? matchPython(ref, list2.python) : matchNpm(ref.module, list2.npm);
    if (match) hits2.push({ what: match.what, entry: match.entry, kind: "import", line: ref.line });
  }
  for (const literal of facts.literals) {
    const host = findHost(literal.value, list2.hosts);
    if (host) hits2.push({ what: host, entry: host, kind: "host", line: literal.line });
  }
  return hits2;
}
function matchPython(ref, entries) {
  const candidates = [ref.module, ...(ref.names ?? []).map((n) => `${ref.module}.${n}`)];
  for (const candidate of candidates) {
    for (const entry of entries) {
      const hit = entry.endsWith("*") ? candidate.startsWith(entry.slice(0, -1)) : candidate === entry || candidate.startsWith(`${entry}.`);
      if (hit) return { what: candidate, entry };
    }
  }
  return void 0;
}
function matchNpm(module2, entries) {
  for (const entry of entries) {
    const hit = entry.endsWith("*") ? module2.startsWith(entry.slice(0, -1)) : module2 === entry || module2.startsWith(`${entry}/`);
    if (hit) return { what: module2, entry };
  }
  return void 0;
}
function findHost(value, hosts) {
  if (!value.includes(".")) return void 0;
  const lower2 = value.toLowerCase();
  for (const host of hosts) {
    for (let at2 = lower2.indexOf(host); at2 >= 0; at2 = lower2.indexOf(host, at2 + 1)) {
      const before = at2 === 0 ? "" : lower2[at2 - 1];
      const after = lower2[at2 + host.length] ?? "";
      if ((before === "" || before === "." || !isHostChar(before)) && (after === "" || after !== "." && !isHostChar(after))) {
        return host;
      }
    }
  }
  return void 0;
}
function prefilterStrings(list2) {
  const out2 = /* @__PURE__ */ new Set();
  for (const entry of list2.python) {
    const top = stripGlob(entry).split(".")[0];
    if (top.length >= 4) out2.add(top);
    else for (const form of ["import ", "from ", "'", '"']) out2.add(form + top);
  }
  for (const entry of list2.npm) {
    const name2 = stripGlob(entry);
    if (name2.length >= 4) out2.add(name2);
    else for (const q of ["'", '"', "`"]) out2.add(q + name2);
  }
  for (const host of list2.hosts) out2.add(host);
  return [...out2].filter((s) => s !== "");
}
function stripGlob(entry) {
  return entry.endsWith("/*") ? entry.slice(0, -1) : entry.endsWith("*") ? entry.slice(0, -1) : entry;
}

// src/lints/judge-import.ts
var PER_FILE_CAP = 10;
var BASE_FILE_CAP = 10;
var ADVICE = "a test on a test plane must not ask a model whether the code is right: its answer is neither reproducible nor independent of the agent that wrote the patch. Assert against expected values instead, or keep model-graded evaluation outside the gate; the list is set by lints.judge_modules (and lints.judge_modules_replace).";
async function judgeImport({ ctx, files, facts }, level) {
  const list2 = judgeList(ctx.policy.lints);
  const reasons = [];
  const head = await facts.at(
    ctx.head,
    files.tests.map((r) => r.path),
    "test"
  );
  const hitsOf = /* @__PURE__ */ new Map();
  for (const [path, f] of head) {
    const hits2 = judgeHits(f, list2);
    if (hits2.length > 0) hitsOf.set(path, hits2);
  }
  const baseOf = /* @__PURE__ */ new Map();
  for (const row of files.tests) {
    const old = basePath(row);
    if (old !== void 0 && hitsOf.has(row.path)) baseOf.set(row.path, old);
  }
  const base = await facts.at(ctx.mergeBase, [...baseOf.values()], "test");
  for (const [path, hits2] of [...hitsOf].sort(byPath)) {
    const old = baseOf.get(path);
    const baseFacts = old === void 0 ? void 0 : base.get(old);
    const before = new Set(baseFacts ? judgeHits(baseFacts, list2).map(hitKey) : []);
    const kept2 = [
      ...hits2.filter((h) => !before.has(hitKey(h))),
      ...hits2.filter((h) => before.has(hitKey(h)))
    ].slice(0, PER_FILE_CAP).sort((a, b) => a.line - b.line);
    kept2.forEach((hit, i2) => {
      const more = i2 === kept2.length - 1 && hits2.length > kept2.length ? ` (${hits2.length - kept2.length} more in this file)` : "";
      if (before.has(hitKey(hit))) {
        const message2 = `${describe2(hit)}, as it already did at the merge base (not introduced by this patch)${more}: ${ADVICE}`;
        reasons.push(reason(path, hit, "warning", message2));
      } else {
        reasons.push(reason(path, hit, level, `${describe2(hit)}${more}: ${ADVICE}`));
      }
    });
  }
  reasons.push(...await unchangedBaseTests(ctx, files, facts, list2));
  return reasons;
}
async function unchangedBaseTests(ctx, files, facts, list2) {
  const touched = /* @__PURE__ */ new Set();
  for (const row of ctx.writeSet) {
    touched.add(row.path);
    if (row.previous_path !== void 0) touched.add(row.previous_path);
  }
  const tests = [...(await ctx.trees.get(ctx.mergeBase)).values()].filter((e) => e.type === "blob" && !touched.has(e.path)).map((e) => e.path).filter((p) => languageOf2(p) !== void 0 && files.roleOf(p) === "test");
  const candidates = await grepFiles(
    ctx.git,
    ctx.mergeBase,
    tests,
    prefilterStrings(list2),
    ctx.tempDir
  );
  if (candidates.length === 0) return [];
  const base = await facts.at(ctx.mergeBase, candidates, "test");
  const flagged = [];
  for (const [path, f] of [...base].sort(byPath)) {
    const first = judgeHits(f, list2)[0];
    if (first) flagged.push([path, first]);
  }
  const reasons = flagged.slice(0, BASE_FILE_CAP).map(
    ([path, hit]) => reason(
      path,
      hit,
      "warning",
      `${describe2(hit)} at the merge base (a test this patch does not change; not counted against it): ${ADVICE}`
    )
  );
  if (flagged.length > BASE_FILE_CAP) {
    reasons.push({
      rule: "judge-import",
      level: "warning",
      message: `${flagged.length - BASE_FILE_CAP} more unchanged test file(s) at the merge base import an LLM client or name an LLM endpoint`
    });
  }
  return reasons;
}
var PATHS_PER_GREP = 1e3;
async function grepFiles(git, rev, paths2, strings, tempDir) {
  if (strings.length === 0 || paths2.length === 0) return [];
  const patterns = join2(tempDir, "judge-import.patterns");
  await writeFile(patterns, strings.join("\n") + "\n");
  const prefix = `${rev}:`;
  const found = [];
  for (let i2 = 0; i2 < paths2.length; i2 += PATHS_PER_GREP) {
    const part = paths2.slice(i2, i2 + PATHS_PER_GREP);
    for (const p of await git.grepFiles(rev, patterns, { ignoreCase: true, paths: part })) {
      found.push(p.startsWith(prefix) ? p.slice(prefix.length) : p);
    }
  }
  return found;
}
function describe2(hit) {
  return hit.kind === "import" ? `test imports ${hit.what}, an LLM client (judge list entry "${hit.entry}")` : `test names the LLM API host ${hit.what}`;
}
function reason(path, hit, level, message2) {
  return { rule: "judge-import", level, path, line: hit.line, message: message2 };
}
function hitKey(hit) {
  return `${hit.kind}\0${hit.what}`;
}
function byPath([a], [b]) {
  return byCodeUnit(a, b);
}

// src/lints/literal-overlap.ts
import { writeFile as writeFile2 } from "node:fs/promises";
import { join as join3 } from "node:path";

// src/lints/overlap.ts
function eligible(value, minLength, allow) {
  const trimmed = value.trim();
  return codePoints(trimmed) >= minLength && !allow.has(value) && !allow.has(trimmed);
}
function codePoints(s) {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
function findOverlaps(production, tests, keyLength) {
  const k = Math.max(1, keyLength);
  const index = /* @__PURE__ */ new Map();
  for (const p of production) {
    if (p.value.length < k) continue;
    const key4 = p.value.slice(0, k);
    let byLength = index.get(key4);
    if (!byLength) index.set(key4, byLength = /* @__PURE__ */ new Map());
    let byValue = byLength.get(p.value.length);
    if (!byValue) byLength.set(p.value.length, byValue = /* @__PURE__ */ new Map());
    if (!byValue.has(p.value)) byValue.set(p.value, p);
  }
  const overlaps = [];
  if (index.size === 0) return overlaps;
  for (const t of tests) {
    const seen = /* @__PURE__ */ new Set();
    const text2 = t.value;
    for (let i2 = 0; i2 + k <= text2.length; i2++) {
      const byLength = index.get(text2.slice(i2, i2 + k));
      if (!byLength) continue;
      for (const [length, byValue] of byLength) {
        if (i2 + length > text2.length) continue;
        const p = byValue.get(text2.slice(i2, i2 + length));
        if (p && !seen.has(p.value)) {
          seen.add(p.value);
          overlaps.push({ production: p, test: t });
        }
      }
    }
  }
  return overlaps;
}
function valuesFoundIn(values, texts, keyLength) {
  const found = /* @__PURE__ */ new Set();
  const k = Math.max(1, keyLength);
  const short2 = values.filter((v) => v.length < k);
  const long = values.filter((v) => v.length >= k);
  const direct2 = long.length <= 32 ? [...short2, ...long] : short2;
  for (const value of direct2) if (texts.some((text2) => text2.includes(value))) found.add(value);
  if (direct2.length === values.length) return found;
  const byKey = /* @__PURE__ */ new Map();
  for (const value of long) {
    const h = rollingHash(value, 0, k);
    let byLength = byKey.get(h);
    if (!byLength) byKey.set(h, byLength = /* @__PURE__ */ new Map());
    const bucket = byLength.get(value.length);
    if (bucket) bucket.add(value);
    else byLength.set(value.length, /* @__PURE__ */ new Set([value]));
  }
  let drop = 1;
  for (let i2 = 0; i2 < k; i2++) drop = Math.imul(drop, ROLL);
  for (const text2 of texts) {
    if (text2.length < k) continue;
    let h = rollingHash(text2, 0, k);
    for (let i2 = 0; ; i2++) {
      const byLength = byKey.get(h);
      if (byLength) {
        for (const [length, bucket] of byLength) {
          if (i2 + length > text2.length) continue;
          const candidate = text2.slice(i2, i2 + length);
          if (bucket.has(candidate)) found.add(candidate);
        }
      }
      if (i2 + k >= text2.length) break;
      h = Math.imul(h, ROLL) + text2.charCodeAt(i2 + k) - Math.imul(drop, text2.charCodeAt(i2)) | 0;
    }
    if (found.size === values.length) break;
  }
  return found;
}
var ROLL = 16777619;
function rollingHash(text2, from, length) {
  let h = 0;
  for (let i2 = from; i2 < from + length; i2++) h = Math.imul(h, ROLL) + text2.charCodeAt(i2) | 0;
  return h;
}

// src/lints/prefilter.ts
var MAX_WINDOW = 8;
var FNV_OFFSET = 2166136261 | 0;
var FNV_PRIME = 16777619;
function step(hash, code) {
  return Math.imul(hash ^ code, FNV_PRIME);
}
function candidateIndex(values, min) {
  const k = Math.max(1, Math.min(min, MAX_WINDOW));
  const hashes = /* @__PURE__ */ new Set();
  for (const value of values) {
    for (let i2 = 0; i2 < value.length; i2++) {
      let hash = FNV_OFFSET;
      const end = Math.min(value.length, i2 + k);
      for (let j = i2; j < end; j++) {
        hash = step(hash, value.charCodeAt(j));
        hashes.add(hash);
      }
    }
  }
  return { min: Math.max(1, min), k, hashes };
}
var BACKSLASH = 92;
var SINGLE = 39;
var DOUBLE = 34;
var BACKTICK = 96;
var DOLLAR = 36;
var OPEN = 123;
var CLOSE = 125;
var HASH = 35;
var LF = 10;
var CR = 13;
function isAnchor(code) {
  return code === SINGLE || code === DOUBLE || code === BACKTICK || code === CLOSE;
}
function isEnd(code) {
  return code === SINGLE || code === DOUBLE || code === BACKTICK || code === DOLLAR || code === OPEN;
}
function isQuote(code) {
  return code === SINGLE || code === DOUBLE;
}
function mayHoldOverlap(text2, python, index, base) {
  if (index.hashes.size === 0) return false;
  for (let s = 1; s <= text2.length; s++) {
    if (isAnchor(text2.charCodeAt(s - 1)) && pieceMayOverlap(text2, s, python, index, base))
      return true;
  }
  return false;
}
function pieceMayOverlap(text2, s, python, { min, k, hashes }, base) {
  const length = text2.length;
  let hash = FNV_OFFSET;
  const fresh = (end) => base === void 0 || !base.includes(text2.slice(s, end));
  for (let q = s; ; q++) {
    if (q >= length) return q - s >= min && fresh(q);
    const code = text2.charCodeAt(q);
    if (code === BACKSLASH) return true;
    if (q - s >= min && (isEnd(code) || nearLineEnd(text2, q)) && fresh(q)) return true;
    if (python) {
      if (isQuote(code) && q > s && concatenationMayFollow(text2, q)) return true;
      if ((code === OPEN || code === CLOSE) && text2.charCodeAt(q + 1) === code) return true;
    }
    if (q + 1 - s <= k) {
      hash = step(hash, code);
      if (!hashes.has(hash)) return false;
    } else {
      let window2 = FNV_OFFSET;
      for (let i2 = q + 1 - k; i2 <= q; i2++) window2 = step(window2, text2.charCodeAt(i2));
      if (!hashes.has(window2)) return false;
    }
  }
}
function nearLineEnd(text2, q) {
  for (let i2 = q + 1; i2 <= q + 3; i2++) {
    if (i2 >= text2.length) return true;
    const code = text2.charCodeAt(i2);
    if (code === LF || code === CR) return true;
  }
  return false;
}
function concatenationMayFollow(text2, q) {
  const length = text2.length;
  let r = q;
  while (r < length && isQuote(text2.charCodeAt(r))) r++;
  if (r - q !== 1) return true;
  while (r < length) {
    const code = text2.charCodeAt(r);
    if (code === BACKSLASH) return true;
    if (code === HASH) {
      while (r < length && text2.charCodeAt(r) !== LF && text2.charCodeAt(r) !== CR) r++;
    } else if (code <= 32 || code >= 127) r++;
    else break;
  }
  let p = r;
  while (p < length && p - r < 3 && isLetter(text2.charCodeAt(p))) p++;
  return p < length && isQuote(text2.charCodeAt(p));
}
function isLetter(code) {
  return code >= 65 && code <= 90 || code >= 97 && code <= 122;
}

// src/lints/literal-overlap.ts
var LIST_CAP = 5;
var GREP_CAP = 100;
async function literalOverlap(input, level) {
  const { ctx, files } = input;
  if (files.tests.length === 0 || files.production.length === 0) return [];
  const min = ctx.policy.lints.literal_min_length;
  const paired = await pairedLiterals(input, min);
  if (paired.overlaps.length === 0) return [];
  return toReasons(await newOverlaps(input, paired, min), level, min);
}
async function pairedLiterals(input, min) {
  const { ctx, files, facts } = input;
  const allow = new Set(ctx.policy.lints.literal_allow);
  const located = (map, role) => {
    const out2 = [];
    for (const [path, f] of map) {
      for (const l of valuesOf(f, role))
        if (eligible(l.value, min, allow)) out2.push({ value: l.value, path, line: l.line });
    }
    return out2;
  };
  const testPaths = files.tests.map((r) => r.path);
  const testLiterals = located(await facts.at(ctx.head, testPaths, "test"), "test");
  if (testLiterals.length === 0) return { overlaps: [], changedBase: /* @__PURE__ */ new Map() };
  const baseOfPath = /* @__PURE__ */ new Map();
  for (const row of files.production) {
    const old = basePath(row);
    if (old !== void 0) baseOfPath.set(row.path, old);
  }
  const changedBase = await changedBaseTexts(input, files.roleOf);
  const index = candidateIndex(
    testLiterals.map((l) => l.value),
    min
  );
  const productionLiterals = located(
    await facts.at(
      ctx.head,
      files.production.map((r) => r.path),
      "production",
      (path, language, text2) => {
        const old = baseOfPath.get(path);
        const base = old === void 0 ? void 0 : changedBase.get(old);
        return mayHoldOverlap(text2, language === "python", index, base);
      }
    ),
    "production"
  );
  return { overlaps: findOverlaps(productionLiterals, testLiterals, min), changedBase };
}
async function newOverlaps({ ctx, files, facts }, { overlaps: paired, changedBase }, min) {
  const changed = valuesFoundIn(productionValues(paired), [...changedBase.values()], min);
  let overlaps = paired.filter((o) => !changed.has(o.production.value));
  if (overlaps.length === 0) return [];
  const { mergeBase } = ctx;
  overlaps = await dropBaseValues(
    overlaps,
    (o) => o.production,
    files.production,
    mergeBase,
    facts,
    "production",
    min
  );
  overlaps = await dropBaseValues(overlaps, (o) => o.test, files.tests, mergeBase, facts, "test", min);
  if (overlaps.length === 0) return [];
  const values = productionValues(overlaps);
  if (values.length > GREP_CAP) {
    ctx.log.info(
      `literal-overlap: ${values.length} candidate literals; only the first ${GREP_CAP} are searched in the whole merge base (git grep slows down per pattern)`
    );
  }
  const inBase = await foundInBase(
    ctx.git,
    mergeBase,
    values.slice(0, GREP_CAP),
    files.roleOf,
    ctx.tempDir,
    min
  );
  return overlaps.filter((o) => !inBase.has(o.production.value));
}
function valuesOf(facts, role) {
  return role === "test" ? [...facts.literals, ...facts.patterns] : facts.literals;
}
function productionValues(overlaps) {
  return [...new Set(overlaps.map((o) => o.production.value))];
}
async function changedBaseTexts({ ctx, view }, roleOf2) {
  const paths2 = /* @__PURE__ */ new Set();
  for (const row of ctx.writeSet) {
    const old = basePath(row);
    if (old !== void 0 && roleOf2(old) !== "test") paths2.add(old);
  }
  const sizes = await view.sizesAt(ctx.mergeBase, [...paths2]);
  const readable = [...sizes].filter(([, size]) => size <= MAX_LINT_BLOB_BYTES).map(([p]) => p);
  const texts = /* @__PURE__ */ new Map();
  for (const [path, text2] of await view.textsAt(ctx.mergeBase, readable))
    if (!text2.includes("\0")) texts.set(path, text2);
  return texts;
}
async function dropBaseValues(overlaps, side, rows, mergeBase, facts, role, min) {
  const involved = /* @__PURE__ */ new Map();
  for (const o of overlaps) {
    const { path, value } = side(o);
    const list2 = involved.get(path);
    if (list2) list2.push(value);
    else involved.set(path, [value]);
  }
  const baseOf = /* @__PURE__ */ new Map();
  const wanted = /* @__PURE__ */ new Map();
  for (const row of rows) {
    const old = basePath(row);
    const values = involved.get(row.path);
    if (old === void 0 || values === void 0) continue;
    baseOf.set(row.path, old);
    wanted.set(old, [...wanted.get(old) ?? [], ...values]);
  }
  const base = await facts.at(
    mergeBase,
    [...wanted.keys()],
    role,
    role === "test" ? void 0 : (path, language, text2) => mayHoldOverlap(text2, language === "python", candidateIndex(wanted.get(path) ?? [], min))
  );
  const valuesAt = /* @__PURE__ */ new Map();
  for (const [path, old] of baseOf) {
    const f = base.get(old);
    if (f) valuesAt.set(path, new Set(valuesOf(f, role).map((l) => l.value)));
  }
  return overlaps.filter((o) => !valuesAt.get(side(o).path)?.has(side(o).value));
}
async function foundInBase(git, rev, values, roleOf2, tempDir, min) {
  const found = /* @__PURE__ */ new Set();
  const searchable = values.filter((v) => !v.includes("\n") && !v.includes("\r") && !v.includes("\0"));
  if (searchable.length === 0) return found;
  const patterns = join3(tempDir, "literal-overlap.patterns");
  await writeFile2(patterns, searchable.join("\n") + "\n");
  const prefix = `${rev}:`;
  const lines = [];
  for (const record of (await git.grepLines(rev, patterns)).split("\n")) {
    const nul = record.indexOf("\0");
    if (nul < 0) continue;
    const path = record.slice(prefix.length, nul);
    if (roleOf2(path) !== "test") lines.push(record.slice(nul + 1));
  }
  return valuesFoundIn(searchable, lines, min);
}
function toReasons(overlaps, level, min) {
  const byTest = /* @__PURE__ */ new Map();
  for (const o of overlaps) {
    const list2 = byTest.get(o.test.path);
    if (list2) list2.push(o);
    else byTest.set(o.test.path, [o]);
  }
  const reasons = [];
  for (const [path, list2] of [...byTest].sort(([a], [b]) => byCodeUnit(a, b))) {
    list2.sort((a, b) => a.test.line - b.test.line);
    const shown2 = list2.slice(0, LIST_CAP).map(
      (o) => `${quote(o.production.value)} (test line ${o.test.line}; ${o.production.path}:${o.production.line})`
    );
    const more = list2.length > LIST_CAP ? `, and ${list2.length - LIST_CAP} more` : "";
    reasons.push({
      rule: "literal-overlap",
      level,
      path,
      line: list2[0].test.line,
      message: `test repeats ${list2.length} string literal(s) that this patch adds to production code: ${shown2.join("; ")}${more}. A test that restates the patch's own strings checks the code against a copy of itself: derive the expected value independently (a spec, a fixture, a property), or list a deliberate shared constant in lints.literal_allow (literals shorter than ${min} characters are ignored).`
    });
  }
  return reasons;
}
function quote(value) {
  const shown2 = value.length > 60 ? `${value.slice(0, 57)}...` : value;
  return JSON.stringify(shown2);
}

// src/git/hunks.ts
var MAX_DIFF_HEADER_BYTES = 1024 * 1024;
async function addedLines(git, from, to, paths2, limit = () => Infinity) {
  const reader = new AddedLinesReader(limit);
  if (paths2 !== void 0 && paths2.length === 0) return reader.result();
  const chunks = paths2 === void 0 ? [void 0] : chunk(paths2, 500);
  for (const part of chunks) {
    await git.diffZeroContext(from, to, part, (piece) => reader.push(piece));
    reader.end();
  }
  return reader.result();
}
var PLUS = 43;
var MINUS = 45;
var SPACE = 32;
var NEWLINE = 10;
var AddedLinesReader = class {
  constructor(limit) {
    this.limit = limit;
  }
  limit;
  lines = /* @__PURE__ */ new Map();
  unread = /* @__PURE__ */ new Map();
  files = /* @__PURE__ */ new Map();
  current;
  currentPath = "";
  line = 0;
  // Lines still due in the current hunk (its header counts them): inside a hunk, an added
  // line that reads `++ x` is `+++ x` in the diff and must not be taken for a file header.
  oldLeft = 0;
  newLeft = 0;
  // The line being read: the pieces kept of it, their size, its whole size, how much of it
  // to keep (set by its first byte).
  parts = [];
  kept = 0;
  length = 0;
  keep = 0;
  push(piece) {
    let at2 = 0;
    while (at2 < piece.length) {
      const newline = piece.indexOf(NEWLINE, at2);
      const end = newline === -1 ? piece.length : newline;
      this.take(piece, at2, end);
      if (newline === -1) return;
      this.endLine();
      at2 = newline + 1;
    }
  }
  /** The diff is over: a last line without a newline ends here. */
  end() {
    if (this.length > 0) this.endLine();
    this.current = void 0;
    this.oldLeft = 0;
    this.newLeft = 0;
  }
  result() {
    return { lines: this.lines, unread: this.unread };
  }
  inHunk() {
    return this.oldLeft > 0 || this.newLeft > 0;
  }
  take(piece, from, to) {
    if (from === to) return;
    if (this.length === 0) this.keep = this.keepFor(piece[from]);
    const room = this.keep - this.kept;
    if (room > 0) {
      const part = piece.subarray(from, Math.min(to, from + room));
      this.parts.push(part);
      this.kept += part.length;
    }
    this.length += to - from;
    if (!this.inHunk() && this.length > MAX_DIFF_HEADER_BYTES)
      throw new GateError(
        `git diff printed a line of more than ${MAX_DIFF_HEADER_BYTES / 1024 / 1024} MiB outside a hunk (MAX_DIFF_HEADER_BYTES), which is not a diff the gate can read`
      );
  }
  /** How many bytes of a line starting with `first` to keep. */
  keepFor(first) {
    if (!this.inHunk()) return MAX_DIFF_HEADER_BYTES;
    const file = this.current;
    if (first !== PLUS || file === void 0 || this.unread.has(this.currentPath)) return 1;
    return 1 + Math.max(0, Math.min(file.limit - file.read - 1, Number.MAX_SAFE_INTEGER));
  }
  endLine() {
    const first = this.parts[0]?.[0];
    if (this.inHunk()) this.hunkLine(first);
    else this.headerLine(Buffer.concat(this.parts, this.kept).toString("utf8"));
    this.parts = [];
    this.kept = 0;
    this.length = 0;
  }
  hunkLine(first) {
    if (first === PLUS) {
      this.addLine();
      this.line += 1;
      this.newLeft -= 1;
    } else if (first === MINUS) {
      this.oldLeft -= 1;
    } else if (first === SPACE) {
      this.line += 1;
      this.oldLeft -= 1;
      this.newLeft -= 1;
    }
  }
  addLine() {
    const file = this.current;
    if (file === void 0) return;
    const cost = this.length;
    const unread = this.unread.get(this.currentPath);
    if (unread === void 0 && file.read + cost <= file.limit) {
      file.lines.set(this.line, Buffer.concat(this.parts, this.kept).subarray(1).toString("utf8"));
      file.read += cost;
    } else this.unread.set(this.currentPath, (unread ?? 0) + cost);
  }
  headerLine(raw) {
    if (raw.startsWith("diff --git ")) {
      this.current = void 0;
    } else if (raw.startsWith("+++ ")) {
      const target = raw.slice(4);
      if (target === "/dev/null") this.current = void 0;
      else {
        const path = unquote(target.replace(/\t$/, "")).replace(/^b\//, "");
        this.currentPath = path;
        this.current = this.fileState(path);
      }
    } else if (raw.startsWith("@@")) {
      const match = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(raw);
      this.line = match ? Number(match[2]) : 0;
      this.oldLeft = match ? Number(match[1] ?? 1) : 0;
      this.newLeft = match ? Number(match[3] ?? 1) : 0;
    }
  }
  fileState(path) {
    let file = this.files.get(path);
    if (file === void 0) {
      const lines = this.lines.get(path) ?? /* @__PURE__ */ new Map();
      this.lines.set(path, lines);
      file = { lines, limit: this.limit(path), read: 0 };
      this.files.set(path, file);
    }
    return file;
  }
};
function unquote(path) {
  if (!path.startsWith('"')) return path;
  const bytes = [];
  const body2 = path.slice(1, -1);
  for (let i2 = 0; i2 < body2.length; i2++) {
    const c = body2[i2];
    if (c !== "\\") {
      bytes.push(...Buffer.from(c, "utf8"));
      continue;
    }
    const next = body2[i2 + 1];
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body2.slice(i2 + 1, i2 + 4), 8));
      i2 += 3;
    } else {
      const map = {
        n: 10,
        t: 9,
        '"': 34,
        "\\": 92,
        a: 7,
        b: 8,
        f: 12,
        r: 13,
        v: 11
      };
      bytes.push(map[next] ?? next.charCodeAt(0));
      i2 += 1;
    }
  }
  return Buffer.from(bytes).toString("utf8");
}
function chunk(items, size) {
  const out2 = [];
  for (let i2 = 0; i2 < items.length; i2 += size) out2.push(items.slice(i2, i2 + size));
  return out2;
}

// src/lints/view.ts
var MAX_ADDED_TEXT_BYTES = MAX_LINT_BLOB_BYTES;
var ChangedFiles = class {
  /** @param rows the write set (only rows present at head in a source language count) */
  constructor(git, mergeBase, head, rows) {
    this.git = git;
    this.mergeBase = mergeBase;
    this.head = head;
    this.rows = rows;
  }
  git;
  mergeBase;
  head;
  rows;
  diff;
  sizes = /* @__PURE__ */ new Map();
  texts = /* @__PURE__ */ new Map();
  trees = /* @__PURE__ */ new Map();
  /** Files parsed in this run (each once), for the log. */
  parsed = 0;
  /**
   * Added lines of every written file, one `git diff -U0` per run. A new file larger than
   * MAX_ADDED_TEXT_BYTES is left out of the diff (see largeFile).
   */
  async added() {
    return (await this.addedText()).lines;
  }
  addedText() {
    this.diff ??= this.readAdded();
    return this.diff;
  }
  /** Added lines of one path (empty when the patch adds none). */
  async addedTo(path) {
    return (await this.added()).get(path) ?? /* @__PURE__ */ new Map();
  }
  /** The diff, streamed: of a file over MAX_LINT_BLOB_BYTES at head only its limit is kept. */
  async readAdded() {
    const written = this.rows.filter(
      (r) => r.status !== "deleted" && languageOf(r.path) !== void 0
    );
    const sizes = await this.sizesAt(
      this.head,
      written.map((r) => r.path)
    );
    const diffed = written.filter(
      (r) => !(r.status === "added" && (sizes.get(r.path) ?? 0) > MAX_ADDED_TEXT_BYTES)
    );
    const limit = (path) => (sizes.get(path) ?? 0) > MAX_LINT_BLOB_BYTES ? MAX_ADDED_TEXT_BYTES : Infinity;
    return addedLines(
      this.git,
      this.mergeBase,
      this.head,
      diffed.map((r) => r.path),
      limit
    );
  }
  /** Size of each regular file among `paths` at `rev` (listed once per run and path). */
  async sizesAt(rev, paths2) {
    const missing = [...new Set(paths2)].filter((p) => !this.sizes.has(key2(rev, p)));
    if (missing.length > 0) {
      const listed2 = await listBlobs(this.git, rev, missing);
      for (const p of missing) this.sizes.set(key2(rev, p), listed2.get(p)?.size ?? null);
    }
    const out2 = /* @__PURE__ */ new Map();
    for (const p of paths2) {
      const size = this.sizes.get(key2(rev, p));
      if (size !== null && size !== void 0) out2.set(p, size);
    }
    return out2;
  }
  /** Whether `path` at head is too large to read whole (a production file read by its added lines). */
  async isLarge(path) {
    return ((await this.sizesAt(this.head, [path])).get(path) ?? 0) > MAX_LINT_BLOB_BYTES;
  }
  /** The added lines of a large file, cut at MAX_ADDED_TEXT_BYTES of text as they were read. */
  async largeFile(path) {
    const size = (await this.sizesAt(this.head, [path])).get(path) ?? 0;
    const row = this.rows.find((r) => r.path === path);
    if (row?.status === "added" && size > MAX_ADDED_TEXT_BYTES)
      return { path, size, lines: /* @__PURE__ */ new Map(), unread: size };
    const { lines, unread } = await this.addedText();
    return { path, size, lines: lines.get(path) ?? /* @__PURE__ */ new Map(), unread: unread.get(path) ?? 0 };
  }
  /**
   * Text of each regular file among `paths` at `rev`, read in one batch for those not read
   * yet. The caller keeps large files out (readBlobs refuses them, naming the limit).
   */
  async textsAt(rev, paths2) {
    const missing = [...new Set(paths2)].filter((p) => !this.texts.has(key2(rev, p)));
    if (missing.length > 0) {
      const blobs = await readBlobs2(this.git, rev, missing);
      for (const p of missing) this.texts.set(key2(rev, p), blobs.get(p)?.toString("utf8") ?? null);
    }
    const out2 = /* @__PURE__ */ new Map();
    for (const p of paths2) {
      const text2 = this.texts.get(key2(rev, p));
      if (text2 !== null && text2 !== void 0) out2.set(p, text2);
    }
    return out2;
  }
  /**
   * The syntax tree of `path` at `rev`, parsed from `text` the first time any lint asks and
   * held until dispose(). The caller must not delete it.
   */
  async tree(rev, path, text2, language) {
    const k = `${key2(rev, path)}\0${language}`;
    const held = this.trees.get(k);
    if (held) return held;
    const tree = (await parserFor(language)).parse(text2);
    if (tree === null) throw new GateError(`tree-sitter could not parse ${path}`, { path });
    this.parsed++;
    this.trees.set(k, tree);
    return tree;
  }
  /** Frees every tree of the run. */
  dispose() {
    for (const tree of this.trees.values()) tree?.delete();
    this.trees.clear();
  }
};
function key2(rev, path) {
  return `${rev}\0${path}`;
}

// src/lints/reach/allow.ts
function allowList(entries, nocase) {
  const compiled2 = entries.map((e) => ({
    match: compileGlobs([e.path], nocase),
    categories: new Set(e.categories)
  }));
  return (path, category) => compiled2.some((e) => e.categories.has(category) && e.match(path));
}
var ENTRY_NAMES = /^(__main__\.py|cli\.(py|[cm]?[jt]s)|[\w-]+[_-]cli\.(py|[cm]?[jt]s))$/;
function entryPoints(basePackageJson, basePyproject = null) {
  const bins = /* @__PURE__ */ new Set([...packageEntries(basePackageJson), ...pyprojectEntries(basePyproject)]);
  return (path) => {
    const parts2 = path.split("/");
    const name2 = parts2[parts2.length - 1] ?? "";
    return bins.has(path) || ENTRY_NAMES.test(name2) || parts2.slice(0, -1).some((p) => p === "bin" || p === "cli");
  };
}
function packageEntries(text2) {
  if (text2 === null) return [];
  let manifest;
  try {
    manifest = JSON.parse(text2);
  } catch {
    return [];
  }
  const { bin, scripts } = manifest;
  const targets = typeof bin === "string" ? [bin] : bin && typeof bin === "object" ? Object.values(bin) : [];
  const out2 = targets.filter((t) => typeof t === "string");
  if (scripts && typeof scripts === "object") {
    for (const line2 of Object.values(scripts)) {
      if (typeof line2 !== "string") continue;
      const runs = /(?:^|[\s;&|(])(?:node|tsx|ts-node|bun|bun run|deno run)\s+(?:-\S+\s+)*([^\s;&|()]+\.[cm]?[jt]sx?)/g;
      for (const m of line2.matchAll(runs)) if (m[1]) out2.push(m[1]);
    }
  }
  return out2.map((t) => t.replace(/^\.\//, ""));
}
function pyprojectEntries(text2) {
  if (text2 === null) return [];
  const out2 = [];
  let inScripts = false;
  for (const raw of text2.split(/\r?\n/)) {
    const line2 = raw.trim();
    if (line2.startsWith("[")) {
      inScripts = line2 === "[project.scripts]" || line2 === "[tool.poetry.scripts]";
      continue;
    }
    const m = inScripts ? /^[\w.-]+\s*=\s*["']([\w.]+)(?::[\w.]+)?["']/.exec(line2) : null;
    if (m?.[1]) {
      const file = `${m[1].replace(/\./g, "/")}.py`;
      out2.push(file, `src/${file}`, `${m[1].replace(/\./g, "/")}/__init__.py`);
    }
  }
  return out2;
}

// src/lints/extract.ts
var PY_IMPORT_CALLS = /* @__PURE__ */ new Set([
  "__import__",
  "importlib.import_module",
  "import_module",
  "pytest.importorskip"
]);
var JS_MODULE_CALLS = /* @__PURE__ */ new Set([
  "require.resolve",
  "jest.mock",
  "jest.doMock",
  "jest.unmock",
  "jest.requireActual",
  "jest.requireMock",
  "vi.mock",
  "vi.doMock",
  "vi.unmock",
  "vi.importActual",
  "vi.importMock"
]);
var PYTHON_QUERY = `
(string) @string
(concatenated_string) @concat
(expression_statement (string) @bare)
(expression_statement (concatenated_string) @bare)
(import_statement) @import
(import_from_statement) @import_from
(call function: (_) @callee arguments: (argument_list . (string) @call_arg))
`;
var SCRIPT_QUERY = `
(string) @string
(template_string) @template
(expression_statement (string) @bare)
(import_statement) @import
(export_statement source: (string) @export_source)
(call_expression function: (_) @callee arguments: (arguments . [(string) (template_string)] @call_arg))
(regex pattern: (regex_pattern) @regex)
`;
var TYPESCRIPT_QUERY = `${SCRIPT_QUERY}
(ambient_declaration (module name: (string) @bare))
`;
var queries = /* @__PURE__ */ new Map();
function queryFor(tree, language) {
  let query = queries.get(language);
  if (query === void 0) {
    const source = language === "python" ? PYTHON_QUERY : language === "javascript" ? SCRIPT_QUERY : TYPESCRIPT_QUERY;
    query = new Query(tree.language, source);
    queries.set(language, query);
  }
  return query;
}
function extractFacts(tree, language) {
  const matches = queryFor(tree, language).matches(tree.rootNode);
  return language === "python" ? pythonFacts(matches) : scriptFacts(matches);
}
function hits(matches) {
  return matches.flatMap((m) => {
    const [first, second] = m.captures;
    if (!first) return [];
    return second ? [{ name: first.name, node: first.node, arg: second.node }] : [{ name: first.name, node: first.node }];
  });
}
function pythonFacts(matches) {
  const captures = hits(matches);
  const facts = { literals: [], imports: [], patterns: [] };
  const skip = /* @__PURE__ */ new Set();
  const bare = /* @__PURE__ */ new Set();
  for (const { name: name2, node, arg } of captures) {
    if (name2 === "bare") bare.add(node.id);
    else if (name2 === "concat") {
      for (const child of node.namedChildren) if (child) skip.add(child.id);
    } else if (name2 === "callee" && arg && PY_IMPORT_CALLS.has(node.text)) {
      skip.add(arg.id);
      const parts2 = pythonStringParts([arg]);
      if (parts2.length === 1 && parts2[0])
        facts.imports.push({ module: parts2[0].value, ecosystem: "python", line: line(node) });
    } else if (name2 === "import") {
      for (const n of node.childrenForFieldName("name")) {
        const dotted3 = n?.type === "aliased_import" ? n.childForFieldName("name") : n;
        if (dotted3)
          facts.imports.push({ module: dotted3.text, ecosystem: "python", line: line(node) });
      }
    } else if (name2 === "import_from") {
      const module2 = node.childForFieldName("module_name");
      if (module2 && module2.type === "dotted_name") {
        const names = node.childrenForFieldName("name").map((n) => (n?.type === "aliased_import" ? n.childForFieldName("name") : n)?.text).filter((n) => n !== void 0);
        facts.imports.push({ module: module2.text, names, ecosystem: "python", line: line(node) });
      }
    }
  }
  for (const { name: name2, node } of captures) {
    if (bare.has(node.id) || skip.has(node.id)) continue;
    if (name2 === "string") facts.literals.push(...pythonStringParts([node]));
    else if (name2 === "concat")
      facts.literals.push(
        ...pythonStringParts(node.namedChildren.filter((c) => c?.type === "string"))
      );
  }
  return facts;
}
function pythonStringParts(strings) {
  const parts2 = [];
  let value = "";
  let startLine = 0;
  const flush = () => {
    if (value !== "") parts2.push({ value, line: startLine });
    value = "";
  };
  for (const s of strings) {
    const text2 = s.text;
    const quoteAt = firstQuote(text2);
    const prefix = text2.slice(0, quoteAt).toLowerCase();
    const raw = prefix.includes("r");
    const formatted = prefix.includes("f") || prefix.includes("t");
    if (!formatted) {
      const quote3 = text2.startsWith(text2.charAt(quoteAt).repeat(3), quoteAt) ? 3 : 1;
      const body2 = text2.slice(quoteAt + quote3, text2.length - quote3);
      if (value === "") startLine = line(s);
      value += raw ? body2 : decodeEscapes(body2);
      continue;
    }
    for (const child of s.namedChildren) {
      if (!child) continue;
      if (child.type === "string_content") {
        if (value === "") startLine = line(child);
        const content = unbrace(child.text);
        value += raw ? content : decodeEscapes(content);
      } else if (child.type === "interpolation") {
        flush();
      }
    }
  }
  flush();
  return parts2;
}
function firstQuote(text2) {
  for (let i2 = 0; i2 < text2.length; i2++) if (text2[i2] === '"' || text2[i2] === "'") return i2;
  return 0;
}
function unbrace(text2) {
  return text2.includes("{{") || text2.includes("}}") ? text2.split("{{").join("{").split("}}").join("}") : text2;
}
function scriptFacts(matches) {
  const captures = hits(matches);
  const facts = { literals: [], imports: [], patterns: [] };
  const skip = /* @__PURE__ */ new Set();
  const npm = (module2, at2) => void facts.imports.push({ module: module2, ecosystem: "npm", line: line(at2) });
  for (const { name: name2, node, arg } of captures) {
    if (name2 === "bare") skip.add(node.id);
    else if (name2 === "import") {
      const source = node.childForFieldName("source") ?? requireClauseSource(node);
      if (source) {
        skip.add(source.id);
        npm(scriptStringValue(source), node);
      }
    } else if (name2 === "export_source") {
      skip.add(node.id);
      npm(scriptStringValue(node), node);
    } else if (name2 === "callee" && arg) {
      if (arg.type === "template_string" && !isStaticTemplate(arg)) continue;
      const callee = node.type === "import" ? "import" : node.text;
      if (callee === "import" || callee === "require") {
        npm(scriptStringValue(arg), node);
        skip.add(arg.id);
      } else if (JS_MODULE_CALLS.has(callee)) skip.add(arg.id);
    }
  }
  for (const { name: name2, node } of captures) {
    if (skip.has(node.id)) continue;
    if (name2 === "string") {
      const value = scriptStringValue(node);
      if (value !== "") facts.literals.push({ value, line: line(node) });
    } else if (name2 === "template") {
      facts.literals.push(...templateLiterals(node));
    } else if (name2 === "regex") {
      facts.patterns.push(...regexRuns(node));
    }
  }
  return facts;
}
function regexRuns(node) {
  const source = node.text;
  const runs = [];
  let value = "";
  const flush = () => {
    if (value !== "") runs.push({ value, line: line(node) });
    value = "";
  };
  for (let i2 = 0; i2 < source.length; i2++) {
    const c = source[i2];
    if (c === "\\") {
      const next = source[i2 + 1] ?? "";
      i2++;
      if (/[^A-Za-z0-9]/.test(next)) value += next;
      else flush();
    } else if ("*+?{".includes(c)) {
      value = value.slice(0, -1);
      flush();
      if (c === "{") while (i2 < source.length && source[i2] !== "}") i2++;
    } else if ("^$.|()[".includes(c)) {
      flush();
      if (c === "[") {
        while (i2 < source.length && source[i2] !== "]") i2 += source[i2] === "\\" ? 2 : 1;
      } else if (c === "(" && source[i2 + 1] === "?") {
        i2++;
        if (source[i2 + 1] === "<" && /[A-Za-z]/.test(source[i2 + 2] ?? "")) {
          while (i2 < source.length && source[i2] !== ">") i2++;
        } else i2++;
      }
    } else value += c;
  }
  flush();
  return runs;
}
function templateLiterals(node) {
  const text2 = node.text;
  if (!text2.includes("${")) {
    const value2 = decodeEscapes(text2.slice(1, -1));
    return value2 === "" ? [] : [{ value: value2, line: line(node) }];
  }
  const parts2 = [];
  let partLine = line(node);
  let value = "";
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === "template_substitution") {
      if (value !== "") parts2.push({ value: decodeEscapes(value), line: partLine });
      value = "";
    } else {
      if (value === "") partLine = line(child);
      value += child.text;
    }
  }
  if (value !== "") parts2.push({ value: decodeEscapes(value), line: partLine });
  return parts2;
}
function requireClauseSource(importStatement) {
  for (const child of importStatement.namedChildren) {
    if (child?.type === "import_require_clause") return child.childForFieldName("source");
  }
  return null;
}
function isStaticTemplate(node) {
  return !node.text.includes("${");
}
function scriptStringValue(node) {
  return decodeEscapes(node.text.slice(1, -1));
}
function line(node) {
  return node.startPosition.row + 1;
}
var SIMPLE_ESCAPES = {
  n: "\n",
  t: "	",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  "0": "\0",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "`": "`",
  $: "$",
  "\n": ""
};
function decodeEscapes(raw) {
  if (!raw.includes("\\")) return raw;
  let out2 = "";
  for (let i2 = 0; i2 < raw.length; i2++) {
    const c = raw[i2];
    if (c !== "\\" || i2 + 1 >= raw.length) {
      out2 += c;
      continue;
    }
    const next = raw[i2 + 1];
    if (next in SIMPLE_ESCAPES) {
      out2 += SIMPLE_ESCAPES[next];
      i2++;
      continue;
    }
    const hex = next === "x" ? 2 : next === "u" ? 4 : next === "U" ? 8 : 0;
    if (next === "u" && raw[i2 + 2] === "{") {
      const close = raw.indexOf("}", i2 + 3);
      const code = close > 0 ? Number.parseInt(raw.slice(i2 + 3, close), 16) : Number.NaN;
      if (Number.isInteger(code) && code <= 1114111) {
        out2 += String.fromCodePoint(code);
        i2 = close;
        continue;
      }
    } else if (hex > 0) {
      const digits = raw.slice(i2 + 2, i2 + 2 + hex);
      const code = digits.length === hex && /^[0-9a-fA-F]+$/.test(digits) ? Number.parseInt(digits, 16) : Number.NaN;
      if (Number.isInteger(code) && code <= 1114111) {
        out2 += String.fromCodePoint(code);
        i2 += 1 + hex;
        continue;
      }
    }
    out2 += c;
  }
  return out2;
}

// src/lints/tables.ts
var JS_TEST_FUNCTIONS = /* @__PURE__ */ new Set(["it", "test", "specify"]);
var JS_BENCH_FUNCTIONS = /* @__PURE__ */ new Set(["bench"]);
var JS_GROUP_FUNCTIONS = /* @__PURE__ */ new Set(["describe", "suite", "context"]);
var JS_MARKER_GLOBALS = {
  xit: { root: "it", only: false },
  xtest: { root: "test", only: false },
  xspecify: { root: "specify", only: false },
  xdescribe: { root: "describe", only: false },
  xcontext: { root: "context", only: false },
  fit: { root: "it", only: true },
  fdescribe: { root: "describe", only: true },
  fcontext: { root: "context", only: true }
};
var JS_TEST_MODIFIERS = /* @__PURE__ */ new Set([
  "only",
  "skip",
  "skipIf",
  "runIf",
  "todo",
  "fails",
  "failing"
]);
var JS_HOOKS = /* @__PURE__ */ new Set([
  "beforeEach",
  "afterEach",
  "beforeAll",
  "afterAll",
  "before",
  "after"
]);
var JS_TEST_MODULES = /* @__PURE__ */ new Set([
  "vitest",
  "@jest/globals",
  "node:test",
  "test",
  "mocha",
  "bun:test",
  "@playwright/test"
]);
var JS_GLOBAL_OBJECTS = /* @__PURE__ */ new Set([
  "globalThis",
  "global",
  "window",
  "self"
]);
var PY_TEST_FUNCTION = /^test/;
var PY_TEST_CLASS = /^Test/;
var PY_FRAMEWORK_MODULES = [
  "pytest",
  "_pytest",
  "pluggy",
  "hypothesis",
  "_hypothesis_pytestplugin",
  "unittest",
  "nose",
  "nose2",
  "xdist"
];
var PY_FRAMEWORK_PREFIXES = ["pytest_"];
var JS_FRAMEWORK_PACKAGES = [
  "vitest",
  "vite-node",
  "jest",
  "expect",
  "node:test",
  "mocha",
  "chai",
  "sinon",
  "jasmine",
  "ava",
  "tap",
  "uvu",
  "tinyspy",
  "fast-check",
  "@playwright/test"
];
var JS_FRAMEWORK_PREFIXES = [
  "@vitest/",
  "@jest/",
  "jest-",
  "chai-",
  "@sinonjs/",
  "@fast-check/"
];
var JS_RUNNER_GLOBALS = /* @__PURE__ */ new Set(["expect", "vi", "jest", "chai"]);
var JS_RUNNER_INTERNAL_STRINGS = [
  "expect-global",
  "$$jest-matchers-object",
  "jest-matchers",
  "$$jest",
  "jest-symbol-do-not-touch",
  "__vitest_",
  "vitest:",
  "__VITEST_"
];
var JS_RUNNER_PROTOCOL_NAMES = /* @__PURE__ */ new Set(["asymmetricMatch"]);
var JS_ASSERT_MODULES = /* @__PURE__ */ new Set(["assert", "assert/strict", "util"]);
var MARKER_PREFIXES = [
  "PYTEST",
  "_PYTEST",
  "VITEST",
  "JEST_",
  "NODE_TEST",
  "ORACLE_GATE",
  "MOCHA_",
  "HYPOTHESIS_"
];
var MARKER_EXACT = /* @__PURE__ */ new Set(["JEST", "PYTEST_CURRENT_TEST", "NODE_TEST_CONTEXT"]);
var REPORT_MARKERS = [
  "junitxml",
  "--junit",
  "outputfile.junit",
  "jest-junit",
  "jest_junit",
  "test-reporter-destination",
  "--test-reporter",
  "resultlog"
];
var RUNNER_NAMES = /* @__PURE__ */ new Set([
  "pytest",
  "_pytest",
  "py.test",
  "hypothesis",
  "unittest",
  "pluggy",
  "vitest",
  "jest",
  "mocha",
  "node:test",
  "--test",
  "jasmine",
  "ava"
]);
var PY_RUNTIME_SOURCES = [
  "sys.modules",
  "sys.argv",
  "sys.orig_argv",
  "sys.executable",
  "os.environ",
  "os.getenv",
  "sys.flags"
];
var JS_RUNTIME_SOURCES = [
  "process.argv",
  "process.execArgv",
  "process.env",
  "process.title",
  "process.mainModule",
  "require.cache",
  "require.main",
  "module.parent",
  "module.children"
];
var PY_INTROSPECTION = [
  "inspect.stack",
  "inspect.currentframe",
  "inspect.getouterframes",
  "inspect.getinnerframes",
  "inspect.getframeinfo",
  "inspect.trace",
  "sys._getframe",
  "sys._current_frames",
  "sys.settrace",
  "sys.setprofile",
  "sys.monitoring",
  "threading.settrace",
  "threading.setprofile",
  "gc.get_objects",
  "gc.get_referrers",
  "gc.get_referents",
  "traceback.extract_stack",
  "traceback.walk_stack",
  "traceback.format_stack",
  "traceback.print_stack"
];
var PY_FRAME_ATTRIBUTES = /* @__PURE__ */ new Set(["f_back", "f_locals", "f_globals"]);
var JS_INTROSPECTION = [
  "Error.prepareStackTrace",
  "arguments.callee",
  "arguments.caller",
  "process.binding",
  "process._linkedBinding",
  "process._getActiveHandles",
  "process._getActiveRequests",
  "v8.getHeapSnapshot",
  "v8.writeHeapSnapshot",
  "inspector",
  "Function.prototype.caller",
  "Function.prototype.arguments"
];
var PY_PROCESS_CALLS = [
  "os._exit",
  "os.abort",
  "signal.alarm",
  "signal.setitimer",
  "os.dup2"
];
var PY_PROCESS_EXEC_PREFIX = "os.exec";
var PY_PROCESS_HOOKS = [
  "sys.excepthook",
  "sys.unraisablehook",
  "threading.excepthook",
  "sys.stdout",
  "sys.stderr",
  "sys.__stdout__",
  "sys.__stderr__"
];
var PY_ENTRY_HABITS = ["atexit.register", "signal.signal", "sys.exit"];
var JS_PROCESS_CALLS = [
  "process.exit",
  "process.reallyExit",
  "process.abort",
  "process.removeAllListeners",
  "process.setUncaughtExceptionCaptureCallback",
  "process.emit"
];
var JS_PROCESS_LISTENERS = /* @__PURE__ */ new Set([
  "on",
  "once",
  "addListener",
  "prependListener",
  "prependOnceListener"
]);
var JS_PROCESS_EVENTS = /* @__PURE__ */ new Set([
  "exit",
  "beforeExit",
  "uncaughtException",
  "unhandledRejection",
  "uncaughtExceptionMonitor"
]);
var JS_PROCESS_ASSIGNED = [
  "process.exitCode",
  "process.stdout.write",
  "process.stderr.write",
  "process.exit"
];
var PY_COMPARISON_DUNDERS = /* @__PURE__ */ new Set([
  "__eq__",
  "__ne__",
  "__lt__",
  "__le__",
  "__gt__",
  "__ge__",
  "__contains__",
  "__instancecheck__",
  "__subclasscheck__"
]);
var PY_VALUE_TYPES = /* @__PURE__ */ new Set([
  "int",
  "float",
  "complex",
  "str",
  "bytes",
  "bool",
  "tuple",
  "list",
  "dict",
  "set",
  "frozenset",
  "decimal.Decimal",
  "fractions.Fraction",
  "Decimal",
  "Fraction"
]);
var PY_PATCHED_MODULES = /* @__PURE__ */ new Set(["builtins", "__builtins__", "operator", "math", "cmath"]);
var JS_BUILTIN_GLOBALS = /* @__PURE__ */ new Set([
  "Object",
  "Array",
  "String",
  "Number",
  "Boolean",
  "BigInt",
  "Symbol",
  "Function",
  "Promise",
  "Error",
  "Math",
  "JSON",
  "Reflect",
  "Map",
  "Set",
  "WeakMap",
  "Date",
  "RegExp",
  "Buffer"
]);
var JS_PRIMITIVE_WRAPPERS = /* @__PURE__ */ new Set(["Number", "String", "Boolean", "BigInt"]);

// src/lints/resolve/scope.ts
var Bindings = class {
  /** @param scopes node types that open a scope (the root's type among them) */
  constructor(scopes) {
    this.scopes = scopes;
  }
  scopes;
  sites = /* @__PURE__ */ new Map();
  bind(name2, scope, site) {
    let byScope = this.sites.get(name2);
    if (byScope === void 0) this.sites.set(name2, byScope = /* @__PURE__ */ new Map());
    const list2 = byScope.get(scope.id);
    if (list2) list2.push(site);
    else byScope.set(scope.id, [site]);
  }
  /** The declarations of `name` in the innermost scope around `from` that has any. */
  visible(name2, from) {
    const byScope = this.sites.get(name2);
    if (byScope === void 0) return void 0;
    for (let n = from; n !== null; n = n.parent) {
      const sites = this.scopes.has(n.type) ? byScope.get(n.id) : void 0;
      if (sites !== void 0) return sites;
    }
    return void 0;
  }
  /** The nearest node around `node` that opens a scope (the root when none does). */
  scopeOf(node) {
    let n = node;
    while (n.parent !== null && !this.scopes.has(n.type)) n = n.parent;
    return n;
  }
};
var NodeValues = class {
  constructor(compute) {
    this.compute = compute;
  }
  compute;
  memo = /* @__PURE__ */ new Map();
  of(node) {
    if (node === null) return void 0;
    if (this.memo.has(node.id)) return this.memo.get(node.id);
    this.memo.set(node.id, void 0);
    const value = this.compute(node);
    this.memo.set(node.id, value);
    return value;
  }
};

// src/lints/resolve/strings.ts
function stringMethod(value, method, args3) {
  const [a, b] = args3;
  switch (method) {
    case "lower":
    case "casefold":
    case "toLowerCase":
      return value.toLowerCase();
    case "upper":
    case "toUpperCase":
      return value.toUpperCase();
    case "strip":
    case "trim":
      return args3.length === 0 ? value.trim() : void 0;
    case "replace":
    case "replaceAll":
      return typeof a === "string" && typeof b === "string" ? value.split(a).join(b) : void 0;
    case "concat":
      return args3.every((x) => typeof x === "string") ? value + args3.join("") : void 0;
    case "repeat":
      return typeof a === "number" && a >= 0 && a * value.length <= 4096 ? value.repeat(a) : void 0;
    case "encode":
    case "decode":
    case "toString":
      return decodeAs(value, typeof a === "string" ? a : "utf-8");
    default:
      return void 0;
  }
}
function decodeAs(value, encoding) {
  const e = encoding.toLowerCase().replace(/[-_]/g, "");
  if (e === "utf8" || e === "ascii" || e === "latin1" || e === "binary") return value;
  if (e === "rot13") return rot13(value);
  if (e === "base64") return fromBase64(value);
  if (e === "hex") return fromHex(value);
  return void 0;
}
function rot13(value) {
  return value.replace(/[a-zA-Z]/g, (c) => {
    const base = c <= "Z" ? 65 : 97;
    return String.fromCharCode((c.charCodeAt(0) - base + 13) % 26 + base);
  });
}
function fromBase64(value) {
  const clean = value.replace(/\s/g, "").replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]*=*$/.test(clean)) return void 0;
  return Buffer.from(clean, "base64").toString("utf8");
}
function fromHex(value) {
  const clean = value.replace(/\s/g, "");
  if (!/^([0-9a-fA-F]{2})*$/.test(clean)) return void 0;
  return Buffer.from(clean, "hex").toString("utf8");
}
function fromCodes(codes) {
  if (!codes.every((c) => c !== void 0 && Number.isInteger(c) && c >= 0 && c <= 1114111))
    return void 0;
  return String.fromCodePoint(...codes);
}
function percentFormat(fmt, args3) {
  let i2 = 0;
  let ok = true;
  const out2 = fmt.replace(/%(%|s)/g, (_, kind) => {
    if (kind === "%") return "%";
    const next = args3[i2++];
    if (next === void 0) ok = false;
    return next ?? "";
  });
  return ok && i2 === args3.length && !/%[^%s]/.test(fmt) ? out2 : void 0;
}
function braceFormat(fmt, args3) {
  if (/[{}]/.test(fmt.replace(/\{\{|\}\}|\{\d*\}/g, ""))) return void 0;
  let auto = 0;
  let ok = true;
  const out2 = fmt.replace(/\{\{|\}\}|\{(\d*)\}/g, (whole, index) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    const value = args3[index === void 0 || index === "" ? auto++ : Number(index)];
    if (value === void 0) ok = false;
    return value ?? "";
  });
  return ok ? out2 : void 0;
}

// src/lints/resolve/script.ts
var OPAQUE = { kind: "opaque" };
var JS_SCOPES = /* @__PURE__ */ new Set([
  "program",
  "function_declaration",
  "function_expression",
  "function",
  "arrow_function",
  "method_definition",
  "generator_function",
  "generator_function_declaration"
]);
var ScriptResolver = class {
  constructor(root, domain) {
    this.domain = domain;
    for (const node of root.descendantsOfType([
      "import_statement",
      "variable_declarator",
      "assignment_expression",
      "formal_parameters",
      "arrow_function"
    ])) {
      if (node) this.declare(node);
    }
  }
  domain;
  sites = new Bindings(JS_SCOPES);
  values = new NodeValues((node) => this.compute(node));
  resolving = /* @__PURE__ */ new Set();
  valueOf(node) {
    return this.values.of(node ?? null);
  }
  stringOf(node) {
    const value = this.valueOf(node);
    return value?.kind === "string" ? value.value : void 0;
  }
  /** Whether a scope around `name` declares it with a value the resolver follows. */
  bound(name2) {
    const sites = this.sites.visible(identifierName(name2), name2);
    return sites !== void 0 && sites.some((site) => this.siteValue(site) !== void 0);
  }
  /** The expression a name is declared with as a whole (`const opts = { skip: true }`). */
  declaration(name2) {
    const sites = this.sites.visible(identifierName(name2), name2);
    const site = sites?.find((s) => s.kind === "expr" && s.key.length === 0);
    return site?.kind === "expr" ? site.node : null;
  }
  /** A property key's name: an identifier, a string, a computed key that folds to one. */
  propertyKey(node) {
    if (node === null) return void 0;
    if (node.type === "property_identifier" || node.type === "identifier")
      return identifierName(node);
    if (node.type === "computed_property_name") return this.stringOf(node.namedChildren[0]);
    return this.stringOf(node);
  }
  // ------------------------------------------------------------ declarations
  declare(node) {
    if (node.type === "import_statement") return this.declareImport(node);
    if (node.type === "formal_parameters") return this.declareParams(node);
    if (node.type === "arrow_function") {
      const param = node.childForFieldName("parameter");
      if (param) this.bindPattern(param, node, (key4) => paramSite(node, param, key4, 0));
      return;
    }
    const target = node.childForFieldName(node.type === "variable_declarator" ? "name" : "left");
    const value = node.childForFieldName(node.type === "variable_declarator" ? "value" : "right");
    if (!target) return;
    this.bindPattern(
      target,
      scopeOf(node),
      (key4) => value ? { kind: "expr", node: value, key: key4 } : OPAQUE
    );
  }
  declareImport(node) {
    const source = node.childForFieldName("source");
    const specifier = source === null ? void 0 : stringValue(source);
    const scope = scopeOf(node);
    for (const clause of node.namedChildren) {
      if (clause?.type !== "import_clause") continue;
      for (const part of clause.namedChildren) {
        if (!part) continue;
        const site = (take) => specifier === void 0 ? OPAQUE : { kind: "import", specifier, take };
        if (part.type === "identifier") this.site(part, scope, site("default"));
        else if (part.type === "namespace_import") {
          const name2 = part.namedChildren.find((c) => c?.type === "identifier");
          if (name2) this.site(name2, scope, site("namespace"));
        } else if (part.type === "named_imports") {
          for (const spec of part.namedChildren) {
            const imported = spec?.childForFieldName("name");
            const local = spec?.childForFieldName("alias") ?? imported;
            if (imported && local) this.site(local, scope, site({ name: identifierName(imported) }));
          }
        }
      }
    }
  }
  declareParams(params) {
    const fn = params.parent;
    params.namedChildren.forEach((param, i2) => {
      if (!param || !fn) return;
      const pattern = param.type === "required_parameter" || param.type === "optional_parameter" ? param.childForFieldName("pattern") : param;
      if (pattern) this.bindPattern(pattern, fn, (key4) => paramSite(fn, pattern, key4, i2));
    });
  }
  /** Binds every name a pattern declares; `key` is the member path to it from the value. */
  bindPattern(pattern, scope, site, key4 = []) {
    const inner = (child, how, path) => this.bindPattern(child, scope, how, path);
    switch (pattern.type) {
      case "identifier":
        this.site(pattern, scope, site(key4));
        return;
      case "assignment_pattern":
      case "object_assignment_pattern": {
        const left = pattern.childForFieldName("left") ?? pattern.namedChildren[0];
        if (left) inner(left, site, key4);
        return;
      }
      case "shorthand_property_identifier_pattern":
        this.site(pattern, scope, site([...key4, identifierName(pattern)]));
        return;
      case "pair_pattern": {
        const name2 = this.propertyKey(pattern.childForFieldName("key"));
        const value = pattern.childForFieldName("value");
        if (value) inner(value, name2 === void 0 ? () => OPAQUE : site, [...key4, name2 ?? ""]);
        return;
      }
      case "object_pattern":
      case "array_pattern":
        for (const child of pattern.namedChildren) {
          if (child) inner(child, pattern.type === "array_pattern" ? () => OPAQUE : site, key4);
        }
        return;
      case "rest_pattern":
        for (const child of pattern.namedChildren) if (child) inner(child, () => OPAQUE, key4);
        return;
      default:
        return;
    }
  }
  site(name2, scope, site) {
    this.sites.bind(identifierName(name2), scope, site);
  }
  // ------------------------------------------------------------ values
  compute(node) {
    switch (node.type) {
      case "identifier":
      case "shorthand_property_identifier":
        return this.lookup(identifierName(node), node);
      case "this":
        return this.domain.this?.();
      case "member_expression": {
        const property = node.childForFieldName("property");
        const object = this.valueOf(node.childForFieldName("object"));
        return property ? this.member(object, identifierName(property)) : void 0;
      }
      case "subscript_expression": {
        const index = this.stringOf(node.childForFieldName("index"));
        const object = this.valueOf(node.childForFieldName("object"));
        return index === void 0 ? void 0 : this.member(object, index);
      }
      case "call_expression": {
        const specifier = requiredModule(node, (n) => this.stringOf(n));
        if (specifier !== void 0) return this.domain.module(specifier);
        const folded = this.foldCall(node);
        if (folded !== void 0) return folded;
        const reflected = this.reflectGet(node);
        if (reflected !== void 0) return reflected;
        return this.domain.call?.(this.valueOf(node.childForFieldName("function")), node, this);
      }
      case "string":
        return str(stringValue(node) ?? "");
      case "template_string":
        return this.template(node);
      case "binary_expression":
        return this.binary(node);
      case "ternary_expression":
        return this.domain.join([
          this.valueOf(node.childForFieldName("consequence")),
          this.valueOf(node.childForFieldName("alternative"))
        ]);
      case "parenthesized_expression":
      case "sequence_expression":
      case "as_expression":
      case "satisfies_expression":
      case "non_null_expression":
      case "type_assertion":
      case "await_expression":
        return this.valueOf(lastExpression(node));
      default:
        return void 0;
    }
  }
  // ------------------------------------------------------------ strings built at run time
  /** A template whose every substitution folds. */
  template(node) {
    let out2 = "";
    let at2 = node.startIndex + 1;
    for (const sub of node.namedChildren) {
      if (sub?.type !== "template_substitution") continue;
      out2 += decodeEscapes(node.text.slice(at2 - node.startIndex, sub.startIndex - node.startIndex));
      const part = this.stringOf(sub.namedChildren[0]);
      if (part === void 0) return void 0;
      out2 += part;
      at2 = sub.endIndex;
    }
    return str(out2 + decodeEscapes(node.text.slice(at2 - node.startIndex, -1)));
  }
  /** The strings of an array built from constants: a literal, `s.split(x)`, `[...s]`, `.reverse()`. */
  stringsOf(node) {
    if (!node) return void 0;
    if (node.type === "parenthesized_expression") return this.stringsOf(lastExpression(node));
    if (node.type === "array") {
      const out2 = [];
      for (const item of node.namedChildren) {
        if (item?.type === "spread_element") {
          const text3 = this.stringOf(item.namedChildren[0]);
          if (text3 === void 0) return void 0;
          out2.push(...text3);
          continue;
        }
        const text2 = this.stringOf(item);
        if (text2 === void 0) return void 0;
        out2.push(text2);
      }
      return out2;
    }
    if (node.type !== "call_expression") return void 0;
    const fn = node.childForFieldName("function");
    const args3 = callArguments(node);
    if (fn?.type !== "member_expression") return void 0;
    const method = fn.childForFieldName("property")?.text;
    const object = fn.childForFieldName("object");
    if (method === "split") {
      const text2 = this.stringOf(object);
      const sep3 = this.stringOf(args3[0]);
      return text2 === void 0 || sep3 === void 0 ? void 0 : text2.split(sep3);
    }
    if (method === "reverse") return this.stringsOf(object)?.reverse();
    if (method === "from" && object?.text === "Array") {
      const text2 = this.stringOf(args3[0]);
      return text2 === void 0 ? void 0 : [...text2];
    }
    return void 0;
  }
  /** A call that builds a string from constants: string methods, `join`, decoders, char codes. */
  foldCall(node) {
    const fn = node.childForFieldName("function");
    const args3 = callArguments(node);
    const strings = args3.map((a) => this.stringOf(a));
    if (fn?.type === "identifier") {
      const name2 = identifierName(fn);
      if (this.sites.visible(name2, fn) !== void 0 || strings[0] === void 0) return void 0;
      const value2 = globalDecoder(name2, strings[0]);
      return value2 === void 0 ? void 0 : str(value2);
    }
    if (fn?.type !== "member_expression") return void 0;
    const method = fn.childForFieldName("property")?.text ?? "";
    const object = fn.childForFieldName("object");
    if (method === "join") {
      const parts2 = this.stringsOf(object);
      const sep3 = args3.length === 0 ? "," : strings[0];
      return parts2 === void 0 || sep3 === void 0 ? void 0 : str(parts2.join(sep3));
    }
    if ((method === "fromCharCode" || method === "fromCodePoint") && object?.text === "String") {
      const value2 = fromCodes(args3.map(numberOf));
      return value2 === void 0 ? void 0 : str(value2);
    }
    const self = this.bufferText(object) ?? this.stringOf(object);
    if (self === void 0) return void 0;
    const value = stringMethod(
      self,
      method,
      args3.map((a, i2) => strings[i2] ?? numberOf(a))
    );
    return value === void 0 ? void 0 : str(value);
  }
  /** `Reflect.get(o, k)` is `o[k]`. */
  reflectGet(node) {
    if (node.childForFieldName("function")?.text !== "Reflect.get") return void 0;
    const [object, key4] = callArguments(node);
    const name2 = this.stringOf(key4);
    return name2 === void 0 ? void 0 : this.member(this.valueOf(object), name2);
  }
  /** `Buffer.from(s, encoding)`: the text it holds. */
  bufferText(node) {
    if (node?.type !== "call_expression") return void 0;
    const fn = node.childForFieldName("function");
    if (fn?.text !== "Buffer.from") return void 0;
    const [data, encoding] = callArguments(node).map((a) => this.stringOf(a));
    return data === void 0 ? void 0 : decodeAs(data, encoding ?? "utf8");
  }
  member(object, name2) {
    return object === void 0 || object.kind === "string" ? void 0 : this.domain.member(object, name2);
  }
  binary(node) {
    const operator = node.childForFieldName("operator")?.text;
    const left = this.valueOf(node.childForFieldName("left"));
    const right = this.valueOf(node.childForFieldName("right"));
    if (operator === "+" && left?.kind === "string" && right?.kind === "string")
      return str(left.value + right.value);
    if (operator === "||" || operator === "&&" || operator === "??")
      return this.domain.join([left, right]);
    return void 0;
  }
  /** The value of a name where `from` reads it: its innermost declaring scope decides. */
  lookup(name2, from) {
    const sites = this.sites.visible(name2, from);
    if (sites === void 0) return this.domain.global(name2);
    if (this.resolving.has(name2)) return void 0;
    this.resolving.add(name2);
    try {
      const value = this.domain.join(sites.map((site) => this.siteValue(site)));
      if (value === void 0 && this.domain.unknownLocal === "global")
        return this.domain.global(name2);
      return value;
    } finally {
      this.resolving.delete(name2);
    }
  }
  siteValue(site) {
    switch (site.kind) {
      case "opaque":
        return void 0;
      case "import": {
        const module2 = this.domain.module(site.specifier);
        if (module2 === void 0 || site.take === "namespace") return module2;
        if (site.take === "default")
          return this.domain.defaultImport ? this.domain.defaultImport(module2) : module2;
        return this.domain.member(module2, site.take.name);
      }
      case "expr":
      case "param": {
        const base = site.kind === "expr" ? this.valueOf(site.node) : this.domain.parameter?.(site.fn, site.name, this);
        return site.key.reduce(
          (value, prop) => this.member(value, prop),
          base
        );
      }
    }
  }
};
function paramSite(fn, pattern, key4, position) {
  if (position > 0) return OPAQUE;
  const name2 = pattern.type === "identifier" ? identifierName(pattern) : "context";
  return { kind: "param", fn, name: name2, key: key4 };
}
function requiredModule(call, fold2) {
  const fn = call.childForFieldName("function");
  if (!fn || fn.type !== "import" && !/(^|\.)require$|Require$/.test(fn.text)) return void 0;
  const arg = call.childForFieldName("arguments")?.namedChildren[0];
  return arg ? scriptStringValue2(arg) ?? fold2?.(arg) : void 0;
}
function scopeOf(node) {
  let n = node;
  while (n.parent !== null && !JS_SCOPES.has(n.type)) n = n.parent;
  return n;
}
function identifierName(node) {
  const text2 = node.text;
  if (!text2.includes("\\")) return text2;
  return text2.replace(
    /\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g,
    (_m, braced, four) => String.fromCodePoint(Number.parseInt(braced ?? four ?? "0", 16))
  );
}
function stringValue(node) {
  if (node.type !== "string") return void 0;
  return decodeEscapes(node.text.slice(1, -1));
}
function scriptStringValue2(node) {
  if (node.type === "string") return decodeEscapes(node.text.slice(1, -1));
  if (node.type === "template_string" && node.descendantsOfType("template_substitution").length === 0)
    return decodeEscapes(node.text.slice(1, -1));
  return void 0;
}
function lastExpression(node) {
  const named = node.namedChildren.filter((c) => c !== null && !c.type.startsWith("type"));
  if (node.type === "as_expression" || node.type === "satisfies_expression") return named[0] ?? null;
  return named[named.length - 1] ?? null;
}
function callArguments(call) {
  return (call.childForFieldName("arguments")?.namedChildren ?? []).filter(Boolean);
}
function numberOf(node) {
  if (node?.type !== "number") return void 0;
  const value = Number(node.text.replace(/_/g, ""));
  return Number.isFinite(value) ? value : void 0;
}
function globalDecoder(name2, value) {
  if (name2 === "atob") return fromBase64(value);
  if (name2 === "String") return value;
  if (name2 === "decodeURIComponent" || name2 === "decodeURI" || name2 === "unescape") {
    try {
      return decodeURIComponent(value);
    } catch {
      return void 0;
    }
  }
  return void 0;
}
function str(value) {
  return { kind: "string", value };
}

// src/lints/reach/syntax.ts
function* descendants(root, within) {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    yield node;
    const children = node.namedChildren;
    for (let i2 = children.length - 1; i2 >= 0; i2--) {
      const child = children[i2];
      if (child && (within === void 0 || within(child))) stack.push(child);
    }
  }
}
function byType(...groups) {
  const table = {};
  for (const [types, detect2] of groups) for (const type of types) table[type] = detect2;
  return table;
}
function detectFile(root, names, ctx, detectors, mainGuard) {
  return markMainOnly(root, detectAll(root, names, ctx, detectors), (c) => mainGuard.test(c));
}
function detectAll(root, names, ctx, detectors) {
  const out2 = [];
  for (const node of descendants(root, ctx.within)) {
    const detect2 = Object.hasOwn(detectors, node.type) ? detectors[node.type] : void 0;
    if (detect2) out2.push(...detect2(node, names, ctx));
  }
  return out2;
}
function touchingLines(lines) {
  return (node) => {
    const start2 = node.startPosition.row + 1;
    const end = node.endPosition.row + 1;
    let lo = 0;
    let hi = lines.length;
    while (lo < hi) {
      const mid = lo + hi >> 1;
      if (lines[mid] < start2) lo = mid + 1;
      else hi = mid;
    }
    return lo < lines.length && lines[lo] <= end;
  };
}
function queryNodes(root, source) {
  const language = root.tree.language;
  let perLanguage = compiled.get(source);
  if (perLanguage === void 0) {
    perLanguage = /* @__PURE__ */ new Map();
    compiled.set(source, perLanguage);
  }
  let query = perLanguage.get(language);
  if (query === void 0) {
    query = new Query(language, source);
    perLanguage.set(language, query);
  }
  return query.captures(root).map((c) => c.node);
}
var compiled = /* @__PURE__ */ new Map();
function lineOf(node) {
  return node.startPosition.row + 1;
}
function finding(category, node, what, extra = {}) {
  return { category, start: lineOf(node), end: node.endPosition.row + 1, what, ...extra };
}
function quote2(value, max = 60) {
  const cut = value.length > max ? `${value.slice(0, max)}\u2026` : value;
  return JSON.stringify(cut);
}
function pythonStringRuns(node) {
  if (node.type === "concatenated_string") {
    const runs2 = [];
    for (const child of node.namedChildren) if (child) runs2.push(...pythonStringRuns(child));
    return runs2;
  }
  if (node.type !== "string") return [];
  const text2 = node.text;
  const quoteAt = text2.search(/["']/);
  const prefix = text2.slice(0, Math.max(quoteAt, 0)).toLowerCase();
  const raw = prefix.includes("r");
  const runs = [];
  let run2 = "";
  for (const child of node.namedChildren) {
    if (child?.type === "string_content") run2 += raw ? child.text : decodeEscapes(child.text);
    else if (child?.type === "interpolation") {
      if (run2 !== "") runs.push(run2);
      run2 = "";
    }
  }
  if (run2 !== "") runs.push(run2);
  return runs;
}
function pythonStringValue(node) {
  if (node.type !== "string" && node.type !== "concatenated_string") return void 0;
  if (node.descendantsOfType("interpolation").length > 0) return void 0;
  return pythonStringRuns(node).join("");
}
function scriptStringRuns(node) {
  if (node.type === "string") return [decodeEscapes(node.text.slice(1, -1))];
  if (node.type !== "template_string") return [];
  const runs = [];
  let run2 = "";
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === "template_substitution") {
      if (run2 !== "") runs.push(decodeEscapes(run2));
      run2 = "";
    } else run2 += child.text;
  }
  if (run2 !== "") runs.push(decodeEscapes(run2));
  return runs;
}
function isMarkerName(value) {
  if (!/^_?[A-Z][A-Z0-9_]*$/.test(value)) return false;
  return MARKER_EXACT.has(value) || MARKER_PREFIXES.some((p) => value.startsWith(p));
}
function reportMarker(value) {
  const lower2 = value.toLowerCase();
  return REPORT_MARKERS.find((m) => lower2.includes(m));
}
function runFindings(node, run2, markers) {
  const out2 = [];
  if (markers && isMarkerName(run2.trim()))
    out2.push(finding("markers", node, `reads the runner or gate marker ${quote2(run2.trim())}`));
  const report = reportMarker(run2);
  if (report !== void 0)
    out2.push(finding("markers", node, `names the runner's report option ${quote2(report)}`));
  return out2;
}
function builtStringFindings(node, value, readsRuntime, ctx) {
  const out2 = runFindings(node, value, true);
  if (namesRunner(value) && readsRuntime())
    out2.push(
      finding(
        "markers",
        node,
        `checks whether ${quote2(value.trim())} is running (a name built at run time)`
      )
    );
  out2.push(...instrumentFindings(node, [value], ctx));
  return out2;
}
function instrumentFindings(node, candidates, ctx) {
  for (const candidate of candidates) {
    const named = ctx.instrumentName(candidate);
    if (named !== void 0)
      return [finding("instrument", node, `names the instrument path ${quote2(named)}`)];
  }
  return [];
}
function usesFindings(path, node, introspection, exits, habit) {
  const reads = pathMatches(path, introspection);
  if (reads !== void 0)
    return [
      finding("introspection", node, `uses ${reads}, which reads callers, frames or the heap`)
    ];
  const exit = pathMatches(path, exits);
  if (exit === void 0) return [];
  const what = `uses ${exit}, which ends or rewires the runner's process`;
  return [
    habit === void 0 ? finding("process", node, what) : finding("process", node, what, { entryPointHabit: exit === habit })
  ];
}
function namesRunner(value) {
  const lower2 = value.trim().toLowerCase();
  if (RUNNER_NAMES.has(lower2)) return true;
  const last = lower2.split(/[\\/]/).pop() ?? "";
  return RUNNER_NAMES.has(last.replace(/\.(exe|js|mjs|cjs|py)$/, ""));
}
function moduleMatches(name2, modules, prefixes, separator) {
  const exact = modules.find((m) => name2 === m || name2.startsWith(m + separator));
  return exact ?? prefixes.find((p) => name2.startsWith(p));
}
function pathMatches(path, patterns) {
  return patterns.find((p) => path === p || path.startsWith(p + "."));
}
function markMainOnly(root, findings, isMainGuard) {
  const ranges = [];
  for (const statement of root.namedChildren) {
    if (statement?.type !== "if_statement") continue;
    const condition = statement.childForFieldName("condition");
    const body2 = statement.childForFieldName("consequence");
    if (condition && body2 && isMainGuard(condition.text.replace(/^\((.*)\)$/s, "$1").trim()))
      ranges.push([body2.startPosition.row + 1, body2.endPosition.row + 1]);
  }
  if (ranges.length === 0) return findings;
  return findings.map(
    (f) => f.category === "process" && ranges.some(([a, b]) => f.start >= a && f.end <= b) ? { ...f, mainOnly: true } : f
  );
}

// src/lints/reach/cases.ts
function trivial(key4) {
  if (key4.startsWith("n:")) return ["0", "1", "-1"].includes(key4.slice(2));
  return key4.slice(2).trim().length <= 1;
}
function distinctive(key4) {
  if (key4.startsWith("s:")) return key4.slice(2).trim().length >= 3;
  const n = Number(key4.slice(2));
  return !Number.isInteger(n) || Math.abs(n) >= 100;
}
function numberKey(text2) {
  const clean = text2.replace(/_/g, "").replace(/n$/, "").replace(/[jJ]$/, "");
  const n = /^0[oO]/.test(clean) ? Number.parseInt(clean.slice(2), 8) : Number(clean);
  return Number.isFinite(n) ? `n:${n}` : void 0;
}
function constantKey(node, language) {
  const t = node.type;
  if (t === "integer" || t === "float" || t === "number") return numberKey(node.text);
  if (t === "string" || t === "concatenated_string" || t === "template_string") {
    const value = language === "python" ? pythonStringValue(node) : scriptStringValue2(node);
    return value === void 0 ? void 0 : `s:${value}`;
  }
  if ((t === "unary_operator" || t === "unary_expression") && node.text.startsWith("-")) {
    const inner = node.namedChildren[0];
    const key4 = inner ? constantKey(inner, language) : void 0;
    return key4?.startsWith("n:") ? `n:${-Number(key4.slice(2))}` : void 0;
  }
  return void 0;
}
function isFieldName(node) {
  const parent = node.parent;
  if (parent?.type === "subscript") return parent.childForFieldName("subscript")?.id === node.id;
  if (parent?.type === "subscript_expression")
    return parent.childForFieldName("index")?.id === node.id;
  return false;
}
function constantsIn(nodes, language, computes) {
  const out2 = [];
  for (const root of nodes) {
    if (root) {
      for (const { key: key4, node } of constantNodes(root, language))
        if (!computes || !scalesAValue(node, language)) out2.push({ key: key4, line: lineOf(node) });
    }
  }
  return out2;
}
var PY_ARITHMETIC = /* @__PURE__ */ new Set(["binary_operator", "augmented_assignment"]);
var PY_RECOGNISING = /* @__PURE__ */ new Set([
  "comparison_operator",
  "boolean_operator",
  "not_operator",
  "conditional_expression"
]);
var JS_ARITHMETIC_OPS = /* @__PURE__ */ new Set(["+", "-", "*", "/", "%", "**", "<<", ">>", ">>>", "&", "|", "^"]);
var VALUE_TYPES = /* @__PURE__ */ new Set([
  "identifier",
  "attribute",
  "member_expression",
  "subscript",
  "subscript_expression",
  "call",
  "call_expression",
  "this",
  "self"
]);
function isArithmetic(node, language) {
  if (language === "python") return PY_ARITHMETIC.has(node.type);
  if (node.type !== "binary_expression" && node.type !== "augmented_assignment_expression")
    return false;
  const op = (node.childForFieldName("operator")?.text ?? "").replace(/=$/, "");
  return JS_ARITHMETIC_OPS.has(op);
}
function isRecognising(node, language) {
  if (language === "python") return PY_RECOGNISING.has(node.type);
  if (node.type === "ternary_expression") return true;
  if (node.type === "unary_expression") return node.childForFieldName("operator")?.text === "!";
  return node.type === "binary_expression" && !isArithmetic(node, language);
}
var PY_EQUALITY = /* @__PURE__ */ new Set(["==", "!=", "in", "not in", "is", "is not"]);
var JS_EQUALITY = /* @__PURE__ */ new Set(["==", "===", "!=", "!==", "in"]);
function testsEquality(test, language) {
  if (test === null) return true;
  for (const node of descendants(test)) {
    if (language === "python" && node.type === "comparison_operator") {
      if (node.children.some((c) => c !== null && PY_EQUALITY.has(c.type))) return true;
    } else if (language !== "python" && node.type === "binary_expression") {
      if (JS_EQUALITY.has(node.childForFieldName("operator")?.text ?? "")) return true;
    }
  }
  return false;
}
function offsetsAValue(node, language) {
  if (!isArithmetic(node, language)) return false;
  const op = node.childForFieldName("operator")?.text ?? "";
  if (op !== "-" && op !== "+" && op !== "-=" && op !== "+=") return false;
  const operands = [node.childForFieldName("left"), node.childForFieldName("right")];
  const bare = operands.filter((o) => o !== null && VALUE_TYPES.has(o.type) && o.type !== "call");
  const constant2 = operands.filter((o) => o !== null && CONSTANT_TYPES.has(o.type));
  return bare.length === 1 && constant2.length === 1;
}
function constantCall(node) {
  const call = node.type === "argument_list" || node.type === "arguments" ? node.parent : node;
  if (call === null || call.type !== "call" && call.type !== "call_expression") return false;
  const args3 = call.childForFieldName("arguments")?.namedChildren ?? [];
  return args3.length > 0 && args3.every((a) => a !== null && CONSTANT_TYPES.has(a.type));
}
function readsAValue(root) {
  for (const node of descendants(root)) {
    if (!VALUE_TYPES.has(node.type)) continue;
    const parent = node.parent;
    const callee = parent !== null && (parent.type === "call" || parent.type === "call_expression" || parent.type === "new_expression") && parent.childForFieldName(parent.type === "new_expression" ? "constructor" : "function")?.id === node.id;
    if (!callee && node.type !== "call" && node.type !== "call_expression") return true;
  }
  return false;
}
function scalesAValue(constant2, language) {
  let top = null;
  for (let p = constant2.parent; p; p = p.parent) {
    if (p.type === "parenthesized_expression" || constantCall(p)) continue;
    if (!isArithmetic(p, language)) break;
    top = p;
  }
  if (top === null) return false;
  let value = false;
  for (const node of descendants(top)) {
    if (isRecognising(node, language) || offsetsAValue(node, language)) return false;
    if (VALUE_TYPES.has(node.type)) value = true;
  }
  return value;
}
function constantNodes(root, language) {
  const out2 = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    const key4 = CONSTANT_TYPES.has(node.type) ? constantKey(node, language) : void 0;
    if (key4 !== void 0) {
      if (!trivial(key4) && !isFieldName(node)) out2.push({ key: key4, node });
      continue;
    }
    const children = node.namedChildren;
    for (let i2 = children.length - 1; i2 >= 0; i2--) {
      const child = children[i2];
      if (child) stack.push(child);
    }
  }
  return out2;
}
var CONSTANT_TYPES = /* @__PURE__ */ new Set([
  "integer",
  "float",
  "number",
  "string",
  "concatenated_string",
  "template_string",
  "unary_operator",
  "unary_expression"
]);
var PY_ASSERT = /^(self\.assert|assert|unittest\.|pytest\.approx|approx|math\.isclose|isclose)/;
var JS_ASSERT = /^(expect|assert|t\.assert|chai\.|should)\b|^(t|test)\.(is|deepEqual|equal|same|ok|truthy|like)$/;
function testCases(root, language, path) {
  const python = language === "python";
  const cases = [];
  for (const node of descendants(root)) {
    if (python && node.type === "assert_statement") {
      const subject = node.namedChildren[0];
      if (subject) cases.push(assertionCase(subject, node, language, path));
    } else if (node.type === "expression_statement") {
      const call = unwrapAwait(node.namedChildren[0]);
      const callee = call?.type === (python ? "call" : "call_expression") ? call.childForFieldName("function")?.text : void 0;
      if (call && callee !== void 0 && (python ? PY_ASSERT : JS_ASSERT).test(callee))
        cases.push(assertionCase(call, node, language, path));
    } else if (node.type === (python ? "call" : "call_expression")) {
      cases.push(...rowCases(node, language, path));
    }
  }
  return cases.filter((c) => c.inputs.size + c.expected.size >= 2);
}
function unwrapAwait(node) {
  return node?.type === "await_expression" ? node.namedChildren[0] : node;
}
function assertionCase(subject, statement, language, path) {
  const python = language === "python";
  const callType = python ? "call" : "call_expression";
  const assertion = python ? PY_ASSERT : JS_ASSERT;
  const c = {
    inputs: /* @__PURE__ */ new Set(),
    expected: /* @__PURE__ */ new Set(),
    where: `${path}:${lineOf(statement)}`
  };
  for (const constant2 of constantNodes(subject, language)) {
    let input = false;
    for (let p = constant2.node.parent; p && p.id !== statement.id; p = p.parent) {
      if (p.type !== callType) continue;
      const callee = p.childForFieldName("function")?.text ?? "";
      if (!assertion.test(callee)) input = true;
    }
    ;
    (input ? c.inputs : c.expected).add(constant2.key);
  }
  return c;
}
var EXPECTED_NAME = /expect|want|out|result|answer|golden/i;
function rowCases(call, language, path) {
  const fn = call.childForFieldName("function")?.text ?? "";
  const args3 = (call.childForFieldName("arguments")?.namedChildren ?? []).filter(Boolean);
  let names = [];
  let rows;
  if (language === "python" && /(^|\.)parametrize$/.test(fn) && args3[0] && args3[1]) {
    const value = pythonStringValue(args3[0]);
    names = value !== void 0 ? value.split(/[\s,]+/).filter(Boolean) : args3[0].namedChildren.map((n) => n?.text ?? "");
    rows = args3[1];
  } else if (language !== "python" && /\.each$/.test(fn) && args3[0]?.type === "array") {
    rows = args3[0];
  }
  if (!rows || rows.type !== "list" && rows.type !== "array" && rows.type !== "tuple") return [];
  const expectedAt = Math.max(
    names.findIndex((n) => EXPECTED_NAME.test(n)),
    -1
  );
  const out2 = [];
  for (const row of rows.namedChildren) {
    if (!row) continue;
    const c = {
      inputs: /* @__PURE__ */ new Set(),
      expected: /* @__PURE__ */ new Set(),
      where: `${path}:${lineOf(row)}`
    };
    const cells = rowCells(row);
    cells.forEach((cell, i2) => {
      const isExpected = cell.name !== void 0 ? EXPECTED_NAME.test(cell.name) : i2 === (expectedAt >= 0 ? expectedAt : cells.length - 1);
      for (const { key: key4 } of constantNodes(cell.node, language))
        (isExpected ? c.expected : c.inputs).add(key4);
    });
    if (c.inputs.size > 0 && c.expected.size > 0) out2.push(c);
  }
  return out2;
}
function rowCells(row) {
  let inner = row;
  if (row.type === "call") inner = row.childForFieldName("arguments") ?? row;
  if (inner.type === "object") {
    return inner.namedChildren.filter((p) => p?.type === "pair").map((p) => ({
      node: p.childForFieldName("value") ?? p,
      name: p.childForFieldName("key")?.text ?? ""
    }));
  }
  if (["tuple", "list", "array", "argument_list", "arguments"].includes(inner.type))
    return inner.namedChildren.filter((c) => c && c.type !== "keyword_argument").map(
      (node) => ({ node })
    );
  return [];
}
function fixtureCases(path, text2, maxRows = 2e4) {
  const rows = fixtureRows(path, text2).slice(0, maxRows);
  const out2 = [];
  rows.forEach((row, i2) => {
    const c = { inputs: /* @__PURE__ */ new Set(), expected: /* @__PURE__ */ new Set(), where: `${path} row ${i2 + 1}` };
    if (Array.isArray(row)) {
      row.forEach((cell, j) => collect(cell, j === row.length - 1 ? c.expected : c.inputs));
    } else if (row !== null && typeof row === "object") {
      for (const [k, v] of Object.entries(row))
        collect(v, EXPECTED_NAME.test(k) ? c.expected : c.inputs);
    }
    if (c.inputs.size > 0 && c.expected.size > 0) out2.push(c);
  });
  return out2;
}
function fixtureRows(path, text2) {
  const lower2 = path.toLowerCase();
  if (lower2.endsWith(".csv") || lower2.endsWith(".tsv"))
    return csvRows(text2, lower2.endsWith(".tsv") ? "	" : ",");
  if (lower2.endsWith(".jsonl") || lower2.endsWith(".ndjson")) {
    return text2.split("\n").flatMap((line2) => {
      try {
        return line2.trim() === "" ? [] : [JSON.parse(line2)];
      } catch {
        return [];
      }
    });
  }
  let value;
  try {
    value = JSON.parse(text2);
  } catch {
    return [];
  }
  if (Array.isArray(value)) return value;
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap((v) => Array.isArray(v) ? v : [v]);
}
function csvRows(text2, separator) {
  const lines = text2.split(/\r?\n/).filter((l) => l.trim() !== "");
  const header = (lines[0] ?? "").split(separator).map((h) => h.trim().replace(/^"|"$/g, ""));
  return lines.slice(1).map((line2) => {
    const cells = line2.split(separator).map((c) => c.trim().replace(/^"|"$/g, ""));
    const row = {};
    const expectedAt = header.findIndex((h) => EXPECTED_NAME.test(h));
    cells.forEach((cell, i2) => {
      const name2 = i2 === (expectedAt >= 0 ? expectedAt : cells.length - 1) ? `expected${i2}` : `in${i2}`;
      row[name2] = cell !== "" && Number.isFinite(Number(cell)) ? Number(cell) : cell;
    });
    return row;
  });
}
function collect(value, into) {
  if (typeof value === "number" && Number.isFinite(value)) add(into, `n:${value}`);
  else if (typeof value === "string") add(into, `s:${value}`);
  else if (Array.isArray(value)) value.forEach((v) => collect(v, into));
  else if (value !== null && typeof value === "object")
    Object.values(value).forEach((v) => collect(v, into));
}
function add(into, key4) {
  if (!trivial(key4)) into.add(key4);
}
var PY_CONSTRUCTS = `
[(if_statement) (elif_clause) (case_clause) (conditional_expression) (return_statement)] @c
(dictionary (pair) @c)
`;
var SCRIPT_CONSTRUCTS = `
[(if_statement) (switch_case) (ternary_expression) (return_statement)] @c
(object (pair) @c)
`;
function constructs(root, language, within) {
  const out2 = [];
  const push = (node, parts2, test) => {
    const computes = test === void 0 || !testsEquality(test ?? null, language);
    const constants4 = constantsIn(parts2, language, computes);
    if (constants4.length >= 2)
      out2.push({ start: lineOf(node), end: node.endPosition.row + 1, constants: constants4 });
  };
  const query = language === "python" ? PY_CONSTRUCTS : SCRIPT_CONSTRUCTS;
  for (const node of queryNodes(root, query)) {
    if (within !== void 0 && !within(node)) continue;
    switch (node.type) {
      case "if_statement":
      case "elif_clause":
        push(
          node,
          [
            node.childForFieldName("condition"),
            ...branchResults(node.childForFieldName("consequence"))
          ],
          node.childForFieldName("condition")
        );
        break;
      case "case_clause":
        push(
          node,
          [
            ...node.namedChildren.filter((c) => c?.type === "case_pattern"),
            ...branchResults(node.childForFieldName("consequence"))
          ],
          null
        );
        break;
      case "switch_case":
        push(node, [node.childForFieldName("value"), ...branchResults(node)], null);
        break;
      case "conditional_expression":
      case "ternary_expression":
        push(node, [node], node);
        break;
      case "return_statement":
        if (readsAValue(node)) push(node, [node]);
        break;
      case "pair":
        push(node, [node], null);
        break;
    }
  }
  return out2;
}
function branchResults(branch) {
  if (!branch) return [];
  const statements = ["block", "statement_block", "switch_case"].includes(branch.type) ? branch.namedChildren.filter(Boolean) : [branch];
  return statements.filter((s) => s.type === "return_statement" || s.type === "expression_statement");
}
function echoFindings(found, cases) {
  const out2 = [];
  for (const construct of found) {
    const keys = new Map(construct.constants.map((c) => [c.key, c.line]));
    for (const c of cases) {
      const inputs = [...c.inputs].filter((k) => keys.has(k));
      const expected = [...c.expected].filter((k) => keys.has(k) && !c.inputs.has(k));
      const matched = [...inputs, ...expected];
      if (inputs.length === 0 || expected.length === 0) continue;
      if (matched.length < 3 && !matched.some(distinctive)) continue;
      const lines = matched.map((k) => keys.get(k));
      const shown2 = matched.slice(0, 4).map((k) => quote2(k.slice(2), 30)).join(", ");
      out2.push({
        category: "echo",
        start: Math.min(...lines),
        end: Math.max(...lines),
        what: `special-cases the locked case at ${c.where}: it holds that case's input and expected value (${shown2})`
      });
      break;
    }
  }
  return out2;
}

// src/lints/reach/paths.ts
function instrumentNames(paths2, isInstrument) {
  const files = /* @__PURE__ */ new Set();
  const suffixes = /* @__PURE__ */ new Map();
  const folders = /* @__PURE__ */ new Map();
  const baseNames = /* @__PURE__ */ new Map();
  for (const path of paths2) {
    const instrument = isInstrument(path);
    const parts2 = path.split("/");
    const name2 = parts2[parts2.length - 1] ?? "";
    baseNames.set(name2, (baseNames.get(name2) ?? true) && instrument);
    for (let i2 = 1; i2 < parts2.length; i2++) {
      const folder = parts2.slice(0, i2).join("/");
      folders.set(folder, (folders.get(folder) ?? true) && instrument);
    }
    if (!instrument) continue;
    files.add(path);
    for (let i2 = 1; i2 < parts2.length - 1; i2++) suffixes.set(parts2.slice(i2).join("/"), path);
  }
  return (value) => {
    const candidate = asPath(value);
    if (candidate === void 0) return void 0;
    if (files.has(candidate)) return candidate;
    const suffix = suffixes.get(candidate);
    if (suffix !== void 0) return suffix;
    if (candidate.includes("/")) {
      const parts2 = candidate.split("/");
      for (let i2 = 1; i2 < parts2.length; i2++) {
        const tail = parts2.slice(i2).join("/");
        if (files.has(tail)) return tail;
      }
      if (folders.get(candidate) === true) return `${candidate}/`;
      if (isInstrument(candidate)) return candidate;
      return void 0;
    }
    return baseNames.get(candidate) === true && /\.[A-Za-z0-9]+$/.test(candidate) && candidate.length >= 5 ? candidate : void 0;
  };
}
function asPath(value) {
  const trimmed = value.trim();
  if (trimmed === "" || trimmed.length > 400 || /[\n\0*?]/.test(trimmed)) return void 0;
  const path = normalisePath(trimmed.replace(/^\/+/, ""));
  if (path === "" || path.startsWith("..")) return void 0;
  return path;
}

// src/lints/resolve/paths.ts
function pathValue(path) {
  return { kind: "path", path };
}
function pathOf(value) {
  return value?.kind === "path" ? value.path : void 0;
}
function lastDefined(values) {
  for (let i2 = values.length - 1; i2 >= 0; i2--) if (values[i2] !== void 0) return values[i2];
  return void 0;
}

// src/lints/resolve/python.ts
var OPAQUE2 = { kind: "opaque" };
var PY_SCOPES = /* @__PURE__ */ new Set([
  "module",
  "function_definition",
  "lambda",
  "class_definition"
]);
var DECLARATIONS = [
  "import_statement",
  "import_from_statement",
  "assignment",
  "function_definition",
  "class_definition",
  "parameters",
  "lambda_parameters",
  "for_statement"
];
var PythonResolver = class {
  constructor(root, domain) {
    this.domain = domain;
    for (const node of eachOfType(root, DECLARATIONS)) this.declare(node);
  }
  domain;
  sites = new Bindings(PY_SCOPES);
  values = new NodeValues((node) => this.compute(node));
  resolving = /* @__PURE__ */ new Set();
  /** The value of an expression (memoised per node). */
  valueOf(node) {
    return this.values.of(node ?? null);
  }
  /** The static string an expression folds to, if any. */
  stringOf(node) {
    const value = this.valueOf(node);
    return value?.kind === "string" ? value.value : void 0;
  }
  // ------------------------------------------------------------ declarations
  declare(node) {
    switch (node.type) {
      case "import_statement":
        for (const b of importBindings(node)) this.site(b.local, node, b.site);
        return;
      case "import_from_statement":
        for (const b of importBindings(node)) this.site(b.local, node, b.site);
        return;
      case "assignment": {
        const left = node.childForFieldName("left");
        const right = node.childForFieldName("right");
        if (left?.type === "identifier")
          this.site(left, node, right ? { kind: "expr", node: right } : OPAQUE2);
        else if (left) for (const name2 of left.descendantsOfType("identifier")) this.opaque(name2);
        return;
      }
      case "function_definition":
      case "class_definition": {
        const name2 = node.childForFieldName("name");
        if (name2 && node.parent) this.site(name2, node.parent, { kind: "def", node });
        return;
      }
      case "for_statement": {
        const left = node.childForFieldName("left");
        for (const name2 of left?.descendantsOfType("identifier") ?? []) this.opaque(name2);
        if (left?.type === "identifier") this.opaque(left);
        return;
      }
      default:
        for (const child of node.namedChildren) {
          const name2 = child?.type === "identifier" ? child : child?.namedChildren[0];
          if (name2?.type === "identifier" && node.parent)
            this.sites.bind(pyName(name2), node.parent, OPAQUE2);
        }
    }
  }
  opaque(name2) {
    if (name2) this.site(name2, name2, OPAQUE2);
  }
  /** Binds `name` in the scope around `at`. */
  site(name2, at2, site) {
    this.sites.bind(pyName(name2), scopeOf2(at2), site);
  }
  // ------------------------------------------------------------ values
  compute(node) {
    switch (node.type) {
      case "identifier":
        return this.lookup(pyName(node), node);
      case "attribute": {
        const prop = node.childForFieldName("attribute");
        if (!prop) return void 0;
        const name2 = pyName(prop);
        const fixed = this.domain.attribute?.(name2);
        if (fixed !== void 0) return fixed;
        return this.member(this.valueOf(node.childForFieldName("object")), name2);
      }
      case "subscript":
        return this.subscript(node);
      case "call":
        return this.call(node);
      case "string":
        return stringValue2(node) ?? this.formatted(node);
      case "concatenated_string": {
        const parts2 = node.namedChildren.map((c) => this.stringOf(c));
        return parts2.every((p) => p !== void 0) ? str2(parts2.join("")) : void 0;
      }
      case "binary_operator":
        return this.binary(node);
      case "boolean_operator":
      case "conditional_expression":
        return this.domain.join(node.namedChildren.map((c) => this.valueOf(c)));
      case "parenthesized_expression":
      case "decorator":
        return this.valueOf(node.namedChildren[0]);
      default:
        return void 0;
    }
  }
  // ------------------------------------------------------------ strings built at run time
  /** `x[k]`: a member, a reversed string (`s[::-1]`) or a name of a namespace dict. */
  subscript(node) {
    const value = node.childForFieldName("value");
    const index = node.childForFieldName("subscript");
    if (index?.type === "slice" && index.text.replace(/\s/g, "") === "::-1") {
      const text2 = this.stringOf(value);
      return text2 === void 0 ? void 0 : str2([...text2].reverse().join(""));
    }
    const key4 = this.stringOf(index);
    if (key4 === void 0 || value === null) return void 0;
    const namespace = this.namespaceOf(value);
    if (namespace === "scope") return this.lookup(key4, node);
    if (namespace !== void 0) return this.member(this.valueOf(namespace), key4);
    return this.member(this.valueOf(value), key4);
  }
  /**
   * What a namespace dict stands for: `globals()`, `locals()`, `vars()` are the names in
   * scope; `vars(m)` and `m.__dict__` are m's members.
   */
  namespaceOf(node) {
    if (node.type === "attribute" && node.childForFieldName("attribute")?.text === "__dict__")
      return node.childForFieldName("object") ?? void 0;
    if (node.type !== "call") return void 0;
    const fn = node.childForFieldName("function");
    const name2 = fn?.type === "identifier" ? pyName(fn) : "";
    if (!["globals", "locals", "vars"].includes(name2) || this.declared(name2, node)) return void 0;
    const args3 = argumentsOf(node);
    if (args3.length === 0) return "scope";
    return name2 === "vars" && args3.length === 1 ? args3[0] : void 0;
  }
  /** `a + b`, `fmt % args`, `s * n` of constant strings. */
  binary(node) {
    const op = node.childForFieldName("operator")?.text;
    const leftNode = node.childForFieldName("left");
    const rightNode = node.childForFieldName("right");
    const left = this.stringOf(leftNode);
    if (left === void 0) return void 0;
    if (op === "+") {
      const right = this.stringOf(rightNode);
      return right === void 0 ? void 0 : str2(left + right);
    }
    if (op === "%") {
      const args3 = rightNode?.type === "tuple" ? this.stringsOf(rightNode) : this.maybeList(rightNode);
      const out2 = args3 === void 0 ? void 0 : percentFormat(left, args3);
      return out2 === void 0 ? void 0 : str2(out2);
    }
    if (op === "*") {
      const out2 = stringMethod(left, "repeat", [intOf(rightNode)]);
      return out2 === void 0 ? void 0 : str2(out2);
    }
    return void 0;
  }
  maybeList(node) {
    const one = this.stringOf(node);
    return one === void 0 ? void 0 : [one];
  }
  /** An f-string whose every field folds (no conversion, no format spec). */
  formatted(node) {
    let out2 = "";
    for (const child of node.namedChildren) {
      if (!child || child.type === "string_start" || child.type === "string_end") continue;
      if (child.type === "string_content") out2 += decodeEscapes(child.text);
      else if (child.type === "interpolation") {
        if (child.namedChildren.length !== 1) return void 0;
        const part = this.stringOf(child.namedChildren[0]);
        if (part === void 0) return void 0;
        out2 += part;
      } else return void 0;
    }
    return str2(out2);
  }
  /** The strings of a sequence: a list or tuple of them, a string's characters, `reversed(x)`, `map(chr, codes)`. */
  stringsOf(node) {
    if (!node) return void 0;
    if (node.type === "list" || node.type === "tuple") {
      const parts2 = node.namedChildren.map((c) => this.stringOf(c));
      return parts2.every((p) => p !== void 0) ? parts2 : void 0;
    }
    const text2 = this.stringOf(node);
    if (text2 !== void 0) return [...text2];
    if (node.type === "parenthesized_expression") return this.stringsOf(node.namedChildren[0]);
    if (node.type !== "call") return void 0;
    const fn = node.childForFieldName("function");
    const name2 = fn?.type === "identifier" && !this.declared(fn.text, fn) ? pyName(fn) : "";
    const args3 = argumentsOf(node);
    if (name2 === "reversed" || name2 === "list" || name2 === "tuple") {
      const inner = this.stringsOf(args3[0]);
      return name2 === "reversed" ? inner?.reverse() : inner;
    }
    if (name2 === "map" && args3[0]?.text === "chr" && !this.declared("chr", node)) {
      const codes = intsOf(args3[1]);
      const chars = codes?.map((c) => fromCodes([c]));
      return chars?.every((c) => c !== void 0) ? chars : void 0;
    }
    return void 0;
  }
  /** A call that builds a string from constants: methods of strings, decoders, `chr`. */
  foldCall(fn, args3) {
    if (fn?.type === "identifier") {
      const name2 = pyName(fn);
      if (this.declared(name2, fn)) return void 0;
      if (name2 === "chr") return fromCodes([intOf(args3[0])]);
      if (name2 === "str" && args3.length === 1) return this.stringOf(args3[0]);
      if ((name2 === "bytes" || name2 === "bytearray") && args3.length >= 1) {
        const codes = intsOf(args3[0]);
        return codes ? fromCodes(codes) : this.stringOf(args3[0]);
      }
      return void 0;
    }
    if (fn?.type !== "attribute") return void 0;
    const object = fn.childForFieldName("object");
    const method = pyName(fn.childForFieldName("attribute") ?? fn);
    const self = this.stringOf(object);
    const strings = args3.map((a) => this.stringOf(a));
    if (self !== void 0) {
      if (method === "join") return this.stringsOf(args3[0])?.join(self);
      if (method === "format")
        return strings.every((a) => a !== void 0) ? braceFormat(self, strings) : void 0;
      return stringMethod(
        self,
        method,
        args3.map((a, i2) => strings[i2] ?? intOf(a))
      );
    }
    const owner = object?.type === "identifier" ? pyName(object) : "";
    const first = strings[0];
    if (first === void 0) return void 0;
    return decoderCall(`${owner}.${method}`, first, strings[1]);
  }
  member(object, name2) {
    return object === void 0 || object.kind === "string" ? void 0 : this.domain.member(object, name2);
  }
  call(node) {
    const fn = node.childForFieldName("function");
    const args3 = argumentsOf(node);
    if (fn?.type === "identifier" && pyName(fn) === "getattr" && !this.declared("getattr", fn)) {
      const name2 = this.stringOf(args3[1]);
      return name2 === void 0 ? void 0 : this.member(this.valueOf(args3[0]), name2);
    }
    if (fn?.type === "attribute") {
      const attr = fn.childForFieldName("attribute");
      if (attr && /^__getattr(ibute)?__$/.test(pyName(attr))) {
        const name2 = this.stringOf(args3[0]);
        return name2 === void 0 ? void 0 : this.member(this.valueOf(fn.childForFieldName("object")), name2);
      }
    }
    const folded = this.foldCall(fn, args3);
    if (folded !== void 0) return str2(folded);
    return this.domain.call?.(this.valueOf(fn), node, this);
  }
  declared(name2, from) {
    return this.sites.visible(name2, from) !== void 0;
  }
  lookup(name2, from) {
    const sites = this.sites.visible(name2, from);
    if (sites === void 0) return this.domain.global(name2);
    const value = this.domain.join(sites.map((site) => this.siteValue(site)));
    if (value === void 0 && this.domain.unknownLocal === "global")
      return this.domain.global(name2);
    return value;
  }
  siteValue(site) {
    switch (site.kind) {
      case "opaque":
        return void 0;
      case "known":
        return this.domain.module(site.module);
      case "from": {
        const from = this.domain.module(site.module);
        const submodule = `${site.module}${site.module.endsWith(".") ? "" : "."}${site.name}`;
        return (from && this.domain.member(from, site.name)) ?? this.domain.module(submodule);
      }
      case "expr":
      case "def": {
        if (this.resolving.has(site.node.id)) return void 0;
        this.resolving.add(site.node.id);
        try {
          return site.kind === "expr" ? this.valueOf(site.node) : this.domain.definition?.(site.node, this);
        } finally {
          this.resolving.delete(site.node.id);
        }
      }
    }
  }
};
function importBindings(node) {
  const out2 = [];
  const module2 = node.childForFieldName("module_name")?.text ?? "";
  for (const name2 of node.childrenForFieldName("name")) {
    if (!name2) continue;
    const dotted3 = name2.type === "aliased_import" ? name2.childForFieldName("name") : name2;
    const alias = name2.type === "aliased_import" ? name2.childForFieldName("alias") : null;
    if (!dotted3) continue;
    if (node.type === "import_statement") {
      const local = alias ?? dotted3.namedChildren[0] ?? dotted3;
      const bound = alias ? dotted3.text : dotted3.text.split(".")[0] ?? dotted3.text;
      out2.push({ local, site: { kind: "known", module: bound } });
    } else {
      out2.push({ local: alias ?? dotted3, site: { kind: "from", module: module2, name: dotted3.text } });
    }
  }
  return out2;
}
function importedModules(root) {
  const found = /* @__PURE__ */ new Set();
  for (const node of root.descendantsOfType(["import_statement", "import_from_statement"])) {
    if (!node) continue;
    const module2 = node.childForFieldName("module_name")?.text;
    if (node.type === "import_from_statement" && module2 !== void 0) found.add(module2);
    for (const name2 of node.childrenForFieldName("name")) {
      const dotted3 = name2?.type === "aliased_import" ? name2.childForFieldName("name") : name2;
      if (!dotted3) continue;
      if (node.type === "import_statement") found.add(dotted3.text);
      else if (module2 !== void 0)
        found.add(`${module2}${module2.endsWith(".") ? "" : "."}${dotted3.text}`);
    }
  }
  return [...found];
}
function isDeclarationName(node) {
  const parent = node.parent;
  if (parent === null) return false;
  if (["dotted_name", "aliased_import", "import_from_statement", "import_statement"].includes(
    parent.type
  ))
    return true;
  if (parent.type === "assignment") return parent.childForFieldName("left")?.id === node.id;
  if (parent.type === "attribute") return parent.childForFieldName("attribute")?.id === node.id;
  if (parent.type === "keyword_argument") return parent.childForFieldName("name")?.id === node.id;
  if (PARAMETER_PARTS.has(parent.type)) return parent.namedChildren[0]?.id === node.id;
  if (parent.type === "function_definition" || parent.type === "class_definition")
    return parent.childForFieldName("name")?.id === node.id;
  return false;
}
var PARAMETER_PARTS = /* @__PURE__ */ new Set([
  "parameters",
  "lambda_parameters",
  "default_parameter",
  "typed_parameter",
  "typed_default_parameter",
  "list_splat_pattern",
  "dictionary_splat_pattern"
]);
function pyName(node) {
  return node.text.normalize("NFKC");
}
function scopeOf2(node) {
  let n = node;
  while (n.parent !== null && !PY_SCOPES.has(n.type)) n = n.parent;
  return n;
}
function argumentsOf(call) {
  const args3 = call.childForFieldName("arguments");
  return args3 ? args3.namedChildren.filter(Boolean) : [];
}
function decoderCall(name2, value, encoding) {
  switch (name2) {
    case "base64.b64decode":
    case "base64.standard_b64decode":
    case "base64.urlsafe_b64decode":
    case "binascii.a2b_base64":
      return fromBase64(value);
    case "base64.b16decode":
    case "bytes.fromhex":
    case "bytearray.fromhex":
    case "binascii.unhexlify":
    case "binascii.a2b_hex":
      return fromHex(value);
    case "codecs.decode":
    case "codecs.encode":
      return decodeAs(value, encoding ?? "utf-8");
    default:
      return void 0;
  }
}
function intOf(node) {
  if (node?.type !== "integer") return void 0;
  const text2 = node.text.replace(/_/g, "").toLowerCase();
  const value = /^0[xob]/.test(text2) ? Number(text2) : /^\d+$/.test(text2) ? Number(text2) : NaN;
  return Number.isSafeInteger(value) ? value : void 0;
}
function intsOf(node) {
  if (node?.type !== "list" && node?.type !== "tuple") return void 0;
  const values = node.namedChildren.map(intOf);
  return values.every((v) => v !== void 0) ? values : void 0;
}
function str2(value) {
  return { kind: "string", value };
}
function stringValue2(node) {
  if (node.namedChildren.some((c) => c?.type === "interpolation")) return void 0;
  const content = node.namedChildren.filter((c) => c?.type === "string_content").map((c) => c?.text ?? "").join("");
  const raw = /^[a-zA-Z]*[rR]/.test(node.text);
  return str2(raw ? content : decodeEscapes(content));
}
function* eachOfType(root, types) {
  for (const child of root.children) {
    if (!child) continue;
    for (const node of child.descendantsOfType(types)) if (node) yield node;
  }
}

// src/lints/reach/python.ts
var PY_MAIN_GUARD = /^(__name__\s*==\s*(['"])__main__\2|(['"])__main__\3\s*==\s*__name__)$/;
function detectPython(root, ctx) {
  return detectFile(root, pythonNames(root), ctx, PY_DETECTORS, PY_MAIN_GUARD);
}
var PY_DETECTORS = byType(
  [["import_statement", "import_from_statement"], importFindings],
  [
    ["call"],
    (node, names, ctx) => [...callFindings(node, names), ...builtFindings(node, names, ctx)]
  ],
  [["attribute", "identifier"], referenceFindings],
  [
    ["subscript"],
    (node, names, ctx) => [...referenceFindings(node, names), ...builtFindings(node, names, ctx)]
  ],
  [["binary_operator"], builtFindings],
  [["assignment", "augmented_assignment"], assignmentFindings],
  [["string", "concatenated_string"], stringFindings],
  [["class_definition"], classFindings],
  [["raise_statement"], raiseFindings]
);
var IMPORT_CALLS = /* @__PURE__ */ new Set([
  "__import__",
  "builtins.__import__",
  "importlib.__import__",
  "importlib.import_module"
]);
var PATHS = {
  module: (name2) => name2.startsWith(".") ? void 0 : pathValue(name2),
  member: (object, name2) => object.kind === "path" ? pathValue(`${object.path}.${name2}`) : void 0,
  // `__builtins__` is the builtins module by another name (a dict in imported modules).
  global: (name2) => pathValue(name2 === "__builtins__" ? "builtins" : name2),
  join: lastDefined,
  call: (callee, node, names) => {
    if (callee?.kind !== "path" || !IMPORT_CALLS.has(callee.path)) return void 0;
    const module2 = names.stringOf(argumentsOf(node)[0]);
    return module2 === void 0 ? void 0 : pathValue(module2);
  },
  unknownLocal: "global"
};
function pythonNames(root) {
  return new PythonResolver(root, PATHS);
}
function resolvePython(node, names) {
  return pathOf(names.valueOf(node));
}
function isImportCall(callee) {
  return callee !== void 0 && IMPORT_CALLS.has(callee);
}
function frameworkModule(name2) {
  return moduleMatches(name2, PY_FRAMEWORK_MODULES, PY_FRAMEWORK_PREFIXES, ".");
}
function importFindings(node) {
  const out2 = [];
  const modules = [];
  if (node.type === "import_statement") {
    for (const name2 of node.childrenForFieldName("name")) {
      const dotted3 = name2?.type === "aliased_import" ? name2.childForFieldName("name") : name2;
      if (dotted3) modules.push(dotted3.text);
    }
  } else {
    const module2 = node.childForFieldName("module_name");
    if (module2?.type === "dotted_name") {
      modules.push(module2.text);
      for (const name2 of node.childrenForFieldName("name")) {
        const original = name2?.type === "aliased_import" ? name2.childForFieldName("name") : name2;
        if (original) out2.push(...pathFindings(`${module2.text}.${original.text}`, node));
      }
    }
  }
  for (const module2 of modules) {
    if (frameworkModule(module2) !== void 0)
      out2.push(finding("framework", node, `imports the test framework module ${quote2(module2)}`));
  }
  return out2;
}
function callFindings(node, names) {
  const fn = node.childForFieldName("function");
  const callee = fn ? resolvePython(fn, names) : void 0;
  const args3 = argumentsOf(node);
  if (isImportCall(callee) && args3[0]) {
    const module2 = names.stringOf(args3[0]);
    if (module2 !== void 0 && frameworkModule(module2) !== void 0)
      return [finding("framework", node, `imports the test framework module ${quote2(module2)}`)];
  }
  if (callee === "getattr" && args3[1]) {
    const path = resolvePython(node, names);
    if (path !== void 0) return pathFindings(path, node);
  }
  if ((callee === "setattr" || callee === "delattr") && args3[0] && args3[1]) {
    const base = resolvePython(args3[0], names);
    const name2 = names.stringOf(args3[1]);
    if (base !== void 0 && name2 !== void 0) return targetFindings(`${base}.${name2}`, node);
  }
  if (callee === "type" && args3.length === 3 && args3[2]?.type === "dictionary")
    return typeCallFindings(args3, names);
  if ((callee === "os.kill" || callee === "os.killpg") && args3[0]) {
    const target = args3[0].text;
    if (/getpid|getppid|getpgid|getpgrp/.test(target) || target === "0")
      return [
        finding("process", node, `${callee}(${quote2(target)}) signals the runner's own process`)
      ];
  }
  return [];
}
function referenceFindings(node, names) {
  const parent = node.parent;
  if (node.type === "identifier") {
    const bound = resolvePython(node, names);
    if (bound === void 0 || bound === pyName(node)) return [];
    if (parent?.type === "attribute" || parent?.type === "dotted_name") return [];
    if (parent?.type === "aliased_import" || parent?.type?.startsWith("import")) return [];
    if (parent?.type === "assignment" && parent.childForFieldName("left")?.id === node.id) return [];
  }
  if (node.type === "attribute") {
    const attr = node.childForFieldName("attribute")?.text;
    if (attr !== void 0 && PY_FRAME_ATTRIBUTES.has(attr))
      return [finding("introspection", node, `reads the frame attribute ${attr}`)];
  }
  const path = resolvePython(node, names);
  return path === void 0 ? [] : pathFindings(path, node);
}
function pathFindings(path, node) {
  const uses = usesFindings(path, node, PY_INTROSPECTION, PY_PROCESS_CALLS);
  if (uses.length > 0) return uses;
  if (path.startsWith(PY_PROCESS_EXEC_PREFIX) && /^os\.exec[lv]p?e?$/.test(path))
    return [finding("process", node, `uses ${path}, which replaces the runner's process`)];
  const habit = pathMatches(path, PY_ENTRY_HABITS);
  if (habit !== void 0)
    return [
      finding(
        "process",
        node,
        `uses ${habit}, which ${habit === "sys.exit" ? "ends the runner's process with a status of its choosing" : "runs code when the runner exits or is signalled"}`,
        { entryPointHabit: true }
      )
    ];
  const hook = pathMatches(path, ["sys.meta_path", "sys.path_hooks", "builtins.__import__"]);
  if (hook !== void 0)
    return [
      finding("framework", node, `touches ${hook}, the import machinery that loads the tests`)
    ];
  return [];
}
function raiseFindings(node, names) {
  const raised = node.namedChildren[0];
  const target = raised?.type === "call" ? raised.childForFieldName("function") : raised;
  if (!target || resolvePython(target, names) !== "SystemExit") return [];
  return [
    finding(
      "process",
      node,
      "raises SystemExit, which ends the runner with a status of its choosing",
      {
        entryPointHabit: true
      }
    )
  ];
}
function assignmentTargets(node) {
  const left = node.childForFieldName("left");
  if (!left) return [];
  if (left.type === "pattern_list" || left.type === "tuple_pattern" || left.type === "list_pattern")
    return left.namedChildren.filter(Boolean);
  return [left];
}
function assignmentFindings(node, names) {
  const out2 = [];
  for (const target of assignmentTargets(node)) {
    if (target.type !== "attribute" && target.type !== "subscript") continue;
    const path = resolvePython(target, names);
    if (path !== void 0) out2.push(...targetFindings(path, node));
    else if (target.type === "subscript") {
      const value = target.childForFieldName("value");
      const base = value ? resolvePython(value, names) : void 0;
      if (base === "sys.modules")
        out2.push(finding("framework", node, "replaces a module in sys.modules"));
      if (base !== void 0 && PY_PATCHED_MODULES.has(base))
        out2.push(finding("comparison", node, `assigns into ${base}`));
    }
  }
  return out2;
}
function targetFindings(path, node) {
  const hook = pathMatches(path, PY_PROCESS_HOOKS);
  if (hook !== void 0)
    return [finding("process", node, `replaces ${hook}, which the runner reports through`)];
  if (path.startsWith("sys.modules."))
    return [
      finding("framework", node, `replaces the module ${quote2(path.slice(12))} in sys.modules`)
    ];
  const root = path.split(".")[0] ?? "";
  if (PY_PATCHED_MODULES.has(root))
    return [
      finding("comparison", node, `patches ${path}, which comparisons and assertions rely on`)
    ];
  const framework = frameworkModule(path);
  if (framework !== void 0)
    return [finding("framework", node, `patches ${path} of the test framework`)];
  return [];
}
function stringFindings(node, names, ctx) {
  if (node.parent?.type === "concatenated_string") return [];
  if (node.parent?.type === "expression_statement") return [];
  if (node.parent?.type === "dotted_name") return [];
  const out2 = [];
  const runs = pythonStringRuns(node);
  for (const run2 of runs) out2.push(...runFindings(node, run2, true));
  const value = runs.join("");
  if (namesRunner(value) && expressionUses(expressionRoot(node), names, PY_RUNTIME_SOURCES))
    out2.push(
      finding(
        "markers",
        node,
        `checks whether ${quote2(value.trim())} is running (sys.modules, sys.argv or the environment)`
      )
    );
  out2.push(...instrumentFindings(node, [...runs, ...joinedPath(node, names)], ctx));
  return out2;
}
function builtFindings(node, names, ctx) {
  const value = names.stringOf(node);
  if (value === void 0 || node.parent && names.stringOf(node.parent) !== void 0) return [];
  const reads = () => expressionUses(expressionRoot(node), names, PY_RUNTIME_SOURCES);
  return builtStringFindings(node, value, reads, ctx);
}
function joinedPath(node, names) {
  let parent = node.parent;
  if (parent?.type === "argument_list") {
    const call = parent.parent;
    const fn = call?.childForFieldName("function");
    const callee = fn ? resolvePython(fn, names) ?? fn.text : "";
    if (call && /(^|\.)(join|joinpath|Path|PurePath|PurePosixPath|PosixPath)$/.test(callee)) {
      const parts3 = argumentsOf(call).map((a) => pythonStringValue(a)).filter((p) => p !== void 0);
      if (parts3.length > 1) return [parts3.join("/")];
    }
    return [];
  }
  const parts2 = [];
  while (parent?.type === "binary_operator" && parent.text.includes("/")) {
    parts2.length = 0;
    for (const leaf of descendants(parent)) {
      const value = pythonStringValue(leaf);
      if (value !== void 0) parts2.push(value);
    }
    parent = parent.parent;
  }
  return parts2.length > 1 ? [parts2.join("/")] : [];
}
var STOP = /* @__PURE__ */ new Set([
  "block",
  "module",
  "function_definition",
  "class_definition",
  "decorated_definition"
]);
function expressionRoot(node) {
  let current = node;
  for (let p = node.parent; p; p = p.parent) {
    if (STOP.has(p.type) || p.type.endsWith("statement") || p.type.endsWith("clause")) break;
    current = p;
  }
  return current;
}
function expressionUses(root, names, sources) {
  for (const node of descendants(root)) {
    if (node.type !== "attribute" && node.type !== "identifier") continue;
    const path = resolvePython(node, names);
    if (path !== void 0 && pathMatches(path, sources) !== void 0) return true;
  }
  return false;
}
function classFindings(node, names) {
  const body2 = node.childForFieldName("body");
  if (!body2) return [];
  const bases = (node.childForFieldName("superclasses")?.namedChildren ?? []).map((b) => b ? resolvePython(b, names) : void 0).filter((b) => b !== void 0);
  const valueBase = bases.find((b) => PY_VALUE_TYPES.has(b));
  const out2 = [];
  for (const member3 of body2.namedChildren) {
    const def = member3?.type === "decorated_definition" ? member3.childForFieldName("definition") : member3;
    if (!def) continue;
    const name2 = memberName(def);
    if (name2 === void 0) continue;
    if (name2 === "__class__")
      out2.push(finding("comparison", def, "defines __class__, which makes isinstance lie"));
    if (!PY_COMPARISON_DUNDERS.has(name2)) continue;
    if (valueBase !== void 0)
      out2.push(
        finding(
          "comparison",
          def,
          `redefines ${name2} in a subclass of ${valueBase}: comparing it with an expected value no longer means what the test says`
        )
      );
    else if (returnsConstant(def))
      out2.push(
        finding(
          "comparison",
          def,
          `defines ${name2} to return a constant, whatever it is compared with`
        )
      );
  }
  return out2;
}
function typeCallFindings(args3, names) {
  const bases = (args3[1]?.type === "tuple" ? args3[1].namedChildren : [args3[1]]).map((b) => b ? resolvePython(b, names) : void 0).filter((b) => b !== void 0);
  const valueBase = bases.find((b) => PY_VALUE_TYPES.has(b));
  const out2 = [];
  for (const pair of args3[2]?.namedChildren ?? []) {
    if (pair?.type !== "pair") continue;
    const key4 = names.stringOf(pair.childForFieldName("key"));
    const value = pair.childForFieldName("value");
    if (key4 === void 0 || !value) continue;
    if (key4 === "__class__")
      out2.push(
        finding("comparison", pair, "defines __class__ through type(), which makes isinstance lie")
      );
    if (!PY_COMPARISON_DUNDERS.has(key4)) continue;
    if (valueBase !== void 0)
      out2.push(
        finding("comparison", pair, `redefines ${key4} through type() on a subclass of ${valueBase}`)
      );
    else if (value.type === "lambda" && returnsConstant(value))
      out2.push(
        finding(
          "comparison",
          pair,
          `defines ${key4} through type() to return a constant, whatever it is compared with`
        )
      );
  }
  return out2;
}
function memberName(def) {
  if (def.type === "function_definition") return def.childForFieldName("name")?.text;
  if (def.type === "expression_statement") {
    const assignment = def.namedChildren[0];
    const left = assignment?.type === "assignment" ? assignment.childForFieldName("left") : null;
    return left?.type === "identifier" ? left.text : void 0;
  }
  return void 0;
}
var CONSTANT_TYPES2 = /* @__PURE__ */ new Set(["true", "false", "none", "integer", "float", "string"]);
function isConstant(node) {
  if (!node) return false;
  return CONSTANT_TYPES2.has(node.type) || node.type === "identifier" && node.text === "NotImplemented";
}
function returnsConstant(def) {
  const { other, results } = methodShape(def);
  if (results.length === 0 || !results.every(isConstant)) return false;
  const decisive = results.filter((r) => r.type === "true" || r.type === "false").map((r) => r.type);
  if (decisive.length === 0) return false;
  const body2 = def.type === "function_definition" ? def.childForFieldName("body") : def;
  const usesOther = other !== void 0 && body2 !== null && body2.descendantsOfType("identifier").some((n) => n?.text === other);
  return !usesOther || new Set(decisive).size === 1;
}
function methodShape(def) {
  if (def.type === "expression_statement" || def.type === "lambda") {
    const lambda = def.type === "lambda" ? def : def.namedChildren[0]?.childForFieldName("right");
    if (lambda?.type !== "lambda") return { other: void 0, results: [] };
    const params2 = lambda.childForFieldName("parameters")?.namedChildren ?? [];
    const body3 = lambda.childForFieldName("body");
    return { other: params2[1]?.text, results: body3 ? [body3] : [] };
  }
  const params = def.childForFieldName("parameters")?.namedChildren ?? [];
  const second = params[1];
  const other = second?.type === "identifier" ? second.text : second?.namedChildren[0]?.text;
  const body2 = def.childForFieldName("body");
  const results = [];
  if (body2) {
    for (const ret of body2.descendantsOfType("return_statement")) {
      if (!ret || nestedDefinition(ret, def)) continue;
      const value = ret.namedChildren[0];
      if (value) results.push(value);
    }
  }
  return { other, results };
}
function nestedDefinition(node, outer) {
  for (let p = node.parent; p && p.id !== outer.id; p = p.parent)
    if (p.type === "function_definition" || p.type === "lambda" || p.type === "class_definition")
      return true;
  return false;
}

// src/lints/reach/script.ts
var JS_MAIN_GUARD = /^(require\.main\s*===?\s*module|module\s*===?\s*require\.main)$/;
function detectScript(root, ctx) {
  return detectFile(root, scriptNames(root), ctx, JS_DETECTORS, JS_MAIN_GUARD);
}
var JS_DETECTORS = byType(
  [["import_statement", "export_statement"], (n) => moduleFindings(n.childForFieldName("source"), n)],
  [
    ["call_expression"],
    (n, names, ctx) => [...callFindings2(n, names), ...builtFindings2(n, names, ctx)]
  ],
  [["identifier", "member_expression"], referenceFindings2],
  [
    ["subscript_expression"],
    (n, names, ctx) => [...referenceFindings2(n, names), ...builtFindings2(n, names, ctx)]
  ],
  [["binary_expression", "template_string"], builtFindings2],
  [
    [
      "property_identifier",
      "shorthand_property_identifier",
      "shorthand_property_identifier_pattern"
    ],
    propertyNameFindings
  ],
  [
    ["assignment_expression", "augmented_assignment_expression"],
    (n, names) => targetFindings2(n.childForFieldName("left"), n, names)
  ],
  [["update_expression"], (n, names) => targetFindings2(n.childForFieldName("argument"), n, names)],
  [
    ["unary_expression"],
    (n, names) => n.text.startsWith("delete") ? targetFindings2(n.childForFieldName("argument"), n, names) : []
  ],
  [["string", "template_string"], stringFindings2],
  [["class_declaration", "class"], wrapperSubclassFindings],
  [["method_definition", "pair"], conversionFindings],
  [["if_statement", "ternary_expression"], nodeEnvFindings]
);
function canonicalModule(module2) {
  if (module2 === "node:test" || module2.startsWith("node:test/")) return module2;
  return module2.startsWith("node:") ? module2.slice(5) : module2;
}
function stripGlobal(path) {
  const dot = path.indexOf(".");
  return dot > 0 && JS_GLOBAL_OBJECTS.has(path.slice(0, dot)) ? stripGlobal(path.slice(dot + 1)) : path;
}
var PATHS2 = {
  module: (specifier) => pathValue(canonicalModule(specifier)),
  member: (object, name2) => object.kind === "path" ? pathValue(stripGlobal(`${object.path}.${name2}`)) : void 0,
  global: pathValue,
  this: () => pathValue("this"),
  join: lastDefined,
  unknownLocal: "global"
};
function scriptNames(root) {
  return new ScriptResolver(root, PATHS2);
}
function resolveScript(node, names) {
  return pathOf(names.valueOf(node));
}
function args2(call) {
  return (call.childForFieldName("arguments")?.namedChildren ?? []).filter(Boolean);
}
function frameworkPackage(module2) {
  return moduleMatches(module2, JS_FRAMEWORK_PACKAGES, JS_FRAMEWORK_PREFIXES, "/");
}
function moduleFindings(source, at2, names) {
  const module2 = source ? scriptStringValue2(source) ?? names?.stringOf(source) : void 0;
  if (module2 === void 0) return [];
  if (frameworkPackage(module2) !== void 0)
    return [finding("framework", at2, `imports the test framework package ${quote2(module2)}`)];
  if (canonicalModule(module2) === "inspector" || canonicalModule(module2) === "inspector/promises")
    return [
      finding(
        "introspection",
        at2,
        `imports ${quote2(module2)}, which reads the process's heap and frames`
      )
    ];
  return [];
}
var DEFINE_CALLS = /* @__PURE__ */ new Set([
  "Object.assign",
  "Object.defineProperty",
  "Object.defineProperties",
  "Object.setPrototypeOf",
  "Reflect.set",
  "Reflect.defineProperty",
  "Reflect.setPrototypeOf",
  "Reflect.deleteProperty"
]);
function callFindings2(node, names) {
  const module2 = requiredModule(node, (n) => names.stringOf(n));
  if (module2 !== void 0)
    return moduleFindings(
      node.childForFieldName("arguments")?.namedChildren[0] ?? null,
      node,
      names
    );
  const fn = node.childForFieldName("function");
  const callee = fn ? resolveScript(fn, names) : void 0;
  const list2 = args2(node);
  if (callee === void 0) return [];
  if (DEFINE_CALLS.has(callee) && list2[0]) return targetFindings2(list2[0], node, names, true);
  if (callee === "Error.captureStackTrace" && list2[0]?.type !== "this")
    return [
      finding("introspection", node, "captures a stack trace into an object to read its callers")
    ];
  if (callee === "process.kill" && list2[0]) {
    const target = list2[0].text;
    if (/process\.(pid|ppid)/.test(target) || /^-?\s*[0-9]+$/.test(target) && Number(target.replace(/\s/g, "")) <= 0)
      return [
        finding("process", node, `process.kill(${quote2(target)}) signals the runner's own process`)
      ];
  }
  const [object, method] = splitLast(callee);
  if (object === "process" && JS_PROCESS_LISTENERS.has(method) && list2[0]) {
    const event = scriptStringValue2(list2[0]);
    if (event !== void 0 && JS_PROCESS_EVENTS.has(event))
      return [
        finding(
          "process",
          node,
          `listens to process '${event}', which runs when the runner ends or fails`
        )
      ];
    if (event !== void 0 && event.startsWith("SIG"))
      return [
        finding("process", node, `handles ${event} on the runner's process`, {
          entryPointHabit: true
        })
      ];
  }
  return [];
}
function splitLast(path) {
  const dot = path.lastIndexOf(".");
  return dot < 0 ? ["", path] : [path.slice(0, dot), path.slice(dot + 1)];
}
function referenceFindings2(node, names) {
  if (node.type === "identifier") {
    const global = globalFindings(node);
    if (global.length > 0 || !boundReference(node, names)) return global;
  }
  const object = node.childForFieldName("object");
  if (node.type === "member_expression" && object) {
    const property = node.childForFieldName("property")?.text;
    if (property === "stack" && freshError(object))
      return [finding("introspection", node, "reads the call stack from a new Error")];
    if (property === "caller" && callerObject(object))
      return [
        finding(
          "introspection",
          node,
          `reads ${quote2(object.text)}.caller, the function that called it`
        )
      ];
  }
  const path = resolveScript(node, names);
  if (path === void 0) return [];
  const root = path.split(".")[0] ?? "";
  if (object && JS_GLOBAL_OBJECTS.has(object.text) && JS_RUNNER_GLOBALS.has(root))
    return [finding("framework", node, `uses the runner global ${quote2(root)}`)];
  return usesFindings(path, node, JS_INTROSPECTION, JS_PROCESS_CALLS, "process.exit");
}
function boundReference(node, names) {
  if (!names.bound(node)) return false;
  const parent = node.parent;
  if (!parent || parent.type === "import_specifier" || parent.type === "import_clause") return false;
  if (parent.type === "namespace_import" || parent.type === "pair_pattern") return false;
  return !(parent.type === "variable_declarator" && parent.childForFieldName("name")?.id === node.id);
}
function globalFindings(node) {
  const parent = node.parent;
  if (!JS_RUNNER_GLOBALS.has(node.text) || declaredAround(node, node.text)) return [];
  if (parent?.type === "variable_declarator" && parent.childForFieldName("name")?.id === node.id)
    return [];
  if (parent?.type === "import_specifier" || parent?.type === "export_specifier") return [];
  return [finding("framework", node, `uses the runner global ${quote2(node.text)}`)];
}
function freshError(object) {
  const inner = object.type === "parenthesized_expression" ? object.namedChildren[0] : object;
  if (!inner || inner.type !== "new_expression" && inner.type !== "call_expression") return false;
  const ctor = inner.childForFieldName(inner.type === "new_expression" ? "constructor" : "function");
  return ctor !== null && /Error$/.test(ctor.text);
}
function callerObject(object) {
  const text2 = object.text;
  if (text2 === "arguments" || text2 === "arguments.callee" || text2 === "Function.prototype")
    return true;
  return object.type === "identifier" && declaredAround(object, text2);
}
function propertyNameFindings(node) {
  const name2 = node.text;
  if (isMarkerName(name2))
    return [finding("markers", node, `reads the runner or gate marker ${quote2(name2)}`)];
  if (JS_RUNNER_PROTOCOL_NAMES.has(name2))
    return [
      finding(
        "framework",
        node,
        `defines ${name2}, which makes the runner's equality take the object's word for it`
      )
    ];
  if (JS_RUNNER_INTERNAL_STRINGS.some((s) => name2.includes(s)))
    return [finding("framework", node, `names the runner internal ${quote2(name2)}`)];
  return [];
}
var FUNCTIONS = /* @__PURE__ */ new Set([
  "function_declaration",
  "function_expression",
  "function",
  "arrow_function",
  "method_definition",
  "generator_function_declaration",
  "generator_function"
]);
var BLOCKS = /* @__PURE__ */ new Set(["statement_block", "program", "switch_body", "class_body"]);
function declaredAround(node, name2) {
  for (let p = node.parent; p; p = p.parent) {
    if (FUNCTIONS.has(p.type)) {
      const params = p.childForFieldName("parameters") ?? p.childForFieldName("parameter");
      if (params && declares(params, name2)) return true;
    } else if (BLOCKS.has(p.type)) {
      for (const child of p.namedChildren) if (child && statementDeclares(child, name2)) return true;
    } else if (p.type === "catch_clause" || p.type.startsWith("for_")) {
      const binding = p.childForFieldName("parameter") ?? p.childForFieldName("left") ?? p.childForFieldName("initializer");
      if (binding && declares(binding, name2)) return true;
    }
  }
  return false;
}
function statementDeclares(statement, name2) {
  const target = statement.type === "export_statement" ? statement.childForFieldName("declaration") : statement;
  if (!target) return false;
  if (target.type === "lexical_declaration" || target.type === "variable_declaration") {
    return target.namedChildren.some((d) => {
      const bound = d?.childForFieldName("name");
      return bound ? declares(bound, name2) : false;
    });
  }
  if (target.type === "import_statement") {
    const clause = target.namedChildren.find((c) => c?.type === "import_clause");
    return clause ? declares(clause, name2, true) : false;
  }
  return target.childForFieldName("name")?.text === name2 && /declaration$/.test(target.type);
}
function declares(node, name2, importClause = false) {
  if (node.type === "identifier" || node.type === "shorthand_property_identifier_pattern")
    return node.text === name2;
  return node.descendantsOfType(["identifier", "shorthand_property_identifier_pattern"]).some((id) => {
    if (id?.text !== name2) return false;
    if (importClause && id.parent?.type === "import_specifier" && id.parent.childForFieldName("alias"))
      return id.parent.childForFieldName("alias")?.id === id.id;
    return !(id.parent?.type === "assignment_pattern" && id.parent.childForFieldName("right")?.id === id.id);
  });
}
function localObject(target, names) {
  let root = target;
  while (root && (root.type === "member_expression" || root.type === "subscript_expression"))
    root = root.childForFieldName("object");
  if (root?.type !== "identifier") return false;
  return !names.bound(root) && declaredAround(root, root.text);
}
function targetFindings2(target, at2, names, whole = false) {
  if (!target || localObject(target, names)) return [];
  const resolved = resolveScript(target, names);
  if (resolved === void 0) return [];
  const path = whole ? `${resolved}.*` : resolved;
  const parts2 = path.split(".");
  const root = parts2[0] ?? "";
  const module2 = parts2.length >= 2 && JS_ASSERT_MODULES.has(`${root}/${parts2[1]}`) ? `${root}/${parts2[1]}` : root;
  if (JS_ASSERT_MODULES.has(module2) && parts2.length >= 2)
    return [
      finding("framework", at2, `patches ${resolved} of the assertion module ${quote2(module2)}`)
    ];
  if (frameworkPackage(root) !== void 0 || JS_RUNNER_GLOBALS.has(root) && !declaredAround(at2, root))
    return [finding("framework", at2, `patches ${resolved} of the test runner`)];
  const assigned = pathMatches(path, JS_PROCESS_ASSIGNED);
  if (assigned !== void 0)
    return [
      finding("process", at2, `replaces ${assigned}`, {
        entryPointHabit: assigned === "process.exitCode"
      })
    ];
  if (JS_BUILTIN_GLOBALS.has(root) && (parts2.length >= 2 || whole) && !declaredAround(at2, root))
    return [
      finding(
        "comparison",
        at2,
        `patches the built-in ${resolved}, which every comparison relies on`
      )
    ];
  return [];
}
function stringFindings2(node, names, ctx) {
  const parent = node.parent;
  if (parent?.type === "expression_statement") return [];
  if (parent?.type === "import_statement" || parent?.type === "export_statement") return [];
  if (parent?.type === "arguments" && parent.parent && requiredModule(parent.parent) !== void 0)
    return [];
  const out2 = [];
  const runs = scriptStringRuns(node);
  for (const run2 of runs) {
    out2.push(...runFindings(node, run2, parent?.type !== "pair"));
    const internal = JS_RUNNER_INTERNAL_STRINGS.find((s) => run2.includes(s));
    if (internal !== void 0)
      out2.push(finding("framework", node, `names the runner internal ${quote2(internal)}`));
  }
  const value = runs.join("");
  if (namesRunner(value) && expressionUses2(expressionRoot2(node), names))
    out2.push(
      finding(
        "markers",
        node,
        `checks whether ${quote2(value.trim())} is running (process.argv, process.env or require.cache)`
      )
    );
  out2.push(...instrumentFindings(node, [...runs, ...joinedPath2(node)], ctx));
  return out2;
}
function builtFindings2(node, names, ctx) {
  const value = names.stringOf(node);
  if (value === void 0 || node.parent && names.stringOf(node.parent) !== void 0) return [];
  const internal = JS_RUNNER_INTERNAL_STRINGS.find((s) => value.includes(s));
  const reads = () => expressionUses2(expressionRoot2(node), names);
  return [
    ...internal === void 0 ? [] : [finding("framework", node, `names the runner internal ${quote2(internal)}`)],
    ...builtStringFindings(node, value, reads, ctx)
  ];
}
function joinedPath2(node) {
  const parent = node.parent;
  const call = parent?.type === "arguments" ? parent.parent : null;
  if (!call) return [];
  const fn = call.childForFieldName(call.type === "new_expression" ? "constructor" : "function");
  if (!fn || !/(^|\.)(join|resolve|joinPath)$/.test(fn.text)) return [];
  const parts2 = args2(call).map((a) => scriptStringValue2(a)).filter((p) => p !== void 0);
  return parts2.length > 1 ? [parts2.join("/")] : [];
}
function expressionRoot2(node) {
  let current = node;
  for (let p = node.parent; p; p = p.parent) {
    if (p.type.endsWith("statement") || p.type.endsWith("declaration") || p.type === "statement_block" || p.type === "program")
      break;
    current = p;
  }
  return current;
}
function expressionUses2(root, names) {
  for (const node of descendants(root)) {
    if (node.type !== "member_expression" && node.type !== "identifier" && node.type !== "subscript_expression")
      continue;
    const path = resolveScript(node, names);
    if (path !== void 0 && pathMatches(path, JS_RUNTIME_SOURCES) !== void 0) return true;
  }
  return false;
}
var CONVERSIONS = /* @__PURE__ */ new Set(["valueOf", "[Symbol.toPrimitive]", "[Symbol.hasInstance]"]);
function conversionFindings(node) {
  const key4 = node.childForFieldName(node.type === "pair" ? "key" : "name");
  if (!key4 || !CONVERSIONS.has(key4.text)) return [];
  const fn = node.type === "pair" ? node.childForFieldName("value") : node;
  if (!fn || !["method_definition", "function_expression", "arrow_function", "function"].includes(fn.type))
    return [];
  const body2 = fn.childForFieldName("body");
  if (!body2) return [];
  const results = body2.type === "statement_block" ? body2.descendantsOfType("return_statement").map((r) => r?.namedChildren[0]) : [body2];
  if (results.length === 0 || !results.every((r) => r && isScriptConstant(r))) return [];
  if (body2.descendantsOfType("this").length > 0) return [];
  return [
    finding(
      "comparison",
      node,
      `defines ${key4.text} to return a constant, so comparisons with it always agree`
    )
  ];
}
function isScriptConstant(node) {
  if (["number", "string", "true", "false", "null", "undefined"].includes(node.type)) return true;
  return node.type === "unary_expression" && node.namedChildren[0]?.type === "number";
}
function wrapperSubclassFindings(node) {
  const heritage = node.namedChildren.find((c) => c?.type === "class_heritage");
  const base = heritage?.text.replace(/^extends\s+/, "").trim();
  if (!base || !JS_PRIMITIVE_WRAPPERS.has(base)) return [];
  const body2 = node.childForFieldName("body");
  const out2 = [];
  for (const member3 of body2?.namedChildren ?? []) {
    const name2 = member3?.type === "method_definition" ? member3.childForFieldName("name")?.text : void 0;
    if (member3 && name2 && ["valueOf", "toString", "[Symbol.toPrimitive]", "equals"].includes(name2))
      out2.push(
        finding(
          "comparison",
          member3,
          `redefines ${name2} in a subclass of ${base}: comparing it with an expected value no longer means what the test says`
        )
      );
  }
  return out2;
}
function nodeEnvFindings(node, names) {
  const condition = node.childForFieldName("condition");
  const consequence = node.childForFieldName("consequence");
  if (!condition || !consequence) return [];
  const mentionsNodeEnv = [...descendants(condition)].some(
    (n) => (n.type === "member_expression" || n.type === "subscript_expression") && resolveScript(n, names) === "process.env.NODE_ENV"
  );
  const saysTest = condition.descendantsOfType("string").some((s) => s && scriptStringValue2(s) === "test");
  if (!mentionsNodeEnv || !saysTest) return [];
  const answers = node.type === "ternary_expression" || consequence.descendantsOfType("return_statement").some((r) => r && r.namedChildren.length > 0);
  return answers ? [
    finding(
      "markers",
      condition,
      "returns a different value when NODE_ENV is 'test', which the runner sets"
    )
  ] : [];
}

// src/lints/reach/index.ts
var PER_FILE_CAP2 = 20;
var MAX_FIXTURE_BYTES = 4 * 1024 * 1024;
var WHY = {
  framework: "production code must not import, reach or patch the test framework or the assertion library: the voting tests run in the same process and would judge a framework the patch rewrote",
  markers: "production code must not behave differently under a test runner or the gate: the tests would measure a branch production never takes",
  introspection: "production code must not read its callers' frames, the call stack or the heap: that is how code finds the test that calls it and its expected value",
  process: "production code must not end, rewire or outlive the runner's process: exit hooks, exit codes and signal handlers can hide a failing run or rewrite its report",
  instrument: "production code must not name the instrument's files (tests, fixtures, seeds, ledger, policy): reading them echoes the expected answers, writing them rewrites the oracle",
  comparison: "production code must not make comparisons lie: a value that equals anything, or a patched built-in, passes every assertion",
  echo: "production code must not special-case the inputs and expected output of a locked test or fixture: fix the code so the case passes for the reason the test states"
};
var ADVICE2 = "if this is a real need, list the path and category under lints.reach_allow in the policy (a reviewed PR of its own)";
async function oracleReach(input, level) {
  const { ctx, view } = input;
  const files = input.files.production.map((r) => r.path);
  if (files.length === 0) return [];
  const started = Date.now();
  const added = await view.added();
  const large = /* @__PURE__ */ new Set();
  for (const p of files) if (await view.isLarge(p)) large.add(p);
  const written = files.filter((p) => large.has(p) || (added.get(p)?.size ?? 0) > 0);
  if (written.length === 0) return [];
  const baseTree = [...(await ctx.trees.get(ctx.mergeBase)).values()].filter((e) => e.type === "blob").map((e) => e.path);
  const isInstrument = await instrumentPredicate(ctx);
  const names = instrumentNames(baseTree, isInstrument);
  const texts = await view.textsAt(
    ctx.head,
    written.filter((p) => !large.has(p))
  );
  const parsed = [];
  const notices = [];
  for (const path of written) {
    const language = languageOf2(path);
    if (language === void 0) continue;
    if (large.has(path)) {
      const file = await view.largeFile(path);
      if (file.unread > 0) notices.push(unreadNotice(file));
      parsed.push(await parseAdded(path, language, file.lines, names));
      continue;
    }
    const text2 = texts.get(path);
    if (text2 === void 0) continue;
    const within = touchingLines([...added.get(path)?.keys() ?? []].sort((a, b) => a - b));
    const tree = await view.tree(ctx.head, path, text2, language);
    parsed.push(detect(path, language, tree.rootNode, names, within));
  }
  const onAdded = (path, start2, end) => {
    const lines = added.get(path);
    for (let l = start2; l <= end; l++) if (lines?.has(l)) return l;
    return void 0;
  };
  const echoCandidates = parsed.some(
    (p) => p.constructs.some((c) => c.constants.some((k) => added.get(p.path)?.has(k.line)))
  );
  const cases = echoCandidates ? await lockedCases(ctx, baseTree, isInstrument) : [];
  for (const p of parsed) p.findings.push(...echoFindings(p.constructs, cases));
  const allowed = allowList(ctx.policy.lints.reach_allow, ctx.policy.case_insensitive);
  const isEntry = entryPoints(
    await ctx.git.showText(ctx.mergeBase, "package.json"),
    await ctx.git.showText(ctx.mergeBase, "pyproject.toml")
  );
  const reasons = [...notices];
  let waived = 0;
  for (const p of parsed) {
    const seen = /* @__PURE__ */ new Set();
    const kept2 = [];
    for (const f of p.findings.sort((a, b) => a.start - b.start)) {
      const line2 = onAdded(p.path, f.start, f.end);
      if (line2 === void 0 || seen.has(`${f.category}\0${line2}`)) continue;
      seen.add(`${f.category}\0${line2}`);
      if (allowed(p.path, f.category)) {
        waived++;
        continue;
      }
      const soft = f.mainOnly === true ? "main" : f.entryPointHabit === true && isEntry(p.path) ? "entry" : void 0;
      kept2.push(reasonOf(p.path, line2, f, soft === void 0 ? level : "notice", soft));
    }
    reasons.push(...kept2.slice(0, PER_FILE_CAP2));
    if (kept2.length > PER_FILE_CAP2) {
      reasons.push({
        rule: "oracle-reach",
        level,
        path: p.path,
        message: `${kept2.length - PER_FILE_CAP2} more oracle-reach finding(s) in this file`
      });
    }
  }
  ctx.log.info(
    `oracle-reach: ${parsed.length} production file(s) parsed, ${cases.length} locked case(s) read, ${reasons.length} finding(s), ${waived} allowed by lints.reach_allow; ${Date.now() - started} ms`
  );
  return reasons;
}
function printable2(text2, max = 240) {
  const clean = text2.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    "?"
  );
  return clean.length > max ? `${clean.slice(0, max)}\u2026` : clean;
}
var SOFTENED = {
  entry: "allowed in a command-line entry point; make sure the locked tests never import this file",
  main: "allowed: it runs only when the file is run as a program, never when a test imports it"
};
function reasonOf(path, line2, f, level, soft) {
  const what = printable2(f.what);
  const message2 = soft !== void 0 ? `${what} [${f.category}]: ${SOFTENED[soft]}` : `${what} [${f.category}]: ${WHY[f.category]}; ${ADVICE2}`;
  return { rule: "oracle-reach", level, path, line: line2, message: message2 };
}
function detect(path, language, root, names, within) {
  return {
    path,
    language,
    findings: (language === "python" ? detectPython : detectScript)(root, {
      instrumentName: names,
      within
    }),
    constructs: constructs(root, language, within)
  };
}
var RANGE_BYTES = 1024 * 1024;
async function parseAdded(path, language, lines, names) {
  const out2 = { path, language, findings: [], constructs: [] };
  for (const { first, text: text2 } of addedRanges(lines)) {
    const part = await withTree(
      path,
      language,
      text2,
      (tree) => detect(path, language, tree.rootNode, names)
    );
    const shift = first - 1;
    for (const f of part.findings)
      out2.findings.push({ ...f, start: f.start + shift, end: f.end + shift });
    for (const c of part.constructs)
      out2.constructs.push({
        start: c.start + shift,
        end: c.end + shift,
        constants: c.constants.map((k) => ({ ...k, line: k.line + shift }))
      });
  }
  return out2;
}
function addedRanges(lines) {
  const ranges = [];
  let first = 0;
  let next = 0;
  let parts2 = [];
  let bytes = 0;
  const flush = () => {
    if (parts2.length > 0) ranges.push({ first, text: parts2.join("\n") });
    parts2 = [];
    bytes = 0;
  };
  for (const line2 of [...lines.keys()].sort((a, b) => a - b)) {
    const text2 = lines.get(line2) ?? "";
    if (line2 !== next || bytes + text2.length > RANGE_BYTES) {
      flush();
      first = line2;
    }
    parts2.push(text2);
    bytes += text2.length + 1;
    next = line2 + 1;
  }
  flush();
  return ranges;
}
function unreadNotice(file) {
  const mib = (n) => (n / 1024 / 1024).toFixed(1);
  return {
    rule: "oracle-reach",
    level: "notice",
    path: file.path,
    message: `${mib(file.unread)} MiB of the text added to this ${mib(file.size)} MiB file was not read: the lints read up to ${MAX_ADDED_TEXT_BYTES / 1024 / 1024} MiB of added text per large file (the limit)`
  };
}
async function withTree(path, language, text2, fn) {
  const parser = await parserFor(language);
  const tree = parser.parse(text2);
  if (tree === null) throw new GateError(`tree-sitter could not parse ${path}`, { path });
  try {
    return fn(tree);
  } finally {
    tree.delete();
  }
}
async function instrumentPredicate(ctx) {
  return (ctx.instrument ?? await instrumentView(ctx)).isOracle;
}
var FIXTURE_FILE = /\.(json|jsonl|ndjson|csv|tsv)$/i;
async function lockedCases(ctx, baseTree, isInstrument) {
  const { planes } = ctx;
  const tests = baseTree.filter((p) => languageOf2(p) !== void 0 && planes.planeOf(p) === "voting");
  const fixtures = baseTree.filter(
    (p) => FIXTURE_FILE.test(p) && isInstrument(p) && p !== ctx.policy.ledger
  );
  const blobs = await readBlobs2(ctx.git, ctx.mergeBase, [...tests, ...fixtures]);
  const cases = [];
  for (const path of tests) {
    const bytes = blobs.get(path);
    const language = languageOf2(path);
    if (bytes === void 0 || language === void 0) continue;
    cases.push(
      ...await withTree(
        path,
        language,
        bytes.toString("utf8"),
        (tree) => testCases(tree.rootNode, language, path)
      )
    );
  }
  for (const path of fixtures) {
    const bytes = blobs.get(path);
    if (bytes !== void 0 && bytes.length <= MAX_FIXTURE_BYTES)
      cases.push(...fixtureCases(path, bytes.toString("utf8")));
  }
  return cases;
}

// src/lints/skip-marker/mask.ts
function maskCode(text2, lang) {
  return new Masker(text2, lang).run();
}
var Masker = class {
  constructor(text2, lang) {
    this.text = text2;
    this.lang = lang;
    this.out = text2.split("");
  }
  text;
  lang;
  out;
  /** JS templates nest code (`${...}`): the brace depth at which each open one resumes. */
  templates = [];
  braces = 0;
  lastCode = "";
  i = 0;
  run() {
    while (this.i < this.text.length) {
      if (this.lang === "python") this.pythonStep();
      else this.cLikeStep();
    }
    return this.out.join("");
  }
  blank(from, to) {
    for (let k = from; k < to && k < this.out.length; k++)
      if (this.out[k] !== "\n") this.out[k] = " ";
  }
  /** Scans a quoted literal opened at `start` (after the opening quote(s)); returns the index after it. */
  quoted(start2, close, escapes, multiline) {
    const { text: text2 } = this;
    let k = start2;
    while (k < text2.length) {
      if (escapes && text2[k] === "\\") {
        k += 2;
        continue;
      }
      if (text2.startsWith(close, k)) {
        this.blank(start2, k);
        return k + close.length;
      }
      if (!multiline && text2[k] === "\n") break;
      k++;
    }
    this.blank(start2, k);
    return k;
  }
  pythonStep() {
    const { text: text2, i: i2 } = this;
    const c = text2[i2];
    if (c === "#") {
      const end = lineEnd(text2, i2);
      this.blank(i2, end);
      this.i = end;
    } else if (c === '"' || c === "'") {
      const triple = text2.startsWith(c.repeat(3), i2);
      const open3 = triple ? 3 : 1;
      this.i = this.quoted(i2 + open3, c.repeat(open3), true, triple);
    } else {
      this.i++;
    }
  }
  /** JS/TS, Go and Java: comments, quotes, raw and text blocks, then JS's own tokens. */
  cLikeStep() {
    const { text: text2, i: i2, lang } = this;
    const c = text2[i2];
    const next = text2[i2 + 1];
    if (c === "/" && next === "/") {
      const end = lineEnd(text2, i2);
      this.blank(i2, end);
      this.i = end;
    } else if (c === "/" && next === "*") {
      const end = text2.indexOf("*/", i2 + 2);
      const stop2 = end === -1 ? text2.length : end + 2;
      this.blank(i2, stop2);
      this.i = stop2;
    } else if (lang === "java" && text2.startsWith('"""', i2)) {
      this.i = this.quoted(i2 + 3, '"""', true, true);
    } else if (c === '"' || c === "'") {
      this.i = this.quoted(i2 + 1, c, true, false);
      this.lastCode = c;
    } else if (c === "`" && lang === "go") {
      this.i = this.quoted(i2 + 1, "`", false, true);
      this.lastCode = c;
    } else if (lang !== "js" || !this.scriptToken(c)) {
      if (!/\s/.test(c)) this.lastCode = /[\w$]/.test(c) ? wordBefore(text2, i2 + 1) : c;
      this.i++;
    }
  }
  /** Template text and regular expressions; braces are counted. False: an ordinary character. */
  scriptToken(c) {
    const { text: text2, i: i2, templates } = this;
    if (c === "`" || c === "}" && templates.length > 0 && templates[templates.length - 1] === this.braces) {
      if (c === "}") templates.pop();
      let k = i2 + 1;
      while (k < text2.length && text2[k] !== "`" && !(text2[k] === "$" && text2[k + 1] === "{")) {
        k += text2[k] === "\\" ? 2 : 1;
      }
      this.blank(i2 + 1, k);
      if (text2[k] === "$") {
        templates.push(this.braces);
        this.i = k + 2;
      } else {
        this.i = k + 1;
      }
      this.lastCode = "`";
      return true;
    }
    if (c === "{") this.braces++;
    if (c === "}") this.braces--;
    if (c === "/" && regexAllowedAfter(this.lastCode)) {
      this.i = regexLiteral(text2, i2, (from, to) => this.blank(from, to));
      this.lastCode = "/";
      return true;
    }
    return false;
  }
};
function lineEnd(text2, from) {
  const end = text2.indexOf("\n", from);
  return end === -1 ? text2.length : end;
}
function wordBefore(text2, end) {
  let start2 = end;
  while (start2 > 0 && /[\w$]/.test(text2[start2 - 1])) start2--;
  return text2.slice(start2, end);
}
function regexAllowedAfter(last) {
  if (last === "") return true;
  if (/^[\w$]+$/.test(last))
    return /^(?:return|typeof|instanceof|in|of|new|delete|void|throw|case|do|else|yield|await)$/.test(
      last
    );
  return !/[)\]}`'"]/.test(last);
}
function regexLiteral(text2, start2, blank) {
  let k = start2 + 1;
  let inClass = false;
  while (k < text2.length && text2[k] !== "\n") {
    const c = text2[k];
    if (c === "\\") {
      k += 2;
      continue;
    }
    if (c === "[") inClass = true;
    else if (c === "]") inClass = false;
    else if (c === "/" && !inClass) {
      blank(start2 + 1, k);
      return k + 1;
    }
    k++;
  }
  return start2 + 1;
}

// src/lints/skip-marker/markers.ts
var SUPPRESSIONS = {
  // JS/TS and Python suppressions are read off the syntax tree (script.ts, python.ts).
  python: [],
  js: [],
  go: [{ re: /\b[A-Za-z_]\w*\.(Skipf|SkipNow|Skip)\s*\(/g, label: (m) => `t.${m[1]}` }],
  java: [{ re: /@\s*(Disabled\w*|Ignore)\b/g, label: (m) => `@${m[1]}` }]
};
function suppressionsIn(line2, lang) {
  const hits2 = [];
  for (const pattern of SUPPRESSIONS[lang]) {
    pattern.re.lastIndex = 0;
    for (let m = pattern.re.exec(line2); m !== null; m = pattern.re.exec(line2)) {
      const label2 = pattern.label(m);
      const silencesOthers = pattern.silencesOthers ?? /\.only$|\{ only:/.test(label2);
      if (!hits2.some((h) => h.label === label2))
        hits2.push({ label: label2, silencesOthers, column: m.index + 1 });
    }
  }
  return hits2;
}
var TIMEOUT_DEFAULTS = {
  deadline: 200,
  // hypothesis, milliseconds
  testTimeout: 5e3,
  // jest and vitest, milliseconds
  hookTimeout: 1e4,
  // vitest, milliseconds
  mocha: 2e3
  // mocha, milliseconds
};
var NUMBER = "(None|null|Infinity|\\d[\\d_]*(?:\\.\\d+)?)";
var TIMEOUTS = {
  python: [
    {
      re: new RegExp(`\\bmark\\.timeout\\s*\\(\\s*${NUMBER}`, "g"),
      kind: "timeout",
      label: "pytest.mark.timeout"
    },
    {
      re: new RegExp(`\\btimeout\\s*=\\s*${NUMBER}`, "g"),
      kind: "timeout",
      label: "timeout=",
      unlimited: /^None$/
    },
    {
      re: new RegExp(`\\bdeadline\\s*=\\s*${NUMBER}`, "g"),
      kind: "deadline",
      label: "deadline=",
      unlimited: /^None$/
    }
  ],
  js: [
    {
      re: new RegExp(`\\b(?:jest|vi)\\s*\\.\\s*setTimeout\\s*\\(\\s*${NUMBER}`, "g"),
      kind: "testTimeout",
      label: "setTimeout(",
      unlimited: /^Infinity$/
    },
    {
      re: new RegExp(`\\btestTimeout\\s*:\\s*${NUMBER}`, "g"),
      kind: "testTimeout",
      label: "testTimeout:",
      unlimited: /^Infinity$/
    },
    {
      re: new RegExp(`\\bhookTimeout\\s*:\\s*${NUMBER}`, "g"),
      kind: "hookTimeout",
      label: "hookTimeout:",
      unlimited: /^Infinity$/
    },
    {
      re: new RegExp(`(?<![\\w$])timeout\\s*:\\s*${NUMBER}`, "g"),
      kind: "timeout",
      label: "timeout:",
      unlimited: /^Infinity$/
    },
    {
      re: new RegExp(`\\bthis\\s*\\.\\s*timeout\\s*\\(\\s*${NUMBER}`, "g"),
      kind: "mocha",
      label: "this.timeout(",
      unlimited: /^0$/
    }
  ],
  go: [],
  java: [
    {
      re: new RegExp(`@\\s*Timeout\\s*\\(\\s*(?:value\\s*=\\s*)?${NUMBER}`, "g"),
      kind: "timeout",
      label: "@Timeout"
    },
    { re: new RegExp(`\\btimeout\\s*=\\s*${NUMBER}`, "g"), kind: "timeout", label: "timeout =" }
  ]
};
function timeoutsIn(line2, lang) {
  const hits2 = [];
  for (const pattern of TIMEOUTS[lang]) {
    pattern.re.lastIndex = 0;
    for (let m = pattern.re.exec(line2); m !== null; m = pattern.re.exec(line2)) {
      const raw = m[1];
      const value = pattern.unlimited?.test(raw) ? Infinity : Number(raw.replace(/_/g, ""));
      if (Number.isNaN(value)) continue;
      hits2.push({ kind: pattern.kind, label: pattern.label, value, column: m.index + 1 });
    }
  }
  return hits2;
}
function addHit(hits2, line2, hit) {
  const list2 = hits2.get(line2);
  if (list2 === void 0) hits2.set(line2, [hit]);
  else if (!list2.some((h) => h.label === hit.label)) list2.push(hit);
}
var MarkerReader = class {
  constructor(root, production, resolver) {
    this.root = root;
    this.production = production;
    this.resolver = resolver;
  }
  root;
  production;
  resolver;
  hits = /* @__PURE__ */ new Map();
  valueOf(node) {
    return this.resolver.valueOf(node);
  }
  add(line2, hit) {
    addHit(this.hits, line2, hit);
  }
};

// src/lints/skip-marker/python-values.ts
var PYTEST_MARKERS = /* @__PURE__ */ new Set(["skip", "xfail", "importorskip"]);
var MARK_MARKERS = /* @__PURE__ */ new Set(["skip", "skipif", "xfail"]);
var UNITTEST_MARKERS = /* @__PURE__ */ new Set(["skip", "skipIf", "skipUnless", "expectedFailure"]);
var BARE_DECORATORS = UNITTEST_MARKERS;
function isFramework(module2) {
  return module2 === "pytest" || module2.startsWith("pytest.") || module2 === "unittest" || module2.startsWith("unittest.");
}
function globalValue(name2) {
  if (name2 === "pytest") return { kind: "module", name: "pytest" };
  if (name2 === "unittest") return { kind: "module", name: "unittest" };
  if (name2 === "mark") return { kind: "module", name: "mark" };
  return void 0;
}
function member(object, prop) {
  switch (object.kind) {
    case "module":
      if (object.name === "pytest") {
        if (prop === "mark") return { kind: "module", name: "mark" };
        return PYTEST_MARKERS.has(prop) ? { kind: "marker", label: `pytest.${prop}(` } : void 0;
      }
      if (object.name === "mark")
        return MARK_MARKERS.has(prop) ? { kind: "marker", label: `pytest.mark.${prop}` } : void 0;
      if (prop === "SkipTest") return { kind: "marker", label: "raise SkipTest" };
      return UNITTEST_MARKERS.has(prop) ? { kind: "marker", label: `unittest.${prop}` } : void 0;
    case "marker":
      return object;
    case "helpers": {
      const marked = object.exports.get(prop);
      return marked ? { kind: "marker", label: `${marked.label} (${prop} from ${object.module})` } : void 0;
    }
    default:
      return void 0;
  }
}
function strongest(values) {
  return values.find((v) => v?.kind === "marker") ?? values.find((v) => v !== void 0);
}

// src/lints/skip-marker/python.ts
function pythonMarkers(tree, options = {}) {
  return new PythonAnalysis(tree, options).run();
}
function markerDomain(options) {
  const production = options.production ?? false;
  return {
    module: (name2) => {
      if (name2 === "pytest") return { kind: "module", name: "pytest" };
      if (name2 === "pytest.mark" || name2 === "_pytest.mark") return { kind: "module", name: "mark" };
      if (name2 === "unittest" || name2.startsWith("unittest."))
        return { kind: "module", name: "unittest" };
      const exports = options.helpers?.(name2);
      return exports && exports.size > 0 ? { kind: "helpers", module: name2, exports } : void 0;
    },
    member,
    global: globalValue,
    join: strongest,
    attribute: (name2) => name2 === "skipTest" && !production ? { kind: "marker", label: "skipTest(" } : void 0,
    // pytest.mark.skipif(cond) and unittest.skip('why') return markers; pytest.skip(),
    // pytest.importorskip('x') and skipTest() do their work and return something else.
    call: (callee) => callee?.kind === "marker" && !callee.label.endsWith("(") ? callee : void 0,
    // A def or class whose body holds a marker marks what it decorates or is called on.
    definition: (node, resolver) => {
      const body2 = node.childForFieldName("body");
      for (const inner of body2?.descendantsOfType(["attribute", "identifier", "call"]) ?? []) {
        const value = inner ? resolver.valueOf(inner) : void 0;
        if (value?.kind === "marker") return value;
      }
      return void 0;
    }
  };
}
var PythonAnalysis = class extends MarkerReader {
  constructor(tree, options) {
    const resolver = new PythonResolver(tree.rootNode, markerDomain(options));
    super(tree.rootNode, options.production ?? false, resolver);
  }
  run() {
    const root = this.root;
    for (const node of eachOfType(root, ["identifier", "attribute", "call", "subscript"])) {
      this.reference(node);
    }
    if (!this.production) this.bareRules(root);
    return this.hits;
  }
  // ------------------------------------------------------------ findings
  /** A marker whose value is made here (its object or callee is not a marker already). */
  reference(node) {
    if (node.type === "identifier" && isDeclarationName(node)) return;
    const value = this.valueOf(node);
    if (value?.kind !== "marker") return;
    const inner = node.type === "attribute" ? node.childForFieldName("object") : node.type === "call" ? node.childForFieldName("function") : node.type === "subscript" ? node.childForFieldName("value") : null;
    if (inner && this.valueOf(inner)?.kind === "marker") return;
    const at2 = node.type === "attribute" ? node.childForFieldName("attribute") ?? node : node;
    this.add(at2.startPosition.row + 1, {
      label: value.label,
      silencesOthers: false,
      column: at2.startPosition.column + 1
    });
  }
  /** What the old line rules matched whatever the binding: `@skip(...)`, `raise SkipTest`. */
  bareRules(root) {
    for (const decorator of root.descendantsOfType("decorator")) {
      const expr = decorator?.namedChildren[0];
      const callee = expr?.type === "call" ? expr.childForFieldName("function") : expr;
      if (callee?.type === "identifier" && BARE_DECORATORS.has(pyName(callee))) {
        this.add(callee.startPosition.row + 1, {
          label: `unittest.${pyName(callee)}`,
          silencesOthers: false,
          column: callee.startPosition.column + 1
        });
      }
    }
    for (const raise of root.descendantsOfType("raise_statement")) {
      const expr = raise?.namedChildren[0];
      const target = expr?.type === "call" ? expr.childForFieldName("function") : expr;
      const name2 = target?.type === "attribute" ? target.childForFieldName("attribute") : target;
      if (name2 && pyName(name2) === "SkipTest" && raise)
        this.add(raise.startPosition.row + 1, {
          label: "raise SkipTest",
          silencesOthers: false,
          column: raise.startPosition.column + 1
        });
    }
  }
};

// src/lints/skip-marker/python-exports.ts
function pythonImports(tree) {
  return importedModules(tree.rootNode).filter((m) => !isFramework(m));
}
function pythonMarkedExports(tree) {
  const hits2 = pythonMarkers(tree, { production: true });
  const exports = /* @__PURE__ */ new Map();
  if (hits2.size === 0) return exports;
  for (const statement of tree.rootNode.namedChildren) {
    if (!statement) continue;
    const definition = statement.type === "decorated_definition" ? statement.childForFieldName("definition") : statement;
    let names = [];
    if (definition?.type === "function_definition" || definition?.type === "class_definition") {
      const name2 = definition.childForFieldName("name");
      if (name2) names = [pyName(name2)];
    } else if (statement.type === "expression_statement") {
      const assignment = statement.namedChildren[0];
      const left = assignment?.type === "assignment" ? assignment.childForFieldName("left") : null;
      if (left?.type === "identifier") names = [pyName(left)];
    }
    for (let line2 = statement.startPosition.row + 1; line2 <= statement.endPosition.row + 1; line2++) {
      const hit = hits2.get(line2)?.[0];
      if (!hit) continue;
      for (const name2 of names) exports.set(name2, { label: hit.label, only: false });
      break;
    }
  }
  return exports;
}

// src/lints/skip-marker/script-values.ts
var OPTION_KEYS = /* @__PURE__ */ new Set(["skip", "todo", "only", "fails"]);
var CONTEXT_MARKERS = {
  skip: false,
  todo: false,
  runOnly: true
};
var CONTEXT_NAMES = /* @__PURE__ */ new Set(["ctx", "context", "t"]);
function isDeclarationName2(node) {
  const parent = node.parent;
  if (parent === null || node.type !== "identifier") return false;
  if (IMPORT_PARTS.has(parent.type)) return true;
  return parent.type === "variable_declarator" && parent.childForFieldName("name")?.id === node.id;
}
var IMPORT_PARTS = /* @__PURE__ */ new Set(["import_specifier", "namespace_import", "import_clause"]);
function globalValue2(name2) {
  if (JS_TEST_FUNCTIONS.has(name2) || JS_BENCH_FUNCTIONS.has(name2) || JS_GROUP_FUNCTIONS.has(name2))
    return { kind: "root", name: name2 };
  const marker2 = Object.hasOwn(JS_MARKER_GLOBALS, name2) ? JS_MARKER_GLOBALS[name2] : void 0;
  if (marker2) return { kind: "marker", root: marker2.root, label: name2, only: marker2.only };
  if (JS_HOOKS.has(name2)) return { kind: "hook" };
  if (JS_GLOBAL_OBJECTS.has(name2)) return { kind: "module" };
  return void 0;
}
function member2(object, prop) {
  switch (object.kind) {
    case "module":
      if (object.callable !== void 0 && JS_TEST_MODIFIERS.has(prop))
        return marker(object.callable, prop);
      return globalValue2(prop);
    case "root":
      return JS_TEST_MODIFIERS.has(prop) ? marker(object.name, prop) : object;
    case "marker":
      return object;
    case "helpers": {
      const marked = object.exports.get(prop);
      return marked ? {
        kind: "marker",
        root: "test",
        label: `${marked.label} (${prop} from ${object.specifier})`,
        only: marked.only
      } : void 0;
    }
    case "context":
      if (prop in CONTEXT_MARKERS)
        return {
          kind: "marker",
          root: "test",
          label: `${object.name}.${prop}(`,
          only: CONTEXT_MARKERS[prop] ?? false
        };
      return prop === "test" ? { kind: "root", name: "test" } : void 0;
    default:
      return void 0;
  }
}
function marker(root, prop) {
  return { kind: "marker", root, label: `${root}.${prop}`, only: prop === "only" };
}
function strongest2(values) {
  const rank2 = (v) => v === void 0 ? 0 : v.kind === "marker" ? 6 : v.kind === "root" ? 5 : v.kind === "module" ? 4 : v.kind === "context" ? 3 : v.kind === "hook" ? 2 : 1;
  let best;
  for (const v of values) if (rank2(v) > rank2(best)) best = v;
  return best;
}
function markerPosition(node) {
  const part = node.childForFieldName("property") ?? node.childForFieldName("index") ?? node;
  return part.startPosition;
}
function isFalsyLiteral(node) {
  if (node.type === "false" || node.type === "null" || node.type === "undefined") return true;
  if (node.type === "identifier" && node.text === "undefined") return true;
  if (node.type === "number") return Number(node.text) === 0;
  if (node.type === "string") return node.text.length === 2;
  return false;
}
function titleText(text2) {
  let out2 = "";
  for (let j = 1; j < text2.length - 1; j++) {
    if (text2[j] === "\\") {
      out2 += text2[j + 1] ?? "";
      j++;
      continue;
    }
    out2 += text2[j];
  }
  return out2;
}

// src/lints/skip-marker/script.ts
function scriptMarkers(tree, options = {}) {
  return new Analysis(tree, options).run();
}
function markerDomain2(options) {
  const production = options.production ?? false;
  return {
    // What importing a module gives: a framework, a helper module with marked exports, or nothing.
    module: (specifier) => {
      if (JS_TEST_MODULES.has(specifier))
        return { kind: "module", callable: specifier === "node:test" ? "test" : void 0 };
      const exports = specifier.startsWith(".") ? options.helpers?.(specifier) : void 0;
      return exports && exports.size > 0 ? { kind: "helpers", specifier, exports } : void 0;
    },
    // A default import: node:test's default export is `test` itself.
    defaultImport: (module2) => module2.kind === "helpers" ? member2(module2, "default") : module2,
    member: member2,
    global: globalValue2,
    join: strongest2,
    this: () => production ? void 0 : { kind: "context", name: "this" },
    // test.each(table) and test.skipIf(cond) return test functions.
    call: (fn) => fn?.kind === "root" || fn?.kind === "marker" ? fn : void 0,
    // A function passed to a test call or a hook: its first parameter is the test context.
    parameter: (fn, name2, resolver) => {
      const args3 = fn.parent;
      const call = args3?.parent;
      if (args3?.type !== "arguments" || call?.type !== "call_expression") return void 0;
      const callee = resolver.valueOf(call.childForFieldName("function"));
      return callee?.kind === "root" || callee?.kind === "marker" || callee?.kind === "hook" ? { kind: "context", name: name2 } : void 0;
    }
  };
}
var Analysis = class extends MarkerReader {
  constructor(tree, options) {
    const resolver = new ScriptResolver(tree.rootNode, markerDomain2(options));
    super(tree.rootNode, options.production ?? false, resolver);
  }
  run() {
    const root = this.root;
    for (const node of root.descendantsOfType([
      "identifier",
      "this",
      "member_expression",
      "subscript_expression"
    ])) {
      if (node) this.reference(node);
    }
    const spans = [];
    for (const call of root.descendantsOfType("call_expression")) {
      if (!call) continue;
      const span = this.testCall(call);
      if (span) spans.push(span);
    }
    return { hits: this.hits, spans };
  }
  // ------------------------------------------------------------ findings
  /** A marker whose value is made here (its object, if any, is not a marker already). */
  reference(node) {
    if (isDeclarationName2(node)) return;
    const value = this.valueOf(node);
    let hit;
    if (value?.kind === "marker") {
      const object = node.childForFieldName("object");
      if (object && this.valueOf(object)?.kind === "marker") return;
      hit = { label: value.label, silencesOthers: value.only, column: 0 };
    } else if (node.type === "member_expression" && !this.production) {
      hit = this.legacyContextSkip(node);
    }
    if (hit === void 0) return;
    const at2 = markerPosition(node);
    this.add(at2.row + 1, { ...hit, column: at2.column + 1 });
  }
  /** `ctx.skip()` / `t.skip()` on a name the gate cannot follow (the old line rule). */
  legacyContextSkip(node) {
    const object = node.childForFieldName("object");
    const property = node.childForFieldName("property");
    if (object?.type !== "identifier" || !property || identifierName(property) !== "skip")
      return void 0;
    const name2 = identifierName(object);
    if (!CONTEXT_NAMES.has(name2) || this.valueOf(object) !== void 0) return void 0;
    if (node.parent?.type !== "call_expression") return void 0;
    return { label: `${name2}.skip(`, silencesOthers: false, column: 0 };
  }
  /** A test call: its options are checked for markers, its title makes a span. */
  testCall(call) {
    const callee = this.valueOf(call.childForFieldName("function"));
    if (callee?.kind !== "root" && callee?.kind !== "marker") return void 0;
    const args3 = call.childForFieldName("arguments")?.namedChildren ?? [];
    for (const arg of args3) if (arg) this.testOptions(arg);
    const first = args3[0];
    if (!first || first.type !== "string" && first.type !== "template_string") return void 0;
    return {
      title: titleText(first.text),
      group: JS_GROUP_FUNCTIONS.has(callee.kind === "root" ? callee.name : callee.root),
      from: call.startPosition.row + 1,
      to: call.endPosition.row + 1
    };
  }
  /** `{ skip: <anything but a falsy literal> }` among a test call's arguments. */
  testOptions(arg) {
    let object = arg;
    if (arg.type === "identifier") object = this.resolver.declaration(arg);
    if (object?.type !== "object") return;
    for (const entry of object.namedChildren) {
      if (!entry) continue;
      const shorthand = entry.type === "shorthand_property_identifier";
      if (!shorthand && entry.type !== "pair") continue;
      const key4 = shorthand ? identifierName(entry) : this.resolver.propertyKey(entry.childForFieldName("key"));
      if (key4 === void 0 || !OPTION_KEYS.has(key4)) continue;
      const value = shorthand ? entry : entry.childForFieldName("value");
      if (value && isFalsyLiteral(value)) continue;
      this.add(entry.startPosition.row + 1, {
        label: `{ ${key4}: ... }`,
        silencesOthers: key4 === "only",
        column: entry.startPosition.column + 1
      });
    }
  }
};

// src/lints/skip-marker/script-exports.ts
function relativeImports(tree) {
  const found = /* @__PURE__ */ new Set();
  for (const node of tree.rootNode.descendantsOfType(["import_statement", "call_expression"])) {
    if (!node) continue;
    const source = node.type === "import_statement" ? node.childForFieldName("source") : node.childForFieldName("function")?.text === "require" ? node.childForFieldName("arguments")?.namedChildren[0] ?? null : null;
    const specifier = source ? stringValue(source) : void 0;
    if (specifier?.startsWith(".")) found.add(specifier);
  }
  return [...found];
}
function markedExports(tree) {
  const { hits: hits2 } = scriptMarkers(tree, { production: true });
  const exports = /* @__PURE__ */ new Map();
  if (hits2.size === 0) return exports;
  const markerIn = (node) => {
    for (let line2 = node.startPosition.row + 1; line2 <= node.endPosition.row + 1; line2++) {
      const hit = hits2.get(line2)?.[0];
      if (hit) return hit;
    }
    return void 0;
  };
  const topLevel = /* @__PURE__ */ new Map();
  for (const statement of tree.rootNode.namedChildren) {
    const declaration = statement?.type === "export_statement" ? statement.childForFieldName("declaration") ?? statement : statement;
    if (declaration) for (const name2 of declaredNames(declaration)) topLevel.set(name2, declaration);
  }
  const mark = (name2, node) => {
    const hit = node && markerIn(node);
    if (hit) exports.set(name2, { label: hit.label, only: hit.silencesOthers });
  };
  for (const statement of tree.rootNode.namedChildren) {
    if (statement?.type !== "export_statement" || statement.childForFieldName("source")) continue;
    const declaration = statement.childForFieldName("declaration");
    if (declaration) {
      for (const name2 of declaredNames(declaration)) mark(name2, declaration);
      continue;
    }
    const value = statement.childForFieldName("value");
    if (value) {
      mark("default", value);
      continue;
    }
    for (const spec of statement.descendantsOfType("export_specifier")) {
      const local = spec?.childForFieldName("name");
      if (!spec || !local) continue;
      const exported = spec.childForFieldName("alias") ?? local;
      mark(identifierName(exported), topLevel.get(identifierName(local)));
    }
  }
  return exports;
}
function declaredNames(node) {
  if (node.type === "function_declaration" || node.type === "class_declaration") {
    const name2 = node.childForFieldName("name");
    return name2 ? [identifierName(name2)] : [];
  }
  if (node.type !== "lexical_declaration" && node.type !== "variable_declaration") return [];
  return node.namedChildren.flatMap((d) => {
    const name2 = d?.type === "variable_declarator" ? d.childForFieldName("name") : null;
    return name2?.type === "identifier" ? [identifierName(name2)] : [];
  });
}

// src/replay/ids.ts
import { readFileSync } from "node:fs";
import { isAbsolute, join as join4, relative } from "node:path";
var JEST_JUNIT_ENV = {
  JEST_JUNIT_ADD_FILE_ATTRIBUTE: "true",
  JEST_JUNIT_CLASSNAME: "{classname}",
  JEST_JUNIT_TITLE: "{title}",
  JEST_JUNIT_ANCESTOR_SEPARATOR: " > "
};
var PY = /\.py$/;
var PLANE_RANK = {
  voting: 0,
  protected: 1,
  drafts: 2,
  in_diff: 3,
  other: 4,
  source: 5
};
function canonicalId(c, ctx, index) {
  if (typeof c === "string") return `${c}::${ctx.join(" > ")}`;
  return caseId(c, ctx, index ?? new FileIndex(ctx));
}
function caseId(c, ctx, index) {
  if (c.file) return fromFileAttribute(c, toRepoPath(c.file, ctx.root), ctx.runner === "jest");
  const classPath = normalisePath(c.classname);
  if (SOURCE_PATH.test(classPath) && index.has(classPath)) {
    return { id: `${classPath}::${c.name}`, file: classPath };
  }
  const py = pythonModule(c, index);
  if (py) return py;
  const go = goTest(c, ctx, index);
  if (go) return go;
  const jvm = jvmClass(c, ctx, index);
  if (jvm) return jvm;
  for (let i2 = c.suites.length - 1; i2 >= 0; i2--) {
    const suite = normalisePath(c.suites[i2] ?? "");
    if (suite !== "" && SOURCE_PATH.test(suite) && index.has(suite))
      return { id: ctx.runner === "jest" ? jestId(suite, c) : `${suite}::${c.name}`, file: suite };
  }
  if (c.classname === "test" || c.classname === "") {
    const chain = [...c.suites.filter((s) => s !== ""), c.name];
    const file = index.fileWithLiteral(chain[0] ?? c.name);
    if (file && index.headWritten(file))
      return { id: `${file}::${chain.join(" > ")}`, file, provisional: true };
    if (file) return { id: `${file}::${chain.join(" > ")}`, file };
  }
  return { id: c.classname ? `${c.classname}::${c.name}` : c.name, file: null };
}
function jestId(path, c) {
  return canonicalId(path, c.classname === "" ? [c.name] : [c.classname, c.name]);
}
function fromFileAttribute(c, path, jest) {
  if (jest && SCRIPT_PATH.test(path)) return { id: jestId(path, c), file: path };
  if (PY.test(path)) {
    const module2 = path.slice(0, -3).replace(/\//g, ".");
    if (c.classname === "" && c.name === module2) return { id: `${path}::<collection>`, file: path };
    if (c.classname.startsWith(`${module2}.`)) {
      const classes = c.classname.slice(module2.length + 1).split(".");
      return { id: [path, ...classes, c.name].join("::"), file: path };
    }
  }
  return { id: `${path}::${c.name}`, file: path };
}
function pythonModule(c, index) {
  const collection = c.classname === "" && /^[\w.]+$/.test(c.name);
  const dotted3 = collection ? c.name : c.classname;
  if (!/^[\w.]+$/.test(dotted3)) return null;
  const parts2 = dotted3.split(".");
  for (let i2 = parts2.length; i2 >= 1; i2--) {
    const file = `${parts2.slice(0, i2).join("/")}.py`;
    if (!index.has(file)) continue;
    if (collection && i2 === parts2.length) return { id: `${file}::<collection>`, file };
    if (collection) continue;
    return { id: [file, ...parts2.slice(i2), c.name].join("::"), file };
  }
  return null;
}
function goTest(c, ctx, index) {
  const mod = ctx.goModule;
  if (!mod || c.classname !== mod && !c.classname.startsWith(`${mod}/`)) return null;
  const dir = c.classname === mod ? "" : c.classname.slice(mod.length + 1);
  const top = c.name.split("/")[0] ?? c.name;
  const declares2 = new RegExp(`^func\\s+${escapeRegExp(top)}\\s*\\(`, "m");
  const candidates = index.filesIn(dir).filter((f) => f.endsWith("_test.go"));
  const file = candidates.find((f) => declares2.test(ctx.read(f) ?? ""));
  if (file) return { id: `${file}::${c.name}`, file };
  return { id: `${dir === "" ? "." : dir}::${c.name}`, file: null };
}
function jvmClass(c, ctx, index) {
  if (!/^[\w$]+(\.[\w$]+)+$/.test(c.classname) && !/^[A-Z][\w$]*$/.test(c.classname)) return null;
  const [outer = "", ...nested] = c.classname.split("$");
  const rel = outer.replace(/\./g, "/");
  const matches = index.all.filter(
    (f) => JVM_EXTENSIONS.some((ext) => f === `${rel}${ext}` || f.endsWith(`/${rel}${ext}`))
  );
  if (matches.length === 0) return null;
  const moduleRoot = ctx.reportDir?.replace(/(^|\/)(target|build)\/.*$/, "");
  const file = (moduleRoot ? matches.find((f) => f.startsWith(`${moduleRoot}/`)) : void 0) ?? matches[0] ?? "";
  return { id: [file, ...nested, c.name].join("::"), file };
}
function toRepoPath(file, root) {
  const path = isAbsolute(file) ? relative(root, file) : file;
  return normalisePath(path);
}
var FileIndex = class {
  constructor(ctx) {
    this.ctx = ctx;
    this.all = ctx.files;
    this.set = new Set(ctx.files);
  }
  ctx;
  all;
  set;
  literalCache = /* @__PURE__ */ new Map();
  byPlane = null;
  baseSet = null;
  has(path) {
    return this.set.has(path);
  }
  filesIn(dir) {
    const prefix = dir === "" ? "" : `${dir}/`;
    return this.all.filter((f) => f.startsWith(prefix) && !f.slice(prefix.length).includes("/"));
  }
  /**
   * The JS/TS file that spells `title` as a string literal. Files on the voting plane are
   * searched first, then drafts, in-diff and the rest, so a patch cannot pull a voting test
   * off its plane by repeating its title in a file of its own.
   */
  fileWithLiteral(title) {
    const cached = this.literalCache.get(title);
    if (cached !== void 0) return cached;
    const needles = [`'${title}'`, `"${title}"`, `\`${title}\``, JSON.stringify(title)];
    let found = null;
    for (const file of this.jsFilesByPlane()) {
      const text2 = this.ctx.read(file);
      if (text2 !== null && needles.some((n) => text2.includes(n))) {
        found = file;
        break;
      }
    }
    this.literalCache.set(title, found);
    return found;
  }
  /** A file the merge base does not have (the head wrote it): its mapping is provisional. */
  headWritten(file) {
    const base = this.ctx.literalFiles;
    if (base === void 0) return false;
    this.baseSet ??= new Set(base);
    return !this.baseSet.has(file);
  }
  /**
   * Test files only (never production code, which could spell a title on purpose), the
   * merge base's first (voting, drafts, in-diff, the rest), then those the head wrote.
   */
  jsFilesByPlane() {
    if (this.byPlane === null) {
      const js = this.all.filter(
        (f) => SCRIPT_PATH.test(f) && !f.includes("node_modules/") && this.ctx.planeOf(f) !== "source"
      );
      this.byPlane = js.map((f) => ({ f, rank: PLANE_RANK[this.ctx.planeOf(f)] + (this.headWritten(f) ? 10 : 0) })).sort((a, b) => a.rank - b.rank || (a.f < b.f ? -1 : a.f > b.f ? 1 : 0)).map((x) => x.f);
    }
    return this.byPlane;
  }
};
function worktreeIdContext(root, files, planeOf, reportDir, more = {}) {
  const cache = /* @__PURE__ */ new Map();
  const read = (path) => {
    if (!cache.has(path)) {
      try {
        cache.set(path, readFileSync(join4(root, path), "utf8"));
      } catch {
        cache.set(path, null);
      }
    }
    return cache.get(path) ?? null;
  };
  const ctx = { root, files: [...files].sort(), planeOf, read };
  const goMod = read("go.mod");
  const module2 = goMod?.match(/^module\s+(\S+)/m)?.[1];
  if (module2) ctx.goModule = module2;
  if (reportDir) ctx.reportDir = normalisePath(reportDir);
  if (more.literalFiles) ctx.literalFiles = more.literalFiles;
  if (more.runner) ctx.runner = more.runner;
  return ctx;
}
function escapeRegExp(text2) {
  return text2.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// src/lints/skip-marker/units.ts
function unitFinder(path, text2, masked, lang, spans = []) {
  switch (lang) {
    case "python":
      return pythonUnits(path, masked);
    case "js":
      return jsUnits(path, spans);
    case "go":
      return goUnits(path, text2, masked);
    case "java":
      return javaUnits(path, masked);
  }
}
var fileUnit = (path, members) => ({
  ids: [path],
  kind: "file",
  members
});
function pythonUnits(path, masked) {
  const lines = masked.split("\n");
  const start2 = [];
  let depth2 = 0;
  let continued = false;
  for (const line2 of lines) {
    start2.push(depth2 === 0 && !continued);
    for (const c of line2) {
      if (c === "(" || c === "[" || c === "{") depth2++;
      else if ((c === ")" || c === "]" || c === "}") && depth2 > 0) depth2--;
    }
    continued = /\\\s*$/.test(line2);
  }
  const indent = (i2) => /^[ \t]*/.exec(lines[i2])[0].replace(/\t/g, "        ").length;
  const blank = (i2) => lines[i2].trim() === "";
  const header = (i2) => {
    const m = /^\s*(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)/.exec(lines[i2]);
    return m ? { type: m[1], name: m[2] } : void 0;
  };
  const logicalStart = (i2) => {
    let j = Math.min(i2, lines.length - 1);
    while (j > 0 && (!start2[j] || blank(j))) j--;
    return j;
  };
  const enclosing = (t) => {
    const chain = [];
    let threshold = indent(t);
    for (let j = t - 1; j >= 0 && threshold > 0; j--) {
      if (!start2[j] || blank(j) || indent(j) >= threshold) continue;
      const h = header(j);
      if (h) chain.unshift(h);
      threshold = indent(j);
    }
    return chain;
  };
  const unitAt = (line2) => {
    let target = logicalStart(line2 - 1);
    if (lines[target].trim().startsWith("@")) {
      const level = indent(target);
      for (let j = target + 1; j < lines.length; j++) {
        if (!start2[j] || blank(j)) continue;
        if (indent(j) !== level) break;
        if (header(j)) {
          target = j;
          break;
        }
        if (!lines[j].trim().startsWith("@")) break;
      }
    }
    const own = header(target);
    const chain = [...enclosing(target), ...own ? [own] : []];
    const firstDef = chain.findIndex((h) => h.type === "def");
    const names = (firstDef === -1 ? chain : chain.slice(0, firstDef + 1)).map((h) => h.name);
    if (names.length === 0) return { ids: [path], kind: "file" };
    return { ids: [`${path}::${names.join("::")}`], kind: firstDef === -1 ? "group" : "test" };
  };
  let tests;
  const allTests = () => tests ??= lines.flatMap((_, i2) => {
    const h = start2[i2] ? header(i2) : void 0;
    if (h?.type !== "def" || !PY_TEST_FUNCTION.test(h.name)) return [];
    const unit = unitAt(i2 + 1);
    return unit.kind === "test" && unit.ids[0].endsWith(`::${h.name}`) ? [unit.ids[0]] : [];
  });
  return (line2) => {
    const unit = unitAt(line2);
    if (unit.kind === "test") return unit;
    const prefix = unit.kind === "file" ? `${path}::` : `${unit.ids[0]}::`;
    return {
      ...unit,
      members: allTests().filter((id) => id.startsWith(prefix)).map((id) => [id])
    };
  };
}
function jsUnits(path, spans) {
  const idsOf = (span) => {
    const chain = spans.filter((s) => s.from <= span.from && span.to <= s.to && s !== span && s.group).map((s) => s.title);
    const full = canonicalId(path, [...chain, span.title]);
    return chain.length === 0 ? [full] : [full, `${path}::${span.title}`];
  };
  const membersOf = (group) => spans.filter(
    (s) => !s.group && (group === void 0 || group.from <= s.from && s.to <= group.to && s !== group)
  ).map(idsOf);
  return (line2) => {
    const around = spans.filter((s) => s.from <= line2 && line2 <= s.to);
    const inner = around[around.length - 1];
    if (inner === void 0) return fileUnit(path, membersOf());
    if (!inner.group) return { ids: idsOf(inner), kind: "test" };
    return { ids: idsOf(inner), kind: "group", members: membersOf(inner) };
  };
}
function stringArgument(text2, from) {
  const k = skipSpace(text2, from);
  const quote3 = text2[k];
  if (quote3 !== '"' && quote3 !== "'" && quote3 !== "`") return void 0;
  let out2 = "";
  for (let j = k + 1; j < text2.length; j++) {
    const c = text2[j];
    if (c === "\\") {
      out2 += text2[j + 1] ?? "";
      j++;
      continue;
    }
    if (c === quote3) return out2;
    if (c === "\n" && quote3 !== "`") return void 0;
    out2 += c;
  }
  return void 0;
}
function goUnits(path, text2, masked) {
  const lineOf2 = lineIndex(text2);
  const funcs = [];
  const FUNC = /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\(/gm;
  for (let m = FUNC.exec(masked); m !== null; m = FUNC.exec(masked)) {
    const body2 = masked.indexOf("{", m.index);
    if (body2 === -1) continue;
    funcs.push({ name: m[1], from: lineOf2(m.index), to: lineOf2(matching(masked, body2)) });
  }
  const runs = [];
  const RUN = /\.\s*Run\s*\(/g;
  for (let m = RUN.exec(masked); m !== null; m = RUN.exec(masked)) {
    const open3 = m.index + m[0].length - 1;
    const title = stringArgument(text2, open3 + 1);
    if (title === void 0) continue;
    runs.push({ title, group: false, from: lineOf2(m.index), to: lineOf2(matching(masked, open3)) });
  }
  return (line2) => {
    const fn = funcs.find((f) => f.from <= line2 && line2 <= f.to);
    if (fn === void 0)
      return fileUnit(
        path,
        funcs.filter((f) => /^(?:Test|Fuzz)/.test(f.name)).map((f) => [`${path}::${f.name}`])
      );
    const subs = runs.filter((r) => fn.from <= r.from && r.from <= line2 && line2 <= r.to).map((r) => r.title.replace(/\s/g, "_"));
    return { ids: [`${path}::${[fn.name, ...subs].join("/")}`], kind: "test" };
  };
}
function javaUnits(path, masked) {
  const lines = masked.split("\n");
  const offsets = lineOffsets(masked);
  const depthAt = [];
  let depth2 = 0;
  for (const line2 of lines) {
    depthAt.push(depth2);
    for (const c of line2) {
      if (c === "(") depth2++;
      else if (c === ")" && depth2 > 0) depth2--;
    }
  }
  const declaration = (from) => {
    let k = from;
    for (; ; ) {
      k = skipSpace(masked, k);
      if (masked[k] !== "@") break;
      k = skipSpace(masked, k + 1);
      while (/[\w$.]/.test(masked[k] ?? "")) k++;
      const after = skipSpace(masked, k);
      if (masked[after] === "(") k = matching(masked, after) + 1;
    }
    const head = masked.slice(k, nextOf(masked, k, /[{;=]/));
    const type = /\b(?:class|interface|enum|record|object)\s+([A-Za-z_$][\w$]*)/.exec(head);
    if (type) return { ids: [`${path}::${type[1]}`], kind: "group" };
    const method = /(?:^|[\s>\]])([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*(?:throws\s+[\w$.,\s]+|:\s*[\w$.<>?,\s]+)?$/.exec(
      head.trim()
    );
    if (!method || JAVA_KEYWORDS.has(method[1])) return void 0;
    return { ids: [`${path}::${method[1]}`], kind: "test" };
  };
  const enclosingMethod = (offset) => {
    let level = 0;
    for (let k = offset - 1; k >= 0; k--) {
      const c = masked[k];
      if (c === "}") level++;
      else if (c === "{") {
        if (level > 0) {
          level--;
          continue;
        }
        const headStart = Math.max(
          masked.lastIndexOf(";", k),
          masked.lastIndexOf("}", k),
          masked.lastIndexOf("{", k - 1)
        ) + 1;
        const unit = declaration(headStart);
        if (unit) return unit;
      }
    }
    return void 0;
  };
  let tests;
  const allTests = () => {
    if (tests === void 0) {
      tests = [];
      const TEST = /@\s*(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b/g;
      for (let m = TEST.exec(masked); m !== null; m = TEST.exec(masked)) {
        const unit = declaration(m.index);
        if (unit?.kind === "test" && !tests.some((t) => t[0] === unit.ids[0])) tests.push(unit.ids);
      }
    }
    return tests;
  };
  return (line2) => {
    let i2 = line2 - 1;
    while (i2 > 0 && depthAt[i2] > 0) i2--;
    const start2 = offsets[i2] ?? 0;
    const unit = lines[i2].trim().startsWith("@") ? declaration(start2) : enclosingMethod(start2 + lines[i2].length);
    if (unit === void 0) return fileUnit(path, allTests());
    return unit.kind === "test" ? unit : { ...unit, members: allTests() };
  };
}
var JAVA_KEYWORDS = /* @__PURE__ */ new Set([
  "if",
  "for",
  "while",
  "switch",
  "catch",
  "synchronized",
  "try",
  "return",
  "new",
  "when",
  "super",
  "this"
]);
function matching(masked, open3) {
  const pairs = { "(": ")", "[": "]", "{": "}" };
  const stack = [];
  for (let k = open3; k < masked.length; k++) {
    const c = masked[k];
    if (c in pairs) stack.push(pairs[c]);
    else if (c === ")" || c === "]" || c === "}") {
      stack.pop();
      if (stack.length === 0) return k;
    }
  }
  return masked.length - 1;
}
function skipSpace(text2, from) {
  let k = from;
  while (k < text2.length && /\s/.test(text2[k])) k++;
  return k;
}
function nextOf(text2, from, re) {
  for (let k = from; k < text2.length; k++) if (re.test(text2[k])) return k;
  return text2.length;
}
function lineOffsets(text2) {
  const offsets = [0];
  for (let k = 0; k < text2.length; k++) if (text2[k] === "\n") offsets.push(k + 1);
  return offsets;
}
function lineIndex(text2) {
  const offsets = lineOffsets(text2);
  return (offset) => {
    let lo = 0;
    let hi = offsets.length - 1;
    while (lo < hi) {
      const mid = lo + hi + 1 >> 1;
      if (offsets[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

// src/lints/skip-marker/scan.ts
var MAYBE = /skip|xfail|expectedfailure|only|todo|fails|runif|\bx(?:it|test|describe|context|specify)\b|\bf(?:it|describe|context)\b|disabled|ignore|timeout|deadline/i;
function mayHoldMarker(lines) {
  for (const line2 of lines) if (MAYBE.test(line2)) return true;
  return false;
}
async function scanFile(path, lang, headText, baseText, added, resolve5, trees) {
  const head = await analyse(path, lang, headText, helpersOn("head", path, resolve5), trees?.head);
  const base = baseText === null ? void 0 : await analyse(path, lang, baseText, helpersOn("base", path, resolve5), trees?.base);
  const before = /* @__PURE__ */ new Set();
  const baseTimeouts = /* @__PURE__ */ new Map();
  if (base) {
    for (let line2 = 1; line2 <= base.lines.length; line2++) {
      const masked = base.lines[line2 - 1];
      const hits2 = base.markersAt(line2);
      if (hits2.length > 0) {
        const id = base.unitAt(line2).ids[0];
        for (const hit of hits2) before.add(`${id}\0${hit.label}`);
      }
      for (const t of timeoutsIn(masked, lang))
        baseTimeouts.set(t.kind, Math.max(baseTimeouts.get(t.kind) ?? -Infinity, t.value));
    }
  }
  const findings = [];
  for (const line2 of [...added].sort((a, b) => a - b)) {
    const masked = head.lines[line2 - 1];
    if (masked === void 0) continue;
    const hits2 = head.markersAt(line2);
    const raised = timeoutsIn(masked, lang).filter((t) => {
      const baseline = baseTimeouts.get(t.kind) ?? TIMEOUT_DEFAULTS[t.kind];
      return baseline !== void 0 && t.value > baseline;
    });
    if (hits2.length === 0 && raised.length === 0) continue;
    const unit = head.unitAt(line2);
    for (const hit of hits2) {
      if (before.has(`${unit.ids[0]}\0${hit.label}`)) continue;
      findings.push({ line: line2, label: hit.label, unit, silencesOthers: hit.silencesOthers });
    }
    for (const t of raised) {
      const baseline = baseTimeouts.get(t.kind) ?? TIMEOUT_DEFAULTS[t.kind];
      findings.push({
        line: line2,
        label: `${t.label} raised ${show(baseline)} \u2192 ${show(t.value)}`,
        unit,
        silencesOthers: false
      });
    }
  }
  return findings;
}
function helpersOn(side, path, resolve5) {
  return resolve5 && ((specifier) => resolve5(side, path, specifier));
}
async function analyse(path, lang, text2, helpers, held) {
  const masked = maskCode(text2, lang);
  const lines = masked.split("\n");
  const script = lang === "js" ? await parseScript(path, text2, helpers, held) : void 0;
  const python = lang === "python" ? await parsePython(path, text2, helpers, held) : void 0;
  const tree = script?.hits ?? python;
  return {
    lines,
    markersAt: tree ? (line2) => tree.get(line2) ?? [] : (line2) => suppressionsIn(lines[line2 - 1] ?? "", lang),
    unitAt: unitFinder(path, text2, masked, lang, script?.spans)
  };
}
function parseScript(path, text2, helpers, held) {
  return readTree(
    path,
    text2,
    helpers,
    held,
    relativeImports,
    (tree, exportsOf) => scriptMarkers(tree, { helpers: exportsOf })
  );
}
function parsePython(path, text2, helpers, held) {
  return readTree(
    path,
    text2,
    helpers,
    held,
    pythonImports,
    (tree, exportsOf) => pythonMarkers(tree, { helpers: exportsOf })
  );
}
async function readTree(path, text2, helpers, held, imports, read) {
  const tree = held ? await held(text2) : await parseTree(path, text2);
  try {
    const resolved = await resolveAll(imports(tree), helpers);
    return read(tree, (module2) => resolved.get(module2));
  } finally {
    if (!held) tree.delete();
  }
}
async function resolveAll(specifiers, helpers) {
  const resolved = /* @__PURE__ */ new Map();
  if (helpers === void 0) return resolved;
  for (const specifier of specifiers) {
    const exports = await helpers(specifier);
    if (exports) resolved.set(specifier, exports);
  }
  return resolved;
}
async function helperExports(path, text2) {
  const tree = await parseTree(path, text2);
  try {
    return familyOf(path) === "python" ? pythonMarkedExports(tree) : markedExports(tree);
  } finally {
    tree.delete();
  }
}
async function parseTree(path, text2) {
  const language = parsedLanguageOf(path) ?? "typescript";
  const tree = (await parserFor(language)).parse(text2);
  if (tree === null) throw new GateError(`tree-sitter could not parse ${path}`, { path });
  return tree;
}
function show(value) {
  return value === Infinity ? "no limit" : String(value);
}

// src/lints/skip-marker/helpers.ts
var SCRIPT_SUFFIXES = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"];
function helperResolver(ctx) {
  const seen = /* @__PURE__ */ new Map();
  return async (side, from, specifier) => {
    const rev = side === "head" ? ctx.head : ctx.mergeBase;
    const tree = await ctx.trees.get(rev);
    const candidates = familyOf(from) === "python" ? pythonCandidates(from, specifier) : scriptCandidates(from, specifier);
    const path = candidates.find((p) => tree.get(p)?.type === "blob");
    if (path === void 0) return void 0;
    const key4 = `${rev}\0${path}`;
    let found = seen.get(key4);
    if (found === void 0) {
      found = readHelper(ctx, rev, path);
      seen.set(key4, found);
    }
    return found;
  };
}
async function readHelper(ctx, rev, path) {
  const listed2 = (await listBlobs(ctx.git, rev, [path])).get(path);
  if (listed2 === void 0 || listed2.size > MAX_LINT_BLOB_BYTES) return void 0;
  const bytes = (await readBlobs2(ctx.git, rev, [path])).get(path);
  return bytes === void 0 ? void 0 : helperExports(path, bytes.toString("utf8"));
}
function dirOf(path) {
  return path.slice(0, path.lastIndexOf("/") + 1);
}
function scriptCandidates(from, specifier) {
  if (!specifier.startsWith(".")) return [];
  const target = normalisePath(`${dirOf(from)}${specifier}`);
  if (target === "" || target.startsWith("..")) return [];
  const stem = target.replace(/\.[cm]?jsx?$/, "");
  return [
    target,
    ...SCRIPT_SUFFIXES.map((s) => `${target}${s}`),
    ...SCRIPT_SUFFIXES.map((s) => `${stem}${s}`),
    ...SCRIPT_SUFFIXES.map((s) => `${target}/index${s}`)
  ].filter((p) => familyOf(p) === "js");
}
function pythonCandidates(from, module2) {
  const dots = /^\.*/.exec(module2)[0].length;
  const parts2 = module2.slice(dots).split(".").filter((p) => p !== "");
  const roots = [];
  if (dots > 0) {
    let dir = dirOf(from);
    for (let i2 = 1; i2 < dots; i2++) dir = dirOf(dir.slice(0, -1));
    roots.push(dir);
  } else {
    roots.push("", "src/", dirOf(from));
  }
  const out2 = [];
  for (const root of roots) {
    const base = `${root}${parts2.join("/")}`;
    if (parts2.length > 0) out2.push(`${base}.py`);
    out2.push(parts2.length > 0 ? `${base}/__init__.py` : `${root}__init__.py`);
  }
  return [...new Set(out2.map(normalisePath))].filter((p) => !p.startsWith(".."));
}

// src/lints/skip-marker/index.ts
async function skipMarker({ ctx, ledger, view }, level) {
  const targets = ctx.writeSet.filter(
    (row) => row.status !== "deleted" && familyOf(row.path) !== void 0 && isTestFile2(ctx.planes, row.path)
  );
  if (targets.length === 0) return [];
  const added = await view.added();
  const scanned = targets.filter((row) => {
    const lines = added.get(row.path);
    const family = familyOf(row.path);
    const parsed = family === "js" || family === "python";
    return lines !== void 0 && (parsed || mayHoldMarker(lines.values()));
  });
  const heads = await view.textsAt(
    ctx.head,
    scanned.map((r) => r.path)
  );
  const bases = await view.textsAt(
    ctx.mergeBase,
    scanned.map((r) => r.previous_path ?? r.path)
  );
  const resolve5 = helperResolver(ctx);
  const reasons = [];
  for (const row of scanned) {
    const head = heads.get(row.path);
    const lang = familyOf(row.path);
    if (head === void 0 || lang === void 0) continue;
    const base = bases.get(row.previous_path ?? row.path) ?? null;
    const lines = added.get(row.path)?.keys() ?? [];
    const language = parsedLanguageOf(row.path) ?? "typescript";
    const basePath2 = row.previous_path ?? row.path;
    const trees = {
      head: (t) => view.tree(ctx.head, row.path, t, language),
      base: (t) => view.tree(ctx.mergeBase, basePath2, t, language)
    };
    for (const finding2 of await scanFile(row.path, lang, head, base, lines, resolve5, trees)) {
      const reason2 = judge(finding2, row.path, ledger, level);
      if (reason2) reasons.push(reason2);
    }
  }
  return reasons;
}
function judge(finding2, path, ledger, level) {
  const { unit } = finding2;
  const id = unit.ids[0];
  const where = { path, line: finding2.line };
  if (finding2.silencesOthers) {
    return {
      rule: "skip-marker",
      level,
      message: `${path}:${finding2.line}: ${finding2.label} on ${id} silences every other test; no ledger row can cover it: remove it`,
      ...where
    };
  }
  const isLive = (ids) => ids.some((candidate) => ledger.live.has(candidate));
  if (unit.kind === "test") {
    if (isLive(unit.ids)) return void 0;
    const expired = ledger.rows.find((row) => unit.ids.includes(row.test));
    const why = expired ? `its ledger row "${expired.id}" expired on ${expired.expires_on}` : "no live ledger row covers it";
    return {
      rule: "skip-marker",
      level,
      message: `${path}:${finding2.line}: adds ${finding2.label} to ${id} and ${why}; fix the test, or freeze the flake in the ledger (test: ${id}) in a reviewed PR of its own`,
      ...where
    };
  }
  const members = unit.members ?? [];
  const uncovered = members.filter((ids) => !isLive(ids)).map((ids) => ids[0]);
  if (members.length > 0 && uncovered.length === 0) return void 0;
  const scope = unit.kind === "file" ? `every test in ${path}` : `every test in ${id}`;
  const gap = members.length === 0 ? "no test was found in it to freeze" : `${uncovered.length} of its ${members.length} test(s) have no live ledger row (${uncovered.slice(0, 3).join(", ")}${uncovered.length > 3 ? ", \u2026" : ""})`;
  return {
    rule: "skip-marker",
    level,
    message: `${path}:${finding2.line}: adds ${finding2.label}, which reaches ${scope}, and ${gap}; fix the tests, or freeze each flaky one in the ledger in a reviewed PR of its own`,
    ...where
  };
}

// src/lints/ungoverned-test.ts
function ungovernedTest({ ctx }, level) {
  return Promise.resolve(
    ctx.writeSet.filter((row) => row.classification.rule === "ungoverned-test").map((row) => ({
      rule: "ungoverned-test",
      level,
      path: row.path,
      message: row.classification.message
    }))
  );
}

// src/lints/registry.ts
var LINTS = {
  "ungoverned-test": ungovernedTest,
  "skip-marker": skipMarker,
  "judge-import": judgeImport,
  "literal-overlap": literalOverlap,
  "oracle-reach": oracleReach
};
function levelOf(mode) {
  return mode === "off" ? void 0 : mode === "warn" ? "warning" : "failure";
}

// src/lints/source.ts
var MAX_PRODUCTION_BYTES = 1024 * 1024;
var SourceFacts = class {
  constructor(view) {
    this.view = view;
  }
  view;
  cache = /* @__PURE__ */ new Map();
  /** Production paths skipped as too large or binary, for the log. */
  skipped = [];
  /** Files a `needsParse` filter passed over, for the log. */
  filtered = 0;
  /**
   * Facts of each path at `rev` that exists there, is a regular file and is in a parsed
   * language. Paths without facts are absent from the result.
   */
  async at(rev, paths2, role, needsParse) {
    const wanted = [...new Set(paths2)].filter((p) => languageOf2(p) !== void 0);
    const missing = await this.readable(
      rev,
      wanted.filter((p) => !this.cache.has(key3(rev, p))),
      role
    );
    const texts = await this.view.textsAt(rev, missing);
    for (const path of missing) {
      const facts = await this.parse(rev, path, texts.get(path), role, needsParse);
      if (facts !== void 0) this.cache.set(key3(rev, path), facts);
    }
    const out2 = /* @__PURE__ */ new Map();
    for (const path of wanted) {
      const facts = this.cache.get(key3(rev, path));
      if (facts) out2.set(path, facts);
    }
    return out2;
  }
  /** The paths worth reading: production files over the size are skipped unread. */
  async readable(rev, paths2, role) {
    if (role === "test" || paths2.length === 0) return paths2;
    const sizes = await this.view.sizesAt(rev, paths2);
    return paths2.filter((p) => {
      if ((sizes.get(p) ?? 0) <= MAX_PRODUCTION_BYTES) return true;
      this.cache.set(key3(rev, p), null);
      this.skipped.push(p);
      return false;
    });
  }
  async parse(rev, path, text2, role, needsParse) {
    const language = languageOf2(path);
    if (text2 === void 0 || language === void 0) return null;
    if (role === "production" && text2.includes("\0")) {
      this.skipped.push(path);
      return null;
    }
    if (needsParse !== void 0 && !needsParse(path, language, text2)) {
      this.filtered++;
      return void 0;
    }
    return extractFacts(await this.view.tree(rev, path, text2, language), language);
  }
};
function key3(rev, path) {
  return `${rev}\0${path}`;
}

// src/lints/index.ts
async function runLints(ctx, ledger, only) {
  const keys = Object.keys(LINTS).filter(
    (k) => (only === void 0 || only.includes(k)) && levelOf(ctx.policy.lints[k]) !== void 0
  );
  await assertLintableSizes(ctx.git, ctx.head, ctx.writeSet, (path) => isTestFile2(ctx.planes, path));
  if (keys.length === 0) return [];
  const view = new ChangedFiles(ctx.git, ctx.mergeBase, ctx.head, ctx.writeSet);
  const input = {
    ctx,
    ledger,
    files: lintFiles(ctx.planes, ctx.writeSet),
    view,
    facts: new SourceFacts(view)
  };
  try {
    const reasons = [];
    const took = [];
    for (const key4 of keys) {
      const started = Date.now();
      reasons.push(...await LINTS[key4](input, levelOf(ctx.policy.lints[key4]) ?? "warning"));
      took.push(`${key4} ${Date.now() - started} ms`);
    }
    logSummary(input, took);
    return reasons;
  } finally {
    view.dispose();
  }
}
function logSummary({ ctx, files, facts, view }, took) {
  ctx.log.info(
    `lints: ${files.tests.length} test and ${files.production.length} production file(s) written; ${view.parsed} parsed, ${facts.filtered} passed over by the literal prefilter; ${took.join(", ")}`
  );
  if (facts.skipped.length > 0) {
    ctx.log.info(
      `not parsed (over 1 MiB or binary): ${facts.skipped.slice(0, 5).join(", ")}${facts.skipped.length > 5 ? ", ..." : ""}`
    );
  }
}

// src/policy/union.ts
function unitePolicies(base, tip, tipSha = "the base tip") {
  if (tip === null) return { policy: base, source: "merge-base", widened: [] };
  const path = base.path;
  const resolved = (p) => ({ ...p, dependencies: dependencySource(p) });
  const united = uniteBySchema(policySchema, resolved(base), resolved(tip));
  if (united.clashes.length > 0) {
    throw new GateError(
      `the policy ${path} at ${tipSha} changes ${united.clashes.join(", ")} since the merge base; these cannot be combined with the merge base's: rebase the pull request onto the base branch and run the gate again`,
      { rule: "config-invalid", path }
    );
  }
  const policy = freeze({ ...united.value, path });
  return {
    policy,
    source: united.widened.length > 0 ? "union" : "merge-base",
    widened: united.widened
  };
}
function policyNotice(united, mergeBase, tip) {
  const at2 = shortSha;
  const message2 = united.source === "union" ? `judged with the union of the policy at the merge base ${at2(mergeBase)} and at the base tip ${at2(tip)} (the tip adds ${united.widened.join(", ")})` : `judged with the policy at the merge base ${at2(mergeBase)}${mergeBase === tip ? "" : ` (the base tip ${at2(tip)} adds no protection)`}`;
  return { rule: "diagnostic", level: "notice", message: message2 };
}
async function readJudgingPolicy(git, refs, path, readBase, log) {
  const base = await readBase();
  let tip = null;
  if (refs.baseTip !== refs.mergeBase) {
    const text2 = await git.showText(refs.baseTip, path);
    if (text2 !== null) tip = parsePolicy(text2, path);
  }
  const united = unitePolicies(base, tip, shortSha(refs.baseTip));
  const notice = policyNotice(united, refs.mergeBase, refs.baseTip);
  log.info(notice.message);
  return { ...united, notice };
}

// src/git/version.ts
var MIN_GIT_VERSION = [2, 32, 0];
function parseGitVersion(output) {
  const m = /^git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(output.trim());
  if (m === null) return null;
  return [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
}
function atLeast(found, needed) {
  for (let i2 = 0; i2 < needed.length; i2++) {
    const a = found[i2] ?? 0;
    const b = needed[i2] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}
function gitVersionProblem(output) {
  const needed = MIN_GIT_VERSION.join(".");
  const found = parseGitVersion(output);
  const shown2 = JSON.stringify(output.trim().slice(0, 200));
  if (found === null)
    return `cannot read the git version from ${shown2}; oracle-gate needs git ${needed} or newer`;
  if (atLeast(found, MIN_GIT_VERSION)) return null;
  return `git ${found.join(".")} found, oracle-gate needs git ${needed} or newer (GIT_CONFIG_GLOBAL, rev-parse --path-format): install a newer git on the runner`;
}
async function requireGitVersion(git) {
  const problem = gitVersionProblem(await git.version());
  if (problem !== null) throw new GateError(problem);
}

// src/git/state.ts
import {
  chmod,
  lstat,
  mkdir,
  readdir,
  readFile as readFile2,
  readlink,
  rm,
  symlink,
  writeFile as writeFile3
} from "node:fs/promises";
import { join as join5, relative as relative2 } from "node:path";
var WATCHED = ["config", "config.worktree", "hooks", "info"];
async function snapshotGitState(git) {
  const root = await git.commonDir();
  const entries = /* @__PURE__ */ new Map();
  for (const name2 of WATCHED) await collect2(root, name2, entries);
  return { root, entries };
}
async function restoreGitState(snapshot) {
  const now = /* @__PURE__ */ new Map();
  for (const name2 of WATCHED) await collect2(snapshot.root, name2, now);
  const changed = /* @__PURE__ */ new Set();
  for (const [path, entry] of now) {
    const before = snapshot.entries.get(path);
    if (before === void 0 || !sameEntry(before, entry)) changed.add(path);
  }
  for (const path of snapshot.entries.keys()) if (!now.has(path)) changed.add(path);
  if (changed.size === 0) return [];
  for (const name2 of WATCHED) {
    if ([...changed].some((p) => p === name2 || p.startsWith(`${name2}/`))) {
      await rm(join5(snapshot.root, name2), { recursive: true, force: true });
      await write(snapshot, name2);
    }
  }
  return [...changed].sort();
}
async function guardGitState(git, during, fn) {
  const snapshot = await snapshotGitState(git);
  let outcome;
  try {
    outcome = { ok: true, value: await fn() };
  } catch (error) {
    outcome = { ok: false, error };
  }
  const changed = await restoreGitState(snapshot);
  if (changed.length > 0) throw tampered(git, snapshot, during, changed);
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}
function tampered(git, snapshot, during, changed) {
  const shown2 = changed.map((p) => shownPath(git.cwd, join5(snapshot.root, p)));
  const list2 = `${shown2.slice(0, 5).join(", ")}${shown2.length > 5 ? ` and ${shown2.length - 5} more` : ""}`;
  const what = `the checkout's git configuration changed while ${during.what} ran (${list2}); it was put back`;
  if (!during.patchCode) {
    return new GateError(
      `${what}. The base's own setup or suite writes git configuration (a hook installer such as husky?): make it not do so in the gate's worktrees`,
      { path: shown2[0] ?? "" }
    );
  }
  return new GateError(
    `${what}. Code the patch controls may not change the git configuration or hooks of the checkout`,
    { rule: "runner-tampered", path: shown2[0] ?? "" }
  );
}
function shownPath(repoDir, path) {
  const rel = relative2(repoDir, path);
  return rel.startsWith("..") ? path : rel;
}
async function collect2(root, path, into) {
  const full = join5(root, path);
  const info2 = await lstat(full).catch(() => null);
  if (info2 === null) return;
  if (info2.isSymbolicLink()) {
    into.set(path, { kind: "symlink", target: await readlink(full) });
  } else if (info2.isDirectory()) {
    into.set(path, { kind: "dir" });
    for (const name2 of (await readdir(full)).sort()) await collect2(root, `${path}/${name2}`, into);
  } else {
    const bytes = info2.isFile() ? await readFile2(full) : Buffer.alloc(0);
    into.set(path, { kind: "file", bytes, mode: info2.mode & 511 });
  }
}
function sameEntry(a, b) {
  if (a.kind === "file" && b.kind === "file") return a.mode === b.mode && a.bytes.equals(b.bytes);
  if (a.kind === "symlink" && b.kind === "symlink") return a.target === b.target;
  return a.kind === "dir" && b.kind === "dir";
}
async function write(snapshot, name2) {
  for (const [path, entry] of snapshot.entries) {
    if (path !== name2 && !path.startsWith(`${name2}/`)) continue;
    const full = join5(snapshot.root, path);
    if (entry.kind === "dir") await mkdir(full, { recursive: true });
    else if (entry.kind === "symlink") await symlink(entry.target, full);
    else {
      await writeFile3(full, entry.bytes);
      await chmod(full, entry.mode);
    }
  }
}

// src/replay/canary.ts
import { randomInt } from "node:crypto";
import { readFile as readFile3, readdir as readdir2, rm as rm2, stat, utimes, writeFile as writeFile4 } from "node:fs/promises";
import { basename, dirname as dirname2, join as join6, posix as posix3 } from "node:path";
var PY_TEST = /(^|\/)(test_[^/]*|[^/]*_test)\.py$/;
var JS_TEST = /\.(test|spec)\.([cm]?[jt]sx?)$/;
var JS_TESTS_DIR = /(^|\/)__tests__\/(.*\/)?[^/]+(\.[cm]?[jt]sx?)$/;
var NODE_TEST = /(^|\/)([^/]*[.\-_]test|test-[^/]*|test)\.[cm]?js$|(^|\/)test\/(.*\/)?[^/]+\.[cm]?js$/;
var VERBS = ["handles", "keeps", "accepts", "preserves", "returns", "matches", "survives"];
var NOUNS = [
  "empty input",
  "large values",
  "repeated keys",
  "unicode text",
  "negative numbers",
  "nested values",
  "boundaries",
  "mixed case",
  "whitespace",
  "single item",
  "round trip",
  "default options"
];
var pickRandom = (n) => randomInt(n);
function planCanary(runner, files, planeOf, command = "", pick = pickRandom) {
  const stop2 = stopsEarly(command);
  if (stop2 !== null)
    return { plan: null, why: `the suite command stops at the first failure (${stop2})` };
  if (runner === null)
    return {
      plan: null,
      why: "the suite command names no runner the gate knows (set suite.runner)"
    };
  if (runner === "go") return { plan: null, why: "go test has no canary (a test needs a package)" };
  const pattern = runner === "pytest" ? PY_TEST : runner === "node-test" ? NODE_TEST : null;
  const voting = [...files].filter((f) => planeOf(f) === "voting").filter((f) => pattern ? pattern.test(f) : JS_TEST.test(f) || JS_TESTS_DIR.test(f)).sort();
  if (voting.length === 0)
    return {
      plan: null,
      why: `no voting test file of the merge base matches ${runner}'s file pattern`
    };
  const taken = new Set(files);
  const titles = /* @__PURE__ */ new Set();
  const siblings = [voting[pick(voting.length)] ?? ""];
  const other = voting.filter((f) => f !== siblings[0]);
  if (other.length > 0) siblings.push(other[pick(other.length)] ?? "");
  const expects = ["failed", "passed", "failed"];
  const paths2 = siblings.map((beside) => freePath(runner, beside, taken, pick));
  const canaries = expects.map((expect, i2) => {
    const at2 = i2 < 2 ? 0 : paths2.length - 1;
    const a = 2 + pick(90);
    const b = 2 + pick(90);
    return {
      path: paths2[at2] ?? "",
      title: freeTitle(runner, titles, pick),
      expect,
      beside: siblings[at2] ?? "",
      a,
      b
    };
  });
  return { plan: { runner, canaries } };
}
function stopsEarly(command) {
  for (const word of command.split(/\s+/)) {
    if (/^(--exitfirst|--maxfail(=.*)?|--sw|--stepwise|--bail(=.*)?|-b|--test-fail-fast)$/.test(word))
      return word;
    if (/^-[a-wyzA-Z]*x[a-zA-Z]*$/.test(word) && !/^-[pkmcoWr]/.test(word)) return word;
  }
  return null;
}
function freePath(runner, beside, taken, pick) {
  const dir = dirname2(beside);
  const words2 = [...new Set(NOUNS.map((n) => n.split(" ").pop() ?? n))];
  const from = pick(words2.length);
  for (let i2 = 0; ; i2++) {
    const word = words2[(from + i2) % words2.length] ?? "values";
    const round = Math.floor(i2 / words2.length);
    const name2 = canaryFile(runner, basename(beside), round === 0 ? word : `${word}${round + 1}`);
    const path = dir === "." ? name2 : posix3.join(dir, name2);
    if (!taken.has(path)) {
      taken.add(path);
      return path;
    }
  }
}
function canaryFile(runner, file, word) {
  if (runner === "pytest") {
    if (file.startsWith("test_")) return `${file.slice(0, -3)}_${word}.py`;
    return `${file.slice(0, -"_test.py".length)}_${word}_test.py`;
  }
  const m = /^(.*?)((?:[.\-_](?:test|spec))?\.[cm]?[jt]sx?)$/.exec(file);
  const stem = m?.[1] ?? file;
  let ext = m?.[2] ?? ".test.js";
  if (runner === "vitest") ext = ext.replace(/\.c([jt]s)$/, ".m$1");
  const sep3 = stem.includes("_") ? "_" : "-";
  return `${stem}${sep3}${word}${ext}`;
}
function freeTitle(runner, titles, pick) {
  const all = VERBS.length * NOUNS.length;
  const from = pick(all);
  for (let i2 = 0; ; i2++) {
    const at2 = (from + i2) % all;
    const verb2 = VERBS[Math.floor(at2 / NOUNS.length)] ?? "keeps";
    const noun = NOUNS[at2 % NOUNS.length] ?? "values";
    const round = Math.floor(i2 / all);
    const plain = runner === "pytest" ? `test_${verb2}_${noun.replace(/ /g, "_")}` : `${verb2} ${noun}`;
    const title = round === 0 ? plain : `${plain}${runner === "pytest" ? "_" : " "}${round + 1}`;
    if (!titles.has(title)) {
      titles.add(title);
      return title;
    }
  }
}
function siblingImports(runner, text2) {
  const lines = text2.split("\n");
  if (runner === "pytest")
    return lines.filter((l) => /^(import [\w., ]+|from [\w.]+ import [\w., ]+)\s*$/.test(l));
  const framework = /['"](vitest|node:test|@jest\/globals|node:assert(\/strict)?|assert)['"]/;
  return lines.filter(
    (l) => (/^import\s[^;]*from\s*['"][^'"]+['"];?\s*$/.test(l) || /^import\s*['"][^'"]+['"];?\s*$/.test(l) || /^const\s[^=]+=\s*require\(['"][^'"]+['"]\);?\s*$/.test(l)) && !framework.test(l)
  );
}
function moduleStyle(path, text2) {
  if (path.endsWith(".cjs") || path.endsWith(".cts")) return "cjs";
  if (path.endsWith(".mjs") || path.endsWith(".mts")) return "esm";
  const requires = /^\s*(const|let|var)\s[^=]+=\s*require\(/m.test(text2);
  const imports = /^\s*import\s/m.test(text2);
  return requires && !imports ? "cjs" : "esm";
}
function frameworkHeader(runner, style) {
  if (runner === "vitest")
    return [
      style === "cjs" ? "const { expect, test } = require('vitest')" : "import { expect, test } from 'vitest'"
    ];
  if (runner !== "node-test") return [];
  return style === "cjs" ? ["const { test } = require('node:test')", "const assert = require('node:assert/strict')"] : ["import { test } from 'node:test'", "import assert from 'node:assert/strict'"];
}
function canaryContent(runner, canaries, imports, style = "esm") {
  const claim = (c) => c.a + c.b + (c.expect === "failed" ? 1 : 0);
  const header = [...imports];
  if (runner === "pytest") {
    const tests2 = canaries.map(
      (c) => `def ${c.title}():
    left, right = ${c.a}, ${c.b}
    assert left + right == ${claim(c)}
`
    );
    return [...header, "", "", tests2.join("\n\n")].join("\n");
  }
  header.unshift(...frameworkHeader(runner, style));
  const check2 = (c) => runner === "node-test" ? `assert.equal(left + right, ${claim(c)})` : `expect(left + right).toBe(${claim(c)})`;
  const tests = canaries.map(
    (c) => `test(${JSON.stringify(c.title)}, () => {
  const [left, right] = [${c.a}, ${c.b}]
  ${check2(c)}
})
`
  );
  return [...header, "", tests.join("\n")].join("\n");
}
function byFile(plan) {
  const files = /* @__PURE__ */ new Map();
  for (const c of plan.canaries) files.set(c.path, [...files.get(c.path) ?? [], c]);
  return files;
}
async function armCanary(worktree, plan) {
  for (const [path, canaries] of byFile(plan)) {
    const beside = join6(worktree, canaries[0]?.beside ?? "");
    const text2 = await readFile3(beside, "utf8").catch(() => "");
    const full = join6(worktree, path);
    const content = canaryContent(
      plan.runner,
      canaries,
      siblingImports(plan.runner, text2),
      moduleStyle(canaries[0]?.beside ?? "", text2)
    );
    await writeFile4(full, content, { flag: "wx" });
    const info2 = await stat(beside).catch(() => null);
    if (info2) await utimes(full, info2.atime, info2.mtime);
  }
}
async function disarmCanary(worktree, plan) {
  for (const path of byFile(plan).keys()) {
    const full = join6(worktree, path);
    await rm2(full, { force: true });
    const stem = basename(path).replace(/\.[^.]+$/, "");
    const cache = join6(dirname2(full), "__pycache__");
    const entries = await readdir2(cache).catch(() => []);
    for (const entry of entries)
      if (entry.startsWith(`${stem}.`)) await rm2(join6(cache, entry), { force: true });
  }
}
function dotted(path) {
  return path.replace(/\.py$/, "").replace(/\//g, ".");
}
function takeCanary(report, plan, root) {
  const files = byFile(plan);
  const fileOf3 = (c) => {
    const where = c.file !== void 0 ? toRepoPath(c.file, root) : c.classname;
    for (const path of files.keys())
      if (where === path || where === dotted(path) || c.classname === "" && c.name === dotted(path))
        return path;
    return null;
  };
  const titled = (c) => {
    const path = fileOf3(c);
    if (path !== null) return files.get(path)?.find((k) => c.name === k.title);
    if (plan.runner === "node-test" && c.suites.every((s) => s === ""))
      return plan.canaries.find((k) => c.name === k.title);
    return void 0;
  };
  const outcomes = /* @__PURE__ */ new Map();
  const worse = (k, o) => {
    const held = outcomes.get(k);
    if (held === void 0 || held === "absent" || rank(o) > rank(held)) outcomes.set(k, o);
  };
  const kept2 = report.cases.filter((c) => {
    const k = titled(c);
    if (k) worse(k, c.outcome);
    else {
      const path = fileOf3(c);
      if (path === null) return true;
      for (const each of files.get(path) ?? []) worse(each, c.outcome);
    }
    return false;
  });
  const results = plan.canaries.map((canary) => ({
    canary,
    outcome: outcomes.get(canary) ?? "absent"
  }));
  return { report: { ...report, cases: kept2 }, results };
}
function rank(o) {
  return o === "passed" ? 0 : o === "skipped" ? 1 : o === "failed" ? 2 : 3;
}
function asWritten(r) {
  if (r.outcome === "absent") return false;
  const failed = r.outcome === "failed" || r.outcome === "error";
  return r.canary.expect === "failed" ? failed : r.outcome === "passed";
}

// src/replay/classes.ts
var import_picomatch2 = __toESM(require_picomatch2(), 1);
var ORDER = ["judge", "fixture", "invariant", "metamorphic"];
var UNCLASSIFIED = "unclassified";
function compileClasses(classes) {
  const matchers = ORDER.map((name2) => {
    const globs = classes[name2] ?? [];
    return {
      name: name2,
      match: globs.length === 0 ? () => false : (0, import_picomatch2.default)([...globs], { dot: true, flags: "s" })
    };
  });
  return (id) => matchers.find((m) => m.match(id))?.name ?? null;
}

// src/replay/stream.ts
import { randomBytes } from "node:crypto";
import { existsSync as existsSync2 } from "node:fs";
import { dirname as dirname4, join as join8 } from "node:path";
import { fileURLToPath as fileURLToPath2 } from "node:url";

// src/replay/junit.ts
var import_saxes = __toESM(require_saxes(), 1);
import { constants, createReadStream } from "node:fs";
import { lstat as lstat2, open, readdir as readdir3, realpath } from "node:fs/promises";
import { dirname as dirname3, join as join7, relative as relative3, isAbsolute as isAbsolute2 } from "node:path";

// src/replay/entities.ts
var HTML_ENTITIES = {
  nbsp: "\xA0",
  copy: "\xA9",
  reg: "\xAE",
  trade: "\u2122",
  hellip: "\u2026",
  mdash: "\u2014",
  ndash: "\u2013",
  lsquo: "\u2018",
  rsquo: "\u2019",
  ldquo: "\u201C",
  rdquo: "\u201D",
  laquo: "\xAB",
  raquo: "\xBB",
  bull: "\u2022",
  middot: "\xB7",
  times: "\xD7",
  divide: "\xF7",
  plusmn: "\xB1",
  deg: "\xB0",
  micro: "\xB5",
  para: "\xB6",
  sect: "\xA7",
  euro: "\u20AC",
  pound: "\xA3",
  yen: "\xA5",
  cent: "\xA2",
  larr: "\u2190",
  rarr: "\u2192",
  uarr: "\u2191",
  darr: "\u2193",
  harr: "\u2194",
  le: "\u2264",
  ge: "\u2265",
  ne: "\u2260",
  asymp: "\u2248",
  infin: "\u221E",
  minus: "\u2212",
  lambda: "\u03BB",
  alpha: "\u03B1",
  beta: "\u03B2",
  gamma: "\u03B3",
  delta: "\u03B4",
  pi: "\u03C0",
  sigma: "\u03C3",
  mu: "\u03BC",
  auml: "\xE4",
  ouml: "\xF6",
  uuml: "\xFC",
  Auml: "\xC4",
  Ouml: "\xD6",
  Uuml: "\xDC",
  szlig: "\xDF",
  eacute: "\xE9",
  egrave: "\xE8",
  aacute: "\xE1",
  agrave: "\xE0",
  ccedil: "\xE7",
  ntilde: "\xF1",
  oslash: "\xF8",
  aring: "\xE5",
  iexcl: "\xA1",
  iquest: "\xBF",
  shy: "\xAD",
  zwj: "\u200D",
  zwnj: "\u200C",
  thinsp: "\u2009",
  ensp: "\u2002",
  emsp: "\u2003"
};

// src/replay/junit.ts
var ReportError = class extends Error {
  constructor(message2, file) {
    super(message2);
    this.file = file;
    this.name = "ReportError";
  }
  file;
};
var OUTCOME_RANK = {
  passed: 0,
  skipped: 1,
  failed: 2,
  error: 3
};
var MESSAGE_CHARS = 300;
var MAX_INTERNED = 1e5;
var REPORT_LIMITS = {
  deadlineMs: 3e5,
  maxDepth: 64,
  maxCases: 4e5
};
async function readReport(path, limits = {}) {
  const info2 = await lstat2(path).catch(() => null);
  if (info2 === null) throw new ReportError(`no report at ${path}`, path);
  const root = limits.root ?? dirname3(path);
  const target = await insideRoot(path, root);
  const budget = new Budget(path, { ...REPORT_LIMITS, ...limits });
  let files = [path];
  if ((await lstat2(target)).isDirectory()) {
    const names = (await readdir3(target)).filter((n) => n.endsWith(".xml")).sort();
    const surefire = names.filter((n) => n.startsWith("TEST-"));
    files = (surefire.length > 0 ? surefire : names).map((n) => join7(path, n));
    if (files.length === 0)
      throw new ReportError(`report directory ${path} holds no .xml file`, path);
  }
  const cases = [];
  for (const file of files) {
    const real = await insideRoot(file, root);
    for (const c of await parseFile(real, budget)) cases.push(c);
  }
  return { cases, files };
}
async function insideRoot(path, root) {
  const [real, realRoot] = await Promise.all([
    realpath(path).catch(() => null),
    realpath(root).catch(() => root)
  ]);
  if (real === null) throw new ReportError(`no report at ${path} (a dangling link?)`, path);
  const rel = relative3(realRoot, real);
  if (rel.startsWith("..") || isAbsolute2(rel))
    throw new ReportError(
      `the report ${path} leads out of the run's folder (to ${real}); it is not read`,
      path
    );
  return real;
}
function kindOf(info2) {
  if (info2.isFIFO()) return "a FIFO";
  if (info2.isSocket()) return "a socket";
  if (info2.isCharacterDevice() || info2.isBlockDevice()) return "a device";
  if (info2.isDirectory()) return "a directory";
  if (info2.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}
async function openRegular(file) {
  const before = await lstat2(file);
  if (!before.isFile())
    throw new ReportError(`the report ${file} is ${kindOf(before)}, not a regular file`, file);
  let handle2;
  try {
    handle2 = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (error) {
    throw new ReportError(
      `cannot open the report ${file}: ${error instanceof Error ? error.message : String(error)}`,
      file
    );
  }
  const after = await handle2.stat();
  if (!after.isFile()) {
    await handle2.close();
    throw new ReportError(`the report ${file} is ${kindOf(after)}, not a regular file`, file);
  }
  return handle2;
}
var Budget = class {
  constructor(path, limits) {
    this.path = path;
    this.limits = limits;
    this.deadline = Date.now() + limits.deadlineMs;
  }
  path;
  limits;
  deadline;
  cases = 0;
};
async function parseFile(file, budget = new Budget(file, REPORT_LIMITS)) {
  const handle2 = await openRegular(file);
  try {
    return await parseOpen(handle2, file, budget);
  } finally {
    await handle2.close().catch(() => void 0);
  }
}
function parseOpen(handle2, file, budget) {
  return new Promise((resolve5, reject2) => {
    const stream = createReadStream("", {
      fd: handle2.fd,
      autoClose: false,
      encoding: "utf8",
      highWaterMark: 1 << 20
    });
    let failed = false;
    const fail = (message2) => {
      if (failed) return;
      failed = true;
      clearTimeout(timer);
      stream.destroy();
      reject2(new ReportError(`unreadable report ${file}: ${message2}`, file));
    };
    const remaining = Math.max(0, budget.deadline - Date.now());
    const limit = budget.limits.deadlineMs;
    const timer = setTimeout(
      () => fail(
        `reading and parsing took longer than the limit of ${limit >= 1e3 ? `${Math.round(limit / 1e3)} s` : `${limit} ms`}`
      ),
      remaining
    );
    const collector = new Collector(budget, fail);
    const parser = collector.parser();
    stream.on("data", (chunk2) => {
      if (failed) return;
      try {
        parser.write(chunk2);
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error));
      }
    });
    stream.on("error", (error) => fail(error.message));
    stream.on("end", () => {
      if (failed) return;
      try {
        parser.close();
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error));
        return;
      }
      if (failed) return;
      clearTimeout(timer);
      if (!collector.sawRoot) fail("no <testsuites> or <testsuite> root element");
      else resolve5(collector.cases);
    });
  });
}
var ROOT_FRAME = { name: "", parent: null, depth: 0, names: [] };
function namesOf(frame) {
  if (frame.names) return frame.names;
  const names = [];
  for (let f = frame; f !== null && f.depth > 0; f = f.parent) names.push(f.name);
  frame.names = names.reverse();
  return frame.names;
}
var Collector = class {
  constructor(budget, fail) {
    this.budget = budget;
    this.fail = fail;
  }
  budget;
  fail;
  cases = [];
  sawRoot = false;
  frame = ROOT_FRAME;
  current = null;
  /** Class names and files repeat for every case of a module: each is kept once. */
  strings = /* @__PURE__ */ new Map();
  parser() {
    const parser = new import_saxes.SaxesParser({ position: false });
    Object.assign(parser.ENTITIES, HTML_ENTITIES);
    parser.on("error", (error) => {
      if (/undefined entity/.test(error.message)) return;
      this.fail(error.message);
    });
    parser.on("opentag", (tag) => this.open(tag));
    parser.on("closetag", (tag) => this.close(tag.name));
    return parser;
  }
  open(tag) {
    const a = tag.attributes;
    switch (tag.name) {
      case "testsuites":
        this.sawRoot = true;
        break;
      case "testsuite": {
        this.sawRoot = true;
        const parent = this.frame;
        if (parent.depth >= this.budget.limits.maxDepth) {
          this.fail(
            `<testsuite> elements nested more than ${this.budget.limits.maxDepth} deep (the limit)`
          );
          return;
        }
        const frame = { name: flat(a.name ?? ""), parent, depth: parent.depth + 1 };
        const file = a.file ?? a.filepath ?? parent.file;
        if (file) frame.file = file;
        this.frame = frame;
        break;
      }
      case "testcase": {
        const frame = this.frame;
        if (++this.budget.cases > this.budget.limits.maxCases) {
          this.fail(`more than ${this.budget.limits.maxCases} <testcase> elements (the limit)`);
          return;
        }
        const open3 = {
          classname: this.intern(a.classname ?? a.class ?? ""),
          name: flat(a.name ?? ""),
          suites: namesOf(frame),
          outcome: "passed",
          flaky: false
        };
        const file = a.file ?? a.filepath ?? frame.file;
        if (file) open3.file = this.intern(file);
        const line2 = Number.parseInt(a.line ?? a.lineno ?? "", 10);
        if (Number.isFinite(line2)) open3.line = line2;
        this.current = open3;
        break;
      }
      case "failure":
      case "error":
      case "skipped":
      case "rerunFailure":
      case "rerunError":
      case "flakyFailure":
      case "flakyError": {
        const c = this.current;
        if (c === null) break;
        if (tag.name.startsWith("flaky")) {
          c.flaky = true;
          break;
        }
        const outcome = tag.name === "skipped" ? "skipped" : /rror$/.test(tag.name) ? "error" : "failed";
        if (OUTCOME_RANK[outcome] > OUTCOME_RANK[c.outcome]) {
          c.outcome = outcome;
          const message2 = a.message ?? a.type;
          if (message2) c.message = flat(message2.slice(0, MESSAGE_CHARS));
        }
        break;
      }
      default:
        break;
    }
  }
  intern(value) {
    const known = this.strings.get(value);
    if (known !== void 0) return known;
    const copy = flat(value);
    if (this.strings.size < MAX_INTERNED) this.strings.set(copy, copy);
    return copy;
  }
  close(name2) {
    if (name2 === "testsuite") this.frame = this.frame.parent ?? ROOT_FRAME;
    else if (name2 === "testcase" && this.current !== null) {
      this.cases.push(this.current);
      this.current = null;
    }
  }
};
function flat(value) {
  return value.length < 13 ? value : Buffer.from(value, "utf8").toString("utf8");
}

// src/replay/runners.ts
import { basename as basename2 } from "node:path";
function detectRunner(suite) {
  if (suite.runner !== void 0) return suite.runner === "other" ? null : suite.runner;
  const words2 = splitWords(suite.command)?.map((w) => w.text) ?? suite.command.split(/\s+/);
  return runnerAt(words2)?.kind ?? null;
}
function splitWords(command) {
  const words2 = [];
  let open3 = false;
  for (let i2 = 0; i2 < command.length; ) {
    const ch = command[i2] ?? "";
    if (ch === " " || ch === "	") {
      open3 = false;
      i2++;
      continue;
    }
    const piece = wordPiece(command, i2);
    if (piece === null) return null;
    const last = words2[words2.length - 1];
    if (open3 && last) {
      last.raw += piece.raw;
      last.text += piece.text;
    } else words2.push(piece);
    open3 = true;
    i2 += piece.raw.length;
  }
  return words2;
}
function wordPiece(command, i2) {
  const ch = command[i2] ?? "";
  if (ch === "'") {
    const end = command.indexOf("'", i2 + 1);
    return end < 0 ? null : { raw: command.slice(i2, end + 1), text: command.slice(i2 + 1, end) };
  }
  if (ch === '"') return doubleQuoted(command, i2);
  if (ch === "\\") {
    if (i2 + 1 >= command.length) return null;
    return { raw: command.slice(i2, i2 + 2), text: command[i2 + 1] ?? "" };
  }
  if (isPlaceholder(command, i2)) {
    const raw = command.slice(i2, command.indexOf("}", i2) + 1);
    return { raw, text: raw };
  }
  return /[|&;<>()`$\n\r*?[\]{}~#]/.test(ch) ? null : { raw: ch, text: ch };
}
function doubleQuoted(command, i2) {
  let text2 = "";
  let j = i2 + 1;
  while (j < command.length && command[j] !== '"') {
    const c = command[j] ?? "";
    if (c === "$" || c === "`") return null;
    if (c === "\\" && j + 1 < command.length) {
      text2 += command[j + 1] ?? "";
      j += 2;
    } else {
      text2 += c;
      j++;
    }
  }
  return j >= command.length ? null : { raw: command.slice(i2, j + 1), text: text2 };
}
function isPlaceholder(command, at2) {
  return command[at2] === "{" && /^\{\w+\}/.test(command.slice(at2));
}
function runnerAt(words2) {
  for (let i2 = 0; i2 < words2.length; i2++) {
    const w = words2[i2] ?? "";
    const name2 = basename2(w);
    if (name2 === "pytest" || name2 === "py.test") return { kind: "pytest", index: i2 };
    if (w === "-m" && words2[i2 + 1] === "pytest") return { kind: "pytest", index: i2 + 1 };
    if (name2 === "vitest" || name2 === "vitest.mjs") {
      const sub = words2[i2 + 1];
      return { kind: "vitest", index: sub === "run" || sub === "related" ? i2 + 1 : i2 };
    }
    if (name2 === "jest" || name2 === "jest.js") return { kind: "jest", index: i2 };
    if (/^node(\.exe)?$|^node\d+$/.test(name2)) {
      const test = words2.indexOf("--test", i2 + 1);
      if (test > i2) return { kind: "node-test", index: test };
    }
    if (name2 === "go" && words2[i2 + 1] === "test") return { kind: "go", index: i2 + 1 };
  }
  return null;
}
var VALUE_OPTIONS = {
  pytest: new Set(
    "-p -k -m -c -o -W -r -n --rootdir --confcutdir --basetemp --junitxml --junit-prefix --deselect --ignore --ignore-glob --log-level --tb --maxfail --durations --import-mode --dist --capture --override-ini --config-file --cov --cov-report --cov-fail-under --timeout --hypothesis-seed".split(
      " "
    )
  ),
  vitest: new Set(
    "-c -r -t -w --config --root --dir --reporter --outputFile --project --environment --pool --testNamePattern --exclude --shard --mode --maxWorkers --minWorkers --testTimeout --hookTimeout --retry --bail --silent --sequence.seed --coverage.provider".split(
      " "
    )
  ),
  jest: new Set(
    "-c -t -w --config --reporters --testNamePattern --rootDir --roots --testPathIgnorePatterns --testPathPattern --testPathPatterns --maxWorkers --selectProjects --shard --testTimeout --outputFile --testMatch --testRegex --coverageReporters --env --testEnvironment --seed".split(
      " "
    )
  ),
  "node-test": new Set(
    "--test-reporter --test-reporter-destination --test-name-pattern --test-skip-pattern --test-concurrency --test-timeout --import -r --require --loader --experimental-loader --conditions -C --env-file --test-shard --input-type".split(
      " "
    )
  ),
  go: new Set("-run -skip -timeout -count -p -parallel -tags -coverprofile -o -exec".split(" "))
};
var NAME_FILTERS = {
  pytest: [],
  vitest: ["-t", "--testNamePattern"],
  jest: ["-t", "--testNamePattern"],
  "node-test": ["--test-name-pattern"],
  go: ["-run"]
};
function selectingCommand(command, kind) {
  if (kind === "go") return null;
  const words2 = splitWords(command);
  if (words2 === null) return null;
  const at2 = runnerAt(words2.map((w) => w.text));
  if (at2 === null || at2.kind !== kind) return null;
  const values = VALUE_OPTIONS[kind];
  const filters = NAME_FILTERS[kind];
  const kept2 = words2.slice(0, at2.index + 1).map((w) => w.raw);
  let placed = false;
  const place = () => {
    if (!placed) kept2.push("{tests}");
    placed = true;
  };
  for (let i2 = at2.index + 1; i2 < words2.length; i2++) {
    const word = words2[i2] ?? { raw: "", text: "" };
    const option = word.text.split("=")[0] ?? "";
    if (filters.includes(option)) return null;
    if (word.text.startsWith("-")) {
      kept2.push(word.raw);
      if (!word.text.includes("=") && values.has(word.text) && i2 + 1 < words2.length) {
        kept2.push(words2[i2 + 1]?.raw ?? "");
        i2++;
      }
      continue;
    }
    place();
  }
  place();
  return kept2.join(" ");
}
function selectionArgs(kind, ids) {
  if (kind === null || kind === "pytest") return [...ids];
  const parts2 = ids.map(splitId);
  const files = unique(parts2.map((p) => p.file));
  if (kind === "go") return [`^(${unique(parts2.map((p) => goTop(p.name))).join("|")})$`];
  if (kind === "vitest") {
    return [...files, "-t", anchored(parts2.map((p) => p.name.split(" > ").join(" ")))];
  }
  if (kind === "jest") {
    return [
      ...files.map((f) => escapeRegExp2(f)),
      "--testNamePattern",
      anchored(parts2.map((p) => p.name.split(" > ").join(" ")))
    ];
  }
  const names = parts2.flatMap((p) => {
    const chain = p.name.split(" > ");
    return unique([chain.join(" "), chain[chain.length - 1] ?? p.name]);
  });
  return [`--test-name-pattern=${anchored(names)}`, ...files];
}
function splitId(id) {
  const at2 = id.indexOf("::");
  return at2 < 0 ? { file: id, name: "" } : { file: id.slice(0, at2), name: id.slice(at2 + 2) };
}
function goTop(name2) {
  return escapeRegExp2(name2.split("/")[0] ?? name2);
}
function anchored(names) {
  return `^(?:${unique(names).map(escapeRegExp2).join("|")})$`;
}
function unique(values) {
  return [...new Set(values)];
}
function escapeRegExp2(text2) {
  return text2.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
var REPORTER_OPTIONS = {
  vitest: ["--reporter", "-r"],
  jest: ["--reporters"],
  "node-test": ["--test-reporter"]
};
function withReporter(command, kind, reporter) {
  const options = REPORTER_OPTIONS[kind];
  if (options === void 0) return { why: `${kind} takes no reporter from the gate` };
  const words2 = splitWords(command);
  if (words2 === null) return { why: "the suite command is not a simple command" };
  const texts = words2.map((w) => w.text);
  const at2 = runnerAt(texts);
  if (at2 === null || at2.kind !== kind) return { why: `the suite command does not run ${kind}` };
  const named = (option) => texts.filter((t, i2) => i2 > at2.index && (t === option || t.startsWith(`${option}=`))).length;
  const reporters = options.reduce((n, o) => n + named(o), 0);
  if (reporters === 0)
    return {
      why: `the suite command names no ${options[0] ?? ""}: the reporters come from the runner's configuration`
    };
  const added = [`${options[0] ?? ""}=${shellWord(reporter)}`];
  if (kind === "node-test") {
    if (named("--test-reporter-destination") !== reporters)
      return { why: "the suite command gives --test-reporter without a destination for each" };
    added.push("--test-reporter-destination=stdout");
  }
  const raw = words2.map((w) => w.raw);
  const cut = kind === "jest" ? raw.length : at2.index + 1;
  return { command: [...raw.slice(0, cut), ...added, ...raw.slice(cut)].join(" ") };
}
function shellWord(value) {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

// src/replay/watch.ts
var WATCH_FD = 4;
async function watchPlan(ctx, instrument) {
  const reach = ctx.policy.lints["oracle-reach"] !== "off";
  const cover = ctx.policy.evidence.mode !== "off";
  if (!reach && !cover) return null;
  const production = lintFiles(ctx.planes, ctx.writeSet).production.map((r) => r.path);
  if (production.length === 0) return null;
  const added = await addedLines(ctx.git, ctx.mergeBase, ctx.head, production);
  const lines = {};
  for (const [path, byLine] of added.lines) {
    const ranges = toRanges([...byLine.keys()]);
    if (ranges.length > 0) lines[path] = ranges;
  }
  if (Object.keys(lines).length === 0) return null;
  const what = [reach ? "run-time reach" : "", cover ? "coverage" : ""].filter(Boolean).join(" and ");
  ctx.log.info(
    `watch plan: ${Object.keys(lines).length} production file(s) of the patch, for ${what}`
  );
  const allowed = allowList(ctx.policy.lints.reach_allow, ctx.policy.case_insensitive);
  const open3 = Object.keys(lines).filter((path) => allowed(path, "markers"));
  return { lines, instrument: [...instrument], reach, cover, ...open3.length ? { open: open3 } : {} };
}
function toRanges(lines) {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const out2 = [];
  for (const n of sorted) {
    const last = out2[out2.length - 1];
    if (last !== void 0 && n === last[1] + 1) last[1] = n;
    else out2.push([n, n]);
  }
  return out2;
}
function encodeWatch(plan, root) {
  return Buffer.from(`${JSON.stringify({ v: 1, root, ...plan })}
`, "utf8");
}

// src/replay/stream.ts
var STREAM_VAR = "TEST_OUTCOME_STREAM";
var STREAM_FD = 3;
var PYTEST_MODULE = "pytest_outcomes";
var MAX_EVENTS = 1e4;
var MAX_STREAM_BYTES = 64 << 20;
function reportersDir() {
  const here = dirname4(fileURLToPath2(import.meta.url));
  for (const dir of [join8(here, "reporters"), join8(here, "..", "reporters")])
    if (existsSync2(join8(dir, "python", `${PYTEST_MODULE}.py`))) return dir;
  return null;
}
function planStream(command, runner, env, dir = reportersDir(), watch) {
  const off = (why) => ({
    command,
    env: {},
    shell: {},
    outcome: () => ({ state: "off", why })
  });
  const on = (line2, added2, nonce2, fed) => {
    const collector = new StreamCollector(nonce2);
    const spec = `${STREAM_FD}:${nonce2}${fed ? `:${WATCH_FD}` : ""}`;
    return {
      command: line2,
      env: { ...added2, [STREAM_VAR]: spec },
      shell: { onStream: collector.take, ...fed ? { feed: fed } : {} },
      outcome: () => collector.outcome()
    };
  };
  if (runner === null) return off("the suite command names no runner the gate knows");
  if (dir === null) return off("the gate's reporters are missing from its installation");
  const nonce = randomBytes(16).toString("hex");
  if (runner === "pytest") {
    const python = join8(dir, "python");
    const plugins = [env.PYTEST_PLUGINS, PYTEST_MODULE].filter(Boolean).join(",");
    const path = [python, env.PYTHONPATH].filter(Boolean).join(":");
    return on(command, { PYTEST_PLUGINS: plugins, PYTHONPATH: path }, nonce, watch);
  }
  if (runner === "go") return off("go test has no reporter of the gate");
  const file = runner === "vitest" ? "vitest.mjs" : runner === "jest" ? "jest.js" : "node-test.mjs";
  const added = withReporter(command, runner, join8(dir, "node", file));
  if ("why" in added) return off(added.why);
  const watcher = join8(dir, "node", WATCHER);
  if (watch === void 0 || !existsSync2(watcher)) return on(added.command, {}, nonce);
  const preload = `--require=${optionWord(watcher)}`;
  const options = [env.NODE_OPTIONS, preload].filter(Boolean).join(" ");
  return on(added.command, { NODE_OPTIONS: options }, nonce, watch);
}
var WATCHER = "gate-reach.cjs";
function optionWord(value) {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `"${value.replace(/["\\]/g, "\\$&")}"`;
}
var StreamCollector = class {
  constructor(nonce) {
    this.nonce = nonce;
  }
  nonce;
  chunks = [];
  bytes = 0;
  overflow = false;
  take = (chunk2) => {
    if (this.overflow) return;
    this.bytes += chunk2.length;
    if (this.bytes > MAX_STREAM_BYTES) this.overflow = true;
    else this.chunks.push(chunk2);
  };
  outcome() {
    const read = parseStream(Buffer.concat(this.chunks).toString("utf8"), this.nonce);
    if (this.overflow) read.problems.push(`the stream ran over ${MAX_STREAM_BYTES} bytes`);
    return read;
  }
};
var SESSION_KINDS = /* @__PURE__ */ new Set(["start", "end", "case"]);
var OUTCOMES = /* @__PURE__ */ new Set(["passed", "failed", "error", "skipped"]);
function parseStream(text2, nonce) {
  const out2 = {
    state: "read",
    cases: [],
    started: 0,
    ended: 0,
    problems: [],
    events: [],
    dropped: 0,
    watched: 0
  };
  const lines = text2.split("\n");
  const last = lines.pop() ?? "";
  if (last !== "") out2.problems.push("the stream ends in the middle of a line");
  let foreign = 0;
  let dropped = 0;
  for (const line2 of lines) {
    const record = parseRecord(line2);
    if (record === null || record.k !== nonce) {
      foreign++;
      continue;
    }
    if (!SESSION_KINDS.has(String(record.t))) {
      if (out2.events.length < MAX_EVENTS) out2.events.push(record);
      else dropped++;
      continue;
    }
    if (out2.ended === out2.started && record.t !== "start") {
      out2.problems.push(`a ${String(record.t)} record outside a session of the runner`);
      continue;
    }
    if (record.t === "start") {
      out2.started++;
      if (record.watch === true) out2.watched++;
    } else if (record.t === "end") {
      out2.ended++;
      if (typeof record.status === "number") out2.status = record.status;
    } else if (record.t === "case") {
      const c = toCase(record);
      if (c === null) out2.problems.push("a case record without a name or an outcome");
      else out2.cases.push(c);
    }
  }
  if (foreign > 0)
    out2.problems.push(`${foreign} line(s) on the stream were not written by the gate's reporter`);
  out2.dropped = dropped;
  return out2;
}
function parseRecord(line2) {
  try {
    const value = JSON.parse(line2);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}
function toCase(r) {
  const str3 = (v) => typeof v === "string" ? v : void 0;
  const name2 = str3(r.name);
  const outcome = str3(r.outcome);
  if (name2 === void 0 || outcome === void 0 || !OUTCOMES.has(outcome)) return null;
  const suites = Array.isArray(r.suites) ? r.suites.filter((s) => typeof s === "string") : [];
  const c = {
    classname: str3(r.classname) ?? "",
    name: name2,
    suites,
    outcome,
    flaky: false
  };
  const file = str3(r.file);
  if (file !== void 0) c.file = file;
  if (typeof r.line === "number") c.line = r.line;
  return c;
}
function outcomeClass(o) {
  return o === "failed" || o === "error" ? "failed" : o;
}
function caseName(c, root, runner = null) {
  const where = c.file !== void 0 ? toRepoPath(c.file, root) : c.classname;
  const suites = runner === "node-test" ? c.suites.filter((s) => s !== "") : [];
  const chain = [
    ...suites,
    ...c.classname !== where && c.file !== void 0 && c.classname !== "" ? [c.classname] : [],
    c.name
  ];
  const shown2 = where === "" ? chain.join(" > ") : `${where}::${chain.join(" > ")}`;
  return shown2.length > 300 ? `${shown2.slice(0, 300)}\u2026` : shown2;
}
function caseKey(root, runner) {
  return (c) => [
    c.file !== void 0 ? toRepoPath(c.file, root) : "",
    c.classname,
    ...runner === "node-test" ? c.suites : [],
    c.name
  ].join("\0");
}
function withMessages(streamed, junit, root, runner) {
  const key4 = caseKey(root, runner);
  const messages = /* @__PURE__ */ new Map();
  for (const c of junit)
    if (c.message !== void 0) messages.set(`${key4(c)}\0${outcomeClass(c.outcome)}`, c);
  return streamed.map((s) => {
    const found = messages.get(`${key4(s)}\0${outcomeClass(s.outcome)}`);
    return found?.message !== void 0 ? { ...s, message: found.message } : s;
  });
}
function crossCheck(junit, streamed, root, runner) {
  const key4 = caseKey(root, runner);
  const index = (cases) => {
    const map = /* @__PURE__ */ new Map();
    for (const c of cases) {
      const k = key4(c);
      const held = map.get(k);
      if (held === void 0 || OUTCOME_RANK[c.outcome] > OUTCOME_RANK[held.outcome]) map.set(k, c);
    }
    return map;
  };
  const file = index(junit);
  const stream = index(streamed);
  const problems = [];
  for (const [k, c] of file) {
    const s = stream.get(k);
    if (s === void 0)
      problems.push(
        `${caseName(c, root, runner)} is in the report (${c.outcome}) but was never streamed`
      );
    else if (outcomeClass(s.outcome) !== outcomeClass(c.outcome))
      problems.push(
        `${caseName(c, root, runner)} was streamed ${s.outcome} but the report says ${c.outcome}`
      );
  }
  for (const [k, s] of stream)
    if (!file.has(k))
      problems.push(
        `${caseName(s, root, runner)} was streamed ${s.outcome} but is missing from the report`
      );
  return problems;
}

// src/replay/contain.ts
import { existsSync as existsSync5, statSync } from "node:fs";
import { mkdir as mkdir2 } from "node:fs/promises";
import { basename as basename3, join as join10 } from "node:path";

// src/exec/sandbox.ts
import { existsSync as existsSync4, lstatSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import { randomBytes as randomBytes2 } from "node:crypto";
import { delimiter, dirname as dirname5, isAbsolute as isAbsolute3, join as join9, resolve } from "node:path";

// src/exec/process.ts
import { spawn as spawn2 } from "node:child_process";
import { createWriteStream, existsSync as existsSync3 } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { constants as constants2 } from "node:os";
var MAX_CAPTURE_BYTES = 64 * 1024 * 1024;
var MAX_TIMER_MS = 2 ** 31 - 1;
function timerDelay(timeoutSec) {
  const ms = timeoutSec * 1e3;
  if (Number.isNaN(ms)) return MAX_TIMER_MS;
  return Math.max(1, Math.min(MAX_TIMER_MS, Math.ceil(ms)));
}
var TAIL_BYTES = 4e3;
var HEAD_BYTES = 1500;
var KILL_GRACE_MS = 2e3;
function shell() {
  return existsSync3("/bin/bash") ? "/bin/bash" : existsSync3("/usr/bin/bash") ? "/usr/bin/bash" : "/bin/sh";
}
function runShell(run2) {
  return new Promise((resolve5, reject2) => {
    const started = Date.now();
    const log = createWriteStream(run2.logFile, { flags: "a" });
    const out2 = new OutputTail();
    const captured = new Capture();
    const [bin = shell(), ...args3] = [...run2.wrap ?? [], shell(), "-c", run2.command];
    const child = spawn2(bin, args3, {
      cwd: run2.cwd,
      env: run2.env,
      detached: true,
      // own process group: kill(-pid) reaches grandchildren
      stdio: ["pipe", "pipe", "pipe", ...extraPipes(run2)]
    });
    if (run2.onStream) child.stdio[3]?.on("data", run2.onStream);
    feed(child.stdio[4], run2.feed);
    const stdoutText = new StringDecoder("utf8");
    const stderrText = new StringDecoder("utf8");
    child.stdout.on("data", (d) => {
      if (!run2.captureStdout) return keep(log, out2, d, stdoutText);
      if (!captured.add(d)) killGroup(child.pid, "SIGKILL");
    });
    child.stderr.on("data", (d) => keep(log, out2, d, stderrText));
    child.stdin.on("error", () => void 0);
    child.stdin.end(run2.input ?? "");
    let timedOut = false;
    let killTimer;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, "SIGTERM");
      killTimer = setTimeout(() => killGroup(child.pid, "SIGKILL"), KILL_GRACE_MS);
    }, timerDelay(run2.timeoutSec));
    child.on("error", (error) => {
      clearTimeout(timer);
      log.end();
      reject2(error);
    });
    child.on("close", (closeCode, closeSignal) => {
      const [code, signal] = run2.wrap ? unwrapped(closeCode, closeSignal) : [closeCode, closeSignal];
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      killGroup(child.pid, "SIGKILL");
      out2.add(stdoutText.end() + stderrText.end());
      const failure2 = captured.overflowed ? `captured stdout exceeded the ${MAX_CAPTURE_BYTES / 1024 / 1024} MiB limit (MAX_CAPTURE_BYTES); the process group was killed and its stdout discarded` : void 0;
      if (failure2 !== void 0) out2.add(`
oracle-gate: ${failure2}
`);
      log.end(
        () => resolve5({
          exitCode: code,
          signal,
          timedOut,
          durationMs: Date.now() - started,
          ...out2.result(),
          stdout: captured.text(),
          ...failure2 === void 0 ? {} : { failure: failure2 }
        })
      );
    });
  });
}
function extraPipes(run2) {
  if (!run2.onStream) return [];
  return run2.feed ? ["pipe", "pipe"] : ["pipe"];
}
function feed(pipe, data) {
  if (data === void 0 || pipe === null || typeof pipe !== "object") return;
  const w = pipe;
  w.on("error", () => void 0);
  w.end(data);
}
function keep(log, out2, data, decoder) {
  log.write(data);
  out2.add(decoder.write(data));
}
var OutputTail = class {
  tail = "";
  head = "";
  total = 0;
  add(text2) {
    this.total += text2.length;
    if (this.head.length < HEAD_BYTES) this.head = (this.head + text2).slice(0, HEAD_BYTES);
    this.tail = (this.tail + text2).slice(-TAIL_BYTES);
  }
  result() {
    const head = this.head;
    return {
      tail: this.tail.trimEnd(),
      head: this.total > TAIL_BYTES ? head.slice(0, head.lastIndexOf("\n") + 1 || head.length).trimEnd() : ""
    };
  }
};
var Capture = class {
  chunks = [];
  bytes = 0;
  overflowed = false;
  /** False once the limit is passed (the caller stops the child). */
  add(data) {
    if (this.overflowed) return false;
    this.bytes += data.length;
    if (this.bytes > MAX_CAPTURE_BYTES) {
      this.overflowed = true;
      this.chunks = [];
      return false;
    }
    this.chunks.push(data);
    return true;
  }
  text() {
    return Buffer.concat(this.chunks).toString("utf8");
  }
};
function unwrapped(code, signal) {
  if (code === null || code <= 128) return [code, signal];
  const name2 = Object.entries(constants2.signals).find(([, n]) => n === code - 128)?.[0];
  return name2 ? [null, name2] : [code, signal];
}
function killGroup(pid, signal) {
  if (pid === void 0) return;
  try {
    process.kill(-pid, signal);
  } catch {
  }
}

// src/exec/sandbox.ts
function depth(path) {
  return path.split("/").filter(Boolean).length;
}
function dedupe(mounts) {
  const byTarget = /* @__PURE__ */ new Map();
  for (const m of mounts) byTarget.set(m.to, m);
  return [...byTarget.values()];
}
function bwrapArgv(bin, layout) {
  const argv = [bin, "--die-with-parent", "--unshare-pid", "--unshare-ipc"];
  if (!layout.network) argv.push("--unshare-net");
  argv.push("--proc", "/proc", "--dev", "/dev");
  const mounts = dedupe([
    ...layout.mounts,
    { kind: "rw", from: layout.worktree, to: layout.at },
    ...layout.instrument.map((p) => ({
      kind: "ro",
      from: join9(layout.worktree, p),
      to: join9(layout.at, p)
    }))
  ]);
  const ordered = mounts.map((m, i2) => ({ m, i: i2 })).sort((a, b) => depth(a.m.to) - depth(b.m.to) || a.i - b.i);
  for (const { m } of ordered) argv.push(...mountArgs(m));
  argv.push("--chdir", layout.at);
  return argv;
}
function mountArgs(m) {
  switch (m.kind) {
    case "tmpfs":
      return ["--tmpfs", m.to];
    case "symlink":
      return ["--symlink", m.target, m.to];
    case "ro":
      return ["--ro-bind-try", m.from, m.to];
    case "rw":
      return ["--bind", m.from, m.to];
  }
}
var SYSTEM_ROOTS = [
  "/usr",
  "/bin",
  "/sbin",
  "/lib",
  "/lib32",
  "/lib64",
  "/libx32",
  "/etc",
  "/opt",
  "/nix"
];
var RESOLVED = "/run/systemd/resolve";
var HOME_TOOLCHAINS = [
  ".pyenv",
  ".nvm",
  ".local",
  ".volta",
  ".cargo",
  ".rustup",
  ".bun",
  ".deno",
  ".asdf",
  ".fnm",
  ".sdkman",
  "go",
  ".gitconfig"
];
var HOME_CACHES = [
  ".npm",
  ".cache",
  ".yarn",
  ".pnpm-store",
  ".m2",
  ".gradle",
  ".bun/install/cache"
];
var inside = (path, dir) => path === dir || path.startsWith(`${dir}/`);
function planLayout(req) {
  const given = req.env.HOME;
  const home = given && isAbsolute3(given) && depth(given) >= 1 && !SYSTEM_ROOTS.some((r) => inside(given, r)) ? resolve(given) : "/root";
  const mounts = [
    { kind: "tmpfs", to: "/tmp" },
    { kind: "tmpfs", to: "/var/tmp" }
  ];
  if (existsSync4(RESOLVED)) mounts.push({ kind: "ro", from: RESOLVED, to: RESOLVED });
  for (const root of SYSTEM_ROOTS) {
    const info2 = lstatSync(root, { throwIfNoEntry: false });
    if (!info2) continue;
    if (info2.isSymbolicLink())
      mounts.push({ kind: "symlink", target: readlinkSync(root), to: root });
    else mounts.push({ kind: "ro", from: root, to: root });
  }
  mounts.push({ kind: "tmpfs", to: home });
  const hidden = req.hidden.map((h) => resolve(h));
  const ro = (path) => {
    if (depth(path) < 2 || resolve(path) === home) return;
    if (existsSync4(path) && !hidden.some((h) => inside(resolve(path), h)))
      mounts.push({ kind: "ro", from: path, to: path });
  };
  for (const name2 of HOME_TOOLCHAINS) ro(join9(home, name2));
  for (const entry of (req.env.PATH ?? "").split(delimiter)) {
    if (!isAbsolute3(entry) || depth(entry) < 2 || SYSTEM_ROOTS.some((r) => inside(entry, r))) continue;
    if (inside(entry, home) && entry !== home) {
      ro(join9(home, entry.slice(home.length + 1).split("/")[0] ?? ""));
    } else if (!inside(home, entry)) ro(entry.endsWith("/bin") ? dirname5(entry) : entry);
  }
  if (req.caches) {
    for (const name2 of HOME_CACHES) {
      const path = join9(home, name2);
      if (existsSync4(path)) mounts.push({ kind: "rw", from: path, to: path });
    }
  }
  for (const path of req.readOnly) ro(path);
  for (const link of dependencyLinks(req.worktree, hidden)) mounts.push(link);
  for (const w of req.writable) mounts.push({ kind: "rw", from: w.from, to: w.to });
  return {
    mounts,
    instrument: req.instrument.filter((p) => existsSync4(join9(req.worktree, p))),
    at: req.at,
    worktree: req.worktree,
    network: req.network
  };
}
function dependencyLinks(worktree, hidden) {
  const mounts = [];
  for (const link of linksIn(worktree)) {
    let target;
    let real;
    try {
      target = resolve(dirname5(link), readlinkSync(link));
      real = realpathSync(target);
    } catch {
      continue;
    }
    if (inside(real, worktree)) continue;
    for (const path of /* @__PURE__ */ new Set([target, real])) {
      const cut = path.indexOf("/node_modules");
      const dir = cut < 0 ? null : path.slice(0, cut + "/node_modules".length);
      if (dir === null || hidden.some((h) => inside(dir, h)) || inside(dir, worktree)) continue;
      mounts.push({ kind: "ro", from: realpathOr(dir), to: dir });
    }
  }
  return mounts;
}
function realpathOr(path) {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
function linksIn(worktree) {
  const links = [];
  const scan = (dir, nested) => {
    let names;
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name2 of names) {
      const path = join9(dir, name2);
      const info2 = lstatSync(path, { throwIfNoEntry: false });
      if (info2?.isSymbolicLink()) links.push(path);
      else if (info2?.isDirectory() && nested && name2.startsWith("@")) scan(path, false);
    }
  };
  scan(worktree, false);
  scan(join9(worktree, "node_modules"), true);
  return links;
}
function neutralName() {
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return `tmp.${[...randomBytes2(10)].map((b) => letters[b % letters.length]).join("")}`;
}
function findBwrap(path) {
  for (const dir of (path ?? "").split(delimiter)) {
    if (!isAbsolute3(dir)) continue;
    const bin = join9(dir, "bwrap");
    if (existsSync4(bin)) return bin;
  }
  return null;
}
function decideContainment(policy, probe) {
  if (policy === "off" || probe === null)
    return { bin: null, report: { kind: "none", contained: false, why: "sandbox: off" } };
  const why = probe.bin === null ? "bubblewrap (bwrap) is not on PATH" : probe.failure !== null ? `bwrap cannot make a sandbox here (${probe.failure || "no output"}); on Ubuntu 24.04 unprivileged user namespaces are restricted by AppArmor (docs/github.md)` : null;
  if (why === null) return { bin: probe.bin, report: { kind: "bwrap", contained: true } };
  if (policy === "required") throw new GateError(`sandbox: required, but ${why}`);
  return { bin: null, report: { kind: "none", contained: false, why } };
}
async function probeBwrap(bin, env, dir, logFile) {
  const layout = planLayout({
    env,
    worktree: dir,
    at: dir,
    hidden: [],
    readOnly: [],
    writable: [],
    instrument: [],
    network: false,
    caches: false
  });
  try {
    const run2 = await runShell({
      command: "true",
      cwd: dir,
      env,
      timeoutSec: 30,
      logFile,
      wrap: bwrapArgv(bin, layout)
    });
    return run2.exitCode === 0 ? null : run2.tail.split("\n").slice(-3).join(" ").slice(0, 300);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

// src/replay/contain.ts
var MAX_INSTRUMENT_FILES = 200;
async function containRuns(ctx, spec) {
  const probe = ctx.policy.sandbox === "off" ? null : await probeSandbox(ctx);
  const decided = decideContainment(ctx.policy.sandbox, probe);
  const project = projectName(ctx.repoDir);
  const home = ctx.childEnv.HOME ?? "/root";
  const gitDir = join10(ctx.repoDir, ".git");
  const reporters = reportersDir();
  return {
    ...decided,
    // In the sandbox: a checkout in the home folder, as a developer has it. Without: a
    // folder of the run's temp dir, each side moved there in turn.
    at: decided.bin !== null ? join10(home, project) : join10(ctx.tempDir, project),
    instrument: instrumentPaths(spec),
    // The repository's git folder, and the gate's own reporters (stream.ts) where the
    // runners load them from: read-only, at the same path.
    readOnly: [
      ...existsSync5(gitDir) && statSync(gitDir).isDirectory() ? [gitDir] : [],
      ...reporters === null ? [] : [reporters]
    ],
    network: ctx.policy.suite.network
  };
}
async function probeSandbox(ctx) {
  const bin = findBwrap(ctx.childEnv.PATH);
  if (bin === null) return { bin: null };
  const dir = join10(ctx.tempDir, neutralName());
  await mkdir2(dir, { recursive: true });
  const failure2 = await probeBwrap(bin, ctx.childEnv, dir, `${dir}.log`);
  if (failure2 !== null) ctx.log.warning(`sandbox: bwrap failed its probe: ${failure2}`);
  return { bin, failure: failure2 };
}
function projectName(repoDir) {
  const name2 = basename3(repoDir);
  return /^[\w.-]+$/.test(name2) && name2 !== "." && name2 !== ".." ? name2 : "project";
}
function instrumentPaths(spec) {
  const dirs = spec.deep.filter((d) => d !== "" && d !== ".");
  if (dirs.length < spec.deep.length) return [];
  const files = [...spec.files.keys()].filter((f) => !dirs.some((d) => f.startsWith(`${d}/`)));
  return [...dirs, ...files.length <= MAX_INSTRUMENT_FILES ? files : []];
}
function containmentNotices(ctx, c) {
  if (c.report.contained) return [];
  const open3 = [
    "a process the suite starts (in a new session, detached) can outlive the runner and rewrite its report",
    "the suite can read and write outside its worktree (the other side's worktree, the gate's temp folder, the checkout)",
    "the network is open",
    "the paths and processes of the machine are visible to the product"
  ];
  const notices = [
    {
      rule: "diagnostic",
      level: "notice",
      message: `runs not contained (${c.report.why ?? "no sandbox"}): ${open3.join("; ")}. Install bubblewrap and allow user namespaces (docs/github.md), or set sandbox: required to refuse such runs`,
      path: ctx.policy.path
    }
  ];
  const { parallel, jobs } = ctx.policy.suite;
  if (parallel || jobs >= 2) {
    notices.push({
      rule: "diagnostic",
      level: "notice",
      message: `suite.${parallel ? "parallel" : "jobs"} asks the sides to overlap, but without a sandbox they would share the one path they run at and could reach each other: they ran one after the other`,
      path: ctx.policy.path
    });
  }
  return notices;
}

// src/evidence/index.ts
import { join as join19 } from "node:path";

// src/replay/worktree.ts
import { existsSync as existsSync6 } from "node:fs";
import { rename, rm as rm5 } from "node:fs/promises";
import { join as join15 } from "node:path";

// src/replay/setup.ts
import { lstat as lstat5, symlink as symlink2, unlink } from "node:fs/promises";
import { join as join14, resolve as resolve4 } from "node:path";

// src/replay/reuse.ts
import { lstat as lstat3, readdir as readdir4, readFile as readFile4, realpath as realpath2, stat as stat2 } from "node:fs/promises";
import { dirname as dirname6, join as join11, posix as posix4, resolve as resolve2, sep } from "node:path";
var DEFAULT_KEY_FILES = [
  "package-lock.json",
  "npm-shrinkwrap.json",
  "pnpm-lock.yaml",
  "yarn.lock",
  "bun.lock",
  "poetry.lock",
  "uv.lock"
];
var REQUIREMENTS = /^requirements.*\.txt$/;
function normaliseRepoPath(raw, key4, policyPath) {
  const path = posix4.normalize(raw.replace(/\\/g, "/")).replace(/\/+$/, "");
  const bad = path === "" || path === "." || path.startsWith("/") || /^[A-Za-z]:/.test(path) || path.split("/").some((s) => s === ".." || s === ".git");
  if (bad) {
    throw new GateError(
      `${key4}: "${raw}" must be a relative path inside the repository (no "..", no absolute path, not .git)`,
      { rule: "config-invalid", path: policyPath }
    );
  }
  return path;
}
async function defaultKeyFiles(checkoutDir, worktree) {
  const found = /* @__PURE__ */ new Set();
  for (const dir of [checkoutDir, worktree]) {
    const names = await readdir4(dir).catch(() => []);
    for (const name2 of names) {
      if (DEFAULT_KEY_FILES.includes(name2) || REQUIREMENTS.test(name2)) found.add(name2);
    }
  }
  return [...found].sort();
}
async function keyBytes(root, path) {
  const full = join11(root, path);
  const info2 = await lstat3(full).catch(() => null);
  if (info2 === null) return "absent";
  if (!info2.isFile()) return "not-a-file";
  return readFile4(full);
}
async function keyMismatch(checkoutDir, worktree, keys) {
  let compared = 0;
  for (const key4 of keys) {
    const [mine, theirs] = await Promise.all([keyBytes(checkoutDir, key4), keyBytes(worktree, key4)]);
    if (mine === "not-a-file" || theirs === "not-a-file") {
      return `${key4} is not a regular file in the ${mine === "not-a-file" ? "checkout" : "worktree"}`;
    }
    if (mine === "absent" && theirs === "absent") continue;
    if (mine === "absent") return `${key4} exists in the worktree but not in the checkout`;
    if (theirs === "absent") return `${key4} exists in the checkout but not in the worktree`;
    if (!mine.equals(theirs)) return `${key4} differs between the checkout and the worktree`;
    compared++;
  }
  return compared === 0 ? `none of the reuse_key files (${keys.join(", ")}) exists, so nothing proves the dependencies match` : null;
}
async function linkObstacle(git, checkoutDir, worktree, dir) {
  const listed2 = await git.trackedPaths(dir);
  if ("refused" in listed2) return `cannot tell whether ${dir} is tracked: ${listed2.refused}`;
  if (listed2.paths.length > 0) {
    return `${dir} is tracked in the checkout; only ignored or untracked directories are reused (a tracked one would carry the checkout's files into the worktree)`;
  }
  const source = await stat2(join11(checkoutDir, dir)).catch(() => null);
  if (source === null || !source.isDirectory())
    return `${dir} does not exist in the checkout (run the install there first)`;
  if (await lstat3(join11(worktree, dir)).catch(() => null) !== null) {
    return `${dir} already exists in the worktree (tracked at this commit?)`;
  }
  const borrowed = await pointsBackIntoCheckout(checkoutDir, dir);
  if (borrowed !== null) return borrowed;
  const parent = dirname6(join11(worktree, dir));
  const [realParent, realWorktree] = await Promise.all([
    realpath2(parent).catch(() => null),
    realpath2(worktree)
  ]);
  if (realParent === null) return `${posix4.dirname(dir)} does not exist in the worktree`;
  if (realParent !== realWorktree && !realParent.startsWith(realWorktree + sep)) {
    return `${posix4.dirname(dir)} leads outside the worktree`;
  }
  return null;
}
async function decideReuse(options) {
  const { git, checkoutDir, worktree, policyPath } = options;
  const dirs = options.dirs.map((d) => normaliseRepoPath(d, "suite.reuse", policyPath));
  const keys = options.keys === void 0 ? await defaultKeyFiles(checkoutDir, worktree) : options.keys.map((k) => normaliseRepoPath(k, "suite.reuse_key", policyPath));
  if (keys.length === 0) {
    return {
      reuse: false,
      keys,
      reason: "no reuse_key file (lockfile) exists in the checkout or the worktree, so nothing proves the dependencies match"
    };
  }
  const difference = await keyMismatch(checkoutDir, worktree, keys);
  if (difference !== null) return { reuse: false, keys, reason: difference };
  for (const dir of dirs) {
    const obstacle = await linkObstacle(git, checkoutDir, worktree, dir);
    if (obstacle !== null) return { reuse: false, keys, reason: obstacle };
  }
  return { reuse: true, keys, reason: `${keys.join(", ")} identical to the checkout's` };
}
var inside2 = (path, root) => path === root || path.startsWith(root + sep);
async function pointsBackIntoCheckout(checkoutDir, dir) {
  const checkout = await realpath2(checkoutDir);
  const source = await realpath2(join11(checkoutDir, dir));
  const entries = await readdir4(source, { withFileTypes: true }).catch(() => []);
  const candidates = entries.map((e) => e.name);
  for (const scope of candidates.filter((n) => n.startsWith("@"))) {
    const scoped = await readdir4(join11(source, scope)).catch(() => []);
    candidates.push(...scoped.map((n) => `${scope}/${n}`));
  }
  for (const name2 of candidates) {
    const full = join11(source, name2);
    if (!(await lstat3(full)).isSymbolicLink()) continue;
    const target = await realpath2(full).catch(() => null);
    if (target !== null && inside2(target, checkout) && !inside2(target, source)) {
      return `${dir}/${name2} links to ${target.slice(checkout.length + 1)} in the checkout (a workspace package): the worktree would run the checkout's copy`;
    }
  }
  for (const lib of ["lib", "lib64"]) {
    const pythons = await readdir4(join11(source, lib)).catch(() => []);
    for (const python of pythons) {
      const site = join11(source, lib, python, "site-packages");
      for (const name2 of await readdir4(site).catch(() => [])) {
        if (!name2.endsWith(".pth") && !name2.startsWith("__editable__")) continue;
        const text2 = await readFile4(join11(site, name2), "utf8").catch(() => "");
        if (text2.includes(checkout) || text2.includes(resolve2(checkoutDir))) {
          return `${dir} has the project installed in editable mode (${name2} points into the checkout): the worktree would import the checkout's code`;
        }
      }
    }
  }
  return null;
}

// src/replay/run.ts
import { mkdir as mkdir3, readFile as readFile5, rm as rm3 } from "node:fs/promises";
import { basename as basename4, dirname as dirname7, join as join12 } from "node:path";
function shellQuote(value) {
  if (/^[\w@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
function substitute(command, values) {
  return command.replace(/\{(\w+)\}/g, (whole, name2) => {
    const value = values[name2];
    if (value === void 0) return whole;
    return typeof value === "string" ? shellQuote(value) : value.map(shellQuote).join(" ");
  });
}
function placement(ctx, worktree, opts = {}) {
  const c = ctx.containment;
  const plain = { cwd: worktree, at: worktree, inside: (p) => p };
  if (!c || c.bin === null) return plain;
  const writable = (opts.writable ?? []).map((from) => ({ from, to: join12("/tmp", basename4(from)) }));
  const layout = planLayout({
    env: ctx.childEnv,
    worktree,
    at: c.at,
    hidden: [ctx.tempDir],
    readOnly: [...c.readOnly, ...opts.setup ? [ctx.repoDir] : []],
    writable,
    instrument: c.instrument,
    network: opts.setup === true || c.network,
    caches: opts.setup === true
  });
  const inside3 = (path) => {
    if (path === worktree || path.startsWith(`${worktree}/`))
      return c.at + path.slice(worktree.length);
    for (const w of writable)
      if (path === w.from || path.startsWith(`${w.from}/`)) return w.to + path.slice(w.from.length);
    return path;
  };
  return { cwd: worktree, wrap: bwrapArgv(c.bin, layout), at: c.at, inside: inside3 };
}
async function reportPath(ctx, worktree) {
  const configured = ctx.policy.suite.report;
  if (configured !== void 0) return join12(worktree, configured);
  const dir = join12(ctx.tempDir, neutralName());
  await mkdir3(dir, { recursive: true });
  return join12(dir, "junit.xml");
}
async function sideEnv(ctx, exposed = {}, extra = {}) {
  const contained = ctx.containment?.bin != null;
  const tmp = contained ? null : join12(ctx.tempDir, neutralName());
  if (tmp !== null) await mkdir3(tmp, { recursive: true });
  const env = {
    ...ctx.childEnv,
    // No implicit cwd / script dir on sys.path (docs/replay.md, suite.python_safe_path).
    ...ctx.policy.suite.python_safe_path ? { PYTHONSAFEPATH: "1" } : {},
    ...ctx.policy.suite.env,
    ...ctx.policy.suite.expose_env ? { ...campaignVars(ctx), ...exposed } : {},
    ...extra
  };
  if (tmp !== null) env.TMPDIR = tmp;
  else if (env.TMPDIR !== void 0) env.TMPDIR = "/tmp";
  return env;
}
function campaignVars(ctx) {
  const { seed, max_examples, wall_clock } = ctx.policy.campaign;
  return {
    ORACLE_GATE_SEED: String(seed),
    ORACLE_GATE_MAX_EXAMPLES: String(max_examples),
    ORACLE_GATE_WALL_CLOCK: String(wall_clock)
  };
}
function withGateVars(command, vars, exposed) {
  if (exposed || !/ORACLE_GATE_\w/.test(command)) return command;
  const named = Object.entries(vars).filter(([name2]) => command.includes(name2));
  if (named.length === 0) return command;
  return `${named.map(([name2, value]) => `${name2}=${shellQuote(value)}`).join(" ")}
${command}`;
}
function outsidePaths(report, place, worktree) {
  if (place.at === worktree) return report;
  const prefix = `${place.at}/`;
  for (const c of report.cases)
    if (c.file?.startsWith(prefix)) c.file = `${worktree}/${c.file.slice(prefix.length)}`;
  return report;
}
async function runSuite(ctx, req) {
  const junit = await reportPath(ctx, req.worktree);
  await rm3(junit, { recursive: true, force: true });
  const configured = ctx.policy.suite.report !== void 0;
  const writable = [...configured ? [] : [dirname7(junit)], ...req.writable ?? []];
  const place = placement(ctx, req.worktree, { writable });
  const { seed, max_examples } = ctx.policy.campaign;
  const tests = req.tests ?? [];
  const seen = place.inside(junit);
  const vars = {
    ...campaignVars(ctx),
    ORACLE_GATE_JUNIT: seen,
    ORACLE_GATE_TESTS: tests.join("\n")
  };
  const command = withGateVars(
    substitute(req.command, {
      junit: seen,
      seed: String(seed),
      max_examples: String(max_examples),
      tests: req.testArgs ?? tests
    }),
    vars,
    ctx.policy.suite.expose_env
  );
  const jest = detectRunner(ctx.policy.suite) === "jest" ? JEST_JUNIT_ENV : {};
  const env = await sideEnv(
    ctx,
    { ORACLE_GATE_JUNIT: seen, ORACLE_GATE_TESTS: vars.ORACLE_GATE_TESTS },
    jest
  );
  const watch = req.side === "head" && ctx.watch ? encodeWatch(ctx.watch, place.at) : void 0;
  const stream = planStream(command, detectRunner(ctx.policy.suite), env, reportersDir(), watch);
  const result = await runShell({
    command: stream.command,
    cwd: place.cwd,
    env: { ...env, ...stream.env, ...req.env },
    timeoutSec: ctx.policy.suite.timeout,
    logFile: req.logFile,
    ...place.wrap ? { wrap: place.wrap } : {},
    ...stream.shell
  });
  const watchFed = stream.shell.feed !== void 0;
  return {
    ...await readRun(ctx, req, { junit, place }, result),
    stream: stream.outcome(),
    watchFed
  };
}
async function readRun(ctx, req, { junit, place }, result) {
  const configured = ctx.policy.suite.report !== void 0;
  if (result.timedOut)
    return { result, report: null, reportError: `timed out after ${ctx.policy.suite.timeout}s` };
  try {
    const root = configured ? req.worktree : ctx.tempDir;
    const report = await readReport(junit, { root });
    return { result, report: outsidePaths(report, place, req.worktree) };
  } catch (error) {
    return {
      result,
      report: null,
      reportError: error instanceof Error ? error.message : String(error)
    };
  }
}
async function logHead(path, lines = 15, bytes = 4e3) {
  const text2 = await readFile5(path, "utf8").catch(() => "");
  return text2.slice(0, bytes).split("\n").slice(0, lines).join("\n").trimEnd();
}

// src/replay/share.ts
import { createHash as createHash3 } from "node:crypto";
import { lstat as lstat4, mkdir as mkdir4, readdir as readdir5, readFile as readFile6, readlink as readlink2, realpath as realpath3, rm as rm4 } from "node:fs/promises";
import { dirname as dirname8, join as join13, posix as posix5, resolve as resolve3, sep as sep2 } from "node:path";
var DEPENDENCY_DIRS = /* @__PURE__ */ new Set(["node_modules", ".venv", "venv"]);
var MAX_ENTRIES = 2e5;
function newSetupShare() {
  return { offer: null, why: "the base side has not run setup", tried: false };
}
async function snapshotTree(root) {
  const snap = { entries: /* @__PURE__ */ new Map(), manifests: [], deps: [] };
  const pending = [""];
  while (pending.length > 0) {
    const rel = pending.pop();
    const names = await readdir5(join13(root, rel)).catch(() => []);
    for (const name2 of names) {
      const path = rel === "" ? name2 : `${rel}/${name2}`;
      if (name2 === ".git") continue;
      const info2 = await lstat4(join13(root, path)).catch(() => null);
      if (info2 === null) continue;
      if (info2.isDirectory() && DEPENDENCY_DIRS.has(name2)) {
        snap.deps.push(path);
        continue;
      }
      const kind = info2.isDirectory() ? "d" : info2.isSymbolicLink() ? "l" : "f";
      snap.entries.set(path, kind === "d" ? "d" : `${kind}:${info2.size}:${info2.mtimeMs}`);
      if (snap.entries.size > MAX_ENTRIES) return null;
      if (kind === "d") pending.push(path);
      else if (isManifest(path)) snap.manifests.push(path);
    }
  }
  snap.manifests.sort();
  snap.deps.sort();
  return snap;
}
var sha = (data) => createHash3("sha256").update(data).digest("hex");
async function manifestDigests(root, snap) {
  const out2 = /* @__PURE__ */ new Map();
  for (const path of snap.manifests) {
    const full = join13(root, path);
    const info2 = await lstat4(full);
    out2.set(
      path,
      info2.isSymbolicLink() ? `link:${await readlink2(full)}` : sha(await readFile6(full))
    );
  }
  return out2;
}
function fingerprint(setup, env, manifests) {
  const envRows = Object.entries(env).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
  return sha(JSON.stringify({ setup, env: envRows, manifests: [...manifests] }));
}
function changedOutside(before, after) {
  for (const [path, sig] of after.entries) if (before.entries.get(path) !== sig) return path;
  for (const path of before.entries.keys()) if (!after.entries.has(path)) return path;
  return null;
}
function manifestDifference(offered, mine) {
  for (const path of /* @__PURE__ */ new Set([...offered.keys(), ...mine.keys()]))
    if (offered.get(path) !== mine.get(path)) return path;
  return null;
}
async function localCopy(root, dir) {
  const full = join13(root, dir);
  for (const lib of ["lib", "lib64"]) {
    for (const python of await readdir5(join13(full, lib)).catch(() => [])) {
      const site = join13(full, lib, python, "site-packages");
      for (const name2 of await readdir5(site).catch(() => [])) {
        if (!name2.endsWith(".dist-info")) continue;
        const text2 = await readFile6(join13(site, name2, "direct_url.json"), "utf8").catch(() => null);
        if (text2 !== null && copiedFromFolder(text2)) {
          return `${dir} has ${name2.replace(/\.dist-info$/, "")} installed from a local folder as a copy (not editable)`;
        }
      }
    }
  }
  const copied = await npmCopyOfRepo(root, dir);
  if (copied !== null) return copied;
  const pnpm = await readdir5(join13(full, ".pnpm")).catch(() => []);
  if (pnpm.some((n) => n.startsWith("file+")))
    return `${dir} holds a file: dependency copied from a local folder (pnpm)`;
  return null;
}
async function npmCopyOfRepo(root, dir) {
  const text2 = await readFile6(join13(root, dir, ".package-lock.json"), "utf8").catch(() => null);
  if (text2 === null) return null;
  let packages;
  try {
    packages = JSON.parse(text2).packages ?? {};
  } catch {
    return `${dir}/.package-lock.json cannot be read`;
  }
  const project = resolve3(root, posix5.dirname(dir));
  for (const [name2, entry] of Object.entries(packages)) {
    const from = entry.resolved;
    if (typeof from !== "string" || !from.startsWith("file:") || entry.link === true) continue;
    const at2 = resolve3(project, from.slice("file:".length));
    if (at2 === resolve3(root) || at2.startsWith(resolve3(root) + sep2))
      return `${name2} is a copy of ${from} from the repository (a file: dependency)`;
  }
  return null;
}
function blobId(bytes, like) {
  const hash = createHash3(like.length === 64 ? "sha256" : "sha1");
  return hash.update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}
async function copyOfChanged(root, dir, changed) {
  const bySize = /* @__PURE__ */ new Map();
  for (const c of changed) if (c.size > 0) bySize.set(c.size, [...bySize.get(c.size) ?? [], c]);
  if (bySize.size === 0) return null;
  const pending = [dir];
  let seen = 0;
  while (pending.length > 0) {
    const rel = pending.pop();
    const entries = await readdir5(join13(root, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = `${rel}/${entry.name}`;
      if (++seen > MAX_ENTRIES) return `${dir} has too many files to check for copies`;
      if (entry.isDirectory()) pending.push(path);
      if (!entry.isFile()) continue;
      const size = (await lstat4(join13(root, path))).size;
      const candidates = bySize.get(size);
      if (candidates === void 0) continue;
      const bytes = await readFile6(join13(root, path));
      const copy = candidates.find((c) => blobId(bytes, c.oid) === c.oid);
      if (copy !== void 0)
        return `${path} is a copy of the merge base's ${copy.path}, which the head changed`;
    }
  }
  return null;
}
function copiedFromFolder(directUrl) {
  try {
    const parsed = JSON.parse(directUrl);
    const local = typeof parsed.url === "string" && parsed.url.startsWith("file:");
    return local && parsed.dir_info?.editable !== true;
  } catch {
    return true;
  }
}
async function copyDir(from, to, logFile) {
  await mkdir4(dirname8(to), { recursive: true });
  const run2 = await runShell({
    command: `cp -a --reflink=auto -- ${shellQuote(from)} ${shellQuote(to)}`,
    cwd: dirname8(to),
    // The gate's own copy: a fixed PATH and nothing else of any environment.
    env: { PATH: "/usr/bin:/bin", LC_ALL: "C" },
    timeoutSec: 600,
    logFile
  });
  return run2.exitCode === 0 ? null : `copying ${from} failed: ${run2.tail.trim() || "cp failed"}`;
}
async function makeOffer(input) {
  const { worktree, before } = input;
  const after = await snapshotTree(worktree);
  if (after === null) return "the worktree has too many files to compare";
  if (before.deps.length > 0) return `${before.deps[0]} existed before setup`;
  const changed = changedOutside(before, after);
  if (changed !== null) return `setup wrote ${changed}, outside the dependency folders`;
  if (after.deps.length === 0)
    return `setup installed no dependency folder (${[...DEPENDENCY_DIRS].join(", ")})`;
  for (const dir of after.deps) {
    const copied = await localCopy(worktree, dir) ?? await copyOfChanged(worktree, dir, input.changed);
    if (copied !== null) return copied;
  }
  const stash = join13(input.tempDir, neutralName());
  for (const dir of after.deps) {
    const failed = await copyDir(join13(worktree, dir), join13(stash, dir), input.logFile);
    if (failed !== null) {
      await rm4(stash, { recursive: true, force: true });
      return failed;
    }
  }
  const { at: at2, digest, manifests } = input;
  return { digest, manifests, at: at2, stash, dirs: after.deps };
}
async function takeOffer(offer2, input) {
  const { worktree } = input;
  if (input.at !== offer2.at) return `it runs at ${input.at}, the base's setup ran at ${offer2.at}`;
  if (input.digest !== offer2.digest) {
    const path = manifestDifference(offer2.manifests, input.manifests);
    return path === null ? "the setup command or its environment differs from the base's" : `${path} differs from the base's`;
  }
  if (input.snap.deps.length > 0) return `${input.snap.deps[0]} exists already`;
  const real = await realpath3(worktree);
  for (const dir of offer2.dirs) {
    if (await lstat4(join13(worktree, dir)).catch(() => null) !== null)
      return `${dir} exists in the worktree already`;
    const parent = await realpath3(join13(worktree, posix5.dirname(dir))).catch(() => null);
    if (parent === null || parent !== real && !parent.startsWith(real + sep2))
      return `${posix5.dirname(dir)} does not lead to a folder inside the worktree`;
  }
  const copied = [];
  for (const dir of offer2.dirs) {
    const failed = await copyDir(join13(offer2.stash, dir), join13(worktree, dir), input.logFile);
    if (failed !== null) {
      for (const done of [...copied, dir])
        await rm4(join13(worktree, done), { recursive: true, force: true });
      return failed;
    }
    copied.push(dir);
  }
  return { dirs: copied };
}

// src/replay/setup.ts
async function prepareWorktree(ctx, side, worktree, logFile, share) {
  const started = Date.now();
  const { setup, reuse, reuse_key } = ctx.policy.suite;
  let why = "suite.reuse is not configured";
  if (reuse.length > 0) {
    const decision = await decideReuse({
      git: ctx.git,
      checkoutDir: ctx.repoDir,
      worktree,
      dirs: reuse,
      keys: reuse_key,
      policyPath: ctx.policy.path
    });
    if (decision.reuse) {
      const links = await linkAll(ctx.repoDir, worktree, reuse);
      const reason3 = `reused ${reuse.join(", ")} from the checkout: ${decision.reason}`;
      ctx.log.info(`${side}: ${reason3}`);
      return {
        mode: "reused",
        reason: reason3,
        ok: true,
        timedOut: false,
        durationMs: Date.now() - started,
        links
      };
    }
    why = `cannot reuse ${reuse.join(", ")}: ${decision.reason}`;
    if (setup === void 0) {
      const reason3 = `${why}, and no suite.setup is configured to install them`;
      ctx.log.warning(`${side}: ${reason3}`);
      return { mode: "none", reason: reason3, ok: false, timedOut: false, durationMs: Date.now() - started };
    }
  }
  if (setup === void 0)
    return {
      mode: "none",
      reason: "no suite.setup configured",
      ok: true,
      timedOut: false,
      durationMs: 0
    };
  const place = placement(ctx, worktree, { setup: true });
  const sharing = share !== void 0 && ctx.policy.suite.share_setup && (share.offer !== null || side === "head" || !share.tried);
  const mine = sharing ? await dependencyState(ctx, worktree, setup) : null;
  if (share !== void 0 && mine !== null && (share.offer !== null || side === "head")) {
    const taken = await takeShare(ctx, side, share, mine, worktree, place.at, logFile, started);
    if (typeof taken !== "string") return taken;
    why = `${why}; not shared: ${taken}`;
  }
  ctx.log.info(`${side}: running suite.setup (${why})`);
  const env = childEnv(ctx.childEnv, {
    // See docs/replay.md (python_safe_path): no implicit cwd on sys.path for setup either.
    ...ctx.policy.suite.python_safe_path ? { PYTHONSAFEPATH: "1" } : {},
    ...ctx.policy.suite.env,
    ORACLE_GATE_SIDE: side,
    ORACLE_GATE_WORKTREE: place.at,
    ORACLE_GATE_CHECKOUT: ctx.repoDir
  });
  const run2 = await runShell({
    command: setup,
    cwd: place.cwd,
    env,
    ...place.wrap ? { wrap: place.wrap } : {},
    timeoutSec: ctx.policy.suite.setup_timeout,
    logFile
  });
  const ok = run2.exitCode === 0 && !run2.timedOut;
  const result = run2.timedOut ? `suite.setup timed out after ${ctx.policy.suite.setup_timeout}s` : run2.exitCode === 0 ? "suite.setup succeeded" : `suite.setup failed (${run2.exitCode === null ? `signal ${run2.signal ?? "?"}` : `exit ${run2.exitCode}`})`;
  const reason2 = `ran setup (${why}): ${result}`;
  if (ok) ctx.log.info(`${side}: ${result} in ${run2.durationMs} ms`);
  else ctx.log.warning(`${side}: ${result}; log ${logFile}`);
  if (ok && side === "base" && share !== void 0 && mine !== null && !share.tried) {
    await offerShare(ctx, share, mine, worktree, place.at, logFile);
  }
  return {
    mode: "ran",
    reason: reason2,
    ok,
    timedOut: run2.timedOut,
    durationMs: run2.durationMs,
    tail: run2.tail,
    exitCode: run2.exitCode
  };
}
async function dependencyState(ctx, worktree, setup) {
  const snap = await snapshotTree(worktree);
  if (snap === null) return null;
  const manifests = await manifestDigests(worktree, snap);
  return { snap, manifests, digest: fingerprint(setup, ctx.policy.suite.env, manifests) };
}
async function takeShare(ctx, side, share, mine, worktree, at2, logFile, started) {
  if (share.offer === null) return share.why;
  const taken = await takeOffer(share.offer, { worktree, at: at2, logFile, ...mine });
  if (typeof taken === "string") return taken;
  const reason2 = `shared the base's setup (${taken.dirs.join(", ")} copied): dependency fingerprint ${mine.digest.slice(0, 12)} (suite.setup, suite.env and ${mine.manifests.size} manifest(s)) identical to the base's`;
  ctx.log.info(`${side}: ${reason2}`);
  return { mode: "shared", reason: reason2, ok: true, timedOut: false, durationMs: Date.now() - started };
}
async function offerShare(ctx, share, before, worktree, at2, logFile) {
  share.tried = true;
  const changed = await changedBlobs(ctx);
  if (typeof changed === "string") {
    share.why = `the base's setup cannot be shared: ${changed}`;
    ctx.log.info(`base: ${share.why}`);
    return;
  }
  const offer2 = await makeOffer({
    worktree,
    changed,
    at: at2,
    before: before.snap,
    manifests: before.manifests,
    digest: before.digest,
    tempDir: ctx.tempDir,
    logFile
  });
  if (typeof offer2 === "string") {
    share.why = `the base's setup cannot be shared: ${offer2}`;
    ctx.log.info(`base: ${share.why}`);
    return;
  }
  share.offer = offer2;
  ctx.log.info(
    `base: ${offer2.dirs.join(", ")} kept for worktrees with the same dependency fingerprint`
  );
}
var MAX_CHANGED = 5e3;
async function changedBlobs(ctx) {
  const rows = ctx.writeSet.filter((r) => r.status !== "added");
  if (rows.length > MAX_CHANGED) return `the head changed more than ${MAX_CHANGED} files`;
  const out2 = [];
  for (const row of rows) {
    const path = row.previous_path ?? row.path;
    const info2 = await ctx.git.objectInfo(`${ctx.mergeBase}:${path}`);
    if (info2?.type === "blob") out2.push({ path, oid: info2.oid, size: info2.size });
  }
  return out2;
}
async function linkAll(checkoutDir, worktree, dirs) {
  const key4 = resolve4(worktree);
  const links = [];
  try {
    for (const dir of dirs) {
      const at2 = join14(key4, dir);
      await symlink2(resolve4(checkoutDir, dir), at2, "dir");
      links.push(at2);
    }
  } catch (error) {
    await cleanupWorktree(links);
    throw error;
  }
  return links;
}
async function cleanupWorktree(links) {
  const removed = [];
  for (const link of links) {
    const info2 = await lstat5(link).catch(() => null);
    if (info2?.isSymbolicLink()) {
      await unlink(link);
      removed.push(link);
    }
  }
  return removed;
}

// src/replay/worktree.ts
async function withWorktrees(ctx, fn) {
  const created = /* @__PURE__ */ new Map();
  const names = /* @__PURE__ */ new Set();
  const add3 = async (name2, rev) => {
    if (names.has(name2)) throw new GateError(`worktree ${name2} exists already`);
    names.add(name2);
    const dir = join15(ctx.tempDir, neutralName());
    created.set(dir, []);
    await createWorktree(ctx, dir, rev);
    return dir;
  };
  let staged = null;
  const unstage = async () => {
    const at2 = ctx.containment?.at;
    if (staged === null || at2 === void 0) return;
    await rename(at2, staged);
    staged = null;
  };
  const stage = async (dir) => {
    const c = ctx.containment;
    if (c === void 0 || c.bin !== null) return dir;
    if (staged === dir) return c.at;
    await unstage();
    await rename(dir, c.at);
    staged = dir;
    return c.at;
  };
  const share = newSetupShare();
  let base;
  let head;
  try {
    const wt = {
      base: () => base ??= add3("base", ctx.mergeBase),
      head: () => head ??= add3("head", ctx.head),
      add: add3,
      track: (dir, links) => void created.get(dir)?.push(...links),
      stage,
      share
    };
    return await fn(wt);
  } finally {
    await unstage().catch(() => void 0);
    await removeWorktrees(ctx, created);
    if (share.offer !== null) await rm5(share.offer.stash, { recursive: true, force: true });
  }
}
async function createWorktree(ctx, dir, rev) {
  await ctx.git.addWorktree(dir, rev);
}
async function removeWorktrees(ctx, created) {
  const remove = async (dir, links) => {
    await cleanupWorktree(links).catch(() => void 0);
    await rm5(dir, { recursive: true, force: true }).catch(() => void 0);
  };
  await Promise.all([...created].map(([dir, links]) => remove(dir, links)));
  await ctx.git.pruneWorktrees();
}
async function applyOverlay(ctx, worktree, overlay) {
  const restore = overlay.restore.map((p) => safePath(p));
  for (const path of [...restore, ...overlay.remove.map((p) => safePath(p))]) {
    await rm5(join15(worktree, path), { recursive: true, force: true });
  }
  const present2 = [];
  for (const path of restore) {
    if (await ctx.git.objectId(ctx.mergeBase, path) !== null) present2.push(path);
  }
  if (present2.length === 0) return;
  await ctx.git.checkoutPaths(worktree, ctx.mergeBase, present2);
}
function safePath(path) {
  const p = normalisePath(path);
  if (p === "" || p === ".." || p.startsWith("../")) {
    throw new GateError(`instrument overlay path "${path}" is outside the repository`, { path });
  }
  return p;
}
async function worktreeFiles(ctx, worktree) {
  return (await ctx.git.indexFiles(worktree)).filter((f) => existsSync6(join15(worktree, f)));
}

// src/evidence/changed.ts
function languageOf3(path) {
  if (/\.pyi?$/.test(path)) return "python";
  if (/\.(?:[cm]?[jt]sx?)$/.test(path)) return "js";
  return "other";
}
function aridLines(path, text2) {
  const lines = text2.split(/\r?\n/);
  if (DECLARATIONS2.test(path)) return new Set(lines.map((_, i2) => i2 + 1));
  const language = languageOf3(path);
  const arid = language === "python" ? pythonArid(lines) : language === "js" ? jsArid(lines) : /* @__PURE__ */ new Set();
  lines.forEach((line2, i2) => {
    if (line2.trim() === "") arid.add(i2 + 1);
  });
  return arid;
}
function changedLines(ranges, text2) {
  const out2 = [];
  for (const path of Object.keys(ranges).sort()) {
    const body2 = text2(path);
    const arid = body2 === null ? /* @__PURE__ */ new Set() : aridLines(path, body2);
    const lines = [];
    for (const [first, last] of ranges[path] ?? [])
      for (let n = first; n <= last; n++) if (!arid.has(n)) lines.push(n);
    const unique3 = [...new Set(lines)].sort((a, b) => a - b);
    if (unique3.length > 0) out2.push({ path, lines: unique3 });
  }
  return out2;
}
var DECLARATIONS2 = /\.(?:pyi|d\.[cm]?ts)$/;
var CLOSING = /^[\s)\]},;]*$/;
var PY_BARE = /^\s*(?:else|finally)\s*:\s*(?:#.*)?$/;
var PY_IMPORT = /^\s*(?:import\s|from\s+\S+\s+import\b)/;
var PY_STRING_START = /^\s*[rRbBuUfF]{0,2}("""|''')/;
function pythonArid(lines) {
  const arid = /* @__PURE__ */ new Set();
  let quote3 = null;
  let importOpen = false;
  lines.forEach((line2, i2) => {
    const n = i2 + 1;
    if (quote3 !== null) {
      arid.add(n);
      if (closesQuote(line2, quote3, 0)) quote3 = null;
      return;
    }
    if (importOpen) {
      arid.add(n);
      if (line2.includes(")")) importOpen = false;
      return;
    }
    const trimmed = line2.trim();
    if (trimmed.startsWith("#") || PY_BARE.test(line2) || CLOSING.test(line2) && trimmed !== "")
      arid.add(n);
    if (PY_IMPORT.test(line2)) {
      arid.add(n);
      if (line2.includes("(") && !line2.includes(")")) importOpen = true;
      return;
    }
    const docstring = PY_STRING_START.exec(line2);
    if (docstring) {
      const q = docstring[1] ?? '"""';
      const after = line2.indexOf(q) + q.length;
      if (!closesQuote(line2, q, after)) quote3 = q;
      if (quote3 !== null || /("""|''')\s*(?:#.*)?$/.test(line2.slice(after))) arid.add(n);
      return;
    }
    const opened = openedQuote(line2);
    if (opened !== null) quote3 = opened;
  });
  return arid;
}
function closesQuote(line2, quote3, from) {
  return line2.indexOf(quote3, from) !== -1;
}
function openedQuote(line2) {
  const code = line2.replace(/#.*$/, "");
  for (const q of ['"""', "'''"]) {
    const count2 = code.split(q).length - 1;
    if (count2 % 2 === 1) return q;
  }
  return null;
}
var JS_IMPORT = /^\s*(?:import[\s{*'"]|import\s+type\b|export\s+(?:type\s+)?(?:\*|\{[^}]*\}?)\s*(?:from\b|$))/;
var JS_TYPE = /^\s*(?:export\s+)?(?:declare\s+|(?:type|interface)\s+[A-Za-z_$][\w$]*\b(?:<[^>]*>)?\s*(?:=|\{|extends\b|$))/;
function jsArid(lines) {
  const arid = /* @__PURE__ */ new Set();
  let comment = false;
  let open3 = null;
  let depth2 = 0;
  lines.forEach((line2, i2) => {
    const n = i2 + 1;
    const trimmed = line2.trim();
    if (comment) {
      arid.add(n);
      if (trimmed.includes("*/")) comment = false;
      return;
    }
    if (open3 === "import") {
      arid.add(n);
      if (/\bfrom\s*['"]|['"]\s*;?\s*$/.test(line2)) open3 = null;
      return;
    }
    if (open3 === "type") {
      arid.add(n);
      depth2 += braces(line2);
      if (depth2 <= 0) open3 = null;
      return;
    }
    if (trimmed.startsWith("//") || CLOSING.test(line2) && trimmed !== "") arid.add(n);
    if (trimmed.startsWith("/*")) {
      arid.add(n);
      if (!trimmed.includes("*/")) comment = true;
      return;
    }
    if (JS_IMPORT.test(line2)) {
      arid.add(n);
      if (!/\bfrom\s*['"]|^\s*import\s*['"]/.test(line2)) open3 = "import";
      return;
    }
    if (JS_TYPE.test(line2)) {
      arid.add(n);
      depth2 = braces(line2);
      if (depth2 > 0) open3 = "type";
    }
  });
  return arid;
}
function braces(line2) {
  let d = 0;
  for (const ch of line2.replace(/\/\/.*$/, "")) d += ch === "{" ? 1 : ch === "}" ? -1 : 0;
  return d;
}

// src/evidence/js-coverage.ts
import { constants as constants3, existsSync as existsSync7 } from "node:fs";
import { mkdir as mkdir5, open as open2, readdir as readdir6, realpath as realpath4, writeFile as writeFile5 } from "node:fs/promises";
import { basename as basename5, join as join16 } from "node:path";

// src/evidence/probes.ts
var CLOSERS = /* @__PURE__ */ new Set(["}", ")", "]", ";", ","]);
var TYPE_ONLY = /^(export\s+)?(declare\s|interface\s|type\s+[\w$]+\s*[<=]|import\s+type\s|type\s*\{)/;
function lineProbes(text2) {
  const state = { mode: "code", templates: [], depth: 0 };
  return text2.split("\n").map((line2) => {
    const probe = probeOfLine(line2, state);
    return probe !== null && TYPE_ONLY.test(line2.slice(probe)) ? null : probe;
  });
}
function probeOfLine(line2, state) {
  let probe = null;
  if (state.mode === "`") {
    const first = line2.search(/\S/);
    if (first >= 0) probe = first;
  }
  if (state.mode === "line") state.mode = "code";
  for (let i2 = 0; i2 < line2.length; i2++) {
    const c = line2[i2] ?? "";
    const next = line2[i2 + 1] ?? "";
    if (state.mode === "code") {
      if (c === "/" && next === "/") {
        state.mode = "line";
        break;
      }
      if (c === "/" && next === "*") {
        state.mode = "block";
        i2++;
        continue;
      }
      if (probe === null && !/\s/.test(c) && !CLOSERS.has(c)) probe = i2;
      codeChar(c, state);
    } else if (state.mode === "block") {
      if (c === "*" && next === "/") {
        state.mode = "code";
        i2++;
      }
    } else if (state.mode === "`") {
      if (c === "\\") i2++;
      else if (c === "`") state.mode = "code";
      else if (c === "$" && next === "{") {
        state.templates.push(state.depth);
        state.mode = "code";
        i2++;
      }
    } else if (state.mode === "'" || state.mode === '"') {
      if (c === "\\") i2++;
      else if (c === state.mode) state.mode = "code";
    }
  }
  if (state.mode === "'" || state.mode === '"') state.mode = "code";
  return probe;
}
function codeChar(c, state) {
  if (c === "'" || c === '"' || c === "`") state.mode = c;
  else if (c === "{") state.depth++;
  else if (c === "}") {
    const open3 = state.templates[state.templates.length - 1];
    if (open3 !== void 0 && open3 === state.depth) {
      state.templates.pop();
      state.mode = "`";
    } else state.depth--;
  }
}

// src/evidence/sourcemap.ts
import { fileURLToPath as fileURLToPath3, pathToFileURL } from "node:url";
var B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
var B64_VALUE = new Map([...B64].map((c, i2) => [c, i2]));
function decodeVlq(group) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const c of group) {
    const digit = B64_VALUE.get(c);
    if (digit === void 0) throw new Error(`not a base64 VLQ character: ${JSON.stringify(c)}`);
    value += (digit & 31) * 2 ** shift;
    if (digit & 32) {
      shift += 5;
      if (shift > 35) throw new Error("VLQ value too large");
      continue;
    }
    values.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2);
    value = 0;
    shift = 0;
  }
  if (shift !== 0) throw new Error("VLQ group ends inside a value");
  return values;
}
function decodeMappings(mappings) {
  const segments = [];
  const state = { source: 0, line: 0, col: 0 };
  mappings.split(";").forEach((lineText, genLine) => {
    let genCol = 0;
    for (const group of lineText.split(",")) {
      if (group === "") continue;
      const v = decodeVlq(group);
      genCol += v[0] ?? 0;
      if (v.length < 4) continue;
      state.source += v[1] ?? 0;
      state.line += v[2] ?? 0;
      state.col += v[3] ?? 0;
      segments.push({ genLine, genCol, ...state });
    }
  });
  return segments;
}
function inlineMap(text2) {
  const re = /[#@]\s*sourceMappingURL=data:([^,\s]*),([^\s*]*)/g;
  let last = null;
  for (let m = re.exec(text2); m !== null; m = re.exec(text2)) last = m;
  if (last === null) return null;
  const [, meta = "", payload = ""] = last;
  const json = meta.split(";").includes("base64") ? Buffer.from(payload, "base64").toString("utf8") : decodeURIComponent(payload);
  const parsed = JSON.parse(json);
  if (parsed === null || typeof parsed !== "object") throw new Error("the inline map is not JSON");
  return parsed;
}
function scriptUrl(url) {
  if (url.startsWith("/")) return pathToFileURL(url);
  try {
    const parsed = new URL(url);
    return parsed.protocol === "file:" ? parsed : null;
  } catch {
    return null;
  }
}
function scriptPath(url) {
  const parsed = scriptUrl(url);
  if (parsed === null) return null;
  try {
    return fileURLToPath3(parsed);
  } catch {
    return null;
  }
}
function readMap(raw, base) {
  if (raw.sections !== void 0) throw new Error("index source maps (sections) are not read");
  if (raw.version !== 3) throw new Error(`source map version ${String(raw.version)}`);
  if (!Array.isArray(raw.sources) || typeof raw.mappings !== "string")
    throw new Error("the source map has no sources or mappings");
  const root = typeof raw.sourceRoot === "string" && raw.sourceRoot !== "" ? raw.sourceRoot : "";
  const baseUrl = scriptUrl(base);
  const sources = raw.sources.map((s) => {
    if (typeof s !== "string" || baseUrl === null) return null;
    const joined2 = root === "" ? s : `${root.replace(/\/?$/, "/")}${s}`;
    try {
      return scriptPath(new URL(joined2, baseUrl).href);
    } catch {
      return null;
    }
  });
  const given = Array.isArray(raw.sourcesContent) ? raw.sourcesContent : [];
  const contents = sources.map((_, i2) => {
    const c = given[i2];
    return typeof c === "string" ? c : null;
  });
  return { sources, contents, segments: decodeMappings(raw.mappings) };
}

// src/evidence/v8.ts
function coveredLines(dumps, files) {
  const tally = {
    covered: /* @__PURE__ */ new Map(),
    executable: /* @__PURE__ */ new Map(),
    problems: /* @__PURE__ */ new Map(),
    measured: /* @__PURE__ */ new Set(),
    pending: /* @__PURE__ */ new Map()
  };
  const shared = sharedSources(dumps);
  for (const dump of dumps)
    for (const script of dump.result) measureScript(script, dump, { shared, files }, tally);
  for (const [path, file] of files) {
    if (tally.measured.has(path)) continue;
    const probes = lineProbes(file.text);
    tally.executable.set(path, new Set(file.lines.filter((l) => probes[l - 1] != null)));
    const why = tally.pending.get(path);
    if (why !== void 0) tally.problems.set(path, why);
  }
  return { covered: tally.covered, executable: tally.executable, problems: tally.problems };
}
function sharedSources(dumps) {
  const all = /* @__PURE__ */ new Map();
  for (const dump of dumps)
    for (const [url, texts] of Object.entries(dump.sources ?? {}))
      all.set(url, [...all.get(url) ?? [], ...texts]);
  return all;
}
function measureScript(script, dump, inputs, tally) {
  const path = scriptPath(script.url);
  const cached = dump["source-map-cache"]?.[script.url];
  const asked = path !== null && inputs.files.has(path);
  if (!asked && !cached?.data) return;
  const fail = (why) => {
    if (path !== null && asked && !tally.pending.has(path)) tally.pending.set(path, why);
  };
  const executed = executedText(script, dump, inputs, path, cached);
  if (executed === null)
    return fail("the text the runtime executed is not known (transformed, and not captured)");
  const ranges = script.functions.flatMap((f) => f.ranges);
  let raw;
  try {
    raw = (executed.text !== null ? inlineMap(executed.text) : null) ?? cached?.data;
  } catch (error) {
    return fail(`its source map is unreadable: ${message(error)}`);
  }
  if (raw) {
    const base = mapBase(script.url, cached);
    try {
      mapped(readMap(raw, base), { ranges, starts: executed.starts }, inputs.files, tally);
    } catch (error) {
      fail(`its source map is unreadable: ${message(error)}`);
    }
    return;
  }
  if (!asked || path === null) return;
  const file = inputs.files.get(path);
  if (file === void 0 || executed.text !== file.text)
    return fail("the runtime executed a transformed text with no source map");
  direct(path, file, { ranges, starts: executed.starts }, tally);
}
function mapBase(url, cached) {
  const named = cached?.url;
  if (typeof named !== "string" || named.startsWith("data:")) return url;
  const base = scriptUrl(url);
  try {
    return base === null ? url : new URL(named, base).href;
  } catch {
    return url;
  }
}
function executedText(script, dump, inputs, path, cached) {
  const length = scriptLength(script);
  if (length === null) return null;
  const file = path === null ? void 0 : inputs.files.get(path);
  const candidates = [
    ...dump.sources?.[script.url] ?? [],
    ...inputs.shared.get(script.url) ?? [],
    ...file ? [file.text] : []
  ];
  const text2 = candidates.find((t) => t.length === length);
  if (text2 !== void 0) return { text: text2, starts: lineStarts(text2) };
  const lengths = cached?.lineLengths;
  if (cached?.data && Array.isArray(lengths)) {
    const total = lengths.reduce((a, b) => a + b, 0) + lengths.length - 1;
    if (total === length) return { text: null, starts: startsOfLengths(lengths) };
  }
  return null;
}
function scriptLength(script) {
  let end = null;
  for (const r of script.functions[0]?.ranges ?? [])
    if (r.startOffset === 0 && (end === null || r.endOffset > end)) end = r.endOffset;
  return end;
}
function lineStarts(text2) {
  const starts = [0];
  const re = /\r\n|\n|\r|\u2028|\u2029/g;
  for (let m = re.exec(text2); m !== null; m = re.exec(text2)) starts.push(m.index + m[0].length);
  return starts;
}
function startsOfLengths(lengths) {
  const starts = [0];
  for (const l of lengths.slice(0, -1)) starts.push((starts[starts.length - 1] ?? 0) + l + 1);
  return starts;
}
function countAt(ranges, offset) {
  let best = null;
  for (const r of ranges) {
    if (offset < r.startOffset || offset >= r.endOffset) continue;
    if (best === null || r.endOffset - r.startOffset <= best.endOffset - best.startOffset) best = r;
  }
  return best?.count ?? 0;
}
function add2(map, path, line2) {
  const set = map.get(path) ?? /* @__PURE__ */ new Set();
  set.add(line2);
  map.set(path, set);
}
function direct(path, file, run2, tally) {
  tally.measured.add(path);
  const probes = lineProbes(file.text);
  for (const line2 of file.lines) {
    const col = probes[line2 - 1];
    const start2 = run2.starts[line2 - 1];
    if (col == null || start2 === void 0) continue;
    add2(tally.executable, path, line2);
    if (countAt(run2.ranges, start2 + col) > 0) add2(tally.covered, path, line2);
  }
  tally.executable.set(path, tally.executable.get(path) ?? /* @__PURE__ */ new Set());
}
function mapped(map, run2, files, tally) {
  map.sources.forEach((source, index) => {
    const file = source === null ? void 0 : files.get(source);
    if (source === null || file === void 0) return;
    const content = map.contents[index];
    if (content != null && content !== file.text) {
      if (!tally.pending.has(source))
        tally.pending.set(source, "its source map is of another version of the file");
      return;
    }
    tally.measured.add(source);
    tally.executable.set(source, tally.executable.get(source) ?? /* @__PURE__ */ new Set());
    mapSource(source, file, index, map, run2, tally);
  });
}
function mapSource(path, file, index, map, run2, tally) {
  const asked = new Set(file.lines);
  const byLine = /* @__PURE__ */ new Map();
  for (const s of map.segments) {
    if (s.source !== index || !asked.has(s.line + 1)) continue;
    const start2 = run2.starts[s.genLine];
    if (start2 === void 0) continue;
    const list2 = byLine.get(s.line + 1) ?? [];
    list2.push({ col: s.col, offset: start2 + s.genCol });
    byLine.set(s.line + 1, list2);
  }
  const probes = lineProbes(file.text);
  for (const [line2, points] of byLine) {
    const probe = probes[line2 - 1];
    if (probe == null) continue;
    add2(tally.executable, path, line2);
    const chosen = probeColumn(
      points.map((p) => p.col),
      probe
    );
    const ran = points.some((p) => p.col === chosen && countAt(run2.ranges, p.offset) > 0);
    if (ran) add2(tally.covered, path, line2);
  }
}
function probeColumn(cols, probe) {
  const after = cols.filter((c) => c >= probe);
  return after.length > 0 ? Math.min(...after) : Math.max(...cols);
}
function message(error) {
  return error instanceof Error ? error.message : String(error);
}
var isObject = (v) => typeof v === "object" && v !== null;
function isRange(v) {
  return isObject(v) && Number.isInteger(v.startOffset) && Number.isInteger(v.endOffset) && typeof v.count === "number";
}
function asScript(v) {
  if (!isObject(v) || typeof v.url !== "string" || !Array.isArray(v.functions)) return null;
  const functions = [];
  for (const f of v.functions) {
    if (!isObject(f) || !Array.isArray(f.ranges)) return null;
    const ranges = f.ranges;
    if (!ranges.every(isRange)) return null;
    functions.push({ ranges });
  }
  return { url: v.url, functions };
}
function parseDump(json, asked) {
  if (!isObject(json) || !Array.isArray(json.result)) return null;
  const cache = isObject(json["source-map-cache"]) ? json["source-map-cache"] : {};
  const result = [];
  const kept2 = /* @__PURE__ */ Object.create(null);
  for (const raw of json.result) {
    const url = isObject(raw) ? raw.url : void 0;
    if (typeof url !== "string") return null;
    const entry = cache[url];
    const map = isObject(entry) && isObject(entry.data) ? entry : null;
    const path = scriptPath(url);
    if (map === null && (path === null || !asked.has(path))) continue;
    const script = asScript(raw);
    if (script === null) return null;
    result.push(script);
    if (map !== null) kept2[url] = cachedMap(map);
  }
  return { result, "source-map-cache": kept2 };
}
function cachedMap(entry) {
  const lengths = entry.lineLengths;
  return {
    data: entry.data,
    ...typeof entry.url === "string" ? { url: entry.url } : {},
    ...Array.isArray(lengths) && lengths.every((n) => Number.isInteger(n)) ? { lineLengths: lengths } : {}
  };
}
function parseSourceLines(text2) {
  const by = /* @__PURE__ */ Object.create(null);
  for (const line2 of (text2 ?? "").split("\n")) {
    let entry;
    try {
      entry = JSON.parse(line2);
    } catch {
      continue;
    }
    if (isObject(entry) && typeof entry.url === "string" && typeof entry.source === "string")
      (by[entry.url] ??= []).push(entry.source);
  }
  return by;
}

// src/evidence/js-vote.ts
var MAX_PAYLOAD = 64 << 20;
function voteDumps(watched, asked) {
  const parts2 = /* @__PURE__ */ new Map();
  const started = /* @__PURE__ */ new Set();
  let bad = 0;
  for (const e of watched.events) {
    if (e.t === "jscov-start" && typeof e.p === "string") started.add(e.p);
    if (e.t !== "jscov") continue;
    if (!addChunk(parts2, e)) bad++;
  }
  const out2 = { dumps: [], problems: [], measured: false };
  let unreadable = 0;
  for (const [p, { n, chunks }] of parts2) {
    started.delete(p);
    const dump = chunks.size === n ? payloadDump(joined(chunks, n), asked) : null;
    if (dump === null) unreadable++;
    else {
      out2.dumps.push(dump);
      out2.measured ||= dump.result.length > 0;
    }
  }
  if (bad + unreadable > 0)
    out2.problems.push(
      `${bad + unreadable} coverage record(s) of the vote were incomplete or not V8's shape`
    );
  if (started.size > 0)
    out2.problems.push(
      `${started.size} Node process(es) of the vote that compiled changed code ended before sending their coverage (killed?): the lines only they ran are missing`
    );
  if (watched.dropped > 0)
    out2.problems.push(
      `${watched.dropped} watch record(s) beyond the stream's cap were not read, so some lines may show uncovered`
    );
  return out2;
}
function addChunk(parts2, e) {
  const { p, i: i2, n, d } = e;
  if (typeof p !== "string" || typeof d !== "string") return false;
  if (!Number.isInteger(n) || !Number.isInteger(i2)) return false;
  const total = n;
  const index = i2;
  if (total < 1 || index < 0 || index >= total) return false;
  const found = parts2.get(p) ?? { n: total, chunks: /* @__PURE__ */ new Map() };
  if (found.n !== total || found.chunks.has(index)) return false;
  found.chunks.set(index, d);
  parts2.set(p, found);
  return true;
}
function joined(chunks, n) {
  let text2 = "";
  for (let i2 = 0; i2 < n; i2++) {
    text2 += chunks.get(i2) ?? "";
    if (text2.length > MAX_PAYLOAD) return null;
  }
  return text2;
}
function payloadDump(text2, asked) {
  let json;
  try {
    json = text2 === null ? void 0 : JSON.parse(text2);
  } catch {
    return null;
  }
  if (json === null || typeof json !== "object" || Array.isArray(json)) return null;
  const dump = parseDump({ result: json.result }, asked);
  if (dump === null) return null;
  const { sources, loaded } = json;
  return { ...dump, sources: keptTexts(sources), loaded: paths(loaded) };
}
function paths(raw) {
  return Array.isArray(raw) ? raw.filter((p) => typeof p === "string") : null;
}
function keptTexts(raw) {
  const by = /* @__PURE__ */ Object.create(null);
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return by;
  for (const [url, texts] of Object.entries(raw))
    if (Array.isArray(texts)) by[url] = texts.filter((t) => typeof t === "string");
  return by;
}
function fileOf(id) {
  const at2 = id.indexOf("::");
  return at2 <= 0 ? null : id.slice(0, at2);
}
function testsByLine(dumps, passing, measure2) {
  const compiled2 = new Set(dumps.flatMap((d) => d.loaded ?? []));
  const byFile2 = /* @__PURE__ */ new Map();
  const everywhere = [];
  for (const id of [...passing].sort()) {
    const file = fileOf(id);
    if (file === null || !compiled2.has(file)) everywhere.push(id);
    else byFile2.set(file, [...byFile2.get(file) ?? [], id]);
  }
  const tests = /* @__PURE__ */ new Map();
  const unknown = /* @__PURE__ */ new Set();
  dumps.forEach((dump, i2) => {
    const ids = (dump.loaded ?? []).flatMap((f) => byFile2.get(f) ?? []);
    const own = dumps.map((d, j) => j === i2 ? d : { ...d, result: [] });
    for (const [path, lines] of measure2(own))
      for (const line2 of lines) {
        const key4 = `${line2}:${path}`;
        if (ids.length === 0) unknown.add(key4);
        else for (const id of ids) (tests.get(key4) ?? tests.set(key4, /* @__PURE__ */ new Set()).get(key4))?.add(id);
      }
  });
  const out2 = /* @__PURE__ */ new Map();
  for (const [key4, ids] of tests) {
    if (unknown.has(key4)) continue;
    const at2 = key4.indexOf(":");
    const path = key4.slice(at2 + 1);
    const lines = out2.get(path) ?? out2.set(path, /* @__PURE__ */ new Map()).get(path);
    lines?.set(Number(key4.slice(0, at2)), [.../* @__PURE__ */ new Set([...ids, ...everywhere])].sort());
  }
  return out2;
}

// src/evidence/js-coverage.ts
var JS_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
var MAX_DUMP_BYTES = 256 * 1024 * 1024;
var MAX_DUMPS = 2e3;
function isJsPath(path) {
  return JS_FILE.test(path);
}
async function jsCoverage(ctx, input) {
  const vote = await voteCoverage(ctx, input);
  if (vote !== null) return vote;
  const plan = await planJsCoverage(ctx, input);
  if (plan === null) return { covered: /* @__PURE__ */ new Map(), executable: /* @__PURE__ */ new Map() };
  const watch = ctx.watch ? { ...ctx.watch, cover: false } : ctx.watch;
  const run2 = await runSuite(
    { ...ctx, watch },
    {
      side: "head",
      worktree: input.worktree,
      attempt: 3e3,
      command: ctx.policy.suite.command,
      logFile: input.log,
      writable: plan.writable,
      env: plan.env
    }
  );
  return plan.read({ timedOut: run2.result.timedOut });
}
async function voteCoverage(ctx, input) {
  if (ctx.watch?.cover !== true || input.watched === void 0) return null;
  const asked = input.changed.filter((c) => isJsPath(c.path) && c.lines.length > 0);
  if (asked.length === 0) return null;
  const place = placement(ctx, input.worktree);
  const { files, problems } = await askedFiles(ctx, asked, await runPath(place, input.worktree));
  const found = voteDumps(input.watched, new Set(files.keys()));
  if (!found.measured) return null;
  ctx.log.info(`evidence: JavaScript coverage measured in the head's vote (no extra run)`);
  const all = [...problems, ...found.problems];
  const coverage = relativeTo(coveredLines(found.dumps, files), files, all);
  if (input.passing === void 0) return coverage;
  const byLine = testsByLine(found.dumps, input.passing, (d) => coveredLines(d, files).covered);
  const byTest = /* @__PURE__ */ new Map();
  for (const [abs, lines] of byLine) {
    const file = files.get(abs);
    if (file !== void 0) byTest.set(file.path, lines);
  }
  return { ...coverage, byTest };
}
async function planJsCoverage(ctx, input) {
  const asked = input.changed.filter((c) => isJsPath(c.path) && c.lines.length > 0);
  if (asked.length === 0) return null;
  const dir = join16(ctx.tempDir, neutralName());
  const dumps = join16(dir, neutralName());
  await mkdir5(dumps, { recursive: true });
  await mkdir5(join16(dir, "own"));
  const place = placement(ctx, input.worktree, { writable: [dir] });
  const { files, problems } = await askedFiles(ctx, asked, await runPath(place, input.worktree));
  await writeFile5(join16(dir, "targets.json"), JSON.stringify([...files.keys()]));
  const env = coverageEnv(ctx, place.inside(dumps), problems);
  const read = async (run2) => {
    const found = await readDumps(dumps, join16(dir, "own"), new Set(files.keys()));
    const all = [...problems, ...found.problems];
    if (run2.timedOut) all.push(`the coverage run timed out after ${ctx.policy.suite.timeout}s`);
    if (found.dumps.length === 0)
      all.push(
        "the coverage run wrote no V8 coverage (does the suite command set NODE_V8_COVERAGE?)"
      );
    return relativeTo(coveredLines(found.dumps, files), files, all);
  };
  return { writable: [dir], env, read };
}
async function runPath(place, worktree) {
  return place.at === worktree ? realpath4(worktree) : place.at;
}
async function askedFiles(ctx, asked, at2) {
  const files = /* @__PURE__ */ new Map();
  const problems = [];
  for (const c of asked) {
    const text2 = await ctx.git.showText(ctx.head, c.path);
    if (text2 === null) problems.push(`${c.path}: not a file of the head`);
    else files.set(join16(at2, c.path), { path: c.path, text: text2, lines: c.lines });
  }
  return { files, problems };
}
function coverageEnv(ctx, dumps, problems) {
  const dir = reportersDir();
  const hook = dir === null ? null : join16(dir, "node", "coverage-hook.cjs");
  if (hook === null || !existsSync7(hook)) {
    problems.push("the gate's coverage hook is missing: transformed files cannot be mapped");
    return { NODE_V8_COVERAGE: dumps };
  }
  const before = ctx.policy.suite.env.NODE_OPTIONS ?? ctx.childEnv.NODE_OPTIONS ?? "";
  const quoted = `"${hook.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  const options = [before, `--require ${quoted}`].filter((s) => s !== "").join(" ");
  return { NODE_V8_COVERAGE: dumps, NODE_OPTIONS: options };
}
async function readRegular(path, max) {
  let handle2;
  try {
    handle2 = await open2(path, constants3.O_RDONLY | constants3.O_NONBLOCK | constants3.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const stat3 = await handle2.stat();
    if (!stat3.isFile() || stat3.size > max) return null;
    return await handle2.readFile("utf8");
  } finally {
    await handle2.close();
  }
}
function parseJson(text2) {
  if (text2 === null) return void 0;
  try {
    return JSON.parse(text2);
  } catch {
    return void 0;
  }
}
function processOf(name2) {
  const m = /^coverage-(\d+)-\d+-(\d+)\.json$/.exec(name2) ?? /^own-(\d+)-(\d+)-end\.json$/.exec(name2) ?? /^(?:started|sources)-(\d+)-(\d+)(?:\.jsonl)?$/.exec(name2);
  return m ? `${m[1]}-${m[2]}` : null;
}
async function listing(dir) {
  return readdir6(dir).catch(() => []);
}
async function listRun(v8Dir, ownDir) {
  const by = /* @__PURE__ */ new Map();
  const entry = (name2) => {
    const key4 = processOf(name2);
    if (key4 === null) return null;
    const found = by.get(key4) ?? { own: [], ended: false, v8: [], started: false };
    by.set(key4, found);
    return found;
  };
  for (const name2 of (await listing(v8Dir)).sort()) entry(name2)?.v8.push(join16(v8Dir, name2));
  for (const name2 of (await listing(ownDir)).sort()) {
    const files = entry(name2);
    if (files === null) continue;
    if (name2.startsWith("own-")) {
      files.own.push(join16(ownDir, name2));
      files.ended ||= name2.endsWith("-end.json");
    } else if (name2.startsWith("sources-")) files.sources = join16(ownDir, name2);
    else files.started = true;
  }
  return by;
}
async function readDumps(v8Dir, ownDir, asked) {
  const run2 = await listRun(v8Dir, ownDir);
  const problems = [];
  const started = [...run2.values()].filter((f) => f.started);
  const lost = started.filter((f) => !f.ended && f.v8.length === 0);
  if (lost.length > 0)
    problems.push(
      `${lost.length} of ${started.length} Node processes of the coverage run that may have run changed code ended before writing their coverage (killed?): the lines only they ran are missing`
    );
  const dumps = [];
  let read = 0;
  for (const files of run2.values()) {
    const sources = parseSourceLines(
      files.sources ? await readRegular(files.sources, MAX_DUMP_BYTES) : null
    );
    for (const path of files.own.length > 0 ? files.own : files.v8) {
      if (++read > MAX_DUMPS) break;
      const dump = parseDump(parseJson(await readRegular(path, MAX_DUMP_BYTES)), asked);
      if (dump === null)
        problems.push(
          `a coverage file was not V8's (unreadable, too big or of another shape): ${basename5(path)}`
        );
      else dumps.push({ ...dump, sources });
    }
  }
  if (read > MAX_DUMPS) problems.push(`only the first ${MAX_DUMPS} coverage files were read`);
  return { dumps, problems };
}
function relativeTo(lines, files, problems) {
  const covered = /* @__PURE__ */ new Map();
  const executable = /* @__PURE__ */ new Map();
  for (const [abs, file] of files) {
    covered.set(file.path, lines.covered.get(abs) ?? /* @__PURE__ */ new Set());
    executable.set(file.path, lines.executable.get(abs) ?? /* @__PURE__ */ new Set());
    const why = lines.problems.get(abs);
    if (why !== void 0) problems.push(`${file.path}: ${why}`);
  }
  return { covered, executable, ...problems.length > 0 ? { problems } : {} };
}

// src/evidence/mutants.ts
var COMPARISON = {
  "<": "<=",
  "<=": "<",
  ">": ">=",
  ">=": ">",
  "==": "!=",
  "!=": "==",
  "===": "!==",
  "!==": "==="
};
var ARITHMETIC = {
  "+": "-",
  "-": "+",
  "*": "/",
  "/": "*",
  "+=": "-=",
  "-=": "+=",
  "*=": "/=",
  "/=": "*="
};
var BINARY = /* @__PURE__ */ new Set(["comparison_operator", "binary_operator", "binary_expression"]);
var AUGMENTED = /* @__PURE__ */ new Set(["augmented_assignment", "augmented_assignment_expression"]);
var ARID = {
  /** Statements that are imports, type declarations only, or raise an error. */
  statements: {
    import_statement: "import",
    import_from_statement: "import",
    future_import_statement: "import",
    type_alias_statement: "type only",
    type_alias_declaration: "type only",
    interface_declaration: "type only",
    ambient_declaration: "type only",
    // What an exception says is rarely what a test pins; that it is raised is the removal's.
    raise_statement: "error message",
    throw_statement: "error message"
  },
  /** Ancestors that put a candidate in a type (annotations, generics, literal types). */
  types: /* @__PURE__ */ new Set([
    "type",
    "type_annotation",
    "type_arguments",
    "type_parameters",
    "literal_type",
    "type_predicate_annotation",
    "asserts_annotation"
  ]),
  /** Callees by dotted name (whole name matched), and why each makes a statement arid. */
  callees: [
    { why: "printing", name: /^(print|pprint|pprint\.pprint|sys\.(stdout|stderr)\.write)$/ },
    { why: "logging", name: /^(console|logging|warnings\.warn$)/ },
    // A logger object anywhere before the method: log.info, self.logger.debug, LOG.warn.
    { why: "logging", name: /(^|\.)_*(log|logger|LOG|LOGGER|Log|Logger)\.\w+$/ },
    {
      why: "time or date",
      name: /^((time|timeit)\.\w+|(datetime\.)?(datetime|date)\.(now|utcnow|today|fromtimestamp)|Date(\.now)?|performance\.now|process\.hrtime(\.bigint)?|set(Timeout|Interval|Immediate)|(asyncio\.)?sleep)$/
    },
    {
      why: "randomness",
      name: /^(random\.\w+|Math\.random|crypto\.random\w*|(uuid\.)?uuid[14]|secrets\.\w+)$/
    },
    { why: "environment", name: /^(os\.getenv|os\.environ\.get|getenv)$/ },
    {
      why: "feature flag",
      name: /(^|\.)(is_?(feature_?)?enabled|isFeatureEnabled|feature_?enabled|featureEnabled|get_?flag|getFlag|flags?|feature_?flags?|featureFlags?|toggles?)(\.\w+)?$/i
    },
    { why: "import", name: /^(require|import|__import__|importlib\.import_module)$/ }
  ],
  /** Reads (attribute or member chains) that make a statement arid. */
  reads: [
    { why: "environment", name: /^(os\.environ|process\.env|import\.meta\.env)(\.|\[|$)/ }
  ]
};
var STATEMENT = /(_statement|_definition|_declaration|_clause|^switch_case|^switch_default)$/;
var BODY = /* @__PURE__ */ new Set(["block", "statement_block", "class_body", "switch_body"]);
async function mutantsFor(path, language, text2, lines, limit) {
  if (lines.size === 0 || limit <= 0) return [];
  const tree = (await parserFor(language)).parse(text2);
  if (tree === null) return [];
  try {
    return mutantsInTree(path, language, text2, tree, lines, limit);
  } finally {
    tree.delete();
  }
}
function mutantsInTree(path, language, text2, tree, lines, limit) {
  const walk = {
    path,
    python: language === "python",
    text: text2,
    lines: [...lines].sort((a, b) => a - b),
    wanted: lines,
    aridity: /* @__PURE__ */ new Map(),
    found: /* @__PURE__ */ new Map()
  };
  visit(tree.rootNode, walk);
  const chosen = [...walk.found.values()].map((c) => c.mutant).sort((a, b) => a.line - b.line);
  return spread(chosen, limit);
}
function visit(node, walk) {
  if (!touches(walk.lines, node.startPosition.row + 1, node.endPosition.row + 1)) return;
  for (const [rank2, find] of FINDERS.entries()) {
    const mutant2 = find(node, walk);
    if (mutant2 !== null) offer(walk, rank2, node, mutant2);
  }
  for (const child of node.children) if (child !== null) visit(child, walk);
}
function touches(lines, from, to) {
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = lo + hi >> 1;
    if ((lines[mid] ?? 0) < from) lo = mid + 1;
    else hi = mid;
  }
  return lo < lines.length && (lines[lo] ?? Infinity) <= to;
}
function offer(walk, rank2, node, mutant2) {
  if (!walk.wanted.has(mutant2.line)) return;
  const held = walk.found.get(mutant2.line);
  if (held && (held.rank < rank2 || held.rank === rank2 && held.mutant.start <= mutant2.start))
    return;
  if (aridWhy(node, walk) !== "") return;
  walk.found.set(mutant2.line, { rank: rank2, mutant: mutant2 });
}
function aridWhy(node, walk) {
  let unit = node;
  for (let n = node; n !== null; n = n.parent) {
    if (ARID.types.has(n.type)) return "type only";
    if (formatting(n, walk.python)) return "string formatting";
    if (STATEMENT.test(n.type)) {
      unit = n;
      break;
    }
    unit = n;
  }
  if (unit === null) return "";
  let why = walk.aridity.get(unit.id);
  if (why === void 0) {
    why = statementWhy(unit, walk.python);
    walk.aridity.set(unit.id, why);
  }
  return why;
}
function formatting(n, python) {
  if (n.type === "interpolation" || n.type === "template_substitution") return true;
  if (n.type === "binary_operator" || n.type === "binary_expression") {
    const op = n.childForFieldName("operator")?.type;
    return op === "%" && python && stringy(n.childForFieldName("left")) || op === "+" && stringy(n);
  }
  if (n.type === "call" || n.type === "call_expression") {
    const fn = n.childForFieldName("function");
    const object = fn?.childForFieldName("object");
    const member3 = fn?.childForFieldName(python ? "attribute" : "property")?.text;
    return (member3 === "format" || member3 === "join") && stringy(object ?? null);
  }
  return false;
}
function stringy(n) {
  if (n === null) return false;
  if (["string", "template_string", "concatenated_string"].includes(n.type)) return true;
  if (n.type === "parenthesized_expression") return stringy(n.namedChildren[0] ?? null);
  if (n.type !== "binary_operator" && n.type !== "binary_expression") return false;
  if (n.childForFieldName("operator")?.type !== "+") return false;
  return stringy(n.childForFieldName("left")) || stringy(n.childForFieldName("right"));
}
function statementWhy(unit, python) {
  const kind = ARID.statements[unit.type];
  if (kind !== void 0) return kind;
  if (unit.type === "export_statement" && unit.childForFieldName("source") !== null) return "import";
  if (unit.type === "expression_statement") {
    const only = unit.namedChildren.length === 1 ? unit.namedChildren[0] : void 0;
    if (only && (only.type === "string" || only.type === "concatenated_string"))
      return python ? "docstring" : "directive";
  }
  return headerWhy(unit, python, true);
}
function headerWhy(n, python, top) {
  if (!top && (BODY.has(n.type) || STATEMENT.test(n.type))) return "";
  const why = nodeWhy(n, python);
  if (why !== "") return why;
  for (const child of n.namedChildren) {
    if (child === null) continue;
    const found = headerWhy(child, python, false);
    if (found !== "") return found;
  }
  return "";
}
function nodeWhy(n, python) {
  const callee = n.type === "call" || n.type === "call_expression" ? n.childForFieldName("function") : n.type === "new_expression" ? n.childForFieldName("constructor") : null;
  if (callee) {
    const name2 = dotted2(callee.text);
    const hit = ARID.callees.find((c) => c.name.test(name2));
    if (hit) return hit.why;
  }
  const read = python ? n.type === "attribute" || n.type === "subscript" : n.type === "member_expression" || n.type === "subscript_expression";
  if (read) {
    const name2 = dotted2(n.text);
    const hit = ARID.reads.find((r) => r.name.test(name2));
    if (hit) return hit.why;
  }
  return "";
}
function dotted2(text2) {
  return text2.replace(/\s+/g, "").replace(/\?\./g, ".");
}
var FINDERS = [comparison, arithmetic, boundary, negation, constant, removal];
function comparison(node, walk) {
  const to = COMPARISON[node.type];
  if (node.isNamed || to === void 0 || !BINARY.has(node.parent?.type ?? "")) return null;
  return replace(walk, node, to, `\`${node.type}\` \u2192 \`${to}\``);
}
function arithmetic(node, walk) {
  const to = ARITHMETIC[node.type];
  const parent = node.parent;
  if (node.isNamed || to === void 0 || parent === null) return null;
  if (node.type.endsWith("=")) {
    if (!AUGMENTED.has(parent.type) || stringy(parent.childForFieldName("right"))) return null;
  } else if (!BINARY.has(parent.type) || parent.type === "comparison_operator") return null;
  else if (node.type === "+" && stringy(parent)) return null;
  return replace(walk, node, to, `\`${node.type}\` \u2192 \`${to}\``);
}
function boundary(node, walk) {
  if (node.type !== (walk.python ? "integer" : "number") || !node.isNamed) return null;
  if (!/^(0|[1-9][0-9]*)$/.test(node.text)) return null;
  const to = (BigInt(node.text) + 1n).toString();
  return replace(walk, node, to, `\`${node.text}\` \u2192 \`${to}\``);
}
function negation(node, walk) {
  if ((node.type === "true" || node.type === "false") && node.isNamed) {
    const to = walk.python ? node.type === "true" ? "False" : "True" : node.type === "true" ? "false" : "true";
    return replace(walk, node, to, `\`${node.text}\` \u2192 \`${to}\``);
  }
  if (walk.python && node.type === "not_operator") {
    const argument = node.childForFieldName("argument");
    if (argument === null) return null;
    return mutant(walk, node.startIndex, argument.startIndex, "", "`not` removed", node);
  }
  if (!walk.python && node.type === "unary_expression") {
    const op = node.childForFieldName("operator");
    if (op?.type !== "!") return null;
    return replace(walk, op, "", "`!` removed");
  }
  return null;
}
function constant(node, walk) {
  if (node.type === "string" && node.isNamed) return stringChange(node, walk);
  const float = walk.python ? node.type === "float" : node.type === "number";
  const m = float && node.isNamed ? /^([0-9]+)\.([0-9]+)$/.exec(node.text) : null;
  if (m === null) return null;
  const to = `${(BigInt(m[1] ?? "0") + 1n).toString()}.${m[2] ?? "0"}`;
  return replace(walk, node, to, `\`${node.text}\` \u2192 \`${to}\``);
}
function stringChange(node, walk) {
  const quote3 = node.text[0];
  if (quote3 !== '"' && quote3 !== "'" || node.text.length < 2) return null;
  if (node.text.startsWith(quote3.repeat(3)) || node.text.includes("\n")) return null;
  if (node.namedChildren.some(
    (c) => c !== null && !/^(string_start|string_end|string_content|string_fragment)$/.test(c.type)
  ))
    return null;
  const to = node.text.length === 2 ? `${quote3}_${quote3}` : `${quote3}${quote3}`;
  return replace(walk, node, to, `\`${shown(node.text)}\` \u2192 \`${to}\``);
}
function removal(node, walk) {
  if (node.type === "return_statement") {
    const value = node.namedChildren.find((c) => c !== null && c.type !== "comment") ?? null;
    if (value === null || ["none", "undefined"].includes(value.type)) return null;
    const none = walk.python ? "None" : "undefined";
    const what = `\`return ${shown(value.text)}\` \u2192 \`return ${none}\``;
    return mutant(walk, value.startIndex, value.endIndex, none, what, node);
  }
  if (node.type !== "expression_statement") return null;
  const only = node.namedChildren.length === 1 ? node.namedChildren[0] : null;
  const call = only?.type === "await" || only?.type === "await_expression" ? only.namedChildren[0] : only;
  if (!call || call.type !== "call" && call.type !== "call_expression") return null;
  if (/^super\b/.test(call.childForFieldName("function")?.text ?? "")) return null;
  const to = walk.python ? "pass" : ";";
  return mutant(walk, node.startIndex, node.endIndex, to, `\`${shown(call.text)}\` removed`, node);
}
function replace(walk, node, to, what) {
  return mutant(walk, node.startIndex, node.endIndex, to, what, node);
}
function mutant(walk, start2, end, replacement, mutation3, at2) {
  return {
    path: walk.path,
    line: at2.startPosition.row + 1,
    mutation: mutation3,
    start: start2,
    end,
    replacement,
    original: walk.text.slice(start2, end)
  };
}
function shown(code) {
  const flat2 = code.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\s]+/g, " ").replace(/`/g, "'").trim();
  return flat2.length > 40 ? `${flat2.slice(0, 39)}\u2026` : flat2;
}
function spread(items, n) {
  if (items.length <= n) return [...items];
  if (n <= 0) return [];
  const out2 = [];
  for (let k = 0; k < n; k++) {
    const item = items[Math.floor(k * items.length / n)];
    if (item !== void 0) out2.push(item);
  }
  return out2;
}
function selectMutants(perFile, max) {
  const shares = fairShares(
    perFile.map((f) => f.length),
    Math.max(0, Math.floor(max))
  );
  const out2 = perFile.flatMap((file, i2) => spread(file, shares[i2] ?? 0));
  return out2.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line);
}
function fairShares(sizes, max) {
  const shares = sizes.map(() => 0);
  let left = max;
  while (left > 0) {
    const open3 = sizes.map((s, i2) => i2).filter((i2) => (shares[i2] ?? 0) < (sizes[i2] ?? 0));
    if (open3.length === 0) break;
    for (const i2 of open3) {
      if (left === 0) break;
      shares[i2] = (shares[i2] ?? 0) + 1;
      left--;
    }
  }
  return shares;
}

// src/evidence/mutate.ts
import { chmod as chmod2, lstat as lstat6, readFile as readFile8, realpath as realpath5, rename as rename2, rm as rm6, utimes as utimes2, writeFile as writeFile6 } from "node:fs/promises";
import { basename as basename6, dirname as dirname9, isAbsolute as isAbsolute4, join as join18 } from "node:path";

// src/replay/rerun.ts
function observe(report, ctx, duplicates) {
  const index = new FileIndex(ctx);
  const out2 = /* @__PURE__ */ new Map();
  for (const c of report.cases) {
    const { id, file, provisional } = canonicalId(c, ctx, index);
    const prior = out2.get(id);
    if (prior) {
      duplicates?.add(id);
      const [was] = prior.outcomes;
      if (was !== void 0 && OUTCOME_RANK[c.outcome] > OUTCOME_RANK[was]) {
        prior.outcomes = [c.outcome];
        if (c.message) prior.message = c.message;
      }
      prior.runnerFlaky ||= c.flaky;
      continue;
    }
    const o = { id, file, outcomes: [c.outcome], runnerFlaky: c.flaky };
    if (provisional) o.provisional = true;
    if (c.line !== void 0 && file !== null) o.line = file.endsWith(".py") ? c.line + 1 : c.line;
    if (c.message) o.message = c.message;
    out2.set(id, o);
  }
  return out2;
}
function merge(into, rerun, mode = { targets: null, selecting: false, incidental: false }) {
  for (const [id, o] of rerun) {
    const targeted = mode.targets === null || mode.targets.has(id);
    if (!targeted && mode.selecting && o.outcomes.every((x) => x === "skipped")) continue;
    const prior = into.get(id);
    if (prior && !targeted && mode.incidental) {
      ;
      (prior.incidental ??= []).push(...o.outcomes);
    } else if (prior) {
      prior.outcomes.push(...o.outcomes);
      prior.runnerFlaky ||= o.runnerFlaky;
    } else if (targeted || !mode.incidental) {
      into.set(id, { ...o, outcomes: [...o.outcomes] });
    }
  }
}
function rerunPlan(suite) {
  const command = suite.rerun_command ?? suite.command;
  const runner = detectRunner(suite.runner ? suite : { command });
  if (command.includes("{tests}")) return { command, selects: true, runner };
  if (suite.rerun_command !== void 0) return { command, selects: false, runner };
  const rewritten = runner ? selectingCommand(command, runner) : null;
  if (rewritten !== null) return { command: rewritten, selects: true, runner };
  return { command, selects: false, runner };
}
function rerunArgs(plan, ids) {
  return selectionArgs(plan.runner ?? null, ids);
}
function rerunTargets(results, eligible3) {
  const targets = [];
  for (const o of results.values()) {
    if (!eligible3(o)) continue;
    if (o.id.endsWith("::<collection>")) continue;
    if (o.outcomes.every((x) => x === "failed" || x === "error")) targets.push(o.id);
  }
  return targets.sort();
}
async function rerunFailures(options) {
  let done = 0;
  for (let attempt = 1; attempt <= options.reruns; attempt++) {
    const targets = rerunTargets(options.results, options.eligible);
    if (targets.length === 0) break;
    const report = await options.run(attempt, options.plan.selects ? targets : null);
    done++;
    if (report === null) continue;
    merge(options.results, observe(report, await options.ids()), {
      targets: new Set(targets),
      selecting: options.plan.selects,
      incidental: options.incidental ?? false
    });
  }
  return done;
}

// src/replay/tripwires.ts
var RunWatch = class {
  constructor(side, canary) {
    this.side = side;
    this.canary = canary;
  }
  side;
  canary;
  records = [];
  /** What the watchers streamed in each run, a report or not (reach-events.ts, evidence). */
  watched = [];
  /** One run; `arm` writes the canaries for its duration (the first run of a side). */
  async run(ctx, req, arm = false) {
    const canary = arm ? this.canary : null;
    if (canary) await armCanary(req.worktree, canary);
    let run2;
    try {
      run2 = await runSuite(ctx, req);
    } finally {
      if (canary) await disarmCanary(req.worktree, canary);
    }
    if (run2.stream?.state === "read") {
      const { started, watched, events, dropped } = run2.stream;
      this.watched.push({ fed: run2.watchFed === true, started, watched, events, dropped });
    }
    if (run2.report === null) return run2;
    const judged = judgeStream(run2.report, run2.stream, req.worktree, detectRunner(ctx.policy.suite));
    let report = judged.report;
    const record = {
      attempt: req.attempt,
      exitCode: run2.result.exitCode,
      signal: run2.result.signal,
      cases: 0,
      failing: 0,
      passed: 0
    };
    if (judged.stream) record.stream = judged.stream;
    if (canary) {
      const taken = takeCanary(report, canary, req.worktree);
      record.canaries = taken.results;
      report = taken.report;
    }
    record.cases = report.cases.length;
    record.failing = report.cases.filter(
      (c) => c.outcome === "failed" || c.outcome === "error"
    ).length;
    record.passed = report.cases.filter((c) => c.outcome === "passed").length;
    this.records.push(record);
    return { ...run2, report };
  }
};
function judgeStream(file, stream, root, runner) {
  if (stream === void 0) return { report: file };
  if (stream.state === "off") return { report: file, stream };
  if (stream.started === 0 && stream.problems.length === 0 && stream.cases.length === 0)
    return { report: file, stream: { state: "silent" } };
  const problems = [...stream.problems];
  if (stream.ended < stream.started || stream.started === 0) {
    const last = stream.cases[stream.cases.length - 1];
    const after = last ? `, the last ${last.classname}::${last.name}` : "";
    problems.push(
      `the stream was cut short: ${stream.cases.length} test(s) streamed${after}, and the runner never reached its end`
    );
  }
  problems.push(...crossCheck(file.cases, stream.cases, root, runner));
  const judged = problems.length > 0 ? { state: "tampered", problems } : { state: "agrees" };
  const cases = withMessages(stream.cases, file.cases, root, runner);
  return { report: { ...file, cases }, stream: judged };
}
function exitMismatch(r) {
  const canaries = r.canaries ?? [];
  const ran = r.passed + r.failing > 0 || canaries.some((c) => c.outcome === "passed" || c.outcome === "skipped");
  if (!ran) return null;
  if (r.failing > 0) return null;
  if (canaries.some((c) => c.canary.expect === "failed" && asWritten(c))) return null;
  if (r.signal !== null) return `was killed by ${r.signal}`;
  if (r.exitCode !== null && r.exitCode !== 0) return `exited with status ${r.exitCode}`;
  return null;
}
var at = (side, r) => r.attempt === 0 ? `the first run on ${side}` : `rerun ${r.attempt} on ${side}`;
function judgeTripwires(input) {
  const reasons = [];
  const baseProblems = [];
  for (const r of input.base) {
    const why = exitMismatch(r);
    if (why)
      baseProblems.push(
        `the runner ${why} in ${at("base", r)} while its report shows no failing test: the instrument's runner contradicts its own report on the merge base, so nothing it reports can be trusted`
      );
  }
  for (const r of input.head) {
    const why = exitMismatch(r);
    if (!why) continue;
    reasons.push({
      rule: "report-mismatch",
      message: `the runner ${why} in ${at("head", r)} while its report shows no failing test of the repository (a canary is no excuse): code in the voting process changed the report or the exit (a red vote)`,
      path: input.policyPath,
      level: "failure"
    });
  }
  for (const verdict of [judgeStreams(input), judgeCanary(input)]) {
    reasons.push(...verdict.reasons);
    baseProblems.push(...verdict.baseProblems);
  }
  return { reasons, baseProblems };
}
var SHOWN_PROBLEMS = 10;
function listed(problems) {
  const more = problems.length > SHOWN_PROBLEMS ? `; and ${problems.length - SHOWN_PROBLEMS} more` : "";
  return problems.slice(0, SHOWN_PROBLEMS).join("; ") + more;
}
function judgeStreams(input) {
  const reasons = [];
  const baseProblems = [];
  const first = input.base.find((r) => r.attempt === 0)?.stream;
  const notice = (why) => {
    reasons.push({
      rule: "diagnostic",
      message: `outcomes not streamed: ${why}; the vote reads the runner's JUnit file alone, which code in the voting process can rewrite after the runner wrote it`,
      path: input.policyPath,
      level: "notice"
    });
  };
  if (first?.state === "off") notice(first.why);
  else if (first?.state === "silent")
    notice(
      "the runner did not load the gate's reporter on the base (does the command clear the environment?)"
    );
  const armed = first?.state === "agrees";
  for (const r of input.base)
    if (r.stream?.state === "tampered")
      baseProblems.push(
        `the outcome stream of ${at("base", r)} disagrees with its report: ${listed(r.stream.problems)}; the instrument's runner does not report what ran`
      );
  for (const r of input.head) {
    const s = r.stream;
    const problems = s?.state === "tampered" ? s.problems : s?.state === "silent" && armed ? ["the gate's reporter sent nothing, although it streamed on the base"] : [];
    if (problems.length === 0) continue;
    reasons.push({
      rule: "runner-tampered",
      message: `the outcomes the gate's reporter streamed in ${at("head", r)} and the runner's report disagree: ${listed(problems)}; something in the voting process rewrote the results`,
      path: input.policyPath,
      level: "failure"
    });
  }
  return { reasons, baseProblems };
}
var nameOf = (r) => `${r.canary.path}::${r.canary.title}`;
function judgeCanary(input) {
  const notice = (why) => ({
    reasons: [
      {
        rule: "diagnostic",
        message: `the canaries were not armed: ${why}; report tampering by a wholesale rewrite is not checked`,
        path: input.policyPath,
        level: "notice"
      }
    ],
    baseProblems: []
  });
  if (input.canary.plan === null) return notice(input.canary.why);
  const base = input.base.find((r) => r.canaries !== void 0)?.canaries;
  if (base === void 0) return { reasons: [], baseProblems: [] };
  const armed = base.filter((r) => r.outcome !== "absent");
  if (armed.length === 0) {
    const files = [...new Set(base.map((r) => r.canary.path))].join(", ");
    return notice(`the voting command did not collect ${files} on the base`);
  }
  const forged = (r) => r.canary.expect === "failed" && (r.outcome === "passed" || r.outcome === "skipped");
  const wrongOnBase = armed.filter(forged);
  if (wrongOnBase.length > 0)
    return {
      reasons: [],
      baseProblems: wrongOnBase.map(
        (r) => `the canary ${nameOf(r)}, a test written to fail, was reported ${r.outcome} on the base: the instrument's runner does not report what ran`
      )
    };
  const head = input.head.find((r) => r.canaries !== void 0);
  if (head?.canaries === void 0) return { reasons: [], baseProblems: [] };
  const messages = [];
  for (const r of head.canaries) {
    if (!armed.some((b) => b.canary === r.canary)) continue;
    if (r.outcome === "absent") {
      if (head.passed > 0 && head.failing === 0)
        messages.push(
          `the canary ${nameOf(r)}, a test the gate wrote and the base's run reported, is missing from the head's report while ${head.passed} other test(s) passed: something in the voting process removed results`
        );
    } else if (forged(r))
      messages.push(
        `the canary ${nameOf(r)}, a test the gate wrote to fail, was reported ${r.outcome} on the head: something in the voting process rewrote the runner's results`
      );
  }
  return {
    reasons: messages.map((message2) => ({
      rule: "runner-tampered",
      message: message2,
      path: input.policyPath,
      level: "failure"
    })),
    baseProblems: []
  };
}
function unexplainedHit(writeSet, hits2, planeOf, policyPath) {
  if (hits2.length === 0) return null;
  const source = writeSet.some(
    (r) => r.plane === "source" || r.previous_path !== void 0 && planeOf(r.previous_path) === "source"
  );
  if (source) return null;
  const shown2 = hits2.slice(0, 10).join(", ");
  const more = hits2.length > 10 ? ` and ${hits2.length - 10} more` : "";
  return {
    rule: "unexplained-hit",
    message: `${hits2.length} voting test(s) went from fail to pass (${shown2}${more}) although the patch writes nothing on the source plane: either the oracle is a coin or something other than production code moved it`,
    path: policyPath,
    level: "failure"
  };
}

// src/evidence/schemata.ts
import { readFile as readFile7 } from "node:fs/promises";
import { join as join17 } from "node:path";
async function runSession(ctx, input) {
  const planned = await planMutants(input);
  const out2 = /* @__PURE__ */ new Map();
  if (planned.length === 0) return out2;
  const run2 = await runSuite(
    { ...ctx, watch: schemataPlan(planned, input.budgetSec) },
    {
      side: "head",
      worktree: input.worktree,
      attempt: input.attempt,
      ...selection(ctx, input)
    }
  );
  return readSession(run2, planned, ctx.policy.suite.timeout);
}
function selection(ctx, input) {
  const union = [...new Set(input.mutants.flatMap((x) => x.tests))].sort();
  const selects = input.plan.selects && union.length <= input.maxSelected;
  return {
    command: selects ? input.plan.command : ctx.policy.suite.command,
    tests: selects ? union : [],
    testArgs: selects ? rerunArgs(input.plan, union) : [],
    logFile: input.log
  };
}
function schemataPlan(mutants, budgetSec) {
  const plan = {
    lines: {},
    instrument: [],
    reach: false,
    cover: false,
    schemata: { budget_s: budgetSec, mutants }
  };
  return plan;
}
async function planMutants(input) {
  const texts = /* @__PURE__ */ new Map();
  const out2 = [];
  for (const { k, m, tests } of input.mutants) {
    if (!texts.has(m.path))
      texts.set(m.path, await readFile7(join17(input.worktree, m.path), "utf8").catch(() => null));
    const text2 = texts.get(m.path);
    if (text2 === null || text2 === void 0 || m.original === void 0) continue;
    if (text2.slice(m.start, m.end) !== m.original) continue;
    const start2 = [...text2.slice(0, m.start)].length;
    const end = start2 + [...m.original].length;
    out2.push({
      k,
      path: m.path,
      start: start2,
      end,
      replacement: m.replacement,
      original: m.original,
      tests
    });
  }
  return out2;
}
function readSession(run2, planned, timeoutSec) {
  const out2 = /* @__PURE__ */ new Map();
  const stream = run2.stream;
  if (stream?.state !== "read" || stream.watched === 0 || stream.problems.length > 0) return out2;
  const asked = new Set(planned.map((p) => p.k));
  for (const event of stream.events) {
    const k = event.index;
    if (event.t !== "mutant" || typeof k !== "number" || !asked.has(k)) continue;
    if (out2.has(k)) {
      return /* @__PURE__ */ new Map();
    }
    const result = sessionResult(event);
    if (result !== null) out2.set(k, result);
  }
  if (run2.result.timedOut) {
    const hung = planned.find((p) => !out2.has(p.k));
    if (hung) out2.set(hung.k, { notRun: `timed out after ${timeoutSec}s` });
  }
  return out2;
}
function sessionResult(event) {
  if (typeof event.per_process === "string") return { perProcess: event.per_process };
  if (typeof event.not_run === "string") return { notRun: event.not_run };
  if (!Array.isArray(event.cases)) return null;
  const cases = [];
  for (const c of event.cases) {
    const raw = caseOf(c);
    if (raw === null) return null;
    cases.push(raw);
  }
  return { cases };
}
var OUTCOMES2 = /* @__PURE__ */ new Set(["passed", "failed", "error", "skipped"]);
function caseOf(value) {
  if (typeof value !== "object" || value === null) return null;
  const r = value;
  if (typeof r.name !== "string" || typeof r.outcome !== "string" || !OUTCOMES2.has(r.outcome))
    return null;
  const c = {
    classname: typeof r.classname === "string" ? r.classname : "",
    name: r.name,
    suites: [],
    outcome: r.outcome,
    flaky: false
  };
  if (typeof r.file === "string") c.file = r.file;
  if (typeof r.line === "number") c.line = r.line;
  return c;
}

// src/evidence/mutate.ts
var MUTANT_ATTEMPTS = 1e3;
var MAX_SELECTED = 500;
async function runMutants(ctx, input) {
  const plan = rerunPlan(ctx.policy.suite);
  const started = Date.now();
  const ids = idsOnce(ctx, input);
  const out2 = [];
  if (input.mutants.length > 0)
    ctx.log.info(
      `mutation: ${input.mutants.length} mutant(s), ${plan.selects ? "each against the tests that cover its line" : "each against the whole suite (the runner cannot select tests)"}`
    );
  const session = await sessionOf(ctx, input, plan, started);
  let stopped = session.stopped;
  for (const [k, m] of input.mutants.entries()) {
    const said = session.results.get(k);
    if (session.stopped === null && said !== void 0 && !("perProcess" in said)) {
      out2.push(await fromSession(m, session.tests.get(k) ?? [], said, ids));
      continue;
    }
    if (stopped === null && (Date.now() - started) / 1e3 >= input.budgetSec) stopped = "budget";
    if (stopped !== null) {
      out2.push(notRun(m, stopped));
      continue;
    }
    const outcome = await runOne(ctx, input, { m, k, plan, ids });
    if (input.fidelity && (await input.fidelity()).length > 0) {
      ctx.log.warning("mutation: the instrument on disk changed during a mutant run; stopped");
      stopped = INSTRUMENT_CHANGED;
      out2.push(notRun(m, stopped));
      continue;
    }
    out2.push(outcome);
  }
  ctx.log.info(`mutation: ${summary(out2)}`);
  return out2;
}
var INSTRUMENT_CHANGED = "the instrument changed during a mutant run";
async function sessionOf(ctx, input, plan, started) {
  const none = { results: /* @__PURE__ */ new Map(), stopped: null, tests: /* @__PURE__ */ new Map() };
  const left = input.budgetSec - (Date.now() - started) / 1e3;
  if (detectRunner(ctx.policy.suite) !== "pytest" || left <= 0) return none;
  const mutants = [];
  for (const [k, m] of input.mutants.entries()) {
    if (!m.path.endsWith(".py") || typeof await fileIn(input.worktree, m.path) !== "string")
      continue;
    const tests = input.testsFor(m);
    if (tests.length > 0) mutants.push({ k, m, tests });
  }
  if (mutants.length === 0) return none;
  ctx.log.info(`mutation: ${mutants.length} Python mutant(s) in one pytest session`);
  const results = await runSession(ctx, {
    worktree: input.worktree,
    mutants,
    budgetSec: left,
    plan,
    attempt: MUTANT_ATTEMPTS - 1,
    maxSelected: MAX_SELECTED,
    log: input.log
  });
  if (input.fidelity && (await input.fidelity()).length > 0) {
    ctx.log.warning("mutation: the instrument on disk changed during the mutant session; stopped");
    return { results: /* @__PURE__ */ new Map(), stopped: INSTRUMENT_CHANGED, tests: /* @__PURE__ */ new Map() };
  }
  return { results, stopped: null, tests: new Map(mutants.map((x) => [x.k, x.tests])) };
}
async function fromSession(m, tests, said, ids) {
  if ("notRun" in said) return notRun(m, said.notRun);
  const context = await ids();
  const index = new FileIndex(context);
  const seen = /* @__PURE__ */ new Map();
  for (const c of said.cases) {
    const id = canonicalId(c, context, index).id;
    const held = seen.get(id) ?? { outcomes: [] };
    held.outcomes.push(c.outcome);
    seen.set(id, held);
  }
  return judgeMutant(m, tests, seen);
}
function summary(out2) {
  const killed = out2.filter((o) => o.not_run === void 0 && o.killed_by !== null).length;
  const survived = out2.filter((o) => o.not_run === void 0 && o.killed_by === null).length;
  return `${killed} killed, ${survived} survived, ${out2.length - killed - survived} not run`;
}
function idsOnce(ctx, input) {
  let ids = null;
  return async () => ids ??= worktreeIdContext(
    input.worktree,
    await worktreeFiles(ctx, input.worktree),
    (p) => ctx.planes.planeOf(p),
    ctx.policy.suite.report,
    {
      runner: detectRunner(ctx.policy.suite),
      ...input.baseFiles ? { literalFiles: input.baseFiles } : {}
    }
  );
}
var notRun = (m, why) => ({ ...m, killed_by: null, not_run: why });
async function runOne(ctx, input, one) {
  const { m } = one;
  const tests = [...input.testsFor(m)];
  if (tests.length === 0) return notRun(m, "no voting test runs the line");
  const target = await mutation(input.worktree, m);
  if ("why" in target) return notRun(m, target.why);
  let run2;
  try {
    await putFile(target.file, target.mutated, target.held, one.k + 1);
    ctx.log.info(`mutation: ${m.path}:${m.line} ${m.mutation}`);
    run2 = await runSuite({ ...ctx, watch: null }, mutantRun(ctx, input, one, tests));
  } finally {
    await putFile(target.file, target.held.bytes, target.held, 0);
  }
  const report = trusted(run2, input.worktree, ctx);
  if ("why" in report) return notRun(m, report.why);
  return judgeMutant(m, tests, observe(report, await one.ids()));
}
async function mutation(worktree, m) {
  const file = await fileIn(worktree, m.path);
  if (typeof file !== "string") return file;
  const held = await holdFile(file);
  if ("why" in held) return held;
  const fits = m.start >= 0 && m.start <= m.end && m.end <= held.text.length;
  if (!fits || m.original !== void 0 && held.text.slice(m.start, m.end) !== m.original)
    return { why: "the file is not the text the mutant was made from" };
  const text2 = held.text.slice(0, m.start) + m.replacement + held.text.slice(m.end);
  return { file, held, mutated: Buffer.from(text2, "utf8") };
}
function mutantRun(ctx, input, { k, plan }, tests) {
  const selects = plan.selects && tests.length <= MAX_SELECTED;
  return {
    side: "head",
    worktree: input.worktree,
    attempt: MUTANT_ATTEMPTS + k,
    command: selects || !plan.selects ? plan.command : ctx.policy.suite.command,
    tests: selects ? tests : [],
    testArgs: selects ? rerunArgs(plan, tests) : [],
    logFile: input.log
  };
}
function trusted(run2, worktree, ctx) {
  if (run2.result.timedOut) return { why: `timed out after ${ctx.policy.suite.timeout}s` };
  if (run2.report === null) return { why: `no report (${run2.reportError ?? "unknown"})` };
  const judged = judgeStream(run2.report, run2.stream, worktree, detectRunner(ctx.policy.suite));
  if (judged.stream?.state === "tampered")
    return { why: "the outcome stream and the runner's report disagree" };
  return judged.report;
}
function judgeMutant(m, tests, seen) {
  const failing = (id) => seen.get(id)?.outcomes.some((o) => o === "failed" || o === "error") ?? false;
  const killer = tests.find(failing);
  if (killer !== void 0) return { ...m, killed_by: killer };
  const unloaded = tests.map((t) => `${fileOf2(t)}::<collection>`).find((c) => fileOf2(c) !== "" && failing(c));
  if (unloaded !== void 0)
    return {
      ...m,
      killed_by: null,
      not_run: `the mutant stopped ${unloaded.slice(0, -"::<collection>".length)} from loading (a collection error): no test judged it`
    };
  const missing = tests.filter((t) => !seen.has(t));
  if (missing.length > 0)
    return { ...m, killed_by: null, not_run: `${missing.length} selected test(s) did not report` };
  if (!tests.some((t) => seen.get(t)?.outcomes.includes("passed")))
    return { ...m, killed_by: null, not_run: "no selected test ran" };
  return { ...m, killed_by: null };
}
function fileOf2(id) {
  const at2 = id.indexOf("::");
  return at2 < 0 ? "" : id.slice(0, at2);
}
async function fileIn(worktree, path) {
  const parts2 = path.split("/");
  if (isAbsolute4(path) || parts2.some((p) => p === "" || p === "." || p === ".."))
    return { why: "not a path of the worktree" };
  try {
    const root = await realpath5(worktree);
    const dir = await realpath5(dirname9(join18(worktree, path)));
    if (dir !== root && !dir.startsWith(`${root}/`))
      return { why: "its folder leaves the worktree" };
    return join18(dir, basename6(path));
  } catch {
    return { why: "missing from the worktree" };
  }
}
async function holdFile(file) {
  const st = await lstat6(file).catch(() => null);
  if (st === null) return { why: "missing from the worktree" };
  if (!st.isFile()) return { why: "not a regular file" };
  const bytes = await readFile8(file);
  const text2 = bytes.toString("utf8");
  if (!Buffer.from(text2, "utf8").equals(bytes)) return { why: "not UTF-8 text" };
  return { bytes, text: text2, mode: st.mode & 4095, atime: st.atimeMs, mtime: st.mtimeMs };
}
async function putFile(file, bytes, held, later) {
  if (await realpath5(dirname9(file)) !== dirname9(file))
    throw new GateError(`mutation: the folder of ${file} was replaced during a run`);
  const temp = join18(dirname9(file), `.${neutralName()}`);
  try {
    await writeFile6(temp, bytes, { flag: "wx", mode: 384 });
    await chmod2(temp, held.mode);
    const mtime = (held.mtime + later * 1e3) / 1e3;
    await utimes2(temp, later === 0 ? held.atime / 1e3 : mtime, mtime);
    await rename2(temp, file);
  } finally {
    await rm6(temp, { force: true });
  }
}

// src/evidence/py-coverage.ts
function pyCoverage(input) {
  const wanted = new Map(input.changed.map((c) => [c.path, new Set(c.lines)]));
  const covered = /* @__PURE__ */ new Map();
  const byTest = /* @__PURE__ */ new Map();
  const problems = unmeasured(input.watched, input.changed);
  for (const event of input.watched?.events ?? []) {
    const record = coverRecord(event);
    const lines = record ? wanted.get(record.path) : void 0;
    if (!record || !lines) continue;
    const id = record.test ? input.idOf(record.test) : null;
    if (id !== null && !input.passing.has(id)) continue;
    for (const line2 of record.lines) {
      if (!lines.has(line2)) continue;
      mapSet(covered, record.path).add(line2);
      if (id !== null) addTest(byTest, record.path, line2, id);
    }
  }
  return { covered, byTest, ...problems.length > 0 ? { problems } : {} };
}
function unmeasured(watched, changed) {
  if (changed.length === 0) return [];
  const files = changed.map((c) => c.path).join(", ");
  if (watched === void 0 || watched.sessions === 0)
    return [
      `${files}: the head's runner did not load the gate's reporter with the watch plan, so no line's coverage is known`
    ];
  if (watched.dropped > 0)
    return [
      `${files}: ${watched.dropped} watch record(s) beyond the stream's cap were not read, so some lines may show uncovered`
    ];
  return [];
}
function coverRecord(r) {
  if (r.t !== "cover" || typeof r.path !== "string" || !Array.isArray(r.lines)) return null;
  const lines = r.lines.filter((n) => Number.isInteger(n) && n > 0);
  if (typeof r.name !== "string") return { path: r.path, lines, test: null };
  const test = {
    classname: typeof r.classname === "string" ? r.classname : "",
    name: r.name,
    suites: [],
    outcome: "passed",
    flaky: false
  };
  if (typeof r.file === "string") test.file = r.file;
  if (typeof r.line === "number") test.line = r.line;
  return { path: r.path, lines, test };
}
function mapSet(map, key4) {
  let set = map.get(key4);
  if (!set) map.set(key4, set = /* @__PURE__ */ new Set());
  return set;
}
function addTest(byTest, path, line2, id) {
  let lines = byTest.get(path);
  if (!lines) byTest.set(path, lines = /* @__PURE__ */ new Map());
  const ids = lines.get(line2) ?? [];
  if (!ids.includes(id)) ids.push(id);
  lines.set(line2, ids);
}

// src/evidence/index.ts
async function replayEvidence(ctx, wt, replayed) {
  if (ctx.policy.evidence.mode === "off") return { reasons: [] };
  const worktree = await wt.stage(await wt.head());
  const ids = async () => worktreeIdContext(
    worktree,
    await worktreeFiles(ctx, worktree),
    replayed.planeOf,
    ctx.policy.suite.report,
    { literalFiles: replayed.baseFiles, runner: detectRunner(ctx.policy.suite) }
  );
  const input = {
    worktree,
    head: replayed.head,
    votes: replayed.votes,
    ids,
    baseFiles: replayed.baseFiles,
    ...replayed.fidelity ? { fidelity: replayed.fidelity } : {}
  };
  if (replayed.shard)
    input.unavailable = "a shard runs part of the vote; evidence is measured on whole runs only";
  return guardGitState(
    ctx.git,
    { what: "the evidence runs", patchCode: true },
    () => evidenceStage(ctx, input)
  );
}
var MUTANTS_PER_FILE = 7;
async function evidenceStage(ctx, input) {
  const settings = ctx.policy.evidence;
  if (settings.mode === "off") return { reasons: [] };
  try {
    if (input.unavailable !== void 0) throw new Error(input.unavailable);
    return await measure(ctx, input, settings);
  } catch (error) {
    const why = `the evidence stage failed: ${errorMessage(error)}`;
    if (settings.mode === "enforce") throw new GateError(why, { path: ctx.policy.path });
    ctx.log.warning(why);
    return {
      evidence: { ...emptyCard(settings), skipped_reason: why },
      reasons: [{ rule: "diagnostic", level: "notice", message: why, path: ctx.policy.path }]
    };
  }
}
async function measure(ctx, input, settings) {
  const ranges = ctx.watch?.lines ?? {};
  const texts = /* @__PURE__ */ new Map();
  for (const path of Object.keys(ranges)) {
    const text2 = await ctx.git.showText(ctx.head, path);
    if (text2 !== null) texts.set(path, text2);
  }
  const changed = changedLines(ranges, (p) => texts.get(p) ?? null);
  const results = input.head.results;
  if (results === null) {
    const card2 = { ...emptyCard(settings), changed_lines: count(changed) };
    return {
      evidence: { ...card2, skipped_reason: "the head has no results (its vote is red)" },
      reasons: []
    };
  }
  const passing = passingVoting(results, input.votes);
  const coverage = await coverageOf(ctx, input, changed, passing);
  if (settings.mode === "enforce" && (coverage.problems?.length ?? 0) > 0)
    throw new Error(`coverage could not be measured: ${coverage.problems?.join("; ")}`);
  const outcomes = await mutation2(ctx, input, settings, { changed, coverage, passing, texts });
  const card = evidenceCard(settings, changed, coverage, outcomes);
  const problems = (card.problems ?? []).map((p) => ({
    rule: "diagnostic",
    level: "notice",
    message: `evidence: ${p}`
  }));
  return { evidence: card, reasons: [...problems, ...evidenceReasons(settings, card)] };
}
function passingVoting(results, votes) {
  const out2 = /* @__PURE__ */ new Set();
  for (const [id, o] of results)
    if (votes(o) && o.outcomes.length > 0 && o.outcomes.every((x) => x === "passed")) out2.add(id);
  return out2;
}
async function coverageOf(ctx, input, changed, passing) {
  const python = changed.filter((c) => languageOf3(c.path) === "python");
  const js = changed.filter((c) => languageOf3(c.path) === "js");
  const other = changed.filter((c) => languageOf3(c.path) === "other");
  const parts2 = [];
  if (python.length > 0) {
    const ids = await input.ids();
    const index = new FileIndex(ids);
    const idOf = (c) => canonicalId(c, ids, index).id;
    parts2.push(pyCoverage({ watched: input.head.firstWatched, changed: python, idOf, passing }));
  }
  if (js.length > 0)
    parts2.push(
      await jsCoverage(ctx, {
        worktree: input.worktree,
        changed: js,
        log: join19(ctx.tempDir, "head-js-coverage.log"),
        watched: input.head.firstWatched,
        passing
      })
    );
  if (other.length > 0)
    parts2.push({
      covered: /* @__PURE__ */ new Map(),
      problems: other.map((c) => `${c.path}: no coverage is measured for this language`)
    });
  return mergeCoverage(parts2);
}
function mergeCoverage(parts2) {
  const covered = /* @__PURE__ */ new Map();
  const byTest = /* @__PURE__ */ new Map();
  const executable = /* @__PURE__ */ new Map();
  const problems = [];
  for (const part of parts2) {
    for (const [path, lines] of part.covered) covered.set(path, new Set(lines));
    for (const [path, lines] of part.byTest ?? []) byTest.set(path, lines);
    for (const [path, lines] of part.executable ?? []) executable.set(path, new Set(lines));
    problems.push(...part.problems ?? []);
  }
  return {
    covered,
    byTest,
    ...executable.size > 0 ? { executable } : {},
    ...problems.length > 0 ? { problems } : {}
  };
}
async function mutation2(ctx, input, settings, m) {
  const max = settings.max_mutants ?? MUTANTS_PER_FILE * m.changed.length;
  const perFile = [];
  for (const { path } of m.changed) {
    const lines = m.coverage.covered.get(path);
    const text2 = m.texts.get(path);
    const language = parsedLanguageOf(path);
    if (!lines || lines.size === 0 || text2 === void 0 || !language) continue;
    perFile.push(await mutantsFor(path, language, text2, lines, max));
  }
  const mutants = selectMutants(perFile, max);
  if (mutants.length === 0) return [];
  const all = [...m.passing].sort();
  const testsFor = (x) => m.coverage.byTest?.get(x.path)?.get(x.line) ?? all;
  return runMutants(ctx, {
    worktree: input.worktree,
    mutants,
    testsFor,
    budgetSec: settings.budget_s,
    log: join19(ctx.tempDir, "head-mutants.log"),
    ...input.baseFiles ? { baseFiles: input.baseFiles } : {},
    ...input.fidelity ? { fidelity: input.fidelity } : {}
  });
}
function emptyCard(settings) {
  return {
    changed_lines: 0,
    covered_lines: 0,
    uncovered: [],
    mutants: [],
    budget_s: settings.budget_s
  };
}
var count = (changed) => changed.reduce((n, c) => n + c.lines.length, 0);
function evidenceCard(settings, changed, coverage, outcomes) {
  let covered = 0;
  let asked = 0;
  const uncovered = [];
  for (const c of changed) {
    const runnable = coverage.executable?.get(c.path);
    const { path } = c;
    const lines = runnable ? c.lines.filter((n) => runnable.has(n)) : c.lines;
    asked += lines.length;
    const ran = coverage.covered.get(path) ?? /* @__PURE__ */ new Set();
    const missed = lines.filter((n) => !ran.has(n));
    covered += lines.length - missed.length;
    if (missed.length > 0) uncovered.push({ path, lines: missed });
  }
  const mutants = outcomes.map((o) => ({
    path: o.path,
    line: o.line,
    mutation: o.mutation,
    killed_by: o.killed_by,
    ...o.not_run !== void 0 ? { not_run: o.not_run } : {}
  }));
  const card = {
    changed_lines: asked,
    covered_lines: covered,
    uncovered,
    mutants,
    budget_s: settings.budget_s
  };
  if (coverage.problems && coverage.problems.length > 0) card.problems = [...coverage.problems];
  return card;
}
function killFigures(card) {
  const run2 = card.mutants.filter((m) => m.not_run === void 0);
  return { run: run2.length, killed: run2.filter((m) => m.killed_by !== null).length };
}
var percent = (x) => `${Math.round(x * 100)} %`;
function linesText(lines) {
  return toRanges(lines).map(([a, b]) => a === b ? `${a}` : `${a}\u2013${b}`).join(", ");
}
function evidenceReasons(settings, card) {
  const reasons = [];
  for (const { path, lines } of card.uncovered)
    for (const [first2, last] of toRanges(lines))
      reasons.push({
        rule: "weak-evidence",
        level: "notice",
        path,
        line: first2,
        message: `changed line${first2 === last ? ` ${first2} runs` : `s ${first2}\u2013${last} run`} under no passing voting test`
      });
  const survivors = card.mutants.filter((m) => m.killed_by === null && m.not_run === void 0);
  for (const s of survivors)
    reasons.push({
      rule: "weak-evidence",
      level: "notice",
      path: s.path,
      line: s.line,
      message: `mutant ${s.mutation} survived: no voting test failed against it`
    });
  if (settings.mode !== "enforce") return reasons;
  const share = card.changed_lines === 0 ? 1 : card.covered_lines / card.changed_lines;
  const first = card.uncovered[0];
  if (share < settings.min_coverage && first)
    reasons.push({
      rule: "weak-evidence",
      level: "failure",
      path: first.path,
      line: first.lines[0] ?? 1,
      message: `the voting tests run ${card.covered_lines} of the patch's ${card.changed_lines} changed lines (${percent(share)}; evidence.min_coverage asks ${percent(settings.min_coverage)}); not run: ${card.uncovered.map((u) => `${u.path} line${u.lines.length === 1 ? "" : "s"} ${linesText(u.lines)}`).join("; ")}`
    });
  const { run: run2, killed } = killFigures(card);
  const ratio = run2 === 0 ? 1 : killed / run2;
  const survivor = survivors[0];
  if (ratio < settings.min_kill_ratio && survivor)
    reasons.push({
      rule: "weak-evidence",
      level: "failure",
      path: survivor.path,
      line: survivor.line,
      message: `the voting tests kill ${killed} of ${run2} mutants of the patch (${percent(ratio)}; evidence.min_kill_ratio asks ${percent(settings.min_kill_ratio)}); survivors: ${survivors.map((s) => `${s.path}:${s.line} ${s.mutation}`).join("; ")}`
    });
  const unjudged = card.mutants[0];
  if (run2 === 0 && unjudged !== void 0 && settings.min_kill_ratio > 0)
    reasons.push({
      rule: "weak-evidence",
      level: "failure",
      path: unjudged.path,
      line: unjudged.line,
      message: `none of the ${card.mutants.length} mutant(s) of the patch could be judged by the voting tests (${unjudged.path}:${unjudged.line}: ${unjudged.not_run ?? "not run"}); evidence.min_kill_ratio asks ${percent(settings.min_kill_ratio)} of them killed`
    });
  return reasons;
}

// src/lints/reach/types.ts
var REACH_CATEGORIES = [
  "framework",
  "markers",
  "introspection",
  "process",
  "instrument",
  "comparison",
  "echo"
];

// src/replay/reach-events.ts
var PER_FILE_CAP3 = 20;
var MAX_WHAT = 200;
function reachEvents(events, plan) {
  const out2 = [];
  let forged = 0;
  for (const e of events) {
    if (e.t !== "reach") continue;
    const { category, what, path, line: line2 } = e;
    const valid = typeof category === "string" && REACH_CATEGORIES.includes(category) && category !== "echo" && typeof what === "string" && typeof path === "string" && typeof line2 === "number" && Number.isInteger(line2) && onPlan(plan, path, line2);
    if (!valid) {
      forged++;
      continue;
    }
    out2.push({ category, what, path, line: line2 });
  }
  return { events: out2, forged };
}
function onPlan(plan, path, line2) {
  if (!Object.prototype.hasOwnProperty.call(plan.lines, path)) return false;
  return (plan.lines[path] ?? []).some(([first, last]) => line2 >= first && line2 <= last);
}
function runtimeReach(input) {
  const { level, policyPath } = input;
  const seen = /* @__PURE__ */ new Set();
  const byFile2 = /* @__PURE__ */ new Map();
  const notices = [];
  let forged = 0;
  let waived = 0;
  let unwatched = 0;
  let dropped = 0;
  for (const run2 of input.runs) {
    if (run2.fed && run2.watched < run2.started) unwatched++;
    dropped += run2.dropped;
    const parsed = reachEvents(run2.events, input.plan);
    forged += parsed.forged;
    for (const e of parsed.events) {
      const key4 = `${e.path}\0${e.line}\0${e.category}`;
      if (seen.has(key4)) continue;
      seen.add(key4);
      if (input.allowed(e.path, e.category)) {
        waived++;
        continue;
      }
      const soft = e.category === "process" && input.isEntry(e.path);
      const list2 = byFile2.get(e.path) ?? [];
      list2.push(reasonOf2(e, soft ? "notice" : level, soft));
      byFile2.set(e.path, list2);
    }
  }
  const reasons = [];
  for (const [path, list2] of byFile2) {
    reasons.push(...list2.slice(0, PER_FILE_CAP3));
    if (list2.length > PER_FILE_CAP3)
      reasons.push({
        rule: "oracle-reach",
        level,
        path,
        message: `${list2.length - PER_FILE_CAP3} more oracle-reach finding(s) at run time in this file`
      });
  }
  if (unwatched > 0)
    notices.push({
      rule: "diagnostic",
      level: "notice",
      path: policyPath,
      message: `${unwatched} run(s) of the head were not watched: the runner's session never read the watch plan the gate fed it, so what the patch's lines did at run time is not known (oracle-reach at run time did not run there)`
    });
  if (dropped > 0)
    notices.push({
      rule: "oracle-reach",
      level,
      path: policyPath,
      message: `${dropped} event(s) the gate's watchers sent were dropped beyond the cap of one run: what the patch's lines did at run time is not fully known`
    });
  return { reasons: [...reasons, ...notices], forged, waived };
}
function reasonOf2(e, level, soft) {
  const what = printable2(e.what, MAX_WHAT);
  const why = soft ? "allowed in a command-line entry point; make sure the locked tests never import this file" : `${WHY[e.category]}; ${ADVICE2}`;
  return {
    rule: "oracle-reach",
    level,
    path: e.path,
    line: e.line,
    message: `${e.category}: ${what} at run time \u2014 ${why}`
  };
}

// src/replay/fidelity.ts
var import_picomatch4 = __toESM(require_picomatch2(), 1);
import { createHash as createHash4 } from "node:crypto";
import { lstat as lstat7, readdir as readdir7, readFile as readFile9, readlink as readlink3 } from "node:fs/promises";
import { join as join20, posix as posix6 } from "node:path";

// src/replay/ignored.ts
var import_picomatch3 = __toESM(require_picomatch2(), 1);
var OUTPUT_DIRS = /* @__PURE__ */ new Set([
  ".git",
  "node_modules",
  "__pycache__",
  ".pytest_cache",
  ".hypothesis",
  ".venv",
  "venv",
  ".tox",
  ".nox",
  ".mypy_cache",
  ".ruff_cache",
  ".eggs",
  ".nyc_output",
  "coverage"
]);
var OUTPUT_NAMES = /(?:\.egg-info|\.dist-info)$|^\.coverage(?:\..*)?$/;
function ignoreMatcher(files) {
  const rules = [];
  const ordered = [...files].sort(([a], [b]) => a.split("/").length - b.split("/").length);
  for (const [file, text2] of ordered) {
    const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : "";
    for (const raw of text2.split(/\r?\n/)) rules.push(...compileLine(raw, dir));
  }
  const ignoredSelf = (path, isDir) => {
    const name2 = path.slice(path.lastIndexOf("/") + 1);
    if (name2 === ".git" || isDir && OUTPUT_DIRS.has(name2) || OUTPUT_NAMES.test(name2)) return true;
    let ignored = false;
    for (const rule of rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.dir !== "" && !path.startsWith(`${rule.dir}/`)) continue;
      const rel = rule.dir === "" ? path : path.slice(rule.dir.length + 1);
      if (rule.match(rel)) ignored = !rule.negate;
    }
    return ignored;
  };
  return (path, isDir) => {
    const parts2 = path.split("/");
    for (let i2 = 1; i2 < parts2.length; i2++)
      if (ignoredSelf(parts2.slice(0, i2).join("/"), true)) return true;
    return ignoredSelf(path, isDir);
  };
}
function compileLine(raw, dir) {
  let line2 = raw.replace(/(?<!\\)\s+$/, "");
  if (line2 === "" || line2.startsWith("#")) return [];
  const negate = line2.startsWith("!");
  if (negate) line2 = line2.slice(1);
  if (line2.startsWith("\\")) line2 = line2.slice(1);
  const dirOnly = line2.endsWith("/");
  if (dirOnly) line2 = line2.replace(/\/+$/, "");
  if (line2 === "") return [];
  const anchored2 = line2.includes("/");
  const glob = anchored2 ? line2.replace(/^\/+/, "") : `**/${line2}`;
  const match = (0, import_picomatch3.default)(glob, { dot: true });
  return [{ negate, dirOnly, match, dir }];
}

// src/replay/fidelity.ts
var MOMENT_TEXT = {
  checkout: "the checkout",
  overlay: "the instrument overlay",
  setup: "setup",
  run: "a run of the suite"
};
var SKIPPED_DIRS = /* @__PURE__ */ new Set([
  ".git",
  "node_modules",
  "__pycache__",
  ".pytest_cache",
  ".hypothesis"
]);
var CHECKOUT_HINT = " (the merge base's own checkout changed it: a .gitattributes eol, text, encoding or filter line over instrument files; the gate compares the bytes git stores, so drop that line for instrument paths on the base branch)";
var READ_BATCH = 64;
var MAX_REASONS = 10;
async function fidelitySpec(git, view, policy, headCounts = () => true) {
  const watched = (path) => {
    const found = view.runner.entryFor(path);
    const entry = found?.addedOnly ? null : found;
    if (entry?.part !== void 0) return entry;
    if (entry !== null || view.isInstrument(path) || view.fixturePaths.has(path)) return "file";
    return null;
  };
  const files = /* @__PURE__ */ new Map();
  const pinned = /* @__PURE__ */ new Map();
  const sectioned = [];
  for (const e of view.base.values()) {
    if (e.type !== "blob") continue;
    const w = watched(e.path);
    if (w === "file") {
      files.set(e.path, { mode: e.mode, sha: e.sha });
      continue;
    }
    if (w !== null) sectioned.push({ path: e.path, entry: w, sha: e.sha });
    if (view.planes.hasProduction && !headCounts(e.path))
      pinned.set(e.path, { mode: e.mode, sha: e.sha });
  }
  const blobs = await readBlobs(
    git,
    sectioned.map((s) => s.sha)
  );
  const sections = /* @__PURE__ */ new Map();
  for (const s of sectioned) {
    const text2 = blobs.get(s.sha)?.toString("utf8") ?? null;
    sections.set(s.path, { entry: s.entry, part: s.entry.part?.extract(text2) ?? "" });
  }
  const like = view.base.values().next().value?.sha ?? "0".repeat(40);
  const voting = [...view.base.keys()].filter((p) => view.planes.planeOf(p) === "voting");
  const anchors = [...alwaysProtected(policy), ...voting, ...view.fixturePaths];
  const outside = view.planes.hasProduction ? await outsideProduction(git, view, policy, pinned, headCounts) : null;
  return { files, sections, ...walkRoots(policy, anchors), watched, like, outside };
}
async function outsideProduction(git, view, policy, pinned, headCounts) {
  const ignores = [...view.base.values()].filter(
    (e) => e.type === "blob" && posix6.basename(e.path) === ".gitignore"
  );
  const blobs = await readBlobs(
    git,
    ignores.map((e) => e.sha)
  );
  const texts = new Map(ignores.map((e) => [e.path, blobs.get(e.sha)?.toString("utf8") ?? ""]));
  const gitignored = ignoreMatcher(texts);
  const reuse = policy.suite.reuse.map((d) => normalisePath(d));
  const ignored = (path, isDir) => reuse.some((d) => path === d || path.startsWith(`${d}/`)) || gitignored(path, isDir);
  return { pinned, base: new Set(view.base.keys()), headCounts, ignored };
}
function walkRoots(policy, anchors) {
  const deep = /* @__PURE__ */ new Set();
  for (const glob of [...policy.protected, ...policy.planes.voting, ...policy.runner_config]) {
    const scan = import_picomatch4.default.scan(glob);
    deep.add(scan.isGlob ? scan.base : posix6.dirname(scan.base));
  }
  const shallow = /* @__PURE__ */ new Set([""]);
  for (const path of anchors) {
    const parts2 = path.split("/");
    for (let i2 = 1; i2 < parts2.length; i2++) shallow.add(parts2.slice(0, i2).join("/"));
  }
  const roots = [...deep].map((d) => d === "." ? "" : d);
  return { deep: roots.includes("") ? [""] : roots.sort(), shallow: [...shallow].sort() };
}
function blobId2(bytes, like) {
  const hash = createHash4(like.length === 64 ? "sha256" : "sha1");
  hash.update(`blob ${bytes.length}\0`);
  hash.update(bytes);
  return hash.digest("hex");
}
async function diskEntry(full, like) {
  const info2 = await lstat7(full).catch(() => null);
  if (info2 === null) return null;
  if (info2.isSymbolicLink()) {
    const bytes2 = Buffer.from(await readlink3(full, { encoding: "buffer" }));
    return { mode: "120000", sha: blobId2(bytes2, like), bytes: bytes2 };
  }
  if (!info2.isFile()) return { mode: "not-a-file", sha: "", bytes: Buffer.alloc(0) };
  const bytes = await readFile9(full);
  return { mode: info2.mode & 64 ? "100755" : "100644", sha: blobId2(bytes, like), bytes };
}
async function instrumentLike(spec, worktree) {
  const found = /* @__PURE__ */ new Set();
  const visit2 = async (dir, deep) => {
    const entries = await readdir7(join20(worktree, dir), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const path = dir === "" ? e.name : `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (deep && !SKIPPED_DIRS.has(e.name)) await visit2(path, true);
      } else if (spec.watched(path) !== null) found.add(path);
    }
  };
  for (const dir of spec.deep) await visit2(dir, true);
  for (const dir of spec.shallow) await visit2(dir, false);
  return [...found].sort();
}
async function checkFidelity(spec, worktree, where) {
  const like = spec.like;
  const problems = await pinnedProblems(spec.files, worktree, like);
  for (const [path, want] of spec.sections) {
    const got = await diskEntry(join20(worktree, path), like);
    const text2 = got === null || got.mode === "not-a-file" ? null : got.bytes.toString("utf8");
    if ((want.entry.part?.extract(text2) ?? "") !== want.part)
      problems.push({ path, what: `has a different ${want.entry.part?.label ?? "runner part"}` });
  }
  for (const path of await instrumentLike(spec, worktree)) {
    if (spec.files.has(path) || spec.sections.has(path)) continue;
    const w = spec.watched(path);
    if (w !== "file" && w !== null) {
      const got = await diskEntry(join20(worktree, path), like);
      const text2 = got === null || got.mode === "not-a-file" ? null : got.bytes.toString("utf8");
      if ((w.part?.extract(text2) ?? "") === "") continue;
    }
    problems.push({ path, what: "appeared (it is not in the merge base)" });
  }
  const reasons = fidelityReasons(problems, where);
  if (spec.outside && where.side === "head") {
    const seen = new Set(problems.map((p) => p.path));
    const outside = (await outsideProblems(spec.outside, worktree, like)).filter(
      (p) => !seen.has(p.path)
    );
    reasons.push(...fidelityReasons(outside, where, "runner-tampered"));
  }
  return reasons;
}
async function pinnedProblems(pinned, worktree, like) {
  const problems = [];
  const entries = [...pinned];
  for (let i2 = 0; i2 < entries.length; i2 += READ_BATCH) {
    const batch = entries.slice(i2, i2 + READ_BATCH);
    const found = await Promise.all(batch.map(([path]) => diskEntry(join20(worktree, path), like)));
    batch.forEach(([path, want], k) => {
      const what = fileProblem(found[k] ?? null, want);
      if (what !== null) problems.push({ path, what });
    });
  }
  return problems;
}
async function outsideProblems(spec, worktree, like) {
  const problems = await pinnedProblems(spec.pinned, worktree, like);
  const visit2 = async (dir) => {
    const entries = await readdir7(join20(worktree, dir), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const path = dir === "" ? e.name : `${dir}/${e.name}`;
      const isDir = e.isDirectory();
      if (spec.ignored(path, isDir)) continue;
      if (isDir) await visit2(path);
      else if (!spec.base.has(path) && !spec.headCounts(path))
        problems.push({
          path,
          what: "appeared outside production code (it is not in the merge base)"
        });
    }
  };
  await visit2("");
  return problems.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
function fidelityReasons(problems, where, rule = "oracle-digest") {
  const what = rule === "oracle-digest" ? "the instrument on disk is not the merge base's" : "outside planes.production the vote must see the merge base's files and nothing else (setup and runs may write only into production paths and the output folders: the base's .gitignore and node_modules, .venv, caches)";
  const reasons = problems.slice(0, MAX_REASONS).map((p) => ({
    rule,
    level: "failure",
    path: p.path,
    message: `${where.side} worktree after ${MOMENT_TEXT[where.moment]}: ${printable3(p.path)} ${p.what}; ${what}, so this side's run cannot count${where.moment === "checkout" ? CHECKOUT_HINT : ""}`
  }));
  if (problems.length > MAX_REASONS) {
    const last = reasons[reasons.length - 1];
    if (last) last.message += ` (+${problems.length - MAX_REASONS} more paths)`;
  }
  return reasons;
}
function fileProblem(got, want) {
  if (got === null) return "is missing";
  if (got.mode !== want.mode) return `has mode ${got.mode}, not ${want.mode}`;
  if (got.sha !== want.sha)
    return `differs from the merge base's blob (${shortSha(got.sha)}, not ${shortSha(want.sha)})`;
  return null;
}
function printable3(path) {
  return /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(path) ? JSON.stringify(path) : path;
}
var fold = (path) => path.normalize("NFC").toLowerCase();
function foldCollisions(spec, base, head) {
  const folded = /* @__PURE__ */ new Map();
  for (const path of base.keys()) {
    const parts2 = path.split("/");
    for (let i2 = 1; i2 <= parts2.length; i2++) {
      const raw = parts2.slice(0, i2).join("/");
      if (!folded.has(fold(raw))) folded.set(fold(raw), raw);
    }
  }
  const problems = [];
  for (const path of head.keys()) {
    if (base.has(path)) continue;
    const parts2 = path.split("/");
    for (let i2 = parts2.length; i2 >= 1; i2--) {
      const prefix = parts2.slice(0, i2).join("/");
      const raw = folded.get(fold(prefix));
      if (raw === prefix) break;
      if (raw === void 0) continue;
      const lands = raw + path.slice(prefix.length);
      if (spec.watched(lands) !== null || spec.files.has(lands)) {
        problems.push({
          path,
          what: `is ${printable3(lands)} on a case-insensitive or normalising file system (macOS), an instrument path`
        });
      }
      break;
    }
  }
  return fidelityReasons(problems, { side: "head", moment: "overlay" });
}

// src/replay/patch-tests.ts
import { rm as rm7 } from "node:fs/promises";
import { join as join21 } from "node:path";
var TEST_PLANES2 = /* @__PURE__ */ new Set(["drafts", "in_diff"]);
function patchTestPlan(view, overlay, appended = []) {
  const handled = /* @__PURE__ */ new Set([...overlay.restore, ...overlay.remove]);
  const plan = {
    strip: { restore: [], remove: [] },
    headTests: [],
    probeFiles: [],
    probeTests: [],
    appended: []
  };
  for (const path of appended) {
    if (!view.head.has(path)) continue;
    plan.appended.push(path);
    plan.headTests.push(path);
    plan.probeFiles.push(path);
    plan.probeTests.push(path);
  }
  for (const path of view.changed) {
    if (handled.has(path) || view.isInstrument(path)) continue;
    const plane = view.planes.planeOf(path);
    const testFile = view.planes.isTestLike(path) && !isConftest(path);
    if (!TEST_PLANES2.has(plane) && !testFile && !isConftest(path)) continue;
    const atBase = view.base.has(path);
    const atHead = view.head.has(path);
    if (atHead && (testFile || !atBase)) plan.strip.remove.push(path);
    else if (atBase && !testFile) plan.strip.restore.push(path);
    if (!atHead || !TEST_PLANES2.has(plane)) continue;
    if (testFile) plan.headTests.push(path);
    if (plane === "in_diff") {
      plan.probeFiles.push(path);
      if (testFile) plan.probeTests.push(path);
    }
  }
  return plan;
}
function runPatchTests(ctx, wt, plan, overlay, planes) {
  ctx.log.info(
    `head: running the patch's ${plan.headTests.length} test file(s) in a worktree of their own (diagnostics; they never vote)`
  );
  return diagnosticRun(ctx, wt, planes, {
    name: "patch-tests",
    rev: ctx.head,
    side: "head",
    prepare: async (dir) => {
      await applyOverlay(ctx, dir, overlay);
      if (plan.appended.length > 0) await ctx.git.checkoutPaths(dir, ctx.head, plan.appended);
    },
    tests: plan.headTests,
    keep: plan.appended.length > 0 ? /* @__PURE__ */ new Set([...TEST_PLANES2, "voting"]) : TEST_PLANES2,
    attempt: 1e3
  });
}
function probeInDiff(ctx, wt, plan, planes) {
  ctx.log.info(
    `base: probing ${plan.probeTests.length} in-diff test file(s) of the patch against the base's code, in a worktree of their own`
  );
  return diagnosticRun(ctx, wt, planes, {
    name: "probe",
    rev: ctx.mergeBase,
    side: "base",
    prepare: async (dir) => {
      await ctx.git.checkoutPaths(dir, ctx.head, plan.probeFiles);
    },
    tests: plan.probeTests,
    keep: new Set(plan.appended.length > 0 ? ["in_diff", "voting"] : ["in_diff"]),
    attempt: 2e3
  });
}
async function diagnosticRun(ctx, wt, planes, run2) {
  const dir = await wt.add(run2.name, run2.rev);
  await run2.prepare(dir);
  await removeOtherTests(ctx, dir, run2.tests, planes);
  const logFile = join21(ctx.tempDir, `${run2.name}.log`);
  const setup = await prepareWorktree(
    ctx,
    run2.side,
    dir,
    join21(ctx.tempDir, `${run2.name}-setup.log`),
    wt.share
  );
  wt.track(dir, setup.links ?? []);
  if (!setup.ok) {
    ctx.log.warning(
      `${run2.name}: setup failed, no diagnostics from the patch's tests (${setup.reason})`
    );
    return null;
  }
  const result = await runSuite(ctx, {
    side: run2.side,
    worktree: dir,
    attempt: run2.attempt,
    ...targetedCommand(ctx.policy.suite, run2.tests),
    logFile
  });
  if (result.report === null) {
    ctx.log.warning(`${run2.name}: no report (${result.reportError ?? "unknown"}); log ${logFile}`);
    return null;
  }
  const planeOf = (p) => planes.planeOf(p);
  const ids = worktreeIdContext(
    dir,
    await worktreeFiles(ctx, dir),
    planeOf,
    ctx.policy.suite.report,
    { runner: detectRunner(ctx.policy.suite) }
  );
  const observed = observe(result.report, ids);
  for (const [id, o] of observed)
    if (o.file === null || !run2.keep.has(planeOf(o.file))) observed.delete(id);
  return observed;
}
function targetedCommand(suite, files) {
  const plan = rerunPlan(suite);
  const tests = plan.runner === "jest" ? files.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : [...files];
  if (plan.selects) return { command: plan.command, tests };
  return { command: `${suite.command} ${tests.map(shellQuote).join(" ")}`, tests };
}
async function removeOtherTests(ctx, dir, keep2, planes) {
  const kept2 = new Set(keep2);
  for (const path of await worktreeFiles(ctx, dir)) {
    if (kept2.has(path) || isConftest(path) || !planes.isTestLike(path)) continue;
    await rm7(join21(dir, path), { force: true });
  }
}

// src/replay/seeds.schema.json
var seeds_schema_default = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://oracle-gate.dev/schema/seed-corpus-v1.json",
  title: "oracle-gate seed corpus group",
  description: "One group of the seed corpus (the corpus file holds one group or a list of them). Read from the merge base. Unique seed ids across the corpus are checked in code.",
  type: "object",
  required: ["property", "seeds"],
  properties: {
    property: { type: "string", description: "The property the seeds exercise." },
    seeds: {
      type: "array",
      items: {
        type: "object",
        required: ["id", "payload"],
        properties: {
          id: {
            type: ["string", "number"],
            description: "Unique in the corpus; numbers are read as their decimal string."
          },
          payload: { description: "Any JSON value; handed to the seeds command as is." }
        }
      }
    }
  }
};

// src/replay/simhash.ts
import { createHash as createHash5 } from "node:crypto";
var SHINGLE = 3;
function simhash(text2, k = SHINGLE) {
  const weights = new Int32Array(64);
  const padded = text2.length < k ? text2.padEnd(k, "\0") : text2;
  for (let i2 = 0; i2 + k <= padded.length; i2++) {
    const shingle = padded.slice(i2, i2 + k);
    const hi2 = murmur3(shingle, 2538058380);
    const lo2 = murmur3(shingle, 1540483477);
    for (let b = 0; b < 32; b++) {
      weights[b] = (weights[b] ?? 0) + (hi2 >>> b & 1 ? 1 : -1);
      weights[b + 32] = (weights[b + 32] ?? 0) + (lo2 >>> b & 1 ? 1 : -1);
    }
  }
  let hi = 0;
  let lo = 0;
  for (let b = 0; b < 32; b++) {
    if ((weights[b] ?? 0) > 0) hi |= 1 << b;
    if ((weights[b + 32] ?? 0) > 0) lo |= 1 << b;
  }
  return [hi >>> 0, lo >>> 0];
}
function popcount32(x) {
  let v = x >>> 0;
  v = v - (v >>> 1 & 1431655765);
  v = (v & 858993459) + (v >>> 2 & 858993459);
  return (v + (v >>> 4) & 252645135) * 16843009 >>> 24;
}
function hamming64(a, b) {
  return popcount32(a[0] ^ b[0]) + popcount32(a[1] ^ b[1]);
}
function payloadDistance(kind) {
  const cache = /* @__PURE__ */ new Map();
  const print = (payload) => {
    let p = cache.get(payload);
    if (p === void 0) {
      const text2 = canonicalJson(payload);
      p = kind === "simhash" ? simhash(text2) : new Uint8Array(createHash5("sha256").update(text2).digest());
      cache.set(payload, p);
    }
    return p;
  };
  return (a, b) => {
    const pa = print(a);
    const pb = print(b);
    if (Array.isArray(pa) && Array.isArray(pb)) return hamming64(pa, pb);
    let d = 0;
    const x = pa;
    const y = pb;
    for (let i2 = 0; i2 < x.length; i2++) d += popcount32((x[i2] ?? 0) ^ (y[i2] ?? 0));
    return d;
  };
}
function keepDistinct(items, payload, min, distance) {
  const kept2 = [];
  for (const item of items) {
    if (kept2.every((k) => distance(payload(k), payload(item)) >= min)) kept2.push(item);
  }
  return kept2;
}
function murmur3(key4, seed) {
  let h = seed >>> 0;
  const c1 = 3432918353;
  const c2 = 461845907;
  for (let i2 = 0; i2 < key4.length; i2++) {
    let k = key4.charCodeAt(i2);
    k = Math.imul(k, c1);
    k = k << 15 | k >>> 17;
    k = Math.imul(k, c2);
    h ^= k;
    h = h << 13 | h >>> 19;
    h = Math.imul(h, 5) + 3864292196 | 0;
  }
  h ^= key4.length;
  h ^= h >>> 16;
  h = Math.imul(h, 2246822507);
  h ^= h >>> 13;
  h = Math.imul(h, 3266489909);
  h ^= h >>> 16;
  return h >>> 0;
}

// src/replay/seeds.ts
function parseCorpus(text2, path) {
  let data;
  try {
    data = JSON.parse(text2);
  } catch (error) {
    throw new GateError(
      `seed corpus ${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      {
        rule: "config-invalid",
        path
      }
    );
  }
  const groups = Array.isArray(data) ? data : [data];
  const validate = schemaValidator(seeds_schema_default);
  const seeds = [];
  const seen = /* @__PURE__ */ new Set();
  groups.forEach((group, g) => {
    const where = Array.isArray(data) ? `[${g}]` : "";
    const [issue] = validate(group);
    if (issue) {
      throw new GateError(
        `seed corpus ${path}${where} must be {"property": NAME, "seeds": [{"id", "payload"}, ...]}: ${formatIssue(issue)}`,
        { rule: "config-invalid", path }
      );
    }
    const { property, seeds: listed2 } = group;
    for (const seed of listed2) {
      const id = String(seed.id);
      if (seen.has(id))
        throw new GateError(`seed corpus ${path}: seed id "${id}" appears twice`, {
          rule: "config-invalid",
          path
        });
      seen.add(id);
      seeds.push({ id, property, payload: seed.payload });
    }
  });
  return seeds;
}
function seedLines(seeds) {
  return seeds.map((s) => `${JSON.stringify({ id: s.id, property: s.property, payload: s.payload })}
`).join("");
}
function parseAnswers(stdout) {
  const answers = /* @__PURE__ */ new Map();
  for (const line2 of stdout.split("\n")) {
    const text2 = line2.trim();
    if (!text2.startsWith("{")) continue;
    try {
      const answer = JSON.parse(text2);
      if (isRecord(answer) && (typeof answer.id === "string" || typeof answer.id === "number") && typeof answer.ok === "boolean") {
        answers.set(String(answer.id), answer.ok);
      }
    } catch {
    }
  }
  return answers;
}
async function runSeeds(settings, worktree, seeds, env, logFile, wrap) {
  const result = await runShell({
    command: settings.command,
    cwd: worktree,
    env,
    ...wrap ? { wrap } : {},
    timeoutSec: settings.timeout,
    logFile,
    input: seedLines(seeds),
    captureStdout: true
  });
  return { answers: parseAnswers(result.stdout), result };
}
function scoreSeeds(seeds, base, head, settings) {
  const reasons = [];
  const order = new Intl.Collator("en", { numeric: true });
  const hits2 = seeds.filter((s) => base.get(s.id) === false && head.get(s.id) === true).sort((a, b) => order.compare(a.id, b.id));
  const regressions = seeds.filter((s) => base.get(s.id) === true && head.get(s.id) !== true).map((s) => s.id);
  if (settings.distance === "sha256") {
    reasons.push({
      rule: "diagnostic",
      message: "seeds.distance is sha256: digest distances of distinct payloads are ~128 bits, so min_distance filters nothing; use simhash",
      path: settings.corpus,
      level: "warning"
    });
  }
  const kept2 = keepDistinct(
    hits2,
    (s) => s.payload,
    settings.min_distance,
    payloadDistance(settings.distance)
  );
  if (regressions.length > 0) {
    const shown2 = regressions.slice(0, 10).join(", ");
    const more = regressions.length > 10 ? ` and ${regressions.length - 10} more` : "";
    reasons.push({
      rule: "seed-regression",
      message: `${regressions.length} seed(s) pass on the base and fail (or go unanswered) on head: ${shown2}${more}`,
      path: settings.corpus,
      level: "failure"
    });
  }
  if (kept2.length < settings.min_hits) {
    reasons.push({
      rule: "insufficient-hits",
      message: `${kept2.length} distinct seed hit(s) (of ${hits2.length} fail-to-pass, min_distance ${settings.min_distance}); the policy asks for ${settings.min_hits}`,
      path: settings.corpus,
      level: "failure"
    });
  }
  return {
    summary: {
      oracle_hits: kept2.length,
      raw_fail_to_pass: hits2.length,
      min_distance: settings.min_distance,
      hit_ids: kept2.map((s) => s.id)
    },
    reasons
  };
}
async function loadCorpus(ctx, settings) {
  const text2 = await ctx.git.showText(ctx.mergeBase, settings.corpus);
  if (text2 === null) {
    throw new GateError(`seed corpus ${settings.corpus} does not exist at the merge base`, {
      rule: "config-invalid",
      path: settings.corpus
    });
  }
  return parseCorpus(text2, settings.corpus);
}

// src/replay/side.ts
import { join as join22 } from "node:path";
async function runSide(ctx, opts) {
  return (await startSide(ctx, opts)).rest();
}
function sideState(ctx, opts) {
  const run2 = {
    side: opts.side,
    exit_code: null,
    timed_out: false,
    duration_ms: 0,
    tests: 0
  };
  const started = Date.now();
  const watch = new RunWatch(opts.side, opts.canary ?? null);
  const duplicates = /* @__PURE__ */ new Set();
  const finish = (outcome) => {
    run2.duration_ms = Date.now() - started;
    const trip = {
      records: watch.records,
      watched: watch.watched,
      duplicates: [...duplicates].sort()
    };
    return { side: opts.side, run: run2, ...outcome, ...trip };
  };
  const tampered2 = async (moment) => {
    const found = await opts.fidelity(moment);
    if (found.length === 0) return null;
    ctx.log.warning(`${opts.side}: the instrument on disk changed (${moment}); no results`);
    return finish({ results: null, tampered: found });
  };
  const logFile = join22(ctx.tempDir, `${opts.side}-suite.log`);
  return { run: run2, watch, duplicates, logFile, finish, tampered: tampered2 };
}
async function startSide(ctx, opts) {
  const state = sideState(ctx, opts);
  const done = (outcome) => ({ rest: () => Promise.resolve(outcome) });
  const before = await state.tampered(opts.prepared);
  if (before) return done(before);
  const notReady = await setupSide(ctx, opts, state.run);
  if (notReady !== null) return done(state.finish({ results: null, failure: notReady }));
  const afterSetup = await state.tampered("setup");
  if (afterSetup) return done(afterSetup);
  const first = await firstRun(ctx, opts, state.run, state.logFile, state.watch);
  const afterRun = await state.tampered("run");
  if (afterRun) return done(afterRun);
  return { rest: () => restOfSide(ctx, opts, state, first) };
}
async function restOfSide(ctx, opts, state, first) {
  const { finish, tampered: tampered2 } = state;
  const seeded = opts.seeds ? await seedAnswers(ctx, opts.side, opts.worktree, opts.seeds) : void 0;
  const afterSeeds = opts.seeds ? await tampered2("run") : null;
  if (afterSeeds) return afterSeeds;
  const withSeeds = (o) => seeded ? { ...o, ...seeded } : o;
  if ("failure" in first) return finish(withSeeds({ results: null, failure: first.failure }));
  const firstWatched = first.watched ? { firstWatched: first.watched } : {};
  const ids = lazyIds(ctx, opts);
  const results = kept(observe(first.report, await ids(), state.duplicates), opts.keep);
  const rerunTampered = await rerunSide(ctx, opts, results, ids, state.logFile, state.watch);
  if (rerunTampered.length > 0) return finish({ results: null, tampered: rerunTampered });
  return finish(withSeeds({ results: kept(results, opts.keep), ...firstWatched }));
}
function kept(results, keep2) {
  if (!keep2) return results;
  for (const [id, o] of results) if (!keep2(o)) results.delete(id);
  return results;
}
async function setupSide(ctx, opts, run2) {
  const { side, worktree } = opts;
  const log = join22(ctx.tempDir, `${side}-setup.log`);
  const setup = await prepareWorktree(ctx, side, worktree, log, opts.share);
  opts.track(setup.links ?? []);
  run2.setup = setup.mode;
  run2.setup_reason = setup.reason;
  if (setup.ok) return null;
  const what = setup.timedOut ? "timed out" : "failed";
  run2.timed_out = setup.timedOut;
  if (setup.tail) run2.log_tail = setup.tail;
  if (side === "base") {
    throw new GateError(
      `setup ${what} on the base, so nothing can be measured:
${setup.tail ?? ""}`,
      {
        path: ctx.policy.path
      }
    );
  }
  return failure("setup-failed", `setup ${what} on head:
${setup.tail ?? ""}`, ctx);
}
async function firstRun(ctx, opts, run2, logFile, watch) {
  const { side, worktree } = opts;
  const suite = ctx.policy.suite;
  ctx.log.info(`${side}: running the suite`);
  const command = opts.first?.command ?? suite.command;
  const testArgs = opts.first ? { testArgs: opts.first.testArgs } : {};
  opts.onFirstRun?.();
  const first = await watch.run(
    ctx,
    { side, worktree, attempt: 0, command, logFile, ...testArgs },
    true
  );
  run2.exit_code = first.result.exitCode;
  run2.timed_out = first.result.timedOut;
  run2.log_tail = first.result.tail;
  if (first.result.timedOut) {
    return {
      failure: failure(
        "suite-timeout",
        `the suite timed out on ${side} after ${suite.timeout}s (a timed-out side is a red vote):
${first.result.tail}`,
        ctx
      )
    };
  }
  if (first.report === null) {
    if (first.result.head) run2.log_head = first.result.head;
    const message2 = `the suite left no readable report on ${side} (${first.reportError ?? "unknown"}); output head:
${await logHead(logFile)}
\u2026
output tail:
${first.result.tail}`;
    if (side === "base") throw new GateError(message2, { path: ctx.policy.path });
    return {
      failure: failure("oracle-failed", `${message2}
(a missing report is not a pass)`, ctx)
    };
  }
  run2.tests = first.report.cases.length;
  const stream = first.stream;
  if (stream?.state !== "read") return { report: first.report };
  const watched = { events: stream.events, sessions: stream.watched, dropped: stream.dropped };
  return { report: first.report, watched };
}
function lazyIds(ctx, opts) {
  let ids = null;
  return async () => ids ??= worktreeIdContext(
    opts.worktree,
    await worktreeFiles(ctx, opts.worktree),
    opts.planeOf,
    ctx.policy.suite.report,
    { literalFiles: opts.baseFiles, runner: detectRunner(ctx.policy.suite) }
  );
}
async function rerunSide(ctx, opts, results, ids, logFile, watch) {
  const { side, worktree } = opts;
  const suite = ctx.policy.suite;
  const plan = rerunPlan(suite);
  let tampered2 = [];
  const reruns = await rerunFailures({
    results,
    reruns: suite.reruns,
    plan,
    eligible: opts.rerunnable,
    ids,
    incidental: side === "base",
    run: async (attempt, tests) => {
      if (tampered2.length > 0) return null;
      ctx.log.info(
        `${side}: rerun ${attempt}${tests ? ` of ${tests.length} failing test(s)` : " of the whole suite"}`
      );
      const again = await watch.run(ctx, {
        side,
        worktree,
        attempt,
        command: plan.command,
        tests: tests ?? [],
        testArgs: tests ? rerunArgs(plan, tests) : [],
        logFile
      });
      tampered2 = await opts.fidelity("run");
      if (tampered2.length > 0) return null;
      if (again.report === null)
        ctx.log.warning(
          `${side}: rerun ${attempt} gave no report (${again.reportError ?? "unknown"})`
        );
      return again.report;
    }
  });
  if (reruns > 0) ctx.log.info(`${side}: ${reruns} rerun(s)`);
  return tampered2;
}
async function seedAnswers(ctx, side, worktree, seeds) {
  const settings = ctx.policy.seeds;
  if (!settings) return { seeds: /* @__PURE__ */ new Map() };
  ctx.log.info(`${side}: replaying ${seeds.length} seed(s)`);
  const env = await sideEnv(ctx);
  const place = placement(ctx, worktree);
  const run2 = await runSeeds(
    settings,
    place.cwd,
    seeds,
    env,
    join22(ctx.tempDir, `${side}-seeds.log`),
    place.wrap
  );
  return seedOutcome(side, seeds.length, run2, settings);
}
function seedOutcome(side, asked, { answers, result }, settings) {
  if (side === "base" && (result.failure !== void 0 || asked > 0 && answers.size === 0)) {
    const why = result.failure ?? (result.timedOut ? `timed out after ${settings.timeout}s` : `exit ${result.exitCode ?? result.signal}`);
    throw new GateError(
      `the seeds command answered no seed on the base (${why}):
${result.tail}`,
      { path: settings.corpus }
    );
  }
  if (result.failure === void 0) return { seeds: answers };
  const message2 = `the seeds command on head: ${result.failure}, so no seed counts as answered on head`;
  return {
    seeds: answers,
    seedsFailure: { rule: "seed-regression", message: message2, path: settings.corpus, level: "failure" }
  };
}
function failure(rule, message2, ctx) {
  return { rule, message: message2, path: ctx.policy.path, level: "failure" };
}

// src/replay/transitions.ts
var STALE_NAMED = 10;
function finalOf(o) {
  const kinds = new Set(o.outcomes.map((x) => x === "error" ? "failed" : x));
  if (o.runnerFlaky || kinds.size > 1) return "K";
  const only = o.outcomes[0];
  return only === "passed" ? "P" : only === "skipped" ? "S" : "F";
}
function score(input) {
  const s = scoring(input);
  scoreFlakes(s);
  scoreIncidental(s);
  if (input.head !== null) {
    scoreHead(s, input.head);
    scoreVanished(s, input.head);
  }
  scoreStaleRows(s);
  scoreNonDiscriminating(s);
  scoreDuplicates(s);
  sortTransitions(s.transitions);
  const { reasons, votes, transitions, flakes, diagnostics } = s;
  return { reasons, votes, transitions, flakes, diagnostics };
}
function scoring(input) {
  const s = {
    input,
    reasons: [],
    votes: emptyVotes(),
    transitions: emptyTransitions(),
    flakes: [],
    diagnostics: emptyDiagnostics(),
    roleOf: (o) => roleOf(input, o),
    bucket: (id) => {
      const name2 = input.classOf(id) ?? UNCLASSIFIED;
      return s.votes.by_class[name2] ??= { passed: 0, failed: 0, frozen: 0 };
    },
    fail: (rule, message2, o) => s.warn(rule, message2, o, "failure"),
    warn: (rule, message2, o, level = "warning") => {
      const reason2 = { rule, message: message2, level };
      if (o?.file) reason2.path = o.file;
      if (o?.line !== void 0) reason2.line = o.line;
      s.reasons.push(reason2);
    }
  };
  return s;
}
function roleOf(input, o) {
  if (o.file === null) return "unmapped";
  if (o.provisional && !["P", "S"].includes(finalOf(o))) return "unmapped";
  if (input.added?.has(o.id)) return "in_diff";
  const plane = input.planeOf(o.file);
  if (plane === "voting") {
    if (input.live.has(o.id)) return "frozen";
    return input.classOf(o.id) === "judge" ? "judge" : "vote";
  }
  if (plane === "drafts") return "draft";
  if (plane === "in_diff") return "in_diff";
  return "none";
}
function scoreFlakes(s) {
  for (const [side, results] of [
    ["base", s.input.base],
    ["head", s.input.head]
  ]) {
    if (results === null) continue;
    for (const o of results.values()) {
      if (finalOf(o) !== "K") continue;
      const role = s.roleOf(o);
      const row = {
        test: o.id,
        side,
        outcomes: o.runnerFlaky ? [...o.outcomes, "flaky-in-runner"] : [...o.outcomes]
      };
      const ledger = s.input.live.get(o.id);
      if (ledger) row.ledger_id = ledger.id;
      if (role === "vote" || role === "frozen" || role === "judge") s.flakes.push(row);
      if (role !== "vote") continue;
      const seen = row.outcomes.join(", ");
      s.fail(
        "flaky-oracle",
        side === "base" ? `${o.id} gave different outcomes on the base (${seen}): the oracle is a coin, so its vote means nothing; fix the test or freeze it in the ledger` : `${o.id} gave different outcomes on the head (${seen}) and has no live ledger row`,
        o
      );
    }
  }
}
function scoreIncidental(s) {
  for (const o of s.input.base.values()) {
    const extra = o.incidental ?? [];
    if (extra.length === 0 || finalOf(o) === "K" || s.roleOf(o) !== "vote") continue;
    const differs = extra.some(
      (x) => (x === "error" ? "failed" : x) !== (o.outcomes[0] === "error" ? "failed" : o.outcomes[0])
    );
    if (!differs) continue;
    const outcomes = [...o.outcomes, ...extra];
    s.flakes.push({ test: o.id, side: "base", outcomes });
    s.warn(
      "flaky-oracle",
      `${o.id} gave different outcomes on the base (${outcomes.join(", ")}) only in whole-suite reruns of other tests: the oracle may be flaky, which is not held against this patch; freeze it with a ledger row such as ${ledgerRow(o.id, s.input.today)}`,
      o
    );
  }
}
function ledgerRow(test, today) {
  const day = today ?? "YYYY-MM-DD";
  return `{id: flake-<n>, test: ${JSON.stringify(test)}, cause: order, reason: "passes alone, failed in a whole-suite rerun on the base", owner: <you>, first_seen: "${day}", expires_on: "<= ${day} + ledger_max_days>", max_runs: 3}`;
}
function scoreHead(s, head) {
  let executed = 0;
  for (const h of head.values()) {
    const role = s.roleOf(h);
    const hf = finalOf(h);
    const b = s.input.base.get(h.id);
    if (role === "frozen") {
      s.votes.frozen++;
      s.bucket(h.id).frozen++;
    } else if (role === "judge") {
      if (hf === "P") s.bucket(h.id).passed++;
      else if (hf === "F") s.bucket(h.id).failed++;
    } else if (role === "draft") {
      if (hf !== "S") s.votes.drafts++;
      s.diagnostics.drafts[h.id] = describe3(h);
    } else if (role === "in_diff") {
      scoreInDiff(s, h, hf, b);
    } else if (role === "unmapped") {
      if (hf === "F") {
        s.fail(
          "oracle-failed",
          `${h.id} fails on head and its file could not be determined from the report, so it may be a voting test (configure the reporter to write file names)`,
          h
        );
      }
    } else if (role === "vote") {
      if (hf !== "S") executed++;
      scoreVoting(h, hf, b ?? null, b ? finalOf(b) : null, s);
    }
  }
  if (executed === 0) {
    s.reasons.push({
      rule: "empty-vote",
      message: "no voting test ran on head (none collected, all skipped, frozen or judge-class): unscored is not passed",
      path: s.input.policyPath,
      level: "failure"
    });
  }
}
function scoreInDiff(s, h, hf, b) {
  const inDiff = s.diagnostics.in_diff ??= {};
  inDiff[h.id] = describe3(h);
  const written = h.file !== null && s.input.written.has(h.file);
  if (hf === "F" && written) {
    const why = h.message ? `: ${h.message}` : "";
    s.warn(
      "diagnostic",
      `${h.id}, a test the patch wrote, fails on head${why} (it does not vote; a test written for a fix should pass with it)`,
      h
    );
  }
  const onBase = s.input.inDiffOnBase?.get(h.id) ?? b;
  if (onBase) (s.diagnostics.in_diff_base ??= {})[h.id] = describe3(onBase);
  if (hf === "P" && onBase && finalOf(onBase) === "P" && written)
    s.diagnostics.non_discriminating.push(h.id);
}
function scoreVanished(s, head) {
  for (const b of s.input.base.values()) {
    if (head.has(b.id) || s.roleOf(b) !== "vote") continue;
    s.transitions.vanished.push(b.id);
    s.fail("vanished-oracle", `${b.id} ran on the base and is missing from the head's report`, b);
  }
}
function scoreStaleRows(s) {
  const stale = [];
  for (const [test, row] of s.input.live) {
    if (s.input.base.has(test) || s.input.head?.has(test)) continue;
    stale.push(`${row.id} (${test})`);
  }
  if (stale.length === 0) return;
  const shown2 = stale.slice(0, STALE_NAMED).join(", ");
  const more = stale.length > STALE_NAMED ? ` and ${stale.length - STALE_NAMED} more` : "";
  const reason2 = {
    rule: "ledger-stale",
    message: stale.length === 1 ? `ledger row ${shown2} freezes a test that no longer exists in the suite; remove the row` : `${stale.length} ledger rows freeze tests that no longer exist in the suite: ${shown2}${more}; remove them`,
    level: "warning"
  };
  if (s.input.ledgerPath) reason2.path = s.input.ledgerPath;
  s.reasons.push(reason2);
}
function scoreNonDiscriminating(s) {
  for (const id of s.diagnostics.non_discriminating) {
    s.warn(
      "non-discriminating",
      `${id} passes on the base as well as on the head: a test written for a fix should fail without it`,
      s.input.head?.get(id),
      "notice"
    );
  }
}
function scoreDuplicates(s) {
  const dup = s.input.duplicates;
  if (!dup) return;
  const ids = [.../* @__PURE__ */ new Set([...dup.base, ...dup.head])].sort();
  if (ids.length === 0) return;
  const shown2 = ids.slice(0, 20).join("; ");
  const more = ids.length > 20 ? ` and ${ids.length - 20} more` : "";
  s.reasons.push({
    rule: "diagnostic",
    message: `${ids.length} test id(s) are shared by more than one test in a report, so each counts once, with its worst outcome on each side: ${shown2}${more}; give the tests distinct names`,
    path: s.input.policyPath,
    level: "warning"
  });
}
function scoreVoting(h, hf, b, bf, s) {
  const count2 = (passed) => {
    if (passed) s.votes.passed++;
    else s.votes.failed++;
    s.bucket(h.id)[passed ? "passed" : "failed"]++;
  };
  if (hf === "K") {
    count2(false);
    return;
  }
  if (hf === "S") {
    if (bf === "P") {
      count2(false);
      s.transitions.pass_to_fail.push(h.id);
      s.fail(
        "regression",
        `${h.id} passed on the base and is skipped on head: a skip is not a pass`,
        h
      );
    } else if (bf === "F") {
      count2(false);
      s.transitions.fail_to_fail.push(h.id);
      s.fail(
        "oracle-failed",
        `${h.id} failed on the base and is skipped on head: a skip is not a pass`,
        h
      );
    }
    return;
  }
  if (hf === "P") {
    count2(true);
    if (bf === "P") s.transitions.pass_to_pass++;
    else if (bf === "F") s.transitions.fail_to_pass.push(h.id);
    return;
  }
  count2(false);
  const why = h.message ? `: ${h.message}` : "";
  if (bf === "P") {
    s.transitions.pass_to_fail.push(h.id);
    s.fail("regression", `${h.id} passed on the base and fails on head${why}`, h);
  } else if (bf === "F") {
    s.transitions.fail_to_fail.push(h.id);
    s.fail("oracle-failed", `${h.id} fails on the base and still fails on head${why}`, h);
  } else {
    s.fail("oracle-failed", `${h.id} fails on head${why}`, h);
  }
}
function describe3(o) {
  const f = finalOf(o);
  return f === "K" ? `flaky (${o.outcomes.join(", ")})` : o.outcomes[0] ?? "missing";
}
function sortTransitions(t) {
  for (const list2 of [t.fail_to_pass, t.pass_to_fail, t.fail_to_fail, t.vanished]) list2.sort();
}

// src/replay/unmeasured.ts
var SHOWN = 10;
var RED_VOTE = /* @__PURE__ */ new Set([
  "oracle-failed",
  "regression",
  "vanished-oracle",
  "setup-failed",
  "suite-timeout",
  "empty-vote"
]);
function list(paths2) {
  const shown2 = paths2.slice(0, SHOWN).map(printable3).join(", ");
  return paths2.length > SHOWN ? `${shown2} (+${paths2.length - SHOWN} more)` : shown2;
}
function unmeasuredReasons(ctx, unmeasured2, reasons) {
  const path = ctx.policy.path;
  if (!ctx.planes.hasProduction) {
    return [
      {
        rule: "diagnostic",
        level: "notice",
        path,
        message: 'the policy has no planes.production: the vote uses every file of the head except the instrument and the known runner configuration, so a Makefile, a script or a config file of a name the gate does not know can change what the vote sees; name the production code (planes.production, docs/instrument.md "The production plane") so that the vote takes everything else from the merge base'
      }
    ];
  }
  if (unmeasured2.length === 0) return [];
  const out2 = [
    {
      rule: "not-measured",
      level: "notice",
      path,
      message: `not measured: the vote used the merge base's version of ${unmeasured2.length} path(s) the head changed outside planes.production: ${list(unmeasured2)}`
    }
  ];
  const red = reasons.some((r) => r.level === "failure" && RED_VOTE.has(r.rule));
  const inputs = unmeasured2.filter(isBuildInput);
  if (red && inputs.length > 0) {
    out2.push({
      rule: "not-measured",
      level: "warning",
      path: inputs[0],
      message: `the vote failed, and the head changes ${list(inputs)}, which the vote does not use (outside planes.production, dependencies: ${dependencySource(ctx.policy)}): if the production code needs that change (a new dependency, a build setting), it is the likely cause. Land it in a pull request of its own, which a maintainer reviews and merges (the gate measures it as the merge base, so it cannot turn a red vote green), then rebase this one: the vote then takes it from the merge base`
    });
  }
  return out2;
}

// src/shard/record.ts
function toShardSide(outcome, keep2 = () => true) {
  const side = {
    run: { ...outcome.run },
    results: outcome.results ? [...outcome.results.values()].filter(keep2).map(copyObservation) : null,
    records: [...outcome.records ?? []],
    duplicates: [...outcome.duplicates ?? []]
  };
  if (outcome.failure) side.failure = outcome.failure;
  if (outcome.tampered) side.tampered = [...outcome.tampered];
  if (outcome.seeds) side.seeds = [...outcome.seeds.entries()];
  if (outcome.inDiffOnBase)
    side.in_diff_on_base = [...outcome.inDiffOnBase.values()].map(copyObservation);
  return side;
}
function fromShardSide(which, side) {
  const outcome = {
    side: which,
    run: { ...side.run, side: which },
    results: side.results ? new Map(side.results.map((o) => [o.id, copyObservation(o)])) : null,
    records: side.records,
    duplicates: side.duplicates
  };
  if (side.failure) outcome.failure = side.failure;
  if (side.tampered) outcome.tampered = side.tampered;
  if (side.seeds) outcome.seeds = new Map(side.seeds);
  if (side.in_diff_on_base)
    outcome.inDiffOnBase = new Map(side.in_diff_on_base.map((o) => [o.id, copyObservation(o)]));
  return outcome;
}
function shardBlock(slice, base, head, canary, added) {
  return {
    index: slice.index,
    total: slice.total,
    files: [...slice.files],
    observed: {
      selection: slice.first(canary.plan) ? "runner" : "full",
      canary,
      added: [...added].sort(),
      base: toShardSide(base, slice.keep),
      head: toShardSide(head, slice.keep)
    }
  };
}
function copyObservation(o) {
  const copy = { ...o, outcomes: [...o.outcomes] };
  if (o.incidental) copy.incidental = [...o.incidental];
  return copy;
}

// src/shard/slice.ts
function planSlice(spec, baseFiles, planes, suite) {
  const all = votingTestFiles(
    baseFiles,
    (p) => planes.planeOf(p),
    (p) => planes.isTestLike(p)
  );
  const files = splitFiles(all, spec.total)[spec.index - 1] ?? [];
  const splitSet = new Set(all);
  const selectable = [...baseFiles].every(
    (p) => planes.planeOf(p) !== "voting" || !holdsCode(p) || splitSet.has(p) || isSupport(p)
  );
  const owned = new Set(files);
  const keep2 = (o) => o.file === null || !splitSet.has(o.file) || owned.has(o.file);
  return {
    ...spec,
    all,
    files,
    lead: spec.index === 1,
    keep: keep2,
    first: (canary) => selectable ? firstRun2(suite, files, canary) : null
  };
}
var holdsCode = (path) => languageOf(path) !== void 0;
var isSupport = (path) => /(^|\/)(conftest|__init__)\.py$/.test(path);
function firstRun2(suite, files, canary) {
  if (files.length === 0) return null;
  const plan = rerunPlan({
    command: suite.command,
    ...suite.runner !== void 0 ? { runner: suite.runner } : {}
  });
  const runner = plan.runner ?? null;
  if (!plan.selects || !selectsFiles(runner)) return null;
  const canaryFiles = canary ? [...new Set(canary.canaries.map((c) => c.path))] : [];
  const selected = [...files, ...canaryFiles];
  return { command: plan.command, testArgs: fileArgs(runner, selected) };
}
function selectsFiles(runner) {
  return runner === "pytest" || runner === "vitest" || runner === "jest" || runner === "node-test";
}
function fileArgs(runner, files) {
  return runner === "jest" ? files.map((f) => escapeRegExp2(f)) : [...files];
}

// src/replay/index.ts
function atPath(path, from, to) {
  return path === from || path.startsWith(`${from}/`) ? to + path.slice(from.length) : path;
}
async function replay(ctx, ledger, baseSide, mode = {}) {
  const view = ctx.instrument ?? await instrumentView(ctx);
  const spec = await fidelitySpec(ctx.git, view, ctx.policy, voteUsesHead(view, ctx.policy));
  const containment = await containRuns(ctx, spec);
  const instrument = containment.instrument.length > 0 ? containment.instrument : [...spec.files.keys()];
  const watch = await watchPlan(ctx, instrument);
  const contained = { ...ctx, instrument: view, containment, watch };
  const outcome = await measureAndScore(contained, ledger, spec, baseSide, mode);
  outcome.reasons.push(...containmentNotices(ctx, containment));
  return { ...outcome, sandbox: containment.report };
}
async function measureAndScore(ctx, ledger, spec, baseSide, mode) {
  const { planes } = ctx;
  const planeOf = (p) => planes.planeOf(p);
  const classOf = compileClasses(ctx.policy.classes);
  const corpus = ctx.policy.seeds ? await loadCorpus(ctx, ctx.policy.seeds) : null;
  const view = ctx.instrument;
  const headCounts = voteUsesHead(view, ctx.policy);
  const overlay = computeOverlay(view, await runnerChanges(ctx.git, view), headCounts);
  const appended = ctx.writeSet.filter((r) => r.classification.row === "voting-append").map((r) => r.path);
  const tests = patchTestPlan(view, overlay, appended);
  const reset = productionReset(view, headCounts, {
    restore: [...overlay.restore, ...tests.strip.restore],
    remove: [...overlay.remove, ...tests.strip.remove]
  });
  const unmeasured2 = unmeasuredPaths(view, [overlay, tests.strip, reset]);
  const collisions = foldCollisions(spec, view.base, view.head);
  const baseFiles = [...view.base.keys()];
  const canary = planCanary(
    detectRunner(ctx.policy.suite),
    baseFiles,
    planeOf,
    ctx.policy.suite.command
  );
  const slice = mode.shard ? planSlice(mode.shard, baseFiles, planes, ctx.policy.suite) : null;
  const lead = slice?.lead ?? true;
  const rerunnable = (o) => o.file !== null && planeOf(o.file) === "voting" && !ledger.live.has(o.id) && classOf(o.id) !== "judge";
  const measured = await withWorktrees(ctx, async (wt) => {
    const options = async (side) => {
      const real = side === "base" ? await wt.base() : await wt.head();
      const worktree = await wt.stage(real);
      return {
        side,
        worktree,
        rerunnable,
        planeOf,
        seeds: lead ? corpus : null,
        prepared: side === "base" ? "checkout" : "overlay",
        fidelity: async (moment) => [
          ...moment === "overlay" ? collisions : [],
          ...await checkFidelity(spec, worktree, { side, moment })
        ],
        track: (links) => wt.track(
          real,
          links.map((l) => atPath(l, worktree, real))
        ),
        canary: canary.plan,
        baseFiles,
        ...side === "base" && mode.onBaseRun ? { onFirstRun: mode.onBaseRun } : {},
        // suite.parallel sets both sides up at once: nothing to share between them.
        ...ctx.policy.suite.parallel ? {} : { share: wt.share },
        ...slice ? { first: slice.first(canary.plan), keep: slice.keep } : {}
      };
    };
    if (mode.baseOnly) return { base: await measureBase(ctx, options, baseSide) };
    await prepareHead(ctx, await wt.head(), overlay, tests, reset);
    const [base2, head2] = await measureSides(ctx, options, baseSide);
    const fidelity = async () => (await options("head")).fidelity("run");
    const replayed = {
      head: head2,
      planeOf,
      votes: rerunnable,
      baseFiles,
      shard: slice !== null,
      fidelity
    };
    const evidence = await replayEvidence(ctx, wt, replayed);
    if (base2.results === null || head2.results === null) return { base: base2, head: head2, evidence };
    const patchTests = { what: "the patch's own tests", patchCode: true };
    const patchRun = tests.headTests.length > 0 && lead ? await guardGitState(
      ctx.git,
      patchTests,
      () => runPatchTests(ctx, wt, tests, overlay, planes)
    ) : null;
    const probed = tests.probeTests.length > 0 && lead ? await guardGitState(ctx.git, patchTests, () => probeInDiff(ctx, wt, tests, planes)) : null;
    return { base: base2, head: head2, patchRun, probed, evidence };
  });
  if (measured.head === void 0) return baseOnlyOutcome(ctx, measured.base, canary);
  const { base, head } = measured;
  const added = addedTests(measured.patchRun, head.results, new Set(tests.appended));
  if (head.results !== null && measured.patchRun) addDiagnostics(head.results, measured.patchRun);
  if (measured.probed) base.inDiffOnBase = measured.probed;
  const fns = { planeOf, classOf, canary, added };
  const outcome = combine(ctx, ledger, base, head, lead ? corpus : null, fns);
  outcome.reasons.push(...await reachAtRunTime(ctx, head.watched ?? []));
  outcome.unmeasured = unmeasured2;
  outcome.reasons.push(...unmeasuredReasons(ctx, unmeasured2, outcome.reasons));
  outcome.reasons.push(...measured.evidence.reasons);
  if (measured.evidence.evidence) outcome.evidence = measured.evidence.evidence;
  if (slice) outcome.shard = shardBlock(slice, base, head, canary, added);
  return outcome;
}
async function prepareHead(ctx, dir, overlay, tests, reset) {
  await applyOverlay(ctx, dir, overlay);
  if (overlay.restore.length + overlay.remove.length > 0) {
    ctx.log.info(
      `head worktree: ${overlay.restore.length} instrument path(s) restored from the merge base, ${overlay.remove.length} removed`
    );
  }
  await applyOverlay(ctx, dir, tests.strip);
  const stripped = tests.strip.restore.length + tests.strip.remove.length;
  if (stripped > 0) {
    ctx.log.info(
      `head worktree: the vote runs without the patch's tests: ${tests.strip.remove.length} test-plane path(s) removed, ${tests.strip.restore.length} restored from the merge base`
    );
  }
  await applyOverlay(ctx, dir, reset);
  if (reset.restore.length + reset.remove.length > 0) {
    ctx.log.info(
      `head worktree: outside production code (planes.production) ${reset.restore.length} path(s) restored from the merge base, ${reset.remove.length} removed`
    );
  }
}
async function reachAtRunTime(ctx, runs) {
  const plan = ctx.watch;
  const level = levelOf(ctx.policy.lints["oracle-reach"]);
  if (!plan?.reach || level === void 0) return [];
  const isEntry = entryPoints(
    await ctx.git.showText(ctx.mergeBase, "package.json"),
    await ctx.git.showText(ctx.mergeBase, "pyproject.toml")
  );
  const found = runtimeReach({
    runs,
    plan,
    level,
    allowed: allowList(ctx.policy.lints.reach_allow, ctx.policy.case_insensitive),
    isEntry,
    policyPath: ctx.policy.path
  });
  ctx.log.info(
    `oracle-reach at run time: ${found.reasons.length} reason(s), ${found.waived} allowed by lints.reach_allow, ${found.forged} record(s) naming no line of the plan ignored`
  );
  return found.reasons;
}
async function fullSide(ctx, options, side) {
  return runSide(ctx, await options(side));
}
function measureBase(ctx, options, baseSide) {
  return guardGitState(
    ctx.git,
    { what: "the base side", patchCode: false },
    () => throughSeam(ctx, baseSide, () => fullSide(ctx, options, "base"))
  );
}
function throughSeam(ctx, baseSide, run2) {
  return baseSide ? baseSide(ctx, run2) : run2();
}
async function measureSides(ctx, options, baseSide) {
  const { parallel, jobs } = ctx.policy.suite;
  const apart = ctx.containment?.bin != null;
  if (parallel && apart) return parallelSides(ctx, options, baseSide);
  if (jobs >= 2 && apart) return overlappingSides(ctx, options, baseSide);
  const base = await measureBase(ctx, options, baseSide);
  const head = await guardGitState(
    ctx.git,
    { what: "the head side", patchCode: true },
    () => fullSide(ctx, options, "head")
  );
  return [base, head];
}
async function parallelSides(ctx, options, baseSide) {
  await options("base");
  const base = () => fullSide(ctx, options, "base");
  const both = { what: "the base and head sides (in parallel)", patchCode: true };
  const settled = await guardGitState(
    ctx.git,
    both,
    () => Promise.allSettled([throughSeam(ctx, baseSide, base), fullSide(ctx, options, "head")])
  );
  const [b, h] = settled;
  if (b?.status === "rejected") throw b.reason;
  if (h?.status === "rejected") throw h.reason;
  return [
    b.value,
    h.value
  ];
}
async function overlappingSides(ctx, options, baseSide) {
  let head;
  const startHead = () => head ??= fullSide(ctx, options, "head");
  const base = async () => {
    const alone = { what: "the base side", patchCode: false };
    const started = await guardGitState(
      ctx.git,
      alone,
      async () => startSide(ctx, await options("base"))
    );
    ctx.log.info("head: starting, the base's first run is over (suite.jobs)");
    void startHead().catch(() => void 0);
    return started.rest();
  };
  const both = { what: "the base and head sides (overlapping)", patchCode: true };
  return guardGitState(ctx.git, both, async () => {
    let measured;
    try {
      measured = await throughSeam(ctx, baseSide, base);
    } catch (error) {
      await head?.catch(() => void 0);
      throw error;
    }
    return [measured, await startHead()];
  });
}
function addedTests(patchRun, voted, appended) {
  const ids = /* @__PURE__ */ new Set();
  if (!patchRun || appended.size === 0) return ids;
  for (const [id, o] of patchRun)
    if (o.file !== null && appended.has(o.file) && !voted?.has(id)) ids.add(id);
  return ids;
}
function addDiagnostics(results, patchRun) {
  for (const [id, o] of patchRun) if (!results.has(id)) results.set(id, o);
}
function baseOnlyOutcome(ctx, base, canary) {
  const reasons = [...base.failure ? [base.failure] : [], ...base.tampered ?? []];
  const trip = judgeTripwires({
    base: base.records ?? [],
    head: [],
    canary,
    policyPath: ctx.policy.path
  });
  if (trip.baseProblems.length > 0)
    throw new GateError(trip.baseProblems.join("\n"), { path: ctx.policy.path });
  reasons.push({
    rule: "diagnostic",
    level: "notice",
    message: "only the base side was measured (a prime): the head was not run, this is no verdict",
    path: ctx.policy.path
  });
  return {
    reasons,
    votes: emptyVotes(),
    transitions: emptyTransitions(),
    seeds: emptySeeds(ctx.policy.seeds?.min_distance ?? 0),
    flakes: [],
    runs: [base.run],
    diagnostics: emptyDiagnostics(),
    unmeasured: []
  };
}
function combine(ctx, ledger, base, head, corpus, fns) {
  const reasons = [];
  for (const side of [base, head]) {
    if (side.failure) reasons.push(side.failure);
    if (side.seedsFailure) reasons.push(side.seedsFailure);
    reasons.push(...side.tampered ?? []);
  }
  const trip = judgeTripwires({
    base: base.records ?? [],
    head: head.records ?? [],
    canary: fns.canary,
    policyPath: ctx.policy.path
  });
  if (trip.baseProblems.length > 0)
    throw new GateError(trip.baseProblems.join("\n"), { path: ctx.policy.path });
  reasons.push(...trip.reasons);
  const outcome = {
    reasons,
    votes: emptyVotes(),
    transitions: emptyTransitions(),
    seeds: emptySeeds(ctx.policy.seeds?.min_distance ?? 0),
    flakes: [],
    runs: [base.run, head.run],
    diagnostics: emptyDiagnostics(),
    unmeasured: []
  };
  if (base.results !== null) {
    const written = new Set(ctx.writeSet.filter((r) => r.status !== "deleted").map((r) => r.path));
    const input = {
      base: base.results,
      head: head.results,
      planeOf: fns.planeOf,
      classOf: fns.classOf,
      live: ledger.live,
      policyPath: ctx.policy.path,
      written,
      duplicates: { base: base.duplicates ?? [], head: head.duplicates ?? [] },
      today: ctx.today,
      added: fns.added
    };
    if (ledger.path !== void 0) input.ledgerPath = ledger.path;
    if (base.inDiffOnBase) input.inDiffOnBase = base.inDiffOnBase;
    const scored = score(input);
    reasons.push(...scored.reasons);
    outcome.votes = scored.votes;
    outcome.transitions = scored.transitions;
    outcome.flakes = scored.flakes;
    outcome.diagnostics = scored.diagnostics;
    const hit = unexplainedHit(
      ctx.writeSet,
      scored.transitions.fail_to_pass,
      fns.planeOf,
      ctx.policy.path
    );
    if (hit) reasons.push(hit);
  }
  const settings = ctx.policy.seeds;
  if (settings && corpus) {
    const seeded = scoreSeeds(corpus, base.seeds ?? /* @__PURE__ */ new Map(), head.seeds ?? /* @__PURE__ */ new Map(), settings);
    reasons.push(...seeded.reasons);
    outcome.seeds = seeded.summary;
  }
  return outcome;
}

// src/verdict/approval.ts
var isTeam = (entry) => entry.includes("/");
var lower = (s) => s.toLowerCase();
function eligible2(approvers, facts) {
  const out2 = /* @__PURE__ */ new Set();
  for (const entry of approvers) {
    if (!isTeam(entry)) out2.add(lower(entry.replace(/^@/, "")));
    else for (const login of facts.teams[entry] ?? []) out2.add(lower(login));
  }
  return out2;
}
function time(review) {
  const t = review.submitted_at ? Date.parse(review.submitted_at) : NaN;
  return Number.isNaN(t) ? 0 : t;
}
function newestFirst(a, b) {
  return time(b) - time(a) || b.id - a.id;
}
function judgeApproval(approvers, facts, head) {
  if ((facts.judged ?? facts.currentHead) !== head) {
    return {
      approved: false,
      why: `PR #${facts.pull} is now at ${shortSha(facts.currentHead)}, not at the judged ${shortSha(head)}`
    };
  }
  const sha2 = facts.currentHead;
  const names = eligible2(approvers, facts);
  const author = lower(facts.author);
  const counted = facts.reviews.filter((r) => !r.bot && !/\[bot\]$/i.test(r.login) && lower(r.login) !== author).filter((r) => names.has(lower(r.login))).filter((r) => r.state === "APPROVED" || r.state === "CHANGES_REQUESTED").sort(newestFirst);
  const latestOf = /* @__PURE__ */ new Map();
  for (const r of counted) if (!latestOf.has(lower(r.login))) latestOf.set(lower(r.login), r);
  const approval = counted.find(
    (r) => r.state === "APPROVED" && r.commit_id === sha2 && latestOf.get(lower(r.login)) === r
  );
  if (!approval) {
    const older = counted.find((r) => r.state === "APPROVED");
    return {
      approved: false,
      why: older ? `the approval by @${older.login} is on ${shortSha(String(older.commit_id))}, not on the current head ${shortSha(sha2)} (or was superseded)` : `no approving review on ${shortSha(sha2)} by an approver`
    };
  }
  const blocker = counted.find((r) => r.state === "CHANGES_REQUESTED" && newestFirst(r, approval) < 0);
  if (blocker) {
    return {
      approved: false,
      why: `@${blocker.login} requested changes after @${approval.login} approved`
    };
  }
  return { approved: true, by: approval.login, sha: sha2, review: approval.id };
}
function approverList(approvers) {
  const names = approvers.map((a) => isTeam(a) ? `a member of ${a}` : `@${a.replace(/^@/, "")}`);
  const joined2 = names.length <= 1 ? names[0] ?? "" : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
  return `${joined2} (not the PR's author, not a bot)`;
}
function applyApproval(reasons, approvers, decision, unreadableTeams = []) {
  if (!instrumentTouched(reasons) || approvers.length === 0) return [...reasons];
  if (decision.approved) {
    return [
      ...reasons.map(
        (r) => isInstrumentFailure(r) ? { ...r, level: "notice", message: `${r.message} (approved)` } : r
      ),
      {
        rule: "instrument-approval",
        level: "notice",
        message: `instrument change approved by @${decision.by} at ${decision.sha}: judged by the base's instrument, which the change replaces once merged`
      }
    ];
  }
  const teams = unreadableTeams.length ? `; the token cannot read the team(s) ${unreadableTeams.join(", ")}` : "";
  return [
    ...reasons,
    {
      rule: "instrument-approval",
      level: "failure",
      message: `the instrument was changed without an approval of this commit: ${decision.why}. An approving review on the current head by ${approverList(approvers)} makes it mergeable${teams}`
    }
  ];
}

// src/verdict/approval-stage.ts
async function approvedInstrument(reasons, policy, head, source, log) {
  const approvers = policy.instrument_approvers;
  if (approvers.length === 0 || !instrumentTouched(reasons)) return [...reasons];
  if (!source) {
    return applyApproval(reasons, approvers, {
      approved: false,
      why: "approvals are read from pull request reviews by the action; this run has none"
    });
  }
  const facts = await source(approvers);
  if ("unavailable" in facts)
    return applyApproval(reasons, approvers, { approved: false, why: facts.unavailable });
  const decision = judgeApproval(approvers, facts, head);
  const unreadable = Object.entries(facts.teams).filter(([, members]) => members === null).map(([team]) => team);
  log.info(
    decision.approved ? `instrument change approved by @${decision.by} at ${shortSha(decision.sha)}` : `instrument change not approved (${decision.why}); approvers: ${approverList(approvers)}`
  );
  return applyApproval(reasons, approvers, decision, unreadable);
}

// src/gate.ts
async function check(options) {
  const policyPath = normalisePolicyPath(options.policyPath ?? DEFAULT_POLICY_PATH);
  const card = emptyScorecard({ version: VERSION, today: options.today ?? utcToday(), policyPath });
  const env = options.env ?? process.env;
  const tempDir = await mkdtemp(join23(tmpdir(), "tmp."));
  const git = new Git(options.repoDir, env);
  try {
    await pipeline({ ...options, env }, git, card, tempDir);
  } catch (error) {
    card.reasons.push(reasonFromError(error));
    options.log.warning(`gate error: ${errorMessage(error)}`);
  } finally {
    await git.close();
    await rm8(tempDir, { recursive: true, force: true }).catch(() => void 0);
  }
  return finalize(card);
}
async function pipeline(options, git, card, tempDir) {
  const { log } = options;
  const time2 = stageTimer(card, log);
  checkToday(options.today);
  await requireGitVersion(git);
  const commits = await time2("resolve commits", () => resolveCommits(git, options, card));
  prefetch(git, commits, options);
  const policy = await time2(
    "policy (from the merge base)",
    () => policyStage(git, commits, card, log)
  );
  const facts = runFacts(git, policy);
  const writeSet = await time2(
    "write set",
    () => writeSetStage(git, commits, policy, facts, options, card)
  );
  const ctx = {
    ...facts,
    repoDir: options.repoDir,
    git,
    policy,
    mergeBase: commits.mergeBase,
    head: commits.head,
    today: card.today,
    log,
    writeSet,
    childEnv: childEnv(options.env, {}, options.secrets ?? []),
    tempDir
  };
  const [instrument, ledger] = await bothSettled(
    time2("instrument", () => instrumentStage(ctx, options)),
    untimedStage(card, log, "ledger", () => loadLedger(ctx), "beside the instrument stage")
  );
  writeInstrument(card, instrument);
  writeLedger(card, ledger);
  ctx.instrument = instrument.view;
  if (instrumentTouched(instrument.reasons)) {
    log.info("the instrument was touched: the lints and the suite are not run");
    card.reasons.push(notRunReason());
    return;
  }
  await lintsAndReplay(ctx, ledger, options, card, time2);
}
async function lintsAndReplay(ctx, ledger, options, card, time2) {
  if (!overlapLints(ctx.policy, options)) {
    await time2("lints", () => lintsStage(ctx, ledger, card));
    await time2("replay", () => replayStage(ctx, ledger, options, card));
    return;
  }
  let start2 = () => void 0;
  const begun = new Promise((resolve5) => start2 = resolve5);
  const linted = begun.then(
    () => untimedStage(
      card,
      ctx.log,
      "lints",
      async () => {
        card.reasons.push(...await runLints(ctx, ledger));
      },
      "beside the base's first run"
    )
  );
  linted.catch(() => void 0);
  try {
    const afterLints = lintsBeforeHead(linted, start2, options.baseSource?.side);
    await time2("replay", () => replayStage(ctx, ledger, options, card, afterLints, start2));
  } finally {
    start2();
    await linted.catch(() => void 0);
  }
  await linted;
}
function prefetch(git, commits, options) {
  const reads = [git.lsTree(commits.mergeBase), git.lsTree(commits.head)];
  if (options.changes === void 0) reads.push(git.diffRaw(commits.mergeBase, commits.head));
  for (const read of reads) void read.catch(() => void 0);
}
function overlapLints(policy, options) {
  const { parallel, jobs } = policy.suite;
  return !parallel && jobs < 2 && options.replay === void 0;
}
function lintsBeforeHead(lints, start2, inner) {
  return async (ctx, run2) => {
    const side = await (inner ? inner(ctx, run2) : run2());
    start2();
    await lints;
    return side;
  };
}
function notRunReason() {
  return {
    rule: "diagnostic",
    level: "notice",
    message: "the lints and the suite were not run: the patch touched the instrument, so the verdict is policy whatever they would find; once the instrument change is gone (or approved), the next run lints and replays the patch"
  };
}
async function untimedStage(card, log, name2, fn, beside) {
  const started = Date.now();
  try {
    return await fn();
  } catch (error) {
    if (error instanceof GateError) throw error;
    throw new GateError(`internal error in "${name2}": ${errorMessage(error)}`, { cause: error });
  } finally {
    card.timings_ms[name2] = Date.now() - started;
    log.info(`${name2}: ${card.timings_ms[name2]} ms, ${beside}`);
  }
}
async function bothSettled(first, second) {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === "rejected") throw a.reason;
  if (b.status === "rejected") throw b.reason;
  return [a.value, b.value];
}
function stageTimer(card, log) {
  return async (name2, fn) => {
    const started = Date.now();
    try {
      return await log.group(name2, fn);
    } catch (error) {
      if (error instanceof GateError) throw error;
      throw new GateError(`internal error in "${name2}": ${errorMessage(error)}`, { cause: error });
    } finally {
      card.timings_ms[name2] = Date.now() - started;
    }
  };
}
function checkToday(today) {
  if (today !== void 0 && !isCalendarDate(today)) {
    throw new GateError(`--today must be a calendar date YYYY-MM-DD, got "${today}"`, {
      rule: "config-invalid"
    });
  }
}
async function resolveCommits(git, options, card) {
  const baseTip = await git.resolveCommit(options.base);
  const head = await git.resolveCommit(options.head ?? "HEAD");
  const mergeBase = await git.mergeBase(baseTip, head);
  options.log.info(`base ${options.base} = ${baseTip}; head ${head}; merge base ${mergeBase}`);
  card.base = mergeBase;
  card.head = head;
  card.base_ref = baseTip;
  if (options.head !== void 0) card.head_ref = options.head;
  return { baseTip, head, mergeBase };
}
async function policyStage(git, commits, card, log) {
  const { mergeBase, baseTip } = commits;
  const { policy, notice } = await readJudgingPolicy(
    git,
    { mergeBase, baseTip },
    card.policy_path,
    () => readPolicy(git, mergeBase, card.policy_path, log),
    log
  );
  card.reasons.push(notice);
  card.campaign = { ...policy.campaign };
  return policy;
}
async function writeSetStage(git, commits, policy, facts, options, card) {
  const { mergeBase, head } = commits;
  const api = options.changes ? await options.changes(mergeBase, head) : null;
  const rows = await buildWriteSet(git, mergeBase, head, policy, api, facts);
  options.log.info(`${rows.length} path(s) written${api ? " (from the API list)" : " (from git)"}`);
  card.write_set = rows.map(publicRow);
  return rows;
}
async function instrumentStage(ctx, options) {
  const checked = await checkInstrument(ctx);
  const reasons = await approvedInstrument(
    checked.reasons,
    ctx.policy,
    ctx.head,
    options.approval,
    ctx.log
  );
  return { ...checked, reasons };
}
function writeInstrument(card, instrument) {
  card.oracle = instrument.oracle;
  card.reasons.push(...instrument.reasons);
}
function writeLedger(card, ledger) {
  card.reasons.push(...ledger.reasons);
  card.freeze_debt = ledger.freeze_debt;
}
async function lintsStage(ctx, ledger, card) {
  card.reasons.push(...await runLints(ctx, ledger));
}
async function replayStage(ctx, ledger, options, card, baseSide = options.baseSource?.side, onBaseRun) {
  const mode = {
    baseOnly: options.baseOnly ?? false,
    ...options.shard ? { shard: options.shard } : {},
    ...onBaseRun ? { onBaseRun } : {}
  };
  const result = await (options.replay ?? replay)(ctx, ledger, baseSide, mode);
  card.reasons.push(...options.baseSource?.reasons ?? []);
  card.reasons.push(...result.reasons);
  card.votes = result.votes;
  card.transitions = result.transitions;
  card.seeds = result.seeds;
  card.flakes = result.flakes;
  card.runs = result.runs;
  card.diagnostics = result.diagnostics;
  if (result.unmeasured !== void 0) card.unmeasured = result.unmeasured;
  if (result.shard) card.shard = result.shard;
  if (result.sandbox) card.sandbox = result.sandbox;
  if (result.evidence) card.evidence = result.evidence;
}
async function readPolicy(git, mergeBase, path, log) {
  const text2 = await git.showText(mergeBase, path);
  if (text2 === null) {
    throw new GateError(
      `policy file ${path} does not exist at the merge base ${shortSha(mergeBase)}; add it in a PR of its own first (oracle-gate init writes a starter)`,
      { rule: "config-invalid", path }
    );
  }
  const policy = parsePolicy(text2, path);
  log.info(
    `policy ${path}: ${policy.protected.length} protected glob(s), ${policy.planes.voting.length} voting glob(s)`
  );
  return policy;
}
function normalisePolicyPath(path) {
  return path.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
}

// src/prime/store.ts
import { readFile as readFile10, writeFile as writeFile7 } from "node:fs/promises";

// src/prime/primed.schema.json
var primed_schema_default = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://oracle-gate.dev/schemas/primed-base@1.json",
  title: "oracle-gate primed base result",
  description: "The base side of a replay, measured by `oracle-gate prime` (or the action's prime mode) on one commit, with the fingerprint of what it was measured with.",
  type: "object",
  additionalProperties: false,
  required: ["schema", "fingerprint", "produced_by", "base"],
  definitions: {
    outcome: {
      enum: ["passed", "failed", "error", "skipped"]
    },
    observation: {
      type: "object",
      additionalProperties: false,
      required: ["id", "file", "outcomes", "runnerFlaky"],
      properties: {
        id: {
          type: "string"
        },
        file: {
          type: ["string", "null"]
        },
        line: {
          type: "integer"
        },
        outcomes: {
          type: "array",
          items: {
            $ref: "#/definitions/outcome"
          }
        },
        runnerFlaky: {
          type: "boolean"
        },
        incidental: {
          type: "array",
          items: {
            $ref: "#/definitions/outcome"
          }
        },
        provisional: {
          type: "boolean"
        },
        message: {
          type: "string"
        }
      }
    }
  },
  properties: {
    schema: {
      const: "oracle-gate/primed-base@1"
    },
    fingerprint: {
      type: "object",
      additionalProperties: false,
      required: [
        "commit",
        "instrument_digest",
        "policy_digest",
        "suite_command",
        "lockfiles",
        "runner",
        "gate_version"
      ],
      properties: {
        commit: {
          type: "string",
          pattern: "^[0-9a-f]{40}([0-9a-f]{24})?$"
        },
        instrument_digest: {
          type: "string"
        },
        policy_digest: {
          type: "string"
        },
        suite_command: {
          type: "string"
        },
        lockfiles: {
          type: "object",
          additionalProperties: {
            type: "string"
          }
        },
        runner: {
          type: "object",
          additionalProperties: false,
          required: ["os", "arch", "release", "image_os", "image_version"],
          properties: {
            os: {
              type: "string"
            },
            arch: {
              type: "string"
            },
            release: {
              type: "string"
            },
            image_os: {
              type: "string"
            },
            image_version: {
              type: "string"
            }
          }
        },
        gate_version: {
          type: "string"
        }
      }
    },
    produced_by: {
      type: "object",
      additionalProperties: false,
      required: ["kind", "label"],
      properties: {
        kind: {
          enum: ["local", "github"]
        },
        label: {
          type: "string",
          description: "Where the result came from, as the card names it."
        },
        run_url: {
          type: "string"
        }
      }
    },
    base: {
      type: "object",
      additionalProperties: false,
      required: ["run", "results", "records", "duplicates"],
      properties: {
        run: {
          type: "object",
          required: ["side", "exit_code", "timed_out", "duration_ms", "tests"],
          properties: {
            side: {
              const: "base"
            },
            exit_code: {
              type: ["integer", "null"]
            },
            timed_out: {
              type: "boolean"
            },
            duration_ms: {
              type: "integer",
              minimum: 0
            },
            tests: {
              type: "integer",
              minimum: 0
            }
          }
        },
        results: {
          type: "array",
          items: {
            $ref: "#/definitions/observation"
          }
        },
        seeds: {
          type: "array",
          items: {
            type: "array",
            minItems: 2,
            maxItems: 2,
            items: [
              {
                type: "string"
              },
              {
                type: "boolean"
              }
            ]
          }
        },
        records: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["attempt", "exitCode", "signal", "cases", "failing", "passed"],
            properties: {
              attempt: {
                type: "integer",
                minimum: 0
              },
              exitCode: {
                type: ["integer", "null"]
              },
              signal: {
                type: ["string", "null"]
              },
              cases: {
                type: "integer",
                minimum: 0
              },
              failing: {
                type: "integer",
                minimum: 0
              },
              passed: {
                type: "integer",
                minimum: 0
              },
              canaries: {
                type: "array",
                items: {
                  type: "object",
                  additionalProperties: false,
                  required: ["canary", "outcome"],
                  properties: {
                    canary: {
                      type: "object",
                      additionalProperties: false,
                      required: ["path", "title", "expect", "beside", "a", "b"],
                      properties: {
                        path: {
                          type: "string"
                        },
                        title: {
                          type: "string"
                        },
                        expect: {
                          enum: ["failed", "passed"]
                        },
                        beside: {
                          type: "string"
                        },
                        a: {
                          type: "number"
                        },
                        b: {
                          type: "number"
                        }
                      }
                    },
                    outcome: {
                      enum: ["passed", "failed", "error", "skipped", "absent"]
                    }
                  }
                }
              },
              stream: {
                oneOf: [
                  {
                    type: "object",
                    additionalProperties: false,
                    required: ["state", "why"],
                    properties: {
                      state: {
                        const: "off"
                      },
                      why: {
                        type: "string"
                      }
                    }
                  },
                  {
                    type: "object",
                    additionalProperties: false,
                    required: ["state"],
                    properties: {
                      state: {
                        enum: ["silent", "agrees"]
                      }
                    }
                  },
                  {
                    type: "object",
                    additionalProperties: false,
                    required: ["state", "problems"],
                    properties: {
                      state: {
                        const: "tampered"
                      },
                      problems: {
                        type: "array",
                        items: {
                          type: "string"
                        }
                      }
                    }
                  }
                ]
              }
            }
          }
        },
        duplicates: {
          type: "array",
          items: {
            type: "string"
          }
        }
      }
    }
  }
};

// src/prime/store.ts
var PRIMED_SCHEMA = "oracle-gate/primed-base@1";
function unstorable(outcome) {
  if (outcome.results === null) return "the base side produced no results";
  if (outcome.failure) return `the base side failed: ${outcome.failure.message}`;
  if ((outcome.tampered ?? []).length > 0) return "the base checkout was not the commit";
  return null;
}
function toPrimed(outcome, fingerprint2, producedBy) {
  const base = {
    run: { ...outcome.run },
    results: [...(outcome.results ?? /* @__PURE__ */ new Map()).values()],
    records: [...outcome.records ?? []],
    duplicates: [...outcome.duplicates ?? []]
  };
  if (outcome.seeds) base.seeds = [...outcome.seeds.entries()];
  return { schema: PRIMED_SCHEMA, fingerprint: fingerprint2, produced_by: producedBy, base };
}
function fromPrimed(file) {
  const outcome = {
    side: "base",
    run: { ...file.base.run, side: "base" },
    results: new Map(file.base.results.map((o) => [o.id, o])),
    records: file.base.records,
    duplicates: file.base.duplicates
  };
  if (file.base.seeds) outcome.seeds = new Map(file.base.seeds);
  return outcome;
}
async function writePrimed(path, file) {
  await writeFile7(path, JSON.stringify(file, null, 2) + "\n");
}
function parsePrimed(text2) {
  let value;
  try {
    value = JSON.parse(text2);
  } catch (error) {
    return `not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  const issues = schemaValidator(primed_schema_default)(value);
  if (issues.length > 0)
    return `not a primed base file: ${issues.slice(0, 3).map(formatIssue).join("; ")}`;
  return value;
}
async function readPrimed(path) {
  let text2;
  try {
    text2 = await readFile10(path, "utf8");
  } catch (error) {
    return `cannot read it (${error instanceof Error ? error.message : String(error)})`;
  }
  return parsePrimed(text2);
}

// src/prime/collect.ts
import { createHash as createHash6 } from "node:crypto";
import { arch, platform, release } from "node:os";

// src/prime/fingerprint.ts
var LABELS = {
  commit: "commit",
  instrument_digest: "instrument digest",
  policy_digest: "policy digest",
  suite_command: "suite command",
  lockfiles: "lockfiles",
  runner: "runner OS/image",
  gate_version: "gate version"
};
function fingerprintDifferences(stored, wanted) {
  const out2 = [];
  for (const key4 of Object.keys(LABELS)) {
    const a = canonical(stored[key4]);
    const b = canonical(wanted[key4]);
    if (a !== b) out2.push(`${LABELS[key4]}: stored ${short(a)}, this run ${short(b)}`);
  }
  return out2;
}
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(
      ([a], [b]) => a < b ? -1 : a > b ? 1 : 0
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
function short(s) {
  return s.length > 80 ? `${s.slice(0, 77)}\u2026` : s;
}
var LOCKFILE_NAMES = /* @__PURE__ */ new Set([
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lockb",
  "bun.lock",
  "poetry.lock",
  "uv.lock",
  "Pipfile.lock",
  "pdm.lock",
  "requirements.txt",
  "go.sum",
  "Cargo.lock",
  "Gemfile.lock",
  "composer.lock"
]);
function lockfileDigests(entries) {
  const out2 = {};
  for (const e of entries) {
    const name2 = e.path.slice(e.path.lastIndexOf("/") + 1);
    if (LOCKFILE_NAMES.has(name2)) out2[e.path] = e.sha;
  }
  return out2;
}

// src/prime/collect.ts
async function fingerprintOf(ctx, env) {
  const view = ctx.instrument ?? await instrumentView(ctx);
  const policyBytes = await ctx.git.showFile(ctx.mergeBase, ctx.policy.path) ?? Buffer.alloc(0);
  return {
    commit: ctx.mergeBase,
    instrument_digest: instrumentDigest(view.base.values(), view.isInstrument).digest,
    policy_digest: `sha256:${createHash6("sha256").update(policyBytes).digest("hex")}`,
    suite_command: canonical(ctx.policy.suite),
    lockfiles: lockfileDigests(view.base.values()),
    runner: runnerFacts(env),
    gate_version: VERSION
  };
}
function runnerFacts(env) {
  return {
    os: platform(),
    arch: arch(),
    release: release(),
    image_os: env["ImageOS"] ?? "",
    image_version: env["ImageVersion"] ?? ""
  };
}

// src/prime/source.ts
function primedBase(load, env) {
  const reasons = [];
  const side = async (ctx, run2) => {
    const refuse = (why) => {
      const message3 = `primed base result not used: ${why}; the base side runs as it would without one`;
      ctx.log.warning(logText(message3));
      reasons.push({ rule: "diagnostic", level: "notice", message: message3, path: ctx.policy.path });
      return run2();
    };
    const file = await load(ctx.mergeBase);
    if (typeof file === "string") return refuse(file);
    const diffs = fingerprintDifferences(file.fingerprint, await fingerprintOf(ctx, env));
    if (diffs.length > 0) return refuse(`its fingerprint differs (${diffs.join("; ")})`);
    const from = clip2(file.produced_by.label);
    const message2 = `the base side was taken from the primed result of ${from} (commit ${shortSha(ctx.mergeBase)}, fingerprint matched); the base suite was not run`;
    ctx.log.info(logText(message2));
    reasons.push({ rule: "diagnostic", level: "notice", message: message2, path: ctx.policy.path });
    const outcome = fromPrimed(file);
    outcome.run.primed_from = from;
    return outcome;
  };
  return { side, reasons };
}
function primingBase(out2, producedBy, env) {
  const side = async (ctx, run2) => {
    const outcome = await run2();
    const why = unstorable(outcome);
    if (why !== null) throw new GateError(`cannot prime the base: ${why}`);
    await writePrimed(out2, toPrimed(outcome, await fingerprintOf(ctx, env), producedBy));
    ctx.log.info(`primed base result for ${shortSha(ctx.mergeBase)} written to ${logText(out2)}`);
    return outcome;
  };
  return { side, reasons: [] };
}
function clip2(s) {
  const flat2 = s.replace(/[^\x20-\x7e]/g, "?");
  return flat2.length > 200 ? `${flat2.slice(0, 197)}\u2026` : flat2;
}

// src/shard/attestation.ts
import { createHash as createHash7 } from "node:crypto";
import { basename as basename7 } from "node:path";
var STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
var TEST_RESULT_PREDICATE = "https://in-toto.io/attestation/test-result/v0.1";
function statementOf(input) {
  const { card } = input;
  const sha2562 = createHash7("sha256").update(input.scorecardBytes).digest("hex");
  const warned = card.reasons.some((r) => r.level === "warning");
  const result = card.verdict !== "merge" ? "FAILED" : warned ? "WARNED" : "PASSED";
  const t = card.transitions;
  const statement = {
    _type: STATEMENT_TYPE,
    subject: [{ name: basename7(input.scorecardPath), digest: { sha256: sha2562 } }],
    predicateType: TEST_RESULT_PREDICATE,
    predicate: {
      result,
      configuration: configuration(card, input.policyDigest),
      passedTests: [...t.fail_to_pass],
      warnedTests: [...new Set(card.flakes.map((f) => f.test))].sort(),
      failedTests: [.../* @__PURE__ */ new Set([...t.pass_to_fail, ...t.fail_to_fail, ...t.vanished])].sort()
    }
  };
  if (input.url) statement.predicate.url = input.url;
  return statement;
}
function configuration(card, policyDigest2) {
  const hex = (d) => /^sha256:([0-9a-f]{64})$/.exec(d)?.[1] ?? null;
  const out2 = [];
  const policy = policyDigest2 ? hex(policyDigest2) : null;
  out2.push({
    name: card.policy_path,
    ...policy ? { digest: { sha256: policy } } : { uri: `file:${card.policy_path}` },
    annotations: { verdict: card.verdict, gate_version: card.version, today: card.today }
  });
  const instrument = hex(card.oracle.base_digest);
  if (instrument) out2.push({ name: "oracle-gate/instrument", digest: { sha256: instrument } });
  const commit = (name2, sha2) => {
    if (sha2 && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(sha2))
      out2.push({ name: name2, digest: { gitCommit: sha2 } });
  };
  commit("merge-base", card.base);
  commit("base", card.base_ref);
  commit("head", card.head);
  return out2;
}
async function policyDigest(repoDir, card, env) {
  if (!card.base) return void 0;
  const bytes = await new Git(repoDir, env).showFile(card.base, card.policy_path).catch(() => null);
  return `sha256:${createHash7("sha256").update(bytes ?? Buffer.alloc(0)).digest("hex")}`;
}
function runUrl(env) {
  const server = env["GITHUB_SERVER_URL"];
  const repo = env["GITHUB_REPOSITORY"];
  const id = env["GITHUB_RUN_ID"];
  if (!server || !repo || !id || !/^\d+$/.test(id)) return void 0;
  return `${server}/${repo}/actions/runs/${id}`;
}

// src/shard/digest.ts
import { createHash as createHash8 } from "node:crypto";
function shardDigest(block) {
  const { digest: _ignored, ...rest } = block;
  return `sha256:${createHash8("sha256").update(canonical(rest)).digest("hex")}`;
}
function sealed(block) {
  return { ...block, digest: shardDigest(block) };
}

// src/shard/run.ts
async function checkShard(options) {
  const card = await check(options);
  const block = card.shard ?? { index: options.shard.index, total: options.shard.total, files: [] };
  const fingerprint2 = await shardFingerprint(options.repoDir, card, options.env ?? {});
  return { ...card, shard: sealed(fingerprint2 ? { ...block, fingerprint: fingerprint2 } : block) };
}
async function shardFingerprint(repoDir, card, env) {
  const digest = await policyDigest(repoDir, card, env);
  if (!card.base || !card.head || !card.base_ref || digest === void 0) return null;
  return {
    base: card.base,
    base_ref: card.base_ref,
    head: card.head,
    policy_path: card.policy_path,
    policy_digest: digest,
    instrument_digest: card.oracle.base_digest,
    today: card.today,
    gate_version: VERSION
  };
}

// src/prime/prime.ts
import { existsSync as existsSync8 } from "node:fs";
import { mkdir as mkdir6, rm as rm9 } from "node:fs/promises";
import { dirname as dirname10 } from "node:path";
async function primeCommit(options, out2, producedBy) {
  await rm9(out2, { force: true });
  await mkdir6(dirname10(out2), { recursive: true });
  const card = await check({
    ...options,
    head: options.base,
    baseSource: primingBase(out2, producedBy, options.env),
    // The head would be the same commit: one base side (with its reruns) is the whole cost.
    baseOnly: true
  });
  if (card.verdict !== "error" && existsSync8(out2)) return { written: true, card };
  await rm9(out2, { force: true });
  const why = card.reasons.filter((r) => r.level === "failure").map((r) => r.message);
  return { written: false, card, why: why.join("; ") || "the base side was not measured" };
}

// src/verdict/scorecard.schema.json
var scorecard_schema_default = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "https://oracle-gate.dev/schema/scorecard-v1.json",
  title: "oracle-gate scorecard",
  description: "The scorecard JSON the gate prints (CLI), posts (check run) and uploads (scorecard.json); report mode reads it back from an artifact and validates it against this schema before taking its test results.",
  type: "object",
  additionalProperties: false,
  required: [
    "schema",
    "version",
    "verdict",
    "merge",
    "base",
    "head",
    "today",
    "policy_path",
    "reasons",
    "write_set",
    "oracle",
    "votes",
    "transitions",
    "seeds",
    "freeze_debt",
    "flakes",
    "runs",
    "diagnostics",
    "timings_ms"
  ],
  properties: {
    schema: {
      const: "oracle-gate/scorecard@1"
    },
    version: {
      type: "string"
    },
    verdict: {
      enum: ["merge", "product", "policy", "no-vote", "error"]
    },
    merge: {
      type: "boolean"
    },
    base: {
      type: "string",
      description: "A commit sha (empty when the gate failed before resolving it)."
    },
    head: {
      type: "string",
      description: "A commit sha (empty when the gate failed before resolving it)."
    },
    base_ref: {
      type: "string"
    },
    head_ref: {
      type: "string"
    },
    pull_requests: {
      type: "array",
      items: {
        type: "integer",
        minimum: 1
      },
      description: "The action: the PR judged, or the PRs a merge queue group holds."
    },
    event: {
      type: "string",
      description: "The action: merge_group when a queue's group was judged."
    },
    today: {
      type: "string",
      pattern: "^\\d{4}-\\d{2}-\\d{2}$"
    },
    policy_path: {
      type: "string"
    },
    reasons: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["rule", "message", "level"],
        properties: {
          rule: {
            type: "string",
            pattern: "^[a-z][a-z-]*$",
            description: "A rule id (docs/rules.md)."
          },
          message: {
            type: "string"
          },
          path: {
            type: "string"
          },
          line: {
            type: "integer",
            minimum: 1
          },
          level: {
            enum: ["failure", "warning", "notice"]
          }
        }
      }
    },
    write_set: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["path", "status", "plane", "action"],
        properties: {
          path: {
            type: "string"
          },
          previous_path: {
            type: "string"
          },
          status: {
            enum: [
              "added",
              "modified",
              "deleted",
              "renamed",
              "copied",
              "type-changed",
              "mode-changed"
            ]
          },
          old_kind: {
            enum: ["file", "symlink", "submodule", "executable"]
          },
          new_kind: {
            enum: ["file", "symlink", "submodule", "executable"]
          },
          symlink_target: {
            type: "string"
          },
          plane: {
            enum: ["protected", "voting", "drafts", "in_diff", "source", "other"]
          },
          action: {
            enum: ["continue", "ignore", "reject"]
          }
        }
      }
    },
    oracle: {
      type: "object",
      additionalProperties: false,
      required: ["base_digest", "head_digest", "unchanged"],
      properties: {
        base_digest: {
          type: "string"
        },
        head_digest: {
          type: "string"
        },
        unchanged: {
          type: "boolean"
        }
      }
    },
    votes: {
      type: "object",
      additionalProperties: false,
      required: ["passed", "failed", "frozen", "drafts", "by_class"],
      properties: {
        passed: {
          type: "integer",
          minimum: 0
        },
        failed: {
          type: "integer",
          minimum: 0
        },
        frozen: {
          type: "integer",
          minimum: 0
        },
        drafts: {
          type: "integer",
          minimum: 0
        },
        by_class: {
          type: "object",
          additionalProperties: {
            type: "object",
            additionalProperties: false,
            required: ["passed", "failed", "frozen"],
            properties: {
              passed: {
                type: "integer",
                minimum: 0
              },
              failed: {
                type: "integer",
                minimum: 0
              },
              frozen: {
                type: "integer",
                minimum: 0
              }
            }
          }
        }
      }
    },
    transitions: {
      type: "object",
      additionalProperties: false,
      required: ["fail_to_pass", "pass_to_fail", "fail_to_fail", "pass_to_pass", "vanished"],
      properties: {
        fail_to_pass: {
          type: "array",
          items: {
            type: "string"
          }
        },
        pass_to_fail: {
          type: "array",
          items: {
            type: "string"
          }
        },
        fail_to_fail: {
          type: "array",
          items: {
            type: "string"
          }
        },
        pass_to_pass: {
          type: "integer",
          minimum: 0
        },
        vanished: {
          type: "array",
          items: {
            type: "string"
          }
        }
      }
    },
    seeds: {
      type: "object",
      additionalProperties: false,
      required: ["oracle_hits", "raw_fail_to_pass", "min_distance", "hit_ids"],
      properties: {
        oracle_hits: {
          type: "integer",
          minimum: 0
        },
        raw_fail_to_pass: {
          type: "integer",
          minimum: 0
        },
        min_distance: {
          type: "integer",
          minimum: 0
        },
        hit_ids: {
          type: "array",
          items: {
            type: "string"
          }
        }
      }
    },
    freeze_debt: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["id", "test", "owner", "expires_on", "days_overdue"],
        properties: {
          id: {
            type: "string"
          },
          test: {
            type: "string"
          },
          owner: {
            type: "string"
          },
          expires_on: {
            type: "string"
          },
          days_overdue: {
            type: "integer",
            minimum: 0
          }
        }
      }
    },
    flakes: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["test", "side", "outcomes"],
        properties: {
          test: {
            type: "string"
          },
          side: {
            enum: ["base", "head"]
          },
          outcomes: {
            type: "array",
            items: {
              type: "string"
            }
          },
          ledger_id: {
            type: "string"
          }
        }
      }
    },
    sandbox: {
      type: "object",
      additionalProperties: false,
      required: ["kind", "contained"],
      description: "How the runs of the patch's code were contained: kind bwrap (each run in its own bubblewrap sandbox) or none (with why).",
      properties: {
        kind: {
          enum: ["bwrap", "none"]
        },
        contained: {
          type: "boolean"
        },
        why: {
          type: "string"
        }
      }
    },
    evidence: {
      type: "object",
      additionalProperties: false,
      required: ["changed_lines", "covered_lines", "uncovered", "mutants", "budget_s"],
      description: "Evidence that the locked tests pin the change (docs/evidence.md): the patch's changed production lines (arid lines left out), how many of them the passing voting tests ran on the head, the uncovered ones, and the mutants made of the covered ones with the voting test that killed each (null: it survived). Absent when evidence.mode is off.",
      properties: {
        changed_lines: {
          type: "integer",
          minimum: 0
        },
        covered_lines: {
          type: "integer",
          minimum: 0
        },
        uncovered: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["path", "lines"],
            properties: {
              path: {
                type: "string"
              },
              lines: {
                type: "array",
                items: {
                  type: "integer",
                  minimum: 1
                }
              }
            }
          }
        },
        mutants: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["path", "line", "mutation", "killed_by"],
            properties: {
              path: {
                type: "string"
              },
              line: {
                type: "integer",
                minimum: 1
              },
              mutation: {
                type: "string"
              },
              killed_by: {
                type: ["string", "null"]
              },
              not_run: {
                type: "string",
                description: "Extension: why the mutant was not run to its end (budget, timeout); such a mutant is never killed and not counted in the kill ratio."
              }
            }
          }
        },
        budget_s: {
          type: "integer",
          minimum: 0
        },
        skipped_reason: {
          type: "string"
        },
        problems: {
          type: "array",
          items: {
            type: "string"
          },
          description: "Extension: why coverage could not be measured for some files."
        }
      }
    },
    runs: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["side", "exit_code", "timed_out", "duration_ms", "tests"],
        properties: {
          side: {
            enum: ["base", "head"]
          },
          exit_code: {
            type: ["integer", "null"]
          },
          timed_out: {
            type: "boolean"
          },
          duration_ms: {
            type: "integer",
            minimum: 0
          },
          tests: {
            type: "integer",
            minimum: 0
          },
          setup: {
            enum: ["reused", "shared", "ran", "none"]
          },
          setup_reason: {
            type: "string"
          },
          log_tail: {
            type: "string"
          },
          primed_from: {
            type: "string",
            description: "Base only: the primed result this side was taken from; the base suite was not run."
          }
        }
      }
    },
    unmeasured: {
      description: "Paths the head changed that the vote did not use: with planes.production, every changed path outside production code (the vote took the merge base's version, or none); also the patch's own test-plane files, which never vote. Sorted.",
      type: "array",
      items: {
        type: "string"
      }
    },
    diagnostics: {
      type: "object",
      additionalProperties: false,
      required: ["non_discriminating", "drafts"],
      properties: {
        non_discriminating: {
          type: "array",
          items: {
            type: "string"
          }
        },
        drafts: {
          type: "object",
          additionalProperties: {
            type: "string"
          }
        },
        in_diff: {
          type: "object",
          description: "Outcome on head of each of the patch's own tests (in-diff files, tests appended to voting files).",
          additionalProperties: {
            type: "string"
          }
        },
        in_diff_base: {
          type: "object",
          description: "Outcome on the merge base of those of the patch's tests it could run there.",
          additionalProperties: {
            type: "string"
          }
        }
      }
    },
    campaign: {
      type: "object",
      additionalProperties: false,
      required: ["seed", "max_examples", "wall_clock"],
      properties: {
        seed: {
          type: "integer"
        },
        max_examples: {
          type: "integer",
          minimum: 0
        },
        wall_clock: {
          type: "number",
          minimum: 0
        }
      }
    },
    shard: {
      type: "object",
      additionalProperties: false,
      required: ["index", "total", "files"],
      description: "A shard's scorecard (check --shard I/N): the slice it ran, the fingerprint all shards of one gate share, what both sides observed (for oracle-gate merge) and a digest over the block.",
      properties: {
        index: {
          type: "integer",
          minimum: 1,
          maximum: 256
        },
        total: {
          type: "integer",
          minimum: 1,
          maximum: 256
        },
        files: {
          type: "array",
          items: {
            type: "string"
          },
          description: "The voting test files this shard owns."
        },
        observed: {
          type: "object",
          additionalProperties: false,
          required: ["selection", "canary", "added", "base", "head"],
          properties: {
            selection: {
              enum: ["runner", "full"],
              description: "runner: the slice was selected through the runner; full: the whole suite ran and only the owned files' results were kept."
            },
            canary: {
              oneOf: [
                {
                  type: "object",
                  additionalProperties: false,
                  required: ["plan"],
                  properties: {
                    plan: {
                      type: "object",
                      additionalProperties: false,
                      required: ["runner", "canaries"],
                      properties: {
                        runner: {
                          enum: ["pytest", "vitest", "jest", "node-test", "go"]
                        },
                        canaries: {
                          type: "array",
                          items: {
                            type: "object",
                            additionalProperties: false,
                            required: ["path", "title", "expect", "beside", "a", "b"],
                            properties: {
                              path: {
                                type: "string"
                              },
                              title: {
                                type: "string"
                              },
                              expect: {
                                enum: ["failed", "passed"]
                              },
                              beside: {
                                type: "string"
                              },
                              a: {
                                type: "number"
                              },
                              b: {
                                type: "number"
                              }
                            }
                          }
                        }
                      }
                    }
                  }
                },
                {
                  type: "object",
                  additionalProperties: false,
                  required: ["plan", "why"],
                  properties: {
                    plan: {
                      type: "null"
                    },
                    why: {
                      type: "string"
                    }
                  }
                }
              ]
            },
            added: {
              type: "array",
              items: {
                type: "string"
              }
            },
            base: {
              $ref: "#/definitions/shard_side"
            },
            head: {
              $ref: "#/definitions/shard_side"
            }
          }
        },
        fingerprint: {
          type: "object",
          additionalProperties: false,
          required: [
            "base",
            "base_ref",
            "head",
            "policy_path",
            "policy_digest",
            "instrument_digest",
            "today",
            "gate_version"
          ],
          properties: {
            base: {
              type: "string",
              pattern: "^[0-9a-f]{40}([0-9a-f]{24})?$"
            },
            base_ref: {
              type: "string",
              pattern: "^[0-9a-f]{40}([0-9a-f]{24})?$"
            },
            head: {
              type: "string",
              pattern: "^[0-9a-f]{40}([0-9a-f]{24})?$"
            },
            policy_path: {
              type: "string"
            },
            policy_digest: {
              type: "string",
              pattern: "^sha256:[0-9a-f]{64}$"
            },
            instrument_digest: {
              type: "string"
            },
            today: {
              type: "string"
            },
            gate_version: {
              type: "string"
            }
          }
        },
        digest: {
          type: "string",
          pattern: "^sha256:[0-9a-f]{64}$",
          description: "sha256 over the canonical JSON of this block without digest."
        }
      }
    },
    timings_ms: {
      type: "object",
      additionalProperties: {
        type: "number",
        minimum: 0
      }
    }
  },
  definitions: {
    outcome: {
      enum: ["passed", "failed", "error", "skipped"]
    },
    observation: {
      type: "object",
      additionalProperties: false,
      required: ["id", "file", "outcomes", "runnerFlaky"],
      properties: {
        id: {
          type: "string"
        },
        file: {
          type: ["string", "null"]
        },
        line: {
          type: "integer"
        },
        outcomes: {
          type: "array",
          items: {
            $ref: "#/definitions/outcome"
          }
        },
        runnerFlaky: {
          type: "boolean"
        },
        incidental: {
          type: "array",
          items: {
            $ref: "#/definitions/outcome"
          }
        },
        provisional: {
          type: "boolean"
        },
        message: {
          type: "string"
        }
      }
    },
    shard_side: {
      type: "object",
      additionalProperties: false,
      required: ["run", "results", "records", "duplicates"],
      properties: {
        run: {
          $ref: "#/properties/runs/items"
        },
        results: {
          oneOf: [
            {
              type: "null"
            },
            {
              type: "array",
              items: {
                $ref: "#/definitions/observation"
              }
            }
          ]
        },
        failure: {
          $ref: "#/properties/reasons/items"
        },
        tampered: {
          type: "array",
          items: {
            $ref: "#/properties/reasons/items"
          }
        },
        seeds: {
          type: "array",
          items: {
            type: "array",
            minItems: 2,
            maxItems: 2,
            items: [
              {
                type: "string"
              },
              {
                type: "boolean"
              }
            ]
          }
        },
        in_diff_on_base: {
          type: "array",
          items: {
            $ref: "#/definitions/observation"
          }
        },
        records: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["attempt", "exitCode", "signal", "cases", "failing", "passed"],
            properties: {
              attempt: {
                type: "integer",
                minimum: 0
              },
              exitCode: {
                type: ["integer", "null"]
              },
              signal: {
                type: ["string", "null"]
              },
              cases: {
                type: "integer",
                minimum: 0
              },
              failing: {
                type: "integer",
                minimum: 0
              },
              passed: {
                type: "integer",
                minimum: 0
              },
              canaries: {
                type: "array",
                items: {
                  type: "object",
                  additionalProperties: false,
                  required: ["canary", "outcome"],
                  properties: {
                    canary: {
                      type: "object",
                      additionalProperties: false,
                      required: ["path", "title", "expect", "beside", "a", "b"],
                      properties: {
                        path: {
                          type: "string"
                        },
                        title: {
                          type: "string"
                        },
                        expect: {
                          enum: ["failed", "passed"]
                        },
                        beside: {
                          type: "string"
                        },
                        a: {
                          type: "number"
                        },
                        b: {
                          type: "number"
                        }
                      }
                    },
                    outcome: {
                      enum: ["passed", "failed", "error", "skipped", "absent"]
                    }
                  }
                }
              },
              stream: {
                oneOf: [
                  {
                    type: "object",
                    additionalProperties: false,
                    required: ["state", "why"],
                    properties: {
                      state: {
                        const: "off"
                      },
                      why: {
                        type: "string"
                      }
                    }
                  },
                  {
                    type: "object",
                    additionalProperties: false,
                    required: ["state"],
                    properties: {
                      state: {
                        enum: ["silent", "agrees"]
                      }
                    }
                  },
                  {
                    type: "object",
                    additionalProperties: false,
                    required: ["state", "problems"],
                    properties: {
                      state: {
                        const: "tampered"
                      },
                      problems: {
                        type: "array",
                        items: {
                          type: "string"
                        }
                      }
                    }
                  }
                ]
              }
            }
          }
        },
        duplicates: {
          type: "array",
          items: {
            type: "string"
          }
        }
      }
    }
  }
};

// src/verdict/scorecard-schema.ts
function scorecardValidator() {
  return schemaValidator(scorecard_schema_default);
}
function validateScorecard(value) {
  return scorecardValidator()(value);
}

// src/shard/shards.ts
function loadShards(files) {
  if (files.length === 0) throw refusal("no shard scorecard was given");
  const validate = scorecardValidator();
  const loaded = files.map((f) => loadOne(f, validate));
  agree(loaded);
  const sorted = [...loaded].sort((a, b) => a.block.index - b.block.index);
  present(sorted);
  for (const s of sorted) {
    if (s.card.verdict !== "error") continue;
    const why = s.card.reasons.find((r) => r.level === "failure")?.message ?? "no reason given";
    throw refusal(`${label(s)} ended in error: ${clip3(why)}`);
  }
  return sorted;
}
function loadOne(file, validate) {
  const name2 = logText(file.name);
  let value;
  try {
    value = JSON.parse(file.text);
  } catch (error) {
    throw refusal(`${name2} is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const issues = validate(value);
  if (issues.length > 0)
    throw refusal(`${name2} is not a scorecard: ${issues.slice(0, 3).map(formatIssue).join("; ")}`);
  const card = value;
  const block = card.shard;
  if (block === void 0) throw refusal(`${name2} is not a shard scorecard (no shard block)`);
  if (block.digest === void 0 || block.digest !== shardDigest(block))
    throw refusal(
      `${name2} (shard ${block.index}/${block.total}) was altered: its digest does not match its content`
    );
  if (block.fingerprint === void 0) {
    const why = card.reasons.find((r) => r.level === "failure")?.message ?? "no reason given";
    throw refusal(
      `${name2} (shard ${block.index}/${block.total}) ended before its commits were known: ${clip3(why)}`
    );
  }
  return { name: name2, card, block };
}
function agree(loaded) {
  const [first, ...rest] = loaded;
  if (first === void 0) return;
  for (const s of rest) {
    if (s.block.total !== first.block.total)
      throw refusal(
        `${label(s)} is foreign: a shard of ${s.block.total}, while ${label(first)} is a shard of ${first.block.total}`
      );
    const differs = fingerprintDifferences2(first.block.fingerprint, s.block.fingerprint);
    if (differs.length > 0)
      throw refusal(
        `${label(s)} is foreign: its ${differs.join(", ")} differ from ${label(first)}'s`
      );
  }
}
function present(sorted) {
  const total = sorted[0]?.block.total ?? 0;
  const seen = /* @__PURE__ */ new Map();
  for (const s of sorted) {
    const twin = seen.get(s.block.index);
    if (twin)
      throw refusal(
        `${label(s)} is duplicated: ${twin.name} is shard ${s.block.index}/${total} too`
      );
    seen.set(s.block.index, s);
  }
  const missing = [];
  for (let i2 = 1; i2 <= total; i2++) if (!seen.has(i2)) missing.push(`${i2}/${total}`);
  if (missing.length > 0)
    throw refusal(`shard ${missing.join(", ")} is missing (${sorted.length} of ${total} given)`);
}
function fingerprintDifferences2(a, b) {
  return Object.keys(a).filter(
    (k) => canonical(a[k]) !== canonical(b[k])
  );
}
function label(s) {
  return `${s.name} (shard ${s.block.index}/${s.block.total})`;
}
function refusal(message2) {
  return new GateError(`merge: ${message2}`);
}
function clip3(s) {
  const flat2 = logText(s);
  return flat2.length > 300 ? `${flat2.slice(0, 297)}\u2026` : flat2;
}

// src/shard/merge.ts
import { createHash as createHash9 } from "node:crypto";
async function mergeShards(shards, options) {
  const fp = shards[0]?.block.fingerprint;
  if (fp === void 0) throw refusal("no shard scorecard was given");
  return check({
    ...options,
    base: fp.base_ref,
    head: fp.head,
    today: fp.today,
    policyPath: fp.policy_path,
    replay: (ctx, ledger) => mergedReplay(ctx, ledger, shards)
  });
}
async function mergedReplay(ctx, ledger, shards) {
  const observed = await verified(ctx, shards);
  const lead = observed[0];
  if (lead === void 0) throw refusal("no shard scorecard was given");
  const base = mergeSides(
    "base",
    observed.map((s) => fromShardSide("base", s.observed.base))
  );
  const head = mergeSides(
    "head",
    observed.map((s) => fromShardSide("head", s.observed.head))
  );
  const corpus = ctx.policy.seeds ? await loadCorpus(ctx, ctx.policy.seeds) : null;
  const added = new Set(observed.flatMap((s) => s.observed.added));
  const outcome = combine(ctx, ledger, base.side, head.side, corpus, {
    planeOf: (p) => ctx.planes.planeOf(p),
    classOf: compileClasses(ctx.policy.classes),
    canary: lead.observed.canary,
    added
  });
  const extra = [...base.extra, ...head.extra, ...observed.flatMap((s) => shardTripwires(ctx, s))];
  outcome.reasons = unique2([...outcome.reasons, ...extra]);
  outcome.reasons.push({
    rule: "diagnostic",
    level: "notice",
    message: `merged from ${observed.length} shard(s) (${selections(observed)}); the transitions were scored once`,
    path: ctx.policy.path
  });
  return outcome;
}
async function verified(ctx, shards) {
  const view = ctx.instrument ?? await instrumentView(ctx);
  const policyBytes = await ctx.git.showFile(ctx.mergeBase, ctx.policy.path) ?? Buffer.alloc(0);
  const here = {
    base: ctx.mergeBase,
    head: ctx.head,
    policy_digest: `sha256:${createHash9("sha256").update(policyBytes).digest("hex")}`,
    instrument_digest: instrumentDigest(view.base.values(), view.isInstrument).digest
  };
  const owners = /* @__PURE__ */ new Map();
  const out2 = [];
  for (const s of shards) {
    const fp = s.block.fingerprint;
    for (const key4 of Object.keys(here))
      if (fp[key4] !== here[key4])
        throw refusal(
          `${label(s)} is foreign: its ${key4} is not this run's (${fp[key4]} vs ${here[key4]})`
        );
    if (s.block.observed === void 0)
      throw refusal(`${label(s)} has no observations: its replay did not run`);
    for (const file of s.block.files) {
      const twin = owners.get(file);
      if (twin) throw refusal(`${file} is owned twice: by ${label(twin)} and ${label(s)}`);
      owners.set(file, s);
    }
    out2.push({ ...s, observed: s.block.observed });
  }
  const spec = { index: 1, total: shards.length };
  const split = planSlice(spec, view.base.keys(), ctx.planes, ctx.policy.suite);
  const voting = new Set(split.all);
  const foreign = [...owners.keys()].filter((f) => !voting.has(f));
  if (foreign.length > 0)
    throw refusal(
      `${label(owners.get(foreign[0] ?? ""))} owns ${foreign[0]}, not a voting test file of the merge base`
    );
  const missing = split.all.filter((f) => !owners.has(f));
  if (missing.length > 0)
    throw refusal(
      `no shard owns ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}`
    );
  for (const s of shards) {
    const expected = planSlice(
      { index: s.block.index, total: shards.length },
      view.base.keys(),
      ctx.planes,
      ctx.policy.suite
    ).files;
    if (expected.join("\n") !== s.block.files.join("\n"))
      throw refusal(`${label(s)} was altered: its files are not the split of the merge base`);
  }
  return out2;
}
function mergeSides(which, sides) {
  const failures = sides.flatMap((s) => s.failure ? [s.failure] : []);
  const nullResults = sides.some((s) => s.results === null);
  const results = nullResults ? null : keepWorst(sides.map((s) => s.results ?? /* @__PURE__ */ new Map()));
  const side = {
    side: which,
    run: mergedRun(
      which,
      sides.map((s) => s.run)
    ),
    results,
    records: [],
    duplicates: [...new Set(sides.flatMap((s) => s.duplicates ?? []))].sort()
  };
  const [failure2, ...others] = failures;
  if (failure2) side.failure = failure2;
  const tampered2 = sides.flatMap((s) => s.tampered ?? []);
  if (tampered2.length > 0) side.tampered = tampered2;
  const lead = sides[0];
  if (lead?.seeds) side.seeds = lead.seeds;
  if (lead?.inDiffOnBase) side.inDiffOnBase = lead.inDiffOnBase;
  return { side, extra: others };
}
function keepWorst(maps) {
  const out2 = /* @__PURE__ */ new Map();
  const worst = (o) => Math.max(...o.outcomes.map((x) => OUTCOME_RANK[x]), -1);
  for (const map of maps)
    for (const [id, o] of map) {
      const prior = out2.get(id);
      if (prior === void 0 || worst(o) > worst(prior)) out2.set(id, o);
    }
  return out2;
}
function mergedRun(which, runs) {
  const failing = runs.find((r) => r.timed_out || r.exit_code !== 0) ?? runs[0];
  const run2 = {
    side: which,
    exit_code: failing?.exit_code ?? null,
    timed_out: runs.some((r) => r.timed_out),
    duration_ms: Math.max(0, ...runs.map((r) => r.duration_ms)),
    tests: runs.reduce((n, r) => n + r.tests, 0)
  };
  if (runs[0]?.setup) run2.setup = runs[0].setup;
  if (runs[0]?.setup_reason) run2.setup_reason = runs[0].setup_reason;
  if (failing?.log_tail) run2.log_tail = failing.log_tail;
  const primed = runs.find((r) => r.primed_from)?.primed_from;
  if (primed) run2.primed_from = primed;
  return run2;
}
function shardTripwires(ctx, s) {
  const trip = judgeTripwires({
    base: s.observed.base.records,
    head: s.observed.head.records,
    canary: s.observed.canary,
    policyPath: ctx.policy.path
  });
  if (trip.baseProblems.length > 0) throw refusal(`${label(s)}: ${trip.baseProblems.join("\n")}`);
  return trip.reasons;
}
function unique2(reasons) {
  const seen = /* @__PURE__ */ new Set();
  return reasons.filter((r) => {
    const key4 = `${r.rule}\0${r.level}\0${r.path ?? ""}\0${r.message}`;
    if (seen.has(key4)) return false;
    seen.add(key4);
    return true;
  });
}
function selections(observed) {
  const runner = observed.filter((s) => s.observed.selection === "runner").length;
  return runner === observed.length ? "each ran its files through the runner's selection" : `${observed.length - runner} ran the whole suite and kept its own files' results`;
}

export {
  readPytestConfig,
  configFromAnswer,
  pytestConfigArgs,
  globRegExp,
  languageOf2 as languageOf,
  parserFor,
  require_picomatch2 as require_picomatch,
  compileGlobs,
  runFacts,
  isCredentialName,
  childEnv,
  isCalendarDate,
  daysBetween,
  addDays,
  Git,
  formatIssue,
  layoutProduction,
  compileRunnerMatcher,
  EXPIRING_WITHIN_DAYS,
  formatOf,
  formatProblem,
  parseLedger,
  ledgerFromText,
  JS_TEST_FUNCTIONS,
  JS_GROUP_FUNCTIONS,
  PY_TEST_FUNCTION,
  PY_TEST_CLASS,
  worktreeIdContext,
  SCORECARD_SCHEMA,
  emptyScorecard,
  finalize,
  detectRunner,
  runShell,
  shellQuote,
  sideEnv,
  runSuite,
  prepareWorktree,
  cleanupWorktree,
  worktreeFiles,
  observe,
  check,
  parsePrimed,
  readPrimed,
  primedBase,
  primeCommit,
  validateScorecard,
  loadShards,
  mergeShards,
  statementOf,
  policyDigest,
  runUrl,
  checkShard
};
