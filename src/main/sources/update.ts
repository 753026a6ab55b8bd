/**
 * `skillbench update`: for every skill installed from a source, fetch the source and, when the skill's files
 * changed upstream, put a reviewable `update` proposal (exact before/after of every file) into the review queue.
 * Nothing in the library changes until it is accepted. A skill also edited in the library is merged three ways
 * (the installed upstream version is the base): the person's edits are kept, and a region both changed is kept
 * twice between conflict markers, never dropped.
 */
import { SKILL_MD_LEGACY_DIR } from '../../shared/legacy-paths'
import path from 'node:path'
import type { FileChange, Proposal, Skill } from '../../shared/types'
import { withLibraryLock } from '../store/lock'
import { loadPlanOrEmpty, savePlan } from '../review/plan'
import type { AuditFinding } from '../audit/types'
import { addedHigh, auditIncoming, highOf, riskRecord } from '../audit/gate'
import { readContained } from '../store/contained'
import { openLibrary, type SkillLibrary } from '../store/library'
import { decodeSkillBytes, parseSkillText, rewriteSkillFile, type FrontMatterChange } from '../store/skill-file'
import { listResources } from '../store/skill-index'
import { changeSkillsLock, filesHash, readSkillsLock, type LockEntry, type LockRisk, type SkillsLock, type UpdateLockEvidence } from '../store/skills-lock'
import { gitLimits, SourceError, type GitLimits } from './git'
import { provenanceOf, SOURCE_KEY_PATH, type SkillSource } from './provenance'
import { ensureCommit, fetchCommit, listTree, readBlobs, type FetchedCommit } from './repo-cache'
import { findRepoSkills, LINK_MODE } from './repo-skills'
import { parseSource, type SourceSpec } from './source-spec'
import { keepBoth, mergeFrontMatter, mergeText, sameContent } from './three-way'
import { coded, codedLine, codedList, refOf, type CodedLine, type CodedText, type MessageRef } from '../../shared/error-codes'
import { codedReason } from '../../shared/coded-reason'
import { codedFieldsOf } from '../../shared/api-error'

export interface UpdateOptions extends GitLimits {
  library: string
  cwd: string
  env?: NodeJS.ProcessEnv
  signal?: AbortSignal
  /** Told what is happening, by code (the CLI prints `message`). */
  onProgress?: (line: CodedLine) => void
}

export interface UpdateReport {
  /** Installed skills looked at. */
  checked: number
  proposals: { id: string; name: string; path: string; from: string; to: string; local_edit: boolean; conflicts: number; status: 'added' | 'exists' }[]
  /** `note` says why nothing is proposed although upstream moved; `messageCode` + `params`: that note by code. */
  unchanged: ({ name: string; path: string; commit: string; note?: string } & Partial<MessageRef>)[]
  /** `reason` in English as always, `messageCode` + `params` beside it when the failure carried a code. */
  failed: ({ name: string; path: string; reason: string } & Partial<MessageRef>)[]
}

/** A skill that could not be checked: the error's English as the reason, its code beside it when it has one. */
function failedOf(skill: Skill, err: unknown): UpdateReport['failed'][number] {
  const reason = err instanceof Error ? err.message : String(err)
  return { name: skill.title, path: skill.path, reason, ...(codedFieldsOf(err) ?? {}) }
}

interface Installed {
  skill: Skill
  text: string
  source: SkillSource
}

/** Text of bytes when they are UTF-8 without NUL (a file a proposal can carry), else null. */
function textOf(bytes: Buffer | null | undefined): string | null {
  if (!bytes) return null
  if (bytes.includes(0)) return null
  const d = decodeSkillBytes(bytes)
  return d.ok ? d.text : null
}

/** Files of the skill's folder in the library (SKILL.md excluded), rel → bytes. */
async function libraryFiles(library: SkillLibrary, skillPath: string): Promise<Map<string, Buffer>> {
  const dir = path.posix.dirname(skillPath)
  const out = new Map<string, Buffer>()
  for (const rel of await listResources(path.join(library.root, ...dir.split('/')))) {
    const bytes = await readContained(library.root, `${dir}/${rel}`).catch(() => null)
    if (bytes) out.set(rel, bytes)
  }
  return out
}

