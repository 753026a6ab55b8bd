import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { openLibrary } from '../../src/main/store/library'
import { loadedSkillText, loadSkillFiles, parseSkillAt, MAX_SKILL_FILE_BYTES } from '../../src/main/store/load'
import type { Candidate } from '../../src/main/store/walk'
import { hashTree, tempDir } from './helpers'

const dir = tempDir('sb-load-batch-')
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function skillText(id: number, body: string, title = `skill ${id}`): string {
  return `---\nskill_id: '${1800000000 + id}'\ntitle: ${title}\nusage_conditions: when ${id}\n---\n\n${body}\n`
}

function candidate(name: string): Candidate {
  return { abs: path.join(dir, name), rel: name, format: 'agiagent', legacy: false }
}

/** What one file gives when read and parsed on its own (the per-file path the batch must match). */
function alone(c: Candidate): unknown {
  const st = fs.statSync(c.abs)
  const r = parseSkillAt(fs.readFileSync(c.abs), c, st.mtimeMs)
  return r.ok ? { ok: true, skill: { ...r.skill }, text: loadedSkillText(r.skill) } : r
}

function viewOf(r: ReturnType<typeof loadSkillFiles>[number]): unknown {
  return r.result.ok ? { ok: true, skill: { ...r.result.skill }, text: loadedSkillText(r.result.skill) } : r.result
}

describe('loadSkillFiles (a batch of files read into one buffer, ASCII ones decoded together)', () => {
  it('gives each file what reading it alone gives, across batch boundaries and for every kind of file', () => {
    const names: string[] = []
    const write = (name: string, bytes: string | Buffer): void => {
      fs.writeFileSync(path.join(dir, name), bytes)
      names.push(name)
    }
    // ~600 KB ASCII files: seven of them fill more than one 4 MB batch, so the buffer is decoded and reused mid-list.
    const line = 'plain ascii words of a skill body, repeated to make a large file\n'
    for (let i = 0; i < 7; i++) write(`big-${i}.md`, skillText(i, line.repeat(9000 + i)))
    write('chinese.md', skillText(10, '这是一个技能的正文：先检查输入，再写入结果。\n'.repeat(50), '中文技能'))
    write('bom.md', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(skillText(11, 'a body after a byte order mark'))]))
    write('invalid.md', Buffer.concat([Buffer.from(skillText(12, 'bad bytes follow: ')), Buffer.from([0xc3, 0x28, 0xff])]))
    write('empty.md', '')
    write('no-front-matter.md', 'just text, no front matter\n')
    write('small.md', skillText(13, 'x'))
    write('latin1-high.md', Buffer.concat([Buffer.from(skillText(14, 'caf')), Buffer.from([0xe9])]))
    for (let i = 0; i < 5; i++) write(`tail-${i}.md`, skillText(20 + i, `body ${i} `.repeat(100 + i)))
    fs.symlinkSync(path.join(dir, 'small.md'), path.join(dir, 'link.md'))
    fs.mkdirSync(path.join(dir, 'folder.md'))
    execFileSync('mkfifo', [path.join(dir, 'fifo.md')])
    // A sparse file over the size cap: refused by its size, never read.
    fs.writeFileSync(path.join(dir, 'huge.md'), '')
    fs.truncateSync(path.join(dir, 'huge.md'), MAX_SKILL_FILE_BYTES + 1)

    const before = hashTree(dir)
    const cs = [...names, 'link.md', 'folder.md', 'fifo.md', 'huge.md', 'missing.md'].map(candidate)
    const batch = loadSkillFiles(cs)
    expect(batch).toHaveLength(cs.length)
    names.forEach((name, k) => expect(viewOf(batch[k]!), name).toEqual(alone(cs[k]!)))
    const last = batch.slice(names.length).map((r) => (r.result.ok ? 'ok' : r.result.reason))
    expect(last).toEqual([
      'symbolic link: skipped (links are never followed)',
      'not a regular file',
      'not a regular file',
      `file is larger than ${MAX_SKILL_FILE_BYTES / 1024 / 1024} MB`,
      'cannot read: ENOENT'
    ])
    // The ones that loaded: every ASCII text is the file's exact content, and the hash is of its bytes.
    for (const [k, name] of names.entries()) {
      const r = batch[k]!.result
      if (!r.ok) continue
      const bytes = fs.readFileSync(path.join(dir, name))
      expect(r.skill.hash).toBe(createHash('sha256').update(bytes).digest('hex'))
    }
    const failed = names.filter((_, k) => !batch[k]!.result.ok)
    expect(failed).toEqual(['invalid.md', 'empty.md', 'no-front-matter.md', 'latin1-high.md'])
    expect(batch.slice(0, names.length).map((r) => (r.result.ok ? '' : r.result.reason)).filter((r) => r.includes('UTF-8'))).toHaveLength(2)
    expect(hashTree(dir)).toEqual(before)
  })

  it('keeps each batch file apart: a later file never shows an earlier one’s bytes', () => {
    // Files of falling sizes: were a slice taken from the wrong offset or a reused buffer read stale, a body would
    // carry the previous file's tail.
    const cs: Candidate[] = []
    for (let i = 0; i < 40; i++) {
      const name = `fall-${String(i).padStart(2, '0')}.md`
      fs.writeFileSync(path.join(dir, name), skillText(100 + i, `${String.fromCharCode(97 + (i % 26))}`.repeat(200_000 - i * 4000)))
      cs.push(candidate(name))
    }
    const batch = loadSkillFiles(cs)
    batch.forEach((r, i) => {
      expect(r.result.ok).toBe(true)
      if (!r.result.ok) return
      expect(r.result.skill.body).toBe(`${String.fromCharCode(97 + (i % 26))}`.repeat(200_000 - i * 4000) + '\n')
      expect(loadedSkillText(r.result.skill)).toBe(fs.readFileSync(cs[i]!.abs, 'utf8'))
    })
  })
})

