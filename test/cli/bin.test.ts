/**
 * bin/skillbench.cjs (and bin/skillbench.mjs, the entry older configurations name, which loads it) picks what to
 * run: the compiled CLI (out/main/cli.js) while it is current, the TypeScript sources through tsx when there is no
 * build, when a source it was built from is newer or gone, or when SKILLBENCH_FROM_SOURCE is set. Checked on a
 * throw-away project folder whose "build" says which one ran; the real build is checked too where it exists (after
 * `npm run build`, as `npm test` does).
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = path.resolve(__dirname, '..', '..')

let project: string

/** Runs `node <project>/bin/skillbench.cjs …` (or .mjs) with pipes (as an agent would: no terminal). */
function runBin(bin: string, args: string[], env: NodeJS.ProcessEnv = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, NODE_OPTIONS: '', SKILLBENCH_FROM_SOURCE: '', ...env }
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** A "build" whose CLI only says it ran, and its sources manifest (built now, from the given sources). */
function writeBuild(sources: string[], builtAt = Date.now()): void {
  const out = path.join(project, 'out', 'main')
  fs.mkdirSync(out, { recursive: true })
  fs.writeFileSync(path.join(out, 'cli.js'), "exports.runFromProcess = () => process.stdout.write('compiled ' + process.argv.slice(2).join(' ') + '\\n')\n")
  fs.writeFileSync(path.join(out, 'cli-sources.json'), JSON.stringify({ builtAt, sources }))
}

function setMtime(rel: string, ms: number): void {
  fs.utimesSync(path.join(project, rel), ms / 1000, ms / 1000)
}

beforeAll(() => {
  // bin/ and package.json copied, node_modules and the real sources linked: the sources run through tsx as in a
  // checkout, and src/extra.ts is this project's own file to change.
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-bin-'))
  fs.mkdirSync(path.join(project, 'bin'))
  for (const entry of ['skillbench.cjs', 'skillbench.mjs', 'code-cache.cjs']) fs.copyFileSync(path.join(ROOT, 'bin', entry), path.join(project, 'bin', entry))
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(project, 'package.json'))
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'))
  fs.mkdirSync(path.join(project, 'src'))
  fs.symlinkSync(path.join(ROOT, 'src', 'main'), path.join(project, 'src', 'main'))
  fs.symlinkSync(path.join(ROOT, 'src', 'shared'), path.join(project, 'src', 'shared'))
  fs.writeFileSync(path.join(project, 'src', 'extra.ts'), 'export {}\n')
})

afterAll(() => {
  fs.rmSync(project, { recursive: true, force: true })
})

describe.each(['skillbench.cjs', 'skillbench.mjs'])('bin/%s', (entry) => {
  const bin = (): string => path.join(project, 'bin', entry)

  it('runs the compiled CLI while every source it was built from is older than the build', () => {
    setMtime('src/extra.ts', Date.now() - 60_000)
    writeBuild(['src/extra.ts', 'src/main/cli/index.ts'])
    const r = runBin(bin(), ['list', '--json'])
    expect(r).toEqual({ code: 0, stdout: 'compiled list --json\n', stderr: '' })
  })

  it('runs the sources, silently when no terminal is attached, once a source is newer than the build', () => {
    writeBuild(['src/extra.ts', 'src/main/cli/index.ts'])
    setMtime('src/extra.ts', Date.now() + 60_000)
    const r = runBin(bin(), ['--version'])
    expect(r).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' })
  })

  it('runs the sources when a source the build lists is gone, when there is no build, and when asked to', () => {
    setMtime('src/extra.ts', Date.now() - 60_000)
    writeBuild(['src/extra.ts', 'src/removed.ts'])
    expect(runBin(bin(), ['--version']).stdout).toBe('0.1.0\n')

    writeBuild(['src/extra.ts'])
    expect(runBin(bin(), ['--version']).stdout).toBe('compiled --version\n')
    expect(runBin(bin(), ['--version'], { SKILLBENCH_FROM_SOURCE: '1' }).stdout).toBe('0.1.0\n')

    fs.rmSync(path.join(project, 'out', 'main', 'cli.js'))
    expect(runBin(bin(), ['--version']).stdout).toBe('0.1.0\n')
    fs.rmSync(path.join(project, 'out'), { recursive: true })
    const none = runBin(bin(), ['--version'])
    expect(none).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' })
  })
})

