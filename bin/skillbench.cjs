#!/usr/bin/env node
// The `skillbench` command. It runs the compiled CLI that the build (`npm run build`, also run by `npm start`
// and `npm test`) writes to out/main/cli.js. Where there is no build (a fresh clone right after `npm install`),
// or the build is older than one of the sources it was made from (out/main/cli-sources.json lists them; about
// 2 ms of stat calls), it runs the TypeScript sources through tsx instead: slower to start, never stale.
// SKILLBENCH_FROM_SOURCE=1 always runs the sources. stdout and stderr stay the command's own: the one hint about
// building is printed only to a person at a terminal.
// CommonJS on purpose: a .mjs entry first starts Node's ES module loader, ~9 ms of every command's start.
'use strict'
const fs = require('node:fs')
const path = require('node:path')

const root = path.resolve(__dirname, '..')
const compiled = path.join(root, 'out', 'main', 'cli.js')

/** Why the compiled CLI cannot be used, or '' when it is current. */
function staleReason() {
  let manifest
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(root, 'out', 'main', 'cli-sources.json'), 'utf8'))
  } catch {
    return 'there is no build'
  }
  if (!fs.existsSync(compiled)) return 'there is no build'
  // Joined by hand: path.join per source costs more than its stat.
  const prefix = root + path.sep
  for (const source of manifest.sources) {
    const stat = fs.statSync(prefix + source, { throwIfNoEntry: false })
    if (!stat) return `${source} is gone since the last build`
    if (stat.mtimeMs > manifest.builtAt) return `${source} changed since the last build`
  }
  return ''
}

const why = process.env.SKILLBENCH_FROM_SOURCE ? 'SKILLBENCH_FROM_SOURCE is set' : staleReason()
if (!why) {
  // Chunks compile from the bytecode the build kept (bin/code-cache.cjs); SKILLBENCH_CODE_CACHE=0 turns it off.
  if (process.env.SKILLBENCH_CODE_CACHE !== '0') {
    try {
      require('./code-cache.cjs').useCodeCache(path.dirname(compiled))
    } catch {
      // an install without the helper still runs, compiling as usual
    }
  }
  require(compiled).runFromProcess()
} else {
  if (process.stderr.isTTY && !process.env.SKILLBENCH_FROM_SOURCE) {
    process.stderr.write(`skillbench: running from source (${why}); \`npm run build\` makes it start faster\n`)
  }
  void (async () => {
    await import('tsx')
    const cli = await import('../src/main/cli/index.ts')
    ;(cli.runFromProcess ?? cli.default.runFromProcess)()
  })()
}
