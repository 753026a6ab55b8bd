import { lazy, Suspense, useEffect } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { LibraryInfo } from '../../../shared/api'
import { useApi } from '../../api/context'
import { useLibraries } from '../../api/hooks'
import { useJobs, useJobStore } from '../../api/jobs'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import type { ScreenName } from '../../app-state'
import { Dialog } from '../../components/Dialog'
import { ErrorBoundary } from '../../components/ErrorBoundary'
import { ErrorNotice } from '../../components/ErrorNotice'
import { ProgressBar } from '../../components/ProgressBar'
import { useI18n } from '../../i18n/i18n'
import type { MessageKey } from '../../i18n/messages'
import { OverviewScreen } from '../overview/OverviewScreen'
import { SkillsScreen } from '../skills/SkillsScreen'

// The first screens (Overview, Skills) come with the page; the others (and what only they need: the YAML parser of
// the editors, the curation diff) load when first opened, so the page a person waits for parses less.
const CurateScreen = lazy(async () => ({ default: (await import('../curate/CurateScreen')).CurateScreen }))
const DeployScreen = lazy(async () => ({ default: (await import('../deploy/DeployScreen')).DeployScreen }))
const MemoryScreen = lazy(async () => ({ default: (await import('../memory/MemoryScreen')).MemoryScreen }))
const SkillEditor = lazy(async () => ({ default: (await import('../editor/SkillEditor')).SkillEditor }))
const SkillFileEditor = lazy(async () => ({ default: (await import('../editor/SkillFileEditor')).SkillFileEditor }))
const ReflectScreen = lazy(async () => ({ default: (await import('../reflect/ReflectScreen')).ReflectScreen }))
const SettingsScreen = lazy(async () => ({ default: (await import('../settings/SettingsScreen')).SettingsScreen }))
const WorkspacesScreen = lazy(async () => ({ default: (await import('../workspaces/WorkspacesScreen')).WorkspacesScreen }))


const NAV: { screen: Exclude<ScreenName, 'editor' | 'file'>; label: MessageKey; icon: string }[] = [
  { screen: 'overview', label: 'nav.overview', icon: '◎' },
  { screen: 'workspaces', label: 'nav.workspaces', icon: '▤' },
  { screen: 'skills', label: 'nav.skills', icon: '✦' },
  { screen: 'reflect', label: 'nav.reflect', icon: '↻' },
  { screen: 'curate', label: 'nav.curate', icon: '⇄' },
  { screen: 'deploy', label: 'nav.deploy', icon: '⇪' },
  { screen: 'memory', label: 'nav.memory', icon: '✎' },
  { screen: 'settings', label: 'nav.settings', icon: '⚙' }
]

function LibraryPicker(): React.JSX.Element {
  const { t } = useI18n()
  const { library, setLibrary } = useAppState()
  const libraries = useLibraries()
  const list = libraries.data ?? []
  const option = (l: LibraryInfo): React.JSX.Element => (
    <option key={l.path} value={l.path} title={l.path}>
      {l.label}
      {l.exists ? '' : ` (${t('shell.noSkillsYet')})`}
    </option>
  )
  const fromRoots = list.filter((l) => l.origin === 'root')
  const opened = list.filter((l) => l.origin === 'opened')
  return (
    <label className="side-field">
      <span>{t('shell.library')}</span>
      <select data-testid="library-picker" value={library ?? ''} onChange={(e) => setLibrary(e.target.value || null)} disabled={!list.length}>
        {!list.length && <option value="">{libraries.isLoading ? t('common.loading') : t('shell.noLibrary')}</option>}
        {opened.length === 0 ? (
          fromRoots.map(option)
        ) : (
          <>
            {fromRoots.length > 0 && <optgroup label={t('shell.fromRoots')}>{fromRoots.map(option)}</optgroup>}
            <optgroup label={t('shell.openedFolders')}>{opened.map(option)}</optgroup>
          </>
        )}
      </select>
    </label>
  )
}

