/**
 * Which skills a task's own actions used (issue 14), read from its tool calls (pure, cheap: a tool name is
 * classified once, and only shell commands that mention a skill file or `skill:load` are split into words).
 *
 * Counted: a read of a skill file (a read tool, or a shell command that prints it: `cat`, `head`, `sed -n`…),
 * `skill:load NAME`, Claude Code's `Skill` tool, and the ids a `query_skill` call returned. Never counted: text
 * the agent was shown — a skills list in a system prompt, a search result or directory listing naming SKILL.md
 * files — because only the arguments of the agent's own calls are looked at.
 */
import type { SkillRef, SkillUseKind } from '../../shared/types'

/** A use as one call shows it, before its place in the task (errors after it) is known. */
export type CallSkillRef = Pick<SkillRef, 'kind' | 'name' | 'path' | 'ids'>

type ToolClass = 'read' | 'shell' | 'skill' | 'load' | 'query' | 'edit-view' | 'other'

const READ_TOOLS = new Set(['read', 'read_file', 'readfile', 'view', 'view_file', 'open_file', 'read_text_file', 'read_multiple_files', 'file_read', 'get_file', 'cat'])
const SHELL_TOOLS = new Set([
  'bash', 'shell', 'sh', 'exec_command', 'run_terminal_cmd', 'run_command', 'terminal', 'execute_command', 'local_shell',
  'shell_command', 'run_shell_command', 'execute_bash', 'cmd', 'powershell'
])
/** Editors whose `view` command reads a file (Anthropic's text editor tool). */
const EDIT_VIEW_TOOLS = new Set(['str_replace_based_edit_tool', 'str_replace_editor', 'text_editor'])
const QUERY_TOOL = /(?:^|[_.:/-])query_skill$/i
const LOAD_TOOL = /^skill[:_]load$/i

const classes = new Map<string, ToolClass>()

/** What kind of tool a call name is (cached: names repeat). */
function toolClass(name: string): ToolClass {
  let c = classes.get(name)
  if (c === undefined) {
    const lower = name.toLowerCase()
    // MCP tools are named `mcp__server__tool`: the tool part decides
    const bare = lower.includes('__') ? lower.slice(lower.lastIndexOf('__') + 2) : lower
    c = name === 'Skill' ? 'skill'
      : QUERY_TOOL.test(lower) ? 'query'
      : LOAD_TOOL.test(bare) ? 'load'
      : READ_TOOLS.has(bare) ? 'read'
      : SHELL_TOOLS.has(bare) ? 'shell'
      : EDIT_VIEW_TOOLS.has(bare) ? 'edit-view'
      : 'other'
    if (classes.size < 10_000) classes.set(name, c)
  }
  return c
}

/** Path parameters of read tools. */
const PATH_KEYS = ['file_path', 'path', 'target_file', 'filename', 'file', 'absolute_path', 'filepath', 'notebook_path']
const COMMAND_KEYS = ['command', 'cmd', 'input', 'script', 'commands']

/** A skill file: `SKILL.md`, or an AGIAgent `skill_*.md`. */
const SKILL_FILE = /(?:^|[\\/])(?:SKILL\.md|skill_[^\\/]*\.md)$/
/** A command that may print a skill file or load a skill (the cheap test before its words are split). */
function mentionsSkill(text: string): boolean {
  return text.includes('SKILL.md') || text.includes('skill:load') || (text.includes('skill_') && text.includes('.md'))
}

/** The skill a file path names: `…/skills/NAME/SKILL.md` → NAME (a SKILL.md in a folder: the folder's name). */
export function skillNameOfPath(p: string): string | undefined {
  const parts = p.replace(/\\/g, '/').split('/').filter((s) => s && s !== '.')
  if (parts[parts.length - 1] !== 'SKILL.md' || parts.length < 2) return undefined
  const name = parts[parts.length - 2]!
  return name === '..' ? undefined : name
}

