import { useMemo, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { SessionSourceInfo, SessionSourceKind, TaskSummary } from '../../../shared/api'
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
import { LogView, type TaskOrigin } from './LogView'
import { BADGE_TONE, taskRows } from './task-status'
import type { TaskBadge, TaskRow } from './task-status'

const STATUSES: (TaskBadge | 'all')[] = ['all', 'completed', 'interrupted', 'incomplete', 'reflected', 'skipped']
const SESSION_KINDS: SessionSourceKind[] = ['claude', 'codex', 'synapse']
const SEP = '\u0000'

function sourceKey(s: Pick<SessionSourceInfo, 'source' | 'dir'>): string {
  return `${s.source}${SEP}${s.dir}`
}

/** Other agents' session folders (auto-detected + added): pick one, add one, remove an added one. */
function useSessionSources(): { list: SessionSourceInfo[]; error: unknown } {
  const api = useApi()
  const query = useQuery({ queryKey: queryKeys.sessions(), queryFn: () => api.call('sessions.list', {}) })
  return { list: query.data ?? [], error: query.error }
}

function AddSessionFolder(props: { onAdded: (s: SessionSourceInfo) => void }): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const client = useQueryClient()
  const [kind, setKind] = useState<SessionSourceKind>('claude')
  const [dir, setDir] = useState('')
  const add = useMutation({
    mutationFn: () => api.call('sessions.add', { source: kind, path: dir.trim() }),
    onSuccess: (list) => {
      client.setQueryData(queryKeys.sessions(), list)
      const hit = [...list].reverse().find((s) => s.source === kind && s.added)
      setDir('')
      if (hit) props.onAdded(hit)
    }
  })
  return (
    <details className="add-source">
      <summary>{t('ws.addSessions')}</summary>
      <p className="muted">{t('ws.addSessionsHelp')}</p>
      <div className="toolbar">
        <select aria-label={t('ws.sessionKind')} data-testid="session-add-kind" value={kind} onChange={(e) => setKind(e.target.value as SessionSourceKind)}>
          {SESSION_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`source.${k}`)}
            </option>
          ))}
        </select>
        <input className="input grow" aria-label={t('ws.sessionFolder')} placeholder="/home/me/.claude/projects" data-testid="session-add-path" value={dir} onChange={(e) => setDir(e.target.value)} />
        <button type="button" className="btn" data-testid="session-add" disabled={!dir.trim() || add.isPending} onClick={() => add.mutate()}>
          {t('ws.add')}
        </button>
      </div>
      {add.error && <ErrorNotice error={add.error} />}
    </details>
  )
}

