// Containment of the code under test. The patch's code runs in the suite, setup, seeds and
// diagnostics children; unchecked, it can leave a process behind that rewrites the report
// after the runner exited, read or write the other side's worktree and the gate's folders,
// and tell from paths and variables that it is being measured. Each run therefore gets its
// own bubblewrap sandbox: a PID namespace that ends with the runner (and with the gate),
// the worktree writable at one neutral path (the same on both sides), the merge base's
// instrument read-only over it, a private /tmp and HOME, the toolchains read-only and
// nothing else of the machine, and no network unless the policy asks.
//
// The sandbox is shaped like a host where that can be done (docs/replay.md, "Shaped like a
// host"): a product that tells *a* sandbox from a machine must not get a different answer
// here than in production. Root, /tmp, /var/tmp and HOME are fresh folders on disk (the
// disk's file system type, the cwd not a device boundary), made per run and removed after
// it; with privilege the PID and network namespaces are made outside bwrap so that PIDs
// continue the host's count and the network has the host's interface name, address and a
// default route that leads nowhere. Every containment property stays: nothing outlives the
// run, no egress unless asked, private writable areas, the instrument read-only.
//
// The core is pure: a layout (what is mounted where) and a shape become the wrapper's argv.
// Finding the layout's paths on disk (toolchains, dependency links) is the edge, in
// `planLayout`; what the machine looks like (its interface, the tools) is found by the caller.
import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path'
import { GateError } from '../errors.js'
import { runShell } from './process.js'

export type SandboxPolicy = 'auto' | 'required' | 'off'

/** What the scorecard says about containment (scorecard `sandbox`). */
export interface SandboxReport {
  kind: 'bwrap' | 'none'
  contained: boolean
  /** Why runs were not contained, when they were not. */
  why?: string
  /** The sandbox signals shaped like a host's (shapedSignals), when runs are contained. */
  shaped?: string[]
}

/**
 * How far runs are shaped like a host: `host` (namespaces made outside bwrap: PIDs and
 * network too; needs privilege), `disk` (the folders only; works unprivileged) or `none`
 * (bwrap's own tmpfs and namespaces, the shape before shaping).
 */
export type ShapeLevel = 'host' | 'disk' | 'none'

/** The host's interface as the shaped network shows it (a veth whose peer leads nowhere). */
export interface HostNet {
  name: string
  mac: string | null
  /** Address and prefix, e.g. 10.0.2.15/24. */
  cidr: string
  gateway: string
}

export interface Shape {
  level: ShapeLevel
  /** Where each run's fresh folders are made (the gate's temp folder, hidden from runs). */
  scratch: string
  net: HostNet
  /** Absolute paths of the tools the wrapper runs. */
  tools: { setpriv: string; unshare: string; ip: string; nsenter: string }
}

/** The signals each level shapes (the scorecard's `sandbox.shaped`). */
export function shapedSignals(level: ShapeLevel): string[] {
  const disk = ['root-fs', 'tmp-fs', 'home-fs', 'cwd-device']
  if (level === 'host') return ['pids', 'network-interfaces', 'outbound-route', ...disk]
  return level === 'disk' ? disk : []
}

/** One mount of a layout; `from` is the path outside, `to` the path the run sees. */
export type Mount =
  | { kind: 'ro' | 'rw'; from: string; to: string }
  | { kind: 'tmpfs'; to: string }
  | { kind: 'symlink'; target: string; to: string }

export interface Layout {
  mounts: readonly Mount[]
  /** Repository-relative instrument paths, read-only over the worktree. */
  instrument: readonly string[]
  /** The worktree as the run sees it (its cwd). */
  at: string
  /** The worktree on disk. */
  worktree: string
  network: boolean
}

/** Depth of a path, so parents are mounted before what lies inside them. */
function depth(path: string): number {
  return path.split('/').filter(Boolean).length
}

