// Types of scripts/bundle.mjs, for the tests that import it.
import type { BuildOptions, Metafile } from 'esbuild'

export function buildOptions(dist: string): BuildOptions & { metafile: true }
export const WASM: readonly string[]
export const GENERATED_FROM: readonly string[]
export function noticePackageDirs(metafile: Metafile): string[]
export function noticesFor(metafile: Metafile): string