function refOfPath(raw: string, workdir: string | undefined): CallSkillRef | null {
  let p = raw.trim().replace(/^["'`]|["'`]$/g, '')
  if (!SKILL_FILE.test(p)) return null
  // a relative path read in a known working folder is that folder's file
  if (workdir && workdir.startsWith('/') && !p.startsWith('/') && !p.startsWith('~')) p = `${workdir.replace(/\/+$/, '')}/${p}`
  const name = skillNameOfPath(p)
  return { kind: 'read', path: p, ...(name ? { name } : {}) }
}

/** Words of a shell command: quotes and backslashes as a POSIX shell reads them; operators as their own words. */
export function shellWords(command: string): string[] {
  const words: string[] = []
  let cur = ''
  let has = false
  let quote: '"' | "'" | null = null
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!
    if (quote) {
      if (ch === quote) quote = null
      else if (ch === '\\' && quote === '"' && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) cur += command[++i]
      else cur += ch
      continue
    }
    if (ch === '"' || ch === "'") {
      quote = ch
      has = true
    } else if (ch === '\\' && i + 1 < command.length) {
      cur += command[++i]
      has = true
    } else if (ch === ' ' || ch === '\t') {
      if (has) words.push(cur)
      cur = ''
      has = false
    } else if (ch === '\n' || ch === ';' || ch === '|' || ch === '&' || ch === '(' || ch === ')') {
      if (has) words.push(cur)
      cur = ''
      has = false
      // `&&`, `||`, `;`, `|`, newline: all end a simple command
      words.push(';')
      if ((ch === '&' || ch === '|') && command[i + 1] === ch) i++
    } else {
      cur += ch
      has = true
    }
  }
  if (has) words.push(cur)
  return words
}

/** Commands that print a file (a use of it when the file is a skill). `sed -i` edits and is excluded below. */
const PRINTERS = new Set(['cat', 'head', 'tail', 'sed', 'less', 'more', 'bat', 'batcat', 'nl', 'view', 'type', 'get-content', 'gc', 'awk', 'tac', 'pygmentize', 'glow', 'mdcat'])
const PREFIXES = new Set(['sudo', 'command', 'exec', 'time', 'nice', 'env', 'xargs'])

/** The uses a shell command shows: skill files it prints, `skill:load NAME`. */
export function refsOfCommand(command: string, workdir?: string): CallSkillRef[] {
  let text = command
  if (text.startsWith('[')) {
    // Codex's older `shell` tool: ["bash", "-lc", "cat …"]
    try {
      const argv = JSON.parse(text) as unknown
      if (Array.isArray(argv)) {
        const words = argv.map(String)
        const c = words.findIndex((w) => /^-[a-z]*c$/.test(w))
        if (c > 0 && c + 1 < words.length) return refsOfCommand(words[c + 1]!, workdir)
        text = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ')
      }
    } catch {
      // not JSON: read as it is
    }
  }
  if (!mentionsSkill(text)) return []
  const out: CallSkillRef[] = []
  const words = shellWords(text)
  let start = 0
  for (let i = 0; i <= words.length; i++) {
    if (i < words.length && words[i] !== ';') continue
    const cmd = words.slice(start, i)
    start = i + 1
    let k = 0
    while (k < cmd.length && (PREFIXES.has(cmd[k]!) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(cmd[k]!))) k++
    const verb = cmd[k]
    if (verb === undefined) continue
    const base = verb.slice(verb.lastIndexOf('/') + 1).toLowerCase()
    if (base === 'skill:load') {
      const name = cmd.slice(k + 1).find((w) => !w.startsWith('-'))
      if (name) out.push({ kind: 'load', name })
      continue
    }
    if (base === 'bash' || base === 'sh' || base === 'zsh') {
      // `bash -lc "cat …"`: the script is the word after -c
      const c = cmd.findIndex((w, j) => j > k && /^-[a-z]*c$/.test(w))
      const script = c >= 0 ? cmd[c + 1] : undefined
      if (script) out.push(...refsOfCommand(script, workdir))
      continue
    }
    if (!PRINTERS.has(base)) continue
    if (base === 'sed' && cmd.some((w) => /^-[a-zA-Z]*i/.test(w) || w === '--in-place')) continue
    for (const w of cmd.slice(k + 1)) {
      if (w.startsWith('-')) continue
      const ref = refOfPath(w, workdir)
      if (ref) out.push(ref)
    }
  }
  return out
}

/** The ids a `query_skill` result lists (`"skill_id": "…"` in its JSON, `ID: …` in its message), in order. */
export function idsFromQueryResult(text: string): string[] {
  const ids: string[] = []
  const re = /["']?skill_id["']?\s*[:=]\s*["']?(\d{1,20})\b|^\s*ID:\s*(\d{1,20})\b/gm
  let m: RegExpExecArray | null
  while ((m = re.exec(text)) !== null) {
    const id = m[1] ?? m[2]!
    if (!ids.includes(id)) ids.push(id)
  }
  return ids
}

/** True when a call may show a use (so a caller can skip the rest for every other call). */
export function mayUseSkill(name: string): boolean {
  return toolClass(name) !== 'other'
}

/** True for a `query_skill` call (its result, not its arguments, says which skills it returned). */
export function isSkillQuery(name: string): boolean {
  return toolClass(name) === 'query'
}

/** The uses one tool call shows from its name and arguments (a query's ids come from its result: see idsFromQueryResult). */
export function refsOfCall(name: string, params: Readonly<Record<string, string>>): CallSkillRef[] {
  const c = toolClass(name)
  switch (c) {
    case 'other':
    case 'query':
      return []
    case 'skill': {
      const skill = (params.skill ?? params.command ?? params.name ?? '').trim()
      return skill ? [{ kind: 'skill-tool', name: skill }] : []
    }
    case 'load': {
      const skill = (params.name ?? params.skill ?? params.skill_name ?? '').trim()
      return skill ? [{ kind: 'load', name: skill }] : []
    }
    case 'read':
    case 'edit-view': {
      if (c === 'edit-view' && params.command !== 'view') return []
      const out: CallSkillRef[] = []
      for (const key of PATH_KEYS) {
        const v = params[key]
        if (v === undefined) continue
        const ref = refOfPath(v, undefined)
        if (ref) out.push(ref)
        break
      }
      const many = params.paths
      if (many?.startsWith('[')) {
        try {
          for (const p of JSON.parse(many) as unknown[]) {
            const ref = typeof p === 'string' ? refOfPath(p, undefined) : null
            if (ref) out.push(ref)
          }
        } catch {
          // not a list
        }
      }
      return out
    }
    case 'shell': {
      for (const key of COMMAND_KEYS) {
        const v = params[key]
        if (v !== undefined) return refsOfCommand(v, params.workdir ?? params.cwd)
      }
      return []
    }
  }
}

/** A `SkillUseKind` is one of these (for readers of cached or foreign data). */
export const SKILL_USE_KINDS: readonly SkillUseKind[] = ['skill-tool', 'invoked', 'read', 'query', 'load']

/**
 * A follow-up request that says the previous result was wrong (English and Chinese). Deliberately narrow: a new
 * request that merely mentions an error ("what's wrong with this test?") is not a correction.
 */
const CORRECTION = new RegExp(
  [
    String.raw`^\s*(?:no|nope|wrong|incorrect)\b[\s,.!:;—-]`,
    String.raw`\b(?:that|this|it|that's|this's|it's|thats|its)\s*(?:is\s+|was\s+|'s\s+)?(?:still\s+)?(?:wrong|incorrect|not\s+(?:right|correct|what\s+i\s+(?:asked|wanted|meant)))\b`,
    String.raw`\b(?:doesn'?t|does\s+not|didn'?t|did\s+not|isn'?t|is\s+not|still\s+(?:doesn'?t|does\s+not))\s+(?:work|compile|run|fix|solve)\b`,
    String.raw`\bstill\s+(?:broken|failing|fails|wrong|not\s+working|the\s+same\s+(?:error|problem|issue))\b`,
    String.raw`\byou\s+(?:broke|made\s+a\s+mistake|got\s+it\s+wrong|misunderstood|didn'?t\s+(?:fix|do))\b`,
    String.raw`(?:不对|错了|不正确|不是这样|还是不行|还是错|没有用|不管用|没解决|没有解决|你搞错|理解错|搞错了|有问题|不是我要的)`
  ].join('|'),
  'i'
)

/** True when a follow-up request says the previous result was wrong (its first 300 characters are read). */
export function isCorrection(request: string): boolean {
  return CORRECTION.test(request.slice(0, 300))
}
