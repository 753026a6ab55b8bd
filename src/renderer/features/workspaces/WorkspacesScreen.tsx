import { useEffect, useMemo, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { SessionSourceInfo, SessionSourceKind, TaskSummary } from '../../../shared/api'
import { useApi } from '../../api/context'
import { useLibraries, useRoots } from '../../api/hooks'
import { useJobStore } from '../../api/jobs'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { Badge } from '../../components/Badge'
import { ErrorNotice } from '../../components/ErrorNotice'
import { formatDate, middleEllipsis } from '../../components/format'
import { VirtualList } from '../../components/VirtualList'
import { useI18n } from '../../i18n/i18n'
import { translateLine } from '../../i18n/messages-errors'
import { LogView, type LogTarget, type TaskOrigin } from './LogView'
import { BADGE_TONE, taskHeadline, taskKey, taskRows } from './task-status'
import { taskTime } from '../../../shared/task-time'
import { RootProblemNotice } from '../../components/RootProblemNotice'
import { setFlag } from '../../progress-flags'
import type { ToolCall } from '../../../shared/types'
import type { TaskBadge, TaskRow } from './task-status'
import { useRememberedState } from '../../remembered-state'

const STATUSES: (TaskBadge | 'all')[] = ['all', 'completed', 'interrupted', 'incomplete', 'reflected', 'skipped']
const SESSION_KINDS: SessionSourceKind[] = ['claude', 'codex', 'synapse']
const SEP = '\u0000'
/** A data root's or session folder's path is shown cut in the middle past this many characters. */
const ROOT_SHOWN_CHARS = 36

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
      {add.error && <ErrorNotice error={add.error} action="failed.addSessions" />}
    </details>
  )
}