/** Upstream files of the skill at a commit: SKILL.md bytes and the others, rel → bytes; null when the folder is gone. */
async function upstreamFiles(fetched: { repoDir: string }, commit: string, repoPath: string, opts: GitLimits & { env?: NodeJS.ProcessEnv }): Promise<{ skillMd: Buffer; files: Map<string, Buffer>; oids: Map<string, string>; hash: string } | null> {
  const entries = await listTree(fetched.repoDir, commit, repoPath, opts)
  const links = entries.filter((e) => e.mode === LINK_MODE)
  const linkBlobs = await readBlobs(fetched.repoDir, links.map((e) => e.oid), opts)
  const skills = findRepoSkills(entries, repoPath, new Map([...linkBlobs].map(([k, v]) => [k, v.toString('utf8')])))
  const skill = skills.find((s) => s.dir === repoPath)
  if (!skill || !skill.skillMd.oid) return null
  const blobs = await readBlobs(fetched.repoDir, [skill.skillMd.oid, ...skill.files.map((f) => f.oid)], opts)
  const files = new Map<string, Buffer>()
  const oids = new Map<string, string>([['SKILL.md', skill.skillMd.oid]])
  for (const f of skill.files) {
    files.set(f.rel, blobs.get(f.oid) ?? Buffer.alloc(0))
    oids.set(f.rel, f.oid)
  }
  const skillMd = blobs.get(skill.skillMd.oid) ?? Buffer.alloc(0)
  const hash = filesHash([{ rel: 'SKILL.md', bytes: skillMd, executable: skill.skillMd.executable }, ...skill.files.map((f) => ({ rel: f.rel, bytes: files.get(f.rel)!, executable: f.executable }))])
  return { skillMd, files, oids, hash }
}

/** Checks every installed skill of the library against its source and queues `update` proposals. */
export async function updateFromSources(opts: UpdateOptions): Promise<UpdateReport> {
  const library = await openLibrary(opts.library)
  const report: UpdateReport = { checked: 0, proposals: [], unchanged: [], failed: [] }
  const installed: Installed[] = []
  for (const skill of (await library.list()).skills) {
    if (skill.format !== 'skill-md') continue
    const text = (await library.readRaw(skill.path)).text
    const parsed = parseSkillText(text)
    const source = parsed.ok ? provenanceOf(parsed.file.data) : null
    if (source) installed.push({ skill, text, source })
  }
  report.checked = installed.length
  const lock = await readSkillsLock(library.root).catch(() => null)
  const limits = gitLimits(opts, opts.env)
  const fetchOpts = { ...limits, env: opts.env, signal: opts.signal }
  const groups = new Map<string, Installed[]>()
  for (const i of installed) groups.set(`${i.source.repo}\u0000${i.source.ref}`, [...(groups.get(`${i.source.repo}\u0000${i.source.ref}`) ?? []), i])
  const proposals: Proposal[] = []
  for (const members of groups.values()) {
    const { repo, ref } = members[0]!.source
    let spec: SourceSpec
    let fetched: FetchedCommit
    try {
      spec = parseSource(repo, opts.cwd)
      opts.onProgress?.(codedLine('install.fetching_at', { source: repo, ref }))
      fetched = await fetchCommit(spec, ref === 'HEAD' ? undefined : ref, fetchOpts)
    } catch (err) {
      for (const m of members) report.failed.push(failedOf(m.skill, err))
      continue
    }
    for (const m of members) {
      try {
        if (m.source.commit === fetched.commit) {
          report.unchanged.push({ name: m.skill.title, path: m.skill.path, commit: fetched.commit })
          await repairLockEntry(library.root, m, fetched, fetchOpts, lock)
          continue
        }
        const proposal = await proposeUpdate(library, m, spec, fetched, fetchOpts, lock)
        if ('note' in proposal) report.unchanged.push({ name: m.skill.title, path: m.skill.path, commit: fetched.commit, note: proposal.note.text, ...refOf(proposal.note) })
        else proposals.push(proposal.proposal)
      } catch (err) {
        report.failed.push(failedOf(m.skill, err))
      }
    }
  }
  if (proposals.length > 0) {
    const status = await queueProposals(library.root, proposals)
    for (const p of proposals) {
      const e = p.evidence
      report.proposals.push({ id: p.id, name: p.members[0]!.title, path: p.members[0]!.path, from: String(e.from), to: String(e.to), local_edit: e.local_edit === true, conflicts: Number(e.conflicts) || 0, status: status.get(p.id) ?? 'added' })
    }
  }
  return report
}

