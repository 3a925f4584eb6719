// The shaped sandbox's argv (src/exec/sandbox.ts, bwrapArgv with a shape): level host makes
// the PID and network namespaces outside bwrap (so bwrap's own flags go), level disk keeps
// them; both put a disk root first (before /proc, which it would hide) and fresh folders where
// bwrap made tmpfs; the wrapper dies with the gate.
import { describe, expect, it } from 'vitest'
import { bwrapArgv, shapedSignals, type Layout, type Shape } from '../src/exec/sandbox.js'

const layout = (over: Partial<Layout> = {}): Layout => ({
  mounts: [
    { kind: 'tmpfs', to: '/tmp' },
    { kind: 'tmpfs', to: '/home/dev' },
    { kind: 'ro', from: '/usr', to: '/usr' },
    { kind: 'ro', from: '/home/dev/.pyenv', to: '/home/dev/.pyenv' }
  ],
  instrument: ['oracle'],
  at: '/home/dev/project',
  worktree: '/tmp/tmp.gate/tmp.abc',
  network: false,
  ...over
})

const shape = (level: Shape['level']): Shape => ({
  level,
  scratch: '/tmp/tmp.gate',
  net: { name: 'ens5', mac: '02:00:00:00:00:01', cidr: '172.31.0.9/20', gateway: '172.31.0.1' },
  tools: {
    setpriv: '/usr/bin/setpriv',
    unshare: '/usr/bin/unshare',
    ip: '/usr/sbin/ip',
    nsenter: '/usr/bin/nsenter'
  }
})

/** The bwrap part of a wrapper's argv. */
const bwrapPart = (argv: string[]): string[] => argv.slice(argv.indexOf('bwrap'))

describe('bwrapArgv with a shape', () => {
  it('is bwrap alone without a shape or at level none', () => {
    expect(bwrapArgv('bwrap', layout())[0]).toBe('bwrap')
    expect(bwrapArgv('bwrap', layout(), shape('none'))).toEqual(bwrapArgv('bwrap', layout()))
  })

  it('level host: namespaces outside bwrap, the host interface, a disk root first', () => {
    const argv = bwrapArgv('bwrap', layout(), shape('host'))
    expect(argv.slice(0, 6)).toEqual([
      '/usr/bin/setpriv',
      '--pdeathsig',
      'KILL',
      '/usr/bin/unshare',
      '--net',
      '--'
    ])
    expect(argv).toEqual(
      expect.arrayContaining(['net', 'ens5', '02:00:00:00:00:01', '172.31.0.9/20', '172.31.0.1'])
    )
    const b = bwrapPart(argv)
    expect(b).not.toContain('--unshare-pid')
    expect(b).not.toContain('--unshare-net')
    expect(b).toContain('--die-with-parent')
    expect(b.indexOf('/')).toBeLessThan(b.indexOf('--proc'))
    expect(b[b.indexOf('/') - 1]).toBe('@run@/root')
    expect(b).not.toContain('--tmpfs')
    const tmp = b.indexOf('/tmp', b.indexOf('--proc'))
    expect(b[tmp - 2]).toBe('--bind')
    expect(b[tmp - 1]).toMatch(/^@run@\//)
    expect(b.slice(-2)).toEqual(['--chdir', '/home/dev/project'])
  })

  it('level host with the network asked for: no network namespace, the PID one still', () => {
    const argv = bwrapArgv('bwrap', layout({ network: true }), shape('host'))
    expect(argv.slice(0, 4)).toEqual(['/usr/bin/setpriv', '--pdeathsig', 'KILL', '/bin/sh'])
    expect(argv).not.toContain('ens5')
    expect(argv).toContain('/usr/bin/unshare')
  })

  it('level disk: bwrap keeps its own namespaces; only the folders are shaped', () => {
    const b = bwrapPart(bwrapArgv('bwrap', layout(), shape('disk')))
    expect(b.slice(0, 5)).toEqual([
      'bwrap',
      '--die-with-parent',
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-net'
    ])
    expect(b).not.toContain('--tmpfs')
    expect(b).toContain('@run@/root')
  })

  it('names what each level shapes', () => {
    expect(shapedSignals('none')).toEqual([])
    expect(shapedSignals('disk')).toEqual(['root-fs', 'tmp-fs', 'home-fs', 'cwd-device'])
    expect(shapedSignals('host')).toEqual([
      'pids',
      'network-interfaces',
      'outbound-route',
      ...shapedSignals('disk')
    ])
  })
})
