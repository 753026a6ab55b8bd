/**
 * Bundles a test's child-process script into one CommonJS file, so each child starts in tens of milliseconds
 * (tsx would take ~0.5 s per start) — tests that spawn many real processes stay fast.
 */
import path from 'node:path'

export async function bundleChild(entry: string, outDir: string): Promise<string> {
  const out = path.join(outDir, `${path.basename(entry, '.ts')}.cjs`)
  const { build } = await import('esbuild')
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: out, logLevel: 'silent', external: ['electron'] })
  return out
}
