import { useState } from 'react'
import type { SkillUseTask, TaskOutcome } from '../../../shared/types'
import { useAppState } from '../../app-state'
import { Badge } from '../../components/Badge'
import { ErrorNotice } from '../../components/ErrorNotice'
import { formatDate } from '../../components/format'
import { useI18n } from '../../i18n/i18n'
import { alsoFetchedText, judged, noLogUseText, sourceName, taskRoute, verdictText, type Fetches } from './usage-format'
import { useUsage } from './use-usage'

const SHOWN = 30

export const OUTCOME_TONE: Record<TaskOutcome, 'ok' | 'bad' | 'warn' | 'muted'> = {
  completed: 'ok',
  failed: 'bad',
  interrupted: 'warn',
  corrected: 'warn',
  incomplete: 'muted'
}

/** One task that used the skill: where, when, how it ended, and a link to its trace. */
export function UsageTaskItem(props: { task: SkillUseTask }): React.JSX.Element {
  const { t, lang } = useI18n()
  const { navigate } = useAppState()
  const task = props.task
  const route = taskRoute(task)
  return (
    <li className="usage-task" data-testid="usage-task">
      <span className="usage-task-head">
        <Badge tone="muted">{sourceName(t, task.source)}</Badge>
        <span className="muted">{formatDate(task.at, lang)}</span>
        {task.outcome ? <Badge tone={OUTCOME_TONE[task.outcome]}>{t(`usage.outcome.${task.outcome}`)}</Badge> : <Badge tone="info">{t('usage.query')}</Badge>}
        <span className="muted">{task.how.map((h) => t(`usage.how.${h}`)).join(', ')}</span>
      </span>
      {route && task.task ? (
        <button type="button" className="link" data-testid="usage-task-link" onClick={() => navigate(route)}>
          {task.task}
        </button>
      ) : null}
      {task.error && <span className="cell-sub bad-text">{t('usage.error', { text: task.error })}</span>}
      {task.correction && <span className="cell-sub">{t('usage.correction', { text: task.correction })}</span>}
    </li>
  )
}

/**
 * The editor's "Used by agents" panel: the verdict with its counts, the baseline, and every task that used the skill.
 * `fetches`, the skill's own fetch record, is the second source: a skill the logs show unused but that was fetched
 * says so, and one used in the logs says how often it was fetched too.
 */
export function SkillUsagePanel(props: { library: string; skillId: string; fetches: Fetches }): React.JSX.Element {
  const { t } = useI18n()
  const usage = useUsage(props.library)
  const [all, setAll] = useState(false)
  const report = usage.data
  const u = report?.skills.find((s) => s.skill_id === props.skillId)
  const queries = u ? u.tasks.filter((x) => x.outcome === null).length : 0
  const shown = u ? (all ? u.tasks : u.tasks.slice(0, SHOWN)) : []
  const alsoFetched = u && u.uses > 0 ? alsoFetchedText(t, props.fetches) : null
  return (
    <section className="panel" aria-labelledby="usage-panel-title" data-testid="usage-panel">
      <h2 id="usage-panel-title">{t('usage.panel')}</h2>
      {usage.error && <ErrorNotice error={usage.error} action="usage.failedLoad" onRetry={() => void usage.refetch()} />}
      {usage.isLoading && <p className="muted">{t('usage.loading')}</p>}
      {report && !u && (
        <p className="muted" data-testid="usage-verdict">
          {noLogUseText(t, props.fetches)}
        </p>
      )}
      {report && u && (
        <>
          <p data-testid="usage-verdict" className={u.verdict === 'fails-more' ? 'bad-text' : undefined}>
            {verdictText(t, u, report.rules, props.fetches)}
          </p>
          {u.uses > 0 && (
            <p className="small" data-testid="usage-summary">
              {t('usage.summaryUsed', { n: judged(u), completed: u.completed, failed: u.failed, interrupted: u.interrupted, corrected: u.corrected, incomplete: u.incomplete })}
              {queries > 0 && <> {t('usage.queries', { n: queries })}</>}
            </p>
          )}
          {alsoFetched && (
            <p className="small" data-testid="usage-fetches">
              {alsoFetched}
            </p>
          )}
          {u.uses > 0 && (
            <p className="small muted" data-testid="usage-baseline">
              {t('usage.baseline', { tasks: u.baseline.tasks, completed: u.baseline.completed, failed: u.baseline.failed, interrupted: u.baseline.interrupted, corrected: u.baseline.corrected })}
            </p>
          )}
          {u.tasks.length > 0 && (
            <>
              <h3>{t('usage.tasks')}</h3>
              <ul className="usage-tasks" data-testid="usage-tasks">
                {shown.map((task, i) => (
                  <UsageTaskItem key={`${task.at}:${task.task ?? ''}:${i}`} task={task} />
                ))}
              </ul>
              {u.tasks.length > SHOWN && (
                <button type="button" className="btn btn-small btn-ghost" onClick={() => setAll(!all)}>
                  {all ? t('usage.showFewer') : t('usage.moreTasks', { n: u.tasks.length - SHOWN })}
                </button>
              )}
            </>
          )}
          <p className="small muted" data-testid="usage-read">
            {t('usage.read', {
              tasks: report.sources.filter((s) => s.kind !== 'ledger').reduce((n, s) => n + s.tasks, 0),
              sources: report.sources.filter((s) => s.kind !== 'ledger').length,
              queries: report.sources.find((s) => s.kind === 'ledger')?.tasks ?? 0
            })}
          </p>
          {report.problems.map((p) => (
            <p key={p} className="small bad-text" data-testid="usage-problem">
              {t('usage.notRead', { text: p })}
            </p>
          ))}
        </>
      )}
    </section>
  )
}
