/**
 * The reflection log's line for a decision (pure): `Decision for <task>: <operation> (skill X) - <reason>`, the words
 * the log has always had, by code (reflect.log_decided_*: one per operation, with and without the skill and the
 * reason), so the app's recent activity reads it back from the log file and words it in the reader's language.
 * create names no skill; enhance always names its skill (both deciders set it); none names one when it is covered.
 */
import { coded, type CodedText } from '../../shared/error-codes'
import type { DecisionReport } from './types'

export function decisionLogLine(report: Pick<DecisionReport, 'taskDir' | 'operation' | 'skill_id' | 'reason'>): CodedText {
  const task = report.taskDir
  const reason = report.reason || undefined
  const id = report.skill_id || undefined
  switch (report.operation) {
    case 'create':
      return reason ? coded('reflect.log_decided_create_why', { task, reason }) : coded('reflect.log_decided_create', { task })
    case 'enhance':
      return reason ? coded('reflect.log_decided_enhance_why', { task, id: id ?? '?', reason }) : coded('reflect.log_decided_enhance', { task, id: id ?? '?' })
    case 'none':
      if (id) return reason ? coded('reflect.log_decided_none_skill_why', { task, id, reason }) : coded('reflect.log_decided_none_skill', { task, id })
      return reason ? coded('reflect.log_decided_none_why', { task, reason }) : coded('reflect.log_decided_none', { task })
  }
}