/** Data roots → users → tasks, with the parsed trace beside the raw log. */
export function WorkspacesScreen(props: { initialTask?: string }): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const { root, setRoot, navigate, library } = useAppState()
  const roots = useRoots()
  const [user, setUser] = useState('')
  const [status, setStatus] = useState<TaskBadge | 'all'>('all')
  const [text, setText] = useState('')
  const [selected, setSelected] = useState<string | null>(null)
  const client = useQueryClient()
  const sessions = useSessionSources()
  const [picked, setPicked] = useState('')
  const session = sessions.list.find((x) => sourceKey(x) === picked) ?? null
  const origin: TaskOrigin | null = session ? { kind: 'session', source: session.source, dir: session.dir } : root ? { kind: 'root', root } : null
  const tasks = useQuery({
    queryKey: session ? queryKeys.sessionTasks(session.source, session.dir) : queryKeys.tasks(root ?? ''),
    queryFn: () => (session ? api.call('sessions.tasks', { source: session.source, dir: session.dir }) : api.call('tasks.list', { root: root! })),
    enabled: !!session || !!root
  })
  const removeSource = useMutation({
    mutationFn: (s: SessionSourceInfo) => api.call('sessions.remove', { source: s.source, path: s.dir }),
    onSuccess: (list) => {
      client.setQueryData(queryKeys.sessions(), list)
      setPicked('')
    }
  })
  const jobs = useJobStore()
  const reflectAll = useMutation({
    mutationFn: (x: SessionSourceInfo) => api.call('sessions.reflect', { source: x.source, dir: x.dir, library: library ?? '' }),
    onSuccess: (job) => {
      jobs.track(job)
      navigate({ screen: 'reflect' })
    }
  })
  const pick = (key: string): void => {
    setPicked(key)
    setSelected(null)
    setUser('')
  }

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
          {t('ws.source')}
          <select data-testid="source-picker" value={session ? picked : ''} onChange={(e) => pick(e.target.value)}>
            <option value="">{t('source.agiagent')}</option>
            {sessions.list.map((x) => (
              <option key={sourceKey(x)} value={sourceKey(x)} title={x.dir}>
                {t(`source.${x.source}`)} · {x.dir}
                {x.detected ? ` (${t('ws.detected')})` : ''}
                {x.exists ? '' : ` (${t('shell.missing')})`}
              </option>
            ))}
          </select>
        </label>
        {session ? (
          <>
            <button
              type="button"
              className="btn btn-small btn-primary"
              data-testid="session-reflect-all"
              disabled={!library || reflectAll.isPending}
              title={t('ws.reflectInto', { library: library ?? '—' })}
              onClick={() => reflectAll.mutate(session)}
            >
              {t('ws.reflectAllSessions')}
            </button>
            {session.added && (
              <button type="button" className="btn btn-small" data-testid="session-remove" disabled={removeSource.isPending} onClick={() => removeSource.mutate(session)}>
                {t('ws.removeSessions')}
              </button>
            )}
          </>
        ) : (
          <>
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
          </>
        )}
      </header>
      <AddSessionFolder onAdded={(x) => pick(sourceKey(x))} />
      {removeSource.error && <ErrorNotice error={removeSource.error} />}
      {reflectAll.error && <ErrorNotice error={reflectAll.error} />}
      {roots.error && <ErrorNotice error={roots.error} onRetry={() => void roots.refetch()} />}
      {!origin && roots.data && (
        <div className="empty">
          <p>{t('ws.noRootsHelp')}</p>
          <button type="button" className="btn" onClick={() => navigate({ screen: 'settings' })}>
            {t('nav.settings')}
          </button>
        </div>
      )}
      {origin && (
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
          <div className="split-detail">{task ? <TaskDetail origin={origin} task={task} /> : <p className="empty">{t('ws.pickTask')}</p>}</div>
        </div>
      )}
    </section>
  )
}

function TaskDetail(props: { origin: TaskOrigin; task: TaskSummary }): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const jobs = useJobStore()
  const { navigate, library } = useAppState()
  const { task, origin } = props
  const reflect = useMutation({
    mutationFn: () =>
      origin.kind === 'root'
        ? api.call('reflect.start', { root: origin.root, tasks: [task.path], force: task.reflected })
        : api.call('sessions.reflect', { source: origin.source, dir: origin.dir, library: library ?? '', tasks: [task.taskDir], force: task.reflected }),
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
        <button
          type="button"
          className="btn btn-primary"
          data-testid="task-reflect"
          onClick={() => reflect.mutate()}
          disabled={reflect.isPending || (origin.kind === 'session' && !library)}
          title={origin.kind === 'session' ? t('ws.reflectInto', { library: library ?? '—' }) : undefined}
        >
          {task.reflected ? t('ws.reflectAgain') : t('ws.reflectTask')}
        </button>
      </header>
      {origin.kind === 'session' && (
        <p className="muted" data-testid="session-reflect-target">
          {library ? t('ws.reflectInto', { library }) : t('shell.noLibraryHelp')}
        </p>
      )}
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
        <LogView key={task.path} origin={origin} taskPath={task.path} />
      </div>
    </div>
  )
}
