/** A proposal in words a person can follow, in the UI language (pure). */
import { isLegacyPath } from '../../../shared/legacy-paths'
import type { FileChange, Proposal } from '../../../shared/types'
import { isMessageRef } from '../../../shared/error-codes'
import type { Lang, Translate } from '../../i18n/i18n'
import { translateMessage } from '../../i18n/messages-errors'
import { cleanupWatchedReason } from './decision-text'

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const two = (v: number | undefined): string => (v === undefined ? '—' : v.toFixed(2))

/**
 * Each member's name: its title, and where two members share one (the same skill from two downloaded collections),
 * the first folder of its path that tells them apart — "brand-guidelines (anthropics_skills)".
 */
export function memberLabels(members: readonly Pick<Proposal['members'][number], 'skill_id' | 'title' | 'path'>[]): string[] {
  const names = members.map((m) => m.title || m.skill_id)
  return members.map((m, i) => {
    const twins = members.filter((_, j) => j !== i && names[j] === names[i])
    if (twins.length === 0) return names[i]!
    const parts = m.path.split(/[\\/]+/)
    const at = parts.findIndex((part, k) => twins.some((o) => o.path.split(/[\\/]+/)[k] !== part))
    return at < 0 ? names[i]! : `${names[i]} (${parts[at]})`
  })
}

/** The primary (kept) member's name. */
function primaryTitle(p: Proposal): string {
  const id = typeof p.evidence.primary === 'string' ? p.evidence.primary : p.members[0]?.skill_id
  const at = Math.max(0, p.members.findIndex((x) => x.skill_id === id))
  return memberLabels(p.members)[at] ?? ''
}

/** What a proposal is about, for its card, dialog and banner: its skills' names, or a memory proposal's files. */
export function proposalTitle(p: Pick<Proposal, 'kind' | 'members' | 'changes'>): string {
  if (p.kind === 'memory') return p.changes.map((c) => c.path).join(', ')
  return memberLabels(p.members).join(' + ')
}

/**
 * Why this change is proposed, in plain language (`lang` is `t`'s: a reason the core sent by code is worded from
 * the shared table); a model's own reason is kept as it wrote it.
 */
export function proposalReason(t: Translate, p: Proposal, lang: Lang): { text: string; quote?: string } {
  const e = p.evidence
  const why = e.primary_why === 'quality' || e.primary_why === 'used' || e.primary_why === 'oldest' ? t(`reason.why.${e.primary_why}`) : t('reason.why.quality')
  switch (p.kind) {
    case 'merge':
      if (commonText(t, p)) return { text: t('reason.mergeSame', { n: p.members.length, common: commonText(t, p)!, similarity: two(num(e.similarity)), title: primaryTitle(p), why }) }
      return { text: t('reason.merge', { n: p.members.length, similarity: two(num(e.similarity)), title: primaryTitle(p), why }) }
    case 'consolidate':
      if (typeof e.model_reason === 'string') return { text: t('reason.consolidateModel', { n: p.members.length, similarity: two(num(e.similarity)), title: primaryTitle(p) }), quote: e.model_reason }
      if (commonText(t, p)) return { text: t('reason.consolidateSame', { n: p.members.length, common: commonText(t, p)!, similarity: two(num(e.similarity)), title: primaryTitle(p) }) }
      return { text: t('reason.consolidate', { n: p.members.length, similarity: two(num(e.similarity)), title: primaryTitle(p) }) }
    case 'cleanup': {
      // since issue 36 a cleanup says which sources watched which days
      const watched = cleanupWatchedReason(t, p)
      if (watched) return { text: watched }
      return { text: t(e.usage_checked === true ? 'reason.cleanupChecked' : 'reason.cleanup', { days: num(e.age_days) ?? '?', limit: num(e.cleanup_days) ?? 30 }) }
    }
    case 'review': {
      const n = num(e.tasks) ?? 0
      const bad = num(e.went_wrong) ?? 0
      const b = e.baseline as { tasks?: number; failed?: number; corrected?: number } | undefined
      const baseBad = (b?.failed ?? 0) + (b?.corrected ?? 0)
      const base = `${baseBad}/${b?.tasks ?? 0} (${b?.tasks ? Math.round((100 * baseBad) / b.tasks) : 0}%)`
      return { text: t('reason.review', { bad, n, pct: `${n ? Math.round((100 * bad) / n) : 0}%`, base }) }
    }
    case 'enhance':
      // a skill written while its task was unfinished, replaced by the finished task (issue 36)
      if (e.finished === true) return { text: t('reason.finished', { task: typeof e.task === 'string' ? e.task : '', title: primaryTitle(p) }) }
      // the task was reflected again (reflect --force, "Reflect again"): the skill made from it takes the new reflection
      if (e.again === true) return { text: t('reason.again', { task: typeof e.task === 'string' ? e.task : '', title: primaryTitle(p) }) }
      return { text: t('reason.enhance', { task: typeof e.task === 'string' ? e.task : '', title: primaryTitle(p) }), quote: p.reason || undefined }
    case 'edit':
      // the request as the core recorded it: by its code (review.agent_edit) in the UI language, else as written
      return { text: t('reason.agentEdit', { title: primaryTitle(p) }), quote: codedReason(p, lang)?.text ?? (p.reason || undefined) }
    case 'delete':
      return { text: t('reason.agentDelete', { title: primaryTitle(p) }), quote: codedReason(p, lang)?.text ?? (p.reason || undefined) }
    case 'update':
      if (p.evidence.sync === true) return syncReason(t, p, lang)
      return codedUpdateReason(p, lang) ?? sourceReason(t, p)
    case 'learned':
      return codedReason(p, lang) ?? sourceReason(t, p)
    case 'memory':
      return memoryReason(t, p, lang)
  }
}

