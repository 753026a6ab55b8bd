/**
 * The similarity join's frequent-term cut-off kept between curate runs. Choosing it (frequent-cut.ts:
 * chooseFrequentDf, from 5,000 skills; below, a fixed n/16) samples the corpus and costs ~0.15 s at 20,000 on a
 * command's first call; the cut-off decides only how fast the join is, never which pairs it finds. A library curated again
 * has nearly the same corpus, so the cut-off chosen last time is taken while the corpus keeps its shape (documents
 * and index entries each within 5 %, the same threshold); otherwise it is chosen again and kept.
 * One small file per library in the cache folder, next to its term cache (never in a library).
 */
import { readCacheFile, writeCacheFile } from '../cache-files'

/** What a cut-off was chosen for. */
export interface JoinShape {
  docs: number
  entries: number
  threshold: number
}

interface SavedCut extends JoinShape {
  kind: typeof KIND
  frequentDf: number
}

const KIND = 'skillbench join cut-off 1'
/** How far the corpus may drift (documents, entries) before the cut-off is chosen again. */
const DRIFT = 0.05

/** The cut-off file next to a library's term cache file. */
export function cutCacheFile(termCacheFile: string): string {
  return termCacheFile.replace(/\.terms$/, '') + '.cut.json'
}

function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= DRIFT * Math.max(a, b)
}

/** The kept cut-off for a corpus of this shape, or undefined (none, another shape, an unreadable file). */
export async function loadCut(file: string, shape: JoinShape): Promise<number | undefined> {
  const bytes = await readCacheFile(file)
  if (bytes === null) return undefined
  let saved: Partial<SavedCut>
  try {
    saved = JSON.parse(bytes.toString('utf8')) as Partial<SavedCut>
  } catch {
    return undefined
  }
  if (typeof saved !== 'object' || saved === null) return undefined
  const { frequentDf } = saved
  if (saved.kind !== KIND || typeof frequentDf !== 'number' || !Number.isSafeInteger(frequentDf) || frequentDf < 0) return undefined
  if (saved.threshold !== shape.threshold || typeof saved.docs !== 'number' || typeof saved.entries !== 'number') return undefined
  return near(saved.docs, shape.docs) && near(saved.entries, shape.entries) ? frequentDf : undefined
}

/** Keeps the cut-off a run chose (a file that cannot be written costs only the next run's choosing). */
export async function saveCut(file: string, shape: JoinShape, frequentDf: number): Promise<void> {
  const saved: SavedCut = { kind: KIND, ...shape, frequentDf }
  await writeCacheFile(file, JSON.stringify(saved) + '\n').catch(() => undefined)
}
