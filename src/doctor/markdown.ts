// Doctor's report for a maintainer, as Markdown. Test ids and messages come from the
// repository's own files and runs; they are put in code spans with backticks neutralised.
import type { DoctorReport } from './findings.js'

const code = (s: string): string => `\`${s.replace(/[`\r\n]/g, ' ').slice(0, 400)}\``

export function doctorMarkdown(r: DoctorReport): string {
  const lines = [
    `# oracle-gate doctor: ${code(r.ref)}`,
    '',
    r.fit ? '**Fit to vote.**' : '**Not fit to vote**: fix the blockers below.',
    '',
    '## Runs',
    '',
    '| run | seconds | exit | tests |',
    '| --- | ---: | ---: | ---: |',
    ...r.runs.map((x, i) => `| ${i + 1} | ${x.seconds} | ${x.exitCode ?? 'killed'} | ${x.tests} |`),
    '',
    '## Voting tests by file',
    '',
    ...Object.entries(r.votingByFile)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([f, n]) => `- ${code(f)}: ${n}`),
    ''
  ]
  if (r.findings.length > 0) lines.push('## Findings', '')
  for (const f of r.findings) {
    lines.push(`- **${f.level}** ${f.code}: ${f.message}`)
    for (const item of f.items ?? []) lines.push(`  - ${code(item)}`)
  }
  if (r.proposedRows.length > 0) {
    lines.push('', '## Proposed ledger rows', '', '```sh')
    for (const row of r.proposedRows)
      lines.push(
        `oracle-gate ledger add --test ${shell(row.test)} --cause ${row.cause} --owner ${shell(row.owner)} --reason ${shell(row.reason)} --expires ${row.expires_on}`
      )
    lines.push('```')
  }
  return `${lines.join('\n')}\n`
}

function shell(s: string): string {
  return `'${s.replace(/[\r\n]/g, ' ').replace(/'/g, `'\\''`)}'`
}
