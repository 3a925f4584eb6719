// Third-party notices (issue 22): every package whose code esbuild put into the bundle, and
// every package whose files scripts/bundle.mjs copies into dist/, appears in
// dist/THIRD-PARTY-NOTICES.txt with its name, version, licence id and full licence text.
// The build runs in memory here (write: false), with the bundle script's own options.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, type Metafile } from 'esbuild'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildOptions, noticePackageDirs, noticesFor, WASM } from '../scripts/bundle.mjs'
import { bundledPackageDirs, packageDirOf, readPackage } from '../scripts/notices.mjs'

const root = join(import.meta.dirname, '..')

describe('the notices of the bundle', () => {
  let metafile: Metafile
  beforeAll(async () => {
    const result = await build({ ...buildOptions(join(tmpdir(), 'og-notices')), write: false })
    metafile = result.metafile!
  })

  it('lists every package with bytes in the bundle, and the copied wasm packages', () => {
    const dirs = noticePackageDirs(metafile)
    // Read independently of bundledPackageDirs: every node_modules input with bytes.
    for (const output of Object.values(metafile.outputs))
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
        if (bytesInOutput === 0 || !input.includes('node_modules/')) continue
        expect(
          dirs.some(d => input.startsWith(`${d}/`)),
          input
        ).toBe(true)
      }
    // Every runtime dependency is bundled, and so must be listed.
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    for (const name of Object.keys(pkg.dependencies)) expect(dirs).toContain(`node_modules/${name}`)
    for (const file of WASM) expect(dirs).toContain(file.split('/').slice(0, 2).join('/'))
  })

  it('gives each its name, version, licence id and full licence text', () => {
    const text = noticesFor(metafile)
    for (const dir of noticePackageDirs(metafile)) {
      const p = readPackage(root, dir)
      expect(text, dir).toContain(`${p.name}@${p.version}\nLicense: ${p.license}\n`)
      expect(text, dir).toContain(p.text)
      expect(p.license).toMatch(/^(MIT|ISC|BSD-3-Clause|Apache-2\.0|BSD-2-Clause)$/)
      // The licence text is a licence: it grants something.
      expect(p.text, dir).toMatch(/permission|licensed|redistribution/i)
    }
    // The packages named in issue 22 (MIT and ISC) with their own files.
    expect(text).toMatch(/yaml@[\d.]+\nLicense: ISC\n/)
    expect(text).toContain(readFileSync(join(root, 'node_modules/ajv/LICENSE'), 'utf8').trimEnd())
    expect(text).toContain(
      readFileSync(join(root, 'node_modules/web-tree-sitter/LICENSE'), 'utf8').trimEnd()
    )
  })
})

describe('notices helpers', () => {
  it('finds the innermost package of an input', () => {
    expect(packageDirOf('node_modules/ajv/dist/core.js')).toBe('node_modules/ajv')
    expect(packageDirOf('node_modules/@octokit/core/dist-src/index.js')).toBe(
      'node_modules/@octokit/core'
    )
    expect(packageDirOf('node_modules/a/node_modules/@s/b/x.js')).toBe(
      'node_modules/a/node_modules/@s/b'
    )
    expect(packageDirOf('src/gate.ts')).toBeNull()
  })

  it('skips inputs that put no bytes in any output', () => {
    const meta = {
      inputs: {},
      outputs: {
        'a.js': {
          inputs: {
            'node_modules/x/i.js': { bytesInOutput: 0 },
            'node_modules/y/i.js': { bytesInOutput: 10 },
            'src/a.ts': { bytesInOutput: 5 }
          }
        }
      }
    } as unknown as Metafile
    expect(bundledPackageDirs(meta)).toEqual(['node_modules/y'])
  })

  it('uses the standard text for a package without a licence file, and refuses one with neither', () => {
    const dir = mkdtempSync(join(tmpdir(), 'og-notices-'))
    try {
      const write = (name: string, pkg: object) => {
        mkdirSync(join(dir, 'node_modules', name), { recursive: true })
        writeFileSync(join(dir, 'node_modules', name, 'package.json'), JSON.stringify(pkg))
      }
      write('isc-only', { name: 'isc-only', version: '1.0.0', license: 'ISC', author: 'A. Person' })
      write('nothing', { name: 'nothing', version: '1.0.0', license: 'UNLICENSED' })
      const p = readPackage(dir, 'node_modules/isc-only')
      expect(p.text).toMatch(/^ISC License\n\nCopyright \(c\) A\. Person\n/)
      expect(() => readPackage(dir, 'node_modules/nothing')).toThrow(/ships no licence file/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
