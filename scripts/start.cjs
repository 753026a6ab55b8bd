#!/usr/bin/env node
/**
 * `npm start`: builds the app when `out/` is missing or older than the sources, then starts the desktop app
 * where Electron can run. Where it cannot (no Electron binary: it is downloaded on first use and our machines
 * have no network for it; or no display), it says so in one line and starts web mode instead, on a copy of
 * the bundled sample data root, printing the URL. Works offline on a fresh clone after `npm install`.
 *
 * Extra arguments go to `skillbench serve` (e.g. `npm start -- --no-open --port 8080`).
 */
'use strict'
const { spawn, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const ROOT = path.resolve(__dirname, '..')
const OUT = path.join(ROOT, 'out')
const OUTPUTS = ['main/index.js', 'main/cli.js', 'preload/index.js', 'renderer/index.html'].map((p) => path.join(OUT, p))
const SOURCES = ['src', 'electron.vite.config.ts', 'package.json'].map((p) => path.join(ROOT, p))
/** An Electron that dies this fast did not start (missing libraries, no display…). */
const EARLY_EXIT_MS = 8000

function log(line) {
  process.stderr.write(`${line}\n`)
}

/** Newest modification time under `p` (files only; skips node_modules). */
function newestMtime(p) {
  let st
  try {
    st = fs.statSync(p)
  } catch {
    return 0
  }
  if (!st.isDirectory()) {
    return st.mtimeMs
  }
  let newest = 0
  for (const name of fs.readdirSync(p)) {
    if (name === 'node_modules' || name.startsWith('.')) {
      continue
    }
    newest = Math.max(newest, newestMtime(path.join(p, name)))
  }
  return newest
}

function buildIsStale() {
  let oldestOutput = Infinity
  for (const file of OUTPUTS) {
    try {
      oldestOutput = Math.min(oldestOutput, fs.statSync(file).mtimeMs)
    } catch {
      return true
    }
  }
  return Math.max(...SOURCES.map(newestMtime)) > oldestOutput
}

function build() {
  log('Building Skillbench (electron-vite build)…')
  const bin = path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
  const result = spawnSync(process.execPath, [bin, 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
  if (result.status !== 0) {
    const why = (result.stderr || '').split('\n').find((l) => /error/i.test(l)) || `exit code ${result.status}`
    log(`The build failed (${why.trim()}); run \`npm run build\` to see the details.`)
    return false
  }
  return true
}

/** The Electron binary, or the reason there is none. Never prints the downloader's noise. */
function findElectron() {
  // SKILLBENCH_ELECTRON_BINARY: an Electron installed elsewhere (and the tests' stand-in for one)
  const given = process.env.SKILLBENCH_ELECTRON_BINARY
  if (given) {
    return fs.existsSync(given) ? { binary: given } : { reason: `SKILLBENCH_ELECTRON_BINARY names ${given}, which does not exist` }
  }
  if (!fs.existsSync(path.join(ROOT, 'node_modules', 'electron', 'package.json'))) {
    // an optional dependency: npm skips it where its declared engines (Node >= 22.12 for Electron 42+) do not fit
    const [major, minor] = process.versions.node.split('.').map(Number)
    const oldNode = major < 22 || (major === 22 && minor < 12)
    return {
      reason: oldNode
        ? `the optional electron package is not installed: it needs Node >= 22.12, this is Node ${process.versions.node}`
        : 'the optional electron package is not installed (run `npm install`)'
    }
  }
  const probe = spawnSync(process.execPath, ['-e', "process.stdout.write(String(require('electron')))"], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const binary = probe.status === 0 ? probe.stdout.trim() : ''
  if (!binary || !fs.existsSync(binary)) {
    return { reason: 'the Electron binary is not installed and could not be downloaded' }
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'no display (DISPLAY is not set)' }
  }
  return { binary }
}

function settingsDir() {
  if (process.env.SKILLBENCH_CONFIG_DIR) {
    return path.resolve(process.env.SKILLBENCH_CONFIG_DIR)
  }
  const base = process.env.XDG_CONFIG_HOME ? path.resolve(process.env.XDG_CONFIG_HOME) : path.join(os.homedir(), '.config')
  return path.join(base, 'skillbench')
}

/** A writable copy of the bundled sample data root (made once), so the repository stays clean. */
function sampleRoot() {
  const target = path.join(settingsDir(), 'sample-data')
  if (!fs.existsSync(target)) {
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 })
    fs.cpSync(path.join(ROOT, 'resources', 'sample-data'), target, { recursive: true })
  }
  return target
}

/** True when no data root is configured yet (first run, or all roots removed). */
function noRootsConfigured() {
  try {
    const data = JSON.parse(fs.readFileSync(path.join(settingsDir(), 'settings.json'), 'utf8'))
    return !(data && data.settings && Array.isArray(data.settings.dataRoots) && data.settings.dataRoots.length > 0)
  } catch {
    return true
  }
}

/** The arguments given to `npm start -- …`, with the sample root added on a first run (none given, none configured). */
function launchArgs() {
  const args = process.argv.slice(2)
  if (noRootsConfigured() && !args.some((a) => a === '--root-dir' || a.startsWith('--root-dir='))) {
    args.push('--root-dir', sampleRoot())
  }
  return args
}

/** The --root-dir given to `npm start -- …` (the last one, as the app takes it: src/main/app/launch-args.ts), resolved. */
function givenRootDir(args) {
  let found
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--root-dir' && i + 1 < args.length && !args[i + 1].startsWith('--')) found = args[++i]
    else if (args[i].startsWith('--root-dir=') && args[i].length > '--root-dir='.length) found = args[i].slice('--root-dir='.length)
  }
  return found ? path.resolve(found) : undefined
}

