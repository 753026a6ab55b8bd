/**
 * A few changed skills are saved as a delta beside the search index instead of a rewrite of the whole index; the
 * next process loads both. The answers are those of a full rebuild bit for bit; a damaged delta, or one written for
 * an index that has been replaced since, is passed over (those files are read again); too many changes rewrite the
 * whole index; real processes querying at once while files change always answer exactly.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadSearchIndex, saveSearchIndex, searchDeltaFile, searchIndexFile } from '../../src/main/search/open'
import { LibrarySearch } from '../../src/main/search/library-search'
import { listedSkill, MAX_DELTA_DOCS, SearchIndex } from '../../src/main/search/search-index'
import { skillPreview } from '../../src/main/search/skill-text'
import { openLibrary } from '../../src/main/store/library'
import { walkLibrary } from '../../src/main/store/walk'
import { tempDir } from '../store/helpers'
import { engineAnswer, expectSameRanking, makeLibrary, QUERIES, skillText } from './library-fixture'

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'skillbench.cjs')
const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
})

function library(n: number): string {
  const dir = makeLibrary(n)
  dirs.push(dir)
  return dir
}

/** The answer of an index built from nothing (in a cache folder of its own). */
async function fullRebuild(dir: string, text: string, top: number): Promise<{ path: string; score: number }[]> {
  const env = { ...process.env, SKILLBENCH_CACHE_DIR: tempDir('sb-rebuild-cache-') }
  const { index } = await LibrarySearch.open(dir, { env, save: false })
  return index.query(text, top).map((h) => ({ path: h.path, score: h.score }))
}

/** The same ranking as a full rebuild (scores equal to 12 digits: term ids, hence summation order, may differ). */
async function expectAsRebuilt(index: SearchIndex, dir: string, text: string, top: number): Promise<void> {
  expectSameRanking(index.query(text, top).map((h) => ({ path: h.path, score: h.score })), await fullRebuild(dir, text, top))
}

function fileKey(file: string): string {
  const st = fs.statSync(file)
  return `${st.ino}:${st.mtimeMs}:${st.size}`
}

/** Edits in place (new and common words), adds, removes and retires: five documents change. */
function changeFive(dir: string, round: number): void {
  fs.appendFileSync(path.join(dir, 'skill_5.md'), `\nNote ${round}: retry the docker image build, zqxround${round}.\n`)
  fs.writeFileSync(path.join(dir, `skill_new_${round}.md`), skillText(500 + round))
  fs.rmSync(path.join(dir, `skill_${10 + round}.md`))
  fs.renameSync(path.join(dir, `skill_${20 + round}.md`), path.join(dir, 'legacy', `skill_${20 + round}.md`))
}

