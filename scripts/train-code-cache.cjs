// Fills out/main/code-cache (bin/code-cache.cjs) after a build: runs the compiled CLI's usual commands once, with
// SKILLBENCH_CODE_CACHE_TRAIN=1, on a generated library in a temporary folder, so each chunk's cache holds the
// bytecode of the functions those commands run. Each run starts from the previous run's cache, so the caches add up.
// Run by the build (electron.vite.config.ts) and usable alone: `node scripts/train-code-cache.cjs`. A failure
// leaves no cache and fails nothing: the CLI then compiles as it always did.
'use strict'
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const ROOT = path.resolve(__dirname, '..')
const { CACHE_DIR, STAT_KEY_TICK_MS } = require('../bin/code-cache.cjs')
const BIN = path.join(ROOT, 'bin', 'skillbench.cjs')
const OUT = path.join(ROOT, 'out', 'main')
/** Enough skills for the paths of a large library (the streamed scan and the join's workers start from 2,000). */
const SKILLS = 2100

/** Word `i` of a made-up vocabulary (syllables, so every word is distinct); every fifth a Chinese pair when asked. */
function word(i, chinese) {
  const han = '部署超时重试缓存解析构建测试查询索引合并日志配置服务分支提交'
  if (chinese && i % 5 === 0) return han[i % han.length] + han[(i >> 3) % han.length]
  let w = ''
  for (let x = i + 1; x > 0; x = Math.floor(x / 12)) w += 'bdfgkmnprstz'[x % 12] + 'aeiou'[(x >> 2) % 5]
  return w
}

/** `n` words of a deterministic stream: mostly from a 6,000-word vocabulary, a share from the skill's topic. */
function words(seed, n, chinese) {
  let x = (seed * 2654435761) >>> 0 || 1
  const next = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8)
  const topic = (seed % 40) * 50
  return Array.from({ length: n }, () => word(next() % 3 === 0 ? topic + (next() % 50) : next() % 6000, chinese)).join(' ')
}

/** A library of SKILLS AGIAgent skill files, one in fifty a near-copy of the one before, a quarter with Chinese. */
function writeLibrary(dir) {
  fs.mkdirSync(dir, { recursive: true })
  for (let i = 0; i < SKILLS; i++) {
    const base = i % 50 === 1 ? i - 1 : i
    const chinese = base % 4 === 0
    const lines = Array.from({ length: 8 }, (_, k) => `- ${words(base * 31 + k, 12, chinese)}`)
    const text = [
      '---',
      `skill_id: '${1900000000 + i}'`,
      `title: ${words(base, 4, chinese)}`,
      `usage_conditions: ${words(base + 7, 12, chinese)}`,
      'quality_index: 0.5',
      `fetch_count: ${i % 7}`,
      "related_code: ''",
      'task_directories:',
      `- output_${i}`,
      "created_at: '2026-11-01T00:00:00'",
      "updated_at: '2026-11-01T00:00:00'",
      "last_used_at: '2026-11-01T00:00:00'",
      "user_preferences: ''",
      '---',
      '',
      `## ${words(base + 3, 3, chinese)}`,
      '',
      ...lines,
      i === base ? '' : `- ${words(i, 4, chinese)}`,
      ''
    ].join('\n')
    fs.writeFileSync(path.join(dir, `skill_${String(i).padStart(6, '0')}.md`), text)
  }
}

/** The last change (ctime, ms) of the compiled chunks under OUT (the code cache folder left out). */
function newestChunkChange(dir = OUT) {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name !== CACHE_DIR) newest = Math.max(newest, newestChunkChange(p))
    } else if (entry.name.endsWith('.js')) newest = Math.max(newest, fs.statSync(p).ctimeMs)
  }
  return newest
}

/**
 * Waits until every chunk is older than the code cache's trust tick. A chunk's recorded stat key is trusted only
 * when it was recorded at least STAT_KEY_TICK_MS after the chunk's last change; training right after the build
 * (1–2 s) recorded every key inside that window, so no command ever trusted one and each hashed its chunks.
 */
function waitPastTick() {
  const wait = newestChunkChange() + STAT_KEY_TICK_MS + 50 - Date.now()
  if (wait > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, wait)
}

function main() {
  if (!fs.existsSync(path.join(OUT, 'cli.js'))) return 'there is no compiled CLI'
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-code-cache-'))
  try {
    const lib = path.join(tmp, 'library')
    writeLibrary(lib)
    waitPastTick()
    // A home of its own: training reads no agent's real logs and writes no settings of the person building.
    const env = { ...process.env, NODE_OPTIONS: '', HOME: tmp, USERPROFILE: tmp, SKILLBENCH_CODE_CACHE_TRAIN: '1', SKILLBENCH_SEARCH_SERVER: 'off', SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache'), SKILLBENCH_CONFIG_DIR: path.join(tmp, 'config') }
    delete env.SKILLBENCH_FROM_SOURCE
    const commands = [
      ['curate', '--library', lib],
      ['list', '--library', lib],
      ['query', '--library', lib, 'deploy timeout retry'],
      ['--help']
    ]
    for (const args of commands) {
      const t = Date.now()
      const r = spawnSync(process.execPath, [BIN, ...args], { cwd: tmp, env, encoding: 'utf8', timeout: 120_000 })
      if (process.env.SKILLBENCH_CODE_CACHE_TRACE === '1') process.stderr.write(`code cache: trained on \`${args[0]}\` in ${Date.now() - t} ms\n`)
      if (r.status !== 0) return `\`skillbench ${args[0]}\` failed: ${(r.stderr || r.error?.message || '').trim().split('\n').pop()}`
    }
    return ''
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

if (require.main === module) {
  const t0 = Date.now()
  const why = main()
  if (why) {
    fs.rmSync(path.join(OUT, 'code-cache'), { recursive: true, force: true })
    process.stderr.write(`code cache: not made (${why}); the CLI compiles as usual\n`)
  } else process.stderr.write(`code cache: made in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`)
}

module.exports = { main }
