/**
 * Crafted agent logs for the usage tests (issue 14): one Claude Code session, one Codex rollout, one AGIAgent
 * data root and one Synapse session, each covering every kind of use and every outcome, plus a library that
 * holds both skill layouts and a ledger (current + archived) of Skillbench's own query hits. Built in a temp
 * folder; the expected uses are written next to each scenario.
 */
import fs from 'node:fs'
import path from 'node:path'

export const IDS = {
  calculator: '1768615161',
  joke: '1768615200',
  stale: '1700000000'
} as const

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
}

function jsonl(file: string, records: unknown[]): string {
  write(file, records.map((r) => JSON.stringify(r)).join('\n') + '\n')
  return file
}

function skillMd(name: string, description: string, body = `# ${name}\n\n1. Do the thing.\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`
}

function agiSkill(id: string, title: string, created = '2026-09-01T10:00:00.000000'): string {
  return [
    '---',
    `skill_id: '${id}'`,
    `title: ${title}`,
    'usage_conditions: when a calculator is needed',
    'quality_index: 0.5',
    'fetch_count: 0',
    "related_code: ''",
    'task_directories:',
    '- output_20260901_100000',
    `created_at: '${created}'`,
    `updated_at: '${created}'`,
    'last_used_at: null',
    "user_preferences: ''",
    '---',
    '',
    `# ${title}`,
    '',
    'Steps.',
    ''
  ].join('\n')
}

/** A library with both layouts: SKILL.md folders under skills/ and AGIAgent skill files at the top. */
export function writeLibrary(dir: string): void {
  write(path.join(dir, 'skills', 'pdf-report', 'SKILL.md'), skillMd('pdf-report', 'Make a PDF report from a CSV'))
  write(path.join(dir, 'skills', 'deploy-check', 'SKILL.md'), skillMd('deploy-check', 'Check a deploy before release'))
  write(path.join(dir, 'skills', 'brainstorming', 'SKILL.md'), skillMd('brainstorming', 'Explore ideas before building'))
  write(path.join(dir, 'skills', 'git-cleanup', 'SKILL.md'), skillMd('git-cleanup', 'Remove merged branches'))
  write(path.join(dir, 'skills', 'test-driven-development', 'SKILL.md'), skillMd('test-driven-development', 'Write the test first'))
  write(path.join(dir, 'skills', 'never-touched', 'SKILL.md'), skillMd('never-touched', 'Nobody uses this one'))
  write(path.join(dir, 'skill_Calculator in Python.md'), agiSkill(IDS.calculator, 'Calculator in Python'))
  write(path.join(dir, 'skill_Tell a joke.md'), agiSkill(IDS.joke, 'Tell a joke'))
  write(path.join(dir, 'skill_Old unused.md'), agiSkill(IDS.stale, 'Old unused', '2026-01-01T10:00:00.000000'))
}

/** Naive local ISO, as the ledger writes it. */
function local(ms: number): string {
  const d = new Date(ms)
  const p = (n: number, w = 2): string => String(n).padStart(w, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.000000`
}

export const MCP_QUERY_AT = Date.parse('2026-11-10T09:06:00.000Z')
export const LEDGER_ONLY_AT = Date.parse('2026-11-12T12:00:00.000Z')
export const ARCHIVED_AT = Date.parse('2026-10-01T08:00:00.000Z')

/**
 * The library's ledger: the query the Claude session made through MCP (the same use: counted once, with its task),
 * a query from the CLI that no scanned log shows (a use without a task) and, in the archive, an older MCP query.
 */
export function writeLedger(lib: string): void {
  write(
    path.join(lib, '.skillbench', 'usage.jsonl'),
    [
      { t: 'use', ids: [IDS.joke], at: local(MCP_QUERY_AT + 20_000), via: 'mcp' },
      { t: 'write', paths: ['skill_Tell a joke.md'], at: local(LEDGER_ONLY_AT) },
      { t: 'use', ids: [IDS.calculator], at: local(LEDGER_ONLY_AT), via: 'cli' }
    ]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n'
  )
  write(
    path.join(lib, '.skillbench', 'usage-archive', 'usage-20261001T080000Z-123.jsonl'),
    [{ t: 'use', ids: [IDS.joke], at: local(ARCHIVED_AT), via: 'mcp' }, { t: 'fold', paths: ['skill_Tell a joke.md'], at: local(ARCHIVED_AT + 1000) }]
      .map((r) => JSON.stringify(r))
      .join('\n') + '\n'
  )
}

const CC_BASE = { parentUuid: null, isSidechain: false, userType: 'external', cwd: '/home/u/proj', sessionId: 's1', version: '2.1.7' }
let uuid = 0
const cc = (type: string, ts: string, rest: Record<string, unknown>): Record<string, unknown> => ({ ...CC_BASE, type, uuid: `u${++uuid}`, timestamp: ts, ...rest })
const ccUser = (ts: string, text: string): Record<string, unknown> => cc('user', ts, { message: { role: 'user', content: text } })
const ccTool = (ts: string, id: string, name: string, input: Record<string, unknown>): Record<string, unknown> =>
  cc('assistant', ts, { message: { id: `m-${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } })
const ccResult = (ts: string, id: string, content: string, isError = false): Record<string, unknown> =>
  cc('user', ts, { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] } })
const ccText = (ts: string, text: string): Record<string, unknown> => cc('assistant', ts, { message: { id: `t${++uuid}`, role: 'assistant', content: [{ type: 'text', text }] } })

/**
 * A Claude Code session, one task per request:
 *  1 Skill tool pdf-report → completed
 *  2 /deploy-check (invoked_skills attachment) → a tool error, no answer → failed
 *  3 Read ~/.claude/skills/brainstorming/SKILL.md → the user interrupts → interrupted
 *  4 Bash `cat …/git-cleanup/SKILL.md` → answered → corrected by request 5 ("that's wrong…")
 *  5 the correction itself, no skill → baseline (completed)
 *  6 mcp__skillbench__query_skill returning the joke skill's id → completed (the ledger holds the same query)
 *  7 a failed Read of a SKILL.md, a Glob listing SKILL.md files, a prompt listing skills → no use (completed, baseline)
 *  8 after a compaction the invoked_skills replay names pdf-report again → no new use (completed, baseline)
 */
export function writeClaudeSession(dir: string): string {
  const lib = '/home/u/.claude/skills'
  return jsonl(path.join(dir, '-home-u-proj', 'session-usage.jsonl'), [
    ccUser('2026-11-10T09:00:00.000Z', 'Make a PDF report of the sales CSV'),
    ccTool('2026-11-10T09:00:05.000Z', 'c1', 'Skill', { skill: 'pdf-report' }),
    ccResult('2026-11-10T09:00:06.000Z', 'c1', 'Launching skill: pdf-report'),
    ccText('2026-11-10T09:01:00.000Z', 'The report is in report.pdf.'),

    cc('user', '2026-11-10T09:02:00.000Z', { message: { role: 'user', content: '<command-name>/deploy-check</command-name>\n<command-args>staging</command-args>' } }),
    cc('attachment', '2026-11-10T09:02:01.000Z', { attachment: { type: 'invoked_skills', skills: [{ name: 'deploy-check', path: `${lib}/deploy-check/SKILL.md`, content: '...' }] } }),
    ccTool('2026-11-10T09:02:10.000Z', 'c2', 'Bash', { command: 'kubectl rollout status deploy/web' }),
    ccResult('2026-11-10T09:02:20.000Z', 'c2', 'error: deployment "web" exceeded its progress deadline', true),

    ccUser('2026-11-10T09:03:00.000Z', 'Brainstorm names for the new service'),
    ccTool('2026-11-10T09:03:05.000Z', 'c3', 'Read', { file_path: `${lib}/brainstorming/SKILL.md` }),
    ccResult('2026-11-10T09:03:06.000Z', 'c3', '---\nname: brainstorming\n---'),
    ccUser('2026-11-10T09:03:30.000Z', '[Request interrupted by user for tool use]'),

    ccUser('2026-11-10T09:04:00.000Z', 'Clean up the merged git branches'),
    ccTool('2026-11-10T09:04:05.000Z', 'c4', 'Bash', { command: `cat ${lib}/git-cleanup/SKILL.md && git branch --merged` }),
    ccResult('2026-11-10T09:04:06.000Z', 'c4', 'name: git-cleanup\n  main\n  feature-x'),
    ccText('2026-11-10T09:04:30.000Z', 'Deleted the merged branches.'),

    ccUser('2026-11-10T09:05:00.000Z', "That's wrong, you deleted main as well. Restore it."),
    ccText('2026-11-10T09:05:30.000Z', 'Restored main.'),

    ccUser('2026-11-10T09:06:00.000Z', 'Tell me a joke about calculators'),
    ccTool('2026-11-10T09:06:05.000Z', 'c6', 'mcp__skillbench__query_skill', { query: 'joke' }),
    ccResult('2026-11-10T09:06:06.000Z', 'c6', JSON.stringify({ status: 'success', skills_count: 1, skills: [{ skill_id: IDS.joke, title: 'Tell a joke' }, { skill_id: '999999' }] })),
    ccText('2026-11-10T09:06:30.000Z', 'Why did the calculator…'),

    ccUser('2026-11-10T09:07:00.000Z', 'Available skills: pdf-report (skills/pdf-report/SKILL.md), brainstorming, git-cleanup. Which applies here?'),
    ccTool('2026-11-10T09:07:05.000Z', 'c7a', 'Read', { file_path: `${lib}/never-touched/SKILL.md` }),
    ccResult('2026-11-10T09:07:06.000Z', 'c7a', 'File does not exist.', true),
    ccTool('2026-11-10T09:07:10.000Z', 'c7b', 'Glob', { pattern: '**/SKILL.md' }),
    ccResult('2026-11-10T09:07:11.000Z', 'c7b', `${lib}/never-touched/SKILL.md\n${lib}/pdf-report/SKILL.md`),
    ccText('2026-11-10T09:07:30.000Z', 'None of them applies.'),

    cc('system', '2026-11-10T09:08:00.000Z', { subtype: 'compact_boundary', content: 'Conversation compacted' }),
    ccUser('2026-11-10T09:08:01.000Z', 'Now summarise what we did today'),
    cc('attachment', '2026-11-10T09:08:02.000Z', { attachment: { type: 'invoked_skills', skills: [{ name: 'pdf-report', path: `${lib}/pdf-report/SKILL.md`, content: '...' }] } }),
    ccText('2026-11-10T09:08:30.000Z', 'We made a report and cleaned branches.')
  ])
}