/**
 * Why a memory proposal is there (seed 003): what found it, in how many tasks, and which file it adds to. Since
 * 10a49ab the proposal carries its own reason by code (memory.reason_*: the invented tool's name, the agent's
 * client, the tool statistics), worded here in the UI language with the file it goes to; an older plan's proposal
 * is worded from its evidence.
 */
function memoryReason(t: Translate, p: Proposal, lang: Lang): { text: string; quote?: string } {
  const m = (p.evidence.memory ?? {}) as { source?: unknown; target?: unknown; workspace?: unknown; entries?: unknown }
  const source = ['hallucinated_tool', 'critic', 'tool_stats', 'preference', 'agent'].includes(String(m.source)) ? String(m.source) : 'agent'
  const tasks = Array.isArray(p.evidence.tasks) ? p.evidence.tasks.length : (num(p.evidence.task_count) ?? 0)
  const file = `memory/${typeof m.target === 'string' ? m.target : 'lessons'}.md`
  // Chinese sentences follow each other without a space; English ones after one
  const gap = lang === 'zh' ? '' : ' '
  const where = typeof m.workspace === 'string' ? `${gap}${t('memory.workspaceOf', { path: m.workspace })}` : ''
  // the entries themselves, in the language they were written in (the English reason repeats the text above)
  const entries = Array.isArray(m.entries) ? m.entries.filter((e): e is string => typeof e === 'string') : []
  const quote = entries.join('\n') || undefined
  const coded = codedReason(p, lang)
  if (coded) {
    // the tool statistics end on their list: closed as a sentence before the next one
    const said = /[.!?。！？]$/.test(coded.text) ? coded.text : `${coded.text}${lang === 'zh' ? '。' : '.'}`
    return { text: `${said}${gap}${memoryWritten(t, p, source, file)}${where}`, quote }
  }
  // an older plan's preference said where accepting writes it in its own sentence: said by the proposal's state too
  if (source === 'preference') return { text: `${t('reason.memory.preferenceSaid', { n: tasks })}${gap}${memoryWritten(t, p, source, file)}${where}`, quote }
  return { text: t(`reason.memory.${source as 'agent'}`, { n: tasks, file }) + where, quote }
}

/**
 * Where a memory proposal's entry goes, by its state: accepting writes it (pending, or undone and reviewable again),
 * it was written (applied), or nothing was (rejected). A preference also goes to long-term memory.
 */
function memoryWritten(t: Translate, p: Proposal, source: string, file: string): string {
  const pref = source === 'preference'
  if (p.status === 'applied') return t(pref ? 'reason.memory.addedPreference' : 'reason.memory.added', { file })
  if (p.status === 'rejected') return t('reason.memory.notAdded', { file })
  return t(pref ? 'reason.memory.addsPreference' : 'reason.memory.adds', { file })
}

/**
 * What a merge's or consolidation's skills have in common (plans since the content judge: evidence `subject`,
 * `subject_words`, `shared_words`), or null for older plans.
 */
function commonText(t: Translate, p: Proposal): string | null {
  const e = p.evidence
  if (typeof e.subject !== 'string') return null
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((w): w is string => typeof w === 'string') : [])
  const subjectWords = strings(e.subject_words)
  const sep = t('reason.common.sep')
  const subject = e.subject !== '' ? `“${e.subject}”` : subjectWords.slice(0, 5).join(sep)
  // the words of the subject are said already
  const said = subject.toLowerCase()
  const words = sharedWords(p).filter((w) => !said.includes(w.toLowerCase())).slice(0, 5).join(sep)
  if (subject && words) return t('reason.common.subjectWords', { subject, words })
  if (subject) return t('reason.common.subject', { subject })
  return words ? t('reason.common.words', { words }) : null
}

