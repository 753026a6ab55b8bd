/**
 * `skillbench install` against local bare git repositories (file://, no network): what lands in the library,
 * the provenance, collisions, the exact --json shape, and every kind of bad input with a clear message and
 * nothing half-installed.
 */
import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { validateSkillMd, parseSkillMd } from '../../src/main/formats/skill-md'
import { SourceError } from '../../src/main/sources/git'
import { installFromSource } from '../../src/main/sources/install'
import { openLibrary } from '../../src/main/store/library'
import { makeRepo, skillMd, type TestRepo } from './git-repo'
import type { CodedLine } from '../../src/shared/error-codes'
import { translateLine } from '../../src/renderer/i18n/messages-errors'

const ROOT = path.resolve(__dirname, '..', '..')
let tmp: string
let env: NodeJS.ProcessEnv
let repo: TestRepo
let commit1: string

const PDF = skillMd('pdf', 'Work with PDF files. Use when reading or writing PDFs.', '# PDF\n\nUse pypdf.\n', 'license: MIT\n')
const CSV = skillMd('csv-tool', 'Summarise CSV files.', 'Read with pandas.\n')
const PNG = crypto.randomBytes(300)

/** Every file under a folder, relative path → bytes (links and all). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name
      if (e.isDirectory()) walk(r)
      else if (e.isSymbolicLink()) out[r] = `link:${fs.readlinkSync(path.join(dir, r))}`
      else out[r] = crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, r))).digest('hex')
    }
  }
  if (fs.existsSync(dir)) walk('')
  return out
}

function newLibrary(): string {
  const lib = fs.mkdtempSync(path.join(tmp, 'lib-'))
  return lib
}

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-install-')))
  repo = makeRepo()
  env = { ...repo.env, SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache') }
  commit1 = repo.commit({
    'README.md': '# Skills\n',
    'skills/pdf/SKILL.md': PDF,
    'skills/pdf/scripts/extract.py': { text: 'print("hi")\n', mode: 0o755 },
    'skills/pdf/references/api.md': 'The API.\n',
    'skills/pdf/assets/logo.png': { bytes: PNG },
    'skills/.curated/csv-tool/SKILL.md': CSV,
    'node_modules/dep/SKILL.md': skillMd('dep', 'Not a skill of ours.', 'x\n')
  })
  repo.git('tag', 'v1')
  repo.git('push', '-q', 'origin', 'v1')
})

afterAll(() => {
  repo.cleanup()
  fs.rmSync(tmp, { recursive: true, force: true })
})

describe('install from a file:// repository', () => {
  it('adds every SKILL.md (nested, dot-folders; node_modules skipped) as a folder with its files, exec bits and provenance', async () => {
    const lib = newLibrary()
    const report = await installFromSource({ library: lib, source: repo.url, cwd: tmp, env })
    expect(report.skipped).toEqual([])
    expect(report.installed.map((s) => s.name).sort()).toEqual(['csv-tool', 'pdf'])
    const pdf = report.installed.find((s) => s.name === 'pdf')!
    expect(pdf).toEqual({ name: 'pdf', path: 'pdf/SKILL.md', source: { repo: repo.url, ref: 'main', commit: commit1, path: 'skills/pdf' } })
    expect(report.installed.find((s) => s.name === 'csv-tool')!.source.path).toBe('skills/.curated/csv-tool')
    // files byte for byte, the script still executable
    expect(fs.readFileSync(path.join(lib, 'pdf', 'assets', 'logo.png')).equals(PNG)).toBe(true)
    expect(fs.readFileSync(path.join(lib, 'pdf', 'references', 'api.md'), 'utf8')).toBe('The API.\n')
    expect(fs.statSync(path.join(lib, 'pdf', 'scripts', 'extract.py')).mode & 0o111).not.toBe(0)
    expect(fs.existsSync(path.join(lib, 'dep'))).toBe(false)
    // provenance under metadata.skillbench (no new top-level key): the file still passes the Agent Skills rules
    const text = fs.readFileSync(path.join(lib, 'pdf', 'SKILL.md'), 'utf8')
    const record = parseSkillMd(text)
    expect(Object.keys(record.frontMatter).sort()).toEqual(['description', 'license', 'metadata', 'name'])
    expect((record.frontMatter.metadata as { skillbench: { source: unknown } }).skillbench.source).toEqual({ repo: repo.url, ref: 'main', commit: commit1, path: 'skills/pdf' })
    expect(validateSkillMd(record, { dirName: 'pdf' }).filter((p) => p.level === 'error')).toEqual([])
    expect(record.body).toBe('# PDF\n\nUse pypdf.\n')
    // the store reads them, and nothing of the staging is left behind
    const listed = await (await openLibrary(lib)).list()
    expect(listed.skills.map((s) => s.path).sort()).toEqual(['csv-tool/SKILL.md', 'pdf/SKILL.md'])
    expect(fs.readdirSync(path.join(lib, '.skillbench', 'staging'))).toEqual([])
  })

  it('takes --path, --skill, and a --ref that is a tag or a commit', async () => {
    const later = repo.commit({ 'skills/pdf/SKILL.md': PDF.replace('Use pypdf.', 'Use pypdf 5.') })
    const lib = newLibrary()
    const one = await installFromSource({ library: lib, source: repo.url, path: 'skills/.curated', cwd: tmp, env })
    expect(one.installed.map((s) => s.name)).toEqual(['csv-tool'])
    const tagged = await installFromSource({ library: lib, source: repo.url, ref: 'v1', skills: ['pdf'], cwd: tmp, env })
    expect(tagged.installed).toEqual([{ name: 'pdf', path: 'pdf/SKILL.md', source: { repo: repo.url, ref: 'v1', commit: commit1, path: 'skills/pdf' } }])
    expect(fs.readFileSync(path.join(lib, 'pdf', 'SKILL.md'), 'utf8')).toContain('Use pypdf.\n')
    const lib2 = newLibrary()
    const pinned = await installFromSource({ library: lib2, source: repo.url, ref: later, skills: ['pdf'], cwd: tmp, env })
    expect(pinned.installed[0]!.source.commit).toBe(later)
    expect(fs.readFileSync(path.join(lib2, 'pdf', 'SKILL.md'), 'utf8')).toContain('Use pypdf 5.')
    const missing = await installFromSource({ library: lib2, source: repo.url, skills: ['nope'], cwd: tmp, env })
    expect(missing.skipped).toEqual([{ name: 'nope', reason: expect.stringContaining('no skill named nope'), messageCode: 'install.no_such_skill', params: expect.objectContaining({ name: 'nope' }) }])
  })

  it('reports a name collision and never overwrites the skill already there; a second install says it is installed', async () => {
    const lib = newLibrary()
    fs.mkdirSync(path.join(lib, 'pdf'))
    const mine = skillMd('pdf', 'My own PDF notes.', 'Mine.\n')
    fs.writeFileSync(path.join(lib, 'pdf', 'SKILL.md'), mine)
    const before = snapshot(path.join(lib, 'pdf'))
    const report = await installFromSource({ library: lib, source: repo.url, cwd: tmp, env })
    expect(report.installed.map((s) => s.name)).toEqual(['csv-tool'])
    expect(report.skipped).toEqual([{ name: 'pdf', reason: 'a skill named pdf already exists in the library (pdf/SKILL.md): not overwritten', messageCode: 'install.name_taken', params: { name: 'pdf', path: 'pdf/SKILL.md' } }])
    expect(snapshot(path.join(lib, 'pdf'))).toEqual(before)
    const again = await installFromSource({ library: lib, source: repo.url, skills: ['csv-tool'], cwd: tmp, env })
    expect(again.installed).toEqual([])
    expect(again.skipped[0]!.reason).toMatch(/^already installed from file:\/\/.*skillbench update brings its upstream changes$/)
  })

  it('prints exactly {installed, skipped, held} with --json', () => {
    const lib = newLibrary()
    const r = spawnSync(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), 'install', repo.url, '--library', lib, '--skill', 'csv-tool', '--json'], { encoding: 'utf8', env: { ...env, NODE_OPTIONS: '' }, timeout: 60_000 })
    expect(r.stderr).not.toContain('Error:')
    expect(r.status).toBe(0)
    const out = JSON.parse(r.stdout) as Record<string, unknown>
    expect(Object.keys(out)).toEqual(['installed', 'skipped', 'held'])
    expect(out.installed).toEqual([{ name: 'csv-tool', path: 'csv-tool/SKILL.md', source: { repo: repo.url, ref: expect.any(String), commit: expect.stringMatching(/^[0-9a-f]{40}$/), path: 'skills/.curated/csv-tool' } }])
    expect(out.skipped).toEqual([])
    expect(out.held).toEqual([])
  })
})

describe('several processes installing into one library at once', () => {
  it('four `skillbench install` processes of one repository: each skill lands once, the others say so, nothing is left staged', async () => {
    const { spawn } = await import('node:child_process')
    const lib = newLibrary()
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => {
        return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), 'install', repo.url, '--library', lib, '--json'], { env: { ...env, NODE_OPTIONS: '' } })
          let stdout = ''
          let stderr = ''
          child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
          child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
          child.on('close', (code) => resolve({ code, stdout, stderr }))
        })
      })
    )
    const installed: string[] = []
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0)
      const out = JSON.parse(r.stdout) as { installed: { name: string }[]; skipped: { name: string; reason: string }[] }
      installed.push(...out.installed.map((s) => s.name))
      // a skill not installed by this process is reported as there already, never silently dropped
      for (const s of out.skipped) expect(s.reason).toMatch(/already (installed|exists)/)
      expect([...out.installed.map((s) => s.name), ...out.skipped.map((s) => s.name)].sort()).toEqual(['csv-tool', 'pdf'])
    }
    expect(installed.sort()).toEqual(['csv-tool', 'pdf'])
    // exactly the two skill folders, complete, and no staging folder or temp file anywhere
    expect(fs.readdirSync(lib).filter((n) => n !== '.skillbench').sort()).toEqual(['csv-tool', 'pdf', 'skills.lock'])
    expect(fs.readFileSync(path.join(lib, 'pdf', 'references', 'api.md'), 'utf8')).toBe('The API.\n')
    const leftovers = Object.keys(snapshot(lib)).filter((f) => /\.tmp$|staging|\.sb-/.test(f))
    expect(leftovers).toEqual([])
    const listed = await (await openLibrary(lib)).list()
    expect(listed.skills.map((s) => s.title).sort()).toEqual(['csv-tool', 'pdf'])
    expect(listed.errors).toEqual([])
  }, 120_000)
})

describe('bad input: a clear message, nothing half-installed', () => {
  let lib: string
  afterEach(() => {
    // whatever failed, the library holds no skill folder and no staging leftovers (the lock names what a test installed)
    const names = fs.existsSync(lib) ? fs.readdirSync(lib).filter((n) => n !== '.skillbench' && n !== 'skills.lock') : []
    expect(names).toEqual([])
  })
  const fails = async (source: string, code: string, message: RegExp, extra: Partial<Parameters<typeof installFromSource>[0]> = {}): Promise<SourceError> => {
    lib = newLibrary()
    const err = await installFromSource({ library: lib, source, cwd: tmp, env, ...extra }).then(
      () => null,
      (e: unknown) => e
    )
    expect(err).toBeInstanceOf(SourceError)
    expect((err as SourceError).code).toBe(code)
    expect((err as Error).message).toMatch(message)
    // every failure says which message by code too (source.*, install.*): the app and --json read the code
    expect((err as SourceError).messageCode).toMatch(/^(source|install)\./)
    return err as SourceError
  }

  it('a URL that is not git: another scheme, a plain folder, a file:// path that is no repository', async () => {
    await fails('ftp://example.org/skills', 'not_git', /^not a git URL: ftp:\/\/example\.org\/skills/)
    const plain = fs.mkdtempSync(path.join(tmp, 'plain-'))
    await fails(plain, 'not_git', /is not a git repository \(to bring in skills from a plain folder, use skillbench import --from/)
    await fails(`file://${plain}`, 'not_git', /^file:\/\/.* is not a git repository\ngit said: fatal: '.*' does not appear to be a git repository/)
    await fails('anthropics/skills', 'not_git', /give the whole URL: https:\/\/github\.com\/anthropics\/skills/)
  })

  it('a private repository without credentials fails at once (no prompt) and says to set up a credential helper', async () => {
    // a smart-HTTP server that wants a password for everything
    const server = http.createServer((_req, res) => {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="private"' })
      res.end('auth required')
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as AddressInfo).port
    try {
      await fails(`http://127.0.0.1:${port}/org/private.git`, 'auth', /needs credentials \(it may be private\): Skillbench never asks for a password; set up a git credential helper or an SSH key/)
      // credentials typed into the URL are refused the same way, and never shown back
      await fails(`http://user:s3cret@127.0.0.1:${port}/org/private.git`, 'auth', /^(?![\s\S]*s3cret)[\s\S]*needs credentials/)
    } finally {
      server.close()
    }
  })

  it('git missing from PATH', async () => {
    await fails(repo.url, 'git_missing', /^git is not installed \(or not on PATH\)/, { env: { ...env, PATH: path.join(tmp, 'no-bin') } })
  })

  it('a repository with no SKILL.md, a --path that is not there, a branch that is not there', async () => {
    const empty = makeRepo('sb-empty-')
    try {
      empty.commit({ 'README.md': 'nothing here\n' })
      await fails(empty.url, 'no_skills', /^no SKILL\.md found under the repository root of file:\/\/.* at main \([0-9a-f]{12}\)$/)
    } finally {
      empty.cleanup()
    }
    await fails(repo.url, 'not_found', /^no folder nowhere in /, { path: 'nowhere' })
    const noRef = await fails(repo.url, 'not_found', /^no branch or tag "no-such-branch"/, { ref: 'no-such-branch' })
    expect(noRef).toMatchObject({ messageCode: 'source.no_ref', params: { ref: 'no-such-branch', repo: repo.url } })
  })

  it('a SKILL.md that fails validation, and links leading out of the repository: those skills are refused with the reason, the others installed', async () => {
    const bad = makeRepo('sb-bad-')
    try {
      bad.commit({
        'Bad_Name/SKILL.md': skillMd('Bad_Name', 'Upper case and underscore.', 'x\n'),
        'nodesc/SKILL.md': '---\nname: nodesc\n---\n\nno description\n',
        'broken/SKILL.md': '---\nname: broken\ndescription: [unclosed\n---\n\nx\n',
        'escape/SKILL.md': skillMd('escape', 'Has a link out.', 'x\n'),
        'escape/references/passwd': { link: '../../../../../etc/passwd' },
        'inside/SKILL.md': skillMd('inside', 'Has a link inside the repo.', 'x\n'),
        'inside/references/shared.md': { link: '../../shared/notes.md' },
        'shared/notes.md': 'shared notes\n',
        // other agents' extensions and an over-long description are not refusals: installed as written, with a note
        'ext/SKILL.md': skillMd('ext', 'x'.repeat(1100), 'x\n', 'disable-model-invocation: true\ncategory: tools\n')
      })
      lib = newLibrary()
      const lines: CodedLine[] = []
      const report = await installFromSource({ library: lib, source: bad.url, cwd: tmp, env, onProgress: (line) => lines.push(line) })
      const notes = lines.map((l) => l.message)
      // every line by code: the first says what is fetched, each note names the skill and nests the rule's own code
      expect(lines[0]).toEqual({ message: `Fetching ${bad.url}…`, messageCode: 'install.fetching', params: { source: bad.url } })
      const long = lines.find((l) => l.message.startsWith('note: ext: description'))!
      expect(long).toMatchObject({ messageCode: 'install.note_as_written', params: { name: 'ext', note: { messageCode: 'skillmd.description_too_long', params: { n: 1100, max: 1024 } } } })
      expect(translateLine(long, long.message, 'zh')).toBe('提示：ext：description 有 1100 个字符，上限是 1024（按原样安装）')
      expect(lines.map((l) => l.messageCode)).toEqual(['install.fetching', 'install.found', 'install.note_as_written', 'install.note_as_written', 'install.note_as_written', 'install.writing'])
      expect(report.installed.map((s) => s.name)).toEqual(['ext', 'inside'])
      expect(fs.readFileSync(path.join(lib, 'ext', 'SKILL.md'), 'utf8')).toMatch(/^---\nname: ext\ndescription: x{1100}\ndisable-model-invocation: true\ncategory: tools\nmetadata:/)
      expect(notes.filter((n) => n.startsWith('note: ext:'))).toEqual([
        'note: ext: description is 1100 characters, the limit is 1024 (installed as written)',
        expect.stringMatching(/^note: ext: unexpected top-level key "disable-model-invocation"/),
        expect.stringMatching(/^note: ext: unexpected top-level key "category"/)
      ])
      fs.rmSync(path.join(lib, 'ext'), { recursive: true })
      // a link inside the repository is copied as the file it points to
      expect(fs.lstatSync(path.join(lib, 'inside', 'references', 'shared.md')).isFile()).toBe(true)
      expect(fs.readFileSync(path.join(lib, 'inside', 'references', 'shared.md'), 'utf8')).toBe('shared notes\n')
      const reasons = Object.fromEntries(report.skipped.map((s) => [s.name, s.reason]))
      expect(reasons.Bad_Name).toMatch(/^Bad_Name: SKILL\.md fails validation: name "Bad_Name" is not kebab-case/)
      expect(reasons.nodesc).toMatch(/SKILL\.md fails validation: description is missing/)
      expect(reasons.broken).toMatch(/SKILL\.md does not parse/)
      expect(reasons.escape).toBe('escape: symbolic link escape/references/passwd points outside the repository (→ ../../../../../etc/passwd): refused')
      expect(fs.existsSync(path.join(lib, 'escape'))).toBe(false)
      fs.rmSync(path.join(lib, 'inside'), { recursive: true }) // for the after-each check
    } finally {
      bad.cleanup()
    }
  })

  it('a huge repository is stopped at the size limit, with the way to raise it', async () => {
    const huge = makeRepo('sb-huge-')
    try {
      huge.commit({ 'big/SKILL.md': skillMd('big', 'Big.', 'x\n'), 'big/assets/blob.bin': { bytes: crypto.randomBytes(3 * 1024 * 1024) } })
      await fails(huge.url, 'too_big', /^the repository is larger than 1 MB and was not fetched .*SKILLBENCH_GIT_MAX_MB/, { maxRepoBytes: 1024 * 1024 })
    } finally {
      huge.cleanup()
    }
  })

  it('staging folders a crashed install left are swept, never listed as skills', async () => {
    lib = newLibrary()
    const stale = path.join(lib, '.skillbench', 'staging', '999999999-deadbeef', 'pdf')
    fs.mkdirSync(stale, { recursive: true })
    fs.writeFileSync(path.join(stale, 'SKILL.md'), PDF)
    expect((await (await openLibrary(lib)).list()).skills).toEqual([])
    const report = await installFromSource({ library: lib, source: repo.url, skills: ['csv-tool'], cwd: tmp, env })
    expect(report.installed.map((s) => s.name)).toEqual(['csv-tool'])
    expect(fs.readdirSync(path.join(lib, '.skillbench', 'staging'))).toEqual([])
    fs.rmSync(path.join(lib, 'csv-tool'), { recursive: true })
  })
})
