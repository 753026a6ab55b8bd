import { useMemo, useState } from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import type { ReflectSummary } from '../../../shared/api'
import { useApi } from '../../api/context'
import { useRoots } from '../../api/hooks'
import { jobError, latestJob } from '../../api/job-store'
import { useJobs, useJobStore } from '../../api/jobs'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { Badge } from '../../components/Badge'
import { ErrorNotice } from '../../components/ErrorNotice'
import { ProgressBar } from '../../components/ProgressBar'
import { useI18n } from '../../i18n/i18n'
import { translateLine } from '../../i18n/messages-errors'
import { taskTime } from '../../../shared/task-time'
import { formatDate } from '../../components/format'
import { RootProblemNotice } from '../../components/RootProblemNotice'
import { taskHeadline } from '../workspaces/task-status'
import { NoSkillList, SkippedTaskList } from './NoSkillList'
import { freshTasks, reflectedCount, skippedTasks } from './task-plan-view'

/**
 * A task's last line; when the run wrote a skill for it, the skill's path in the line is a link that opens the skill
 * in the editor (by keyboard too: a button), named by its file.
 */
function StepLine(props: { text: string; skill?: ReflectSummary['created'][number] }): React.JSX.Element {
  const { t } = useI18n()
  const { navigate } = useAppState()
  const { text, skill } = props
  if (!skill) return <>{text}</>
  const name = skill.path.split(/[\\/]/).pop() ?? skill.path
  const link = (
    <button type="button" className="link" data-testid="reflect-task-skill" title={skill.path} aria-label={t('reflect.openSkill', { name })} onClick={() => navigate({ screen: 'editor', library: skill.library, skillId: skill.skill_id })}>
      {name}
    </button>
  )
  const at = text.indexOf(skill.path)
  if (at < 0) {
    return (
      <>
        {text} {link}
      </>
    )
  }
  return (
    <>
      {text.slice(0, at)}
      {link}
      {text.slice(at + skill.path.length)}
    </>
  )
}

