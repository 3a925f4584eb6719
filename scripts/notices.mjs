// The third-party notices shipped beside the bundle (dist/THIRD-PARTY-NOTICES.txt): MIT,
// ISC, BSD and Apache licences ask that their text travel with every copy of the code.
// Which packages went into the bundle is read from esbuild's metafile (inputs with bytes
// in some output), plus the packages whose files scripts/bundle.mjs copies (the
// tree-sitter wasm files). A package whose licence text cannot be found fails the bundle.
// Pure, except readPackage, which reads node_modules.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The packages of inputs that contributed bytes to some output: `node_modules/...` dirs. */
export function bundledPackageDirs(metafile) {
  const dirs = new Set()
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput === 0) continue
      const dir = packageDirOf(input)
      if (dir !== null) dirs.add(dir)
    }
  }
  return [...dirs].sort()
}

/** `node_modules/@scope/name` or `node_modules/name` (the innermost), or null for own code. */
export function packageDirOf(input) {
  const m = /^(?:.*\/)?(node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)
  if (m === null) return null
  return input.slice(0, input.lastIndexOf(m[1]) + m[1].length)
}

const LICENCE_FILE = /^(licen[cs]e|copying)(\.(md|txt|markdown))?$/i

/**
 * The standard texts, for a package that names its licence but ships no file (saxes):
 * the copyright line is the package's author.
 */
const STANDARD = {
  ISC: holder =>
    `ISC License\n\nCopyright (c) ${holder}\n\nPermission to use, copy, modify, and/or distribute this software for any\npurpose with or without fee is hereby granted, provided that the above\ncopyright notice and this permission notice appear in all copies.\n\nTHE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES\nWITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF\nMERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR\nANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES\nWHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN\nACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF\nOR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.\n`,
  MIT: holder =>
    `MIT License\n\nCopyright (c) ${holder}\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\nof this software and associated documentation files (the "Software"), to deal\nin the Software without restriction, including without limitation the rights\nto use, copy, modify, merge, publish, distribute, sublicense, and/or sell\ncopies of the Software, and to permit persons to whom the Software is\nfurnished to do so, subject to the following conditions:\n\nThe above copyright notice and this permission notice shall be included in all\ncopies or substantial portions of the Software.\n\nTHE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR\nIMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,\nFITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE\nAUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER\nLIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,\nOUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE\nSOFTWARE.\n`
}

/** { name, version, license, text, source } of the package in `dir` (relative to root). */
export function readPackage(root, dir) {
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'))
  const license = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? '')
  const files = readdirSync(join(root, dir))
    .filter(f => LICENCE_FILE.test(f))
    .sort()
  const notice = ['NOTICE', 'NOTICE.md', 'NOTICE.txt'].find(f => existsSync(join(root, dir, f)))
  let text = files.map(f => readFileSync(join(root, dir, f), 'utf8')).join('\n')
  let source = files.join(', ')
  if (text.trim() === '') {
    const author = typeof pkg.author === 'string' ? pkg.author : pkg.author?.name
    const standard = STANDARD[license]
    if (standard === undefined || !author)
      throw new Error(
        `${pkg.name}@${pkg.version} (${dir}) ships no licence file and names no standard licence (${license}) with an author`
      )
    text = standard(author)
    source = `the standard ${license} text with the author of package.json (the package ships no licence file)`
  }
  if (notice !== undefined) text += `\n${readFileSync(join(root, dir, notice), 'utf8')}`
  if (license === '') throw new Error(`${pkg.name}@${pkg.version} (${dir}) names no licence`)
  return { name: pkg.name, version: pkg.version, license, text: text.trimEnd() + '\n', source }
}

/** The notices file: one section per package, by name. */
export function renderNotices(packages) {
  const key = p => `${p.name}@${p.version}`
  const unique = packages.filter((p, i) => packages.findIndex(q => key(q) === key(p)) === i)
  const sorted = unique.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
  const rule = '-'.repeat(78)
  return [
    'Third-party software in this directory (dist/), with the licence of each.',
    'Generated by scripts/bundle.mjs from the esbuild metafile; do not edit by hand.',
    '',
    ...sorted.flatMap(p => [
      rule,
      `${p.name}@${p.version}`,
      `License: ${p.license}`,
      `Licence text: ${p.source}`,
      '',
      p.text
    ])
  ].join('\n')
}
