#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx, so the CLI works right after `npm install`
// on a fresh clone with no build step.
import 'tsx'
const cli = await import('../src/main/cli/index.ts')
;(cli.runFromProcess ?? cli.default.runFromProcess)()