/**
 * Why a sync conflict is there: whose change is live, whose waits here (git authors, named without their address:
 * it stays in the evidence). By its code (sync.reason_*) when the core sent one, else from the evidence.
 */
function syncReason(t: Translate, p: Proposal, lang: Lang): { text: string } {
  if (isMessageRef(p)) {
    const params = { ...p.params, local_author: authorName(p.params.local_author), remote_author: authorName(p.params.remote_author) }
    return { text: translateMessage({ messageCode: p.messageCode, params }, p.reason, lang) }
  }
  const e = p.evidence
  const conflicts = num(e.conflicts) ?? 0
  const both = conflicts > 0 ? ` ${t('reason.bothChanged', { n: conflicts })}` : ''
  const vars = { title: primaryTitle(p), remote: String(e.remote ?? ''), localAuthor: authorName(e.local_author), remoteAuthor: authorName(e.remote_author) }
  const key = e.case === 'removed_remote' ? 'reason.syncRemovedRemote' : e.case === 'removed_local' ? 'reason.syncRemovedLocal' : 'reason.sync'
  return { text: t(key, vars) + both }
}

/** "Name <email>" → "Name" (the address stays in the evidence). */
function authorName(v: unknown): string {
  const s = typeof v === 'string' ? v : ''
  return s.replace(/\s*<[^>]*>\s*$/, '') || s
}

/**
 * An update's reason by the code it carries (update.reason*), in the UI language; null for a plan an older build
 * wrote (its evidence is worded by sourceReason). The high-risk lead is left out: the card's High risk badge and
 * the dialog's audit block say it, with the findings.
 */
function codedUpdateReason(p: Proposal, lang: Lang): { text: string } | null {
  if (!isMessageRef(p)) return null
  const risky = p.messageCode === 'update.reason_high_risk' ? p.params.reason : undefined
  return { text: isMessageRef(risky) ? translateMessage(risky, p.reason, lang) : translateMessage(p, p.reason, lang) }
}

/** A reason the core sent by code (deploy.learned_reason*…), in the UI language; null for a plan an older build wrote. */
function codedReason(p: Proposal, lang: Lang): { text: string } | null {
  return isMessageRef(p) ? { text: translateMessage(p, p.reason, lang) } : null
}

/** Why an `update` (upstream changed, plans of older builds) or `learned` (a deployed copy changed) proposal is there. */
function sourceReason(t: Translate, p: Proposal): { text: string } {
  const e = p.evidence
  const conflicts = num(e.conflicts) ?? 0
  const both = conflicts > 0 ? ` ${t('reason.bothChanged', { n: conflicts })}` : ''
  if (p.kind === 'learned') return { text: t('reason.learned', { title: primaryTitle(p), target: typeof e.spec === 'string' ? e.spec : '' }) + both }
  const vars = { repo: typeof e.repo === 'string' ? e.repo : '', title: primaryTitle(p), from: String(e.from ?? '').slice(0, 12), to: String(e.to ?? '').slice(0, 12) }
  return { text: t(e.local_edit === true ? 'reason.updateLocal' : 'reason.update', vars) + both }
}

/** The words both skills use (surface words; older plans have only stems). */
export function sharedWords(p: Proposal): string[] {
  const words = p.evidence.shared_words
  if (Array.isArray(words) && words.every((w) => typeof w === 'string')) return words as string[]
  return Array.isArray(p.evidence.shared_terms) ? p.evidence.shared_terms : []
}

export interface FileMove {
  from: string
  to: string
  text: string
}

/**
 * A proposal's file changes as a person sees them: files rewritten or created, and files moving to legacy/
 * (a removal paired with the legacy copy it becomes) rather than a whole file in red and another in green.
 */
export function groupChanges(changes: readonly FileChange[]): { edits: FileChange[]; moves: FileMove[] } {
  const edits: FileChange[] = []
  const moves: FileMove[] = []
  const used = new Set<number>()
  changes.forEach((c, i) => {
    if (used.has(i)) return
    if (c.before !== null && c.after === null) {
      const j = changes.findIndex((d, k) => !used.has(k) && k !== i && d.before === null && d.after !== null && isLegacyPath(d.path))
      if (j !== -1) {
        used.add(i).add(j)
        moves.push({ from: c.path, to: changes[j]!.path, text: c.before })
        return
      }
    }
    edits.push(c)
    used.add(i)
  })
  return { edits, moves }
}