describe('changes since the saved search index', () => {
  it('a few changed skills are saved as a delta; the next process reads none of them again and ranks as a full rebuild', async () => {
    const dir = library(120)
    await LibrarySearch.open(dir)
    const base = fileKey(searchIndexFile(dir))
    changeFive(dir, 1)
    expect((await LibrarySearch.open(dir)).changed).toBe(5)
    // The whole index was not written again: the changes went to the delta beside it.
    expect(fileKey(searchIndexFile(dir))).toBe(base)
    expect(fs.existsSync(searchDeltaFile(dir))).toBe(true)
    const again = await LibrarySearch.open(dir)
    expect(again.changed).toBe(0)
    for (const q of [...QUERIES, 'zqxround1', 'note retry docker']) {
      for (const top of [1, 5]) {
        await expectAsRebuilt(again.index, dir, q, top)
        expectSameRanking(again.index.query(q, top).map((h) => ({ path: h.path, score: h.score })), await engineAnswer(dir, q, top))
      }
    }
    expect(again.index.query('zqxround1', 1)[0]!.path).toBe('skill_5.md')
    // A second round on top of the first: still one delta, still exact; listings as the store lists.
    changeFive(dir, 2)
    expect((await LibrarySearch.open(dir)).changed).toBe(5)
    expect(fileKey(searchIndexFile(dir))).toBe(base)
    const third = await LibrarySearch.open(dir)
    expect(third.changed).toBe(0)
    for (const q of QUERIES) await expectAsRebuilt(third.index, dir, q, 5)
    const lib = await openLibrary(dir)
    const listed = await lib.list({ includeLegacy: true })
    expect((await new LibrarySearch(dir, { ranking: false }).list(true)).skills).toEqual(listed.skills.map(listedSkill))
    // The app's rows from index + delta: previews of the changed skills come from the delta.
    const search = new LibrarySearch(dir, { keep: true, saveDelayMs: 0 })
    const rows = await search.summaries(true)
    search.close()
    expect(rows.skills).toEqual(listed.skills.map(({ body, ...rest }) => ({ ...rest, preview: skillPreview(body), bodyChars: body.length })))
    expect(rows.skills.find((s) => s.path === 'skill_new_2.md')!.preview.length).toBeGreaterThan(0)
  })

  it('more changes than a delta holds rewrite the whole index, and the delta goes', async () => {
    const dir = library(MAX_DELTA_DOCS + 20)
    await LibrarySearch.open(dir)
    fs.appendFileSync(path.join(dir, 'skill_1.md'), '\nOne more line.\n')
    await LibrarySearch.open(dir)
    const base = fileKey(searchIndexFile(dir))
    expect(fs.existsSync(searchDeltaFile(dir))).toBe(true)
    for (let i = 0; i <= MAX_DELTA_DOCS; i++) fs.appendFileSync(path.join(dir, `skill_${i}.md`), `\nChecked ${i}.\n`)
    expect((await LibrarySearch.open(dir)).changed).toBe(MAX_DELTA_DOCS + 1)
    expect(fileKey(searchIndexFile(dir))).not.toBe(base)
    expect(fs.existsSync(searchDeltaFile(dir))).toBe(false)
    const again = await LibrarySearch.open(dir)
    expect(again.changed).toBe(0)
    for (const q of QUERIES) await expectAsRebuilt(again.index, dir, q, 3)
  })

  it('a damaged delta, or one written for an index replaced since, is passed over: those files are read again, the answers stay exact', async () => {
    const dir = library(120)
    await LibrarySearch.open(dir)
    changeFive(dir, 1)
    await LibrarySearch.open(dir)
    const deltaFile = searchDeltaFile(dir)
    const good = fs.readFileSync(deltaFile)
    const sections = (JSON.parse(good.toString('utf8', 16, 16 + good.readUInt32LE(12))) as { sections: Record<string, [number, number]> }).sections
    const damage = (section: string): void => {
      const bad = Buffer.from(good)
      const at = sections[section]![0] + Math.floor(sections[section]![1] / 2)
      bad[at] = bad[at]! ^ 0x21
      fs.writeFileSync(deltaFile, bad)
    }
    // The changes themselves damaged: not applied, those five files are read again.
    damage('delta')
    const damaged = loadSearchIndex(dir)
    expect(await damaged.sync(await walkLibrary(dir))).toBe(5)
    for (const q of QUERIES) await expectAsRebuilt(damaged, dir, q, 3)
    // Only its ranking arrays damaged: the changes apply, the arrays are rebuilt from the index's and theirs.
    for (const section of ['postCount', 'norm']) {
      damage(section)
      const rebuilt = loadSearchIndex(dir)
      expect(await rebuilt.sync(await walkLibrary(dir))).toBe(0)
      for (const q of QUERIES) await expectAsRebuilt(rebuilt, dir, q, 3)
    }
    // Another process rewrote the whole index meanwhile; the old delta (put back) names the old one: not applied.
    const other = new SearchIndex(dir)
    await other.sync(await walkLibrary(dir))
    fs.rmSync(deltaFile)
    expect(saveSearchIndex(other)).toBe(true)
    fs.writeFileSync(deltaFile, good)
    const replaced = loadSearchIndex(dir)
    expect(await replaced.sync(await walkLibrary(dir))).toBe(0)
    for (const q of QUERIES) await expectAsRebuilt(replaced, dir, q, 3)
    // A delta replaced by a link is never read through.
    fs.rmSync(deltaFile)
    const elsewhere = path.join(tempDir('sb-delta-elsewhere-'), 'x.delta')
    fs.writeFileSync(elsewhere, good)
    fs.symlinkSync(elsewhere, deltaFile)
    expect(loadSearchIndex(dir).size).toBe(replaced.size)
    expect(fs.readFileSync(elsewhere).equals(good)).toBe(true)
  })

  it('real processes querying at once while skills change: every answer is exact, and the saved index stays usable', async () => {
    const dir = library(200)
    const cache = tempDir('sb-delta-procs-cache-')
    const env = { ...process.env, SKILLBENCH_CACHE_DIR: cache, NODE_OPTIONS: '' }
    const query = (text: string): Promise<string> =>
      new Promise((resolve, reject) => {
        const p = spawn(process.execPath, [BIN, 'query', text, '--library', dir, '--json', '--no-touch', '--top', '3'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
        let out = ''
        let err = ''
        p.stdout.on('data', (d: Buffer) => (out += d.toString()))
        p.stderr.on('data', (d: Buffer) => (err += d.toString()))
        p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`query exited ${code}: ${err}`))))
      })
    const text = 'retry http timeout docker'
    for (let round = 1; round <= 4; round++) {
      changeFive(dir, round)
      const expected = (await engineAnswer(dir, text, 3)).map((h) => h.path)
      const answers = await Promise.all([query(text), query(text), query(text), query(text)])
      for (const a of answers) expect((JSON.parse(a) as { skills: { path: string }[] }).skills.map((s) => s.path)).toEqual(expected)
    }
    const settled = await LibrarySearch.open(dir, { env: { ...env } })
    expect(settled.changed).toBeLessThanOrEqual(5 * 4) // at worst the last delta was lost in a race: read again, never wrong
    expect((await LibrarySearch.open(dir, { env: { ...env } })).changed).toBe(0)
    expect(settled.index.query(text, 3).map((h) => h.path)).toEqual((await engineAnswer(dir, text, 3)).map((h) => h.path))
  })
})