/** The update proposal of one skill, or a note saying why there is none. */
async function proposeUpdate(library: SkillLibrary, m: Installed, spec: SourceSpec, fetched: FetchedCommit, opts: GitLimits & { env?: NodeJS.ProcessEnv }, lock: SkillsLock | null): Promise<{ proposal: Proposal } | { note: CodedText }> {
  const next: SkillSource = { ...m.source, commit: fetched.commit, ref: m.source.ref }
  delete next.risk // an allowance was for the old version's findings; the new one gets its own below
  const upstream = await upstreamFiles(fetched, fetched.commit, m.source.path, opts)
  if (!upstream) throw new SourceError('not_found', coded('source.gone_upstream', { path: m.source.path || coded('source.the_skill'), repo: spec.display, ref: m.source.ref, commit: fetched.commit.slice(0, 12) }))
  const hasBase = await ensureCommit(spec, fetched.repoDir, m.source.commit, opts)
  const base = hasBase ? await upstreamFiles(fetched, m.source.commit, m.source.path, opts) : null
  if (base && [...new Set([...base.oids.keys(), ...upstream.oids.keys()])].every((rel) => base.oids.get(rel) === upstream.oids.get(rel))) {
    return { note: coded('update.moved_unchanged', { commit: fetched.commit.slice(0, 12) }) }
  }
  const labels = { ours: 'library (your version)', theirs: `upstream ${fetched.commit.slice(0, 12)}` }
  const dir = path.posix.dirname(m.skill.path)
  const changes: FileChange[] = []
  let conflicts = 0
  // what the proposal cannot carry or chose for the person, by code (evidence.notes keeps their English)
  const notes: CodedText[] = []

  // SKILL.md
  const u1Text = textOf(upstream.skillMd)
  const u1 = u1Text === null ? null : parseSkillText(u1Text)
  if (!u1 || !u1.ok) throw new SourceError('invalid', coded('source.upstream_unparsable', { commit: fetched.commit.slice(0, 12) }))
  const local = parseSkillText(m.text)
  if (!local.ok) throw new SourceError('invalid', coded('source.local_unparsable', { path: m.skill.path }))
  const u0Text = base ? textOf(base.skillMd) : null
  const u0 = u0Text === null ? null : parseSkillText(u0Text)
  const baseOk = u0 !== null && u0.ok
  const localEdited = !baseOk || !(sameContent(local.file.data, u0.file.data) && local.file.body === u0.file.body)
  let after: string
  if (baseOk && !localEdited) {
    // Not edited here: take upstream's file as it is, with our bookkeeping (id, counters) and the new provenance.
    after = rewriteSkillFile(u1.file, [...bookkeepingOf(local.file.data), { path: [...SOURCE_KEY_PATH], value: { ...next } }])
  } else {
    const body = baseOk ? mergeText(u0.file.body, local.file.body, u1.file.body, labels) : keepBoth(local.file.body, u1.file.body, labels)
    const fm = baseOk ? mergeFrontMatter(u0.file.data, local.file.data, u1.file.data) : { changes: [] as FrontMatterChange[], conflicts: [] as string[] }
    conflicts += body.conflicts + fm.conflicts.length
    if (fm.conflicts.length > 0) notes.push(coded('update.note_front_matter', { keys: fm.conflicts.join(', ') }))
    if (!baseOk) notes.push(coded('update.note_no_base'))
    after = rewriteSkillFile(local.file, [...fm.changes, { path: [...SOURCE_KEY_PATH], value: { ...next } }], body.text)
  }
  if (after !== m.text) changes.push({ path: m.skill.path, before: m.text, after })

  // The other files of the folder
  const mine = await libraryFiles(library, m.skill.path)
  for (const rel of [...new Set([...upstream.files.keys(), ...(base?.files.keys() ?? []), ...mine.keys()])].sort()) {
    const b0 = base?.files.get(rel) ?? null
    const b1 = upstream.files.get(rel) ?? null
    const cur = mine.get(rel) ?? null
    if (base && (base.oids.get(rel) ?? null) === (upstream.oids.get(rel) ?? null)) continue // not changed upstream
    if (!base && b1 === null) continue // cannot tell whether upstream removed it: keep ours
    if (eq(cur, b1)) continue
    const where = `${dir}/${rel}`
    const curText = cur === null ? null : textOf(cur)
    const b1Text = b1 === null ? null : textOf(b1)
    if ((cur !== null && curText === null) || (b1 !== null && b1Text === null)) {
      notes.push(coded('update.note_binary', { file: rel }))
      continue
    }
    const untouched = base ? eq(cur, b0) : cur === null
    if (untouched) {
      if (b1Text === null) changes.push({ path: where, before: curText, after: null }, { path: `${SKILL_MD_LEGACY_DIR}/${where}`, before: null, after: curText })
      else changes.push({ path: where, before: curText, after: b1Text })
      continue
    }
    // changed here and upstream
    if (b1Text === null || curText === null) {
      notes.push(coded(b1Text === null ? 'update.note_removed_upstream' : 'update.note_removed_here', { file: rel }))
      continue
    }
    const b0Text = b0 === null ? null : textOf(b0)
    const merged = b0Text !== null ? mergeText(b0Text, curText, b1Text, labels) : keepBoth(curText, b1Text, labels)
    conflicts += merged.conflicts
    if (merged.text !== curText) changes.push({ path: where, before: curText, after: merged.text })
  }
  if (changes.length === 0) return { note: notes.length > 0 ? codedList(notes) : coded('update.already_in_library') }
  const from = m.source.commit.slice(0, 12)
  const to = fetched.commit.slice(0, 12)
  const risk = auditUpdate(m, u1Text!, upstream.files, base ? { text: u0Text ?? '', files: base.files } : null)
  if (risk.risk) {
    // The provenance of the accepted version: the high findings it brings, allowed by accepting this proposal.
    const skillChange = changes.find((c) => c.path === m.skill.path)
    const source: SkillSource = { ...next, ...(risk.risk ? { risk: riskRecord(risk.findings, `the reviewer who accepted update-${m.skill.skill_id}-${to}`) } : {}) }
    if (skillChange?.after) {
      const parsed = parseSkillText(skillChange.after)
      if (parsed.ok) skillChange.after = rewriteSkillFile(parsed.file, [{ path: [...SOURCE_KEY_PATH], value: source }])
    }
  }
  // why, in English as before (`reason`) and by code beside it (a screen words it in its own language)
  const what = { repo: spec.display, title: m.skill.title, from, to }
  const told = !localEdited ? coded('update.reason', what) : conflicts > 0 ? coded('update.reason_local_conflicts', { ...what, n: conflicts }) : coded('update.reason_local', what)
  const why = risk.added.length > 0 ? coded('update.reason_high_risk', { n: risk.added.length, rules: [...new Set(risk.added.map((f) => f.rule))].join(', '), reason: refOf(told) }) : told
  return {
    proposal: {
      id: `update-${m.skill.skill_id}-${fetched.commit.slice(0, 12)}`,
      kind: 'update',
      members: [{ skill_id: m.skill.skill_id, title: m.skill.title, path: m.skill.path }],
      score: 1,
      ...codedReason(why),
      evidence: {
        repo: spec.display,
        ref: m.source.ref,
        path: m.source.path,
        from: m.source.commit,
        to: fetched.commit,
        local_edit: localEdited,
        conflicts,
        // the notes in English (as before) and by code, in the same order (a UI words them in its language)
        ...(notes.length > 0 ? { notes: notes.map((n) => n.text), note_refs: notes.map(refOf) } : {}),
        // skills.lock moves to the new commit when (and only when) this proposal is accepted
        ...lockEvidence(m, fetched.commit, upstream.hash, lock, risk.risk ? riskRecord(risk.findings, `the reviewer who accepted update-${m.skill.skill_id}-${to}`) : undefined),
        // the audit of the upstream version: what it adds that is high is what the reviewer allows by accepting
        audit: { findings: risk.findings, added_high: risk.added, high_risk: risk.added.length > 0 },
        // upstream's own change, so the reviewer sees both sides
        ...(u0Text !== null ? { upstream: { before: u0Text, after: u1Text } } : { upstream: { before: null, after: u1Text } })
      },
      changes,
      status: 'pending',
      author: `upstream:${spec.display}`
    }
  }
}