describe('a listing again after other programs edited the library', () => {
  it('reads the changed and new files (together, as a batch) and keeps the unchanged ones', async () => {
    const lib = tempDir('sb-load-relist-')
    try {
      const name = (i: number): string => `skill_${String(i).padStart(3, '0')}.md`
      for (let i = 0; i < 30; i++) fs.writeFileSync(path.join(lib, name(i)), skillText(i, `first body ${i}`))
      const library = await openLibrary(lib)
      const first = await library.list()
      expect(first.skills).toHaveLength(30)
      // Another process rewrites three files (one of them to invalid bytes), removes one and adds one.
      const script = [
        "const fs = require('node:fs'), path = require('node:path')",
        `const dir = ${JSON.stringify(lib)}`,
        `const text = (i, body) => "---\\nskill_id: '" + (1800000000 + i) + "'\\ntitle: skill " + i + "\\nusage_conditions: when " + i + "\\n---\\n\\n" + body + "\\n"`,
        "for (const i of [3, 17]) fs.writeFileSync(path.join(dir, 'skill_' + String(i).padStart(3, '0') + '.md'), text(i, 'second body ' + i + ' — 改过'))",
        "fs.writeFileSync(path.join(dir, 'skill_020.md'), Buffer.from([0xff, 0xfe, 0x00]))",
        "fs.unlinkSync(path.join(dir, 'skill_025.md'))",
        "fs.writeFileSync(path.join(dir, 'skill_030.md'), text(30, 'a new one'))"
      ].join('\n')
      execFileSync(process.execPath, ['-e', script])
      const again = await library.list()
      const bodies = new Map(again.skills.map((s) => [s.path, s.body]))
      expect(bodies.get(name(3))).toBe('second body 3 — 改过\n')
      expect(bodies.get(name(17))).toBe('second body 17 — 改过\n')
      expect(bodies.get(name(4))).toBe('first body 4\n')
      expect(bodies.get(name(30))).toBe('a new one\n')
      expect(bodies.has(name(25))).toBe(false)
      expect(bodies.has(name(20))).toBe(false)
      expect(again.errors.map((e) => e.path)).toEqual([name(20)])
      expect(again.skills).toHaveLength(29)
      // The unchanged skills are the objects the first listing made (not read again).
      expect(again.skills.find((s) => s.path === name(4))).toBe(first.skills.find((s) => s.path === name(4)))
    } finally {
      fs.rmSync(lib, { recursive: true, force: true })
    }
  })
})