/**
 * Why the given --root-dir cannot be opened, or '' when it can (or none was given): checked before anything starts,
 * so a wrong path is one clear line, never a URL of a server that cannot open it. The bundled sample data is never
 * opened itself (the app writes into what it opens): its writable copy is named.
 */
function rootDirProblem(args) {
  const root = givenRootDir(args)
  if (!root) return ''
  let stat
  try {
    stat = fs.statSync(root)
  } catch {
    return `folder not found: ${root} (--root-dir names the agents' data root to open)`
  }
  if (!stat.isDirectory()) return `not a folder: ${root} (--root-dir names the agents' data root to open)`
  const sample = fs.realpathSync(path.join(ROOT, 'resources', 'sample-data'))
  const real = fs.realpathSync(root)
  if (real === sample || real.startsWith(sample + path.sep)) {
    return `${root} is in the sample data bundled with Skillbench, which is never changed: open its writable copy ${path.join(settingsDir(), 'sample-data', path.relative(sample, real))} instead (made by \`npm start\` on a first run, without --root-dir)`
  }
  return ''
}

let webModeStarted = false

function startWebMode(reason) {
  if (webModeStarted) {
    return
  }
  webModeStarted = true
  log(`Electron could not start here (${reason}); starting web mode instead.`)
  const args = [path.join(ROOT, 'bin', 'skillbench.cjs'), 'serve', '--no-build', ...launchArgs()]
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' })
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => child.kill(signal))
  }
  child.on('exit', (code) => process.exit(code ?? 0))
}

function main() {
  const problem = rootDirProblem(process.argv.slice(2))
  if (problem) {
    log(`npm start: ${problem}`)
    process.exit(1)
  }
  // SKILLBENCH_SKIP_BUILD=1: tests of this script, and people who build by hand
  if (!process.env.SKILLBENCH_SKIP_BUILD && buildIsStale()) {
    build()
  }
  const electron = findElectron()
  if (!electron.binary) {
    startWebMode(electron.reason)
    return
  }
  const started = Date.now()
  const env = { ...process.env }
  delete env.ELECTRON_RUN_AS_NODE
  const child = spawn(electron.binary, [ROOT, ...launchArgs()], { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'], env })
  let stderr = ''
  child.stderr.on('data', (d) => {
    stderr += d.toString()
    process.stderr.write(d)
  })
  child.on('error', (err) => startWebMode(`Electron failed to launch: ${err.message}`))
  child.on('exit', (code) => {
    if (code !== 0 && Date.now() - started < EARLY_EXIT_MS) {
      const why = stderr.split('\n').find((l) => l.trim()) || `exit code ${code}`
      startWebMode(`Electron exited at once: ${why.trim().slice(0, 160)}`)
      return
    }
    process.exit(code ?? 0)
  })
}

main()
