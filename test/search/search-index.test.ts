/**
 * The persistent search index ranks exactly as the in-memory engine over the store's listing, stays exact through
 * incremental updates (edits, adds, removals, moves to legacy/), survives save/load, rebuilds from a damaged or
 * foreign file, never answers from a stale entry, and lists what the store lists.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadSearchIndex, searchDeltaFile, searchIndexFile } from '../../src/main/search/open'
import { LibrarySearch } from '../../src/main/search/library-search'
import { listedPreview, listedSkill, MAX_DELTA_DOCS } from '../../src/main/search/search-index'
import { skillPreview } from '../../src/main/search/skill-text'
import { openLibrary } from '../../src/main/store/library'
import { TermDictionary, tokenize, TOKENIZER_VERSION } from '../../src/main/text/tokenize'
import { readDocs } from '../../src/main/search/read-docs'
import { readDocsInParallel } from '../../src/main/search/read-parallel'
import { walkLibrary } from '../../src/main/store/walk'
import { tempDir } from '../store/helpers'
import { engineAnswer, expectSameRanking, indexAnswer, makeLibrary, QUERIES, skillText } from './library-fixture'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

describe('the persistent search index', () => {
  let dir: string
  beforeAll(() => {
    dir = makeLibrary(120)
    dirs.push(dir)
  })

  it('ranks exactly as the in-memory engine, cold and warm (saved and loaded back)', async () => {
    fs.rmSync(searchIndexFile(dir), { force: true })
    for (const q of QUERIES) for (const top of [1, 3, 10]) expectSameRanking(await indexAnswer(dir, q, top), await engineAnswer(dir, q, top))
    expect(fs.existsSync(searchIndexFile(dir))).toBe(true)
    const warm = loadSearchIndex(dir)
    expect(warm.size).toBe(123) // 120 + pdf-tool + legacy + the broken file
    // A loaded index first scans its vocabulary for the query's terms, then (past 64 lookups) keeps a map of it.
    const expected = await Promise.all(QUERIES.map((q) => engineAnswer(dir, q, 3)))
    const lookups = QUERIES.reduce((n, q) => n + tokenize(q).length, 0)
    for (let round = 0; round * lookups <= 64 + lookups; round++) {
      QUERIES.forEach((q, i) => expectSameRanking(warm.query(q, 3).map((h) => ({ path: h.path, score: h.score })), expected[i]!))
    }
  })

  it('ranks skills held in memory (no folder behind them) as the index of their library does; ties go to the earlier one given', async () => {
    const listed = (await (await openLibrary(dir)).list()).skills.filter((s) => !s.legacy)
    const inMemory = LibrarySearch.ofSkills(listed)
    for (const q of QUERIES) for (const top of [1, 3, 10]) expectSameRanking(inMemory.query(q, top).map((h) => ({ path: h.path, score: h.score })), await indexAnswer(dir, q, top))
    // Two skills with the same text: the order they are given in decides, not their paths.
    const twin = { ...listed[0]!, path: 'a/twin.md', skill_id: 'twin' }
    expect(LibrarySearch.ofSkills([listed[0]!, twin]).query(listed[0]!.title, 2).map((h) => h.skillId)).toEqual([listed[0]!.skill_id, 'twin'])
    expect(LibrarySearch.ofSkills([twin, listed[0]!]).query(listed[0]!.title, 2).map((h) => h.skillId)).toEqual(['twin', listed[0]!.skill_id])
    expect(LibrarySearch.ofSkills([]).query('anything', 3)).toEqual([])
  })

  it('stays exact through edits, additions, removals and retirements (only those files are read again)', async () => {
    await LibrarySearch.open(dir)
    // Same size, new content: caught by mtime/ctime/inode, never a stale answer.
    const f = path.join(dir, 'skill_5.md')
    const text = fs.readFileSync(f, 'utf8')
    const swapped = text.replace(/^title: .*$/m, (l) => l.replace(/[a-z]/g, (c) => (c === 'a' ? 'b' : c)))
    fs.writeFileSync(f, swapped.length === text.length ? swapped : text)
    fs.writeFileSync(path.join(dir, 'skill_new.md'), skillText(500))
    fs.rmSync(path.join(dir, 'skill_7.md'))
    fs.renameSync(path.join(dir, 'skill_8.md'), path.join(dir, 'legacy', 'skill_8.md'))
    const { changed } = await LibrarySearch.open(dir)
    expect(changed).toBe(5) // edited, added, removed, and the retired one counts as gone + added in legacy/
    for (const q of QUERIES) expectSameRanking(await indexAnswer(dir, q, 5), await engineAnswer(dir, q, 5))
    expect((await LibrarySearch.open(dir)).changed).toBe(0)
  })

  it('lists exactly what the store lists (everything but bodies, with unfolded uses, and what does not load)', async () => {
    const lib = await openLibrary(dir)
    await lib.recordUse(['1700000003', '1700000010'])
    for (const legacy of [false, true]) {
      const fromStore = await lib.list({ includeLegacy: legacy })
      const fromIndex = await new LibrarySearch(dir, { ranking: false }).list(legacy)
      expect(fromIndex.skills).toEqual(fromStore.skills.map(listedSkill))
      const key = (e: { path: string; kind?: string }): string => `${e.kind}:${e.path}`
      expect(fromIndex.errors.map(key).sort()).toEqual(fromStore.errors.map(key).sort())
    }
    expect((await new LibrarySearch(dir, { ranking: false }).list(false)).skills.find((s) => s.skill_id === '1700000003')!.fetch_count).toBe((3 % 4) + 1)
    // The app's list rows: what the store's skills make (everything but the body, its start as one line, its length).
    const search = new LibrarySearch(dir, { keep: true, saveDelayMs: 0 })
    for (const legacy of [false, true]) {
      const fromStore = await lib.list({ includeLegacy: legacy })
      const rows = await search.summaries(legacy)
      expect(rows.skills).toEqual(fromStore.skills.map(({ body, ...rest }) => ({ ...rest, preview: skillPreview(body), bodyChars: body.length })))
      expect(rows.skills.some((s) => s.preview.length > 0)).toBe(true)
      const key = (e: { path: string; kind?: string }): string => `${e.kind}:${e.path}`
      expect(rows.errors.map(key).sort()).toEqual(fromStore.errors.map(key).sort())
    }
    // An editor's save is in the next rows at once (every file's stat is checked for a list).
    const f = path.join(dir, 'skill_14.md')
    fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/^title: .*$/m, 'title: Renamed by an editor'))
    expect((await search.summaries(false)).skills.find((s) => s.path === 'skill_14.md')!.title).toBe('Renamed by an editor')
    search.close()
  })

  it('keeps every preview through save, load and a whole rewrite, multi-byte text included (read from the file only when asked)', async () => {
    const zh = makeLibrary(MAX_DELTA_DOCS + 1)
    dirs.push(zh)
    const bodies = ['部署超时：先检查网络，再重试三次。', 'Ünïcödé — 引号「测试」and emoji 🚀 in one line.', '', '第一行\n第二行\n\n第三行 with English']
    bodies.forEach((body, i) => fs.writeFileSync(path.join(zh, `skill_zh_${i}.md`), `---\ntitle: 多字节 ${i}\nskill_id: '180000000${i}'\n---\n${body}\n`))
    const expected = async (): Promise<unknown> => {
      const listed = await (await openLibrary(zh)).list({ includeLegacy: true })
      return listed.skills.map(({ body, ...rest }) => ({ ...rest, preview: skillPreview(body), bodyChars: body.length }))
    }
    const rows = async (): Promise<unknown> => {
      const search = new LibrarySearch(zh, { keep: true, saveDelayMs: 0 })
      try {
        return (await search.summaries(true)).skills
      } finally {
        search.close()
      }
    }
    await LibrarySearch.open(zh) // built and saved
    expect(await rows()).toEqual(await expected()) // previews from the saved file
    // The listing a CLI prints hands the saved previews over undecoded; they decode to the same text.
    const texts = (await new LibrarySearch(zh, { ranking: false }).listing(true)).skills
    expect(texts.some((s) => Buffer.isBuffer(s.preview))).toBe(true)
    expect(texts.map(listedPreview)).toEqual(((await expected()) as { preview: string }[]).map((r) => r.preview))
    // More changes than a delta holds: the whole index is written again, the unchanged skills' previews from the
    // old file's bytes.
    const before = fs.readFileSync(searchIndexFile(zh))
    for (let i = 0; i <= MAX_DELTA_DOCS; i++) fs.appendFileSync(path.join(zh, `skill_${i}.md`), `\nMore text ${i}.\n`)
    await LibrarySearch.open(zh)
    expect(fs.readFileSync(searchIndexFile(zh)).equals(before)).toBe(false)
    expect(fs.existsSync(searchDeltaFile(zh))).toBe(false)
    expect(await rows()).toEqual(await expected())
  })

  it('rebuilds from a damaged, foreign or other-version file, and never reads one through a link', async () => {
    const file = searchIndexFile(dir)
    await LibrarySearch.open(dir)
    const good = fs.readFileSync(file)
    // A few bytes damaged in any section (the scores, the listing texts, the terms): never used, rebuilt, same answers.
    const header = JSON.parse(good.toString('utf8', 16, 16 + good.readUInt32LE(12))) as { sections: Record<string, [number, number]> }
    for (const section of ['postCount', 'json', 'postDoc', 'paths']) {
      const [off, len] = header.sections[section]!
      const bad = Buffer.from(good)
      // Without a delta beside it (a delta's own arrays would stand in for the index's).
      fs.rmSync(searchDeltaFile(dir), { force: true })
      const at = off + Math.floor(len / 2)
      bad[at] = bad[at]! ^ 0x5a
      fs.writeFileSync(file, bad)
      const again = await LibrarySearch.open(dir)
      // Sections a query reads are checked at load (rebuilt at once); the listing texts and terms when first needed.
      if (section !== 'json') expect(again.changed, section).toBeGreaterThan(100)
      for (const q of QUERIES) expectSameRanking(again.index.query(q, 3).map((h) => ({ path: h.path, score: h.score })), await engineAnswer(dir, q, 3))
      const listed = await new LibrarySearch(dir, { ranking: false }).list(false)
      expect(listed.skills).toEqual((await (await openLibrary(dir)).list()).skills.map(listedSkill))
    }
    // Another library's index under this name: not used. (The folder's last character is random: the other name
    // must differ from it, or the file stays this library's — a 1-in-62 failure before.)
    const otherDir = dir.slice(0, -1) + (dir.endsWith('X') ? 'Y' : 'X')
    const foreign = good.toString('latin1').replace(dir, otherDir)
    expect(foreign).not.toBe(good.toString('latin1'))
    fs.writeFileSync(file, foreign, 'latin1')
    expect((await LibrarySearch.open(dir)).changed).toBeGreaterThan(100)
    fs.writeFileSync(file, 'not an index')
    expect((await LibrarySearch.open(dir)).changed).toBeGreaterThan(100)
    // The cache file replaced by a link to some other file: not read through, and replaced (not written through).
    const elsewhere = path.join(tempDir('sb-elsewhere-'), 'keep.idx')
    fs.writeFileSync(elsewhere, good)
    fs.rmSync(file)
    fs.symlinkSync(elsewhere, file)
    expect((await LibrarySearch.open(dir)).changed).toBeGreaterThan(100)
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(false)
    expect(fs.readFileSync(elsewhere).equals(good)).toBe(true)
  })

  it('a listing never reads the ranking arrays; one that must save reads them then, and a damaged one costs only that save', async () => {
    const file = searchIndexFile(dir)
    await LibrarySearch.open(dir)
    fs.rmSync(searchDeltaFile(dir), { force: true })
    const good = fs.readFileSync(file)
    const header = JSON.parse(good.toString('utf8', 16, 16 + good.readUInt32LE(12))) as { sections: Record<string, [number, number]> }
    const [off, len] = header.sections.postDoc!
    const bad = Buffer.from(good)
    const at = off + Math.floor(len / 2)
    bad[at] = bad[at]! ^ 0x5a
    fs.writeFileSync(file, bad)
    const store = async (): Promise<unknown> => (await (await openLibrary(dir)).list()).skills.map(listedSkill)
    // Nothing changed: listed from the saved index as it is (not rebuilt, the damage not even seen).
    expect((await new LibrarySearch(dir, { ranking: false }).list(false)).skills).toEqual(await store())
    expect(fs.readFileSync(file).equals(bad)).toBe(true)
    // A changed skill: listed as it is now; saving needs the ranking, finds it damaged, and leaves the file alone.
    const edited = path.join(dir, fs.readdirSync(dir).filter((f) => /^skill_\d+\.md$/.test(f)).sort()[5]!)
    const original = fs.readFileSync(edited, 'utf8')
    fs.writeFileSync(edited, `${original}\nChecked again.\n`)
    expect((await new LibrarySearch(dir, { ranking: false }).list(false)).skills).toEqual(await store())
    expect(fs.readFileSync(file).equals(bad)).toBe(true)
    // The next query loads the ranking at once, finds the damage and rebuilds: exact answers.
    const again = await LibrarySearch.open(dir)
    expect(again.changed).toBeGreaterThan(100)
    for (const q of QUERIES) expectSameRanking(again.index.query(q, 3).map((h) => ({ path: h.path, score: h.score })), await engineAnswer(dir, q, 3))
    // With an intact file, a listing after a change saves it (reading the ranking then) and a query reads one file.
    fs.writeFileSync(edited, original)
    await new LibrarySearch(dir, { ranking: false }).list(false)
    expect((await LibrarySearch.open(dir)).changed).toBe(0)
  })

  it('in a long-lived process, sees another process\'s write at the next query (ledger) and an editor\'s within the freshness bound', async () => {
    const search = new LibrarySearch(dir, { keep: true, maxAgeMs: 60_000, saveDelayMs: 0 })
    const before = (await search.current()).query('quantum entanglement lab notes', 1)[0]!
    expect(before.score).toBe(0)
    // Another Skillbench process (here: another library object) edits a skill: announced in the ledger.
    const other = await openLibrary(dir)
    await other.update('1700000011', { body: 'Quantum entanglement lab notes: calibrate the laser first.\n' })
    const after = (await search.current()).query('quantum entanglement lab notes', 1)[0]!
    expect(after.skillId).toBe('1700000011')
    expect(after.score).toBeGreaterThan(0.3)
    // An editor writes a file directly (no ledger notice): seen once the full check is due.
    const fast = new LibrarySearch(dir, { keep: true, maxAgeMs: 0, saveDelayMs: 0 })
    await fast.current()
    const f = path.join(dir, 'skill_12.md')
    fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/\n\n[^\n]*\n$/, '\n\nPhotonic crystal waveguide design.\n'))
    expect((await fast.current()).query('photonic crystal waveguide', 1)[0]!.skillId).toBe('1700000012')
    search.close()
    fast.close()
  })

  it('reads the same documents and terms on worker threads as on one thread (a cold build splits the files)', async () => {
    const { candidates } = await walkLibrary(dir)
    const flat = (batches: Awaited<ReturnType<typeof readDocsInParallel>>): { doc: unknown; terms: Record<string, number> }[] =>
      batches.flatMap((b) =>
        b.docs.map((doc, k) => {
          const terms: Record<string, number> = {}
          for (let e = b.ptr[k]!; e < b.ptr[k + 1]!; e++) terms[b.terms[b.ids[e]!]!] = b.counts[e]!
          return { doc, terms }
        })
      )
    const parallel = await readDocsInParallel(candidates, { threads: 3, minFiles: 0 })
    expect(parallel.length).toBe(3)
    expect(parallel.map((b) => b.thread > 0)).toEqual([false, true, true]) // really read by two worker threads
    expect(flat(parallel)).toEqual(flat([readDocs(candidates)]))
    // With the caller's dictionary, this thread's batch holds that dictionary's ids (and terms) directly.
    const dict = new TermDictionary()
    dict.idOf('already-known')
    const own = await readDocsInParallel(candidates, { threads: 3, minFiles: 0, dict })
    expect(own[0]!.terms).toBe(dict.terms)
    expect(own[1]!.terms).not.toBe(dict.terms)
    expect(flat(own)).toEqual(flat(parallel))
  })

  it('pins the tokenizer: if these terms change, bump TOKENIZER_VERSION so saved indexes are rebuilt', () => {
    expect(TOKENIZER_VERSION).toBe(2)
    expect(tokenize('Sorting CSV files with pandas: HTTP2Server retries, utf8 and gpt4o — 写一个计算器，除零保护')).toEqual(
      ['sort', 'csv', 'file', 'panda', 'http', 'http2', 'server', 'retri', 'utf', 'utf8', 'gpt', 'gpt4o', '写', '写一', '计', '个计', '算', '计算', '器', '算器', '除', '零', '除零', '保', '零保', '护', '保护']
    )
  })
})
