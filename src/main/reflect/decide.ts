/**
 * Create, enhance or nothing (issue 6): after a task, find the closest existing skills and decide whether
 * the library gets a new skill, an existing skill gets a reviewable enhancement, or nothing changes.
 *
 * Offline rules (documented thresholds, on query_skill's TF-IDF cosine similarity of the best match):
 * - trivial task (no tool calls, no errors, a requirement of a few words or a greeting) → none;
 * - similarity ≥ COVERED (0.6) and the task completed without errors or interruptions → none (covered);
 * - similarity ≥ ENHANCE (0.3) → enhance that skill with what is new (pitfalls, an example request,
 *   stated preferences); nothing new → none;
 * - otherwise → create.
 * With a model, the decision is the model's, guided by the `skill-creator` / `skill-enhance` meta-skills.
 */
import path from 'node:path'
import { createHash } from 'node:crypto'
import type { Proposal, QueriedSkill, Skill, TaskTrace } from '../../shared/types'
import { rewriteSkillText } from '../review/changes'
import { LlmError } from '../llm/errors'
import type { ChatMessage, LlmClient } from '../llm/types'
import { formatTimestamp } from '../store/skill-meta'
import { buildReflectionInput } from './build-input'
import { detectLanguage, type ReflectLanguage } from './language'
import { extractPreferences, reflectOffline, titleFromRequirement } from './offline-reflector'
import { readResourceText } from './resources'
import { clip, oneLine } from './text-utils'
import type { DecisionOperation, DecisionReport, ReflectionDraft } from './types'
import { coded } from '../../shared/error-codes'

export type { DecisionOperation, DecisionReport } from './types'

/** An enhancement before it becomes a proposal: the new body of an existing skill. */
export interface Enhancement {
  skill: QueriedSkill
  newBody: string
  changes: string[]
}

export interface Decision {
  report: DecisionReport
  /** create: the skill to write. */
  draft?: ReflectionDraft
  /** enhance: the new body, to become a reviewable proposal. */
  enhancement?: Enhancement
}

export interface DecideThresholds {
  /** Best similarity at or above which a task that went well is already covered. */
  covered: number
  /** Best similarity at or above which the closest skill is enhanced instead of creating one. */
  enhance: number
}

export const DEFAULT_DECIDE_THRESHOLDS: DecideThresholds = { covered: 0.6, enhance: 0.3 }

/** The text a task is looked up by in the library (query_skill). */
export function decisionQuery(trace: TaskTrace, draft?: ReflectionDraft): string {
  return clip([draft?.title ?? '', ...trace.requirements, draft?.usageConditions ?? ''].join('\n'), 4_000)
}

/** Distinct tool names in first-use order. */
export function toolsUsed(trace: TaskTrace): string[] {
  return [...new Set(trace.toolCalls.map((c) => c.name))]
}

const GREETING_ONLY = /^(?:你好|您好|hi|hello|hey|嗨|哈喽|谢谢|thanks?|thank you|ok|好的)[\s,，!！.。~～]*$/i

/** A task with nothing to reuse: no tools, no errors, and a greeting or a request of a few words. */
export function isTrivialTask(trace: TaskTrace): boolean {
  if (trace.toolCalls.length || trace.errors.length) return false
  const reqs = [...new Set(trace.requirements.map((r) => oneLine(r)))].filter(Boolean)
  if (reqs.length === 0) return true
  return reqs.every((r) => GREETING_ONLY.test(r) || r.replace(/\s+/g, '').length < 6)
}

