import type { Logger } from '../../src/types.js'

/** A logger that records what it was told, for assertions. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = []
  return {
    lines,
    info: m => void lines.push(m),
    warning: m => void lines.push(`warning: ${m}`),
    group: async (name, fn) => {
      lines.push(`group: ${name}`)
      return fn()
    }
  }
}
