/**
 * `skillbench install` decides by code, not by the words: a source installed twice exits 0 (everything skipped is
 * already there: install.already_installed), and `install --locked` sorts a retired entry (install.locked_retired)
 * from one in place — with the English as it is (the printed lines exactly as before) and with the English of
 * those codes reworded in this process (the decisions must not move). A real git source (file://), the real CLI
 * in-process (so the wording can be changed under it).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { main } from '../../src/main/cli/index'
import type { CliIo } from '../../src/main/cli/common'
import { MESSAGE_TEMPLATES } from '../../src/shared/error-codes'
import { parseSkillsLock, serializeSkillsLock, SKILLS_LOCK_FILE } from '../../src/main/store/skills-lock'
import { installLocked, LockMismatchError } from '../../src/main/sources/install-locked'
import { makeRepo, skillMd, type TestRepo } from './git-repo'

let tmp: string
let env: NodeJS.ProcessEnv
let repo: TestRepo
let commit: string
let broken: TestRepo
let brokenCommit: string

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false, cwd: tmp, env, signal: new AbortController().signal }
  const code = await main(args, io)
  return { code, stdout, stderr }
}

/** Runs `fn` with the English of `code` replaced (the code and its params unchanged), then puts it back. */
async function reworded<T>(code: keyof typeof MESSAGE_TEMPLATES, template: string, fn: () => Promise<T>): Promise<T> {
  const templates = MESSAGE_TEMPLATES as Record<string, string>
  const before = templates[code]!
  templates[code] = template
  try {
    return await fn()
  } finally {
    templates[code] = before
  }
}

const newLibrary = (): string => fs.mkdtempSync(path.join(tmp, 'lib-'))

beforeAll(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-install-by-code-')))
  repo = makeRepo('sb-install-by-code-repo-')
  env = { ...repo.env, SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache') }
  commit = repo.commit({
    'skills/table-format/SKILL.md': skillMd('table-format', 'Formats tables. Use for Markdown tables.', 'Align the columns.\n'),
    'skills/notes/SKILL.md': skillMd('notes', 'Keeps notes. Use when noting.', 'Write them down.\n')
  })
  // a SKILL.md without front matter at the root and in sub/: found, and skipped by prepareInstall
  broken = makeRepo('sb-install-by-code-broken-')
  brokenCommit = broken.commit({ 'SKILL.md': 'no front matter here\n', 'sub/SKILL.md': 'no front matter here either\n' })
})
afterAll(() => {
  repo.cleanup()
  broken.cleanup()
  fs.rmSync(tmp, { recursive: true, force: true })
})

