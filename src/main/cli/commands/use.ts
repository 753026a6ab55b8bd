import path from 'node:path'
import { parseCommandArgs, printJson, UsageError, type CliCommand } from '../common'
import { stepToNative } from '../../formats/learned-steps'
import { buildStepPlan } from '../../formats/learned-plan'
import { matchTriggers, type TriggerSkill } from '../../formats/matcher'
import { loadSkillTree } from '../../formats/tree'
import { coded, type CodedText } from '../../../shared/error-codes'
import { codedReason } from '../../../shared/coded-reason'
import { isFolder } from '../../store/is-folder'
import { say, sayReason } from '../lang'

/** Why there is no learned skill to match: no folder there, or no learned skill in it. */
async function noLearnedSkills(dir: string): Promise<CodedText> {
  return (await isFolder(dir)) ? coded('use.no_skills', { dir }) : coded('use.no_folder', { dir })
}

/** A learned skill without a trigger pattern (errors[] of --json: the words as before, the code beside them). */
const NO_TRIGGER = coded('learned.no_trigger_pattern')

const OPTIONS = { dir: { type: 'string' }, 'timeout-ms': { type: 'string' }, json: { type: 'boolean', default: false } } as const

export const command: CliCommand = {
  name: 'use',
  options: OPTIONS,
  usage: 'skillbench use "QUESTION" [--dir DIR (default .sman/skills)] [--timeout-ms N] [--json]   (exit 0 = matched, 1 = no match)',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    if (positionals.length !== 1 || positionals[0]!.trim() === '') throw new UsageError(coded('cli.give_question'))
    const timeoutMs = values['timeout-ms'] === undefined ? undefined : Number(values['timeout-ms'])
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0 && timeoutMs <= 10_000)) throw new UsageError(coded('cli.whole_number_range', { option: '--timeout-ms', min: 1, max: 10000 }))
    const dir = path.resolve(io.cwd, values.dir ?? path.join('.sman', 'skills'))
    const { skills, errors } = await loadSkillTree(dir, 'learned-yaml')
    // "no learned skill matches" would be wrong where there is none to match: say so (stderr; the output as it was)
    if (skills.length === 0 && errors.length === 0) io.stderr(`skillbench use: ${say(io, await noLearnedSkills(dir))}\n`)
    const byId = new Map<string, (typeof skills)[number]>()
    const triggers: TriggerSkill[] = []
    for (const s of skills) {
      if (!s.skill.trigger_pattern) {
        errors.push({ path: s.path, ...codedReason(NO_TRIGGER) })
        continue
      }
      const id = s.skill.learned_id ?? s.path
      byId.set(id, s)
      triggers.push({ id, name: s.skill.title, trigger_pattern: s.skill.trigger_pattern, description: s.skill.description, confidence: s.skill.confidence, path: s.path, examples: s.skill.examples })
    }
    const result = matchTriggers(positionals[0]!, triggers, { timeoutMs })
    const matches = result.matches.map((m) => {
      const steps = byId.get(m.id)?.skill.steps ?? []
      return { ...m, steps: steps.map(stepToNative), plan: buildStepPlan(steps), examples: byId.get(m.id)?.skill.examples ?? [] }
    })
    // Each rejected pattern once: on stderr for people, in the JSON (only) for programs.
    const seen = new Set<string>()
    const rejected = result.rejected.filter((r) => !seen.has(`${r.path ?? r.id}\0${r.pattern}`) && Boolean(seen.add(`${r.path ?? r.id}\0${r.pattern}`)))
    if (values.json) {
      printJson(io, { question: positionals[0], dir, matches, rejected, errors })
      return matches.length > 0 ? 0 : 1
    }
    for (const r of rejected) {
      // the English as it always was; by code (its reason too) in another language
      const reason = r.messageCode && r.params ? { messageCode: r.messageCode, params: r.params } : r.reason
      const text = `${r.path ?? r.id}: trigger_pattern ${JSON.stringify(r.pattern)} rejected: ${r.reason}`
      io.stderr(`skillbench use: ${say(io, { ...coded('use.pattern_rejected', { skill: r.path ?? r.id, pattern: JSON.stringify(r.pattern), reason }), text })}\n`)
    }
    for (const e of errors) io.stderr(`skillbench use: ${e.path}: ${sayReason(io, e)}\n`)
    if (matches.length === 0) {
      io.stdout('no learned skill matches this question\n')
    } else {
      for (const m of matches) {
        const how = m.via === 'example' ? `no pattern matched; like the example "${m.matched}" (similarity ${m.similarity})` : `matched "${m.matched}"`
        io.stdout(`${m.name}  (${m.path}${m.confidence !== null ? `, confidence ${m.confidence}` : ''}; ${how})\n`)
        for (const step of m.plan) io.stdout(`  ${step.order}. ${step.instruction}\n`)
      }
    }
    return matches.length > 0 ? 0 : 1
  }
}
