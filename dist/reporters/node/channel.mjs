// The descriptor the gate holds, as the gate's JavaScript reporters see it: named by one
// environment variable that is taken out of the environment as soon as this module loads
// (before the runner starts its workers), so the code under test never sees it. Every line
// carries the run's nonce: a line written by anything else is foreign (src/replay/stream.ts).
import { writeSync } from 'node:fs'

const VAR = 'TEST_OUTCOME_STREAM'

function take() {
  const spec = process.env[VAR]
  delete process.env[VAR]
  if (!spec) return null
  // `<fd>:<nonce>[:<watch fd>]` (src/replay/stream.ts, watch.ts).
  const [fd = '', nonce = ''] = spec.split(':')
  return { fd: Number(fd), nonce }
}

const channel = take()

/** Sends one record; a closed descriptor ends the stream quietly (the gate sees it cut). */
export function send(kind, fields = {}) {
  if (channel === null) return
  const data = Buffer.from(`${JSON.stringify({ ...fields, k: channel.nonce, t: kind })}\n`)
  let offset = 0
  while (offset < data.length) {
    try {
      offset += writeSync(channel.fd, data, offset)
    } catch (error) {
      if (error && error.code === 'EAGAIN') continue
      return
    }
  }
}

export const streaming = channel !== null
