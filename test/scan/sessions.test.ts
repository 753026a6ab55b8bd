import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseClaudeSession } from '../../src/main/scan/claude-code'
import { parseCodexRollout } from '../../src/main/scan/codex-cli'
import { defaultSessionDir, detectSessionDirs, scanSessions } from '../../src/main/scan/sessions'
import { parseSynapseSession } from '../../src/main/scan/synapse'
import { main } from '../../src/main/cli/index'
import type { CliIo } from '../../src/main/cli/common'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'

let tmp: string
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-sessions-'))
})
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

function jsonl(rel: string, records: unknown[], extra = ''): string {
  const full = path.join(tmp, rel)
  fs.mkdirSync(path.dirname(full), { recursive: true })
  fs.writeFileSync(full, records.map((r) => JSON.stringify(r)).join('\n') + '\n' + extra)
  return full
}

const CC = path.join('claude_code')
const summary = (t: { toolCalls: unknown[]; errors: unknown[]; interruptions: number; status: string }) => [
  t.toolCalls.length,
  t.errors.length,
  t.interruptions,
  t.status
]

describe.skipIf(!HAS_REAL_DATA)('Claude Code, real transcripts', () => {
  it('short: one request, 2 rejected tool calls (errors), then interrupted', async () => {
    const tasks = await parseClaudeSession(realPath('sessions', CC, 'marot_spotter', 'short.jsonl'))
    expect(tasks.map((t) => t.requirements)).toEqual([['mix phx.server doesnt seem to start']])
    expect(tasks.map(summary)).toEqual([[2, 2, 1, 'interrupted']])
    expect(tasks[0]!.toolCalls.map((c) => c.name)).toEqual(['Bash', 'Glob'])
    expect(tasks[0]!.toolCalls.every((c) => c.ok === false)).toBe(true)
  })
  it('tool_heavy: slash commands are not requests; two requests, both interrupted', async () => {
    const tasks = await parseClaudeSession(realPath('sessions', CC, 'marot_spotter', 'tool_heavy.jsonl'))
    expect(tasks.map((t) => t.requirements[0]!.slice(0, 27))).toEqual(['start phoenix in background', 'scrolling back in xterm.js '])
    expect(tasks.map(summary)).toEqual([
      [2, 0, 1, 'interrupted'],
      [4, 0, 1, 'interrupted']
    ])
    expect(tasks[1]!.toolCalls.map((c) => c.name)).toEqual(['WebSearch', 'Glob', 'Read', 'WebFetch'])
  })
  it('a custom slash command is a request; the built-in ones are not', async () => {
    const tasks = await parseClaudeSession(realPath('sessions', CC, 'marot_spotter', 'subagent.jsonl'))
    expect(tasks.map((t) => t.requirements[0]!.split(' ')[0])).toEqual(['/handgemacht:create-beads', 'create'])
    expect(tasks.map(summary)).toEqual([
      [12, 0, 1, 'interrupted'],
      [4, 0, 0, 'completed']
    ])
  })
  it('project layout: sub-agent calls join the task whose Task call started them (22 + 33 calls, 8 failed)', async () => {
    const dir = realPath('sessions', CC, 'marot_spotter', 'project_layout', '-home-marco-projects-spotter-worktrees-spotter-dov')
    const tasks = await parseClaudeSession(path.join(dir, '4d5611e5-241a-462a-8d15-5122611a9569.jsonl'))
    expect(tasks).toHaveLength(1)
    const calls = tasks[0]!.toolCalls
    expect(calls.filter((c) => c.agent === 'main')).toHaveLength(22)
    expect(calls.filter((c) => c.agent === 'agent-a2898e3')).toHaveLength(33)
    expect(tasks[0]!.errors).toHaveLength(8)
    expect(tasks[0]!.status).toBe('incomplete') // the transcript was truncated mid-work
    expect(tasks[0]!.files).toContain('lib/spotter_web/live/session_live.ex')
  })
  it('old layout: three requests, each answered', async () => {
    const tasks = await parseClaudeSession(
      realPath('sessions', CC, 'codemie-ai_codemie-code', '-tmp-private', '4c2ddfdc-b619-4525-8d03-1950fb1b0257.jsonl')
    )
    expect(tasks.map((t) => t.requirements[0])).toEqual(['create hello.py, md and js', 'update py with one liner comment', 'delete js'])
    expect(tasks.map(summary)).toEqual([
      [3, 0, 0, 'completed'],
      [2, 0, 0, 'completed'],
      [1, 0, 0, 'completed']
    ])
    expect(tasks[0]!.files).toEqual(['hello.py', 'hello.md', 'hello.js'])
  })
  it('scanSessions over the folder finds every session, newest first', async () => {
    const r = await scanSessions({ source: 'claude', dir: realPath('sessions', CC, 'marot_spotter') })
    expect(r.tasks).toHaveLength(6)
    expect(r.tasks.every((t) => t.source === 'claude')).toBe(true)
  })
})