/** Decides by the rules in this file's header. Pure. */
export function decideOffline(
  trace: TaskTrace,
  candidates: readonly QueriedSkill[],
  thresholds: DecideThresholds = DEFAULT_DECIDE_THRESHOLDS,
  draft: ReflectionDraft = reflectOffline(trace)
): Decision {
  const tools = toolsUsed(trace)
  const base = { tools_used: tools, taskDir: trace.taskDir, author: 'offline' }
  const zh = draft.language === 'zh'
  if (isTrivialTask(trace)) {
    return { report: { ...base, operation: 'none', name: draft.title, reason: zh ? '任务过于简单，没有可复用的内容' : 'the task is too trivial to reuse' } }
  }
  const best = [...candidates].sort((a, b) => b.similarity_score - a.similarity_score)[0]
  const similarity = best?.similarity_score ?? 0
  const wentWell = trace.completed && trace.errors.length === 0 && trace.interruptions === 0 && !trace.toolCalls.some((c) => c.ok === false)
  if (best && similarity >= thresholds.covered && wentWell) {
    return {
      report: {
        ...base,
        operation: 'none',
        name: best.title,
        skill_id: best.skill_id,
        similarity,
        reason: zh
          ? `已由技能「${best.title}」覆盖（相似度 ${similarity.toFixed(2)}），任务执行顺利`
          : `already covered by "${best.title}" (similarity ${similarity.toFixed(2)}) and the task went well`
      }
    }
  }
  if (best && similarity >= thresholds.enhance) {
    const enhancement = offlineEnhancement(trace, draft, best)
    if (!enhancement) {
      return {
        report: {
          ...base,
          operation: 'none',
          name: best.title,
          skill_id: best.skill_id,
          similarity,
          reason: zh ? `与技能「${best.title}」相近，但本次任务没有新的经验` : `close to "${best.title}" but the task taught nothing it lacks`
        }
      }
    }
    return {
      report: {
        ...base,
        operation: 'enhance',
        name: best.title,
        skill_id: best.skill_id,
        similarity,
        changes: enhancement.changes,
        reason: zh ? `与技能「${best.title}」相近（相似度 ${similarity.toFixed(2)}），补充新经验` : `close to "${best.title}" (similarity ${similarity.toFixed(2)}); adds what this task taught`
      },
      enhancement
    }
  }
  return {
    report: {
      ...base,
      operation: 'create',
      name: draft.title,
      similarity,
      changes: outline(draft.body),
      reason: best
        ? zh
          ? `最接近的技能「${best.title}」相似度仅 ${similarity.toFixed(2)}`
          : `the closest skill "${best.title}" is only ${similarity.toFixed(2)} similar`
        : zh
          ? '技能库中没有相关技能'
          : 'no related skill in the library'
    },
    draft
  }
}

/** What the task adds to a close skill: new pitfalls, the request as an example, stated preferences. Undefined when nothing. */
export function offlineEnhancement(trace: TaskTrace, draft: ReflectionDraft, skill: QueriedSkill): Enhancement | undefined {
  const zh = draft.language === 'zh'
  const known = normalise(`${skill.content}\n${skill.user_preferences}\n${skill.usage_conditions}`)
  const pitfalls = sectionItems(draft.body, zh ? '踩坑与解决' : 'Pitfalls and fixes')
    // interruptions are about this run, not lessons for the skill
    .filter((p) => !/^(the user interrupted|用户中断了)/i.test(p))
    .filter((p) => !known.includes(normalise(p).slice(0, 40)))
  const prefs = extractPreferences(trace).filter((p) => !known.includes(normalise(p).slice(0, 30)))
  const request = oneLine(trace.requirements[0] ?? '')
  const example = request && !known.includes(normalise(request).slice(0, 40)) && (pitfalls.length || prefs.length || trace.toolCalls.length) ? request : ''
  const lines: string[] = []
  const changes: string[] = []
  for (const p of pitfalls.slice(0, 5)) {
    lines.push(`- ${zh ? '坑' : 'Pitfall'}: ${p}`)
    changes.push(`${zh ? '新增踩坑' : 'Added pitfall'}: ${clip(p, 120)}`)
  }
  for (const p of prefs.slice(0, 3)) {
    lines.push(`- ${zh ? '用户偏好' : 'User preference'}: ${p}`)
    changes.push(`${zh ? '新增用户偏好' : 'Added preference'}: ${clip(p, 120)}`)
  }
  if (example) {
    lines.push(`- ${zh ? '示例请求' : 'Example request'}: ${clip(example, 300)}${trace.files.length ? ` → ${trace.files.slice(0, 5).map((f) => `\`${f}\``).join(', ')}` : ''}`)
    changes.push(`${zh ? '新增示例' : 'Added example'}: ${clip(example, 120)}`)
  }
  if (!changes.length) return undefined
  const heading = zh ? `## 补充经验（来自 ${trace.taskDir}）` : `## More from ${trace.taskDir}`
  const newBody = `${skill.content.replace(/\s+$/, '')}\n\n${heading}\n${lines.join('\n')}\n`
  return { skill, newBody, changes }
}

/** A reviewable `enhance` proposal: the skill file before and after (front matter kept, the task recorded). */
export function enhanceProposal(args: {
  skill: Skill
  raw: string
  enhancement: Enhancement
  taskDir: string
  author: string
  now: Date
}): Proposal {
  const { skill, raw, enhancement, taskDir } = args
  const dirs = skill.task_directories.includes(taskDir) ? [...skill.task_directories] : [...skill.task_directories, taskDir]
  const after = rewriteSkillText(raw, skill, { task_directories: dirs, updated_at: formatTimestamp(args.now) }, enhancement.newBody)
  return {
    id: enhanceProposalId(skill.skill_id, taskDir),
    kind: 'enhance',
    members: [{ skill_id: skill.skill_id, title: skill.title, path: skill.path }],
    score: enhancement.skill.similarity_score,
    reason: enhancement.changes.join('; '),
    evidence: { similarity: enhancement.skill.similarity_score, task: taskDir, changes: enhancement.changes },
    changes: [{ path: skill.path, before: raw, after }],
    status: 'pending',
    author: args.author
  }
}

