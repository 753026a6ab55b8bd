import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// An ES module (.mts): Vite loads it as such, without the 'ESM syntax in a file loaded as CommonJS' warning.
const __dirname = path.dirname(fileURLToPath(import.meta.url))

// Everything a test run writes outside the project goes to one folder of this run, removed when the run ends
// (test/global-setup.ts): temporary folders (TMPDIR, so os.tmpdir() in the tests and every process they start)
// and the product's caches (scan cache, search indexes), never the user's.
// Short: the search servers' Unix sockets live under it.
const runDir = process.env.SKILLBENCH_TEST_RUN_DIR ?? path.join(os.tmpdir(), `sbt-${process.pid}`)
process.env.SKILLBENCH_TEST_RUN_DIR = runDir // for test/global-setup.ts, in this same process
fs.mkdirSync(runDir, { recursive: true })

// Three projects, so a developer runs the fast ones alone (`npx vitest run --project pure`, seconds to a minute):
// browser (headless chromium through the e2e harness), processes (child processes, workers, servers, git, the
// real data), and pure (everything else). A test file is sorted by what it and the test helpers it imports use,
// so a new test lands in the right project without a list to keep.
const BROWSER = /playwright|chromium|from '\.\/harness'/
const PROCESSES = /child_process|worker_threads|bundle-child|git-repo|\/agents'|\/team'|real-data|openTestBench|createWorkbench|startServer|startWebServer|search-server|search-daemon|runCliAgent|StreamedScan|allPairsAsync|Async\(|StdioClientTransport/

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? testFiles(p) : /\.test\.tsx?$/.test(e.name) ? [p] : []
  })
}

/** A test file's text with the text of the test helpers it imports (one step). */
function textWithHelpers(file: string): string {
  const text = fs.readFileSync(file, 'utf8')
  const helpers = [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => path.resolve(path.dirname(file), m[1] as string))
  return [text, ...helpers.flatMap((h) => ['.ts', '.tsx'].map((e) => h + e).filter((f) => fs.existsSync(f) && f.includes(`${path.sep}test${path.sep}`)).map((f) => fs.readFileSync(f, 'utf8')))].join('\n')
}

const projectOf = new Map<string, 'pure' | 'processes' | 'browser'>()
for (const file of testFiles(path.join(__dirname, 'test'))) {
  const text = textWithHelpers(file)
  projectOf.set(path.relative(__dirname, file).split(path.sep).join('/'), file.includes(`${path.sep}e2e${path.sep}`) || BROWSER.test(text) ? 'browser' : PROCESSES.test(text) ? 'processes' : 'pure')
}
const filesOf = (name: string): string[] => [...projectOf].filter(([, p]) => p === name).map(([f]) => f)

export default defineConfig({
  test: {
    projects: [
      { extends: true, test: { name: 'pure', include: filesOf('pure') } },
      { extends: true, test: { name: 'processes', include: filesOf('processes') } },
      { extends: true, test: { name: 'browser', include: filesOf('browser') } }
    ],
    environment: 'node',
    testTimeout: 60_000,
    // expect.poll waits up to 10 s (default 1 s): the browser tests poll screens and files that, with the suite
    // sharing two cores, can take seconds to settle; a poll that is already true returns at once.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    // SKILLBENCH_LANG emptied: a developer's shell with SKILLBENCH_LANG=zh would word every CLI line the tests read in
    // Chinese (the tests that want a language set it themselves).
    env: { NODE_OPTIONS: '', TMPDIR: runDir, SKILLBENCH_CACHE_DIR: path.join(runDir, 'cache'), SKILLBENCH_LANG: '' }
  }
})
