import fs from 'node:fs'
import path from 'node:path'

/** The project folder (holding package.json "skillbench"), found from this module; falls back to the cwd. */
export function projectRoot(): string {
  let dir = typeof __dirname === 'string' ? __dirname : process.cwd()
  for (let i = 0; i < 8; i++) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }
      if (pkg.name === 'skillbench') {
        return dir
      }
    } catch {
      // not here
    }
    const parent = path.dirname(dir)
    if (parent === dir) {
      break
    }
    dir = parent
  }
  return process.cwd()
}

/** Where `electron-vite build` puts the renderer: `<project>/out/renderer` (`SKILLBENCH_RENDERER_DIR` overrides). */
export function defaultRendererDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SKILLBENCH_RENDERER_DIR ? path.resolve(env.SKILLBENCH_RENDERER_DIR) : path.join(projectRoot(), 'out', 'renderer')
}
