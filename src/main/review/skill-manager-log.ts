/**
 * `logs/skill_manager_YYYYMMDD.log`: what curation merged, consolidated and cleaned, in upstream skill_manager.py's
 * log file and line shape (`%(asctime)s - %(levelname)s - %(message)s`). Accepting (or undoing) a proposal writes it;
 * a SKILL.md library keeps it under `.skillbench/logs/`, as reflection keeps its log, so the skill folders stay clean.
 */
import fs from 'node:fs'
import type { Proposal } from '../../shared/types'
import { appendContained, ensureDirInside } from '../store/contained'
import { logDay, logLine } from '../store/log-lines'
import type { JournalRecord } from './journal'

type Level = 'INFO' | 'ERROR'

/** The logs folder for a library: AGIAgent keeps `logs/` beside its skills; a SKILL.md library keeps it out of the skills. */
export async function skillManagerLogDir(root: string, paths: readonly string[]): Promise<string> {
  const names = paths.map((p) => p.split('/').pop() ?? '')
  if (names.includes('SKILL.md')) return '.skillbench/logs'
  const agi = (n: string): boolean => n.startsWith('skill_') && n.endsWith('.md')
  if (names.some(agi)) return 'logs'
  const top = await fs.promises.readdir(root).catch(() => [] as string[])
  return top.some(agi) ? 'logs' : '.skillbench/logs'
}

const ids = (p: Proposal | undefined, record: JournalRecord): string => (p?.members.map((m) => m.skill_id).join(', ') || record.changes.map((c) => c.path).join(', '))

/** The lines an applied record gets (pure): one INFO line saying what changed and who accepted it. */
export function appliedMessage(record: JournalRecord, proposal: Proposal | undefined): string {
  const members = proposal?.members ?? []
  const kept = record.changes.find((c) => c.before !== null && c.after !== null)
  const created = record.changes.filter((c) => c.before === null && c.after !== null).map((c) => c.path)
  const retired = record.changes.filter((c) => c.before !== null && c.after === null).map((c) => c.path)
  const tail = `(proposal ${record.proposal_id}, accepted by ${record.by})`
  switch (record.kind) {
    case 'merge': {
      const main = members.find((m) => m.path === kept?.path)
      const others = members.filter((m) => m !== main).map((m) => m.skill_id)
      return `Merged ${members.length} similar skills into ${main ? `${main.skill_id} (${main.title})` : (kept?.path ?? '?')}: ${others.join(', ')} moved to legacy/ ${tail}`
    }
    case 'consolidate':
      return `Integrated skill cluster ${ids(proposal, record)} into new skill ${created.join(', ') || '?'}; ${retired.length} members moved to legacy/ ${tail}`
    case 'cleanup':
      return `Cleaned unused skill ${members.map((m) => `${m.skill_id} (${m.title})`).join(', ') || retired.join(', ')}: moved to legacy/ ${tail}`
    default:
      return `Applied ${record.kind} proposal to ${ids(proposal, record)} ${tail}`
  }
}

export function undoneMessage(undo: JournalRecord, proposal: Proposal | undefined): string {
  return `Undid ${undo.kind} of ${ids(proposal, undo)}: files restored as they were before (proposal ${undo.proposal_id}, record ${undo.undoes ?? '?'}, by ${undo.by})`
}

/**
 * Appends lines to the day's log, contained in the library (a link out is refused). Called under the library lock.
 * The change has already committed: a log that cannot be written is reported in this process's log, never thrown.
 */
export async function appendSkillManagerLog(root: string, paths: readonly string[], lines: readonly { level: Level; message: string }[], now: Date = new Date()): Promise<void> {
  let rel = ''
  try {
    const dir = await skillManagerLogDir(root, paths)
    rel = `${dir}/skill_manager_${logDay(now)}.log`
    await ensureDirInside(root, dir)
    await appendContained(root, rel, lines.map((l) => logLine(now, l.level, l.message)).join(''))
  } catch (err) {
    console.warn(`skillbench: the curation log ${rel || 'skill_manager log'} in ${root} could not be written: ${(err as Error).message}`)
  }
}
