import { describe, expect, it } from 'vitest'
import { claudeHookSession, claudeStopHook, codexHookSession, codexNotify, isRolloutOf, shellWord } from '../../src/main/cli/agent-hooks'

describe('agent hooks (pure)', () => {
  it('quotes words for the shell Claude Code runs its hooks in, and TOML strings for Codex', () => {
    expect(shellWord('/usr/bin/node')).toBe('/usr/bin/node')
    expect(shellWord("/home/me/my skills/it's")).toBe(`'/home/me/my skills/it'\\''s'`)
    expect(shellWord('$(rm -rf ~)')).toBe(`'$(rm -rf ~)'`)
    const claude = JSON.parse(claudeStopHook(['/usr/bin/node', '/a b/skillbench.cjs', 'reflect']))
    expect(claude.hooks.Stop[0].hooks[0]).toEqual({ type: 'command', command: "/usr/bin/node '/a b/skillbench.cjs' reflect", timeout: 600 })
    expect(codexNotify(['/usr/bin/node', 'C:\\x "y"', '技能'])).toBe('notify = ["/usr/bin/node", "C:\\\\x \\"y\\"", "技能"]\n')
  })

  it('reads what each agent hands its hook, and says what is missing', () => {
    expect(claudeHookSession('{"session_id":"s1","transcript_path":"/t/s1.jsonl","cwd":"/w","hook_event_name":"Stop"}')).toEqual({ ok: true, agent: 'claude', transcript: '/t/s1.jsonl', sessionId: 's1', cwd: '/w' })
    expect(claudeHookSession('[]')).toMatchObject({ ok: false, problem: { messageCode: 'reflect.hook_input_not_object', text: expect.stringContaining('not a JSON object') } })
    expect(claudeHookSession('{"session_id":"s1"}')).toMatchObject({ ok: false, problem: { messageCode: 'reflect.hook_no_transcript_path', text: 'the hook input has no transcript_path' } })
    expect(codexHookSession('{"type":"agent-turn-complete","thread-id":"019e1695-0522-7c83-8b39-0dd379793f80","cwd":"/w"}')).toEqual({ ok: true, agent: 'codex', threadId: '019e1695-0522-7c83-8b39-0dd379793f80', cwd: '/w' })
    expect(codexHookSession(undefined)).toMatchObject({ ok: false })
    expect(codexHookSession('{"type":"agent-turn-complete","thread-id":"../../etc"}')).toMatchObject({ ok: false, problem: { messageCode: 'reflect.hook_no_thread_id', text: 'the notification has no usable thread-id' } })
    expect(isRolloutOf('rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl', '019e1695-0522-7c83-8b39-0dd379793f80')).toBe(true)
    expect(isRolloutOf('rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl', '0dd379793f80')).toBe(false) // the whole id, not a tail of it
    expect(isRolloutOf('other-019e1695.jsonl', '019e1695')).toBe(false)
  })
})
