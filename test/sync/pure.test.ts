/** The pure parts of sync: counters, skill files both sides changed, team ledgers, commit messages, the split by side. */
import { describe, expect, it } from 'vitest'
import { commitMessage } from '../../src/main/sync/commit-message'
import { classify } from '../../src/main/sync/merge-plan'
import { applyRating, mergeCounters, mergeSkillFile } from '../../src/main/sync/skill-merge'
import { exportLines, lastExported, unionLines } from '../../src/main/sync/team-ledger'

const skill = (o: { fetch?: number; last?: string; q?: number; upd?: string; body?: string; title?: string }): string =>
  `---\nskill_id: '1700000001'\ntitle: ${o.title ?? 'Read PDF'}\nusage_conditions: PDFs\nquality_index: ${o.q ?? 0.5}\nfetch_count: ${o.fetch ?? 0}\nrelated_code: ''\ntask_directories: []\ncreated_at: '2026-01-01T00:00:00.000000'\nupdated_at: '${o.upd ?? '2026-01-01T00:00:00.000000'}'\nlast_used_at: ${o.last ? `'${o.last}'` : 'null'}\nuser_preferences: ''\n---\n\n${o.body ?? 'Open it.\n\nRead it.\n'}`
const labels = { ours: 'local', theirs: 'origin/main' }
const none = { ours: [], theirs: [] }

describe('counters', () => {
  it('fetch_count adds both increments, times take the later, one-sided quality is kept', () => {
    const base = { fetch_count: 4, last_used_at: '2026-01-01', quality_index: 0.5, updated_at: '2026-01-01' }
    expect(mergeCounters(base, { ...base, fetch_count: 7, last_used_at: '2026-01-03' }, { ...base, fetch_count: 6, last_used_at: '2026-01-02', quality_index: 0.65 }, none)).toEqual({ fetch_count: 9, last_used_at: '2026-01-03', quality_index: 0.65, updated_at: '2026-01-01' })
  })
  it('ratings of both sides replay in time order from the base quality', () => {
    const base = { fetch_count: 0, last_used_at: null, quality_index: 0.5, updated_at: null }
    const ours = [{ at: '2026-01-01T10:00:00', rating: 1 }]
    const theirs = [{ at: '2026-01-01T09:00:00', rating: 0 }]
    const want = applyRating(applyRating(0.5, 0), 1)
    expect(mergeCounters(base, { ...base, quality_index: 0.65 }, { ...base, quality_index: 0.35 }, { ours, theirs }).quality_index).toBe(want)
  })
  it('a base without a quality (a new SKILL.md skill) replays from the default both sides rated from', () => {
    const base = { fetch_count: 0, last_used_at: null, quality_index: null, updated_at: null }
    const ours = [{ at: '2026-01-01T09:00:00', rating: 1 }]
    const theirs = [{ at: '2026-01-01T10:00:00', rating: 0 }]
    expect(mergeCounters(base, { ...base, quality_index: 0.65 }, { ...base, quality_index: 0.35 }, { ours, theirs }).quality_index).toBe(applyRating(applyRating(0.5, 1), 0))
  })
})

describe('a skill file both sides changed', () => {
  it('uses on one side and an edit on the other merge without review', () => {
    const r = mergeSkillFile('skill_read_pdf.md', { base: skill({}), ours: skill({ fetch: 3, last: '2026-02-01T00:00:00.000000' }), theirs: skill({ body: 'Open it.\n\nRead it twice.\n', upd: '2026-02-02T00:00:00.000000', fetch: 1 }) }, none, labels)
    expect(r.kind).toBe('merged')
    const text = (r as { text: string }).text
    expect(text).toContain('Read it twice.')
    expect(text).toContain('fetch_count: 4')
    expect(text).toContain("last_used_at: '2026-02-01T00:00:00.000000'")
  })
  it('edits on both sides: the remote version lands, the local one is the proposal, markers only there', () => {
    const r = mergeSkillFile('skill_read_pdf.md', { base: skill({}), ours: skill({ body: 'Open it.\n\nRead it slowly.\n', fetch: 2 }), theirs: skill({ body: 'Open it.\n\nRead it twice.\n' }) }, none, labels)
    expect(r.kind).toBe('conflict')
    if (r.kind !== 'conflict') return
    expect(r.text).toContain('Read it twice.')
    expect(r.text).toContain('fetch_count: 2')
    expect(r.text).not.toContain('<<<<<<<')
    expect(r.proposal).toContain('<<<<<<<')
    expect(r.proposal).toContain('Read it slowly.')
    expect(r.markers).toBe(1)
  })
  it('the same edit on both sides is no conflict', () => {
    const edited = skill({ body: 'Same.\n' })
    expect(mergeSkillFile('skill_read_pdf.md', { base: skill({}), ours: edited, theirs: edited.replace('fetch_count: 0', 'fetch_count: 1') }, none, labels).kind).toBe('merged')
  })
  it('a file that is not a skill is opaque', () => {
    expect(mergeSkillFile('notes/readme.md', { base: 'a', ours: 'b', theirs: 'c' }, none, labels).kind).toBe('opaque')
  })
})

