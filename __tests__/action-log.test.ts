// The action's safe toolkit (src/action/log.ts) over the real one: what it writes to stdout is
// what the runner parses. Head text at the start of a message, or `##[` anywhere in it,
// must end up between ::stop-commands::TOKEN and ::TOKEN::, with a token nobody could guess;
// warnings stay one annotation each, with line breaks shown rather than escaped away.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { actionsToolkit, toolkitLogger } from '../src/action/environment.js'
import { safeToolkit } from '../src/action/log.js'

/** The logger run() hands the gate: @actions/core behind the safe wrapper. */
const actionsLogger = toolkitLogger(safeToolkit(actionsToolkit()))

let out: string[] = []
beforeEach(() => {
  out = []
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk))
    return true
  })
})
afterEach(() => vi.restoreAllMocks())

const lines = (): string[] =>
  out
    .join('')
    .split(/\r?\n/)
    .filter(l => l !== '')

describe('actionsLogger', () => {
  it('wraps a message that starts like a workflow command in stop-commands', () => {
    actionsLogger.info('::add-mask::hunter2\n::error file=a.py::forged')
    const [open, text, close, ...rest] = lines()
    expect(rest).toEqual([])
    const token = /^::stop-commands::(oracle-gate-[0-9a-f]{32})$/.exec(open ?? '')?.[1]
    expect(token).toBeDefined()
    expect(text).toBe('::add-mask::hunter2\\n::error file=a.py::forged')
    expect(close).toBe(`::${token}::`)
  })

  it('wraps a message holding the older ##[command] syntax anywhere', () => {
    actionsLogger.info('tests/x ##[error]forged')
    expect(lines()[0]).toMatch(/^::stop-commands::/)
  })

  it('uses a fresh token for each block', () => {
    actionsLogger.info('::a::')
    actionsLogger.info('::b::')
    const tokens = lines().filter(l => l.startsWith('::stop-commands::'))
    expect(new Set(tokens).size).toBe(2)
  })

  it('prints an ordinary message as one plain line, escapes shown', () => {
    actionsLogger.info('base: running\u001b[2J the suite\u2028next')
    expect(lines()).toEqual(['base: running\\x1b[2J the suite\\u2028next'])
  })

  it('keeps a warning one annotation whose data cannot break out', () => {
    actionsLogger.warning('bad\n::error::forged')
    expect(lines()).toEqual(['::warning::bad\\n::error::forged'])
  })

  it('makes a group name one line', async () => {
    await actionsLogger.group('a\n::error::x', async () => undefined)
    expect(lines()[0]).toBe('::group::a\\n::error::x')
  })
})
