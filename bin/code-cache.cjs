// V8's code cache for the compiled CLI (out/main). Every command compiles the chunks it loads, and then each
// function the first time it runs: for a cold `curate` of 3,000 skills that is ~15 % of the main thread's time
// (docs/BENCH.md). The build runs a few commands once with SKILLBENCH_CODE_CACHE_TRAIN=1 (scripts/train-code-cache.cjs)
// and keeps, for each chunk, the bytecode of the functions that ran (`out/main/code-cache/<sha1 of the chunk>.bin`);
// a command then compiles a chunk from it instead of from its text.
// Safe by construction: a cache file is found by the hash of the very text being loaded (an edited chunk has no
// cache), and V8 itself refuses data made by another V8 version or with other flags (the chunk is then compiled
// as usual). Nothing is written outside training: a command only reads.
// Hashing needs node:crypto, whose loading is a few milliseconds of every command. So training also records each
// chunk's file as it was (inode, size, mtime, ctime: git's test of an unchanged file) beside its cache name
// (stat-keys.json): a chunk whose file still has that key takes its name from there. Any write to the file moves
// its ctime, which no tool can set back; a key recorded within STAT_KEY_TICK_MS of the file's last change is not
// trusted (a write in the same clock tick). Anything else is hashed as before.
'use strict'
const Module = require('node:module')
const vm = require('node:vm')
const fs = require('node:fs')
const path = require('node:path')

const CACHE_DIR = 'code-cache'
const STAT_KEYS = 'stat-keys.json'
/** How long after a file's last change its recorded key is trusted (coarse filesystem clocks tick in 2 s). */
const STAT_KEY_TICK_MS = 2000

/** sha1 hex of a chunk's text: the name of its cache file. */
function cacheName(content) {
  const { hash } = require('node:crypto')
  return `${hash('sha1', content, 'hex')}.bin`
}

/** A file's identity and last change, as training records it. */
function statKey(st) {
  return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`
}

/** The recorded keys: chunk path (under the out folder) → { key, name }, and when they were written. */
function readStatKeys(cacheDir) {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(cacheDir, STAT_KEYS), 'utf8'))
    if (parsed && typeof parsed.writtenAt === 'number' && parsed.files && typeof parsed.files === 'object') return parsed
  } catch {
    // none yet, or unreadable: every chunk is hashed
  }
  return { writtenAt: 0, files: {} }
}

/**
 * The cache file name of a chunk: from its recorded key when its file is unchanged since training, else its hash;
 * null when training recorded keys but none for this chunk (it never ran in training, so it has no cache).
 */
function nameOf(content, filename, rel, keys) {
  const known = Object.prototype.hasOwnProperty.call(keys.files, rel) ? keys.files[rel] : undefined
  if (!known && keys.writtenAt > 0) return null
  if (known && typeof known.name === 'string' && /^[0-9a-f]{40}\.bin$/.test(known.name)) {
    const st = fs.statSync(filename, { throwIfNoEntry: false })
    if (st && statKey(st) === known.key && st.ctimeMs + STAT_KEY_TICK_MS <= keys.writtenAt) return known.name
  }
  return cacheName(content)
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
  const keys = training ? { writtenAt: 0, files: {} } : readStatKeys(cacheDir)
  const trained = []
  const compile = Module.prototype._compile
  Module.prototype._compile = function compileWithCache(content, filename) {
    // A chunk with a dynamic import() is left to Node: under vm.Script it needs an option Node 20 calls experimental
    // (with a warning on stderr). The CLI's hot chunks have none.
    if (!filename.startsWith(prefix) || !filename.endsWith('.js') || content.includes('import(')) return compile.call(this, content, filename)
    const rel = filename.slice(prefix.length)
    const name = training ? cacheName(content) : nameOf(content, filename, rel, keys)
    const file = name && path.join(cacheDir, name)
    let cachedData
    try {
      cachedData = file ? fs.readFileSync(file) : undefined
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
    if (training) trained.push({ script, file, filename, rel, name })
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

/**
 * Training's end: each chunk's bytecode as it stands now (every function that ran), written whole or not at all;
 * then the chunks' stat keys, added to those earlier runs recorded.
 */
function writeCaches(cacheDir, trained) {
  fs.mkdirSync(cacheDir, { recursive: true })
  if (trained.length === 0) return
  for (const { script, file } of trained) writeWhole(file, script.createCachedData())
  const keys = readStatKeys(cacheDir)
  // Taken before the stats: a file changed after this moment cannot be in the tick the keys are trusted for.
  const now = Date.now()
  for (const { filename, rel, name } of trained) {
    const st = fs.statSync(filename, { throwIfNoEntry: false })
    if (st) keys.files[rel] = { key: statKey(st), name }
  }
  keys.writtenAt = now
  writeWhole(path.join(cacheDir, STAT_KEYS), JSON.stringify(keys))
}

function writeWhole(file, data) {
  const tmp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(tmp, data)
  fs.renameSync(tmp, file)
}

module.exports = { useCodeCache, cacheName, CACHE_DIR, STAT_KEYS, STAT_KEY_TICK_MS }