describe('team ledgers', () => {
  it('export continues after the last line that reached the file, counting uses and ratings only', () => {
    const history = [
      { t: 'use' as const, ids: ['1'], at: 'a' },
      { t: 'write' as const, paths: ['x'], at: 'b' },
      { t: 'act' as const, id: '1', what: 'rate', rating: 1, at: 'c' },
      { t: 'act' as const, id: '1', what: 'edit', at: 'd' },
      { t: 'use' as const, ids: ['2', '3'], at: 'e' }
    ]
    const all = exportLines(history, -1)
    expect(all.count).toBe(3)
    expect(all.uses).toBe(3)
    expect(lastExported(all.lines)).toBe(2)
    const rest = exportLines(history, 0)
    expect(rest.count).toBe(2)
    expect(rest.lines.split('\n')[0]).toContain('"n":1')
    expect(lastExported(all.lines + '{"n":9,"t":"use"')).toBe(2) // a torn tail is not a line
  })
  it('two versions of one ledger keep every line once', () => {
    expect(unionLines('a\n', 'a\nb\n', 'a\nc\nb\n')).toBe('a\nb\nc\n')
  })
})

describe('who changed what', () => {
  it('splits paths into one-sided changes and both-sided ones', () => {
    const e = (p: string, from: string | null, to: string | null) => ({ path: p, fromOid: from, toOid: to, toMode: to ? '100644' : '000000' })
    const { take, both } = classify([e('a', '1', '2'), e('b', '1', '3'), e('d', '1', '5')], [e('b', '1', '4'), e('c', null, '9'), e('d', '1', '5')])
    expect(take).toEqual([{ path: 'c', oid: '9', mode: '100644' }])
    expect(both.map((b) => b.path)).toEqual(['b'])
  })
})

describe('commit messages', () => {
  it('say what changed in the words of the journal and the tools', () => {
    const m = commitMessage({
      journal: [{ action: 'apply', kind: 'merge', changes: [{ path: 'skill_a.md', before: 'x', after: 'y' }, { path: 'skill_b.md', before: 'x', after: null }, { path: 'legacy/skill_b.md', before: null, after: 'x' }] }],
      acts: [{ id: '1', title: 'Read PDF', what: 'edit', detail: 'append' }, { id: '2', title: 'Parse CSV', what: 'rate', rating: 0.65 }],
      uses: 0,
      changed: [{ status: 'M', path: 'skill_a.md' }, { status: 'D', path: 'skill_b.md' }, { status: 'A', path: 'legacy/skill_b.md' }, { status: 'M', path: 'skill_pdf.md' }, { status: 'M', path: 'skill_csv.md' }],
      titleOfId: () => undefined,
      titleOfPath: (p) => ({ 'skill_a.md': 'a', 'skill_b.md': 'b', 'legacy/skill_b.md': 'b', 'skill_pdf.md': 'Read PDF', 'skill_csv.md': 'Parse CSV' })[p]
    })
    expect(m.items).toEqual(['merge: a + b → a', 'edit: Read PDF (append)', 'rate: Parse CSV 0.65'])
    expect(m.subject).toBe('merge: a + b → a; edit: Read PDF (append); rate: Parse CSV 0.65')
  })

  it('a rejection undone (journal action unreject, no file changes) adds no item', () => {
    const m = commitMessage({
      journal: [{ action: 'unreject', kind: 'merge', changes: [] }, { action: 'apply', kind: 'cleanup', changes: [{ path: 'skill_c.md', before: 'x', after: null }, { path: 'legacy/skill_c.md', before: null, after: 'x' }] }],
      acts: [],
      uses: 0,
      changed: [{ status: 'D', path: 'skill_c.md' }, { status: 'A', path: 'legacy/skill_c.md' }],
      titleOfId: () => undefined,
      titleOfPath: (p) => ({ 'skill_c.md': 'c', 'legacy/skill_c.md': 'c' })[p]
    })
    expect(m.items).toEqual(['retire: c'])
  })

  it('records of files outside the commit (a deploy into an agent folder and its undo) add no item and no path', () => {
    const home = '/home/ann/.claude/skills/pdf-tools/SKILL.md'
    const m = commitMessage({
      journal: [
        { action: 'apply', kind: 'deploy', changes: [{ path: home, before: null, after: 'x' }] },
        { action: 'undo', kind: 'deploy', changes: [{ path: home, before: 'x', after: null }] },
        { action: 'apply', kind: 'deploy', changes: [] },
        { action: 'apply', kind: 'learned', changes: [{ path: 'pdf-tools/SKILL.md', before: 'a', after: 'b' }] }
      ],
      acts: [],
      uses: 0,
      changed: [{ status: 'M', path: 'pdf-tools/SKILL.md' }],
      titleOfId: () => undefined,
      titleOfPath: (p) => ({ 'pdf-tools/SKILL.md': 'pdf-tools' })[p]
    })
    expect(m.items).toEqual(['learned: pdf-tools'])
    expect(m.message).not.toContain('/home/ann')
  })
})

describe('conflict proposals name the skill', () => {
  it('a SKILL.md that never stored its id gets the id the store derives from its folder (never "")', async () => {
    const { conflictProposal } = await import('../../src/main/sync/conflict-proposal')
    const { derivedSkillId } = await import('../../src/main/store/paths')
    const text = (body: string): string => `---\nname: pdf\ndescription: Read PDFs.\n---\n\n${body}\n`
    const p = conflictProposal(
      { path: 'pdf/SKILL.md', kind: 'conflict', landed: text('B'), local: text('A'), base: text('0'), remote: text('B'), proposal: text('A'), markers: 0 },
      { remote: 'origin/main', base: 'b', ours: 'o', theirs: 't', localAuthors: ['Ann'], remoteAuthors: ['Bo'], legacyText: null }
    )
    expect(p!.members[0]!.skill_id).toBe(derivedSkillId('pdf'))
    expect(p!.members[0]!.skill_id).toMatch(/^\d{16}$/)
  })
})
