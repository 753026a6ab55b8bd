/**
 * The message of a sync commit: what changed in the library, in the words of the journal and the tools
 * ("merge: a + b → a", "edit: a (append)", "rate: a 0.65"), then any change no record explains (a file edited
 * in another program: "edit: a"). Only records that touch a committed file count. Pure.
 */
import { activePathOf, isLegacyPath, SKILL_MD_LEGACY_DIR } from '../../shared/legacy-paths'
import type { FileChange } from '../../shared/types'

export interface JournalLike {
  action: string
  kind: string
  changes: FileChange[]
  undoes?: string
}

export interface ActLike {
  id: string
  title?: string
  what: string
  detail?: string
  rating?: number
}

export interface ChangedPath {
  /** 'A' added, 'M' modified, 'D' removed. */
  status: 'A' | 'M' | 'D'
  path: string
}

export interface MessageInput {
  journal: readonly JournalLike[]
  acts: readonly ActLike[]
  uses: number
  changed: readonly ChangedPath[]
  /** A skill's title by id and by library path (for the words of a message). */
  titleOfId: (id: string) => string | undefined
  titleOfPath: (path: string) => string | undefined
}

const SUBJECT_MAX = 72

function skillDir(p: string): string {
  return p.endsWith('/SKILL.md') ? p.slice(0, -'/SKILL.md'.length) : p
}

/** The item a journal record makes, and the paths it explains. */
function journalItem(r: JournalLike, titleOfPath: (p: string) => string | undefined): { text: string; paths: string[] } {
  const name = (p: string): string => titleOfPath(p) ?? skillDir(activePathOf(p))
  const paths = r.changes.map((c) => c.path)
  if (r.action === 'undo') return { text: `undo: ${r.kind} of ${[...new Set(r.changes.map((c) => name(c.path)))].join(', ')}`, paths }
  const kept = r.changes.filter((c) => c.after !== null && !isLegacyPath(c.path))
  const gone = r.changes.filter((c) => c.before !== null && c.after === null)
  if ((r.kind === 'merge' || r.kind === 'consolidate') && kept.length > 0) {
    const into = name(kept[0]!.path)
    const from = [...new Set([...kept, ...gone].map((c) => name(c.path)))]
    return { text: `${r.kind}: ${from.join(' + ')} → ${into}`, paths }
  }
  const names = [...new Set(r.changes.filter((c) => !isLegacyPath(c.path) || c.before === null).map((c) => name(c.path)))]
  return { text: `${r.kind === 'cleanup' ? 'retire' : r.kind}: ${names.join(', ')}`, paths }
}

/** Each change in words, and the commit message made of them (subject line, blank line, one item a line). */
export function commitMessage(input: MessageInput): { subject: string; items: string[]; message: string } {
  const items: string[] = []
  const explained = new Set<string>()
  const committed = new Set(input.changed.map((c) => c.path))
  for (const r of input.journal) {
    if (r.action === 'unreject') continue // a rejection undone changes no file
    // Records of files outside this commit (a deploy into an agent's folder, its undo) are not the team's news,
    // and their paths are one person's folders.
    if (!r.changes.some((c) => committed.has(c.path))) continue
    const item = journalItem(r, input.titleOfPath)
    items.push(item.text)
    for (const p of item.paths) explained.add(p)
  }
  for (const a of input.acts) {
    const name = a.title ?? input.titleOfId(a.id) ?? a.id
    if (a.what === 'rate') items.push(`rate: ${name} ${a.rating ?? ''}`.trim())
    else items.push(`${a.what}: ${name}${a.detail ? ` (${a.detail})` : ''}`)
  }
  const actTitles = new Set(input.acts.map((a) => a.title ?? input.titleOfId(a.id)).filter((t) => t !== undefined))
  // Retirements seen as a removal plus an addition under legacy/.
  const added = new Set(input.changed.filter((c) => c.status === 'A').map((c) => c.path))
  for (const c of input.changed) {
    if (explained.has(c.path) || (c.path.startsWith('.skillbench/') && !isLegacyPath(c.path))) continue
    const title = input.titleOfPath(c.path)
    if (title !== undefined && actTitles.has(title) && c.status === 'M') continue
    const name = title ?? skillDir(c.path)
    const retiredAt = [`legacy/${c.path}`, `${SKILL_MD_LEGACY_DIR}/${c.path}`].find((p) => added.has(p))
    if (c.status === 'D' && retiredAt) {
      items.push(`retire: ${name}`)
      explained.add(retiredAt)
    } else if (c.status === 'A' && isLegacyPath(c.path)) {
      if (!explained.has(c.path)) items.push(`retire: ${input.titleOfPath(c.path) ?? skillDir(activePathOf(c.path))}`)
    } else items.push(`${c.status === 'A' ? 'add' : c.status === 'D' ? 'remove' : 'edit'}: ${name}`)
    explained.add(c.path)
  }
  if (input.uses > 0) items.push(`use: ${input.uses} use${input.uses === 1 ? '' : 's'} of skills recorded`)
  const unique = [...new Set(items)]
  if (unique.length === 0) unique.push('sync: library files changed')
  let subject = unique[0]!
  for (let i = 1; i < unique.length; i++) {
    const more = unique.length - i
    const next = `${subject}; ${unique[i]}`
    if (next.length > SUBJECT_MAX) {
      subject = `${subject} (+${more} more)`
      break
    }
    subject = next
  }
  if (subject.length > SUBJECT_MAX + 20) subject = `${subject.slice(0, SUBJECT_MAX)}…`
  const message = unique.length > 1 ? `${subject}\n\n${unique.join('\n')}\n` : `${subject}\n`
  return { subject, items: unique, message }
}
