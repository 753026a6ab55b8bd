import { useMemo, useState } from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import type { TaskSummary } from '../../../shared/api'
import { useApi } from '../../api/context'
import { useRoots } from '../../api/hooks'
import { useJobStore } from '../../api/jobs'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { Badge } from '../../components/Badge'
import { ErrorNotice } from '../../components/ErrorNotice'
import { formatDate } from '../../components/format'
import { VirtualList } from '../../components/VirtualList'
import { useI18n } from '../../i18n/i18n'
import { LogView } from './LogView'
import { BADGE_TONE, taskRows } from './task-status'
import type { TaskBadge, TaskRow } from './task-status'

const STATUSES: (TaskBadge | 'all')[] = ['all', 'completed', 'interrupted', 'incomplete', 'reflected', 'skipped']

/** Data roots → users → tasks, with the parsed trace beside the raw log. */
export function WorkspacesScreen(props: { initialTask?: string }): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const { root, setRoot, navigate } = useAppState()
  const roots = useRoots()
  const [user, setUser] = useState('')
  const [status, setStatus] = useState<TaskBadge | 'all'>('all')
  const [text, setText] = useState('')
  const [selected, setSelected] = useState<string | null>(null)
  const tasks = useQuery({ queryKey: queryKeys.tasks(root ?? ''), queryFn: () => api.call('tasks.list', { root: root! }), enabled: !!root })

  const rows = useMemo(() => {
    const all = tasks.data?.tasks ?? []
    return taskRows(user ? all.filter((x) => x.user === user) : all, user ? [] : (tasks.data?.skipped ?? []), { status, text })
  }, [tasks.data, user, status, text])
  const users = useMemo(() => [...new Set((tasks.data?.tasks ?? []).map((x) => x.user))].sort(), [tasks.data])

  // Deep link from the editor: select the task by folder name or path.
  const initialTask = props.initialTask
  const data = tasks.data
  const [initialApplied, setInitialApplied] = useState(false)
  if (!initialApplied && initialTask && data) {
    setInitialApplied(true)
    const hit = data.tasks.find((x) => x.path === initialTask || x.taskDir === initialTask)
    if (hit) setSelected(hit.path)
  }

  // Until the user picks one, show the newest task rather than an empty pane.
  const firstTask = rows.find((r) => r.kind === 'task')
  const shown = selected ?? (firstTask?.kind === 'task' ? firstTask.task.path : null)
  const task = tasks.data?.tasks.find((x) => x.path === shown) ?? null

  return (
    <section className="screen screen-fill" aria-labelledby="ws-title">
      <header className="screen-header">
        <h1 id="ws-title">{t('ws.title')}</h1>
        <label className="field-inline">
          {t('ws.root')}
          <select data-testid="root-picker" value={root ?? ''} onChange={(e) => setRoot(e.target.value || null)}>
            {(roots.data ?? []).length === 0 && <option value="">{t('ws.noRoots')}</option>}
            {roots.data?.map((r) => (
              <option key={r.path} value={r.path}>
                {r.path} ({r.taskCount})
              </option>
            ))}
          </select>
        </label>
        <label className="field-inline">
          {t('ws.user')}
          <select data-testid="user-picker" value={user} onChange={(e) => setUser(e.target.value)}>
            <option value="">{t('common.all')}</option>
            {users.map((u) => (
              <option key={u} value={u}>
                {u || t('ws.noUser')}
              </option>
            ))}
          </select>
        </label>
      </header>
      {roots.error && <ErrorNotice error={roots.error} onRetry={() => void roots.refetch()} />}
      {!root && roots.data && (
        <div className="empty">
          <p>{t('ws.noRootsHelp')}</p>
          <button type="button" className="btn" onClick={() => navigate({ screen: 'settings' })}>
            {t('nav.settings')}
          </button>
        </div>
      )}
      {root && (
        <div className="split">
          <div className="split-list">
            <div className="toolbar">
              <input type="search" className="input grow" placeholder={t('ws.search')} aria-label={t('ws.search')} data-testid="task-search" value={text} onChange={(e) => setText(e.target.value)} />
              <select aria-label={t('ws.status')} data-testid="task-status-filter" value={status} onChange={(e) => setStatus(e.target.value as TaskBadge | 'all')}>
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {s === 'all' ? t('common.all') : t(`status.${s}`)}
                  </option>
                ))}
              </select>
            </div>
            {tasks.error && <ErrorNotice error={tasks.error} onRetry={() => void tasks.refetch()} />}
            {tasks.isLoading ? (
              <p className="muted">{t('common.loading')}</p>
            ) : rows.length === 0 ? (
              <p className="empty">{t('ws.noTasks')}</p>
            ) : (
              <VirtualList<TaskRow>
                items={rows}
                rowHeight={56}
                getKey={(r) => r.key}
                ariaLabel={t('ws.tasks')}
                testId="task-list"
                rowTestId="task-row"
                onActiveChange={(r) => r.kind === 'task' && setSelected(r.task.path)}
                onOpen={(r) => r.kind === 'task' && setSelected(r.task.path)}
                renderRow={(r) => (
                  <div className={r.kind === 'task' && r.task.path === shown ? 'task-row task-row-selected' : 'task-row'}>
                    <div className="task-row-top">
                      <span className="ellipsis strong">{r.kind === 'task' ? r.task.taskDir : r.skipped.path}</span>
                      <Badge tone={BADGE_TONE[r.badge]} testId="task-badge">
                        {t(`status.${r.badge}`)}
                      </Badge>
                    </div>
                    <div className="cell-sub ellipsis">
                      {r.kind === 'task' ? `${r.task.user ? r.task.user + ' · ' : ''}${formatDate(r.task.mtime, lang)} · ${r.task.requirements[0] ?? ''}` : r.skipped.reason}
                    </div>
                  </div>
                )}
              />
            )}
          </div>
          <div className="split-detail">{task ? <TaskDetail root={root} task={task} /> : <p className="empty">{t('ws.pickTask')}</p>}</div>
        </div>
      )}
    </section>
  )
}

