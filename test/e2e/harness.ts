/**
 * E2E plumbing: a fresh renderer build, `skillbench serve` on a temporary copy of a data root (serve.ts),
 * and Debian's Chromium driven by playwright-core with a throw-away profile.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect } from 'vitest'
import { chromium } from 'playwright-core'
import type { BrowserContext, Page } from 'playwright-core'
import { PROJECT, serve, type Served, type ServeOptions } from './serve'

export { PROJECT, serve, type Served, type ServeOptions }

export const CHROMIUM = '/usr/bin/chromium'
export const HAS_CHROMIUM = fs.existsSync(CHROMIUM)
export const SCREENSHOTS = path.join(PROJECT, 'artifacts', 'screenshots')

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs)
  }
  return newest
}

/**
 * `out/renderer` when `npm run build` (as `npm test` runs it first) made it from the sources as they are: the
 * build started (out/main/cli-sources.json's builtAt; main, preload, then renderer) after the newest source
 * changed, and the renderer was written in that same build. It is what `skillbench serve` serves; building it
 * again costs the first browser test of a run tens of seconds.
 */
function currentRendererBuild(newestSource: number): string | undefined {
  const dir = path.join(PROJECT, 'out', 'renderer')
  try {
    const { builtAt } = JSON.parse(fs.readFileSync(path.join(PROJECT, 'out', 'main', 'cli-sources.json'), 'utf8')) as { builtAt: number }
    return builtAt > newestSource && fs.statSync(path.join(dir, 'index.html')).mtimeMs >= builtAt ? dir : undefined
  } catch {
    return undefined
  }
}

/**
 * Otherwise builds the renderer alone (vite, same settings as electron.vite.config.ts) into a temp folder
 * named after the sources' state, so a run never tests a stale `out/renderer` and reruns reuse it.
 */
export async function buildRenderer(): Promise<string> {
  const newest = Math.max(newestMtime(path.join(PROJECT, 'src', 'renderer')), newestMtime(path.join(PROJECT, 'src', 'shared')))
  const built = currentRendererBuild(newest)
  if (built) return built
  const stamp = createHash('sha256')
    .update(String(newestMtime(path.join(PROJECT, 'src', 'renderer'))))
    .update(String(newestMtime(path.join(PROJECT, 'src', 'shared'))))
    .digest('hex')
    .slice(0, 16)
  const outDir = path.join(os.tmpdir(), `skillbench-e2e-renderer-${stamp}`)
  if (fs.existsSync(path.join(outDir, 'index.html'))) return outDir
  // builds of older sources are of no use any more (left alone for an hour: another run may be serving one)
  for (const name of fs.readdirSync(os.tmpdir())) {
    const dir = path.join(os.tmpdir(), name)
    if (name.startsWith('skillbench-e2e-renderer-') && Date.now() - fs.statSync(dir).mtimeMs > 3_600_000) fs.rmSync(dir, { recursive: true, force: true })
  }
  const script = `
    const { build } = await import('vite')
    const react = (await import('@vitejs/plugin-react')).default
    await build({ root: ${JSON.stringify(path.join(PROJECT, 'src', 'renderer'))}, base: './', logLevel: 'warn', plugins: [react()],
      build: { outDir: ${JSON.stringify(outDir)}, emptyOutDir: true, minify: false } })`
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: PROJECT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } })
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`renderer build failed (exit ${code})`))))
  })
  return outDir
}

export interface Browser {
  context: BrowserContext
  page: Page
  close: () => Promise<void>
}

/** Headless Chromium with a fresh profile; console errors are collected for the test to check. */
export async function launch(): Promise<Browser & { consoleErrors: string[] }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-chromium-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1360, height: 860 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-quic', '--disable-sync']
  })
  const page = context.pages()[0] ?? (await context.newPage())
  const consoleErrors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text())
  })
  page.on('pageerror', (e) => consoleErrors.push(e.message))
  return {
    context,
    page,
    consoleErrors,
    close: async () => {
      await context.close()
      fs.rmSync(profile, { recursive: true, force: true })
    }
  }
}

/** Saves a full-window screenshot under artifacts/screenshots/. */
export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) })
}

const AXE_SOURCE = fs.readFileSync(path.join(PROJECT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8')

export interface AxeProblem {
  id: string
  impact: string
  help: string
  nodes: string[]
}

/**
 * Runs axe-core on the page as it is now and returns its serious and critical violations (rule, impact, the
 * first few elements). Injected through the DevTools protocol, so the page's strict CSP stays on.
 */
export async function audit(page: Page): Promise<AxeProblem[]> {
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe !== 'undefined')
  if (!loaded) await page.evaluate(AXE_SOURCE)
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[]; failureSummary?: string }[] }[] }> } }).axe
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} — ${(n.failureSummary ?? '').split('\n').slice(1, 2).join('')}`) }))
  })
}

/** Audits the page and fails with the list of serious/critical violations (rule, elements) if there is one. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const problems = await audit(page)
  expect(problems, `axe on ${where}:\n${JSON.stringify(problems, null, 1)}`).toEqual([])
}

/** Opens a screen from the sidebar and waits for it. */
export async function go(page: Page, screen: string): Promise<void> {
  await page.getByTestId(`nav-${screen}`).click()
  await page.getByTestId(`screen-${screen}`).waitFor()
}

/** Chromium opened on a served workbench's URL, every wait bounded by `timeoutMs`. */
export async function openBrowser(url: string, timeoutMs = 30_000): Promise<Browser & { consoleErrors: string[] }> {
  const browser = await launch()
  browser.page.setDefaultTimeout(timeoutMs)
  await browser.page.goto(url)
  return browser
}

/**
 * The usual start of a browser test: the renderer built, `skillbench serve` on `fixtureRoot`, Chromium on it.
 */
export async function openWorkbench(fixtureRoot: string, opts: ServeOptions & { timeoutMs?: number } = {}): Promise<{ served: Served; browser: Browser & { consoleErrors: string[] }; page: Page }> {
  const served = await serve(fixtureRoot, await buildRenderer(), opts)
  const browser = await openBrowser(served.url, opts.timeoutMs)
  return { served, browser, page: browser.page }
}

/** A new `agents-data` data root in its own temporary folder (`closeWorkbench` removes the folder). */
export function tempAgentsRoot(prefix: string): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), `skillbench-e2e-${prefix}-`)), 'agents-data')
}

/** The usual end of a browser test: Chromium closed, the server stopped, a `tempAgentsRoot` folder removed. */
export async function closeWorkbench(opened: { browser?: Browser; served?: Served }, fixture?: string): Promise<void> {
  await opened.browser?.close()
  await opened.served?.stop()
  if (fixture) fs.rmSync(path.dirname(fixture), { recursive: true, force: true })
}
