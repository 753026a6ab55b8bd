import { describe, expect, it } from 'vitest'
import { AgiAgentLogParser, parseAgiAgentLog, parseInvokeBlock, extractPreferences } from '../../src/main/scan/agiagent-parser'
import fs from 'node:fs'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'

const REAL_A = realPath('agiagent', 'agi-hub_AGIAgent', 'data_root_example', 'tianhaoyang', 'output_20260119_124253', 'logs', 'manager.out')
const REAL_B = realPath('agiagent', 'hzqjgthy_AGIAgent_thy', 'output_thy_test_project33', 'logs', 'manager.out')
const REAL_C = realPath('agiagent', 'pelioo_AGIAgent', 'manager.out')

/** Feeds the bytes in pieces of `size` to prove results do not depend on chunk boundaries. */
function parseInPieces(bytes: Buffer, size: number, agent = 'manager') {
  const p = new AgiAgentLogParser(agent)
  for (let i = 0; i < bytes.length; i += size) {
    p.feed(bytes.subarray(i, i + size))
  }
  return p.finish()
}

describe.skipIf(!HAS_REAL_DATA)('real AGIAgent logs', () => {
  it('GUI log: 9 requirements, 0 tool calls, same-line completion marker, no interruptions', () => {
    const r = parseAgiAgentLog(fs.readFileSync(REAL_A))
    // Counted by hand: 9 "Received user requirement: 你好" lines, each answered by "TASK_COMPLETED: …🎉 Workflow completed!".
    expect(r.requirements).toEqual(Array(9).fill('你好'))
    expect(r.toolCalls).toHaveLength(0)
    expect(r.interruptions).toBe(0)
    expect(r.completed).toBe(true)
    expect(r.errors).toEqual([])
  })
  it('client-mode log starting with "🚀 Executing task:" has 0 interruptions and is completed', () => {
    const r = parseAgiAgentLog(fs.readFileSync(REAL_B))
    expect(r.requirements).toEqual(['你好，写一个笑话，中文的'])
    expect(r.interruptions).toBe(0)
    expect(r.completed).toBe(true)
  })
  it('the agent\'s 💬 lines are its messages: 9 in the GUI log, 1 in the client-mode log, whatever the chunk size', () => {
    // Counted with grep: 9 lines "💬 你好！很高兴见到你！👋" in A, one "💬 你好！很高兴为你写一个中文笑话：" in B.
    const a = parseAgiAgentLog(fs.readFileSync(REAL_A))
    expect(a.agentMessages.map((m) => [m.kind, m.agent, m.text])).toEqual(Array(9).fill(['said', 'manager', '💬 你好！很高兴见到你！👋']))
    expect(parseInPieces(fs.readFileSync(REAL_A), 7).agentMessages).toEqual(a.agentMessages)
    const b = parseAgiAgentLog(fs.readFileSync(REAL_B))
    expect(b.agentMessages.map((m) => [m.kind, m.text])).toEqual([['said', '💬 你好！很高兴为你写一个中文笑话：']])
  })
  it('a 💬 inside a line (quoted in output) is not a message', () => {
    const r = parseAgiAgentLog(Buffer.from('Received user requirement: hi\n\n💬 hello there\nresult: says 💬 quoted\n- 💬 bullet\n'))
    expect(r.agentMessages.map((m) => m.text)).toEqual(['💬 hello there'])
  })
  it('multi-agent spawn completions (upstream pattern matches none)', () => {
    const r = parseAgiAgentLog(fs.readFileSync(REAL_C))
    expect(r.agentMessages.map((m) => [m.kind, m.from])).toEqual([
      ['spawn_completed', 'agent_002'],
      ['spawn_completed', 'agent_001']
    ])
  })
  it('gives the same result whatever the chunk size', () => {
    for (const file of [REAL_A, REAL_B, REAL_C]) {
      const bytes = fs.readFileSync(file)
      const whole = parseAgiAgentLog(bytes)
      for (const size of [1, 3, 7, 64, 1000]) {
        expect(parseInPieces(bytes, size)).toEqual(whole)
      }
    }
  })
})