describe('install decides by code', () => {
  it('a source installed twice: exit 0, the skipped lines word by word as before; the same with the words changed', async () => {
    const lib = newLibrary()
    expect((await cli('install', repo.url, '--library', lib, '--skill', 'table-format')).code).toBe(0)
    const again = await cli('install', repo.url, '--library', lib, '--skill', 'table-format')
    expect(again.code).toBe(0)
    expect(again.stdout).toBe(
      `skipped   table-format: already installed from ${repo.url} (commit ${commit.slice(0, 12)}) at table-format/SKILL.md: skillbench update brings its upstream changes\n0 installed, 1 skipped\n`
    )
    const json = JSON.parse((await cli('install', repo.url, '--library', lib, '--skill', 'table-format', '--json')).stdout) as { skipped: unknown[] }
    expect(json.skipped).toEqual([
      {
        name: 'table-format',
        reason: `already installed from ${repo.url} (commit ${commit.slice(0, 12)}) at table-format/SKILL.md: skillbench update brings its upstream changes`,
        messageCode: 'install.already_installed',
        params: { repo: repo.url, commit: commit.slice(0, 12), path: 'table-format/SKILL.md' }
      }
    ])
    // the English changed, the code not: still "already there", still exit 0 (deciding by the words made it 1)
    const changed = await reworded('install.already_installed', 'present from {repo} since commit {commit} ({path})', () => cli('install', repo.url, '--library', lib, '--skill', 'table-format'))
    expect(changed.stdout).toBe(`skipped   table-format: present from ${repo.url} since commit ${commit.slice(0, 12)} (table-format/SKILL.md)\n0 installed, 1 skipped\n`)
    expect(changed.code).toBe(0)
    // a skip for another reason still fails: a skill the source does not have
    const missing = await cli('install', repo.url, '--library', lib, '--skill', 'table-format', '--skill', 'no-such')
    expect(missing.code).toBe(1)
  })

  it('install --locked: a retired entry is "retired", one at its commit "in place" — as before, and with the words changed', async () => {
    const a = newLibrary()
    expect((await cli('install', repo.url, '--library', a)).code).toBe(0)
    const lock = parseSkillsLock(fs.readFileSync(path.join(a, SKILLS_LOCK_FILE), 'utf8'))
    // library b: notes installed at the locked commit, table-format retired where the lock comes from
    const b = newLibrary()
    expect((await cli('install', repo.url, '--library', b, '--skill', 'notes')).code).toBe(0)
    fs.writeFileSync(path.join(b, SKILLS_LOCK_FILE), serializeSkillsLock({ skills: { ...lock.skills, 'table-format': { ...lock.skills['table-format']!, retired: true } } }))
    const short = commit.slice(0, 12)
    const r = await cli('install', '--locked', '--library', b)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(
      `retired   table-format: retired in the library this skills.lock comes from (restore it there, or install ${repo.url} --path skills/table-format to take it anyway)\n` +
        `in place  notes: already installed at the locked commit ${short}\n` +
        '0 installed, 1 already as locked, 0 not as locked, 1 retired\n'
    )
    // both reworded so neither starts with its old first word: the sorting and the counts stay
    const changed = await reworded('install.locked_retired', 'withdrawn where this lock comes from ({source} {path})', () =>
      reworded('install.locked_already', 'retired? no: present at {commit}', () => cli('install', '--locked', '--library', b))
    )
    expect(changed.code).toBe(0)
    expect(changed.stdout).toBe(
      `retired   table-format: withdrawn where this lock comes from (${repo.url} skills/table-format)\n` +
        `in place  notes: retired? no: present at ${short}\n` +
        '0 installed, 1 already as locked, 0 not as locked, 1 retired\n'
    )
    expect(fs.existsSync(path.join(b, 'table-format'))).toBe(false)
  })

  it('install --locked names the folder\'s own skip (found by its code and folder, not by its words), at the root and in a folder', async () => {
    const lib = newLibrary()
    const entry = { source: broken.url, ref: 'main', commit: brokenCommit, hash: `sha256:${'0'.repeat(64)}` }
    fs.writeFileSync(path.join(lib, SKILLS_LOCK_FILE), serializeSkillsLock({ skills: { rooted: { ...entry, path: '' }, nested: { ...entry, path: 'sub' } } }))
    const reasons = async (): Promise<Record<string, unknown>> => {
      const err = await installLocked({ library: lib, cwd: tmp, env }).then(() => null, (e: unknown) => e)
      expect(err).toBeInstanceOf(LockMismatchError)
      return Object.fromEntries((err as LockMismatchError).mismatched.map((m) => [m.name, [m.messageCode, (m.params as { reason: { messageCode: string; params: Record<string, unknown> } }).reason]]))
    }
    const asBefore = await reasons()
    expect(asBefore).toEqual({
      nested: ['install.locked_at', { messageCode: 'install.skipped_in', params: { where: 'sub', reason: expect.objectContaining({ messageCode: expect.any(String) }) } }],
      rooted: ['install.locked_at', { messageCode: 'install.skipped_in', params: { where: expect.objectContaining({ messageCode: 'install.root_folder' }), reason: expect.objectContaining({ messageCode: expect.any(String) }) } }]
    })
    // the folder's words changed ("{where}: …" no longer leads): the same skips are found, not "no skill in that folder"
    const changed = await reworded('install.skipped_in', '{reason} (in {where})', () => reworded('install.root_folder', 'the top of the repository', reasons))
    expect(changed).toEqual(asBefore)
    expect(fs.existsSync(path.join(lib, 'sub'))).toBe(false)
  })
})
