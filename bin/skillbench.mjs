#!/usr/bin/env node
// The entry older MCP configurations and scripts name (`node …/bin/skillbench.mjs mcp …`): the same command as
// bin/skillbench.cjs, which the package's `skillbench` runs and which starts ~9 ms sooner (no ES module loader).
import { createRequire } from 'node:module'

createRequire(import.meta.url)('./skillbench.cjs')
