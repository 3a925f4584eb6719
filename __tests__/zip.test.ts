// The zip reader against archives from an independent writer (Python's zipfile, committed in
// __tests__/fixtures/zip, as GitHub's artifact zips come from another library too), its
// CRC-32 against known vectors and zlib, and against the shapes it must refuse:
// a missing or doubled name, encryption, a wrong CRC, an entry over the limit, an entry
// that inflates beyond what it declares, truncation, and bytes that are no zip at all.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { crc32, readZipEntry } from '../src/github/zip.js'
import { writeZip } from './helpers/zip.js'

const JSON_TEXT = JSON.stringify({
  schema: 'oracle-gate/primed-base@1',
  results: ['x'.repeat(5000)]
})

/**
 * Archives Python's zipfile wrote (committed, so the fast tier needs no Python): "other.txt"
 * ("hello") and "primed-base.json" (JSON_TEXT), comment "a comment", made with
 *   z = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED or ZIP_STORED)
 *   z.writestr("other.txt", "hello"); z.writestr("primed-base.json", JSON_TEXT)
 *   z.comment = b"a comment"; z.close()
 */
function pythonZip(method: 'ZIP_DEFLATED' | 'ZIP_STORED'): Buffer {
  const name = method === 'ZIP_DEFLATED' ? 'python-deflated.zip' : 'python-stored.zip'
  return readFileSync(join(import.meta.dirname, 'fixtures', 'zip', name))
}

const LIMIT = 1 << 20

describe('readZipEntry', () => {
  it.each(['ZIP_DEFLATED', 'ZIP_STORED'] as const)(
    'reads a %s entry of a zip Python wrote',
    method => {
      const got = readZipEntry(pythonZip(method), 'primed-base.json', LIMIT)
      expect(Buffer.isBuffer(got) ? got.toString('utf8') : got).toBe(JSON_TEXT)
    }
  )

  it('reads what the test writer writes (deflated and stored), the exact name only', () => {
    const zip = writeZip([
      { name: 'dir/primed-base.json', data: 'nested' },
      { name: 'primed-base.json', data: JSON_TEXT, method: 0 }
    ])
    expect(String(readZipEntry(zip, 'primed-base.json', LIMIT))).toBe(JSON_TEXT)
    expect(String(readZipEntry(zip, 'dir/primed-base.json', LIMIT))).toBe('nested')
  })

  it.each([
    [
      'a missing name, listing what is there',
      writeZip([{ name: 'a.json', data: '{}' }]),
      /no file "primed-base.json" \(it holds "a.json"\)/
    ],
    [
      'a doubled name',
      writeZip([
        { name: 'primed-base.json', data: '{}' },
        { name: 'primed-base.json', data: '{"forged":1}' }
      ]),
      /holds 2 files named/
    ],
    [
      'an encrypted entry',
      writeZip([{ name: 'primed-base.json', data: '{}', flags: 1 }]),
      /encrypted/
    ],
    ['a wrong CRC', writeZip([{ name: 'primed-base.json', data: '{}', crc: 1234 }]), /CRC/],
    [
      'an entry over the limit',
      writeZip([{ name: 'primed-base.json', data: 'x'.repeat(LIMIT + 1) }]),
      /more than the 1048576 allowed/
    ],
    ['bytes that are no zip', Buffer.from('{"schema": "not a zip"}'), /not a zip archive/],
    [
      'a truncated archive',
      writeZip([{ name: 'primed-base.json', data: JSON_TEXT }]).subarray(0, 40),
      /not a zip archive/
    ]
  ])('refuses %s', (_what, zip, why) => {
    const got = readZipEntry(zip, 'primed-base.json', LIMIT)
    expect(typeof got).toBe('string')
    expect(got).toMatch(why)
  })

  it('refuses an entry that inflates beyond the size it declares (a zip bomb), without inflating it all', () => {
    const bomb = zlib.deflateRawSync(Buffer.alloc(64 * LIMIT))
    const lying = rebuildWithBody(bomb, 2)
    // The same archive telling the truth about a small body is read.
    expect(
      readZipEntry(
        rebuildWithBody(zlib.deflateRawSync('{}'), 2, crc32(Buffer.from('{}'))),
        'primed-base.json',
        LIMIT
      )
    ).toEqual(Buffer.from('{}'))
    const got = readZipEntry(lying, 'primed-base.json', LIMIT)
    expect(typeof got).toBe('string')
    expect(got).toMatch(/does not inflate|bytes, the archive says 2/)
  })
})

describe('crc32', () => {
  it('matches the known CRC-32 vectors', () => {
    expect(crc32(Buffer.alloc(0))).toBe(0)
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926)
    expect(crc32(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339)
    expect(crc32(Buffer.from('a'))).toBe(0xe8b7be43)
    expect(crc32(Buffer.alloc(32, 0xff))).toBe(0xff6cab0b)
  })

  it('agrees with zlib.crc32 where Node has it (20.15+)', () => {
    const native = (zlib as { crc32?: (data: Uint8Array) => number }).crc32
    if (native === undefined) return
    let seed = 7
    for (let n = 0; n < 200; n++) {
      const data = Buffer.alloc(n * 37, 0).map(() => (seed = (seed * 1103515245 + 12345) & 0xff))
      expect(crc32(data), `length ${data.length}`).toBe(native(data) >>> 0)
    }
  })
})

/** A one-entry archive whose deflated body is `body`, declaring `size` bytes and `crc`. */
function rebuildWithBody(body: Buffer, size: number, crc = 0): Buffer {
  const zip = writeZip([{ name: 'primed-base.json', data: Buffer.alloc(0), method: 0 }])
  const name = Buffer.from('primed-base.json')
  const local = Buffer.from(zip.subarray(0, 30))
  local.writeUInt16LE(8, 8)
  local.writeUInt32LE(crc, 14)
  local.writeUInt32LE(body.length, 18)
  local.writeUInt32LE(size, 22)
  const cdStart = 30 + name.length
  const central = Buffer.from(zip.subarray(cdStart, cdStart + 46))
  central.writeUInt16LE(8, 10)
  central.writeUInt32LE(crc, 16)
  central.writeUInt32LE(body.length, 20)
  central.writeUInt32LE(size, 24)
  const end = Buffer.from(zip.subarray(cdStart + 46 + name.length))
  end.writeUInt32LE(30 + name.length + body.length, 16)
  return Buffer.concat([local, name, body, central, name, end])
}