describe.skipIf(!HAS_REAL_DATA)('Codex CLI, real rollouts', () => {
  const dir = realPath('sessions', 'codex_cli', 'codemie-ai_codemie-code', 'sessions', '2026', '05', '11')
  it('rollout 1: two user messages, 2 + 103 calls, 4 non-zero exits, both task_complete', async () => {
    const tasks = await parseCodexRollout(path.join(dir, 'rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl'))
    expect(tasks.map((t) => t.requirements[0])).toEqual(['show tools', "let's update the defailt context compart to 90 in env var"])
    expect(tasks.map(summary)).toEqual([
      [2, 0, 0, 'completed'],
      [103, 4, 0, 'completed']
    ])
    expect(tasks[1]!.files).toContain('src/agents/plugins/opencode/opencode.plugin.ts')
  })
  it('rollout 2 (Desktop, no task_complete): final answers complete the tasks; a failed exec is an error', async () => {
    const tasks = await parseCodexRollout(path.join(dir, 'rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl'))
    expect(tasks.map(summary)).toEqual([
      [11, 0, 0, 'completed'],
      [0, 0, 0, 'completed'],
      [27, 1, 0, 'completed']
    ])
    expect(tasks[2]!.errors[0]).toMatch(/exit 1/)
  })
})

describe('Claude Code fixtures', () => {
  it('blocks sharing message.id and a repeated tool_use are not double counted; invoked_skills are kept', async () => {
    const base = { sessionId: 's1', cwd: '/w/proj', userType: 'external' }
    const file = jsonl('projects/-w-proj/s1.jsonl', [
      { ...base, type: 'user', message: { role: 'user', content: 'fix the bug' } },
      { ...base, type: 'attachment', attachment: { type: 'invoked_skills', skills: [{ name: 'debugging' }] } },
      { ...base, type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'thinking', thinking: '…' }] } },
      { ...base, type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Edit', input: { file_path: '/w/proj/src/a.ts' } }] } },
      { ...base, type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Edit', input: { file_path: '/w/proj/src/a.ts' } }] } },
      { ...base, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'String not found', is_error: true }] } },
      { ...base, type: 'assistant', message: { id: 'm2', role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'Write', input: { file_path: '/etc/x' } }] } },
      { ...base, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'ok' }] } },
      { ...base, type: 'assistant', message: { id: 'm3', role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] } },
      { ...base, type: 'user', isMeta: true, message: { role: 'user', content: '<command-name>/clear</command-name>' } },
      { ...base, type: 'user', message: { role: 'user', content: 'now add tests' } },
      { ...base, type: 'assistant', message: { id: 'm4', role: 'assistant', content: [{ type: 'tool_use', id: 't3', name: 'Bash', input: { command: 'npm test' } }] } },
      { ...base, type: 'user', message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] } }
    ], '{"torn line')
    const tasks = await parseClaudeSession(file)
    expect(tasks.map((t) => t.requirements[0])).toEqual(['fix the bug', 'now add tests'])
    expect(tasks.map(summary)).toEqual([
      [2, 1, 0, 'completed'],
      [1, 0, 1, 'interrupted']
    ])
    expect(tasks[0]).toMatchObject({ files: ['src/a.ts'], skillsUsed: ['debugging'], finalText: 'Fixed.', taskDir: 's1#1' })
    expect(tasks[0]!.errors[0]).toBe('Edit: String not found')
  })
})

