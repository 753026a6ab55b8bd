/** Renders the whole renderer app against a fake API in jsdom. */
import { cleanup, configure, render } from '@testing-library/react'
import type { RenderResult } from '@testing-library/react'
import { QueryClient } from '@tanstack/react-query'
import { afterEach } from 'vitest'
import { App } from '../../src/renderer/App'
import type { Route } from '../../src/renderer/app-state'
import type { FakeApi } from './fake-api'

// findBy/waitFor wait up to 5 s instead of 1 s: the suite shares two cores with other processes, and under load a
// query's fake response can take longer than a second to render; a passing wait still returns at once.
configure({ asyncUtilTimeout: 5000 })

// jsdom lacks ResizeObserver (react-virtual uses it) and matchMedia.
class NoopResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
globalThis.ResizeObserver ??= NoopResizeObserver as unknown as typeof ResizeObserver
window.HTMLElement.prototype.scrollTo ??= function scrollTo() {}
// jsdom does no layout: give virtualised lists a viewport so they render a window of rows.
for (const [prop, size] of [['clientHeight', 600], ['clientWidth', 800]] as const) {
  Object.defineProperty(window.HTMLElement.prototype, prop, {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('vlist') ? size : 0
    }
  })
}

afterEach(() => {
  cleanup()
  window.localStorage.clear()
})

/** Mounts <App> with the fake API, starting on `route` (with the tests' query client: no retry, no staleTime, unless given one). */
export function renderApp(api: FakeApi, route?: Route, client = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } })): RenderResult {
  window.localStorage.setItem('skillbench.lang', 'en')
  return render(<App api={api} initialRoute={route} queryClient={client} />)
}
