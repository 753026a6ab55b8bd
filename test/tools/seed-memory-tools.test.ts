// Seed 000: the five skill tools are also offered in AGIAgent's prompts/memory_tools.json dictionary shape.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../src/main/cli/index'
import type { CliIo } from '../../src/main/cli/common'
import { memoryToolsDictionary, SKILL_TOOL_SCHEMAS } from '../../src/main/tools/schemas'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'

async function cli(args: string[]): Promise<{ code: number; stdout: string }> {
  let stdout = ''
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: () => {}, isTTY: false, cwd: process.cwd(), env: {}, signal: new AbortController().signal }
  return { code: await main(args, io), stdout }
}

type Shape = Record<string, { description: string; parameters: { type: string; properties: Record<string, { type: string }>; required: string[] } }>

/** Tool names, entry keys, parameter names with their types, and required lists: everything but the wording. */
function shapeOf(d: Shape): unknown {
  return Object.entries(d).map(([name, e]) => [name, Object.keys(e).sort(), e.parameters.type, Object.entries(e.parameters.properties).map(([p, s]) => [p, s.type]), e.parameters.required])
}

describe('memory_tools.json dictionary shape', () => {
  it('skillbench mcp --print-tools memory-tools prints the dictionary; resources/memory_tools.json holds the same', async () => {
    const r = await cli(['mcp', '--print-tools', 'memory-tools'])
    expect(r.code).toBe(0)
    const printed = JSON.parse(r.stdout) as Shape
    expect(printed).toEqual(memoryToolsDictionary())
    expect(JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../resources/memory_tools.json'), 'utf8'))).toEqual(printed)
    expect(Object.keys(printed)).toEqual(['query_skill', 'rate_skill', 'edit_skill', 'delete_skill', 'copy_skill_files'])
    // Same words as the OpenAI schemas: one source of truth.
    for (const s of SKILL_TOOL_SCHEMAS) expect(printed[s.function.name]!.description).toBe(s.function.description)
    expect(JSON.parse((await cli(['mcp', '--print-tools', 'openai'])).stdout)).toEqual(SKILL_TOOL_SCHEMAS)
    expect((await cli(['mcp', '--print-tools', 'yaml'])).code).toBe(2)
  })

  it.skipIf(!HAS_REAL_DATA)('has the shape of AGIAgent\'s own memory_tools.json with the skill tools (names, parameters, types, required)', async () => {
    const upstream = JSON.parse(fs.readFileSync(realPath('agiagent', 'agi-hub_AGIAgent', 'config_and_prompts', 'memory_tools.with_skill_tools.json'), 'utf8')) as Shape
    expect(shapeOf(memoryToolsDictionary() as Shape)).toEqual(shapeOf(upstream))
  })
})
