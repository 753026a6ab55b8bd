import { describe, expect, it } from 'vitest'
import type { Skill } from '../../src/shared/types'
import { consolidationPrompt, decisionFromText, decisionFromToolCalls, parseLabelledAnswer } from '../../src/main/curate/llm-consolidate'

function skill(id: string, body = `body of ${id}`): Skill {
  return {
    skill_id: id, title: `title ${id}`, usage_conditions: `when ${id}`, quality_index: 0.5, fetch_count: 0, related_code: '', task_directories: [],
    created_at: '', updated_at: '', last_used_at: null, user_preferences: '', format: 'agiagent', path: `skill_${id}.md`, body, hash: 'h', legacy: false
  }
}
const members = [skill('111'), skill('222')]

describe('plain-text answers', () => {
  it('reads labels case-insensitively, with Markdown decoration, CONTENT running to the end', () => {
    const text = '**merge:** Yes\nreason: same task\nTitle: Merged title\nUsage Conditions: when sorting\ncontent:\n# Body\n\nMERGE: inside content stays\n'
    expect(parseLabelledAnswer(text)).toEqual({ merge: 'Yes', reason: 'same task', title: 'Merged title', usage_conditions: 'when sorting', content: '# Body\n\nMERGE: inside content stays' })
    const d = decisionFromText(text, '111', members)
    expect(d).toEqual({ kind: 'merge', primaryId: '111', title: 'Merged title', usageConditions: 'when sorting', body: '# Body\n\nMERGE: inside content stays\n', retire: ['222'], reason: 'same task' })
  })

  it('accepts the upper-case form upstream never matched, and a fenced CONTENT', () => {
    const d = decisionFromText('MERGE: YES\nTITLE: T\nCONTENT:\n```markdown\nhello\n```', '222', members)
    expect(d).toMatchObject({ kind: 'merge', primaryId: '222', body: 'hello\n', retire: ['111'] })
  })

  it('MERGE: no keeps the skills', () => {
    expect(decisionFromText('MERGE: no\nREASON: different tools', '111', members)).toEqual({ kind: 'keep', reason: 'different tools' })
  })

  it('malformed answers are errors', () => {
    expect(decisionFromText('I think they are similar.', '111', members)).toMatchObject({ kind: 'error', message: expect.stringContaining('no "MERGE') })
    expect(decisionFromText('MERGE: maybe', '111', members)).toMatchObject({ kind: 'error', message: expect.stringContaining('neither yes nor no') })
    expect(decisionFromText('MERGE: yes\nTITLE: t', '111', members)).toMatchObject({ kind: 'error', message: expect.stringContaining('no CONTENT') })
    expect(decisionFromText('MERGE: yes\nCONTENT: x', '111', members)).toMatchObject({ kind: 'error', message: expect.stringContaining('no TITLE') })
  })
})

describe('tool-call answers', () => {
  const call = (name: string, args: unknown, id = 'c'): { id: string; name: string; arguments: string } => ({ id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) })

  it('edit_skill on the kept skill + delete_skill on the others', () => {
    const d = decisionFromToolCalls([call('edit_skill', { skill_id: '222', edit_mode: 'full_replace', code_edit: 'merged', title: 'New' }), call('delete_skill', { skill_id: '111' })], members)
    expect(d).toMatchObject({ kind: 'merge', primaryId: '222', body: 'merged', title: 'New', retire: ['111'] })
  })

  it('append and lines_replace edit the current body', () => {
    expect(decisionFromToolCalls([call('edit_skill', { skill_id: '111', edit_mode: 'append', code_edit: 'more' })], members)).toMatchObject({ body: 'body of 111\n\nmore\n' })
    expect(decisionFromToolCalls([call('edit_skill', { skill_id: '111', edit_mode: 'lines_replace', old_code: 'of', code_edit: 'for' })], members)).toMatchObject({ body: 'body for 111' })
  })

  it('unknown skills, unknown tools, bad JSON and contradictions are errors', () => {
    expect(decisionFromToolCalls([call('delete_skill', { skill_id: '999' })], members)).toMatchObject({ kind: 'error', message: expect.stringContaining('"999", which is not in this cluster') })
    expect(decisionFromToolCalls([call('rm_rf', { skill_id: '111' })], members)).toMatchObject({ kind: 'error', message: expect.stringContaining('unknown tool') })
    expect(decisionFromToolCalls([call('edit_skill', '{not json')], members)).toMatchObject({ kind: 'error', message: expect.stringContaining('not valid JSON') })
    expect(decisionFromToolCalls([call('edit_skill', { skill_id: '111', code_edit: 'x' }), call('delete_skill', { skill_id: '111' })], members)).toMatchObject({ kind: 'error' })
    expect(decisionFromToolCalls([call('edit_skill', { skill_id: '111', code_edit: 'x' }), call('edit_skill', { skill_id: '222', code_edit: 'y' })], members)).toMatchObject({ kind: 'error', message: expect.stringContaining('exactly one') })
    expect(decisionFromToolCalls([call('delete_skill', { skill_id: '111' }), call('delete_skill', { skill_id: '222' })], members)).toMatchObject({ kind: 'error', message: expect.stringContaining('every skill') })
    expect(decisionFromToolCalls([call('edit_skill', { skill_id: '111', edit_mode: 'lines_replace', old_code: 'zzz', code_edit: 'y' })], members)).toMatchObject({ kind: 'error' })
  })
})

describe('consolidationPrompt', () => {
  it('shows every member with its id and cuts long bodies', () => {
    const p = consolidationPrompt([skill('1', 'x'.repeat(50)), skill('2')], 10)
    expect(p).toContain('skill_id: 1')
    expect(p).toContain('skill_id: 2')
    expect(p).toContain('xxxxxxxxxx\n[… cut]')
    expect(p).toContain('MERGE: yes|no')
  })
})
