import fs from 'node:fs'

/**
 * Removes the run's folder (temporary files, caches; made by vitest.config.mts) when the run ends, so test runs
 * do not pile folders up in the system's temporary folder. SKILLBENCH_KEEP_TEST_TMP=1 keeps it to look at after
 * a failure.
 */
export default function setup(): () => void {
  const runDir = process.env.SKILLBENCH_TEST_RUN_DIR
  return () => {
    if (!runDir) return
    if (process.env.SKILLBENCH_KEEP_TEST_TMP) {
      process.stdout.write(`test files kept in ${runDir}\n`)
      return
    }
    fs.rmSync(runDir, { recursive: true, force: true, maxRetries: 3 })
  }
}
