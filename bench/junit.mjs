// Figure 4: a generated 200,000-testcase JUnit report: parse time and peak RSS, measured in
// a child process so the RSS is the parser's alone.
import { spawnSync } from 'node:child_process'
import { createWriteStream, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { buildEntries } from './build.mjs'
import { median, tempDir } from './lib.mjs'

const CASES = 200_000

async function writeReport(path) {
  const out = createWriteStream(path)
  const write = s => (out.write(s) ? Promise.resolve() : new Promise(r => out.once('drain', r)))
  await write(
    '<?xml version="1.0" encoding="utf-8"?>\n<testsuites><testsuite name="pytest" tests="200000">\n'
  )
  for (let i = 0; i < CASES; i++) {
    const module = `oracle.properties.test_mod_${i % 500}`
    const name = `test_case_${i}[param-${i % 7}-&quot;ü&quot;]`
    if (i % 1000 === 0) {
      await write(
        `<testcase classname="${module}" name="${name}" time="0.001"><failure message="assert 1 == 2">Traceback &lt;long&gt; ${'x'.repeat(200)}</failure></testcase>\n`
      )
    } else if (i % 777 === 0) {
      await write(
        `<testcase classname="${module}" name="${name}" time="0.000"><skipped type="pytest.skip" message="skip">skipped</skipped></testcase>\n`
      )
    } else {
      await write(`<testcase classname="${module}" name="${name}" time="0.001" />\n`)
    }
  }
  await write('</testsuite></testsuites>\n')
  await new Promise(r => out.end(r))
}

export async function junitParse() {
  const entries = await buildEntries()
  const dir = tempDir('og-bench-junit-')
  const report = join(dir, 'report.xml')
  try {
    await writeReport(report)
    const script = `
      const { readReport } = await import(${JSON.stringify(entries)})
      const started = process.hrtime.bigint()
      const r = await readReport(${JSON.stringify(report)})
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      const count = r.cases?.length ?? r.length ?? 0
      console.log(JSON.stringify({ seconds, rss: process.resourceUsage().maxRSS * 1024, count }))`
    const runs = []
    for (let i = 0; i < 3; i++) {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8'
      })
      if (r.status !== 0) throw new Error(r.stderr)
      runs.push(JSON.parse(r.stdout))
    }
    const t = median(runs.map(r => r.seconds))
    const rss = median(runs.map(r => r.rss)) / 2 ** 20
    return [
      {
        measure: `parse ${runs[0].count} testcases, ${(statSync(report).size / 2 ** 20).toFixed(0)} MB (s)`,
        value: t,
        digits: 2,
        goal: '< 3 s',
        ok: t < 3 && runs[0].count === CASES
      },
      {
        measure: 'peak RSS of the parsing process (MB)',
        value: rss,
        digits: 0,
        goal: '< 300 MB',
        ok: rss < 300
      }
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
