/**
 * Skill-format figures (issue 6):
 * - converting a generated tree of learned skills to SKILL.md folders and back (goal: ≥ 200 skills/s each way,
 *   writes atomic, index.json regenerated once);
 * - the 36 real SKILL.md skills (anthropics/obra/openai) through SKILL.md → agiagent → SKILL.md in memory;
 * - `use` matching one question against 1,000 trigger patterns (goal: interactive, < 50 ms), and the cost of the
 *   catastrophic `^(a+)+$` on "a…a!" with the static check (rejected up front) and with only the time bound.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { convertTree } from '../src/main/formats/convert'
import { fromAgiAgent, parseAgiAgent, serializeAgiAgent, toAgiAgent } from '../src/main/formats/agiagent'
import { matchTriggers, type TriggerSkill } from '../src/main/formats/matcher'
import { execWithTimeout, RegexTimeoutError } from '../src/main/formats/regex-guard'
import { fromSkillMd, parseSkillMd, serializeSkillMd, toSkillMd } from '../src/main/formats/skill-md'
import { loadSkillTree } from '../src/main/formats/tree'

const N = Number(process.env.FORMATS_BENCH_SKILLS ?? 1000)
const REAL = path.resolve(__dirname, '..', '..', 'shared', 'data', 'real', 'skills')

function learnedYaml(i: number): string {
  return [
    `id: skill_${i}`,
    `name: Generated skill ${i}`,
    `description: Does task ${i} with tools; use when the user mentions topic${i}`,
    `trigger_pattern: "topic${i}\\\\b|任务${i}"`,
    `confidence: ${(i % 100) / 100}`,
    'tags: [bench, generated]',
    'steps:',
    ...[1, 2, 3].flatMap((k) => [`  - order: ${k}`, `    action: tool_${k}`, '    params:', `      path: "src/f${i}_${k}.py"`, `    expectedResult: result ${k}`]),
    'examples:',
    `  - "How do I do topic${i}?"`,
    `createdAt: ${1767225600000 + i}`,
    'sourceFiles: []',
    ''
  ].join('\n')
}

function ms(t0: number): number {
  return performance.now() - t0
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-formats-'))
  try {
    const src = path.join(root, 'learned')
    fs.mkdirSync(src)
    for (let i = 0; i < N; i++) fs.writeFileSync(path.join(src, `skill_${i}.yaml`), learnedYaml(i))
    let t0 = performance.now()
    const toMd = await convertTree(src, path.join(root, 'md'), 'skill-md')
    const exportMs = ms(t0)
    t0 = performance.now()
    const back = await convertTree(path.join(root, 'md'), path.join(root, 'back'), 'learned-yaml')
    const backMs = ms(t0)

    let realMs = 0
    let realCount = 0
    if (fs.existsSync(REAL)) {
      const { skills } = await loadSkillTree(REAL, 'skill-md')
      const mine = skills.filter((s) => !s.path.startsWith('composiohq'))
      t0 = performance.now()
      for (const s of mine) {
        const agi = fromAgiAgent(parseAgiAgent(serializeAgiAgent(toAgiAgent(s.skill))))
        fromSkillMd(parseSkillMd(serializeSkillMd(toSkillMd(agi))))
      }
      realMs = ms(t0)
      realCount = mine.length
    }

    const triggers: TriggerSkill[] = Array.from({ length: N }, (_, i) => ({ id: `s${i}`, name: `skill ${i}`, trigger_pattern: `topic${i}\\b|任务${i}`, confidence: (i % 100) / 100 }))
    matchTriggers('warm up topic1', triggers)
    const times: number[] = []
    for (let k = 0; k < 20; k++) {
      t0 = performance.now()
      matchTriggers(`How do I do topic${k * 37} quickly?`, triggers)
      times.push(ms(t0))
    }
    times.sort((a, b) => a - b)
    const evil = [{ id: 'e', name: 'evil', trigger_pattern: '^(a+)+$' }]
    t0 = performance.now()
    matchTriggers('a'.repeat(40) + '!', evil)
    const staticMs = ms(t0)
    t0 = performance.now()
    let timedOut = false
    try {
      execWithTimeout(/^(a+)+$/, 'a'.repeat(40) + '!', 50)
    } catch (err) {
      timedOut = err instanceof RegexTimeoutError
    }
    const boundMs = ms(t0)

    const rate = (n: number, t: number): string => `${Math.round((n / t) * 1000)} skills/s`
    console.log('## Skill formats (issue 6)\n')
    console.log('| measure | result | goal |')
    console.log('|---|---|---|')
    console.log(`| learned YAML → SKILL.md folders, ${N} skills (+ index.json) | ${exportMs.toFixed(0)} ms, ${rate(toMd.written.length, exportMs)} | ≥ 200 skills/s |`)
    console.log(`| SKILL.md → learned YAML, ${N} skills | ${backMs.toFixed(0)} ms, ${rate(back.written.length, backMs)} | ≥ 200 skills/s |`)
    if (realCount) console.log(`| ${realCount} real SKILL.md → agiagent → SKILL.md (in memory, text both ways) | ${realMs.toFixed(0)} ms, ${(realMs / realCount).toFixed(2)} ms/skill | — |`)
    console.log(`| \`use\`: 1 question × ${N} trigger patterns, p50 / max of 20 | ${times[10]!.toFixed(1)} ms / ${times[19]!.toFixed(1)} ms | < 50 ms |`)
    console.log(`| \`^(a+)+$\` on "a×40!": static check rejects it | ${staticMs.toFixed(2)} ms | no hang |`)
    console.log(`| \`^(a+)+$\` on "a×40!": time bound alone (50 ms budget) | ${boundMs.toFixed(0)} ms, timed out: ${timedOut} | ≈ budget |`)
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

void main()
