// The replay's containment, decided once per run before anything of the patch runs: probe
// bubblewrap (when the policy's `sandbox` allows it), choose the one path every side's
// worktree has while it runs, and list the instrument paths the sandbox keeps read-only.
// What a run without a sandbox leaves open goes to the card (containmentNotices). The probe
// tries the sandbox shaped like a host first (docs/replay.md, "Shaped like a host"): level
// host, then disk, then bwrap's own shape; the first that runs is used, and the card's
// `sandbox.shaped` lists what it shapes. A failure of every shape is a failed probe.
import { reportersDir } from './stream.js'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { networkInterfaces } from 'node:os'
import { mkdir } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { GateContext } from '../context.js'
import {
  decideContainment,
  findBwrap,
  findProgram,
  neutralName,
  probeBwrap,
  type Containment,
  type HostNet,
  type ProbeResult,
  type Shape,
  type ShapeLevel
} from '../exec/sandbox.js'
import type { Reason } from '../types.js'
import type { FidelitySpec } from './fidelity.js'

/** Most single files mounted read-only over a worktree (the folders always are). */
const MAX_INSTRUMENT_FILES = 200

/**
 * Decides on the probe's result (none with sandbox: off); throws for sandbox: required
 * when unavailable. The probe can be started beforehand (startProbe): it needs nothing of
 * the instrument, so it runs while the caller reads it.
 */
export async function containRuns(
  ctx: GateContext,
  spec: FidelitySpec,
  probe: Promise<ProbeResult | null> = startProbe(ctx)
): Promise<Containment> {
  const decided = decideContainment(ctx.policy.sandbox, await probe)
  const project = projectName(ctx.repoDir)
  const home = ctx.childEnv.HOME ?? '/root'
  const gitDir = join(ctx.repoDir, '.git')
  const reporters = reportersDir()
  return {
    ...decided,
    // In the sandbox: a checkout in the home folder, as a developer has it. Without: a
    // folder of the run's temp dir, each side moved there in turn.
    at: decided.bin !== null ? join(home, project) : join(ctx.tempDir, project),
    instrument: instrumentPaths(spec),
    // The repository's git folder, and the gate's own reporters (stream.ts) where the
    // runners load them from: read-only, at the same path.
    readOnly: [
      ...(existsSync(gitDir) && statSync(gitDir).isDirectory() ? [gitDir] : []),
      ...(reporters === null ? [] : [reporters])
    ],
    network: ctx.policy.suite.network
  }
}

/** The sandbox probe (bubblewrap running `true`), or null when the policy says sandbox: off. */
export function startProbe(ctx: GateContext): Promise<ProbeResult | null> {
  return ctx.policy.sandbox === 'off' ? Promise.resolve(null) : probeSandbox(ctx)
}

async function probeSandbox(ctx: GateContext): Promise<ProbeResult> {
  const bin = findBwrap(ctx.childEnv.PATH)
  if (bin === null) return { bin: null }
  let failure: string | null = 'no shape was tried'
  for (const shape of shapes(ctx)) {
    const dir = join(ctx.tempDir, neutralName())
    await mkdir(dir, { recursive: true })
    failure = await probeBwrap(bin, ctx.childEnv, dir, `${dir}.log`, shape)
    if (failure === null) return { bin, failure, ...(shape ? { shape } : {}) }
    ctx.log.info(`sandbox: shape ${shape?.level ?? 'none'} failed its probe: ${failure}`)
  }
  ctx.log.warning(`sandbox: bwrap failed its probe: ${failure ?? ''}`)
  return { bin, failure }
}

/** The shapes to try, most host-like first; undefined is bwrap's own (the last resort). */
function shapes(ctx: GateContext): (Shape | undefined)[] {
  const find = (name: string): string | null => findProgram(ctx.childEnv.PATH, name, SYSTEM_BIN)
  const [setpriv, unshare, ip, nsenter] = ['setpriv', 'unshare', 'ip', 'nsenter'].map(find)
  if (!setpriv) return [undefined]
  const tools = { setpriv, unshare: unshare ?? '', ip: ip ?? '', nsenter: nsenter ?? '' }
  const net = hostNet()
  const shape = (level: ShapeLevel): Shape => ({ level, scratch: ctx.tempDir, net, tools })
  // Namespaces made outside bwrap need privilege over them: root (CAP_SYS_ADMIN).
  const host = unshare && ip && nsenter && process.getuid?.() === 0
  return [...(host ? [shape('host')] : []), shape('disk'), undefined]
}

