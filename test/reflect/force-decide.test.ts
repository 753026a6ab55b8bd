/**
 * `reflect --decide` prints the seed's decision report for every task it reflects; with `--force` a task a skill came
 * from went to the skill's update (reflect-again) without one, and so did a frozen skill's finished version under
 * `--decide` alone. Now both print a report of what was done (the skill enhanced through review, or nothing to
 * change), in the task's language, after the run's line; the summary's decisions and the reflection log have it too,
 * and the human summary counts each task once. The real CLI entry (main) on real data roots, offline.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../src/main/cli/index'
import type { CliIo } from '../../src/main/cli/common'
import { reflectOffline } from '../../src/main/reflect/offline-reflector'
import { libraryDirFor } from '../../src/main/reflect/run-reflection'
import { updateDecision } from '../../src/main/reflect/update-decision'
import { formatDecisionReport } from '../../src/main/reflect/decide'
import type { Proposal } from '../../src/shared/types'
import { scanRoot } from '../../src/main/scan/scan-root'
import { openLibrary } from '../../src/main/store/library'
import { CALC_LOG, makeRoot, skillFiles } from './make-root'

const ZH_LOG = CALC_LOG.replace('Write a Python calculator with unit tests', '用 Python 写一个计算器，并写单元测试').replace('calculator done', '计算器完成')

async function cli(root: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' }
  const io: CliIo = { stdout: (t) => void (out.stdout += String(t)), stderr: (t) => void (out.stderr += t), isTTY: false, cwd: root, env: {}, signal: new AbortController().signal }
  expect(await main(args, io), out.stderr).toBe(0)
  return out
}

interface Summary {
  created: unknown[]
  skipped: { taskDir: string; messageCode?: string }[]
  proposals?: string[]
  decisions?: { operation: string; taskDir: string; skill_id?: string; name: string; reason?: string; changes?: string[] }[]
}

/** Every line of the library's reflection logs. */
function logLines(lib: string): string[] {
  const dir = path.join(lib, 'logs')
  return fs.readdirSync(dir).flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n'))
}

describe('reflect --force --decide on a task a skill came from', () => {
  it('prints the decision report as --decide alone does: nothing to change, then an update proposed; counted once', async () => {
    const root = makeRoot([{ dir: 'alice/output_calc', log: CALC_LOG }])
    const lib = libraryDirFor(root, 'alice')
    const made = await cli(root, ['reflect', '--root-dir', root, '--decide'])
    // --decide alone: the report after the line of the skill it made
    expect(made.stderr).toMatch(/Skill enhancement done:\n- Operation: new skill\n/)
    const file = skillFiles(lib)[0]!
    const title = 'Write a Python calculator with unit tests'

    const same = await cli(root, ['reflect', '--root-dir', root, '--force', '--decide'])
    expect(same.stderr).toContain(
      [
        `reflected again: "${title}", the skill made from this task, stays as it is (the new reflection adds nothing)`,
        'Skill enhancement analysis done:',
        '- Decision: nothing to change',
        `- Reason: reflected again: "${title}", the skill made from this task, already says what the new reflection says`
      ].join('\n')
    )
    expect(same.stdout).toMatch(
      /^Created 0 skill\(s\); 0 enhancement\(s\) proposed for review, 0 task\(s\) needing nothing; reflected again 1 \(0 update\(s\) of their skills proposed for review, 1 without a new update\); skipped 0 already reflected; failed 0\.\n/
    )
    const sameJson = JSON.parse((await cli(root, ['reflect', '--root-dir', root, '--force', '--decide', '--json'])).stdout) as Summary
    expect(sameJson.decisions?.map((d) => [d.taskDir, d.operation, d.name])).toEqual([['output_calc', 'none', title]])

    // a person changed the skill: the new reflection is an update of it, proposed for review, and the report says so
    fs.appendFileSync(path.join(lib, file), '\nA line a person added by hand.\n')
    const updated = await cli(root, ['reflect', '--root-dir', root, '--force', '--decide'])
    expect(updated.stderr).toMatch(
      new RegExp(
        `reflected again: update of "${title}", the skill made from this task, proposed for review \\(again-[0-9a-f]{12}\\)\\n` +
          `Skill enhancement done:\\n- Operation: enhance skill\\n- Name: ${title}\\n- Changes:\\n  - The skill's text replaced by this task's new reflection\\n`
      )
    )
    expect(updated.stdout).toMatch(/^Created 0 skill\(s\); 0 enhancement\(s\) proposed for review, 0 task\(s\) needing nothing; reflected again 1 \(1 update\(s\) of their skills proposed for review, 0 without a new update\); skipped 0 already reflected; failed 0\.\n/)
    const again = JSON.parse((await cli(root, ['reflect', '--root-dir', root, '--force', '--decide', '--json'])).stdout) as Summary
    expect(again.skipped.map((s) => s.messageCode)).toEqual(['reflect.again_proposed_before'])
    expect(again.decisions).toHaveLength(1)
    expect(again.decisions![0]).toMatchObject({ taskDir: 'output_calc', operation: 'enhance', name: title })
    const skillId = again.decisions![0]!.skill_id!
    expect(skillId).toMatch(/^\d+$/)
    // the reflection log keeps each decision, as for --decide alone
    const lines = logLines(lib)
    expect(lines.some((l) => l.includes(`Decision for output_calc: none (skill ${skillId}) - reflected again:`))).toBe(true)
    expect(lines.some((l) => l.includes(`Decision for output_calc: enhance (skill ${skillId}) - reflected again:`))).toBe(true)
    // --force alone prints no report
    const plain = await cli(root, ['reflect', '--root-dir', root, '--force'])
    expect(plain.stderr).not.toContain('Skill enhancement')
  })

  it('a Chinese task: the report in Chinese, the line too with --lang zh', async () => {
    const root = makeRoot([{ dir: 'zoe/output_calc', log: ZH_LOG }])
    await cli(root, ['reflect', '--root-dir', root, '--decide'])
    const run = await cli(root, ['--lang', 'zh', 'reflect', '--root-dir', root, '--force', '--decide'])
    expect(run.stderr).toMatch(/^已重新反思：“(.+)”（由此任务生成的技能）保持不变（新的反思没有新增内容）\n技能强化分析完成：\n- 结论：无需强化\n- 原因：重新反思：由此任务生成的技能「\1」已包含新的反思内容，保持不变$/m)
    expect(run.stderr).not.toContain('Skill enhancement')
  })
})

