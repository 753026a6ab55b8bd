import fs from 'node:fs'
import path from 'node:path'

/**
 * Finds the project's `resources/` folder (prompts, meta-skills) at run time, so users can edit the files:
 * `SKILLBENCH_RESOURCES_DIR`, else the nearest ancestor of this module holding `resources/prompts`, else `./resources`.
 */
export function resourcesDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SKILLBENCH_RESOURCES_DIR) {
    return path.resolve(env.SKILLBENCH_RESOURCES_DIR)
  }
  const start = typeof __dirname === 'string' ? __dirname : process.cwd()
  let dir = start
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, 'resources')
    if (fs.existsSync(path.join(candidate, 'prompts'))) {
      return candidate
    }
    const parent = path.dirname(dir)
    if (parent === dir) {
      break
    }
    dir = parent
  }
  return path.resolve('resources')
}

/** Reads a resource text file, or returns `fallback` when it is missing, empty or unreadable. */
export function readResourceText(relPath: string, fallback: string, dir: string = resourcesDir()): string {
  try {
    const text = fs.readFileSync(path.join(dir, relPath), 'utf8')
    return text.trim() ? text : fallback
  } catch {
    return fallback
  }
}
