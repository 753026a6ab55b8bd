import type { Proposal, SkillUseTask, UsageBaseline } from '../../../shared/types'
import { useI18n } from '../../i18n/i18n'
import { UsageTaskItem } from './SkillUsagePanel'
import { baselineText } from './usage-format'

/** The failing tasks a "review" proposal carries (evidence written by the offline rules), read defensively. */
export function failingTasksOf(p: Proposal): SkillUseTask[] {
  const raw = p.evidence.failing_tasks
  if (!Array.isArray(raw)) return []
  return raw
    .filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null && typeof (x as { at?: unknown }).at === 'string')
    .map((x) => ({
      source: String(x.source) as SkillUseTask['source'],
      task: typeof x.task === 'string' ? x.task : null,
      at: String(x.at),
      outcome: x.outcome === 'failed' || x.outcome === 'corrected' ? x.outcome : null,
      how: [],
      ...(typeof x.path === 'string' ? { path: x.path } : {}),
      ...(typeof x.origin === 'string' ? { origin: x.origin } : {}),
      ...(typeof x.error === 'string' ? { error: x.error } : {}),
      ...(typeof x.correction === 'string' ? { correction: x.correction } : {})
    }))
}

/** The counts behind a review proposal and the tasks that went wrong, each linking to its trace. */
export function ReviewEvidence(props: { proposal: Proposal }): React.JSX.Element | null {
  const { t } = useI18n()
  const tasks = failingTasksOf(props.proposal)
  const b = props.proposal.evidence.baseline as UsageBaseline | undefined
  if (tasks.length === 0 && !b) return null
  return (
    <div className="review-evidence" data-testid="review-evidence">
      {b && typeof b.tasks === 'number' && (
        <p className="small muted">{t('usage.baseline', { tasks: b.tasks, completed: b.completed, failed: b.failed, interrupted: b.interrupted, corrected: b.corrected ?? 0 })}</p>
      )}
      <h3>{t('curate.failingTasks')}</h3>
      <ul className="usage-tasks">
        {tasks.map((task, i) => (
          <UsageTaskItem key={`${task.at}:${i}`} task={task} />
        ))}
      </ul>
      {b && typeof b.tasks === 'number' && <span className="sr-only">{baselineText(b)}</span>}
    </div>
  )
}