/** Stable id: the same task proposed for the same skill twice is one proposal. */
export function enhanceProposalId(skillId: string, taskDir: string): string {
  return `enhance-${createHash('sha1').update(`${skillId}\u0000${taskDir}`).digest('hex').slice(0, 12)}`
}

/** The report as the seed prints it (技能强化完成：- 操作：… / Skill enhancement done: - Operation: …). */
export function formatDecisionReport(r: DecisionReport, language: ReflectLanguage): string {
  const zh = language === 'zh'
  const lines: string[] = []
  if (r.operation === 'none') {
    lines.push(zh ? '技能强化分析完成：' : 'Skill enhancement analysis done:')
    lines.push(zh ? '- 结论：无需强化' : '- Decision: nothing to change')
    lines.push(`${zh ? '- 原因：' : '- Reason: '}${r.reason ?? ''}`)
    return lines.join('\n')
  }
  lines.push(zh ? '技能强化完成：' : 'Skill enhancement done:')
  lines.push(`${zh ? '- 操作：' : '- Operation: '}${r.operation === 'create' ? (zh ? '新增技能' : 'new skill') : zh ? '强化技能' : 'enhance skill'}`)
  lines.push(`${zh ? '- 名称：' : '- Name: '}${r.name}`)
  if (r.operation === 'create') lines.push(`${zh ? '- 包含工具：' : '- Tools: '}${r.tools_used.join(', ') || '-'}`)
  if (r.changes?.length) {
    lines.push(r.operation === 'create' ? (zh ? '- 技能内容：' : '- Contents:') : zh ? '- 强化内容：' : '- Changes:')
    for (const c of r.changes) lines.push(`  - ${c}`)
  }
  return lines.join('\n')
}

// ---------- with a model ----------

type Label = 'OPERATION' | 'SKILL_ID' | 'NAME' | 'TOOLS' | 'REASON' | 'CHANGES' | 'CONTENT'

/** Reads `LABEL: value` blocks (CONTENT runs to the end). Tolerant of case, Markdown bold and missing labels. */
export function parseDecisionAnswer(text: string): Partial<Record<Label, string>> {
  const out: Partial<Record<Label, string>> = {}
  let current: Label | undefined
  const buf: string[] = []
  const flush = (): void => {
    if (current) out[current] = buf.join('\n').trim()
    buf.length = 0
  }
  for (const line of String(text ?? '').replace(/\r\n?/g, '\n').split('\n')) {
    const m = current === 'CONTENT' ? null : /^[\s>*#_`-]*(OPERATION|SKILL[_ ]ID|NAME|TOOLS|REASON|CHANGES|CONTENT)[\s*_`]*[:：][\s*_`]*(.*)$/i.exec(line)
    if (m) {
      flush()
      current = m[1]!.toUpperCase().replace(' ', '_') as Label
      if (m[2]) buf.push(m[2])
      continue
    }
    if (current) buf.push(line)
  }
  flush()
  return out
}

/**
 * Where the user keeps their own meta-skills (Synapse's `SYNAPSE_META_SKILLS_DIR`, holding `skill-creator/SKILL.md`
 * and `skill-enhance/SKILL.md`); a meta-skill missing there comes from resources/meta-skills. Null when unset.
 */
export function metaSkillsDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const dir = env.SYNAPSE_META_SKILLS_DIR?.trim()
  return dir ? path.resolve(dir) : null
}

/** The decision system prompt: the editable decide prompt plus both meta-skills. */
export function decideSystemPrompt(language: ReflectLanguage, dir?: string): string {
  const decide = readResourceText(`prompts/${language}/decide-system.md`, FALLBACK_DECIDE, dir)
  const meta = metaSkillsDir()
  const creator = (meta && readResourceText('skill-creator/SKILL.md', '', meta)) || readResourceText('meta-skills/skill-creator/SKILL.md', '', dir)
  const enhance = (meta && readResourceText('skill-enhance/SKILL.md', '', meta)) || readResourceText('meta-skills/skill-enhance/SKILL.md', '', dir)
  return [decide, creator && `<meta_skill name="skill-creator">\n${creator}\n</meta_skill>`, enhance && `<meta_skill name="skill-enhance">\n${enhance}\n</meta_skill>`]
    .filter(Boolean)
    .join('\n\n')
}

const FALLBACK_DECIDE = [
  'Decide whether a finished task should create a new skill, enhance an existing one, or change nothing.',
  'Answer with lines OPERATION: create|enhance|none, SKILL_ID:, NAME:, TOOLS:, REASON:, CHANGES: (one "- " line each), CONTENT: (the whole new body).'
].join('\n')

