import { afterEach, expect } from 'vitest'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { ApiEvent } from '../../src/shared/api'
import { createWorkbench, type Workbench, type WorkbenchDeps } from '../../src/main/workbench'
import { createFileSecretStore } from '../../src/main/workbench/secrets'

/** The bundled sample data root (our own demo data: two users, five tasks, five skills). */
export const SAMPLE_ROOT = path.resolve(__dirname, '../../resources/sample-data')

/** A fresh temp folder. */
export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `skillbench-${prefix}-`))
}

/** A writable copy of the sample data root. */
export function copySampleRoot(): string {
  const dir = path.join(tempDir('root'), 'data')
  fs.cpSync(SAMPLE_ROOT, dir, { recursive: true })
  return dir
}

export interface TestBench {
  wb: Workbench
  events: ApiEvent[]
  settingsDir: string
  root: string
  /** Calls a method through dispatch (schema-checked) and throws the error shape on failure. */
  call<T = unknown>(method: string, input?: unknown): Promise<T>
}

/** A workbench on a temp settings dir and a copy of the sample root (real modules). */
export async function openTestBench(extra: Partial<WorkbenchDeps> = {}, root = copySampleRoot(), settingsDir = tempDir('settings')): Promise<TestBench> {
  const events: ApiEvent[] = []
  const wb = await createWorkbench({
    settingsDir,
    transport: 'web',
    secrets: createFileSecretStore(settingsDir),
    emit: (e) => events.push(e),
    initialRoots: [root],
    watch: false,
    ...extra
  })
  return {
    wb,
    events,
    settingsDir,
    root: fs.realpathSync(root),
    async call<T>(method: string, input: unknown = {}): Promise<T> {
      const answer = await wb.dispatch(method, input)
      if (!answer.ok) {
        throw Object.assign(new Error(answer.error.message), { code: answer.error.code })
      }
      return answer.value as T
    }
  }
}

/** Waits until `predicate` holds for some received event (polling the list), or fails after `ms`. */
export async function waitForEvent(events: ApiEvent[], predicate: (e: ApiEvent) => boolean, ms = 10_000): Promise<ApiEvent> {
  const started = Date.now()
  for (;;) {
    const found = events.find(predicate)
    if (found) {
      return found
    }
    if (Date.now() - started > ms) {
      throw new Error(`no matching event within ${ms} ms; got: ${events.map((e) => e.type).join(', ')}`)
    }
    await new Promise((r) => setTimeout(r, 20))
  }
}

/**
 * Test benches disposed after each test: call once at the top of a test file; `bench()` opens one
 * (same arguments as openTestBench).
 */
export function benchesDisposedAfterEach(): (...args: Parameters<typeof openTestBench>) => Promise<TestBench> {
  const benches: TestBench[] = []
  afterEach(async () => {
    await Promise.all(benches.splice(0).map((b) => b.wb.dispose()))
  })
  return async (...args) => {
    const b = await openTestBench(...args)
    benches.push(b)
    return b
  }
}

/** The error a call failed with (code + message); fails the test when the call succeeded. */
export async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const err = (await p.then(
    () => undefined,
    (e: unknown) => e
  )) as { code: string; message: string } | undefined
  expect(err, 'expected the call to fail').toBeDefined()
  return err!
}
