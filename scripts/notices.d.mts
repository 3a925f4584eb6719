// Types of scripts/notices.mjs, for the tests that import it.
import type { Metafile } from 'esbuild'

export interface NoticePackage {
  name: string
  version: string
  license: string
  text: string
  source: string
}
export function bundledPackageDirs(metafile: Metafile): string[]
export function packageDirOf(input: string): string | null
export function readPackage(root: string, dir: string): NoticePackage
export function renderNotices(packages: NoticePackage[]): string
