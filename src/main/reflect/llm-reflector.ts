import type { TaskTrace } from '../../shared/types'
import { LlmError } from '../llm/errors'
import type { LlmClient } from '../llm/types'
import { buildReflectionInput } from './build-input'
import { extractPreferences, titleFromRequirement } from './offline-reflector'
import { parseReflectionAnswer, titleFromReflection } from './parse-answer'
import { joinPreferences, preferencesFromAnswer } from './answer-preferences'
import { buildReflectionMessages, COPY_SKILL_FILES_TOOL } from './prompts'
import { oneLine, clip } from './text-utils'
import { headRequest } from './task-judgment'
import type { ReflectionDraft } from './types'
import { coded } from '../../shared/error-codes'

export interface LlmReflectOptions {
  budgetChars: number
  rawLog?: string
  signal?: AbortSignal
  /** Offer `copy_skill_files` as a function-calling tool (off by default: many local servers reject tools). */
  offerTools?: boolean
  promptsDir?: string
  maxTokens?: number
}

/**
 * Asks the model for a reflection and turns its answer into a draft. Throws LlmError on transport
 * failures (after the client's retries) and on an answer with no reflection text.
 */
export async function reflectWithLlm(llm: LlmClient, trace: TaskTrace, opts: LlmReflectOptions): Promise<ReflectionDraft> {
  const input = buildReflectionInput(trace, { budgetChars: opts.budgetChars, rawLog: opts.rawLog })
  const reply = await llm.chat({
    messages: buildReflectionMessages(input, { promptsDir: opts.promptsDir }),
    tools: opts.offerTools ? [COPY_SKILL_FILES_TOOL] : undefined,
    maxTokens: opts.maxTokens ?? 4000,
    signal: opts.signal
  })
  const parsed = parseReflectionAnswer(reply.text, reply.toolCalls)
  if (!parsed.reflection.trim()) {
    throw new LlmError('bad_answer', coded('reflect.no_reflection'), 1)
  }
  // the title comes from what was asked (the model's first line is often "Task completed successfully")
  const head = headRequest(trace)
  const first = oneLine(head)
  const askedTitle = titleFromRequirement(head, input.language)
  const usage =
    parsed.usageConditions ||
    (first
      ? input.language === 'zh'
        ? `当需要完成类似任务时使用：${clip(first, 100)}`
        : `Use when asked to: ${clip(first, 100)}`
      : input.language === 'zh'
        ? '通用任务'
        : 'General tasks')
  return {
    title: askedTitle || titleFromReflection(parsed.reflection, `Task ${trace.taskDir}`),
    body: parsed.reflection + '\n',
    usageConditions: usage,
    // stated preferences from the log itself first, then the answer's "User preferences" section
    userPreferences: joinPreferences(extractPreferences(trace), preferencesFromAnswer(reply.text)),
    filesToBackup: parsed.filesToBackup,
    rejectedPaths: parsed.rejectedPaths,
    language: input.language,
    author: reply.model || llm.model
  }
}
