/**
 * The exact JSON agents read from the skill tools and the MCP memory tools (key order and content), pinned before
 * their coded fields were built by one helper (tools/coded-result.ts): a refactor must not move a key or change a
 * word. Real library files (the store's fixture copy) and a real memory folder.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openLibrary } from '../../src/main/store/library'
import { createSkillTools, type SkillTools } from '../../src/main/tools/skill-tools'
import { createMemoryToolAnswerer } from '../../src/main/mcp/memory-tools'
import { copyTree, FIXTURE_LIBRARY } from '../store/helpers'

const FIXED = new Date(2026, 2, 4, 5, 6, 7, 8)
let dir: string
let ws: string
let tools: SkillTools

beforeEach(async () => {
  dir = copyTree(FIXTURE_LIBRARY)
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-pinned-ws-'))
  tools = createSkillTools(await openLibrary(dir, { now: () => FIXED }), { now: () => FIXED })
})

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
  fs.rmSync(ws, { recursive: true, force: true })
})

/** The answer's JSON (the temp folders named <lib> and <ws>) is exactly `expected`. */
function pin(name: string, value: unknown, expected: string): void {
  expect(JSON.stringify(value).split(dir).join('<lib>').split(ws).join('<ws>'), name).toBe(expected)
}

describe('skill tool answers', () => {
  it('success and error answers keep their keys in order and their words', async () => {
    pin('rate ok', await tools.rate_skill('1768616001', 0.8), "{\"status\":\"success\",\"message\":\"Skill 1768616001 rated 0.8: quality index 0.5 → 0.59\",\"skill_id\":\"1768616001\",\"rating\":0.8,\"old_quality_index\":0.5,\"new_quality_index\":0.59,\"message_code\":\"tool.rated\",\"params\":{\"id\":\"1768616001\",\"rating\":0.8,\"old\":0.5,\"new\":0.59}}")
    pin('rate range', await tools.rate_skill('1768616001', 9), "{\"status\":\"error\",\"message\":\"rating must be a number between 0 and 1 (got 9); nothing was changed\",\"message_code\":\"tool.rating_range\",\"params\":{\"value\":\"9\"}}")
    pin('rate unknown', await tools.rate_skill('1999999999', 0.5), "{\"status\":\"error\",\"message\":\"no active skill with id 1999999999\",\"skill_id\":\"1999999999\",\"code\":\"not_found\",\"message_code\":\"skill.no_active_id\",\"params\":{\"id\":\"1999999999\"}}")
    pin('edit mode', await tools.edit_skill('1768616001', 'sideways', 'x'), "{\"status\":\"error\",\"message\":\"edit_mode must be one of full_replace, append, lines_replace (got \\\"sideways\\\")\",\"message_code\":\"tool.edit_mode\",\"params\":{\"modes\":\"full_replace, append, lines_replace\",\"value\":\"\\\"sideways\\\"\"}}")
    pin('edit needs old', await tools.edit_skill('1768616001', 'lines_replace', 'x'), "{\"status\":\"error\",\"message\":\"lines_replace needs old_code: the exact text to replace\",\"message_code\":\"tool.old_code_needed\",\"params\":{}}")
    pin('delete unknown', await tools.delete_skill('1999999999'), "{\"status\":\"error\",\"message\":\"no active skill with id 1999999999\",\"skill_id\":\"1999999999\",\"code\":\"not_found\",\"message_code\":\"skill.no_active_id\",\"params\":{\"id\":\"1999999999\"}}")
    pin('copy no workspace', await tools.copy_skill_files('1768616001', ['a.py'], path.join(ws, 'missing')), "{\"status\":\"error\",\"message\":\"workspace folder not found: <ws>/missing\",\"skill_id\":\"1768616001\",\"message_code\":\"tool.workspace_not_found\",\"params\":{\"path\":\"<ws>/missing\"}}")
    fs.writeFileSync(path.join(ws, 'a.py'), 'print(1)\n')
    pin('copy ok', await tools.copy_skill_files('1768616001', ['a.py', 'nope.py'], ws), "{\"status\":\"success\",\"message\":\"Copied 1 file(s) to codes/task_calculator_project/; skipped 1: nope.py (not found in the workspace)\",\"skill_id\":\"1768616001\",\"copied\":[\"codes/task_calculator_project/a.py\"],\"unchanged\":[],\"skipped\":[{\"path\":\"nope.py\",\"reason\":\"not found in the workspace\",\"message_code\":\"copy.not_found\",\"params\":{}}],\"related_code\":\"codes/task_calculator_project/a.py\",\"message_code\":\"text.list\",\"params\":{\"first\":{\"messageCode\":\"tool.copied\",\"params\":{\"n\":1,\"dir\":\"codes/task_calculator_project/\"}},\"rest\":{\"messageCode\":\"tool.copied_skipped\",\"params\":{\"n\":1,\"files\":{\"messageCode\":\"tool.skipped_file\",\"params\":{\"path\":\"nope.py\",\"reason\":{\"messageCode\":\"copy.not_found\",\"params\":{}}}}}}}}")
    pin('query empty', await tools.query_skill('', { touch: false }), "{\"status\":\"error\",\"message\":\"query must be a non-empty string\",\"skills_count\":0,\"skills\":[],\"message_code\":\"tool.query_empty\",\"params\":{}}")
    const found = await tools.query_skill('sort rows of a CSV spreadsheet by price', { touch: false })
    pin('query keys', { keys: Object.keys(found), skills: found.skills.map((s) => s.skill_id), message_code: found.message_code, params: found.params }, "{\"keys\":[\"status\",\"message\",\"skills_count\",\"skills\",\"message_code\",\"params\"],\"skills\":[\"1768616004\",\"4477158039472366\",\"1768616003\"],\"message_code\":\"tool.found\",\"params\":{\"n\":3,\"skills\":{\"messageCode\":\"tool.found_skills\",\"params\":{\"first\":{\"messageCode\":\"tool.found_skill\",\"params\":{\"i\":1,\"id\":\"1768616004\",\"title\":\"Sort a CSV file by a column with pandas\",\"similarity\":\"0.577\",\"usage\":\"Use when the user asks to sort, filter or reorder rows of a CSV spreadsheet file: quick pandas recipe.\",\"quality\":0.7}},\"rest\":{\"messageCode\":\"tool.found_skills\",\"params\":{\"first\":{\"messageCode\":\"tool.found_skill\",\"params\":{\"i\":2,\"id\":\"4477158039472366\",\"title\":\"csv-tools\",\"similarity\":\"0.156\",\"usage\":\"Convert, merge and deduplicate CSV files from the command line with csvkit.\",\"quality\":0.5}},\"rest\":{\"messageCode\":\"tool.found_skill\",\"params\":{\"i\":3,\"id\":\"1768616003\",\"title\":\"1. 任务完成情况：网页爬虫任务被用户中断\",\"similarity\":\"0.014\",\"usage\":\"当需要抓取网页数据（爬虫、requests、BeautifulSoup）且用户可能中途修改需求时使用。\",\"quality\":0.4}}}}}}}}")
    pin('edit ok', await tools.edit_skill('1768616001', 'append', '\nOne more line.\n'), "{\"status\":\"success\",\"message\":\"Skill 1768616001 edited (append)\",\"skill_id\":\"1768616001\",\"edit_mode\":\"append\",\"path\":\"skill_Python计算器开发.md\",\"message_code\":\"tool.edited\",\"params\":{\"id\":\"1768616001\",\"mode\":\"append\"}}")
    pin('delete ok', await tools.delete_skill('1768616001'), "{\"status\":\"success\",\"message\":\"Skill 1768616001 moved to legacy/skill_Python计算器开发.md (kept, no longer recalled)\",\"skill_id\":\"1768616001\",\"from\":\"skill_Python计算器开发.md\",\"to\":\"legacy/skill_Python计算器开发.md\",\"message_code\":\"tool.moved_to_legacy\",\"params\":{\"id\":\"1768616001\",\"to\":\"legacy/skill_Python计算器开发.md\"}}")
  })
})