const cx = (ts: string, type: string, payload: Record<string, unknown>): Record<string, unknown> => ({ timestamp: ts, type, payload })

/**
 * A Codex rollout:
 *  1 `sed -n` of ~/.codex/skills/test-driven-development/SKILL.md → task_complete → completed
 *  2 `skill:load deploy-check`, then a command fails (exit 1), no completion → failed
 *  3 older `shell` tool, ["bash","-lc","cat skills/pdf-report/SKILL.md"] run in the library → turn aborted → interrupted
 *  4 the developer message lists skills with their SKILL.md paths; `rg SKILL.md` → no use (completed, baseline)
 *  5 query_skill through MCP (a `function_call` in the mcp__skillbench namespace) returns the joke → completed, but
 *    corrected by request 6
 *  6 "no, that is not what I asked for"; an MCP call known only from its `mcp_tool_call_end` event returns the
 *    calculator → completed
 */
export function writeCodexRollout(dir: string, libraryDir: string): string {
  return jsonl(path.join(dir, '2026', '11', '11', 'rollout-2026-11-11T10-00-00-usage.jsonl'), [
    cx('2026-11-11T10:00:00.000Z', 'session_meta', { id: 'r1', cwd: '/home/u/app' }),
    cx('2026-11-11T10:00:00.500Z', 'response_item', {
      type: 'message',
      role: 'developer',
      content: [{ type: 'input_text', text: '## Skills\n- pdf-report: Make PDFs (file: /home/u/.codex/skills/pdf-report/SKILL.md)\n- brainstorming (file: /home/u/.codex/skills/brainstorming/SKILL.md)' }]
    }),
    cx('2026-11-11T10:00:01.000Z', 'event_msg', { type: 'user_message', message: 'Add the parser, tests first' }),
    cx('2026-11-11T10:00:02.000Z', 'response_item', { type: 'function_call', name: 'exec_command', call_id: 'x1', arguments: JSON.stringify({ cmd: "sed -n '1,200p' /home/u/.codex/skills/test-driven-development/SKILL.md", workdir: '/home/u/app' }) }),
    cx('2026-11-11T10:00:03.000Z', 'response_item', { type: 'function_call_output', call_id: 'x1', output: 'Process exited with code 0\nOutput:\n---\nname: test-driven-development' }),
    cx('2026-11-11T10:00:30.000Z', 'event_msg', { type: 'task_complete', last_agent_message: 'Parser added with tests.' }),

    cx('2026-11-11T10:01:00.000Z', 'event_msg', { type: 'user_message', message: 'Check the staging deploy' }),
    cx('2026-11-11T10:01:01.000Z', 'response_item', { type: 'function_call', name: 'exec_command', call_id: 'x2', arguments: JSON.stringify({ cmd: 'skill:load deploy-check' }) }),
    cx('2026-11-11T10:01:02.000Z', 'response_item', { type: 'function_call_output', call_id: 'x2', output: 'Process exited with code 0\nOutput:\n# deploy-check' }),
    cx('2026-11-11T10:01:03.000Z', 'response_item', { type: 'function_call', name: 'exec_command', call_id: 'x3', arguments: JSON.stringify({ cmd: 'curl -f https://staging/health' }) }),
    cx('2026-11-11T10:01:04.000Z', 'event_msg', { type: 'exec_command_end', call_id: 'x3', command: ['curl', '-f', 'https://staging/health'], exit_code: 22, stderr: 'curl: (22) 503' }),
    cx('2026-11-11T10:01:05.000Z', 'response_item', { type: 'function_call_output', call_id: 'x3', output: 'Process exited with code 22' }),

    cx('2026-11-11T10:02:00.000Z', 'event_msg', { type: 'user_message', message: 'Make the monthly PDF' }),
    cx('2026-11-11T10:02:01.000Z', 'response_item', { type: 'function_call', name: 'shell', call_id: 'x4', arguments: JSON.stringify({ command: ['bash', '-lc', 'cat skills/pdf-report/SKILL.md'], workdir: libraryDir }) }),
    cx('2026-11-11T10:02:02.000Z', 'response_item', { type: 'function_call_output', call_id: 'x4', output: '{"output":"---\\nname: pdf-report","metadata":{"exit_code":0}}' }),
    cx('2026-11-11T10:02:10.000Z', 'event_msg', { type: 'turn_aborted', reason: 'interrupted' }),

    cx('2026-11-11T10:03:00.000Z', 'event_msg', { type: 'user_message', message: 'Which skills exist here?' }),
    cx('2026-11-11T10:03:01.000Z', 'response_item', { type: 'function_call', name: 'exec_command', call_id: 'x5', arguments: JSON.stringify({ cmd: 'rg --files -g SKILL.md ~/.codex/skills' }) }),
    cx('2026-11-11T10:03:02.000Z', 'response_item', { type: 'function_call_output', call_id: 'x5', output: 'Process exited with code 0\nOutput:\n/home/u/.codex/skills/pdf-report/SKILL.md' }),
    cx('2026-11-11T10:03:10.000Z', 'event_msg', { type: 'task_complete', last_agent_message: 'pdf-report and brainstorming.' }),

    cx('2026-11-11T10:04:00.000Z', 'event_msg', { type: 'user_message', message: 'Find me a good joke skill' }),
    cx('2026-11-11T10:04:01.000Z', 'response_item', { type: 'function_call', name: 'query_skill', namespace: 'mcp__skillbench', call_id: 'm1', arguments: JSON.stringify({ query: 'joke' }) }),
    cx('2026-11-11T10:04:02.000Z', 'event_msg', { type: 'mcp_tool_call_end', call_id: 'm1', invocation: { server: 'skillbench', tool: 'query_skill', arguments: { query: 'joke' } }, result: { Ok: { content: [{ type: 'text', text: 'ignored: the function_call carries it' }] } } }),
    cx('2026-11-11T10:04:03.000Z', 'response_item', { type: 'function_call_output', call_id: 'm1', output: JSON.stringify({ status: 'success', skills: [{ skill_id: IDS.joke }] }) }),
    cx('2026-11-11T10:04:10.000Z', 'event_msg', { type: 'task_complete', last_agent_message: 'Use "Tell a joke".' }),

    cx('2026-11-11T10:05:00.000Z', 'event_msg', { type: 'user_message', message: 'no, that is not what I asked for: I need a calculator' }),
    cx('2026-11-11T10:05:02.000Z', 'event_msg', { type: 'mcp_tool_call_end', call_id: 'm2', invocation: { server: 'skillbench', tool: 'query_skill', arguments: { query: 'calculator' } }, result: { Ok: { content: [{ type: 'text', text: JSON.stringify({ skills: [{ skill_id: IDS.calculator }] }) }] } } }),
    cx('2026-11-11T10:05:10.000Z', 'event_msg', { type: 'task_complete', last_agent_message: 'Use "Calculator in Python".' })
  ])
}

