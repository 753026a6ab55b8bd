import { useCallback, useEffect, useReducer, useRef } from 'react'

/**
 * Moves the keyboard focus to an element (by data-testid) as soon as it is rendered and enabled, so that
 * after an action focus lands on its result or the next action instead of falling back to the page body
 * (a button that disables itself while busy drops focus). Runs after dialogs have restored their own focus.
 */
export function useFocusSoon(): (testId: string) => void {
  const target = useRef<string | null>(null)
  const [, rerender] = useReducer((n: number) => n + 1, 0)
  // every render: the element may appear a few renders later (a job's panel, a refreshed plan)
  useEffect(() => {
    if (!target.current) return
    const el = document.querySelector<HTMLElement>(`[data-testid="${target.current}"]`)
    if (!el || (el instanceof HTMLButtonElement && el.disabled)) return
    target.current = null
    el.focus()
  })
  return useCallback((testId: string) => {
    target.current = testId
    rerender()
  }, [])
}
