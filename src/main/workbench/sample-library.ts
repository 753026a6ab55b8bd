import fs from 'node:fs'
import path from 'node:path'

/**
 * The bundled sample data, as the app knows it: `npm start` on a first run (no data root configured) opens a
 * writable copy of `resources/sample-data` that it made at `<settings folder>/sample-data` (scripts/start.cjs,
 * `sampleRoot()`); `skillbench serve --root-dir resources/sample-data` opens the bundled folder itself. A library
 * inside either is demo data: the Deploy screen warns before its skills go into a real agent's folder.
 */
export const SAMPLE_DIR_NAME = 'sample-data'

/** The folders holding sample data, as real paths (the ones that exist; roots are kept as real paths too). */
export function sampleRoots(settingsDir: string, resourcesDir: string): string[] {
  const out: string[] = []
  for (const candidate of [path.join(settingsDir, SAMPLE_DIR_NAME), path.join(resourcesDir, SAMPLE_DIR_NAME)]) {
    try {
      const real = fs.realpathSync(candidate)
      if (!out.includes(real)) out.push(real)
    } catch {
      // not made (yet): nothing of it can be opened
    }
  }
  return out
}

/** Whether `p` is one of `roots` or inside one (pure). */
export function isInsideAny(p: string, roots: readonly string[]): boolean {
  const resolved = path.resolve(p)
  return roots.some((root) => {
    const rel = path.relative(root, resolved)
    return rel === '' || (!!rel && !rel.startsWith('..') && !path.isAbsolute(rel))
  })
}
