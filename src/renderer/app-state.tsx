/**
 * Navigation and the current library / data root, shared by the screens. Navigation can be
 * held by a guard (the editor's unsaved changes): the shell then asks before leaving.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react'
import type { ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { SkillbenchApi } from '../shared/api'
import { useApi } from './api/context'
import { queryKeys } from './api/query-keys'

export type Route =
  | { screen: 'overview' }
  /** `root` / `session`: where the task is (a link from a skill's usage opens it there). */
  | { screen: 'workspaces'; taskPath?: string; root?: string; session?: { source: 'claude' | 'codex' | 'synapse'; dir: string } }
  | { screen: 'skills'; showErrors?: boolean }
  /** `focus`: put the keyboard in the editor (opened with Enter from a list). */
  | { screen: 'editor'; library: string; skillId: string; focus?: boolean }
  /** A skill file that does not load (broken front matter), opened as text to fix it. */
  | { screen: 'file'; library: string; path: string }
  | { screen: 'reflect' }
  /**
   * `tab`: open on the history (where every applied change, a deploy too, is undone later). `proposal`: show that one
   * proposal only (opened from elsewhere, e.g. a preference on the Memory screen).
   */
  | { screen: 'curate'; tab?: 'history'; proposal?: string }
  | { screen: 'deploy' }
  | { screen: 'memory' }
  | { screen: 'settings' }

export type ScreenName = Route['screen']

interface AppState {
  route: Route
  navigate: (route: Route) => void
  /** A navigation waiting for the user's answer to "discard unsaved changes?". */
  pending: Route | null
  confirmPending: () => void
  cancelPending: () => void
  /** Registers (or clears with null) a check that returns true while leaving would lose work. */
  setGuard: (guard: (() => boolean) | null) => void
  library: string | null
  setLibrary: (library: string | null) => void
  root: string | null
  setRoot: (root: string | null) => void
  /** What screens keep while the app runs (remembered-state.ts): lives as long as this provider. */
  screenMemory: Map<string, string>
}

const AppStateContext = createContext<AppState | null>(null)

/** Where the selected library and data root are kept between loads. */
export const SELECTION_KEYS = { library: 'skillbench.library', root: 'skillbench.root' } as const

function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null
  }
}

function store(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key)
    else window.localStorage.setItem(key, value)
  } catch {
    // storage may be unavailable (private mode): the choice just isn't remembered
  }
}

const START_RUN_KEY = 'skillbench.startRun'

/**
 * Where the app opens when it was asked to (`skillbench serve --root-dir DIR`): once per run of the workbench,
 * DIR and its first library, whatever was selected in an earlier run. Null when there is nothing to apply
 * (no start root, or already applied in this run: later choices stick). Marks the run applied.
 */
export async function startSelection(api: SkillbenchApi): Promise<{ root: string; library: string | null } | null> {
  try {
    const info = await api.call('app.info', {})
    if (!info.startRoot || readStored(START_RUN_KEY) === info.runId) return null
    const mine = (await api.call('libraries.list', {})).filter((l) => l.root === info.startRoot)
    const pick = mine.find((l) => l.exists) ?? mine[0]
    store(START_RUN_KEY, info.runId)
    return { root: info.startRoot, library: pick?.path ?? null }
  } catch {
    return null // no start root known: the app opens on what was selected before
  }
}

/** Holds the route, the guard and the selected library / root. */
export function AppStateProvider(props: { children: ReactNode; initialRoute?: Route }): React.JSX.Element {
  const [route, setRoute] = useState<Route>(props.initialRoute ?? { screen: 'overview' })
  const [pending, setPending] = useState<Route | null>(null)
  const guard = useRef<(() => boolean) | null>(null)
  const [screenMemory] = useState(() => new Map<string, string>())
  const [library, setLibraryState] = useState<string | null>(() => readStored(SELECTION_KEYS.library))
  const [root, setRootState] = useState<string | null>(() => readStored(SELECTION_KEYS.root))
  const api = useApi()
  const start = useQuery({ queryKey: [...queryKeys.appInfo(), 'start'], queryFn: () => startSelection(api), staleTime: Infinity, retry: false })
  const [startApplied, setStartApplied] = useState(false)
  if (start.data && !startApplied) {
    // adjusting this provider's own state while rendering: the start root wins over the stored selection once
    setStartApplied(true)
    setRootState(start.data.root)
    store(SELECTION_KEYS.root, start.data.root)
    if (start.data.library) {
      setLibraryState(start.data.library)
      store(SELECTION_KEYS.library, start.data.library)
    }
  }

  const navigate = useCallback((to: Route) => {
    if (guard.current?.()) setPending(to)
    else setRoute(to)
  }, [])
  const confirmPending = useCallback(() => {
    guard.current = null
    setPending((to) => {
      if (to) setRoute(to)
      return null
    })
  }, [])
  const cancelPending = useCallback(() => setPending(null), [])
  const setGuard = useCallback((g: (() => boolean) | null) => {
    guard.current = g
  }, [])
  const setLibrary = useCallback((value: string | null) => {
    setLibraryState(value)
    store(SELECTION_KEYS.library, value)
  }, [])
  const setRoot = useCallback((value: string | null) => {
    setRootState(value)
    store(SELECTION_KEYS.root, value)
  }, [])

  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent): void => {
      if (guard.current?.()) e.preventDefault()
    }
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => window.removeEventListener('beforeunload', onBeforeUnload)
  }, [])

  const value = useMemo(
    () => ({ route, navigate, pending, confirmPending, cancelPending, setGuard, library, setLibrary, root, setRoot, screenMemory }),
    [route, navigate, pending, confirmPending, cancelPending, setGuard, library, setLibrary, root, setRoot, screenMemory]
  )
  return <AppStateContext.Provider value={value}>{props.children}</AppStateContext.Provider>
}

/** The shared navigation / selection state. */
export function useAppState(): AppState {
  const value = useContext(AppStateContext)
  if (!value) throw new Error('useAppState() outside <AppStateProvider>')
  return value
}