const TOOL_LOG = [
  'Received user requirement: 写一个计算器 calculator.py',
  '',
  'Currently selected directory: /Users/x/data/alice/output_calc',
  '💬 好的，我先写代码。',
  '<invoke name="edit_file">',
  '  <parameter name="target_file">/Users/x/data/alice/output_calc/workspace/calculator.py</parameter>',
  '  <parameter name="edit_mode">replace</parameter>',
  '  <parameter name="code_edit">def add(a, b):',
  '    return a + b',
  '',
  'print(add(1, 2))',
  '</parameter>',
  '</invoke>',
  '<invoke name="run_terminal_cmd">',
  '<parameter name="command">python calculator.py</parameter>',
  '</invoke>',
  '❌ Task round 2 execution error: command failed with exit code 1',
  '❌ 不要这样写（只是提示）',
  '<invoke name="edit_file"><parameter name="target_file">workspace/docs/README.md</parameter><parameter name="code_edit"># Calc</parameter></invoke>',
  '<invoke name="edit_file"><parameter name="target_file">/etc/passwd</parameter></invoke>',
  '<invoke name="edit_file"><parameter name="target_file">../outside.txt</parameter></invoke>',
  '<invoke name="read_file"><parameter name="target_file">notes.txt</parameter></invoke>',
  'TASK_COMPLETED: 计算器已完成🎉 Workflow completed!',
  ''
].join('\n')

describe('tool calls', () => {
  it('extracts names and multi-line parameter values in order', () => {
    const r = parseAgiAgentLog(TOOL_LOG)
    expect(r.toolCalls.map((c) => c.name)).toEqual(['edit_file', 'run_terminal_cmd', 'edit_file', 'edit_file', 'edit_file', 'read_file'])
    expect(r.toolCalls[0]!.params.code_edit).toBe('def add(a, b):\n    return a + b\n\nprint(add(1, 2))')
    expect(r.toolCalls[0]!.params.edit_mode).toBe('replace')
    expect(r.toolCalls[1]!.params).toEqual({ command: 'python calculator.py' })
    expect(r.toolCalls.every((c) => c.agent === 'manager' && !c.partial)).toBe(true)
    expect(r.errors).toEqual(['❌ Task round 2 execution error: command failed with exit code 1'])
    expect(r.completed).toBe(true)
    for (const size of [1, 5, 13, 100]) {
      expect(parseInPieces(Buffer.from(TOOL_LOG), size)).toEqual(r)
    }
  })
  it('keeps an unterminated <invoke> at the end of the log as a partial call', () => {
    const r = parseAgiAgentLog('Received user requirement: x\n<invoke name="edit_file">\n<parameter name="target_file">a.py</parameter>\n<parameter name="code_edit">print(1)\n')
    expect(r.toolCalls).toHaveLength(1)
    expect(r.toolCalls[0]).toMatchObject({ name: 'edit_file', partial: true, params: { target_file: 'a.py', code_edit: 'print(1)' } })
    expect(r.completed).toBe(false)
  })
  it('a cut-off <invoke> does not swallow the next requirement or the next call', () => {
    const log = [
      'Received user requirement: first',
      '<invoke name="a"><parameter name="p">1',
      '<invoke name="b"><parameter name="q">2</parameter></invoke>',
      '<invoke name="c"><parameter name="r">3',
      'Received user requirement: second',
      'TASK_COMPLETED: ok',
      ''
    ].join('\n')
    const r = parseAgiAgentLog(log)
    expect(r.toolCalls.map((c) => [c.name, c.partial ?? false])).toEqual([['a', true], ['b', false], ['c', true]])
    expect(r.requirements).toEqual(['first', 'second'])
    expect(r.interruptions).toBe(1)
  })
  it('parseInvokeBlock ignores a block with no name', () => {
    expect(parseInvokeBlock('<invoke>\n</invoke>', 'manager')).toBeNull()
  })
})

describe('requirements, interruptions, completion', () => {
  it('counts a requirement with no completion in the 200 characters before it as an interruption', () => {
    const log = [
      'Received user requirement: build a site',
      '<invoke name="edit_file"><parameter name="target_file">index.html</parameter></invoke>',
      'Received user requirement: stop, use React instead',
      'TASK_COMPLETED: done',
      'Received user requirement: add a footer',
      '',
      'working…'
    ].join('\n')
    const r = parseAgiAgentLog(log)
    expect(r.requirements).toEqual(['build a site', 'stop, use React instead', 'add a footer'])
    expect(r.interruptions).toBe(1)
    expect(r.completed).toBe(false) // the last request has no completion
  })
  it('a completion more than 200 characters before the next requirement does not excuse it', () => {
    const log = `Received user requirement: a\nTASK_COMPLETED: yes\n${'x'.repeat(300)}\nReceived user requirement: b\n`
    expect(parseAgiAgentLog(log).interruptions).toBe(1)
  })
  it('a mention of TASK_COMPLETED in prose is not a completion', () => {
    const r = parseAgiAgentLog('Received user requirement: a\n🧠 我完成后会发送 TASK_COMPLETED 信号\n')
    expect(r.completed).toBe(false)
    expect(parseAgiAgentLog('Received user requirement: a\nTASK COMPLETED\n').completed).toBe(true)
  })
  it('a user stop counts once and marks the segment stopped', () => {
    const r = parseAgiAgentLog('Received user requirement: a\n🛑 Task 12 execution stopped by user\nReceived user requirement: b\n')
    expect(r.interruptions).toBe(1)
    expect(r.completed).toBe(false)
    const stopped = parseAgiAgentLog('Received user requirement: a\n🛑 Task 12 execution stopped by user\n')
    expect(stopped.stoppedByUser).toBe(true)
  })
  it('a multi-line requirement keeps its lines up to the blank line; preferences are extracted', () => {
    const r = parseAgiAgentLog('Received user requirement: write a report\n记住：报告用中文写\nRemember: keep it short\n\nCurrently selected directory: /x\n')
    expect(r.requirements).toEqual(['write a report\n记住：报告用中文写\nRemember: keep it short'])
    expect(r.preferences).toEqual(['报告用中文写', 'keep it short'])
  })
  it('extractPreferences needs the colon for English', () => {
    expect(extractPreferences('do you remember the file?')).toEqual([])
    expect(extractPreferences('请记住，我喜欢简洁')).toEqual(['我喜欢简洁'])
  })
})