describe('the package', () => {
  it('installs `skillbench` as the CommonJS entry (no ES module loader to start on every command)', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }
    expect(pkg.bin).toEqual({ skillbench: 'bin/skillbench.cjs' })
    expect(fs.statSync(path.join(ROOT, 'bin', 'skillbench.cjs')).mode & 0o111).not.toBe(0)
  })
})

describe('the real build (after `npm run build`)', () => {
  const manifestFile = path.join(ROOT, 'out', 'main', 'cli-sources.json')
  const built = fs.existsSync(manifestFile) && fs.existsSync(path.join(ROOT, 'out', 'main', 'cli.js'))

  it.skipIf(!built)('lists every command module, the registry and the store among the CLI sources', () => {
    const { builtAt, sources } = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { builtAt: number; sources: string[] }
    expect(builtAt).toBeGreaterThan(0)
    const commands = fs.readdirSync(path.join(ROOT, 'src', 'main', 'cli', 'commands')).map((f) => `src/main/cli/commands/${f}`)
    expect(sources).toEqual(expect.arrayContaining([...commands, 'src/main/cli/index.ts', 'src/main/cli/registry.ts', 'src/main/store/library.ts']))
    expect(sources.every((s) => fs.existsSync(path.join(ROOT, s)))).toBe(true)
  })

  it.skipIf(!built)('answers --help from the compiled registry without loading a command module', () => {
    // The compiled entry is required in a bare node process; a command module loaded would show in require.cache.
    const r = spawnSync(
      process.execPath,
      ['-e', "process.argv.splice(2, 0, '--help'); require('./out/main/cli.js').runFromProcess(); process.on('exit', () => process.stderr.write(Object.keys(require.cache).filter((f) => f.includes('/chunks/')).map((f) => f.split('/').pop().split('-')[0]).join(',')))"],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }
    )
    expect(r.stdout).toContain('Commands:')
    for (const name of ['list', 'query', 'mcp', 'serve', 'curate']) expect(r.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'))
    const loaded = r.stderr.split(',')
    for (const name of ['list', 'query', 'mcp', 'serve', 'curate', 'library']) expect(loaded).not.toContain(name)
  })
})

if (!fs.existsSync(path.join(ROOT, 'out', 'main', 'cli-sources.json'))) {
  process.stderr.write('[bin.test] out/main is not built: the checks of the real build are skipped (run `npm run build`)\n')
}

describe('a reader that goes away (`skillbench list --json | head`)', () => {
  it('is not a crash: the command ends with exit 0 and nothing on stderr', async () => {
    const { spawn } = await import('node:child_process')
    const { serializeSkillFile } = await import('../../src/main/store/skill-file')
    const lib = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-epipe-'))
    try {
      // ~400 skills: far more JSON than a pipe holds, so writes are still pending when the reader leaves
      for (let i = 0; i < 400; i++) {
        const data = { skill_id: String(1_700_000_000 + i), title: `Skill number ${i} about csv parsing`, usage_conditions: 'when csv files need parsing '.repeat(8), quality_index: 0.5, fetch_count: 0 }
        fs.writeFileSync(path.join(lib, `skill_${i}.md`), serializeSkillFile(data, 'Body.\n'))
      }
      const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), 'list', '--library', lib, '--json'], {
        env: { ...process.env, NODE_OPTIONS: '' },
        stdio: ['ignore', 'pipe', 'pipe']
      })
      let stderr = ''
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
      child.stdout.once('data', () => child.stdout.destroy())
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
      expect(stderr).toBe('')
      expect(code).toBe(0)
    } finally {
      fs.rmSync(lib, { recursive: true, force: true })
    }
  })
})
