import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { defineConfig } from 'vitest/config'

// Everything a test run writes outside the project goes to one folder of this run, removed when the run ends
// (test/global-setup.ts): temporary folders (TMPDIR, so os.tmpdir() in the tests and every process they start)
// and the product's caches (scan cache, search indexes), never the user's.
// Short: the search servers' Unix sockets live under it.
const runDir = process.env.SKILLBENCH_TEST_RUN_DIR ?? path.join(os.tmpdir(), `sbt-${process.pid}`)
process.env.SKILLBENCH_TEST_RUN_DIR = runDir // for test/global-setup.ts, in this same process
fs.mkdirSync(runDir, { recursive: true })

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    env: { NODE_OPTIONS: '', TMPDIR: runDir, SKILLBENCH_CACHE_DIR: path.join(runDir, 'cache') }
  }
})
