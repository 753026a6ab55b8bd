/**
 * The usage ledger: lines are read only once complete (an append in progress or torn by a crash is left alone),
 * uses after the last fold count on top of the files, a fold moves them into the files exactly once (also when it
 * crashed halfway), and a big folded ledger moves to the archive with nothing counted twice.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { LedgerTail, parseLedgerChunk, pendingUsesOf } from '../../src/main/store/ledger'
import { openLibrary } from '../../src/main/store/library'
import { makeLibrary } from '../curate/fixtures'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

function library(): string {
  const dir = fs.realpathSync(makeLibrary([
    { id: '1768600001', title: 'Python calculator', body: 'Write calc.py.\n', fetch: 2 },
    { id: '1768600002', title: 'Git conflicts', body: 'Run git status.\n' }
  ]))
  dirs.push(dir)
  return dir
}

const use = (ids: string[], at: string): string => JSON.stringify({ t: 'use', ids, at, via: 'test' }) + '\n'

describe('ledger lines', () => {
  it('reads complete lines only, skips what it does not know, and counts uses after the last fold', () => {
    const text = use(['1'], '2026-01-01T00:00:01.000000') + 'garbage\n' + JSON.stringify({ t: 'fold', paths: ['a.md'], at: 'x' }) + '\n' + use(['1', '2', '1'], '2026-01-02T00:00:00.000000') + '{"t":"use","ids":["2"'
    const { records, consumed } = parseLedgerChunk(Buffer.from(text))
    expect(records.map((r) => r.t)).toEqual(['use', 'fold', 'use'])
    expect(consumed).toBe(text.lastIndexOf('\n') + 1) // the unterminated tail waits
    expect([...pendingUsesOf(records)]).toEqual([
      ['1', { count: 1, last: '2026-01-02T00:00:00.000000' }],
      ['2', { count: 1, last: '2026-01-02T00:00:00.000000' }]
    ])
  })
})

describe('folding', () => {
  it('a fold interrupted after some files were written finishes at the next open, counting each use once', async () => {
    const dir = library()
    const lib = await openLibrary(dir)
    for (let i = 0; i < 5; i++) await lib.recordUse(['1768600001', '1768600002'])
    // Simulate a crash mid-fold: the intent is saved and one file already rewritten, no fold record yet.
    await lib.foldUsage()
    const ledger = path.join(dir, '.skillbench', 'usage.jsonl')
    const lines = fs.readFileSync(ledger, 'utf8').trimEnd().split('\n')
    const fold = JSON.parse(lines.pop()!) as { paths: string[] }
    fs.writeFileSync(ledger, lines.join('\n') + '\n') // the commit record never made it
    const intent = { at: '2026-11-23T10:00:00.000000', entries: [] as unknown[] }
    // Rebuild the intent the fold had written: before = the files without the uses, after = with them.
    const after = Object.fromEntries(fold.paths.map((p) => [p, fs.readFileSync(path.join(dir, p), 'utf8')]))
    const crypto = await import('node:crypto')
    const h = (t: string): string => crypto.createHash('sha256').update(t).digest('hex')
    for (const p of fold.paths) {
      const id = /skill_id: '(\d+)'/.exec(after[p]!)![1]!
      const before = after[p]!.replace(/^fetch_count: (\d+)$/m, (_l, n: string) => `fetch_count: ${Number(n) - 5}`).replace(/^last_used_at: .*$/m, 'last_used_at: null')
      intent.entries.push({ id, path: p, before: h(before), after: h(after[p]!), add: 5, last: /^last_used_at: '(.*)'$/m.exec(after[p]!)![1] })
      if (p !== fold.paths[0]) fs.writeFileSync(path.join(dir, p), before) // only the first file was rewritten
    }
    fs.writeFileSync(path.join(dir, '.skillbench', 'usage-fold.json'), JSON.stringify(intent))
    const reopened = await openLibrary(dir)
    expect(fs.existsSync(path.join(dir, '.skillbench', 'usage-fold.json'))).toBe(false)
    expect((await reopened.get('1768600001')).fetch_count).toBe(7)
    expect((await reopened.get('1768600002')).fetch_count).toBe(5)
    expect(fs.readFileSync(path.join(dir, (await reopened.get('1768600002')).path), 'utf8')).toMatch(/^fetch_count: 5$/m)
  })

  it('a big folded ledger moves to the archive (history kept), and nothing is counted twice', async () => {
    const dir = library()
    const ledger = path.join(dir, '.skillbench', 'usage.jsonl')
    fs.mkdirSync(path.dirname(ledger), { recursive: true })
    // 15,000 uses recorded by many agents (written directly: > 1 MB).
    let text = ''
    for (let i = 0; i < 15_000; i++) text += use([i % 3 === 0 ? '1768600002' : '1768600001'], `2026-11-23T10:${String(Math.floor(i / 300)).padStart(2, '0')}:00.000000`)
    fs.writeFileSync(ledger, text)
    const lib = await openLibrary(dir)
    expect((await lib.get('1768600001')).fetch_count).toBe(2 + 10_000)
    expect(await lib.foldUsage()).toEqual({ skills: 2, uses: 15_000 })
    const archive = fs.readdirSync(path.join(dir, '.skillbench', 'usage-archive'))
    expect(archive.length).toBe(1)
    expect(fs.readFileSync(path.join(dir, '.skillbench', 'usage-archive', archive[0]!), 'utf8').startsWith(text)).toBe(true)
    expect(fs.existsSync(ledger)).toBe(false)
    for (const l of [lib, await openLibrary(dir)]) {
      expect((await l.get('1768600001')).fetch_count).toBe(10_002)
      expect((await l.get('1768600002')).fetch_count).toBe(5000)
    }
    // A reader that followed the old ledger sees the archive move as a reset, not as uses lost or doubled.
    const tail = new LedgerTail(dir)
    tail.poll()
    expect(tail.uses().size).toBe(0)
    await lib.recordUse(['1768600002'])
    tail.poll()
    expect(tail.uses().get('1768600002')?.count).toBe(1)
    expect((await (await openLibrary(dir)).get('1768600002')).fetch_count).toBe(5001)
  })
})