/** A later mount at the same `to` replaces an earlier one. */
function dedupe(mounts: readonly Mount[]): Mount[] {
  const byTarget = new Map<string, Mount>()
  for (const m of mounts) byTarget.set(m.to, m)
  return [...byTarget.values()]
}

/** A source the wrapper replaces with a fresh folder of the run's (SHAPE_OUTER). */
const RUN_DIR = '@run@'

/**
 * The wrapper's argv for a layout, ending before the command (runShell appends the shell):
 * bwrap's alone without a shape (or level none), else bwrap under the shaping wrapper.
 */
export function bwrapArgv(bin: string, layout: Layout, shape?: Shape): string[] {
  const level = shape?.level ?? 'none'
  const inner = bwrapOnly(bin, layout, level)
  if (shape === undefined || level === 'none') return inner
  const net = level === 'host' && !layout.network
  const { setpriv, unshare, ip, nsenter } = shape.tools
  const n = shape.net
  return [
    setpriv,
    '--pdeathsig',
    'KILL', // the wrapper dies with the gate, bwrap (--die-with-parent) with the wrapper
    ...(net ? [unshare, '--net', '--'] : []), // the peer's namespace, held by the wrapper
    '/bin/sh',
    '-c',
    SHAPE_OUTER,
    'sh',
    shape.scratch,
    setpriv,
    level === 'host' ? unshare : '',
    net ? '--net' : '',
    SHAPE_INNER,
    ...(net ? ['net', ip, nsenter, n.name, n.mac ?? '', n.cidr, n.gateway] : ['-']),
    ...inner
  ]
}

/**
 * Run on the host: a fresh folder per run for every RUN_DIR source (one mkdir for all;
 * paths split at newlines only), the host's last PID read now (with cat: a sysctl read byte
 * by byte, as the shell's read does, gives its first digit only); with an unshare, new PID (and network) namespaces around SHAPE_INNER (the
 * outer network namespace, this shell's, is handed over at fd 9, above the descriptors the gate hands the run (the outcome stream at 3, the watch plan at 4); the unshare dies with
 * this shell, and the namespace's processes with it); the folder removed after.
 */
const SHAPE_OUTER = `s=$1 k=$2 u=$3 n=$4 i=$5; shift 5
w=$(mktemp -d "$s/tmp.XXXXXXXXXX") || exit 125
d= IFS='
'
for a; do shift; case $a in ${RUN_DIR}/*) a=$w/\${a#${RUN_DIR}/}; d="$d$IFS$a";; esac; set -- "$@" "$a"; done
mkdir -p $d || exit 125
if [ -n "$u" ]; then
  p=$(cat /proc/sys/kernel/ns_last_pid) || exit 125 # a sysctl: read whole, not by bytes
  "$k" --pdeathsig KILL "$u" --pid --mount-proc $n --fork --kill-child -- /bin/sh -c "$i" sh "$p" "$@" 9</proc/$$/ns/net
else
  shift; "$@"
fi
r=$?; rm -rf "$w"; exit $r`

/**
 * Run as PID 1 of the new namespace, before bwrap: the network (a veth named like the
 * host's interface, with its address and a default route; the peer in the outer namespace,
 * given the gateway's address so that connections are refused, not left hanging; one ip
 * batch per side, this side first so that the link has its carrier), then the next PID set
 * to the host's, then bwrap (PID 1; the command continues the host's count).
 */
const SHAPE_INNER = `set -e
p=$1; shift
if [ "$1" = net ]; then
  ip=$2 ns=$3 dev=$4 mac=$5 cidr=$6 gw=$7; shift 7
  m=; [ -z "$mac" ] || m="address $mac"
  printf 'link set lo up\nlink add %s %s type veth peer name %s netns /proc/self/fd/9\naddr add %s dev %s\nlink set %s up\nroute add default via %s\n' "$dev" "$m" "$dev" "$cidr" "$dev" "$dev" "$gw" | "$ip" -batch -
  printf 'addr add %s/%s dev %s\nlink set %s up\n' "$gw" "\${cidr#*/}" "$dev" "$dev" | "$ns" --net=/proc/self/fd/9 "$ip" -batch -
else
  shift
fi
echo "$p" > /proc/sys/kernel/ns_last_pid
exec 9<&-
exec "$@"`

