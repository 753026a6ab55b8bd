/** The `skillbench` CLI as the agents of these tests run it: bundled once per test file (agents.ts: agentCliScript). */
import { runFromProcess } from '../../src/main/cli/index'

runFromProcess()
