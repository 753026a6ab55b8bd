/**
 * The 2 MB limit of the format loaders holds for what is actually read: a SKILL.md named through a link is measured
 * as the file it leads to (not the link's own few bytes), a file whose stat says small but reads big is refused, and
 * a FIFO never blocks. Real files, real links, a real FIFO; the CLI's import too.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { englishText } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { loadImportSource, loadSkillFile, MAX_FORMAT_FILE_BYTES } from '../../src/main/formats/tree'
import { readFileAtMost } from '../../src/main/store/read-at-most'
import { runCli, snapshot, tempDir } from './helpers'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

function fresh(tag: string): string {
  const d = tempDir(tag)
  dirs.push(d)
  return d
}

function skillMd(name: string, pad = 0): string {
  return `---\nname: ${name}\ndescription: ${name} things. Use when ${name}.\n---\n\nBody of ${name}.\n${'x'.repeat(pad)}\n`
}

const TOO_LARGE = {
  path: 'SKILL.md',
  reason: 'file is larger than 2097152 bytes',
  messageCode: 'format.file_too_large',
  params: { bytes: 2097152 }
}

/** A 3 MB SKILL.md in `outside/big/`, and `SKILL.md` links to it and to a small one in `links/`. */
function setup(): { big: string; bigLink: string; small: string; smallLink: string; links: string } {
  const outside = fresh('limit-outside')
  fs.mkdirSync(path.join(outside, 'big'))
  fs.mkdirSync(path.join(outside, 'small'))
  const big = path.join(outside, 'big', 'SKILL.md')
  const small = path.join(outside, 'small', 'SKILL.md')
  fs.writeFileSync(big, skillMd('big', 3 * 1024 * 1024))
  fs.writeFileSync(small, skillMd('small'))
  const links = fresh('limit-links')
  fs.mkdirSync(path.join(links, 'big'))
  fs.mkdirSync(path.join(links, 'small'))
  const bigLink = path.join(links, 'big', 'SKILL.md')
  const smallLink = path.join(links, 'small', 'SKILL.md')
  fs.symlinkSync(big, bigLink)
  fs.symlinkSync(small, smallLink)
  return { big, bigLink, small, smallLink, links }
}

describe('the format size limit on what is read', () => {
  it('refuses a 3 MB SKILL.md named through a link, as it refuses it named directly (exact words, code, params, zh)', async () => {
    const { big, bigLink } = setup()
    expect(fs.lstatSync(bigLink).size).toBeLessThan(MAX_FORMAT_FILE_BYTES) // the link's own size is small
    expect(fs.statSync(bigLink).size).toBeGreaterThan(3 * 1024 * 1024)
    for (const source of [bigLink, big]) {
      const r = await loadImportSource(source)
      expect(r.skills, source).toEqual([])
      expect(r.errors, source).toEqual([TOO_LARGE])
    }
    expect(englishText({ messageCode: 'format.file_too_large', params: { bytes: 2097152 } })).toBe(TOO_LARGE.reason)
    expect(translateMessage({ messageCode: 'format.file_too_large', params: { bytes: 2097152 } }, TOO_LARGE.reason, 'zh')).toBe('文件超过 2097152 字节')
  })

  it('a small SKILL.md through a link still loads, as before', async () => {
    const { smallLink } = setup()
    const r = await loadImportSource(smallLink)
    expect(r.errors).toEqual([])
    expect(r.skills.map((s) => [s.path, s.skill.name, s.skill.description])).toEqual([['SKILL.md', 'small', 'small things. Use when small.']])
  })

  it('the real CLI import: the 3 MB file through a link is an error entry and nothing is written; the small one imports', async () => {
    const { bigLink, smallLink } = setup()
    const library = fresh('limit-library')
    const before = snapshot(library)
    const big = await runCli(['import', '--from', bigLink, '--library', library, '--json'])
    expect(big.code).toBe(1)
    expect(JSON.parse(big.stdout).errors).toEqual([TOO_LARGE])
    expect(snapshot(library)).toEqual(before)
    const small = await runCli(['import', '--from', smallLink, '--library', library, '--json'])
    expect(small.code).toBe(0)
    expect(fs.readFileSync(path.join(library, 'small', 'SKILL.md'), 'utf8')).toContain('name: small')
  })

  it('a link met as a found file (not the named source) is refused, never read', async () => {
    const { smallLink } = setup()
    await expect(loadSkillFile({ format: 'skill-md', path: 'small/SKILL.md', abs: smallLink })).rejects.toMatchObject({
      message: 'not a regular file (symbolic links are not followed): small/SKILL.md',
      messageCode: 'format.not_regular',
      params: { path: 'small/SKILL.md' }
    })
  })

  it('a FIFO named SKILL.md, found or linked to, is refused at once (no writer: an open without O_NONBLOCK would hang)', async () => {
    const dir = fresh('limit-fifo')
    fs.mkdirSync(path.join(dir, 'pipe'))
    const fifo = path.join(dir, 'pipe', 'SKILL.md')
    execFileSync('mkfifo', [fifo])
    const link = path.join(dir, 'SKILL.md')
    fs.symlinkSync(fifo, link)
    const started = Date.now()
    await expect(loadSkillFile({ format: 'skill-md', path: 'pipe/SKILL.md', abs: fifo })).rejects.toMatchObject({ messageCode: 'format.not_regular', params: { path: 'pipe/SKILL.md' } })
    await expect(loadSkillFile({ format: 'skill-md', path: 'SKILL.md', abs: link }, { followLinks: true })).rejects.toMatchObject({ messageCode: 'format.not_regular' })
    expect((await readFileAtMost(link, 10, { followLinks: true })).kind).toBe('not_regular')
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('a file whose stat says 0 bytes but reads more than the limit is refused (the limit counts bytes read)', async () => {
    // /proc files stat as size 0 and read as text: the stat-then-read race, made permanent
    const proc = '/proc/self/status'
    if (!fs.existsSync(proc)) return
    expect(fs.statSync(proc).size).toBe(0)
    const read = await readFileAtMost(proc, 64, { followLinks: true })
    expect(read.kind).toBe('too_large')
    const whole = await readFileAtMost(proc, 1024 * 1024, { followLinks: true })
    expect(whole.kind).toBe('ok')
    if (whole.kind === 'ok') expect(whole.bytes.toString('utf8')).toMatch(/^Name:/)
  })

  it('reads a file of exactly the limit, refuses one byte more', async () => {
    const dir = fresh('limit-edge')
    const at = path.join(dir, 'at')
    const over = path.join(dir, 'over')
    fs.writeFileSync(at, Buffer.alloc(1000, 0x61))
    fs.writeFileSync(over, Buffer.alloc(1001, 0x61))
    const ok = await readFileAtMost(at, 1000)
    expect(ok.kind === 'ok' && ok.bytes.equals(Buffer.alloc(1000, 0x61))).toBe(true)
    expect((await readFileAtMost(over, 1000)).kind).toBe('too_large')
    const link = path.join(dir, 'link')
    fs.symlinkSync(at, link)
    expect((await readFileAtMost(link, 1000)).kind).toBe('link')
  })
})