/** bwrap's own argv; shaped levels put disk folders where bwrap would make tmpfs. */
function bwrapOnly(bin: string, layout: Layout, level: ShapeLevel): string[] {
  // With level host the PID and network namespaces were made around bwrap.
  const own = level !== 'host'
  const argv = [bin, '--die-with-parent', ...(own ? ['--unshare-pid'] : []), '--unshare-ipc']
  if (!layout.network && own) argv.push('--unshare-net')
  // A root folder on disk (bwrap makes the mount points in it); writable like bwrap's tmpfs
  // root, and removed with the run's folder.
  if (level !== 'none') argv.push('--bind', `${RUN_DIR}/root`, '/')
  argv.push('--proc', '/proc', '--dev', '/dev')
  const mounts = dedupe([
    ...layout.mounts.map((m, i): Mount =>
      level !== 'none' && m.kind === 'tmpfs'
        ? { kind: 'rw', from: `${RUN_DIR}/d${i}`, to: m.to }
        : m
    ),
    { kind: 'rw', from: layout.worktree, to: layout.at },
    ...layout.instrument.map((p): Mount => ({
      kind: 'ro',
      from: join(layout.worktree, p),
      to: join(layout.at, p)
    }))
  ])
  // Stable sort: parents first, and among equals the order given (the instrument last).
  const ordered = mounts
    .map((m, i) => ({ m, i }))
    .sort((a, b) => depth(a.m.to) - depth(b.m.to) || a.i - b.i)
  for (const { m } of ordered) argv.push(...mountArgs(m))
  argv.push('--chdir', layout.at)
  return argv
}

function mountArgs(m: Mount): string[] {
  switch (m.kind) {
    case 'tmpfs':
      return ['--tmpfs', m.to]
    case 'symlink':
      return ['--symlink', m.target, m.to]
    case 'ro':
      return ['--ro-bind-try', m.from, m.to]
    case 'rw':
      return ['--bind', m.from, m.to]
  }
}

/** The system folders every run sees read-only (or as the links they are). */
const SYSTEM_ROOTS = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
  '/nix'
]

const RESOLVED = '/run/systemd/resolve'

/** Toolchains people keep in their home folder (read-only when present). */
const HOME_TOOLCHAINS = [
  '.pyenv',
  '.nvm',
  '.local',
  '.volta',
  '.cargo',
  '.rustup',
  '.bun',
  '.deno',
  '.asdf',
  '.fnm',
  '.sdkman',
  'go',
  '.gitconfig'
]

/** Package caches: writable for setup (it installs), absent from the suite's private HOME. */
const HOME_CACHES = [
  '.npm',
  '.cache',
  '.yarn',
  '.pnpm-store',
  '.m2',
  '.gradle',
  '.bun/install/cache'
]

export interface LayoutRequest {
  /** The child's environment (PATH and HOME decide the toolchains). */
  env: NodeJS.ProcessEnv
  worktree: string
  at: string
  /** Folders nothing is taken from (the gate's temp folder: the other worktrees live there). */
  hidden: readonly string[]
  /** Further read-only paths, seen where they are (the checkout for setup, its .git). */
  readOnly: readonly string[]
  /** Writable folders, e.g. the report's. */
  writable: readonly { from: string; to: string }[]
  instrument: readonly string[]
  network: boolean
  /** Setup: the package caches writable (it installs), else a fresh HOME without them. */
  caches: boolean
}

const inside = (path: string, dir: string): boolean => path === dir || path.startsWith(`${dir}/`)