function TaskDetail(props: { root: string; task: TaskSummary }): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const jobs = useJobStore()
  const { navigate } = useAppState()
  const { task } = props
  const reflect = useMutation({
    mutationFn: () => api.call('reflect.start', { root: props.root, tasks: [task.path], force: task.reflected }),
    onSuccess: (job) => {
      jobs.track(job)
      navigate({ screen: 'reflect' })
    }
  })
  return (
    <div className="task-detail" data-testid="task-detail">
      <header className="detail-header">
        <h2 className="ellipsis">{task.taskDir}</h2>
        <Badge tone={BADGE_TONE[task.reflected ? 'reflected' : task.status]}>{t(`status.${task.reflected ? 'reflected' : task.status}`)}</Badge>
        <div className="spacer" />
        <button type="button" className="btn btn-primary" data-testid="task-reflect" onClick={() => reflect.mutate()} disabled={reflect.isPending}>
          {task.reflected ? t('ws.reflectAgain') : t('ws.reflectTask')}
        </button>
      </header>
      {reflect.error && <ErrorNotice error={reflect.error} />}
      <div className="trace-and-log">
        <div className="trace" data-testid="task-trace">
          <h3>{t('ws.requirements')}</h3>
          {task.requirements.length === 0 ? <p className="muted">{t('common.none')}</p> : (
            <ol className="reqs">
              {task.requirements.map((r, i) => (
                <li key={i}>{r}</li>
              ))}
            </ol>
          )}
          <h3>{t('ws.skillsMade')}</h3>
          {task.skills.length === 0 ? <p className="muted">{t('common.none')}</p> : (
            <ul className="links">
              {task.skills.map((s) => (
                <li key={`${s.library}:${s.skill_id}`}>
                  <button type="button" className="link" data-testid="task-skill-link" onClick={() => navigate({ screen: 'editor', library: s.library, skillId: s.skill_id })}>
                    {s.title || s.skill_id}
                  </button>
                  {s.legacy && <Badge tone="warn">{t('skills.legacyBadge')}</Badge>}
                </li>
              ))}
            </ul>
          )}
          <h3>{t('ws.toolCalls', { n: task.toolCalls.length })}</h3>
          {task.toolCalls.length === 0 ? <p className="muted">{t('common.none')}</p> : (
            <ol className="timeline">
              {task.toolCalls.slice(0, 500).map((c, i) => (
                <li key={i} className={c.ok === false ? 'tl-item tl-bad' : 'tl-item'}>
                  <span className="tl-agent">{c.agent}</span>
                  <code>{c.name}</code>
                  <span className="cell-sub ellipsis">{Object.entries(c.params).map(([k, v]) => `${k}=${v}`).join(' ').slice(0, 160)}</span>
                </li>
              ))}
            </ol>
          )}
          <h3>{t('ws.errors', { n: task.errors.length })}</h3>
          {task.errors.length === 0 ? <p className="muted">{t('common.none')}</p> : (
            <ul className="errors-list">
              {task.errors.slice(0, 200).map((e, i) => (
                <li key={i}>
                  <code>{e}</code>
                </li>
              ))}
            </ul>
          )}
          <h3>{t('ws.messages', { n: task.agentMessages.length })}</h3>
          {task.agentMessages.length === 0 ? <p className="muted">{t('common.none')}</p> : (
            <ul className="messages">
              {task.agentMessages.slice(0, 200).map((m, i) => (
                <li key={i}>
                  <span className="tl-agent">
                    {m.kind}
                    {m.from ? ` ${m.from}` : ''}
                    {m.to ? ` → ${m.to}` : ''}
                  </span>{' '}
                  {m.text}
                </li>
              ))}
            </ul>
          )}
          {task.finalText && (
            <>
              <h3>{t('ws.finalAnswer')}</h3>
              <p className="final-text">{task.finalText}</p>
            </>
          )}
        </div>
        <LogView key={task.path} root={props.root} taskPath={task.path} />
      </div>
    </div>
  )
}
