import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CurationPlan } from '../../src/shared/types'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { pairsCacheFile } from '../../src/main/curate/pairs-cache'
import { documentKey, encodeTermCache, loadTermCache, saveTermCache, termCacheFile } from '../../src/main/curate/term-cache'
import { similarityParts } from '../../src/main/curate/proposals'
import { docTermsAsync, type TermTable } from '../../src/main/text/doc-terms'
import { loadStems, stemCacheFile } from '../../src/main/curate/stem-cache'
import { buildTfIdfIndexAsync } from '../../src/main/text/tfidf'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { DEPLOY, DEPLOY_NEAR, makeLibrary, POETRY, SORTING, SORTING_COPY, tempDir, type FixtureSkill } from './fixtures'

const ROOT = path.resolve(__dirname, '..', '..')
const NOW = new Date('2026-11-21T12:00:00Z')
// The same template lines in every skill: boilerplate, taken out of the index.
const TEMPLATE = '\n\n## Notes\n\nRecorded by the agent after the task.\nReview before reuse.\n'
const skills: FixtureSkill[] = [
  { id: '1001', title: 'Sorting arrays', body: SORTING + TEMPLATE, quality: 0.6, fetch: 2, created: '2026-11-01T00:00:00' },
  { id: '1002', title: 'Sorting arrays in TS', body: SORTING_COPY + TEMPLATE, quality: 0.4, fetch: 1, created: '2026-11-02T00:00:00' },
  { id: '1003', title: 'Deploy with compose', body: DEPLOY + TEMPLATE, created: '2026-11-01T00:00:00', fetch: 1 },
  { id: '1004', title: 'Compose deployment checklist', body: DEPLOY_NEAR + TEMPLATE, created: '2026-11-01T00:00:00', fetch: 1 },
  { id: '1005', title: 'Haiku', body: POETRY + TEMPLATE, created: '2026-01-01T00:00:00' }
]

/** A plan as JSON without the run's own clock. */
function planJson(plan: CurationPlan): string {
  return JSON.stringify({ ...plan, created_at: undefined })
}

async function curate(dir: string, cacheDir?: string): Promise<CurationPlan> {
  return curateLibrary(await openForCuration(dir), { now: NOW, ...(cacheDir ? { cacheDir } : {}) })
}

/** The pass-1 table and keys of a library's documents, as a run saves them. */
async function savedBytes(dir: string, root: string): Promise<{ bytes: Buffer; keys: string[] }> {
  const opened = await openForCuration(dir)
  const docs = opened.listing!.skills.filter((s) => !s.legacy).map(similarityParts)
  const keys = docs.map(documentKey)
  let bytes: Buffer | undefined
  await docTermsAsync(docs, { boilerplate: {}, onScanned: (t: TermTable) => (bytes = Buffer.concat(encodeTermCache(root, true, keys, t))) })
  return { bytes: bytes!, keys }
}