/** The result block AGIAgent prints after a query_skill call (upstream's answer as Python prints it). */
function queryResult(ids: string[]): string {
  const skills = ids.map((id) => `{'skill_id': '${id}', 'title': 'Calculator in Python', 'similarity_score': 0.61}`).join(', ')
  const message = ids.map((id, i) => `Skill ${i + 1}:\\nID: ${id}\\nTitle: Calculator in Python`).join('\\n')
  return `--- Tool Execution Results ---\n## Tool 1: query_skill\n**Parameters:** query=calculator\n**Result:** {'status': 'success', 'message': 'Found ${ids.length} relevant skills:\\n${message}', 'skills_count': ${ids.length}, 'skills': [${skills}]}\n`
}

const invoke = (name: string, params: Record<string, string>): string =>
  `<invoke name="${name}">\n${Object.entries(params).map(([k, v]) => `<parameter name="${k}">${v}</parameter>`).join('\n')}\n</invoke>\n`

/**
 * An AGIAgent data root (user alice):
 *  output_20261120_101500: query_skill returns the calculator (and an id the library lacks) → completed
 *  output_20261120_111500: read_file of the calculator's skill file (by its file name, from another machine) then an
 *    error, no completion → failed
 *  output_20261120_121500: `skill:load pdf-report` through run_terminal_cmd → completed; the next requirement
 *    says "不对…" → corrected
 *  output_20261120_131500: no skill (an error before nothing) → baseline (failed)
 *  output_20261120_141500: `cat` of the joke's skill file, then stopped by the user → interrupted
 */
