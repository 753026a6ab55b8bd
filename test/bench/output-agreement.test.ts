import { describe, expect, it } from 'vitest'
import { compareCuratePlans, compareFields, compareItems, compareQueryHits } from '../../bench/output-agreement'

const plan = (...proposals: Array<{ kind: string; ids: string[]; reason?: string }>): string =>
  JSON.stringify({ proposals: proposals.map((p, i) => ({ id: `p${i}`, kind: p.kind, members: p.ids.map((skill_id) => ({ skill_id })), reason: p.reason ?? 'r' })) })

describe("the before-after bench's comparison of two builds' answers", () => {
  it('matches proposals by kind and members, whatever their order, ids and wording', () => {
    const before = plan({ kind: 'merge', ids: ['2', '1'] }, { kind: 'consolidate', ids: ['3', '4', '5'] })
    const after = plan({ kind: 'consolidate', ids: ['5', '4', '3'], reason: 'new words' }, { kind: 'merge', ids: ['1', '2'] })
    expect(compareCuratePlans(before, after)).toBe('same 2 proposals (1 merge, 1 consolidate) (1 reason(s) worded differently)')
  })

  it('names the proposals only one build made', () => {
    const said = compareCuratePlans(plan({ kind: 'merge', ids: ['1', '2'] }, { kind: 'consolidate', ids: ['3', '4'] }), plan({ kind: 'merge', ids: ['1', '2'] }))
    expect(said).toBe('**proposals differ**: 1 in both (1 merge); only before 1 consolidate: consolidate 3+4')
  })

  it('compares query hits in order with their scores', () => {
    const hits = (...h: Array<[string, number]>): string => JSON.stringify({ status: 'success', skills: h.map(([skill_id, similarity_score]) => ({ skill_id, similarity_score })) })
    expect(compareQueryHits(hits(['a', 0.5], ['b', 0.4]), hits(['a', 0.5], ['b', 0.4]))).toBe('same 2 hits; same answers on the fields both print')
    expect(compareQueryHits(hits(['a', 0.5], ['b', 0.4]), hits(['b', 0.4], ['a', 0.5]))).toBe('**hits differ**: before a 0.5, b 0.4; after b 0.4, a 0.5')
  })

  it('tells a field one build adds from a value that differs, items matched by path', () => {
    const before = JSON.stringify({ skills: [{ path: 'b.md', title: 'B' }, { path: 'a.md', title: 'A' }] })
    const after = JSON.stringify({ skills: [{ path: 'a.md', title: 'A', dated: true }, { path: 'b.md', title: 'B!', dated: false }] })
    expect(compareItems(before, after, 'skills')).toBe('2 skills: **skills differ** at 1 place(s): skills[1].title; after adds skills[].dated')
    expect(compareFields({ tasks: [1, 2] }, { tasks: [1] }).differing).toEqual(['tasks: 2 → 1 items'])
  })
})
