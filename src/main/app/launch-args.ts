/**
 * What the desktop app was asked to open: `skillbench`-style `--root-dir DIR` (or `--root-dir=DIR`) among the
 * arguments Electron passes on (`npm start -- --root-dir DIR` forwards them). Pure, and free of `electron`, so it
 * is tested without the binary. The root is opened for this run only, as `skillbench serve --root-dir` does.
 */
import path from 'node:path'

export function rootDirFromArgs(argv: readonly string[], cwd: string): string | undefined {
  let found: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    if (a === '--root-dir' && i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) found = argv[++i]
    else if (a.startsWith('--root-dir=') && a.length > '--root-dir='.length) found = a.slice('--root-dir='.length)
  }
  return found === undefined ? undefined : path.resolve(cwd, found)
}