/** One click to reflect new tasks into skills, with live progress, cancel and a summary. */
export function ReflectScreen(): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const store = useJobStore()
  const jobs = useJobs()
  const { root, setRoot, navigate } = useAppState()
  const roots = useRoots()
  const [picked, setPicked] = useState<Set<string>>(new Set())
  const tasks = useQuery({ queryKey: queryKeys.tasks(root ?? ''), queryFn: () => api.call('tasks.list', { root: root! }), enabled: !!root })
  // the same judgment a run makes: greetings, follow-ups and unfinished tasks are listed apart with their reason
  const fresh = useMemo(() => freshTasks(tasks.data?.tasks ?? []), [tasks.data])
  const skipped = useMemo(() => skippedTasks(tasks.data?.tasks ?? []), [tasks.data])
  const rootInfo = roots.data?.find((r) => r.path === root)
  const settings = useQuery({ queryKey: queryKeys.settings(), queryFn: () => api.call('settings.get', {}) })
  const job = latestJob(jobs, 'reflect')
  const running = job?.state === 'running'
  // the bundled sample data, remembered by an earlier version: its tasks are listed, nothing is reflected into it
  const readOnly = rootInfo?.problem === 'bundled-sample'

  const start = useMutation({
    mutationFn: (run: { tasks?: string[]; llm?: 'offline' }) => api.call('reflect.start', { root: root!, tasks: run.tasks, ...(run.llm ? { llm: run.llm } : {}) }),
    onSuccess: (info) => {
      store.track(info)
      setPicked(new Set())
    }
  })
  const cancel = useMutation({ mutationFn: (jobId: string) => api.call('jobs.cancel', { jobId }) })

  const toggle = (path: string): void =>
    setPicked((prev) => {
      const next = new Set(prev)
      if (next.has(path)) next.delete(path)
      else next.add(path)
      return next
    })

  const summary = job?.result && 'created' in job.result ? (job.result as ReflectSummary) : null

  return (
    <section className="screen" aria-labelledby="reflect-title">
      <header className="screen-header">
        <h1 id="reflect-title">{t('reflect.title')}</h1>
        <label className="field-inline">
          {t('ws.root')}
          <select data-testid="reflect-root" value={root ?? ''} onChange={(e) => setRoot(e.target.value || null)}>
            {roots.data?.map((r) => (
              <option key={r.path} value={r.path}>
                {r.path}
              </option>
            ))}
          </select>
        </label>
      </header>
      <p className="lead">{t('reflect.lead')}</p>
      {roots.error && <ErrorNotice error={roots.error} action="failed.listRoots" onRetry={() => void roots.refetch()} />}
      {tasks.error && <ErrorNotice error={tasks.error} action="failed.listTasks" onRetry={() => void tasks.refetch()} />}
      <div className="toolbar">
        <button type="button" className="btn btn-primary" data-testid="reflect-all" disabled={!root || readOnly || running || start.isPending || fresh.length === 0} onClick={() => start.mutate({})}>
          {t('reflect.all', { n: fresh.length })}
        </button>
        <button type="button" className="btn" data-testid="reflect-selected" disabled={!root || readOnly || running || start.isPending || picked.size === 0} onClick={() => start.mutate({ tasks: [...picked] })}>
          {t('reflect.selected', { n: picked.size })}
        </button>
        {running && job && (
          <button type="button" className="btn btn-danger" data-testid="reflect-cancel" disabled={cancel.isPending} onClick={() => cancel.mutate(job.jobId)}>
            {t('common.cancel')}
          </button>
        )}
      </div>
      {start.error && <ErrorNotice error={start.error} action="failed.startReflect" />}
      {cancel.error && <ErrorNotice error={cancel.error} action="failed.cancel" />}
      {!root && roots.data && <p className="empty">{t('ws.noRootsHelp')}</p>}
      {rootInfo?.problem && <RootProblemNotice root={rootInfo} />}
      {fresh.length > 0 && !running && (
        <fieldset className="panel pick-list">
          <legend>{t('reflect.newTasks')}</legend>
          {fresh.map((task) => (
            <label key={task.path} className="check-row">
              <input type="checkbox" checked={picked.has(task.path)} onChange={() => toggle(task.path)} data-testid="reflect-pick" />
              <span className="strong ellipsis pick-headline">{taskHeadline(task)}</span>
              {task.plan?.state === 'update' && (
                <span className="badge badge-info" data-testid="reflect-update" title={t('reflect.update')}>
                  {t('reflect.updateBadge')}
                </span>
              )}
              <span className="cell-sub ellipsis">{[formatDate(taskTime(task), lang), task.user, task.taskDir].filter(Boolean).join(' · ')}</span>
            </label>
          ))}
        </fieldset>
      )}
      {!running && tasks.data && <SkippedTaskList tasks={skipped} all={tasks.data.tasks} />}
      {root && tasks.data && fresh.length === 0 && !job && !rootInfo?.problem && (
        <p className="empty" data-testid="reflect-nothing">
          {tasks.data.tasks.length === 0
            ? t('reflect.noTasks', { path: root })
            : skipped.length > 0
              ? t('reflect.nothingNewJudged', { n: tasks.data.tasks.length, reflected: reflectedCount(tasks.data.tasks), skipped: skipped.length })
              : t('reflect.nothingNew', { n: tasks.data.tasks.length })}
        </p>
      )}
      {job && (
        <section className="panel job-panel" aria-label={t('reflect.progress')} data-testid="reflect-job">
          <div className="job-head">
            <h2>{t('reflect.progress')}</h2>
            <Badge tone={job.state === 'done' ? 'ok' : job.state === 'running' ? 'info' : 'bad'} testId="reflect-state">
              {t(`job.state.${job.state}`)}
            </Badge>
          </div>
          <ProgressBar value={job.fraction} label={t('reflect.progress')} testId="reflect-progress" />
          <p className="muted">{translateLine(job.messageRef, job.message, lang)}</p>
          {Object.keys(job.tasks).length > 0 && (
            <ul className="task-states">
              {Object.entries(job.tasks).map(([dir, s]) => (
                <li key={dir}>
                  <Badge tone={s.state === 'done' ? 'ok' : s.state === 'failed' ? 'bad' : s.state === 'skipped' ? 'muted' : 'info'}>{t(`run.${s.state}`)}</Badge> <span className="strong">{dir}</span>{' '}
                  <span className="cell-sub" data-testid="task-step">
                    <StepLine text={translateLine(s.messageRef, s.message, lang)} skill={summary?.created.find((c) => c.taskDir === dir)} />
                  </span>
                </li>
              ))}
            </ul>
          )}
          {job.lines.length > 0 && (
            <pre className="job-log" data-testid="reflect-log" tabIndex={0} aria-label={t('reflect.log')}>
              {job.lines
                .slice(-200)
                .map((l) => (l.taskDir ? `[${l.taskDir}] ` : '') + translateLine(l.ref, l.text, lang))
                .join('\n')}
            </pre>
          )}
          {job.error && <ErrorNotice error={jobError(job)} action="failed.reflect" />}
          {(job.error || (summary && summary.failed.length > 0)) && settings.data?.llm.provider === 'openai' && (
            <div className="notice-panel" role="status" data-testid="reflect-offline-hint">
              <p>{t('reflect.modelFailed')}</p>
              <div className="toolbar">
                {root && (summary?.failed.length ?? 0) > 0 && (
                  <button type="button" className="btn btn-primary" data-testid="reflect-offline" disabled={running || start.isPending} onClick={() => start.mutate({ tasks: summary!.failed.map((f) => f.taskDir), llm: 'offline' })}>
                    {t('reflect.retryOffline', { n: summary!.failed.length })}
                  </button>
                )}
                <button type="button" className="btn" onClick={() => navigate({ screen: 'settings' })}>
                  {t('reflect.openSettings')}
                </button>
              </div>
            </div>
          )}
          {summary && (
            <div className="summary" data-testid="reflect-summary">
              <h3>{t('reflect.summary', { created: summary.created.length, skipped: summary.skipped.length, failed: summary.failed.length })}</h3>
              {summary.cancelled && <p className="muted">{t('reflect.wasCancelled')}</p>}
              <ul className="links">
                {summary.created.map((c) => (
                  <li key={c.path}>
                    <button type="button" className="link" data-testid="reflect-created-link" title={c.path} aria-label={t('reflect.openSkill', { name: c.path.split(/[\\/]/).pop() ?? c.path })} onClick={() => navigate({ screen: 'editor', library: c.library, skillId: c.skill_id })}>
                      {c.path.split(/[\\/]/).pop()}
                    </button>{' '}
                    <span className="cell-sub">← {c.taskDir}</span>
                  </li>
                ))}
                {summary.skipped
                  .filter((s) => !s.why)
                  .map((s) => (
                    <li key={`s:${s.taskDir}`} className="muted" data-testid="reflect-skipped-line">
                      {s.taskDir}: {translateLine(s, s.reason, lang)}
                    </li>
                  ))}
                {summary.failed.map((f) => (
                  <li key={`f:${f.taskDir}`} className="bad-text" data-testid="reflect-failed-line">
                    {f.taskDir}: {translateLine(f, f.error, lang)}
                  </li>
                ))}
              </ul>
              {(summary.proposals?.length ?? 0) > 0 && (
                <div className="notice-panel" role="status" data-testid="reflect-next">
                  <p>{t('reflect.proposalsLeft', { n: summary.proposals!.length })}</p>
                  <div className="toolbar">
                    <button type="button" className="btn btn-primary" data-testid="reflect-review-proposals" onClick={() => navigate({ screen: 'curate' })}>
                      {t('reflect.reviewOnCurate')}
                    </button>
                  </div>
                </div>
              )}
              <NoSkillList skipped={summary.skipped} />
            </div>
          )}
        </section>
      )}
    </section>
  )
}
