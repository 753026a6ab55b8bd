import fs from 'node:fs'
import path from 'node:path'

/**
 * Where the sample data is, for the app and the CLI alike. The bundled sample data: `npm start` on a first run (no data root configured) opens a
 * writable copy of `resources/sample-data` that it made at `<settings folder>/sample-data` (scripts/start.cjs,
 * `sampleRoot()`); `skillbench serve --root-dir resources/sample-data` opens the bundled folder itself. A library
 * inside either is demo data: the Deploy screen warns before its skills go into a real agent's folder. The bundled
 * folder itself is never written (the workbench's library registry and cli/bundled-sample.ts refuse it).
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

/** The bundled sample data folders (real paths) of the given resources folders: the ones never written. */
export function bundledSampleRoots(resourcesDirs: readonly string[]): string[] {
  const out: string[] = []
  for (const resources of resourcesDirs) {
    try {
      const real = fs.realpathSync(path.join(resources, SAMPLE_DIR_NAME))
      if (!out.includes(real)) out.push(real)
    } catch {
      // no sample in this install
    }
  }
  return out
}

/**
 * Where a folder (a real path) is in the bundled sample data, and the same place in its writable copy
 * (`<settings folder>/sample-data/…`, made by `npm start` on a first run); undefined when it is not in it (pure
 * but for the realpath of the sample folders).
 */
export function inBundledSample(real: string, resourcesDirs: readonly string[], settingsDir: string): { sample: string; copy: string } | undefined {
  for (const sample of bundledSampleRoots(resourcesDirs)) {
    if (isInsideAny(real, [sample])) return { sample, copy: path.join(settingsDir, SAMPLE_DIR_NAME, path.relative(sample, real)) }
  }
  return undefined
}
