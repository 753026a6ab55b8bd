/**
 * Where each agent reads skills from, as its documentation says (checked when this was written):
 * - Claude Code: personal `~/.claude/skills/<name>/SKILL.md`, project `<project>/.claude/skills/` (code.claude.com
 *   docs, "Skills"); the skill listing is budgeted at 1 % of the context window, 8,000 characters when unknown.
 * - Codex: `$CODEX_HOME/skills` (default `~/.codex/skills`; codex-rs `skills/loader.rs`, `user_skills_root`), and the
 *   cross-agent `.agents/skills` folders (developers.openai.com/codex/skills). Its initial skills list is capped at
 *   about 2 % of the context window, 8,000 characters when unknown; descriptions are shortened beyond that.
 * - `.agents/skills` is also read by Gemini CLI (workspace alias) and OpenCode (project agent-compatible folder).
 * - Gemini CLI: user `~/.gemini/skills/`, workspace `<project>/.gemini/skills/` (geminicli.com, "Managing Agent Skills").
 * - OpenCode: global `~/.config/opencode/skills/`, project `<project>/.opencode/skills/` (opencode.ai/docs/skills).
 * Pure apart from reading the environment given and, for a bare word close to an agent's name, whether that folder exists.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { CodedError } from '../../shared/api-error'
import { coded } from '../../shared/error-codes'
import { closestName } from '../../shared/closest-name'

export type TargetAgent = 'claude' | 'codex' | 'agents' | 'gemini' | 'opencode' | 'folder'

export interface MetadataBudget {
  /** Characters of skill names + descriptions the agent lists up front before it shortens or drops them. */
  chars: number
  /** Where the number comes from, said in reports. */
  source: string
}

export interface DeployTarget {
  /** As given (`claude`, `claude-project:/repo`, a folder…). */
  spec: string
  agent: TargetAgent
  /** Short name for people: `Claude Code (personal)`, `Codex`, a folder path. */
  label: string
  /** Absolute path of the skills folder (not yet resolved through links). */
  dir: string
  budget: MetadataBudget | null
}

const CLAUDE_BUDGET: MetadataBudget = { chars: 8000, source: 'Claude Code lists skill descriptions within 1% of the context window (8,000 characters when unknown)' }
const CODEX_BUDGET: MetadataBudget = { chars: 8000, source: 'Codex lists skills within about 2% of the context window (8,000 characters when unknown) and shortens descriptions beyond it' }

/** The home folder targets are found in: `SKILLBENCH_HOME` (tests), else `HOME`, else the OS's. */
export function homeOf(env: NodeJS.ProcessEnv): string {
  return path.resolve(env.SKILLBENCH_HOME || env.HOME || os.homedir())
}

/** The targets the app offers (each agent's personal folder), resolved in this environment. */
export function knownTargets(env: NodeJS.ProcessEnv): DeployTarget[] {
  return ['claude', 'codex', 'gemini', 'opencode'].map((spec) => resolveTarget(spec, env, homeOf(env)))
}

/** Resolves a `--to` value; throws with the accepted forms when it names nothing. */
export function resolveTarget(spec: string, env: NodeJS.ProcessEnv, cwd: string): DeployTarget {
  const s = spec.trim()
  const home = homeOf(env)
  const project = (prefix: string): string | null => {
    if (!s.startsWith(`${prefix}:`)) return null
    const p = s.slice(prefix.length + 1)
    if (p.trim() === '') throw new CodedError('invalid', coded('deploy.target_needs_path', { prefix }))
    return path.resolve(cwd, expandHome(p, home))
  }
  switch (s) {
    case 'claude':
      return { spec: s, agent: 'claude', label: 'Claude Code (personal)', dir: path.join(home, '.claude', 'skills'), budget: CLAUDE_BUDGET }
    case 'codex': {
      const codexHome = env.CODEX_HOME ? path.resolve(cwd, expandHome(env.CODEX_HOME, home)) : path.join(home, '.codex')
      return { spec: s, agent: 'codex', label: 'Codex', dir: path.join(codexHome, 'skills'), budget: CODEX_BUDGET }
    }
    case 'gemini':
      return { spec: s, agent: 'gemini', label: 'Gemini CLI (user)', dir: path.join(home, '.gemini', 'skills'), budget: null }
    case 'opencode':
      return { spec: s, agent: 'opencode', label: 'OpenCode (global)', dir: path.join(home, '.config', 'opencode', 'skills'), budget: null }
  }
  const claudeProject = project('claude-project')
  if (claudeProject) return { spec: s, agent: 'claude', label: `Claude Code (${claudeProject})`, dir: path.join(claudeProject, '.claude', 'skills'), budget: CLAUDE_BUDGET }
  const agents = project('agents')
  if (agents) return { spec: s, agent: 'agents', label: `Agents folder (${agents})`, dir: path.join(agents, '.agents', 'skills'), budget: CODEX_BUDGET }
  const gemini = project('gemini-project')
  if (gemini) return { spec: s, agent: 'gemini', label: `Gemini CLI (${gemini})`, dir: path.join(gemini, '.gemini', 'skills'), budget: null }
  const opencode = project('opencode-project')
  if (opencode) return { spec: s, agent: 'opencode', label: `OpenCode (${opencode})`, dir: path.join(opencode, '.opencode', 'skills'), budget: null }
  if (/^[a-z-]+:/.test(s) && !/^[A-Za-z]:[\\/]/.test(s)) {
    throw new CodedError('invalid', coded('deploy.unknown_target', { target: JSON.stringify(s) }))
  }
  if (s === '') throw new CodedError('invalid', coded('deploy.no_target'))
  const dir = path.resolve(cwd, expandHome(s, home))
  // `--to clade` would make a new folder "clade" here: a bare word that is an agent's name mistyped, naming no
  // folder that exists, is refused with the name meant (a new folder of that name is written ./clade)
  const meant = /^[a-z-]+$/.test(s) ? closestName(s, ['claude', 'codex', 'gemini', 'opencode']) : undefined
  if (meant && !fs.existsSync(dir)) throw new CodedError('invalid', coded('deploy.target_typo', { target: JSON.stringify(s), meant, folder: `./${s}` }))
  return { spec: s, agent: 'folder', label: dir, dir, budget: null }
}

const AGENT_NAMES = ['claude', 'codex', 'gemini', 'opencode']
const PROJECT_TARGET = /^(claude-project|agents|gemini-project|opencode-project):(.*)$/s

/**
 * The folder a target names when it is a relative path (it would be read from the folder a command runs in), else
 * null: an agent's name, an absolute path, `~` or `~/…`, and what resolveTarget refuses anyway. Pure.
 */
export function relativeTargetPath(spec: string): string | null {
  const s = spec.trim()
  if (AGENT_NAMES.includes(s)) return null
  const project = PROJECT_TARGET.exec(s)
  if (!project && /^[a-z-]+:/.test(s)) return null // an unknown target: refused as such
  const p = project ? project[2]!.trim() : s
  if (p === '' || p === '~' || p.startsWith('~/') || path.isAbsolute(p) || /^[A-Za-z]:[\\/]/.test(p)) return null
  return p
}

/** The target with its relative folder resolved against `cwd` (what it names from there). Pure. */
export function absoluteTargetSpec(spec: string, cwd: string): string {
  const s = spec.trim()
  const project = PROJECT_TARGET.exec(s)
  return project ? `${project[1]}:${path.resolve(cwd, project[2]!.trim())}` : path.resolve(cwd, s)
}

function expandHome(p: string, home: string): string {
  return p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : p
}
