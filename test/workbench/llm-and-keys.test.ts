import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ApiEvent, JobInfo, LlmTestResult, ReflectSummary } from '../../src/shared/api'
import { chatCompletion, startOpenAiServer, type OpenAiTestServer } from '../helpers/openai-server'
import { openTestBench, waitForEvent, type TestBench } from './helpers'

const KEY = 'sk-test-VERYsecret0123456789wxyz'

/** Every file under `dir` whose text contains `needle` (relative paths). */
function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = []
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) {
        walk(p)
      } else if (e.isFile() && fs.readFileSync(p).includes(needle)) {
        hits.push(path.relative(dir, p))
      }
    }
  }
  walk(dir)
  return hits
}

let server: OpenAiTestServer | undefined
let bench: TestBench | undefined
afterEach(async () => {
  await bench?.wb.dispose()
  await server?.close()
  bench = undefined
  server = undefined
})

describe('workbench with a model (local OpenAI-protocol server)', () => {
  it('tests the connection with the stored key and reflects through the model without leaking the key', async () => {
    server = await startOpenAiServer(() => ({
      json: chatCompletion(
        'The user asked for a small tool; it was built and tested.\n\nSteps:\n1. Write the code.\n2. Run the tests.\n\nFILES_TO_BACKUP:\n\nUSAGE_CONDITIONS: Use for small tools with tests.'
      )
    }))
    bench = await openTestBench()
    const outputs: unknown[] = []
    outputs.push(await bench.call('settings.setApiKey', { apiKey: KEY }))
    outputs.push(await bench.call('settings.update', { patch: { llm: { provider: 'openai', baseUrl: server.url, model: 'test-model' } } }))
    const test = await bench.call<LlmTestResult>('llm.test')
    outputs.push(test)
    expect(test.ok).toBe(true)
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`)

    // alice's finished tasks did work (bob's only task is a joke told without tools: no skill, issue 36)
    const job = await bench.call<JobInfo>('reflect.start', { root: bench.root, user: 'alice' })
    outputs.push(job)
    await bench.wb.waitForJob(job.jobId)
    const done = (await waitForEvent(bench.events, (e) => e.type === 'job.done' && e.jobId === job.jobId)) as Extract<ApiEvent, { type: 'job.done' }>
    expect(done.state).toBe('done')
    const summary = done.result as ReflectSummary
    expect(summary.failed).toEqual([])
    expect(summary.created.length).toBeGreaterThan(0)
    expect(server.requests.length).toBeGreaterThan(1)
    outputs.push(await bench.call('tasks.list', { root: bench.root }))
    outputs.push(bench.events)

    for (const out of outputs) {
      expect(JSON.stringify(out)).not.toContain(KEY)
    }
    // the data root (skills, reflection logs) never holds the key; the settings dir only in the 0600 file
    expect(filesContaining(bench.root, KEY)).toEqual([])
    expect(filesContaining(bench.settingsDir, KEY)).toEqual(['secrets.json'])
  })

  it('reports a failing endpoint as a failed test with a readable, redacted message', async () => {
    server = await startOpenAiServer(() => ({ status: 401, json: { error: { message: `bad key ${KEY}` } } }))
    bench = await openTestBench()
    await bench.call('settings.setApiKey', { apiKey: KEY })
    await bench.call('settings.update', { patch: { llm: { baseUrl: server.url } } })
    const test = await bench.call<LlmTestResult>('llm.test')
    expect(test.ok).toBe(false)
    expect(test.message.length).toBeGreaterThan(0)
    expect(test.message).not.toContain(KEY)
  })
})
