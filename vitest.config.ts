import os from 'node:os'
import path from 'node:path'
import { defineConfig } from 'vitest/config'

// Caches the product writes (scan cache, search indexes) go to a folder of this test run, never the user's.
const cacheDir = path.join(os.tmpdir(), `skillbench-test-cache-${process.pid}`)

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    env: { NODE_OPTIONS: '', SKILLBENCH_CACHE_DIR: cacheDir }
  }
})