describe('MCP memory tool answers', () => {
  it('told answers (errors, added, already there, proposed, not proposed) keep their keys in order and their words', async () => {
    const lib = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-pinned-lib-'))
    try {
      const direct = createMemoryToolAnswerer({ libraryRoot: lib, memoryWorkspace: ws, available: true, proposalOnly: false, now: () => FIXED })
      const text = (r: { content: unknown }) => (r.content as { text: string }[])[0]!.text
      pin('memory needs', text(await direct('add_lesson', {})), "\"{\\n  \\\"status\\\": \\\"error\\\",\\n  \\\"message\\\": \\\"add_lesson needs lesson: a non-empty line of text\\\",\\n  \\\"message_code\\\": \\\"tool.memory_needs\\\",\\n  \\\"params\\\": {\\n    \\\"tool\\\": \\\"add_lesson\\\",\\n    \\\"param\\\": \\\"lesson\\\"\\n  }\\n}\"")
      pin('memory too long', text(await direct('record_preference', { preference: 'x'.repeat(301) })), "\"{\\n  \\\"status\\\": \\\"error\\\",\\n  \\\"message\\\": \\\"the preference is 301 characters; at most 300\\\",\\n  \\\"message_code\\\": \\\"tool.memory_too_long\\\",\\n  \\\"params\\\": {\\n    \\\"param\\\": \\\"preference\\\",\\n    \\\"n\\\": 301,\\n    \\\"max\\\": 300\\n  }\\n}\"")
      pin('memory added', text(await direct('add_lesson', { lesson: 'Check the allow-list first.' })), "\"{\\n  \\\"status\\\": \\\"success\\\",\\n  \\\"message\\\": \\\"Added to memory/lessons.md.\\\",\\n  \\\"message_code\\\": \\\"tool.memory_added\\\",\\n  \\\"params\\\": {\\n    \\\"file\\\": \\\"memory/lessons.md\\\"\\n  },\\n  \\\"added\\\": true,\\n  \\\"pending\\\": false,\\n  \\\"file\\\": \\\"memory/lessons.md\\\"\\n}\"")
      pin('memory already', text(await direct('add_lesson', { lesson: 'Check the allow-list first.' })), "\"{\\n  \\\"status\\\": \\\"success\\\",\\n  \\\"message\\\": \\\"memory/lessons.md already holds it (or a near-duplicate): nothing added.\\\",\\n  \\\"message_code\\\": \\\"tool.memory_already_there\\\",\\n  \\\"params\\\": {\\n    \\\"file\\\": \\\"memory/lessons.md\\\"\\n  },\\n  \\\"added\\\": false,\\n  \\\"pending\\\": false,\\n  \\\"file\\\": \\\"memory/lessons.md\\\"\\n}\"")
      const off = createMemoryToolAnswerer({ libraryRoot: lib, memoryWorkspace: ws, available: false, proposalOnly: false })
      pin('memory off', text(await off('add_lesson', { lesson: 'x' })), "\"{\\n  \\\"status\\\": \\\"error\\\",\\n  \\\"message\\\": \\\"Skill tools are only available when long-term memory is enabled\\\",\\n  \\\"message_code\\\": \\\"tool.disabled\\\",\\n  \\\"params\\\": {}\\n}\"")
      const noFolder = createMemoryToolAnswerer({ libraryRoot: lib, available: true, proposalOnly: false })
      pin('memory no folder', text(await noFolder('add_lesson', { lesson: 'x' })), "\"{\\n  \\\"status\\\": \\\"error\\\",\\n  \\\"message\\\": \\\"this server has no memory folder: start it with --memory DIR (the folder holding memory/), or --root-dir DIR --user NAME\\\",\\n  \\\"message_code\\\": \\\"tool.memory_no_folder\\\",\\n  \\\"params\\\": {}\\n}\"")
      const proposing = createMemoryToolAnswerer({ libraryRoot: lib, memoryWorkspace: ws, available: true, proposalOnly: true, now: () => FIXED })
      const proposed = text(await proposing('record_preference', { preference: 'answer briefly' }, 'claude-code'))
      pin('memory proposed', proposed.replace(/memory-preferences-[0-9a-f-]+/g, '<id>'), "\"{\\n  \\\"status\\\": \\\"success\\\",\\n  \\\"message\\\": \\\"Proposed for memory/preferences.md: it waits for review in Skillbench, and memory stays as it is until a person accepts it.\\\",\\n  \\\"message_code\\\": \\\"tool.memory_proposed\\\",\\n  \\\"params\\\": {\\n    \\\"file\\\": \\\"memory/preferences.md\\\"\\n  },\\n  \\\"pending\\\": true,\\n  \\\"proposal_id\\\": \\\"<id>\\\",\\n  \\\"file\\\": \\\"memory/preferences.md\\\"\\n}\"")
      pin('memory not proposed', text(await proposing('record_preference', { preference: 'answer briefly' }, 'claude-code')).replace(/memory-preferences-[0-9a-f-]+/g, '<id>'), "\"{\\n  \\\"status\\\": \\\"success\\\",\\n  \\\"message\\\": \\\"Not proposed: proposal <id> already holds it.\\\",\\n  \\\"message_code\\\": \\\"tool.memory_not_proposed\\\",\\n  \\\"params\\\": {\\n    \\\"reason\\\": {\\n      \\\"messageCode\\\": \\\"tool.memory_in_proposal\\\",\\n      \\\"params\\\": {\\n        \\\"id\\\": \\\"<id>\\\"\\n      }\\n    }\\n  },\\n  \\\"pending\\\": false,\\n  \\\"added\\\": false,\\n  \\\"file\\\": \\\"memory/preferences.md\\\"\\n}\"")
      pin('memory in file', text(await proposing('add_lesson', { lesson: 'Check the allow-list first.' })), "\"{\\n  \\\"status\\\": \\\"success\\\",\\n  \\\"message\\\": \\\"Not proposed: memory/lessons.md already holds it.\\\",\\n  \\\"message_code\\\": \\\"tool.memory_not_proposed\\\",\\n  \\\"params\\\": {\\n    \\\"reason\\\": {\\n      \\\"messageCode\\\": \\\"tool.memory_in_file\\\",\\n      \\\"params\\\": {\\n        \\\"file\\\": \\\"memory/lessons.md\\\"\\n      }\\n    }\\n  },\\n  \\\"pending\\\": false,\\n  \\\"added\\\": false,\\n  \\\"file\\\": \\\"memory/lessons.md\\\"\\n}\"")
    } finally {
      fs.rmSync(lib, { recursive: true, force: true })
    }
  })
})
