/**
 * `skillbench curate`'s progress on stderr, per skill (seed 000: "处理每个skill时显示进度"). A step's headline and
 * result lines are printed as they come. Counted work (reading, comparing, clusters, the cleanup check) is:
 * - at a terminal, one line redrawn in place: `  [####------] 312/860 reading skills · <the skill's title>`
 *   (at most every 50 ms, and always at the end);
 * - elsewhere (a log, a pipe), a line at each tenth of the way and at the end, so a log of 20,000 skills stays
 *   short; each cluster gets its own line (each may wait for a model).
 */
import type { CurationProgress } from '../curate/proposals'
import { say, type CliWords } from './lang'
import { coded } from '../../shared/error-codes'

const BAR_WIDTH = 24
const REDRAW_MS = 50
const TITLE_CHARS = 60

function bar(done: number, total: number): string {
  const filled = total > 0 ? Math.round((done / total) * BAR_WIDTH) : 0
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${total}`
}

function shortTitle(t: string): string {
  const one = t.replace(/\s+/g, ' ').trim()
  return one.length > TITLE_CHARS ? `${one.slice(0, TITLE_CHARS - 1)}…` : one
}

/** A progress listener writing to `write` (stderr). `now` is the clock (tests pass one). Pure apart from `write`. */
export function curateProgressReporter(opts: { isTTY: boolean; write: (text: string) => void; now?: () => number; words?: CliWords }): (p: CurationProgress) => void {
  const now = opts.now ?? Date.now
  /** A line's words in the CLI's language (--lang); the phases are still told apart by their English. */
  const said = (p: CurationProgress): string => say(opts, p)
  let lineShown = false
  let lastDraw = 0
  /** The tenth of each counted phase last printed (non-terminal). */
  const tenths = new Map<string, number>()
  const clearLine = (): void => {
    if (lineShown) opts.write('\r\u001b[2K')
    lineShown = false
  }
  return (p) => {
    if (p.done === undefined || !p.total) {
      clearLine()
      opts.write(`${said(p)}\n`)
      return
    }
    const done = Math.min(p.done, p.total)
    const finished = done === p.total
    const who = p.skill ? ` · ${shortTitle(p.skill)}` : ''
    if (opts.isTTY) {
      if (!finished && lineShown && now() - lastDraw < REDRAW_MS) return
      lastDraw = now()
      opts.write(`\r\u001b[2K  ${bar(done, p.total)} ${said(p)}${who}`)
      lineShown = true
      if (finished) {
        opts.write('\n')
        lineShown = false
      }
      return
    }
    if (p.message === 'consolidating clusters') {
      // the headline before each cluster (done counts the ones before it); the end is the count alone
      if (!finished) opts.write(`  ${say(opts, coded('curate.consolidating_cluster', { index: done + 1, total: p.total }))}${who}\n`)
      return
    }
    const key = `${p.step}:${p.message}`
    const tenth = Math.floor((done * 10) / p.total)
    const last = tenths.get(key) ?? -1
    if (tenth <= last) return
    tenths.set(key, tenth)
    if (tenth === 0) return // nothing worth a line yet
    opts.write(`  ${said(p)} ${done}/${p.total}${finished ? '' : who}\n`)
  }
}