/** The system's program folders, looked in after PATH (ip lives in sbin). */
const SYSTEM_BIN = ['/usr/sbin', '/sbin', '/usr/bin', '/bin']

/** The fallback network: an ordinary virtual machine's. */
const PLAIN_NET: HostNet = { name: 'eth0', mac: null, cidr: '10.0.2.15/24', gateway: '10.0.2.2' }

/**
 * The host's interface of its default route: name, MAC, IPv4 address with prefix, and the
 * gateway (from /proc/net/route); PLAIN_NET when there is none usable.
 */
export function hostNet(): HostNet {
  let routes: string
  try {
    routes = readFileSync('/proc/net/route', 'utf8')
  } catch {
    return PLAIN_NET
  }
  const route = routes
    .split('\n')
    .slice(1)
    .map(line => line.trim().split(/\s+/))
    .find(f => f[1] === '00000000' && f[2] !== undefined && f[2] !== '00000000')
  const name = route?.[0]
  const gw = route?.[2]
  if (!name || !gw || !/^[\w.-]{1,15}$/.test(name) || !/^[0-9A-Fa-f]{8}$/.test(gw)) return PLAIN_NET
  const addr = networkInterfaces()[name]?.find(a => a.family === 'IPv4' && !a.internal)
  if (!addr?.cidr) return PLAIN_NET
  const gateway = [0, 1, 2, 3].map(i => parseInt(gw.slice(6 - 2 * i, 8 - 2 * i), 16)).join('.')
  const mac = /^([0-9a-f]{2}:){5}[0-9a-f]{2}$/.test(addr.mac) && addr.mac !== '00:00:00:00:00:00'
  return { name, mac: mac ? addr.mac : null, cidr: addr.cidr, gateway }
}

/** The repository's folder name, or a neutral one when it has none that is usable. */
function projectName(repoDir: string): string {
  const name = basename(repoDir)
  return /^[\w.-]+$/.test(name) && name !== '.' && name !== '..' ? name : 'project'
}

/**
 * The instrument paths the product may not open (the watch plan's): the folders and files
 * the sandbox keeps read-only, or every instrument file when no folder list will do.
 */
export function watchedInstrument(spec: FidelitySpec): string[] {
  const paths = instrumentPaths(spec)
  return paths.length > 0 ? paths : [...spec.files.keys()]
}

/** The instrument's folders (never the whole worktree) and its files outside them. */
function instrumentPaths(spec: FidelitySpec): string[] {
  const dirs = spec.deep.filter(d => d !== '' && d !== '.')
  if (dirs.length < spec.deep.length) return []
  const files = [...spec.files.keys()].filter(f => !dirs.some(d => f.startsWith(`${d}/`)))
  return [...dirs, ...(files.length <= MAX_INSTRUMENT_FILES ? files : [])]
}

/** The card's notices: runs not contained (and what that leaves open), sides made serial. */
export function containmentNotices(ctx: GateContext, c: Containment): Reason[] {
  if (c.report.contained) return []
  const open = [
    'a process the suite starts (in a new session, detached) can outlive the runner and rewrite its report',
    "the suite can read and write outside its worktree (the other side's worktree, the gate's temp folder, the checkout)",
    'the network is open',
    'the paths and processes of the machine are visible to the product'
  ]
  const notices: Reason[] = [
    {
      rule: 'diagnostic',
      level: 'notice',
      message: `runs not contained (${c.report.why ?? 'no sandbox'}): ${open.join('; ')}. Install bubblewrap and allow user namespaces (docs/github.md), or set sandbox: required to refuse such runs`,
      path: ctx.policy.path
    }
  ]
  const { parallel, jobs } = ctx.policy.suite
  if (parallel || jobs >= 2) {
    notices.push({
      rule: 'diagnostic',
      level: 'notice',
      message: `suite.${parallel ? 'parallel' : 'jobs'} asks the sides to overlap, but without a sandbox they would share the one path they run at and could reach each other: they ran one after the other`,
      path: ctx.policy.path
    })
  }
  return notices
}
