import { describe, expect, it } from 'vitest'
import type { ApiEvent, JobInfo, LibraryInfo } from '../../src/shared/api'
import { benchesDisposedAfterEach, waitForEvent } from './helpers'

const bench = benchesDisposedAfterEach()

describe('workbench: a sync job that fails', () => {
  it('ends with its error by code (job.done failure), beside the English kept for older clients', async () => {
    const b = await bench()
    const library = (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === 'alice')!.path
    // the sample library is a folder in a temp dir, no git repository: sync refuses and says how to share it
    const job = await b.call<JobInfo>('sync.start', { library })
    await b.wb.waitForJob(job.jobId)
    const done = (await waitForEvent(b.events, (e) => e.type === 'job.done' && e.jobId === job.jobId)) as Extract<ApiEvent, { type: 'job.done' }>
    expect(done.state).toBe('failed')
    expect(done.error).toMatch(/is not a git repository: share it with `skillbench sync --init URL --library /)
    expect(done.failure).toEqual({ code: 'not_repo', message: done.error, messageCode: 'sync.not_repo', params: { root: library, library } })
  })
})
