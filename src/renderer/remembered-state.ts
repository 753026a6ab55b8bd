/**
 * State a screen keeps while the app runs, across leaving the screen and coming back (the chosen Workspaces
 * source, the Deploy target): a screen's own `useState` is gone when the person switches screens. Held by the
 * app state provider, so it lasts exactly as long as the app window's session.
 */
import { useCallback, useState } from 'react'
import { useAppState } from './app-state'

/** Like `useState` for a string, remembered under `key` while the app runs. `initial` (a deep link) wins when given. */
export function useRememberedState(key: string, fallback: string, initial?: string): [string, (value: string) => void] {
  const { screenMemory } = useAppState()
  const [value, setValue] = useState(() => {
    if (initial !== undefined) {
      screenMemory.set(key, initial)
      return initial
    }
    return screenMemory.get(key) ?? fallback
  })
  const set = useCallback(
    (next: string) => {
      screenMemory.set(key, next)
      setValue(next)
    },
    [key, screenMemory]
  )
  return [value, set]
}
