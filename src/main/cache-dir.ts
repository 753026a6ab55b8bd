/** Where Skillbench keeps derived data (indexes, caches, search daemon sockets): a tiny module, for fast paths. */
import os from 'node:os'
import path from 'node:path'

/** `$SKILLBENCH_CACHE_DIR`, else `$XDG_CACHE_HOME/skillbench`, else `~/.cache/skillbench`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SKILLBENCH_CACHE_DIR) {
    return path.resolve(env.SKILLBENCH_CACHE_DIR)
  }
  if (env.XDG_CACHE_HOME) {
    return path.join(path.resolve(env.XDG_CACHE_HOME), 'skillbench')
  }
  return path.join(os.homedir(), '.cache', 'skillbench')
}
