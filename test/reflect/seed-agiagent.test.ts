// Seed 000 rows of reflection through the CLI: the requirement stops at the requirement, and a model's
// "User preferences" section fills the skill's user_preferences.
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { main } from '../../src/main/cli/index'
import type { CliIo } from '../../src/main/cli/common'
import { libraryDirFor } from '../../src/main/reflect/run-reflection'
import { preferencesFromAnswer } from '../../src/main/reflect/answer-preferences'
import { parseAgiAgentLog } from '../../src/main/scan/agiagent-parser'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'
import { makeRoot, skillFiles } from './make-root'

function io(env: NodeJS.ProcessEnv = {}) {
  const out = { stdout: '', stderr: '' }
  const value: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), isTTY: false, cwd: process.cwd(), env, signal: new AbortController().signal }
  return { io: value, out }
}

const SORT_LOG = [
  'Received user requirement: add merge sort to sort.py',
  'ok working on it',
  '<invoke name="edit_file">',
  '  <parameter name="target_file">sort.py</parameter>',
  '  <parameter name="code_edit">def merge_sort(xs):\n    return sorted(xs)\n</parameter>',
  '</invoke>',
  'TASK_COMPLETED: merge sort added🎉 Workflow completed!',
  ''
].join('\n')

let server: OpenAiTestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

describe('seed 000: reflection reads what was asked and what the user prefers', () => {
  it('the requirement stops at the requirement: the agent\'s next line is not pulled in', async () => {
    expect(parseAgiAgentLog(SORT_LOG).requirements).toEqual(['add merge sort to sort.py'])
    // Plain agent text that ends at the end of the log, or before an emoji line, is not the user's either.
    expect(parseAgiAgentLog('Received user requirement: add merge sort to sort.py\nok working on it\n').requirements).toEqual(['add merge sort to sort.py'])
    expect(parseAgiAgentLog('Received user requirement: add merge sort\nsure, on it\n💬 done\n').requirements).toEqual(['add merge sort'])
    // A multi-line requirement closed by AGIAgent's own header (also behind an emoji) stays whole.
    expect(parseAgiAgentLog('Received user requirement: write a tool that:\n1. reads a.csv\n🏷️ Using agent ID for task execution: manager\n').requirements).toEqual(['write a tool that:\n1. reads a.csv'])
    const root = makeRoot([{ dir: 'alice/output_sort', log: SORT_LOG }])
    const a = io()
    expect(await main(['scan', '--root-dir', root, '--json'], a.io)).toBe(0)
    expect(JSON.parse(a.out.stdout).tasks[0].requirements).toEqual(['add merge sort to sort.py'])
  })

  it('a model\'s "User preferences" section fills user_preferences (with the log\'s own 记住 first)', async () => {
    const answer = [
      '# Merge sort in an existing module',
      '',
      'The agent added merge sort to sort.py in one edit.',
      '',
      '## User preferences',
      '- Prefers small, dependency-free functions',
      '- Wants the tests run before finishing',
      '',
      '## Lessons',
      '- Read the file before editing it.',
      '',
      'USAGE_CONDITIONS: when adding a sorting algorithm to an existing module'
    ].join('\n')
    server = await startOpenAiServer(() => ({ json: chatCompletion(answer) }))
    const log = SORT_LOG.replace('ok working on it', '记住：代码注释用中文\n\nInitialization complete, analysing the requirement...')
    const root = makeRoot([{ dir: 'alice/output_sort', log }])
    const a = io({ OPENAI_API_KEY: 'sk-test' })
    expect(await main(['reflect', '--root-dir', root, '--llm', 'openai', '--base-url', server.url, '--model', 'm'], a.io)).toBe(0)
    const lib = libraryDirFor(root, 'alice')
    const [file] = skillFiles(lib)
    const text = fs.readFileSync(path.join(lib, file!), 'utf8')
    expect(text).toContain('user_preferences: 代码注释用中文; Prefers small, dependency-free functions; Wants the tests run before finishing')
    expect(preferencesFromAnswer('### 用户偏好\n用户偏好简洁的代码实现\n\n### 经验\n')).toBe('用户偏好简洁的代码实现')
    expect(preferencesFromAnswer('**User preferences:** none stated\n')).toBe('')
    expect(preferencesFromAnswer('4. **用户偏好**：无\n5. **其他**：x')).toBe('')
  }, 30_000)
})