describe('Codex fixtures', () => {
  it('pairs calls and outputs by call_id; exit codes ≠ 0 are errors once; turn_aborted is an interruption', async () => {
    const file = jsonl('sessions/2026/01/02/rollout-2026-01-02T10-00-00-abc.jsonl', [
      { type: 'session_meta', payload: { id: 'abc', cwd: '/repo' } },
      { type: 'event_msg', payload: { type: 'user_message', message: 'run the tests' } },
      { type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the tests' }] } },
      { type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"npm test"}', call_id: 'c1' } },
      { type: 'event_msg', payload: { type: 'exec_command_end', call_id: 'c1', command: ['npm', 'test'], exit_code: 1, stderr: 'FAIL a.test.ts' } },
      { type: 'response_item', payload: { type: 'function_call_output', call_id: 'c1', output: 'Process exited with code 1' } },
      { type: 'response_item', payload: { type: 'custom_tool_call', name: 'apply_patch', call_id: 'c2', input: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** End Patch' } },
      { type: 'response_item', payload: { type: 'custom_tool_call_output', call_id: 'c2', output: 'Success' } },
      { type: 'response_item', payload: { type: 'message', role: 'assistant', phase: 'final_answer', content: [{ type: 'output_text', text: 'Fixed the test.' }] } },
      { type: 'event_msg', payload: { type: 'task_complete', last_agent_message: 'Fixed the test.' } },
      { type: 'event_msg', payload: { type: 'user_message', message: 'also lint' } },
      { type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"npm run lint"}', call_id: 'c3' } },
      { type: 'event_msg', payload: { type: 'turn_aborted', reason: 'interrupted' } }
    ])
    const tasks = await parseCodexRollout(file)
    expect(tasks.map((t) => t.requirements[0])).toEqual(['run the tests', 'also lint'])
    expect(tasks.map(summary)).toEqual([
      [2, 1, 0, 'completed'],
      [1, 0, 1, 'interrupted']
    ])
    expect(tasks[0]).toMatchObject({ files: ['src/a.ts'], finalText: 'Fixed the test.', source: 'codex' })
    expect(tasks[0]!.toolCalls[0]).toMatchObject({ name: 'exec_command', params: { cmd: 'npm test' }, ok: false })
  })
})

describe('Synapse fixtures', () => {
  const conversation = [
    { role: 'user', content: '帮我分析 error.log 找出所有报错原因' },
    { role: 'assistant', content: '', tool_calls: [{ id: 'a', type: 'function', function: { name: 'read', arguments: '{"path":"error.log"}' } }] },
    { role: 'tool', tool_call_id: 'a', content: 'line1 ERROR x' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'b', name: 'search', input: { pattern: 'ERROR' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b', content: 'no such file', is_error: true }] },
    { role: 'assistant', content: '报错原因：数据库连接超时。' },
    { type: 'message', message: { role: 'user', content: 'write a fix script' } },
    { type: 'message', message: { role: 'assistant', content: '', tool_calls: [{ id: 'c', function: { name: 'write', arguments: '{"file_path":"fix.py"}' } }] } },
    { type: 'message', message: { role: 'tool', tool_call_id: 'c', content: 'Error: permission denied' } }
  ]

  it('splits requests, pairs OpenAI and Anthropic style calls, marks failures', async () => {
    const file = jsonl('sessions/sess-1.jsonl', conversation)
    const { tasks, cut } = await parseSynapseSession(file, { maxChars: 1_000_000 })
    expect(cut).toBe(false)
    expect(tasks.map((t) => t.requirements[0])).toEqual(['帮我分析 error.log 找出所有报错原因', 'write a fix script'])
    expect(tasks.map(summary)).toEqual([
      [2, 1, 0, 'completed'],
      [1, 1, 0, 'incomplete']
    ])
    expect(tasks[1]!.files).toEqual(['fix.py'])
  })

  it('reads only the end of the session, cut to maxEnhanceContextChars', async () => {
    const filler = Array.from({ length: 200 }, (_, i) => ({ role: 'user', content: `old request ${i} ${'x'.repeat(100)}` }))
    const file = jsonl('sessions/sess-2.jsonl', [...filler, ...conversation])
    const tail = conversation.map((r) => JSON.stringify(r)).join('\n').length
    const { tasks, cut } = await parseSynapseSession(file, { maxChars: tail + 40 })
    expect(cut).toBe(true)
    // Only the two recent requests survive; the cut first line is dropped, never half-parsed.
    expect(tasks.map((t) => t.requirements[0])).toEqual(['帮我分析 error.log 找出所有报错原因', 'write a fix script'])
    const small = await parseSynapseSession(file, { maxChars: 300 })
    expect(small.tasks.length).toBeLessThanOrEqual(1)
  })

  it('auto-detects default folders under SKILLBENCH_HOME and scans them from the CLI', async () => {
    const env = { SKILLBENCH_HOME: tmp, SKILLBENCH_CACHE_DIR: path.join(tmp, 'cache') }
    expect(detectSessionDirs(env)).toEqual([])
    jsonl('.synapse/sessions/s.jsonl', conversation)
    expect(detectSessionDirs(env)).toEqual([{ source: 'synapse', dir: defaultSessionDir('synapse', env) }])
    const out: string[] = []
    const io: CliIo = { stdout: (t) => void out.push(String(t)), stderr: () => {}, isTTY: false, cwd: tmp, env, signal: new AbortController().signal }
    expect(await main(['scan', '--synapse-dir', path.join(tmp, '.synapse', 'sessions'), '--json'], io)).toBe(0)
    const doc = JSON.parse(out.join('')) as { tasks: { source: string; taskDir: string; toolCalls: { name: string; ok?: boolean }[] }[] }
    expect(doc.tasks.map((t) => [t.source, t.taskDir])).toEqual([
      ['synapse', 's#1'],
      ['synapse', 's#2']
    ])
    // How each call ended travels in --json too (a failed call is what reflection and usage read).
    const parsed = await parseSynapseSession(path.join(tmp, '.synapse', 'sessions', 's.jsonl'))
    expect(doc.tasks.map((t) => t.toolCalls.map((c) => c.ok))).toEqual(parsed.tasks.map((t) => t.toolCalls.map((c) => c.ok)))
    expect(doc.tasks.flatMap((t) => t.toolCalls).some((c) => c.ok === false)).toBe(true)
  })
})