/** Data roots → users → tasks, with the parsed trace beside the raw log. */
export function WorkspacesScreen(props: { initialTask?: string; initialRoot?: string; initialSession?: { source: SessionSourceKind; dir: string } }): React.JSX.Element {
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
  // a link to a task names its session folder or data root: open there (once)
  const [picked, setPicked] = useRememberedState('workspaces.source', '', props.initialSession ? sourceKey(props.initialSession) : undefined)
  const { initialRoot, initialSession } = props
  useEffect(() => {
    if (initialRoot && !initialSession) setRoot(initialRoot)
  }, [initialRoot, initialSession, setRoot])
  const session = sessions.list.find((x) => sourceKey(x) === picked) ?? null
  const rootInfo = roots.data?.find((r) => r.path === root)
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
  const libraries = useLibraries()
  // skills from a session folder go to the library chosen for it (remembered), else the one selected in the sidebar
  const target = session?.targetLibrary ?? library
  const setTarget = useMutation({
    mutationFn: (lib: string) => api.call('sessions.setTarget', { source: session!.source, dir: session!.dir, library: lib }),
    onSuccess: (list) => client.setQueryData(queryKeys.sessions(), list)
  })
  const reflectAll = useMutation({
    mutationFn: (x: SessionSourceInfo) => api.call('sessions.reflect', { source: x.source, dir: x.dir, library: target ?? '' }),
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
    // a skipped folder's reason matches as shown (in the UI language) as well as in its English
    return taskRows(user ? all.filter((x) => x.user === user) : all, user ? [] : (tasks.data?.skipped ?? []), { status, text }, (s) => translateLine(s, s.reason, lang))
  }, [tasks.data, user, status, text, lang])
  const users = useMemo(() => [...new Set((tasks.data?.tasks ?? []).map((x) => x.user))].sort(), [tasks.data])

  // Deep link from the editor: select the task by folder name or path.
  const initialTask = props.initialTask
  const data = tasks.data
  const [initialApplied, setInitialApplied] = useState(false)
  if (!initialApplied && initialTask && data && !(initialRoot && !initialSession && root !== initialRoot)) {
    setInitialApplied(true)
    const hit = data.tasks.find((x) => x.path === initialTask || x.taskDir === initialTask)
    if (hit) setSelected(taskKey(hit))
  }

  // Until the user picks one, show the newest task rather than an empty pane.
  const firstTask = rows.find((r) => r.kind === 'task')
  const shown = selected ?? (firstTask?.kind === 'task' ? taskKey(firstTask.task) : null)
  const task = tasks.data?.tasks.find((x) => taskKey(x) === shown) ?? null

  return (
    <section className="screen screen-fill" aria-labelledby="ws-title">
      {/* one line at the window's least width in both modes; a session folder's (two pickers, two buttons) as a grid */}
      <header className={`screen-header screen-header-one-line${session ? ' screen-header-grid' : ''}`}>
        <h1 id="ws-title">{t('ws.title')}</h1>
        <label className="field-inline field-shrink">
          {t('ws.source')}
          <select data-testid="source-picker" value={session ? picked : ''} onChange={(e) => pick(e.target.value)}>
            <option value="">{t('source.agiagent')}</option>
            {sessions.list.map((x) => (
              <option key={sourceKey(x)} value={sourceKey(x)} title={x.dir}>
                {t(`source.${x.source}`)} · {middleEllipsis(x.dir, ROOT_SHOWN_CHARS)}
                {x.detected ? ` (${t('ws.detected')})` : ''}
                {x.exists ? '' : ` (${t('shell.missing')})`}
              </option>
            ))}
          </select>
        </label>
        {session ? (
          <>
            <label className="field-inline field-shrink">
              {t('ws.skillsGoTo')}
              <select data-testid="session-target" value={target ?? ''} onChange={(e) => e.target.value && setTarget.mutate(e.target.value)}>
                {!target && <option value="">{t('shell.noLibrary')}</option>}
                {(libraries.data ?? []).map((l) => (
                  <option key={l.path} value={l.path} title={l.path}>
                    {l.label}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              className="btn btn-small btn-primary btn-shrink"
              title={t('ws.reflectAllSessions')}
              data-testid="session-reflect-all"
              disabled={!target || reflectAll.isPending}
              onClick={() => reflectAll.mutate(session)}
            >
              {t('ws.reflectAllSessions')}
            </button>
            {session.added && (
              <button type="button" className="btn btn-small btn-shrink" title={t('ws.removeSessions')} data-testid="session-remove" disabled={removeSource.isPending} onClick={() => removeSource.mutate(session)}>
                {t('ws.removeSessions')}
              </button>
            )}
          </>
        ) : (
          <>
        <label className="field-inline field-shrink">
          {t('ws.root')}
          <select data-testid="root-picker" value={root ?? ''} title={root ?? undefined} onChange={(e) => setRoot(e.target.value || null)}>
            {(roots.data ?? []).length === 0 && <option value="">{t('ws.noRoots')}</option>}
            {roots.data?.map((r) => (
              // a long path is cut in the middle to keep the header on one line; the whole path is the title of the option and
              // of the picker (the picker's description for a screen reader: its name stays the label's)
              <option key={r.path} value={r.path} title={r.path}>
                {middleEllipsis(r.path, ROOT_SHOWN_CHARS)} ({r.taskCount})
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
      {removeSource.error && <ErrorNotice error={removeSource.error} action="failed.removeSessions" />}
      {setTarget.error && <ErrorNotice error={setTarget.error} action="failed.setTarget" />}
      {reflectAll.error && <ErrorNotice error={reflectAll.error} action="failed.startReflect" />}
      {roots.error && <ErrorNotice error={roots.error} action="failed.listRoots" onRetry={() => void roots.refetch()} />}
      {!origin && roots.data && (
        <div className="empty">
          <p>{t('ws.noRootsHelp')}</p>
          <button type="button" className="btn" onClick={() => navigate({ screen: 'settings' })}>
            {t('nav.settings')}
          </button>
        </div>
      )}
      {!session && rootInfo?.problem && <RootProblemNotice root={rootInfo} />}
      {origin && !(!session && rootInfo?.problem && tasks.data && tasks.data.tasks.length === 0) && (
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
            {tasks.error && <ErrorNotice error={tasks.error} action="failed.listTasks" onRetry={() => void tasks.refetch()} />}
            {tasks.isLoading ? (
              <p className="muted">{t('common.loading')}</p>
            ) : rows.length === 0 ? (
              <p className="empty" data-testid="tasks-empty">
                {(tasks.data?.tasks.length ?? 0) + (tasks.data?.skipped.length ?? 0) === 0 ? t(session ? 'ws.noSessionTasks' : 'ws.noTasksInRoot', { path: session ? session.dir : (root ?? '') }) : t('ws.noTasks')}
              </p>
            ) : (
              <VirtualList<TaskRow>
                items={rows}
                rowHeight={56}
                getKey={(r) => r.key}
                ariaLabel={t('ws.tasks')}
                testId="task-list"
                rowTestId="task-row"
                onActiveChange={(r) => r.kind === 'task' && setSelected(taskKey(r.task))}
                onOpen={(r) => r.kind === 'task' && setSelected(taskKey(r.task))}
                renderRow={(r) => (
                  <div className={r.kind === 'task' && taskKey(r.task) === shown ? 'task-row task-row-selected' : 'task-row'}>
                    <div className="task-row-top">
                      <span className="ellipsis strong" data-testid="task-headline">
                        {r.kind === 'task' ? taskHeadline(r.task) : r.skipped.path}
                      </span>
                      <Badge tone={BADGE_TONE[r.badge]} testId="task-badge">
                        {t(`status.${r.badge}`)}
                      </Badge>
                    </div>
                    <div className="cell-sub ellipsis" data-testid="task-sub">
                      {r.kind === 'task' ? [formatDate(taskTime(r.task), lang), r.task.user, r.task.taskDir].filter(Boolean).join(' · ') : translateLine(r.skipped, r.skipped.reason, lang)}
                    </div>
                  </div>
                )}
              />
            )}
          </div>
          <div className="split-detail">{task ? <TaskDetail origin={origin} task={task} readOnly={!session && rootInfo?.problem === 'bundled-sample'} /> : <p className="empty">{t('ws.pickTask')}</p>}</div>
        </div>
      )}
    </section>
  )
}

/** A tool call's place in the raw log, when the log view can show it (its own log file, or a session line). */
function callTarget(call: ToolCall, origin: TaskOrigin, seq: number): LogTarget | null {
  if (origin.kind === 'session') return call.line !== undefined ? { line: call.line, seq } : null
  return call.offset !== undefined ? { file: `${call.agent}.out`, offset: call.offset, seq } : null
}

/** Shown tool calls per task (the rest are counted). */
const SHOWN_CALLS = 500
const ARG_PREVIEW = 140

/** `readOnly`: the task is in the bundled sample data (a root an earlier version remembered): read, never reflected into. */
function TaskDetail(props: { origin: TaskOrigin; task: TaskSummary; readOnly?: boolean }): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const jobs = useJobStore()
  const { navigate, library } = useAppState()
  const { task, origin } = props
  const sessions = useSessionSources()
  const target = origin.kind === 'session' ? (sessions.list.find((s) => s.source === origin.source && s.dir === origin.dir)?.targetLibrary ?? library) : library
  const [logTarget, setLogTarget] = useState<LogTarget | undefined>(undefined)
  const [seq, setSeq] = useState(1)
  const [flagged, setFlagged] = useState(false)
  if (!flagged) {
    setFlagged(true)
    setFlag('browsed')
  }
  const reflect = useMutation({
    mutationFn: () =>
      origin.kind === 'root'
        ? api.call('reflect.start', { root: origin.root, tasks: [task.path], force: task.reflected })
        : api.call('sessions.reflect', { source: origin.source, dir: origin.dir, library: target ?? '', tasks: [task.taskDir], force: task.reflected }),
    onSuccess: (job) => {
      jobs.track(job)
      navigate({ screen: 'reflect' })
    }
  })
  const total = task.toolCallsTotal ?? task.toolCalls.length
  const capped = total > task.toolCalls.length
  const shownCalls = task.toolCalls.slice(0, SHOWN_CALLS)
  const jump = (call: ToolCall): void => {
    const next = callTarget(call, origin, seq)
    if (!next) return
    setSeq(seq + 1)
    setLogTarget(next)
  }
  return (
    <div className="task-detail" data-testid="task-detail">
      <header className="detail-header">
        <div className="detail-title">
          <h2 className="ellipsis" title={taskHeadline(task)}>
            {taskHeadline(task)}
          </h2>
          <span className="cell-sub ellipsis">{[formatDate(taskTime(task), lang), task.user, task.taskDir].filter(Boolean).join(' · ')}</span>
        </div>
        <Badge tone={BADGE_TONE[task.reflected ? 'reflected' : task.status]}>{t(`status.${task.reflected ? 'reflected' : task.status}`)}</Badge>
        <button type="button" className="btn btn-primary" data-testid="task-reflect" onClick={() => reflect.mutate()} disabled={props.readOnly || reflect.isPending || (origin.kind === 'session' && !target)}>
          {task.reflected ? t('ws.reflectAgain') : t('ws.reflectTask')}
        </button>
      </header>
      {origin.kind === 'session' && (
        <p className="muted" data-testid="session-reflect-target">
          {target ? t('ws.reflectInto', { library: target }) : t('shell.noLibraryHelp')}
        </p>
      )}
      {reflect.error && <ErrorNotice error={reflect.error} action="failed.startReflect" />}
      <div className="trace-and-log">
        {/* it scrolls: focusable, so a keyboard reaches what is below its fold even when it holds no button */}
        <div className="trace" data-testid="task-trace" tabIndex={0} role="region" aria-label={t('ws.traceLabel')}>
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
          <h3 data-testid="tool-calls-heading">{capped ? t('ws.toolCallsCapped', { n: task.toolCalls.length.toLocaleString('en-US'), total: total.toLocaleString('en-US') }) : t('ws.toolCalls', { n: total.toLocaleString('en-US') })}</h3>
          {capped && <p className="muted small" data-testid="tool-calls-capped">{t('ws.toolCallsCappedHelp', { n: task.toolCalls.length.toLocaleString('en-US') })}</p>}
          {task.toolCalls.length === 0 ? <p className="muted">{t('common.none')}</p> : (
            <ol className="timeline">
              {shownCalls.map((c, i) => (
                <ToolCallItem key={i} call={c} canJump={callTarget(c, origin, 0) !== null} onJump={() => jump(c)} />
              ))}
            </ol>
          )}
          {task.toolCalls.length > SHOWN_CALLS && <p className="muted small">{t('ws.moreCalls', { n: (task.toolCalls.length - SHOWN_CALLS).toLocaleString('en-US') })}</p>}
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
                    {t(`ws.msgKind.${m.kind}`)}
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
        <LogView key={taskKey(task)} origin={origin} taskPath={task.path} target={logTarget} />
      </div>
    </div>
  )
}

/** One tool call: its name jumps to its line in the raw log; long arguments fold and unfold. */
function ToolCallItem(props: { call: ToolCall; canJump: boolean; onJump: () => void }): React.JSX.Element {
  const { t } = useI18n()
  const [open, setOpen] = useState(false)
  const { call } = props
  const args = Object.entries(call.params).map(([k, v]) => `${k}=${v}`).join(' ')
  const long = args.length > ARG_PREVIEW || args.includes('\n')
  return (
    <li className={call.ok === false ? 'tl-item tl-bad' : 'tl-item'} data-testid="tool-call">
      <div className="tl-line">
        <span className="tl-agent">{call.agent}</span>
        {props.canJump ? (
          <button type="button" className="link tl-name" data-testid="tool-call-jump" title={t('ws.showInLog')} onClick={props.onJump}>
            <code>{call.name}</code>
          </button>
        ) : (
          <code>{call.name}</code>
        )}
        {!open && <span className="cell-sub ellipsis">{args.slice(0, ARG_PREVIEW)}</span>}
        {long && (
          <button type="button" className="btn btn-small btn-ghost" aria-expanded={open} data-testid="tool-call-expand" onClick={() => setOpen((v) => !v)}>
            {open ? t('ws.argsLess') : t('ws.argsMore')}
          </button>
        )}
      </div>
      {open && (
        <dl className="tl-args" data-testid="tool-call-args">
          {Object.entries(call.params).map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>
                <pre>{v}</pre>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  )
}
