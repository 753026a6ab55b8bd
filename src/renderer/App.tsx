import { useCallback, useEffect, useState } from 'react'
import type { ReactNode } from 'react'
import { QueryClient, QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query'
import type { SkillbenchApi } from '../shared/api'
import { ApiProvider, useApi } from './api/context'
import { invalidateForEvent } from './api/events'
import { JobStore } from './api/job-store'
import { JobsProvider, useJobStore } from './api/jobs'
import { refreshProblemsOnReturn } from './api/problems-refresh'
import { queryKeys } from './api/query-keys'
import { AppStateProvider } from './app-state'
import type { Route } from './app-state'
import { I18nProvider } from './i18n/i18n'
import type { Lang } from './i18n/i18n'
import { Shell } from './features/shell/Shell'

/** A query client with settings fit for a local app (no refetch storms, one retry). */
export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: 1, staleTime: 2_000, refetchOnWindowFocus: false }, mutations: { retry: 0 } } })
}

/** Subscribes once to pushed events: jobs get their progress, queries get invalidated. */
function EventBridge(): null {
  const api = useApi()
  const client = useQueryClient()
  const jobs = useJobStore()
  useEffect(
    () =>
      api.onEvent((event) => {
        jobs.apply(event)
        invalidateForEvent(client, event)
      }),
    [api, client, jobs]
  )
  return null
}

/** Re-reads the libraries' problems (the recovery notice) when the window is back and after the app's changes. */
function ProblemsRefresh(): null {
  const client = useQueryClient()
  useEffect(() => refreshProblemsOnReturn(client), [client])
  return null
}

function initialLang(): Lang {
  try {
    const stored = window.localStorage.getItem('skillbench.lang')
    if (stored === 'en' || stored === 'zh') return stored
  } catch {
    // ignore
  }
  return typeof navigator !== 'undefined' && navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en'
}

/** The UI language: the settings file is the truth once loaded; switching saves it there. */
function LanguageGate(props: { children: ReactNode }): React.JSX.Element {
  const api = useApi()
  const client = useQueryClient()
  const [lang, setLangState] = useState<Lang>(initialLang)
  const settings = useQuery({ queryKey: queryKeys.settings(), queryFn: () => api.call('settings.get', {}) })
  // The saved language wins once it arrives (adjusting state while rendering, not in an effect).
  const saved = settings.data?.language
  const [seenSaved, setSeenSaved] = useState<Lang | undefined>(undefined)
  if (saved && saved !== seenSaved) {
    setSeenSaved(saved)
    setLangState(saved)
  }
  const setLang = useCallback(
    (next: Lang) => {
      setLangState(next)
      try {
        window.localStorage.setItem('skillbench.lang', next)
      } catch {
        // ignore
      }
      api
        .call('settings.update', { patch: { language: next } })
        .then((s) => client.setQueryData(queryKeys.settings(), s))
        .catch(() => undefined) // the switch still works for this window
    },
    [api, client]
  )
  useEffect(() => {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en'
  }, [lang])
  return (
    <I18nProvider lang={lang} setLang={setLang}>
      {props.children}
    </I18nProvider>
  )
}

/** The whole renderer, given an API (any transport). */
export function App(props: { api: SkillbenchApi; queryClient?: QueryClient; initialRoute?: Route }): React.JSX.Element {
  const [client] = useState(() => props.queryClient ?? createQueryClient())
  const [jobs] = useState(() => new JobStore())
  return (
    <ApiProvider value={props.api}>
      <QueryClientProvider client={client}>
        <JobsProvider value={jobs}>
          <LanguageGate>
            <AppStateProvider initialRoute={props.initialRoute}>
              <EventBridge />
              <ProblemsRefresh />
              <Shell />
            </AppStateProvider>
          </LanguageGate>
        </JobsProvider>
      </QueryClientProvider>
    </ApiProvider>
  )
}
