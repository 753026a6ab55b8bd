// Seed 001 (Synapse) rows of reflection through the CLI: `create` prints the seed's report as enhance and none
// do, and SYNAPSE_META_SKILLS_DIR supplies the meta-skills the model is guided by.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { main } from '../../src/main/cli/index'
import type { CliIo } from '../../src/main/cli/common'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'
import { CALC_LOG, makeRoot } from './make-root'

function io(env: NodeJS.ProcessEnv = {}) {
  const out = { stdout: '', stderr: '' }
  const value: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), isTTY: false, cwd: process.cwd(), env, signal: new AbortController().signal }
  return { io: value, out }
}

let server: OpenAiTestServer | undefined
const saved = process.env.SYNAPSE_META_SKILLS_DIR
afterEach(async () => {
  await server?.close()
  server = undefined
  if (saved === undefined) delete process.env.SYNAPSE_META_SKILLS_DIR
  else process.env.SYNAPSE_META_SKILLS_DIR = saved
})

describe('seed 001: create / enhance / none reports and the meta-skills folder', () => {
  it('create prints the seed\'s report (offline, English)', async () => {
    const root = makeRoot([{ dir: 'dan/output_calc', log: CALC_LOG }])
    const a = io()
    expect(await main(['reflect', '--root-dir', root, '--decide'], a.io)).toBe(0)
    expect(a.out.stderr).toMatch(/✅ Skill generated: .*\nSkill enhancement done:\n- Operation: new skill\n- Name: .+\n- Tools: edit_file, run_terminal_cmd\n/)
  })

  it('create prints the report in Chinese for a Chinese task, with the model guided by SYNAPSE_META_SKILLS_DIR\'s meta-skills', async () => {
    const meta = fs.mkdtempSync(path.join(os.tmpdir(), 'synapse-meta-'))
    fs.mkdirSync(path.join(meta, 'skill-creator'))
    fs.writeFileSync(path.join(meta, 'skill-creator', 'SKILL.md'), '---\nname: skill-creator\ndescription: house rules\n---\nHOUSE-RULE-7: names are gerunds.\n')
    process.env.SYNAPSE_META_SKILLS_DIR = meta
    const answer = ['OPERATION: create', 'NAME: analyzing-logs', 'TOOLS: search, read, glob', 'REASON: 可复用的日志分析流程', 'CHANGES:', '- 分析日志文件', '- 寻找错误信息', 'CONTENT:', '# 分析日志', '', '先 glob 再 read。'].join('\n')
    server = await startOpenAiServer(() => ({ json: chatCompletion(answer) }))
    const call = (name: string, p: string, v: string): string => `<invoke name="${name}">\n<parameter name="${p}">${v}</parameter>\n</invoke>\n`
    const log = `Received user requirement: 帮我分析 error.log 找出所有报错原因\n初始化完成，我正在分析需求中...\n${call('glob', 'pattern', '**/*.log')}${call('read_file', 'target_file', 'error.log')}${call('grep_search', 'query', 'ERROR|WARN')}${call('edit_file', 'target_file', 'report.md')}TASK_COMPLETED: 完成🎉 Workflow completed!\n`
    const root = makeRoot([{ dir: 'dan/output_logs', log }])
    const a = io({ OPENAI_API_KEY: 'sk-test' })
    expect(await main(['reflect', '--root-dir', root, '--decide', '--llm', 'openai', '--base-url', server.url, '--model', 'm'], a.io)).toBe(0)
    expect(a.out.stderr).toContain('技能强化完成：\n- 操作：新增技能\n- 名称：analyzing-logs\n- 包含工具：search, read, glob\n- 技能内容：\n  - 分析日志文件\n  - 寻找错误信息\n')
    const system = JSON.stringify(server.requests.map((r) => r.body))
    expect(system).toContain('HOUSE-RULE-7: names are gerunds.')
    // skill-enhance is not in the user's folder: the bundled one is used.
    expect(system).toContain('<meta_skill name=\\"skill-enhance\\">')
  }, 30_000)
})