function JobsStatus(): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const store = useJobStore()
  const jobs = useJobs()
  const { navigate } = useAppState()
  const listed = useQuery({ queryKey: queryKeys.jobs(), queryFn: () => api.call('jobs.list', {}) })
  useEffect(() => {
    for (const job of listed.data ?? []) store.track(job)
  }, [listed.data, store])
  const running = Object.values(jobs).filter((j) => j.state === 'running')
  return (
    <div className="jobs-status" aria-live="polite" data-testid="jobs-status">
      {running.length === 0 ? (
        <span className="muted">{t('shell.noJobs')}</span>
      ) : (
        running.map((job) => (
          <button key={job.jobId} type="button" className="job-chip" onClick={() => navigate({ screen: job.kind === 'reflect' ? 'reflect' : 'curate' })}>
            <span>{t(job.kind === 'reflect' ? 'job.reflect' : job.kind === 'sync' ? 'job.sync' : 'job.curate')}</span>
            <ProgressBar value={job.fraction} label={t(job.kind === 'reflect' ? 'job.reflect' : job.kind === 'sync' ? 'job.sync' : 'job.curate')} />
          </button>
        ))
      )}
    </div>
  )
}

function Screen(): React.JSX.Element {
  const { t } = useI18n()
  return (
    <Suspense fallback={<p className="muted" role="status">{t('common.loading')}</p>}>
      <CurrentScreen />
    </Suspense>
  )
}

function CurrentScreen(): React.JSX.Element {
  const { route } = useAppState()
  switch (route.screen) {
    case 'overview':
      return <OverviewScreen />
    case 'workspaces':
      return <WorkspacesScreen initialTask={route.taskPath} initialRoot={route.root} initialSession={route.session} />
    case 'skills':
      return <SkillsScreen />
    case 'editor':
      return <SkillEditor key={`${route.library}:${route.skillId}`} library={route.library} skillId={route.skillId} focus={route.focus} />
    case 'file':
      return <SkillFileEditor key={`${route.library}:${route.path}`} library={route.library} path={route.path} />
    case 'reflect':
      return <ReflectScreen />
    case 'curate':
      return <CurateScreen />
    case 'deploy':
      return <DeployScreen />
    case 'memory':
      return <MemoryScreen />
    case 'settings':
      return <SettingsScreen />
  }
}

/** The window frame: sidebar (nav, library, language, jobs) and the current screen. */
export function Shell(): React.JSX.Element {
  const { t, lang, setLang } = useI18n()
  const { route, navigate, pending, confirmPending, cancelPending } = useAppState()
  const active = route.screen === 'editor' || route.screen === 'file' ? 'skills' : route.screen
  return (
    <div className="shell">
      <nav className="sidebar" aria-label={t('shell.navigation')}>
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◆
          </span>
          Skillbench
        </div>
        <ul className="nav-list">
          {NAV.map((item) => (
            <li key={item.screen}>
              <button
                type="button"
                className="nav-item"
                data-testid={`nav-${item.screen}`}
                aria-current={active === item.screen ? 'page' : undefined}
                onClick={() => navigate({ screen: item.screen })}
              >
                <span className="nav-icon" aria-hidden="true">
                  {item.icon}
                </span>
                {t(item.label)}
              </button>
            </li>
          ))}
        </ul>
        <div className="sidebar-bottom">
          <LibraryPicker />
          <label className="side-field">
            <span>{t('shell.language')}</span>
            <select data-testid="language-switch" value={lang} onChange={(e) => setLang(e.target.value === 'zh' ? 'zh' : 'en')}>
              <option value="en">English</option>
              <option value="zh">简体中文</option>
            </select>
          </label>
          <JobsStatus />
        </div>
      </nav>
      <main className="main" data-testid={`screen-${route.screen}`}>
        <ErrorBoundary
          resetKey={JSON.stringify(route)}
          fallback={(error, reset) => (
            <div className="screen">
              <h1>{t('error.screenCrashed')}</h1>
              <ErrorNotice error={error} action="failed.showScreen" onRetry={reset} />
            </div>
          )}
        >
          <Screen />
        </ErrorBoundary>
      </main>
      {pending && (
        <Dialog title={t('guard.title')} onClose={cancelPending} testId="unsaved-dialog">
          <p>{t('guard.body')}</p>
          <div className="dialog-actions">
            <button type="button" className="btn" onClick={cancelPending} data-autofocus>
              {t('guard.stay')}
            </button>
            <button type="button" className="btn btn-danger" data-testid="discard-changes" onClick={confirmPending}>
              {t('guard.discard')}
            </button>
          </div>
        </Dialog>
      )}
    </div>
  )
}
