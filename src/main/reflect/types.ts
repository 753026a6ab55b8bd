import type { ReflectSummary } from '../../shared/api'
import type { DecisionReport } from './decide'
import type { ReflectLanguage } from './language'

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
  kind: 'start' | 'task-start' | 'task-done' | 'task-failed' | 'task-skipped' | 'log' | 'done'
  /** 1-based position of the task in the run (0 for 'start' / 'done' / run-level 'log'). */
  index: number
  total: number
  /** Basename of the task folder; '' for run-level events. */
  taskDir: string
  /** Absolute path of the skill written ('task-done'). */
  skillPath?: string
  message?: string
  /** With create / enhance / none decisions on: what was decided for this task. */
  decision?: DecisionReport
}

/** What a run did: the API's ReflectSummary, plus the decisions when create / enhance / none is on. */
export type ReflectionSummary = ReflectSummary & { decisions?: DecisionReport[]; proposals?: string[] }