describe('errors and messages', () => {
  it('reads ERROR FEEDBACK blocks up to END OF ERROR FEEDBACK, ignoring the end line', () => {
    const log = [
      'CRITICAL ERROR FEEDBACK - XML PARSING FAILED',
      'Your tool call could not be parsed.',
      'Missing </invoke>.',
      'END OF ERROR FEEDBACK',
      'ERROR FEEDBACK: file not found',
      '',
      'plain line'
    ].join('\n')
    const r = parseAgiAgentLog(log)
    expect(r.errors).toEqual([
      'CRITICAL ERROR FEEDBACK - XML PARSING FAILED\nYour tool call could not be parsed.\nMissing </invoke>.',
      'ERROR FEEDBACK: file not found'
    ])
  })
  it('reads sent / routed / read messages attributed to the agent', () => {
    const log = [
      '📤 Agent agent_001 sent message msg_42 to manager',
      '✅ Message msg_42 routed from agent_001 to manager',
      '📬 Read 2 unread message(s) from inbox and merged into user requirement',
      'agent_003 ✅ AGIAgent spawn agent_003 completed'
    ].join('\n')
    const r = parseAgiAgentLog(log, 'agent_001')
    expect(r.agentMessages).toEqual([
      { kind: 'sent', from: 'agent_001', id: 'msg_42', to: 'manager', text: log.split('\n')[0], agent: 'agent_001' },
      { kind: 'routed', id: 'msg_42', from: 'agent_001', to: 'manager', text: log.split('\n')[1], agent: 'agent_001' },
      { kind: 'read', count: 2, to: 'agent_001', text: log.split('\n')[2], agent: 'agent_001' },
      { kind: 'spawn_completed', from: 'agent_003', text: log.split('\n')[3], agent: 'agent_001' }
    ])
    expect(r.requirements).toEqual([]) // "merged into user requirement" is not a requirement
  })
})

describe('hostile input', () => {
  it('tolerates invalid UTF-8 and NUL bytes', () => {
    const bytes = Buffer.concat([
      Buffer.from('Received user requirement: caf'),
      Buffer.from([0xc3, 0x00, 0xff, 0xfe]),
      Buffer.from('é\0ok\n\0\0\0<invoke name="x\0y"><parameter name="p">\xff</parameter></invoke>\nTASK_COMPLETED: fine\n')
    ])
    const r = parseAgiAgentLog(bytes)
    expect(r.requirements).toHaveLength(1)
    expect(r.requirements[0]).toMatch(/^caf\uFFFD+éok$/)
    expect(r.requirements[0]).not.toContain('\0')
    expect(r.toolCalls).toHaveLength(1)
    expect(r.completed).toBe(true)
  })
  it('a multi-MB line is cut for storage but markers in it are still found', () => {
    const huge = 'y'.repeat(3 * 1024 * 1024)
    const log = `Received user requirement: ${huge}\n${huge}❌ fatal error here ${huge} TASK_COMPLETED: done\n`
    const r = parseAgiAgentLog(log)
    expect(r.requirements).toHaveLength(1)
    expect(r.requirements[0]!.length).toBeLessThanOrEqual(4096)
    expect(r.errors).toHaveLength(1)
    expect(r.errors[0]!.length).toBeLessThanOrEqual(1000)
    expect(r.errors[0]).toContain('❌ fatal error')
    expect(r.completed).toBe(true)
    expect(parseInPieces(Buffer.from(log), 65536)).toEqual(r)
  })
  it('never throws on random bytes', () => {
    let seed = 7
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff
    const alphabet = ['<invoke name="a">', '</invoke>', '<parameter name="p">', '</parameter>', 'Received user requirement: ', '\n', 'TASK_COMPLETED', '❌ error', '📤', '✅', 'ERROR FEEDBACK', '\xff', '\0', 'x']
    for (let n = 0; n < 200; n++) {
      const parts: string[] = []
      for (let k = 0; k < 40; k++) parts.push(alphabet[Math.floor(rnd() * alphabet.length)]!)
      const bytes = Buffer.from(parts.join(''), 'latin1')
      const whole = parseAgiAgentLog(bytes)
      expect(parseInPieces(bytes, 1 + Math.floor(rnd() * 20))).toEqual(whole)
    }
  })
})

