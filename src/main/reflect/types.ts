import type { ReflectSummary } from '../../shared/api'
import type { ReflectLanguage } from './language'
import type { CodedLine, MessageCode, MessageParams } from '../../shared/error-codes'

export type DecisionOperation = 'create' | 'enhance' | 'none'

/** The seed's report: operation, name, tools used, and what changed or why nothing did. */
export interface DecisionReport {
  operation: DecisionOperation
  /** The new skill's title (create) or the existing skill's title (enhance / none when covered). */
  name: string
  tools_used: string[]
  /** create: main points of the new skill; enhance: one line per change. */
  changes?: string[]
  /** none: why nothing changes; enhance/create: why this decision. */
  reason?: string
  skill_id?: string
  similarity?: number
  taskDir: string
  /** 'offline' or the model name. */
  author: string
}

/** A reflection ready to become a skill (both reflectors produce this). */
export interface ReflectionDraft {
  title: string
  /** Markdown body of the skill. */
  body: string
  usageConditions: string
  userPreferences: string
  /** Workspace-relative files to back up with the skill (already checked to be relative and inside). */
  filesToBackup: string[]
  /** Paths the model asked for that were refused. */
  rejectedPaths: string[]
  language: ReflectLanguage
  /** 'offline' or the model name. */
  author: string
}

/** Progress of a reflection run, streamed to the CLI and the app. */
export interface ReflectionEvent {
  kind: 'start' | 'task-start' | 'task-step' | 'task-done' | 'task-failed' | 'task-skipped' | 'log' | 'done'
  /** 1-based position of the task in the run (0 for 'start' / 'done' / run-level 'log'). */
  index: number
  total: number
  /** Basename of the task folder; '' for run-level events. */
  taskDir: string
  /** Absolute path of the skill written ('task-done'). */
  skillPath?: string
  message?: string
  /** The message's code and params (error-codes.ts) when it has them: the app words it by code. */
  messageCode?: MessageCode
  params?: MessageParams
  /** With create / enhance / none decisions on: what was decided for this task. */
  decision?: DecisionReport
  /** 'task-step': what the task is doing now, and how far along the task is (0..1). */
  step?: ReflectionStep
  stepFraction?: number
}

/** The steps of one task's reflection, reported as they happen so a long one shows it is moving. */
export type ReflectionStep = 'prepare' | 'model' | 'decide' | 'write' | 'backup'

/** What a run did: the API's ReflectSummary, plus the decisions when create / enhance / none is on. */
export type ReflectionSummary = ReflectSummary & {
  decisions?: DecisionReport[]
  proposals?: string[]
  /**
   * `--evolve-memory` (auto-enhance's memory step too): the memory proposals the same tasks made (ids), the entries
   * already there or proposed, and the users whose tasks were not learned from, with why.
   */
  memory?: { proposed: string[]; skipped: number; problems: CodedLine[] }
}
