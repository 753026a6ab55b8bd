/**
 * Navigation and the current library / data root, shared by the screens. Navigation can be
 * held by a guard (the editor's unsaved changes): the shell then asks before leaving.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react'
import type { ReactNode } from 'react'

export type Route =
  | { screen: 'overview' }
  | { screen: 'workspaces'; taskPath?: string }
  | { screen: 'skills' }
  | { screen: 'editor'; library: string; skillId: string }
  | { screen: 'reflect' }
  | { screen: 'curate' }
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
}

const AppStateContext = createContext<AppState | null>(null)

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

/** Holds the route, the guard and the selected library / root. */
export function AppStateProvider(props: { children: ReactNode; initialRoute?: Route }): React.JSX.Element {
  const [route, setRoute] = useState<Route>(props.initialRoute ?? { screen: 'overview' })
  const [pending, setPending] = useState<Route | null>(null)
  const guard = useRef<(() => boolean) | null>(null)
  const [library, setLibraryState] = useState<string | null>(() => readStored('skillbench.library'))
  const [root, setRootState] = useState<string | null>(() => readStored('skillbench.root'))

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
    store('skillbench.library', value)
  }, [])
  const setRoot = useCallback((value: string | null) => {
    setRootState(value)
    store('skillbench.root', value)
  }, [])

  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent): void => {
      if (guard.current?.()) e.preventDefault()
    }
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => window.removeEventListener('beforeunload', onBeforeUnload)
  }, [])

  const value = useMemo(
    () => ({ route, navigate, pending, confirmPending, cancelPending, setGuard, library, setLibrary, root, setRoot }),
    [route, navigate, pending, confirmPending, cancelPending, setGuard, library, setLibrary, root, setRoot]
  )
  return <AppStateContext.Provider value={value}>{props.children}</AppStateContext.Provider>
}

/** The shared navigation / selection state. */
export function useAppState(): AppState {
  const value = useContext(AppStateContext)
  if (!value) throw new Error('useAppState() outside <AppStateProvider>')
  return value
}