export function writeAgiRoot(root: string): void {
  const task = (dir: string, text: string): void => write(path.join(root, 'alice', dir, 'logs', 'manager.out'), text)
  task(
    'output_20261120_101500',
    `Received user requirement: build a calculator\n\n初始化完成，我正在分析需求中...\n💬 Let me look for a skill.\n${invoke('query_skill', { query: 'calculator' })}${queryResult([IDS.calculator, '4242424242'])}` +
      `💬 Using the skill.\n${invoke('edit_file', { target_file: 'calc.py', code_edit: 'print(1+1)' })}TASK_COMPLETED: done🎉 Workflow completed!\n`
  )
  task(
    'output_20261120_111500',
    `Received user requirement: fix the calculator\n\n${invoke('read_file', { target_file: '/Users/other/data/alice/general/experience/skill_Calculator in Python.md', should_read_entire_file: 'true' })}` +
      `--- Tool Execution Results ---\n## Tool 1: read_file\n**Result:** ✅ read\n❌ Task round 1 execution error: SyntaxError in calc.py\n`
  )
  task(
    'output_20261120_121500',
    `Received user requirement: make the PDF report\n\n${invoke('run_terminal_cmd', { command: 'skill:load pdf-report' })}--- Tool Execution Results ---\n## Tool 1: run_terminal_cmd\n**Result:** ✅ loaded\n` +
      `TASK_COMPLETED: report written\nReceived user requirement: 不对，表格的列顺序错了，重新生成\n\n${invoke('edit_file', { target_file: 'report.py', code_edit: 'x' })}TASK_COMPLETED: fixed\n`
  )
  task('output_20261120_131500', `Received user requirement: plot the data\n\n${invoke('run_terminal_cmd', { command: 'python plot.py' })}❌ Task round 1 execution error: ModuleNotFoundError\n`)
  task(
    'output_20261120_141500',
    `Received user requirement: tell a joke\n\n${invoke('run_terminal_cmd', { command: 'cat "/data/alice/general/experience/skill_Tell a joke.md"' })}🛑 Task manager execution stopped by user\n`
  )
}

/** A Synapse session: a read of a SKILL.md through its `read` tool, then an answer → completed. */
export function writeSynapseSession(dir: string): string {
  return jsonl(path.join(dir, 'syn-1.jsonl'), [
    { role: 'user', content: 'Brainstorm a plan', timestamp: '2026-11-13T10:00:00.000Z' },
    { role: 'assistant', content: '', tool_calls: [{ id: 's1', function: { name: 'read', arguments: JSON.stringify({ path: '/home/u/.agents/skills/brainstorming/SKILL.md' }) } }], timestamp: '2026-11-13T10:00:01.000Z' },
    { role: 'tool', tool_call_id: 's1', content: '---\nname: brainstorming', timestamp: '2026-11-13T10:00:02.000Z' },
    { role: 'assistant', content: 'Here is the plan.', timestamp: '2026-11-13T10:00:30.000Z' }
  ])
}