describe('reflect --decide on a frozen skill whose task has finished', () => {
  it('prints the report of its finished version, proposed for review', async () => {
    const TASK = 'output_20260101_000001'
    const root = makeRoot([{ dir: `eve/${TASK}`, log: ZH_LOG.replace(/TASK_COMPLETED:.*\n/, '') }])
    const lib = libraryDirFor(root, 'eve')
    fs.mkdirSync(lib, { recursive: true })
    const draft = reflectOffline((await scanRoot({ rootDir: root })).tasks[0]!)
    const skill = await (await openLibrary(lib)).create({ skill_id: '1767225600', title: draft.title, body: draft.body, usage_conditions: draft.usageConditions, task_directories: [TASK] })
    fs.writeFileSync(path.join(root, 'eve', TASK, 'logs', 'manager.out'), ZH_LOG)

    const run = await cli(root, ['reflect', '--root-dir', root, '--decide'])
    expect(run.stderr).toMatch(
      new RegExp(
        `finished since its skill was written unfinished: update of ".*" proposed for review \\(finished-[0-9a-f]{12}\\)\\n` +
          `技能强化完成：\\n- 操作：强化技能\\n- 名称：${skill.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n- 强化内容：\\n  - 用完成后的任务替换步骤和结果\\n`
      )
    )
    expect(run.stdout).toMatch(/^Created 0 skill\(s\); 1 enhancement\(s\) proposed for review, 0 task\(s\) needing nothing; skipped 0 already reflected; failed 0\.\n/)
    expect(logLines(lib).some((l) => l.includes(`Decision for ${TASK}: enhance (skill 1767225600) - 任务已完成，而技能「`))).toBe(true)
  })
})

describe('updateDecision (pure)', () => {
  it('a skill holding other tasks too gets only what it lacks: the report lists those changes', async () => {
    const root = makeRoot([{ dir: 'alice/output_calc', log: CALC_LOG }])
    const trace = (await scanRoot({ rootDir: root })).tasks[0]!
    const proposal = { id: 'enhance-0123456789ab', evidence: { task: 'output_calc', similarity: 1, changes: ['Added pitfall: No module named pytest'] } } as unknown as Proposal
    const report = updateDecision({ kind: 'again', skill: { title: 'Calculator', skill_id: '7' }, trace, proposal, author: 'offline', language: 'en' })
    expect(report).toMatchObject({ operation: 'enhance', name: 'Calculator', skill_id: '7', taskDir: 'output_calc', tools_used: ['edit_file', 'run_terminal_cmd'] })
    expect(formatDecisionReport(report, 'en')).toBe('Skill enhancement done:\n- Operation: enhance skill\n- Name: Calculator\n- Changes:\n  - Added pitfall: No module named pytest')
  })
})
