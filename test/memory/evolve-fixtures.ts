/**
 * Crafted Claude Code sessions (the real JSONL shape: user / assistant lines, tool_use and tool_result blocks)
 * holding what seed 003 learns from: a hallucinated tool, a critic's suggestion, stated preferences, tool failures.
 */
import fs from 'node:fs'
import path from 'node:path'

let n = 0
const id = (): string => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`

interface Turn {
  user?: string
  /** A tool call and its result: error text when it failed. */
  tool?: { name: string; input: Record<string, unknown>; error?: string; result?: string }
  say?: string
}

/** One session file's lines. */
export function claudeSession(sessionId: string, turns: Turn[], start = Date.parse('2026-03-01T10:00:00Z')): string {
  const lines: string[] = []
  let t = start
  let parent: string | null = null
  const base = (type: string) => {
    const uuid = id()
    const line = { parentUuid: parent, isSidechain: false, userType: 'external', cwd: '/home/dev/proj', sessionId, version: '2.1.38', gitBranch: 'main', type, uuid, timestamp: new Date((t += 1000)).toISOString() }
    parent = uuid
    return line
  }
  for (const turn of turns) {
    if (turn.user !== undefined) lines.push(JSON.stringify({ ...base('user'), message: { role: 'user', content: turn.user } }))
    if (turn.say !== undefined) lines.push(JSON.stringify({ ...base('assistant'), message: { role: 'assistant', model: 'claude-x', type: 'message', content: [{ type: 'text', text: turn.say }] } }))
    if (turn.tool) {
      const callId = `toolu_${id().replace(/-/g, '')}`
      lines.push(JSON.stringify({ ...base('assistant'), message: { role: 'assistant', model: 'claude-x', type: 'message', content: [{ type: 'tool_use', id: callId, name: turn.tool.name, input: turn.tool.input }] } }))
      const failed = turn.tool.error !== undefined
      lines.push(JSON.stringify({ ...base('user'), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content: failed ? turn.tool.error : (turn.tool.result ?? 'ok'), ...(failed ? { is_error: true } : {}) }] } }))
    }
  }
  return lines.join('\n') + '\n'
}

const bashOk = (cmd: string): Turn => ({ tool: { name: 'Bash', input: { command: cmd }, result: 'done' } })
const bashFail = (cmd: string): Turn => ({ tool: { name: 'Bash', input: { command: cmd }, error: 'Exit code 1\nnpm ERR! Missing script: "test"' } })
const read = (file: string): Turn => ({ tool: { name: 'Read', input: { file_path: file }, result: 'file text' } })

/** An English session and a Chinese one, written as Claude Code keeps them (one JSONL per session). */
export function writeEvolveSessions(dir: string): { en: string; zh: string } {
  fs.mkdirSync(dir, { recursive: true })
  const en = claudeSession('11111111-1111-4111-8111-111111111111', [
    { user: 'Add a /health endpoint to the server.\nFrom now on, use pnpm instead of npm. Always run the tests before saying done.' },
    { tool: { name: 'web_search', input: { query: 'express health endpoint' }, error: '<tool_use_error>Error: No such tool available: web_search</tool_use_error>' } },
    read('/home/dev/proj/src/server.ts'),
    bashFail('npm test'),
    bashOk('pnpm test'),
    bashOk('git status'),
    { say: 'Added GET /health; the tests pass.' },
    { user: 'Critic suggestion: check the domain is on the allowlist before searching.' },
    read('/home/dev/proj/README.md'),
    bashFail('npm test -- --watch=false'),
    bashOk('pnpm lint'),
    { say: 'Done.' }
  ])
  const zh = claudeSession('22222222-2222-4222-8222-222222222222', [
    { user: '给服务器加一个 /metrics 接口。\n记住：缩进：2 空格\n以后都用中文回答。' },
    { tool: { name: 'search_web', input: { q: 'prometheus express' }, error: '<tool_use_error>Error: No such tool available: search_web</tool_use_error>' } },
    read('/home/dev/proj/src/metrics.ts'),
    bashOk('pnpm test'),
    bashFail('npm run build'),
    { say: '已添加 /metrics 接口。' },
    { user: 'Critic 建议：搜索前先确认域名在白名单内' },
    bashOk('pnpm test'),
    { say: '好的。' },
    { user: 'Critic 建议：搜索之前先确认域名在白名单内。\n记住：language: zh' },
    read('/home/dev/proj/package.json'),
    { say: '明白。' }
  ])
  const enFile = path.join(dir, '11111111-1111-4111-8111-111111111111.jsonl')
  const zhFile = path.join(dir, '22222222-2222-4222-8222-222222222222.jsonl')
  fs.writeFileSync(enFile, en)
  fs.writeFileSync(zhFile, zh)
  return { en: enFile, zh: zhFile }
}