/** Finds the layout's paths on disk: system roots, toolchains on PATH and in HOME, links. */
export function planLayout(req: LayoutRequest): Layout {
  // A HOME the tmpfs may hide (never / or a system folder), else root's.
  const given = req.env.HOME
  const home =
    given && isAbsolute(given) && depth(given) >= 1 && !SYSTEM_ROOTS.some(r => inside(given, r))
      ? resolve(given)
      : '/root'
  const mounts: Mount[] = [
    { kind: 'tmpfs', to: '/tmp' },
    { kind: 'tmpfs', to: '/var/tmp' }
  ]
  // systemd-resolved's stub (/etc/resolv.conf links there on Ubuntu): names resolve when the
  // run has the network (setup, suite.network).
  if (existsSync(RESOLVED)) mounts.push({ kind: 'ro', from: RESOLVED, to: RESOLVED })
  for (const root of SYSTEM_ROOTS) {
    const info = lstatSync(root, { throwIfNoEntry: false })
    if (!info) continue
    if (info.isSymbolicLink())
      mounts.push({ kind: 'symlink', target: readlinkSync(root), to: root })
    else mounts.push({ kind: 'ro', from: root, to: root })
  }
  mounts.push({ kind: 'tmpfs', to: home })
  const hidden = req.hidden.map(h => resolve(h))
  const ro = (path: string): void => {
    // Never over a top folder or the private HOME (that would bring the machine's back).
    if (depth(path) < 2 || resolve(path) === home) return
    if (existsSync(path) && !hidden.some(h => inside(resolve(path), h)))
      mounts.push({ kind: 'ro', from: path, to: path })
  }
  for (const name of HOME_TOOLCHAINS) ro(join(home, name))
  for (const entry of (req.env.PATH ?? '').split(delimiter)) {
    // Never a top folder (/, /tmp, /home): only toolchain folders below them.
    if (!isAbsolute(entry) || depth(entry) < 2 || SYSTEM_ROOTS.some(r => inside(entry, r))) continue
    if (inside(entry, home) && entry !== home) {
      ro(join(home, entry.slice(home.length + 1).split('/')[0] ?? ''))
    } else if (!inside(home, entry)) ro(entry.endsWith('/bin') ? dirname(entry) : entry)
  }
  if (req.caches) {
    for (const name of HOME_CACHES) {
      const path = join(home, name)
      if (existsSync(path)) mounts.push({ kind: 'rw', from: path, to: path })
    }
  }
  for (const path of req.readOnly) ro(path)
  for (const link of dependencyLinks(req.worktree, hidden)) mounts.push(link)
  for (const w of req.writable) mounts.push({ kind: 'rw', from: w.from, to: w.to })
  return {
    mounts,
    instrument: req.instrument.filter(p => existsSync(join(req.worktree, p))),
    at: req.at,
    worktree: req.worktree,
    network: req.network
  }
}

/**
 * Dependency folders the worktree links to from outside (suite.reuse's links to the
 * checkout, a setup that links an installed package): the node_modules folder each link
 * lands in, read-only, at the link's target and at its real path (Node resolves modules
 * by real path). Only node_modules folders, and nothing in a hidden folder.
 */