/**
 * An accept whose lock write a crash cut off leaves the skill at the new commit and the lock at the old one: set
 * the entry again from the commit the skill says it came from (only an entry that exists and disagrees).
 */
async function repairLockEntry(root: string, m: Installed, fetched: FetchedCommit, opts: GitLimits & { env?: NodeJS.ProcessEnv }, lock: SkillsLock | null): Promise<void> {
  const name = path.posix.dirname(m.skill.path)
  const entry = lock?.skills[name]
  if (!entry || entry.commit === m.source.commit || entry.source !== m.source.repo || entry.path !== m.source.path) return
  const files = await upstreamFiles(fetched, m.source.commit, m.source.path, opts)
  if (files) await changeSkillsLock(root, new Map([[name, { ...entry, ref: m.source.ref, commit: m.source.commit, hash: files.hash }]]))
}

/** `evidence.lock` of an update: the lock entry accepting it sets, and the one it replaces (store/skills-lock.ts). */
function lockEvidence(m: Installed, commit: string, hash: string, lock: SkillsLock | null, risk: LockRisk | undefined): { lock?: UpdateLockEvidence } {
  const name = path.posix.dirname(m.skill.path)
  if (name.includes('/') || name === '.') return {}
  const after: LockEntry = { source: m.source.repo, ref: m.source.ref, commit, path: m.source.path, hash, ...(risk ? { risk } : {}) }
  return { lock: { name, after, before: lock?.skills[name] ?? null } }
}