describe('term cache (the index first pass kept between curate runs)', () => {
  it('a run with the cache gives the same plan as one without, cold and warm; a changed skill is scanned again at the next run', async () => {
    const dir = makeLibrary(skills)
    const cacheDir = tempDir('terms-cache')
    const plain = planJson(await curate(dir))
    expect(planJson(await curate(dir, cacheDir))).toBe(plain)
    const root = fs.realpathSync(dir)
    const file = termCacheFile(cacheDir, root)
    expect(fs.existsSync(file)).toBe(true)
    const mtime = fs.statSync(file).mtimeMs
    // warm: every document found, nothing rewritten
    expect(planJson(await curate(dir, cacheDir))).toBe(plain)
    expect(fs.statSync(file).mtimeMs).toBe(mtime)

    // An editor changes one skill: the next run sees it (its old row is not used) and saves the new terms.
    const edited = path.join(dir, 'skill_1005.md')
    fs.writeFileSync(edited, fs.readFileSync(edited, 'utf8').replace('# Writing haiku', '# Sorting arrays in TypeScript'))
    const fresh = planJson(await curate(dir))
    expect(planJson(await curate(dir, cacheDir))).toBe(fresh)
    expect(fresh).not.toBe(plain)
    const opened = await openForCuration(dir)
    const keys = opened.listing!.skills.filter((s) => !s.legacy).map((s) => documentKey(similarityParts(s)))
    const reuse = loadTermCache(file, root, true, keys)!
    expect([...reuse.rowOf].every((r) => r >= 0)).toBe(true)
  })

  it('reused rows build the same index as a scan of every document (some rows reused, some scanned)', async () => {
    const dir = makeLibrary(skills)
    const root = fs.realpathSync(dir)
    const { bytes, keys } = await savedBytes(dir, root)
    const file = path.join(tempDir('terms-file'), 'x.terms')
    fs.writeFileSync(file, bytes)
    const docs = (await openForCuration(dir)).listing!.skills.filter((s) => !s.legacy).map(similarityParts)
    const reuse = loadTermCache(file, root, true, keys)!
    // every other document as if it had changed
    reuse.rowOf.forEach((_, d) => d % 2 === 1 && (reuse.rowOf[d] = -1))
    const scanned = await buildTfIdfIndexAsync(docs, { boilerplate: {} })
    const mixed = await buildTfIdfIndexAsync(docs, { boilerplate: {}, reuse })
    expect(mixed.vocab).toEqual(scanned.vocab)
    expect([...mixed.rowPtr]).toEqual([...scanned.rowPtr])
    expect([...mixed.colIdx]).toEqual([...scanned.colIdx])
    expect([...mixed.values]).toEqual([...scanned.values])
    expect(scanned.vocab).not.toContain('reus') // the template lines were taken out in both
  })

  it('keeps every value of a table whose arrays need one, two and four bytes per value (counts and line starts past 255 and 65,535)', () => {
    const vocab = Array.from({ length: 300 }, (_, i) => `t${i}`)
    const table: TermTable = {
      vocab,
      docPtr: Uint32Array.from([0, 2, 3]),
      entTerm: Uint32Array.from([0, 299, 7]),
      entCount: Uint32Array.from([1, 70_000, 256]),
      linePtr: Uint32Array.from([0, 1, 3]),
      lineKey: Int32Array.from([-5, 2_000_000_001, 1]),
      lineStart: Uint32Array.from([0, 0, 65_536])
    }
    const keys = ['a'.repeat(32), 'b'.repeat(32)]
    const file = path.join(tempDir('terms-widths'), 'x.terms')
    fs.writeFileSync(file, Buffer.concat(encodeTermCache('/lib', true, keys, table)))
    const back = loadTermCache(file, '/lib', true, [keys[1]!, keys[0]!, 'c'.repeat(32)])!
    expect([...back.rowOf]).toEqual([1, 0, -1])
    expect(back.table.vocab).toEqual(vocab)
    for (const name of ['docPtr', 'entTerm', 'entCount', 'linePtr', 'lineKey', 'lineStart'] as const) expect([...back.table[name]]).toEqual([...table[name]])
    // one byte per term id when the vocabulary fits it
    const small = { ...table, vocab: vocab.slice(0, 256), entTerm: Uint32Array.from([0, 255, 7]) }
    const smaller = Buffer.concat(encodeTermCache('/lib', true, keys, small))
    fs.writeFileSync(file, smaller)
    expect([...loadTermCache(file, '/lib', true, keys)!.table.entTerm]).toEqual([0, 255, 7])
  })

  it('saves the encoded pieces, then gives their memory back; the table they were encoded from is left whole', async () => {
    const table: TermTable = {
      vocab: ['alpha', 'beta', 'gamma'],
      docPtr: Uint32Array.from([0, 2, 3]),
      entTerm: Uint32Array.from([0, 2, 1]),
      entCount: Uint32Array.from([3, 1, 70_000]),
      linePtr: Uint32Array.from([0, 2, 3]),
      lineKey: Int32Array.from([11, -12, 13]),
      lineStart: Uint32Array.from([0, 9, 0])
    }
    const copy = (t: TermTable): number[][] => [t.docPtr, t.entTerm, t.entCount, t.linePtr, t.lineKey, t.lineStart].map((a) => [...a])
    const before = copy(table)
    const keys = ['a'.repeat(32), 'b'.repeat(32)]
    const file = path.join(tempDir('terms-save'), 'x.terms')
    const pieces = encodeTermCache('/lib', true, keys, table)
    // the pieces that are arrays of their own (the copies of the table's arrays, the header): given back after the write
    const own = pieces.filter((p) => p.byteOffset === 0 && p.byteLength === p.buffer.byteLength)
    expect(own.length).toBeGreaterThanOrEqual(6)
    await saveTermCache(file, pieces)
    expect(own.map((p) => p.byteLength)).toEqual(own.map(() => 0))
    expect(copy(table)).toEqual(before)
    const back = loadTermCache(file, '/lib', true, keys)!
    expect(copy(back.table)).toEqual(before)
  })

  it('ignores a torn file, a damaged one, a foreign one, another library\'s and one made without line keys', async () => {
    const dir = makeLibrary(skills)
    const root = fs.realpathSync(dir)
    const { bytes, keys } = await savedBytes(dir, root)
    const file = path.join(tempDir('terms-bad'), 'x.terms')
    const damaged = Buffer.from(bytes)
    // a byte inside the sections (the end may be alignment padding)
    const mid = Math.floor(damaged.length / 2)
    damaged[mid] = (damaged[mid] as number) ^ 0xff
    const cases: Buffer[] = [bytes.subarray(0, bytes.length - 100), damaged, Buffer.from('not a cache file at all, just text\n'), Buffer.alloc(0)]
    for (const bad of cases) {
      fs.writeFileSync(file, bad)
      expect(loadTermCache(file, root, true, keys)).toBeUndefined()
    }
    fs.writeFileSync(file, bytes)
    expect(loadTermCache(file, root, true, keys)).toBeDefined()
    expect(loadTermCache(file, `${root}-other`, true, keys)).toBeUndefined()
    expect(loadTermCache(file, root, false, keys)).toBeUndefined()
    expect(loadTermCache(path.join(path.dirname(file), 'absent.terms'), root, true, keys)).toBeUndefined()
    // and a run over a torn file gives the plan a run without cache gives, and replaces the file with a good one
    const cacheDir = tempDir('terms-torn')
    const real = termCacheFile(cacheDir, root)
    fs.mkdirSync(path.dirname(real), { recursive: true })
    fs.writeFileSync(real, bytes.subarray(0, 200))
    expect(planJson(await curate(dir, cacheDir))).toBe(planJson(await curate(dir)))
    expect(loadTermCache(real, root, true, keys)).toBeDefined()
  })

  it('several curate processes at once on one library and one cache folder: all succeed with the same plan, the cache stays usable', async () => {
    const dir = makeLibrary(skills)
    const cacheDir = tempDir('terms-procs')
    const env = { ...process.env, NODE_OPTIONS: '', SKILLBENCH_CACHE_DIR: cacheDir, SKILLBENCH_CONFIG_DIR: tempDir('terms-config') }
    const runOne = (cache = cacheDir): Promise<{ code: number | null; stdout: string; stderr: string }> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'skillbench.cjs'), 'curate', '--library', dir, '--json', '--no-usage'], { env: { ...env, SKILLBENCH_CACHE_DIR: cache }, cwd: ROOT })
        let stdout = ''
        let stderr = ''
        child.stdout.on('data', (b: Buffer) => (stdout += b.toString()))
        child.stderr.on('data', (b: Buffer) => (stderr += b.toString()))
        child.on('close', (code) => resolve({ code, stdout, stderr }))
      })
    const runs = await Promise.all([runOne(), runOne(), runOne()])
    const clockless = (s: string): string => s.replace(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, 'T')
    for (const r of runs) expect(r.code).toBe(0)
    expect(new Set(runs.map((r) => clockless(r.stdout))).size).toBe(1)
    expect(JSON.parse(runs[0]!.stdout).proposals.length).toBeGreaterThan(0)
    const root = fs.realpathSync(dir)
    const keys = (await openForCuration(dir)).listing!.skills.filter((s) => !s.legacy).map((s) => documentKey(similarityParts(s)))
    const reuse = loadTermCache(termCacheFile(cacheDir, root), root, true, keys)!
    expect([...reuse.rowOf].every((r) => r >= 0)).toBe(true)
    // no temporary file left behind
    expect(fs.readdirSync(path.join(cacheDir, 'curate')).filter((n) => n.endsWith('.tmp'))).toEqual([])
    // The join's pairs the three wrote are whole and match: the next run takes them back (the same plan, the file
    // not written again).
    const pairs = pairsCacheFile(termCacheFile(cacheDir, root))
    const written = fs.statSync(pairs).mtimeMs
    const again = await runOne()
    expect(again.code).toBe(0)
    expect(clockless(again.stdout)).toBe(clockless(runs[0]!.stdout))
    expect(fs.statSync(pairs).mtimeMs).toBe(written)
    // After an edit, three processes at once bring the kept pairs up to date, each writing the file whole: all give
    // the plan a run with an empty cache folder gives, and the file they leave serves the next run.
    fs.appendFileSync(path.join(dir, 'skill_1005.md'), '\nZyxwv qutsr ponml.\n')
    const edited = await Promise.all([runOne(), runOne(), runOne()])
    const fresh = await runOne(tempDir('terms-procs-fresh'))
    // A process that reads the file after another wrote it finds the pairs of these very texts (kept); one whose
    // file was replaced between reading its rows and its pairs joins again. Whichever: the same plan.
    for (const r of edited) {
      expect(r.code).toBe(0)
      expect(clockless(r.stdout)).toBe(clockless(fresh.stdout))
    }
    expect(edited.some((r) => r.stderr.includes('Similar pairs brought up to date'))).toBe(true)
    const next = await runOne()
    expect(next.stderr).toContain('Similar pairs kept from the last run')
    expect(clockless(next.stdout)).toBe(clockless(fresh.stdout))
    expect(fs.readdirSync(path.join(cacheDir, 'curate')).filter((n) => n.endsWith('.tmp'))).toEqual([])
    // the stems file the three wrote at once is whole and usable
    expect(await loadStems(stemCacheFile(cacheDir))).toBeGreaterThan(0)
  }, 60_000)

  it.skipIf(!HAS_REAL_DATA)('real SKILL.md corpus: the same plan cold, warm and after a skill changed', async () => {
    const dir = tempDir('terms-real')
    fs.cpSync(realPath('skills', 'anthropics_skills'), path.join(dir, 'anthropics_skills'), { recursive: true })
    fs.cpSync(realPath('skills', 'composiohq_awesome-claude-skills'), path.join(dir, 'composiohq_awesome-claude-skills'), { recursive: true })
    const cacheDir = tempDir('terms-real-cache')
    const plainPlan = await curate(dir)
    // duplicates across the two corpora: the plan depends on the similarity scores
    expect(plainPlan.proposals.filter((p) => p.kind === 'merge').length).toBeGreaterThan(0)
    const plain = planJson(plainPlan)
    expect(planJson(await curate(dir, cacheDir))).toBe(plain)
    expect(planJson(await curate(dir, cacheDir))).toBe(plain)
    const listing = (await openForCuration(dir)).listing!.skills.filter((s) => !s.legacy)
    const target = path.join(dir, listing[0]!.path)
    fs.chmodSync(target, 0o644)
    fs.appendFileSync(target, '\nA new closing line about retrying flaky network uploads.\n')
    expect(planJson(await curate(dir, cacheDir))).toBe(planJson(await curate(dir)))
  }, 120_000)
})