describe('where a requirement ends', () => {
  /** Parses whole and in 1- and 7-byte pieces; all must agree. */
  function requirementsOf(log: string): string[] {
    const whole = parseAgiAgentLog(log)
    for (const size of [1, 7]) {
      expect(parseInPieces(Buffer.from(log), size).requirements).toEqual(whole.requirements)
    }
    return whole.requirements
  }

  it('stops before the English initialisation line (bundled sample log)', () => {
    const log = [
      'Received user requirement: Research three open-source vector databases and write a comparison table; split the research between two agents.',
      'Initialization complete, analysing the requirement...',
      '<invoke name="spawn_agent">',
      '  <parameter name="agent_id">agent_001</parameter>',
      '</invoke>',
      'TASK_COMPLETED: done🎉 Workflow completed!',
      ''
    ].join('\n')
    expect(requirementsOf(log)).toEqual([
      'Research three open-source vector databases and write a comparison table; split the research between two agents.'
    ])
    expect(parseAgiAgentLog(log).toolCalls.map((c) => c.name)).toEqual(['spawn_agent'])
  })

  it('stops before the Chinese initialisation line and before agent-id notes', () => {
    expect(requirementsOf('Received user requirement: 给我写一个关于程序员的中文笑话\n初始化完成，我正在分析需求中...\n💬 程序员去买菜。\nTASK_COMPLETED: 完成\n')).toEqual([
      '给我写一个关于程序员的中文笑话'
    ])
    expect(requirementsOf('Received user requirement: 你好\n🏷️ Using agent ID for task execution: manager\n初始化完成，我正在分析需求中...\n')).toEqual(['你好'])
    expect(requirementsOf('Received user requirement: hello\nUsing agent ID for task execution: manager\n')).toEqual(['hello'])
    expect(requirementsOf('Received user requirement: hi\nInitializing the agent...\n')).toEqual(['hi'])
  })

  it('stops at the GUI context headers and a previous-conversation list', () => {
    const log = [
      'Received user requirement: 你好',
      'Previous conversation context:',
      '1. (最老) 你好',
      'Received user requirement: 再见',
      'Currently selected directory: /data/u/output_1',
      'workspace subdirectory path: /data/u/output_1/workspace',
      ''
    ].join('\n')
    expect(requirementsOf(log)).toEqual(['你好', '再见'])
  })

  it('keeps a genuinely multi-line requirement whole, up to the next header', () => {
    const request = [
      'Build a command-line tool that:',
      '1. reads sales.csv',
      '2. prints the monthly totals',
      'Keep it under 100 lines, and remember: use only the standard library.'
    ]
    const direct = `Received user requirement: ${request.join('\n')}\nInitialization complete, analysing the requirement...\n<invoke name="edit_file"><parameter name="target_file">tool.py</parameter></invoke>\n`
    expect(requirementsOf(direct)).toEqual([request.join('\n')])
    const gui = `Received user requirement: ${request.join('\n')}\n\nCurrently selected directory: /x\n初始化完成，我正在分析需求中...\n`
    expect(requirementsOf(gui)).toEqual([request.join('\n')])
    expect(parseAgiAgentLog(direct).preferences).toEqual(['use only the standard library.'])
  })
})

describe('multi-agent lines at any chunk boundary', () => {
  it('routed / spawn-completed lines give the same messages whatever the chunking', () => {
    let seed = 11
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff
    const alphabet = ['✅ Message m1 routed from agent_001 to manager', 'agent_002 ✅ AGIAgent spawn agent_002 completed', '**Result:** ✅ File written', '\n', 'x', '\0', ' completed', '📤 Agent agent_001 sent message m2 to manager']
    let total = 0
    for (let n = 0; n < 150; n++) {
      const parts: string[] = []
      for (let k = 0; k < 30; k++) parts.push(alphabet[Math.floor(rnd() * alphabet.length)]!)
      const bytes = Buffer.from(parts.join(''))
      const whole = parseAgiAgentLog(bytes)
      total += whole.agentMessages.length
      expect(parseInPieces(bytes, 1 + Math.floor(rnd() * 40))).toEqual(whole)
    }
    expect(total).toBeGreaterThan(100) // the lines were really recognised
  })
})
