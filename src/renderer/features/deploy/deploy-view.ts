/** Pure helpers of the Deploy view: target specs typed by the person, and what each action means as a status. */
import type { DeployAction, DeployResult, DeployTargetInfo } from '../../../shared/api-deploy'
import type { MessageKey } from '../../i18n/messages'

export type CustomKind = 'claude-project' | 'agents' | 'folder'
export const CUSTOM_KINDS: readonly CustomKind[] = ['claude-project', 'agents', 'folder']

/** The `--to` value for a custom choice, or null while the folder is not an absolute path. */
export function customSpec(kind: CustomKind, folder: string): string | null {
  const f = folder.trim()
  if (!(f.startsWith('/') || /^[A-Za-z]:[\\/]/.test(f) || f.startsWith('~/'))) return null
  return kind === 'folder' ? f : `${kind}:${f}`
}

export type SkillState = 'inSync' | 'drifted' | 'notDeployed' | 'outdated' | 'retired' | 'left'

/** The per-skill status an action stands for (what is there now, before deploying). */
export function stateOf(action: DeployAction): SkillState {
  switch (action) {
    case 'unchanged':
    case 'adopt':
    case 'forget':
      return 'inSync'
    case 'drifted':
      return 'drifted'
    case 'create':
      return 'notDeployed'
    case 'update':
      return 'outdated'
    case 'remove':
      return 'retired'
    case 'unmanaged':
    case 'refused':
      return 'left'
  }
}

export const STATE_TONE: Record<SkillState, 'ok' | 'warn' | 'bad' | 'info' | 'muted' | 'accent'> = {
  inSync: 'ok',
  drifted: 'warn',
  notDeployed: 'info',
  outdated: 'accent',
  retired: 'muted',
  left: 'muted'
}

/** How many skills are in each state. */
export function stateCounts(result: DeployResult): Record<SkillState, number> {
  const out: Record<SkillState, number> = { inSync: 0, drifted: 0, notDeployed: 0, outdated: 0, retired: 0, left: 0 }
  for (const s of result.skills) out[stateOf(s.action)]++
  return out
}

/** Whether a real run would change anything (files, the manifest, or proposals to queue). */
export function hasWork(result: DeployResult): boolean {
  return result.proposals.some((p) => !p.queued) || result.skills.some((s) => ['create', 'update', 'remove', 'adopt', 'forget'].includes(s.action))
}

/** `+a ~b -c` for a skill's files. */
export function filesSummary(files: DeployResult['skills'][number]['files']): string {
  return files.map((f) => `${f.change === 'remove' ? '−' : f.change === 'write' ? '+' : '~'}${f.path}`).join('  ')
}

/** Longest name shown whole in the Deploy table and lists (the full name is in the tooltip). */
export const SHOWN_NAME_CHARS = 40

/**
 * A deployed name as shown: whole when short, else cut after the last whole hyphen-separated word that fits and
 * ended with '…' ("convert-a-word-document-to-pdf-with-libreoffice-and-…"), never in the middle of a word.
 */
export function shownName(name: string, max = SHOWN_NAME_CHARS): string {
  if (name.length <= max) return name
  const head = name.slice(0, max)
  const at = head.lastIndexOf('-')
  // one long word: cut it, there is no boundary to keep
  return (at > 0 ? head.slice(0, at + 1) : head) + '…'
}

/** A target's name in the UI language: the core's label is English ("Claude Code (personal)"). */
export function targetLabel(t: (key: MessageKey, vars?: Record<string, string | number>) => string, target: Pick<DeployTargetInfo, 'spec' | 'label'>): string {
  switch (target.spec) {
    case 'claude':
    case 'codex':
    case 'gemini':
    case 'opencode':
      return t(`deploy.label.${target.spec}`)
  }
  if (target.spec.startsWith('agents:')) return t('deploy.label.agents', { path: target.spec.slice('agents:'.length) })
  return target.label
}

/** Rows of the Deploy table shown at first, and added by each "Show more" (a big library lists hundreds). */
export const DEPLOY_PAGE = 50

/** How many of `total` rows to show when `asked` were asked for: at least a page, at most all. */
export function shownRows(total: number, asked: number): number {
  return Math.min(total, Math.max(DEPLOY_PAGE, asked))
}

/** What a deploy asked to be confirmed will do to one folder, from its dry run: written new, updated, removed, left alone. */
export interface ConfirmCounts {
  written: number
  updated: number
  removed: number
  /** In sync, drifted (changed there, kept), or not Skillbench's (never touched). */
  leftAlone: number
  /** Changes made there that the run queues for review. */
  offered: number
}

export function confirmCounts(result: DeployResult): ConfirmCounts {
  const c = result.counts
  return { written: c.written, updated: c.updated, removed: c.removed, leftAlone: c.unchanged + c.drifted + c.left, offered: result.proposals.filter((p) => !p.queued).length }
}
