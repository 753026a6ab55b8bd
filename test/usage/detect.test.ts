/**
 * What counts as a use, call by call (pure), and the AGIAgent parser's query results: same under any chunking,
 * kept through the persisted scan cache.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AgiAgentLogParser, parseAgiAgentLog, queryResultText } from '../../src/main/scan/agiagent-parser'
import { ScanCache } from '../../src/main/scan/cache'
import type { LogParse } from '../../src/main/scan/agiagent-parser'
import { idsFromQueryResult, isCorrection, refsOfCall, refsOfCommand, shellWords, skillNameOfPath } from '../../src/main/scan/skill-refs'
import { SkillMatcher, skillName } from '../../src/main/usage/match'
import type { Skill } from '../../src/shared/types'

describe('uses shown by a call', () => {
  it('read tools: Read, read_file, view of a text editor, MCP filesystem reads', () => {
    expect(refsOfCall('Read', { file_path: '/home/u/.claude/skills/pdf/SKILL.md' })).toEqual([{ kind: 'read', path: '/home/u/.claude/skills/pdf/SKILL.md', name: 'pdf' }])
    expect(refsOfCall('read_file', { target_file: 'experience/skill_Calc.md' })).toEqual([{ kind: 'read', path: 'experience/skill_Calc.md' }])
    expect(refsOfCall('str_replace_based_edit_tool', { command: 'view', path: '/r/.agents/skills/x/SKILL.md' })).toEqual([{ kind: 'read', path: '/r/.agents/skills/x/SKILL.md', name: 'x' }])
    expect(refsOfCall('str_replace_based_edit_tool', { command: 'str_replace', path: '/r/.agents/skills/x/SKILL.md' })).toEqual([])
    expect(refsOfCall('mcp__fs__read_multiple_files', { paths: '["/a/skills/one/SKILL.md","/a/notes.md"]' })).toEqual([{ kind: 'read', path: '/a/skills/one/SKILL.md', name: 'one' }])
    expect(refsOfCall('Read', { file_path: '/home/u/README.md' })).toEqual([])
  })

  it('shell reads: cat, head, sed -n, in pipelines and after &&; not grep, ls, rg, find or sed -i', () => {
    const names = (cmd: string): string[] => refsOfCommand(cmd).map((r) => `${r.kind}:${r.name ?? r.path}`)
    expect(names('cat ~/.codex/skills/a/SKILL.md')).toEqual(['read:a'])
    expect(names("sed -n '1,200p' /x/skills/b/SKILL.md && head -50 /x/skills/c/SKILL.md | wc -l")).toEqual(['read:b', 'read:c'])
    expect(names('cd /x && NO_COLOR=1 cat skills/d/SKILL.md')).toEqual(['read:d'])
    expect(names('grep -n name /x/skills/e/SKILL.md; ls /x/skills/e/SKILL.md; rg SKILL.md; find . -name SKILL.md')).toEqual([])
    expect(names("sed -i 's/a/b/' /x/skills/f/SKILL.md")).toEqual([])
    expect(names('cat "/data/alice/general/experience/skill_Tell a joke.md"')).toEqual(['read:/data/alice/general/experience/skill_Tell a joke.md'])
    expect(names("bash -lc 'cat /x/skills/g/SKILL.md'")).toEqual(['read:g'])
    expect(names('["bash","-lc","cat /x/skills/h/SKILL.md"]')).toEqual(['read:h'])
    expect(names('echo "see /x/skills/i/SKILL.md"')).toEqual([])
  })

  it('a relative path read in a known working folder is that folder’s file', () => {
    expect(refsOfCall('exec_command', { cmd: 'cat skills/pdf/SKILL.md', workdir: '/lib' })).toEqual([{ kind: 'read', path: '/lib/skills/pdf/SKILL.md', name: 'pdf' }])
  })

  it('skill:load NAME as a command or a tool, and the Skill tool', () => {
    expect(refsOfCommand('skill:load analyzing-logs')).toEqual([{ kind: 'load', name: 'analyzing-logs' }])
    expect(refsOfCall('run_terminal_cmd', { command: 'skill:load pdf && python x.py' })).toEqual([{ kind: 'load', name: 'pdf' }])
    expect(refsOfCall('skill_load', { name: 'pdf' })).toEqual([{ kind: 'load', name: 'pdf' }])
    expect(refsOfCall('Skill', { skill: 'superpowers:brainstorming' })).toEqual([{ kind: 'skill-tool', name: 'superpowers:brainstorming' }])
    expect(refsOfCall('WebSearch', { query: 'SKILL.md format' })).toEqual([])
  })

  it('query_skill results: ids from the JSON answer and from the message lines', () => {
    expect(idsFromQueryResult('{"status":"success","skills":[{"skill_id":"1768615161"},{"skill_id": "42"}]}')).toEqual(['1768615161', '42'])
    expect(idsFromQueryResult("{'skills': [{'skill_id': '7', 'title': 'x'}]}")).toEqual(['7'])
    expect(idsFromQueryResult('Found 2 relevant skills:\nSkill 1:\nID: 11\nTitle: a\nSkill 2:\nID: 12\n')).toEqual(['11', '12'])
    expect(idsFromQueryResult('no skills found')).toEqual([])
  })

  it('shell words follow quotes and escapes', () => {
    expect(shellWords(`cat 'a b' "c \\"d\\"" e\\ f|wc`)).toEqual(['cat', 'a b', 'c "d"', 'e f', ';', 'wc'])
  })

  it('the skill a path names', () => {
    expect(skillNameOfPath('/home/u/.claude/skills/pdf/SKILL.md')).toBe('pdf')
    expect(skillNameOfPath('C:\\Users\\u\\.codex\\skills\\pdf\\SKILL.md')).toBe('pdf')
    expect(skillNameOfPath('SKILL.md')).toBeUndefined()
  })
})

describe('a follow-up that says the work was wrong', () => {
  it.each([
    "That's wrong, the total is off",
    'no, that is not what I asked for',
    'It still doesn’t work'.replace('’', "'"),
    'still failing with the same error',
    'you broke the build',
    '不对，列的顺序错了',
    '还是不行',
    '你搞错了文件'
  ])('%s → corrected', (text) => expect(isCorrection(text)).toBe(true))
  it.each(['Now add a test', "What's wrong with this function?", 'Fix the failing test in parser.ts', 'Is it correct to use UTC here?', 'Nothing to add'])('%s → a new request', (text) =>
    expect(isCorrection(text)).toBe(false)
  )
})

describe('matching uses to a library’s skills: by id, path and name, never by title', () => {
  const skill = (over: Partial<Skill>): Skill =>
    ({ skill_id: '1', title: 't', usage_conditions: '', quality_index: 0.5, fetch_count: 0, related_code: '', task_directories: [], created_at: '', updated_at: '', last_used_at: null, user_preferences: '', format: 'skill-md', path: 'x/SKILL.md', body: '', hash: '', legacy: false, ...over }) as Skill
  const pdf = skill({ skill_id: '11', path: 'skills/pdf-report/SKILL.md', name: 'pdf-report', title: 'PDF report' })
  const renamed = skill({ skill_id: '12', path: 'skills/old-folder/SKILL.md', name: 'new-name', title: 'Brainstorming' })
  const calc = skill({ skill_id: '1768615161', format: 'agiagent', path: 'skill_Calculator in Python.md', title: 'Calculator in Python', name: undefined })
  const m = new SkillMatcher([pdf, renamed, calc], '/lib')
  it('names: the SKILL.md name, the folder name, a plugin-prefixed name', () => {
    expect(m.match({ kind: 'skill-tool', name: 'pdf-report' })).toEqual([pdf])
    expect(m.match({ kind: 'skill-tool', name: 'plugin:pdf-report' })).toEqual([pdf])
    expect(m.match({ kind: 'load', name: 'new-name' })).toEqual([renamed])
    expect(m.match({ kind: 'read', name: 'old-folder', path: '/elsewhere/skills/old-folder/SKILL.md' })).toEqual([renamed])
    expect(skillName(calc)).toBe('skill_Calculator in Python')
  })
  it('paths: inside the library by relative path; an AGIAgent skill file by its file name anywhere', () => {
    expect(m.match({ kind: 'read', path: '/lib/skills/pdf-report/SKILL.md', name: 'pdf-report' })).toEqual([pdf])
    expect(m.match({ kind: 'read', path: '/lib/legacy/skills/pdf-report/SKILL.md', name: 'pdf-report' })).toEqual([])
    expect(m.match({ kind: 'read', path: '/other/machine/experience/skill_Calculator in Python.md' })).toEqual([calc])
  })
  it('ids: query results; titles never match', () => {
    expect(m.match({ kind: 'query', ids: ['1768615161', '404'] })).toEqual([calc])
    expect(m.match({ kind: 'skill-tool', name: 'Brainstorming' })).toEqual([])
    expect(m.match({ kind: 'skill-tool', name: 'PDF report' })).toEqual([])
  })
})

const LOG =
  'Received user requirement: build it\n<invoke name="query_skill">\n<parameter name="query">calc</parameter>\n</invoke>\n' +
  '<invoke name="read_file">\n<parameter name="target_file">a.py</parameter>\n</invoke>\n' +
  "--- Tool Execution Results ---\n## Tool 1: query_skill\n**Result:** {'skills': [{'skill_id': '111'}, {'skill_id': '222'}]}\n## Tool 2: read_file\n**Result:** skill_id: '999'\n" +
  '❌ Task round 1 execution error: boom\nReceived user requirement: again\n<invoke name="query_skill">\n<parameter name="query">x</parameter>\n</invoke>\nID: 333\nTASK_COMPLETED: ok\n'

describe('AGIAgent query_skill results', () => {
  it('takes the ids from the call’s own result block (not the next tool’s), with offsets of errors and requirements', () => {
    const p = parseAgiAgentLog(LOG)
    expect(p.queryResults.map((q) => q.ids)).toEqual([['111', '222'], ['333']])
    expect(p.queryResults[0]!.offset).toBe(p.toolCalls[0]!.offset)
    expect(p.errorOffsets).toHaveLength(1)
    // byte offsets into the log
    const bytes = Buffer.from(LOG)
    expect(bytes.subarray(p.errorOffsets[0]!).toString()).toMatch(/^❌ Task round 1/)
    expect(p.requirementOffsets.map((o) => bytes.subarray(o, o + 25).toString())).toEqual(['Received user requirement', 'Received user requirement'])
    expect(queryResultText('prose <invoke name="x">')).toBe('prose ')
  })

  it('gives the same result whatever the chunking', () => {
    const bytes = Buffer.from(LOG + 'x'.repeat(70_000) + LOG)
    const whole = parseAgiAgentLog(bytes)
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }), (cuts) => {
        const p = new AgiAgentLogParser()
        let at = 0
        for (const c of [...new Set(cuts)].sort((a, b) => a - b)) {
          p.feed(bytes.subarray(at, c))
          at = c
        }
        p.feed(bytes.subarray(at))
        const got = p.finish()
        expect(got.queryResults).toEqual(whole.queryResults)
        expect(got.errorOffsets).toEqual(whole.errorOffsets)
        expect(got.requirementOffsets).toEqual(whole.requirementOffsets)
        expect(got.toolCalls).toEqual(whole.toolCalls)
      }),
      { numRuns: 60 }
    )
    expect(whole.queryResults.map((q) => q.ids)).toEqual([['111', '222'], ['333'], ['111', '222'], ['333']])
  })

  it('a query whose result runs past 64 KB is read up to the bound; one cut off by the end has none', () => {
    const far = '<invoke name="query_skill"><parameter name="query">q</parameter></invoke>\n' + 'y'.repeat(70_000) + "\n'skill_id': '5'\n"
    expect(parseAgiAgentLog(far).queryResults).toEqual([])
    expect(parseAgiAgentLog('<invoke name="query_skill"><parameter name="query">q</parameter>').queryResults).toEqual([])
  })

  it('the persisted scan cache keeps query results and offsets', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-cache-'))
    try {
      const file = path.join(tmp, 'c.bin')
      const parsed = parseAgiAgentLog(LOG)
      const a = new ScanCache<LogParse>(file)
      a.set('/x/manager.out', 10, 20, parsed)
      await a.save()
      const b = new ScanCache<LogParse>(file)
      await b.load()
      expect(b.get('/x/manager.out', 10, 20)).toEqual(parsed)
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true })
    }
  })
})

describe('Codex local_shell calls', () => {
  it('a `local_shell_call` printing a SKILL.md is a read', async () => {
    const { parseCodexRollout } = await import('../../src/main/scan/codex-cli')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-local-shell-'))
    try {
      const file = path.join(dir, 'rollout-x.jsonl')
      const recs = [
        { timestamp: '2026-11-01T10:00:00Z', type: 'event_msg', payload: { type: 'user_message', message: 'do it' } },
        { timestamp: '2026-11-01T10:00:01Z', type: 'response_item', payload: { type: 'local_shell_call', call_id: 'l1', status: 'completed', action: { type: 'exec', command: ['bash', '-lc', 'cat skills/pdf/SKILL.md'], working_directory: '/lib' } } },
        { timestamp: '2026-11-01T10:00:02Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'l1', output: 'Process exited with code 0' } },
        { timestamp: '2026-11-01T10:00:03Z', type: 'event_msg', payload: { type: 'task_complete', last_agent_message: 'done' } }
      ]
      fs.writeFileSync(file, recs.map((r) => JSON.stringify(r)).join('\n') + '\n')
      const [task] = await parseCodexRollout(file)
      expect(task!.skillRefs).toEqual([{ kind: 'read', path: '/lib/skills/pdf/SKILL.md', name: 'pdf', errorsAfter: 0, agent: 'codex', line: 2, at: Date.parse('2026-11-01T10:00:01Z') }])
      expect(task!.status).toBe('completed')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the id a skill file carries', () => {
  it('AGIAgent `skill_id`, SKILL.md `metadata.skillbench.skill_id`, nothing else', async () => {
    const { idOfSkillBytes } = await import('../../src/main/usage/copies')
    expect(idOfSkillBytes(Buffer.from("---\nskill_id: '17'\ntitle: x\n---\nb"))).toBe('17')
    expect(idOfSkillBytes(Buffer.from("---\nname: a\nmetadata:\n  skillbench:\n    skill_id: '0042'\n---\nb"))).toBe('0042')
    expect(idOfSkillBytes(Buffer.from('---\nname: a\n---\nb'))).toBeUndefined()
    expect(idOfSkillBytes(Buffer.from("---\nskill_id: '../x'\n---\nb"))).toBeUndefined()
    expect(idOfSkillBytes(Buffer.from('not a skill'))).toBeUndefined()
  })
})