/** The audit of the upstream version (and of the installed upstream version, to tell what is new). */
function auditUpdate(m: Installed, afterText: string, afterFiles: Map<string, Buffer>, before: { text: string; files: Map<string, Buffer> } | null): { findings: AuditFinding[]; added: AuditFinding[]; risk: boolean } {
  const name = m.skill.name ?? m.skill.title
  const findings = auditIncoming(name, afterText, [...afterFiles].map(([rel, bytes]) => ({ rel, bytes })))
  const had = before ? auditIncoming(name, before.text, [...before.files].map(([rel, bytes]) => ({ rel, bytes }))) : []
  return { findings, added: addedHigh(had, findings), risk: highOf(findings).length > 0 }
}

function eq(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b)
}

/** Our bookkeeping of a skill (id, counters, dates) as changes, the provenance left out (it is set anew). */
function bookkeepingOf(data: Record<string, unknown>): FrontMatterChange[] {
  const md = data.metadata
  const sb = md && typeof md === 'object' && !Array.isArray(md) ? (md as Record<string, unknown>).skillbench : undefined
  if (!sb || typeof sb !== 'object' || Array.isArray(sb)) return []
  return Object.entries(sb as Record<string, unknown>)
    .filter(([k]) => k !== 'source')
    .map(([k, v]) => ({ path: ['metadata', 'skillbench', k], value: v }))
}

/**
 * Adds proposals to the library's plan (under the lock): one already there unchanged (or already decided) stays
 * as it is; an older pending proposal of the same kind for the same skill is replaced by the newer one (the
 * library or the source moved on). Returns each id's outcome.
 */
export async function queueProposals(root: string, proposals: readonly Proposal[]): Promise<Map<string, 'added' | 'exists'>> {
  return withLibraryLock(root, async () => {
    const plan = await loadPlanOrEmpty(root)
    const out = new Map<string, 'added' | 'exists'>()
    for (const p of proposals) {
      const same = plan.proposals.find((x) => x.id === p.id)
      // Kept as it is when already there unchanged, or decided (a rejected one stays rejected).
      if (same && ((same.status ?? 'pending') !== 'pending' || JSON.stringify(same.changes) === JSON.stringify(p.changes))) {
        out.set(p.id, 'exists')
        continue
      }
      const member = p.members[0]?.skill_id
      // an older pending one of the same kind for the same skill is outdated by this one
      plan.proposals = plan.proposals.filter((x) => !(x.kind === p.kind && (x.status ?? 'pending') === 'pending' && x.members[0]?.skill_id === member))
      plan.proposals.push(p)
      out.set(p.id, 'added')
    }
    await savePlan(root, plan)
    return out
  }, { purpose: 'queueing proposals' })
}
