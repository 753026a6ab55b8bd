// V8's code cache for the compiled CLI (out/main). Every command compiles the chunks it loads, and then each
// function the first time it runs: for a cold `curate` of 3,000 skills that is ~15 % of the main thread's time
// (docs/BENCH.md). The build runs a few commands once with SKILLBENCH_CODE_CACHE_TRAIN=1 (scripts/train-code-cache.cjs)
// and keeps, for each chunk, the bytecode of the functions that ran (`out/main/code-cache/<sha1 of the chunk>.bin`);
// a command then compiles a chunk from it instead of from its text.
// Safe by construction: a cache file is found by the hash of the very text being loaded (an edited chunk has no
// cache), and V8 itself refuses data made by another V8 version or with other flags (the chunk is then compiled
// as usual). Nothing is written outside training: a command only reads.
'use strict'
const Module = require('node:module')
const vm = require('node:vm')
const fs = require('node:fs')
const path = require('node:path')
const { hash } = require('node:crypto')

const CACHE_DIR = 'code-cache'

/** sha1 hex of a chunk's text: the name of its cache file. */
function cacheName(content) {
  return `${hash('sha1', content, 'hex')}.bin`
}

/**
 * Compiles the chunks under `outDir` with their code cache. Returns what happened to each chunk loaded so far
 * (`used`, `rejected`, `missing`), for tests and SKILLBENCH_CODE_CACHE_TRACE=1.
 */
function useCodeCache(outDir) {
  const stats = { used: 0, rejected: 0, missing: 0 }
  const prefix = path.resolve(outDir) + path.sep
  const cacheDir = path.join(prefix, CACHE_DIR)
  const training = process.env.SKILLBENCH_CODE_CACHE_TRAIN === '1'
  const trained = []
  const compile = Module.prototype._compile
  Module.prototype._compile = function compileWithCache(content, filename) {
    // A chunk with a dynamic import() is left to Node: under vm.Script it needs an option Node 20 calls experimental
    // (with a warning on stderr). The CLI's hot chunks have none.
    if (!filename.startsWith(prefix) || !filename.endsWith('.js') || content.includes('import(')) return compile.call(this, content, filename)
    const file = path.join(cacheDir, cacheName(content))
    let cachedData
    try {
      cachedData = fs.readFileSync(file)
    } catch {
      cachedData = undefined
    }
    let script
    try {
      script = new vm.Script(Module.wrap(content), { filename, cachedData })
    } catch {
      // A syntax error is reported exactly as Node reports it.
      return compile.call(this, content, filename)
    }
    if (!cachedData) stats.missing++
    else if (script.cachedDataRejected) stats.rejected++
    else stats.used++
    if (training) trained.push({ script, file })
    const fn = script.runInThisContext({ displayErrors: true })
    return fn.call(this.exports, this.exports, requireFor(this), this, filename, path.dirname(filename))
  }
  if (training) process.once('exit', () => writeCaches(cacheDir, trained))
  if (process.env.SKILLBENCH_CODE_CACHE_TRACE === '1') {
    process.once('exit', () => process.stderr.write(`[code cache] used ${stats.used}, rejected ${stats.rejected}, missing ${stats.missing}\n`))
  }
  return stats
}

/** The `require` a CommonJS module gets (what Node's own wrapper hands it). */
function requireFor(mod) {
  const req = (id) => mod.require(id)
  req.resolve = (request, options) => Module._resolveFilename(request, mod, false, options)
  req.resolve.paths = (request) => Module._resolveLookupPaths(request, mod)
  req.main = require.main
  req.cache = Module._cache
  req.extensions = Module._extensions
  return req
}

/** Training's end: each chunk's bytecode as it stands now (every function that ran), written whole or not at all. */
function writeCaches(cacheDir, trained) {
  fs.mkdirSync(cacheDir, { recursive: true })
  for (const { script, file } of trained) {
    const tmp = `${file}.${process.pid}.tmp`
    fs.writeFileSync(tmp, script.createCachedData())
    fs.renameSync(tmp, file)
  }
}

module.exports = { useCodeCache, cacheName, CACHE_DIR }
