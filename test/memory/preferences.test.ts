import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { TaskTrace } from '../../src/shared/types'
import {
  acceptPendingPreference,
  capturePreferences,
  listPendingPreferences,
  preferencesFromTexts,
  preferencesFromTraces,
  rejectPendingPreference
} from '../../src/main/memory/memory-files'
import { extractPreferences, preferenceId } from '../../src/main/memory/preferences'
import { longTermPreferenceEntries } from '../../src/main/memory/preference-kv'

const dirs: string[] = []
function tmpWorkspace(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-pref-'))
  dirs.push(d)
  return d
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

const LOG = [
  'Received user requirement: 记住：我喜欢简短回答。',
  'Previous conversation context:',
  '1. (最老) 记住：我喜欢简短回答。', // repeated by AGIAgent's context list
  'Received user requirement: 请记住:不要用红色',
  '💬 好的，我会记住的。', // no colon: the agent talking, not a preference
  'user: Remember: answer in English when I write in English!',
  'user: Remember that I deploy on Fridays only.',
  'I remember the old config was broken', // not an instruction
  'remember:   ' // empty
].join('\n')

describe('extractPreferences', () => {
  it('finds Chinese and English explicit preferences, once each, without trailing punctuation', () => {
    expect(extractPreferences(LOG)).toEqual([
      '我喜欢简短回答',
      '不要用红色',
      'answer in English when I write in English',
      'I deploy on Fridays only'
    ])
  })
  it('caps a giant line', () => {
    const [p] = extractPreferences('记住：' + 'x'.repeat(10_000))
    expect(p!.length).toBeLessThanOrEqual(300)
  })
})

function trace(over: Partial<TaskTrace>): TaskTrace {
  return {
    user: 'u', taskDir: 'output_1', path: '/x/output_1', mtime: 0, status: 'completed', completed: true,
    requirements: [], toolCalls: [], errors: [], interruptions: 0, agentMessages: [], files: [], ...over
  }
}

describe('capture → review → accept', () => {
  it('queues found preferences as pending, skips re-captures, accepts into preferences.md', async () => {
    const ws = tmpWorkspace()
    const now = new Date('2026-01-20T10:00:00Z')
    const r1 = await capturePreferences(ws, preferencesFromTexts([{ text: LOG, source: 'manager.out' }]), now)
    expect(r1.queued.map((q) => q.text)).toHaveLength(4)
    expect(r1.queued[0]).toEqual({ id: preferenceId('我喜欢简短回答'), text: '我喜欢简短回答', source: 'manager.out', found_at: '2026-01-20T10:00:00.000Z' })
    // nothing is accepted yet: preferences.md does not exist
    expect(fs.existsSync(path.join(ws, 'memory', 'preferences.md'))).toBe(false)
    const pendingFile = path.join(ws, 'memory', '.pending-preferences.json')
    const pendingBefore = fs.readFileSync(pendingFile, 'utf8')

    // the same preferences from a TaskTrace (scanner output) are already pending
    const traces = [trace({ preferences: ['我喜欢简短回答'], requirements: ['Remember that I deploy on Fridays only'] })]
    const r2 = await capturePreferences(ws, preferencesFromTraces(traces), now)
    expect(r2.queued).toEqual([])
    expect(r2.skipped.map((s) => s.reason)).toEqual(['already_pending', 'already_pending'])
    expect(fs.readFileSync(pendingFile, 'utf8')).toBe(pendingBefore)

    const id = r1.queued[0]!.id
    const acc = await acceptPendingPreference(ws, id.slice(0, 6))
    expect(acc.added).toBe(true)
    expect(fs.readFileSync(path.join(ws, 'memory', 'preferences.md'), 'utf8')).toBe('# Preferences / 用户偏好\n\n- 我喜欢简短回答\n')
    expect((await listPendingPreferences(ws)).map((p) => p.text)).toEqual([
      '不要用红色',
      'answer in English when I write in English',
      'I deploy on Fridays only'
    ])
    // once accepted, capturing it again is skipped as already accepted
    const r3 = await capturePreferences(ws, [{ text: '我喜欢简短回答！', source: 'again' }], now)
    expect(r3.skipped).toEqual([{ text: '我喜欢简短回答', reason: 'already_accepted' }])

    const rej = await rejectPendingPreference(ws, r1.queued[1]!.id)
    expect(rej.text).toBe('不要用红色')
    expect(await listPendingPreferences(ws)).toHaveLength(2)
    expect(fs.readFileSync(path.join(ws, 'memory', 'preferences.md'), 'utf8')).not.toContain('红色')
  })
  it('unknown, ambiguous and malformed ids are clear errors that change nothing', async () => {
    const ws = tmpWorkspace()
    await capturePreferences(ws, [{ text: 'use tabs', source: 's' }])
    const pendingFile = path.join(ws, 'memory', '.pending-preferences.json')
    const before = fs.readFileSync(pendingFile, 'utf8')
    await expect(acceptPendingPreference(ws, 'ffffffffffff')).rejects.toThrow(/no pending preference/)
    await expect(acceptPendingPreference(ws, '../../etc')).rejects.toThrow(/not a pending-preference id/)
    expect(fs.readFileSync(pendingFile, 'utf8')).toBe(before)
    expect(fs.existsSync(path.join(ws, 'memory', 'preferences.md'))).toBe(false)
  })
  it('a corrupt pending file is reported, never overwritten', async () => {
    const ws = tmpWorkspace()
    fs.mkdirSync(path.join(ws, 'memory'))
    const pendingFile = path.join(ws, 'memory', '.pending-preferences.json')
    fs.writeFileSync(pendingFile, '{"items": "oops"')
    await expect(capturePreferences(ws, [{ text: 'use tabs', source: 's' }])).rejects.toThrow()
    fs.writeFileSync(pendingFile, '{"items": 3}')
    await expect(capturePreferences(ws, [{ text: 'use tabs', source: 's' }])).rejects.toThrow(/version/)
    expect(fs.readFileSync(pendingFile, 'utf8')).toBe('{"items": 3}')
  })
})

describe('long-term memory’s preferences block', () => {
  it('lists the bullets of its "## Preferences" block only, and the scanner’s finds come without their full stop', async () => {
    expect(longTermPreferenceEntries(null)).toEqual([])
    expect(longTermPreferenceEntries('# Long-term memory / 长期记忆\n\n## 2026-01-02\n\n- did things\n')).toEqual([])
    const text = '# Long-term memory / 长期记忆\n\n## 2026-01-02\n\n- did things\n\n## Preferences / 用户偏好\n\n- 代码注释用中文\n- language: zh\n\n## 2026-01-03\n\n- more\n'
    expect(longTermPreferenceEntries(text)).toEqual(['代码注释用中文', 'language: zh'])
    // what accepting writes is what the block lists
    const ws = tmpWorkspace()
    await capturePreferences(ws, [{ text: 'answer briefly', source: 's' }])
    await acceptPendingPreference(ws, (await listPendingPreferences(ws))[0]!.id)
    expect(longTermPreferenceEntries(fs.readFileSync(path.join(ws, 'memory', 'long-term.md'), 'utf8'))).toEqual(['answer briefly'])
    const trace = { preferences: ['代码注释用中文。'], requirements: [], taskDir: 't', path: '/t' } as unknown as TaskTrace
    expect(preferencesFromTraces([trace]).map((p) => p.text)).toEqual(['代码注释用中文'])
  })
})
