// One file out of a zip archive: GitHub serves workflow artifacts only as zips, and the gate
// needs exactly one small JSON file from one (the primed base result). Pure and bounded:
// the central directory is read from the end of the buffer, the entry must be a plain
// stored or deflated file no larger than the caller's limit, its CRC must match, and any
// other shape (encrypted, zip64, spanning, a name that is not exact) is refused with the
// reason, never guessed at.
import { inflateRawSync } from 'node:zlib'

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50
const EOCD_MIN = 22
const MAX_COMMENT = 0xffff

interface Entry {
  name: string
  method: number
  flags: number
  crc: number
  compressed: number
  size: number
  localOffset: number
}

/** The bytes of the entry called `name`, or why they cannot be had. */
export function readZipEntry(zip: Buffer, name: string, maxBytes: number): Buffer | string {
  const entries = centralDirectory(zip)
  if (typeof entries === 'string') return entries
  const matches = entries.filter(e => e.name === name)
  if (matches.length !== 1) {
    const names = entries.map(e => JSON.stringify(e.name)).slice(0, 5)
    return matches.length === 0
      ? `the archive has no file ${JSON.stringify(name)} (it holds ${names.join(', ') || 'nothing'})`
      : `the archive holds ${matches.length} files named ${JSON.stringify(name)}`
  }
  return entryBytes(zip, matches[0] as Entry, maxBytes)
}

function centralDirectory(zip: Buffer): Entry[] | string {
  const end = findEnd(zip)
  if (end < 0) return 'not a zip archive (no end of central directory)'
  const disk = zip.readUInt16LE(end + 4)
  const count = zip.readUInt16LE(end + 10)
  const size = zip.readUInt32LE(end + 12)
  const offset = zip.readUInt32LE(end + 16)
  if (disk !== 0 || zip.readUInt16LE(end + 8) !== count) return 'a multi-part zip archive'
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff)
    return 'a zip64 archive (larger than a primed result can be)'
  if (offset + size > end) return 'a damaged zip archive (central directory out of range)'
  const entries: Entry[] = []
  let at = offset
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || zip.readUInt32LE(at) !== CENTRAL)
      return 'a damaged zip archive (bad central directory entry)'
    const nameLength = zip.readUInt16LE(at + 28)
    entries.push({
      flags: zip.readUInt16LE(at + 8),
      method: zip.readUInt16LE(at + 10),
      crc: zip.readUInt32LE(at + 16),
      compressed: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localOffset: zip.readUInt32LE(at + 42),
      name: zip.toString('utf8', at + 46, at + 46 + nameLength)
    })
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32)
  }
  return entries
}

/** The end-of-central-directory record: its signature, scanning back over any comment. */
function findEnd(zip: Buffer): number {
  const stop = Math.max(0, zip.length - EOCD_MIN - MAX_COMMENT)
  for (let at = zip.length - EOCD_MIN; at >= stop; at--) {
    if (zip.readUInt32LE(at) === EOCD && at + EOCD_MIN + zip.readUInt16LE(at + 20) === zip.length)
      return at
  }
  return -1
}

function entryBytes(zip: Buffer, e: Entry, maxBytes: number): Buffer | string {
  if (e.flags & 1) return `${JSON.stringify(e.name)} is encrypted`
  if (e.size > maxBytes)
    return `${JSON.stringify(e.name)} is ${e.size} bytes, more than the ${maxBytes} allowed`
  const local = e.localOffset
  if (local + 30 > zip.length || zip.readUInt32LE(local) !== LOCAL)
    return 'a damaged zip archive (bad local header)'
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28)
  if (start + e.compressed > zip.length) return 'a damaged zip archive (entry out of range)'
  const raw = zip.subarray(start, start + e.compressed)
  let data: Buffer
  if (e.method === 0) data = Buffer.from(raw)
  else if (e.method === 8) {
    try {
      // Never more than it declares (plus one byte, to see it lie): a bomb stops at once.
      data = inflateRawSync(raw, { maxOutputLength: e.size + 1 })
    } catch (error) {
      return `${JSON.stringify(e.name)} does not inflate (${error instanceof Error ? error.message : String(error)})`
    }
  } else return `${JSON.stringify(e.name)} uses compression method ${e.method}`
  if (data.length !== e.size)
    return `${JSON.stringify(e.name)} is ${data.length} bytes, the archive says ${e.size}`
  if (crc32(data) >>> 0 !== e.crc) return `${JSON.stringify(e.name)} fails its CRC check`
  return data
}

/**
 * CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as zip stores it. Written here
 * because zlib.crc32 needs Node 20.15 while engines allows every Node 20. The table is
 * built per call (256 entries, microseconds): no module-level state.
 */
export function crc32(data: Uint8Array): number {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  let crc = 0xffffffff
  for (const byte of data) crc = table[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}
