/**
 * The library's team sync at a glance: where it stands with its remote (to send, to receive, local changes,
 * changes both sides made waiting for review) and a Sync button with the job's progress.
 */
import { useEffect, useRef } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { SyncSummary } from '../../../shared/api'
import { useApi } from '../../api/context'
import { jobError, latestJob } from '../../api/job-store'
import { useJobs, useJobStore } from '../../api/jobs'
import { queryKeys } from '../../api/query-keys'
import { ErrorNotice } from '../../components/ErrorNotice'
import { formatDate } from '../../components/format'
import { ProgressBar } from '../../components/ProgressBar'
import { useI18n } from '../../i18n/i18n'
import { translateLine, translateMessage } from '../../i18n/messages-errors'

export function SyncPanel(props: { library: string }): React.JSX.Element | null {
  const { t, lang } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const store = useJobStore()
  const jobs = useJobs()
  const key = [...queryKeys.library(props.library), 'sync-status'] as const
  const status = useQuery({ queryKey: key, queryFn: () => api.call('sync.status', { library: props.library }) })
  const job = latestJob(jobs, 'sync')
  const running = job?.state === 'running'
  const start = useMutation({ mutationFn: () => api.call('sync.start', { library: props.library }), onSuccess: (info) => store.track(info) })
  const wasRunning = useRef(false)
  useEffect(() => {
    // A finished sync changed files, the plan and the numbers: read them again.
    if (wasRunning.current && !running) void client.invalidateQueries({ queryKey: queryKeys.library(props.library) })
    wasRunning.current = running
  }, [running, client, props.library])

  const s = status.data
  if (!s) return status.error ? <ErrorNotice error={status.error} action="sync.failed" onRetry={() => void status.refetch()} /> : null
  if (!s.shared) {
    return (
      <div className="panel sync-panel" data-testid="sync-panel">
        <strong>{t('sync.title')}</strong>
        <p className="muted" data-testid="sync-not-shared">{t('sync.notShared', { path: props.library })}</p>
      </div>
    )
  }
  const result = job?.state === 'done' ? (job.result as SyncSummary | undefined) : undefined
  const facts = [
    s.ahead > 0 ? t('sync.ahead', { n: s.ahead }) : null,
    s.behind > 0 ? t('sync.behind', { n: s.behind }) : null,
    s.local_changes > 0 ? t('sync.local', { n: s.local_changes }) : null
  ].filter((x): x is string => x !== null)
  return (
    <section className="panel sync-panel" aria-labelledby="sync-title" data-testid="sync-panel">
      <div className="sync-row">
        <div>
          <strong id="sync-title">{t('sync.title')}</strong>{' '}
          <span className="muted" data-testid="sync-remote">
            {t('sync.remote', { remote: s.remote ?? '' })}
            {s.last_fetch ? ` · ${t('sync.lastFetch', { time: formatDate(s.last_fetch, lang) })}` : ''}
          </span>
          <p data-testid="sync-state">{facts.length > 0 ? facts.join(' · ') : t('sync.upToDate')}</p>
          {s.conflicts > 0 && (
            <p className="sync-conflicts" data-testid="sync-conflicts">
              {t('sync.conflicts', { n: s.conflicts })}
            </p>
          )}
          {s.in_progress && (
            <p className="error-text" data-testid="sync-in-progress">
              {t('sync.inProgress', { what: s.in_progress_code ? translateMessage({ messageCode: s.in_progress_code, params: {} }, s.in_progress, lang) : s.in_progress })}
            </p>
          )}
        </div>
        <div className="spacer" />
        <button type="button" className="btn btn-primary" data-testid="sync-start" disabled={running || start.isPending || s.in_progress !== null} onClick={() => start.mutate()}>
          {t('sync.button')}
        </button>
      </div>
      {job && running && (
        <div aria-live="polite">
          <ProgressBar value={job.fraction} label={t('sync.running', { remote: s.remote ?? '' })} testId="sync-progress" />
          <p className="muted">{translateLine(job.messageRef, job.message, lang)}</p>
        </div>
      )}
      {result && (
        <p role="status" data-testid="sync-result">
          {t('sync.done', { committed: result.committed, pulled: result.pulled, pushed: result.pushed })}
          {result.conflicts.length > 0 ? ` ${t('sync.doneConflicts', { n: result.conflicts.length })}` : ''}
        </p>
      )}
      {result?.notes && result.notes.length > 0 && (
        <ul className="muted" data-testid="sync-notes">
          {result.notes.map((n, i) => (
            <li key={i}>{translateLine(n, n.message, lang)}</li>
          ))}
        </ul>
      )}
      {job?.state === 'failed' && job.error && <ErrorNotice error={jobError(job)} action="sync.failed" />}
      {start.error && <ErrorNotice error={start.error} action="sync.failed" />}
    </section>
  )
}
