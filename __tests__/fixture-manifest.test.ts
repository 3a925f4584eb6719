// The fixture manifest's shape is a JSON Schema (src/instrument/fixtures.schema.json): an
// entry that does not match it is config-invalid naming manifest, entry and place; paths
// resolve against the manifest's folder and may not leave the repository.
import { describe, expect, it } from 'vitest'
import { GateError } from '../src/errors.js'
import { parseManifest } from '../src/instrument/fixtures.js'

const SHA = 'ab'.repeat(32)

function refused(text: string): GateError {
  try {
    parseManifest(text, 'oracle/fixtures/manifest.json')
  } catch (error) {
    if (error instanceof GateError) return error
    throw error
  }
  throw new Error('the manifest was accepted')
}

describe('parseManifest', () => {
  it('resolves each file against the manifest folder and lower-cases the digest', () => {
    expect(
      parseManifest(
        JSON.stringify({ golden: { file: 'golden.txt', sha256: SHA.toUpperCase() } }),
        'oracle/fixtures/manifest.json'
      )
    ).toEqual([{ name: 'golden', path: 'oracle/fixtures/golden.txt', sha256: SHA }])
  })

  it('refuses what the schema refuses, naming the entry and the key', () => {
    const notObject = refused('[1]')
    expect(notObject.rule).toBe('config-invalid')
    expect(notObject.path).toBe('oracle/fixtures/manifest.json')
    expect(notObject.message).toMatch(
      /must be \{NAME: \{file, sha256\}\}.*\(top level\): expected object/
    )
    expect(refused(JSON.stringify({ g: { file: 'g.txt', sha256: 'abc' } })).message).toMatch(
      /entry "g" must be .*: g\/sha256: must match pattern/
    )
    expect(refused(JSON.stringify({ g: { sha256: SHA } })).message).toMatch(
      /entry "g" .*missing required key "file"/
    )
    expect(refused(JSON.stringify({ g: { file: '', sha256: SHA } })).message).toMatch(/g\/file/)
    expect(refused('{').message).toMatch(/not valid JSON/)
  })

  it('refuses a file outside the repository', () => {
    expect(
      refused(JSON.stringify({ g: { file: '../../../etc/passwd', sha256: SHA } })).message
    ).toMatch(/entry "g": "file" \.\.\/\.\.\/\.\.\/etc\/passwd leaves the repository/)
  })
})