function dependencyLinks(worktree: string, hidden: readonly string[]): Mount[] {
  const mounts: Mount[] = []
  for (const link of linksIn(worktree)) {
    let target: string
    let real: string
    try {
      target = resolve(dirname(link), readlinkSync(link))
      real = realpathSync(target)
    } catch {
      continue
    }
    if (inside(real, worktree)) continue
    for (const path of new Set([target, real])) {
      const cut = path.indexOf('/node_modules')
      const dir = cut < 0 ? null : path.slice(0, cut + '/node_modules'.length)
      if (dir === null || hidden.some(h => inside(dir, h)) || inside(dir, worktree)) continue
      mounts.push({ kind: 'ro', from: realpathOr(dir), to: dir })
    }
  }
  return mounts
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/** Symlinks at the worktree's top, in node_modules and in its @scope folders. */
function linksIn(worktree: string): string[] {
  const links: string[] = []
  const scan = (dir: string, nested: boolean): void => {
    let names: string[]
    try {
      names = readdirSync(dir)
    } catch {
      return
    }
    for (const name of names) {
      const path = join(dir, name)
      const info = lstatSync(path, { throwIfNoEntry: false })
      if (info?.isSymbolicLink()) links.push(path)
      else if (info?.isDirectory() && nested && name.startsWith('@')) scan(path, false)
    }
  }
  scan(worktree, false)
  scan(join(worktree, 'node_modules'), true)
  return links
}

/** A random, neutral name (like mktemp's), for worktrees, temp and report folders. */
export function neutralName(): string {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  return `tmp.${[...randomBytes(10)].map(b => letters[b % letters.length]).join('')}`
}

/** What a replay decided about containment, once per run (see decideContainment). */
export interface Containment {
  report: SandboxReport
  /** The bwrap binary when runs are contained, else null. */
  bin: string | null
  /**
   * Where every side's worktree is while it runs: mounted there by the sandbox, or moved
   * there (one side after the other) without it, so ids holding the cwd agree.
   */
  at: string
  /** Repository-relative instrument paths, read-only over the worktree in the sandbox. */
  instrument: readonly string[]
  /** Read-only in every run (the repository's .git, so git works in the worktree). */
  readOnly: readonly string[]
  /** suite.network. */
  network: boolean
  /** How runs are shaped like a host (the probe's), when contained. */
  shape?: Shape
}

/** A program in the folders of PATH, then in `more` (absolute folders only), or null. */
export function findProgram(
  path: string | undefined,
  name: string,
  more: readonly string[] = []
): string | null {
  for (const dir of [...(path ?? '').split(delimiter), ...more]) {
    if (!isAbsolute(dir)) continue
    const bin = join(dir, name)
    if (existsSync(bin)) return bin
  }
  return null
}

/** bwrap on PATH, or null. */
export function findBwrap(path: string | undefined): string | null {
  return findProgram(path, 'bwrap')
}

/** The outcome of the probe: null when `bwrap … true` worked, else what it printed. */
export type ProbeResult =
  | { bin: null }
  | { bin: string; failure: string | null; /** The shape that passed. */ shape?: Shape }

/** sandbox: off|auto|required and the probe → contained or not, and why; throws for required. */
export function decideContainment(
  policy: SandboxPolicy,
  probe: ProbeResult | null
): { bin: string | null; report: SandboxReport; shape?: Shape } {
  if (policy === 'off' || probe === null)
    return { bin: null, report: { kind: 'none', contained: false, why: 'sandbox: off' } }
  const why =
    probe.bin === null
      ? 'bubblewrap (bwrap) is not on PATH'
      : probe.failure !== null
        ? `bwrap cannot make a sandbox here (${probe.failure || 'no output'}); on Ubuntu 24.04 unprivileged user namespaces are restricted by AppArmor (docs/github.md)`
        : null
  if (why === null) {
    const shape = 'shape' in probe ? probe.shape : undefined
    if (shape === undefined) return { bin: probe.bin, report: { kind: 'bwrap', contained: true } }
    const shaped = shapedSignals(shape.level)
    return { bin: probe.bin, report: { kind: 'bwrap', contained: true, shaped }, shape }
  }
  if (policy === 'required') throw new GateError(`sandbox: required, but ${why}`)
  return { bin: null, report: { kind: 'none', contained: false, why } }
}

/** Runs `true` in a sandbox of the full layout: null when it worked, else the output. */
export async function probeBwrap(
  bin: string,
  env: NodeJS.ProcessEnv,
  dir: string,
  logFile: string,
  shape?: Shape
): Promise<string | null> {
  const layout = planLayout({
    env,
    worktree: dir,
    at: dir,
    hidden: [],
    readOnly: [],
    writable: [],
    instrument: [],
    network: false,
    caches: false
  })
  try {
    const run = await runShell({
      command: 'true',
      cwd: dir,
      env,
      timeoutSec: 30,
      logFile,
      wrap: bwrapArgv(bin, layout, shape)
    })
    return run.exitCode === 0 ? null : run.tail.split('\n').slice(-3).join(' ').slice(0, 300)
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}