/** Asks the model to decide; the answer is checked (the skill to enhance must be a candidate). */
export async function decideWithLlm(
  llm: LlmClient,
  trace: TaskTrace,
  candidates: readonly QueriedSkill[],
  opts: { budgetChars: number; rawLog?: string; signal?: AbortSignal; resourcesDir?: string }
): Promise<Decision> {
  const input = buildReflectionInput(trace, { budgetChars: Math.floor(opts.budgetChars * 0.6), rawLog: opts.rawLog })
  const per = Math.max(500, Math.floor((opts.budgetChars * 0.4) / Math.max(1, candidates.length)))
  const skillsText = candidates.length
    ? candidates
        .map((c) => `### SKILL_ID ${c.skill_id} (similarity ${c.similarity_score.toFixed(2)})\nTitle: ${c.title}\nUse when: ${c.usage_conditions}\n\n${clip(c.content, per)}`)
        .join('\n\n')
    : '(the library has no related skill)'
  const strip = (t: string): string => t.replace(/<\/?(task_log|candidate_skills)>/gi, '[marker]')
  const messages: ChatMessage[] = [
    { role: 'system', content: decideSystemPrompt(input.language, opts.resourcesDir) },
    { role: 'user', content: `<task_log>\n${strip(input.text)}\n</task_log>\n\n<candidate_skills>\n${strip(skillsText)}\n</candidate_skills>` }
  ]
  const reply = await llm.chat({ messages, maxTokens: 4000, signal: opts.signal })
  const a = parseDecisionAnswer(reply.text)
  const author = reply.model || llm.model
  const op = (a.OPERATION ?? '').toLowerCase().match(/create|enhance|none/)?.[0] as DecisionOperation | undefined
  if (!op) throw new LlmError('bad_answer', coded('reflect.no_operation'), 1)
  const tools = a.TOOLS ? a.TOOLS.split(/[,，]/).map((t) => t.trim()).filter(Boolean).slice(0, 30) : toolsUsed(trace)
  const changes = (a.CHANGES ?? '')
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').trim())
    .filter(Boolean)
    .slice(0, 20)
    .map((c) => clip(c, 300))
  const reason = clip(oneLine(a.REASON ?? ''), 500)
  const content = clip((a.CONTENT ?? '').replace(/^```(?:markdown|md)?\n([\s\S]*?)\n?```$/i, '$1').trim(), 60_000)
  const base = { tools_used: tools, taskDir: trace.taskDir, author, reason }
  const language = detectLanguage(trace.requirements.join('\n'))
  if (op === 'none') {
    const target = candidates.find((c) => c.skill_id === (a.SKILL_ID ?? '').trim())
    return { report: { ...base, operation: 'none', name: clip(oneLine(a.NAME ?? target?.title ?? ''), 100), skill_id: target?.skill_id } }
  }
  if (op === 'enhance') {
    const target = candidates.find((c) => c.skill_id === (a.SKILL_ID ?? '').replace(/[^0-9]/g, ''))
    if (!target) throw new LlmError('bad_answer', coded('reflect.enhance_not_candidate', { id: clip(a.SKILL_ID ?? '', 40) }), 1)
    if (!content) throw new LlmError('bad_answer', coded('reflect.enhance_no_content'), 1)
    const enhancement: Enhancement = { skill: target, newBody: content + '\n', changes: changes.length ? changes : [reason || 'enhanced'] }
    return {
      report: { ...base, operation: 'enhance', name: target.title, skill_id: target.skill_id, similarity: target.similarity_score, changes: enhancement.changes },
      enhancement
    }
  }
  const offline = reflectOffline(trace)
  const fallbackTitle = titleFromRequirement(trace.requirements[0] ?? '', language) || offline.title
  const title = clip(oneLine(a.NAME ?? '').replace(/^#+\s*/, ''), 50) || fallbackTitle
  const draft: ReflectionDraft = {
    ...offline,
    title,
    body: content ? content + '\n' : offline.body,
    author
  }
  return { report: { ...base, operation: 'create', name: title, changes: changes.length ? changes : outline(draft.body) }, draft }
}

// ---------- helpers ----------

function normalise(text: string): string {
  return text.toLowerCase().replace(/[`*_'"“”‘’]/g, '').replace(/\s+/g, ' ').trim()
}

/** Bullet items of one `## heading` section of a Markdown body. */
function sectionItems(body: string, heading: string): string[] {
  const lines = body.split('\n')
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`)
  if (start < 0) return []
  const out: string[] = []
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,2} /.test(line)) break
    const m = /^\s*-\s+(.*)$/.exec(line)
    if (m) out.push(m[1]!)
  }
  return out
}

/** The `##` headings of a body: the "contents" line of a create report. */
function outline(body: string): string[] {
  return body
    .split('\n')
    .filter((l) => /^## /.test(l))
    .map((l) => l.slice(3).trim())
    .slice(0, 10)
}
