/**
 * Reflection judgment on real agent logs (issue 36): which tasks become skills, measured against the hand labels in
 * `bench/labels/reflection-tasks.json` (tuned on the Claude Code sessions, checked on Codex and AGIAgent). The same
 * judgment runs before the offline reflector and the model, so the figures hold for both paths.
 *
 * Per set: tasks, skills made before (one per task) and now, the share of skills a person would keep, the labelled
 * skill-worthy tasks found, skills made from a greeting / follow-up / unfinished task, and the reasons that agree.
 */
import fs from 'node:fs'
import path from 'node:path'
import type { TaskTrace } from '../src/shared/types'
import { judgeTasks } from '../src/main/reflect/task-judgment'
import { scanSessions } from '../src/main/scan/sessions'
import { scanTask } from '../src/main/scan/scan-root'
import { readTrajectories } from './real-trajectories'

const REAL = path.resolve(__dirname, '..', '..', 'shared', 'data', 'real')

interface Label {
  set: string
  task: string
  asked: string
  skill: boolean
  why?: string
  of?: string
}
type SetKind = 'claude' | 'codex' | 'agiagent' | 'openhands' | 'swe-agent'
interface Labels {
  sets: Record<string, { role: string; dir: string; kind: SetKind }>
  tasks: Label[]
}

async function tracesOf(kind: SetKind, dir: string): Promise<TaskTrace[]> {
  if (kind === 'openhands' || kind === 'swe-agent') return readTrajectories(kind, dir)
  if (kind !== 'agiagent') return (await scanSessions({ source: kind, dir })).tasks
  const out: TaskTrace[] = []
  for (const found of await agiagentTaskDirs(dir)) out.push(await scanTask(found))
  return out
}

/** Every AGIAgent task folder (`output_*` with a `logs/` folder) under `dir`. */
async function agiagentTaskDirs(dir: string): Promise<string[]> {
  const out: string[] = []
  const walk = (d: string, depth: number): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (!e.isDirectory()) continue
      const abs = path.join(d, e.name)
      if (e.name.startsWith('output_') && fs.existsSync(path.join(abs, 'logs'))) out.push(abs)
      else if (depth < 4) walk(abs, depth + 1)
    }
  }
  walk(dir, 0)
  return out.sort()
}

const pct = (n: number, d: number): string => (d ? `${Math.round((100 * n) / d)} %` : '—')

async function main(): Promise<void> {
  if (!fs.existsSync(REAL)) {
    console.log(`\n### Reflection judgment\n\nskipped: ${REAL} is absent\n`)
    return
  }
  const labels = JSON.parse(fs.readFileSync(path.join(__dirname, 'labels', 'reflection-tasks.json'), 'utf8')) as Labels
  const rows: string[] = []
  const misses: string[] = []
  for (const [name, set] of Object.entries(labels.sets)) {
    const traces = await tracesOf(set.kind, path.join(REAL, set.dir))
    const byTask = new Map(labels.tasks.filter((l) => l.set === name).map((l) => [l.task, l]))
    const unlabelled = traces.filter((t) => !byTask.has(t.taskDir)).map((t) => t.taskDir)
    if (unlabelled.length) throw new Error(`${name}: tasks without a label: ${unlabelled.join(', ')}`)
    const judged = judgeTasks(traces)
    const heads = judged.units.map((u) => u.trace.taskDir)
    const kept = heads.filter((h) => byTask.get(h)!.skill).length
    const worth = [...byTask.values()].filter((l) => l.skill)
    const found = worth.filter((l) => heads.includes(l.task)).length
    const wrongKinds = heads.filter((h) => ['greeting', 'follow-up', 'unfinished'].includes(byTask.get(h)!.why ?? ''))
    const noneLabelled = judged.none.filter((n) => !byTask.get(n.trace.taskDir)!.skill)
    const sameReason = noneLabelled.filter((n) => {
      const l = byTask.get(n.trace.taskDir)!
      return l.why === n.why && (n.why !== 'follow-up' || !l.of || l.of === n.of)
    }).length
    const followUps = [...byTask.values()].filter((l) => l.why === 'follow-up')
    const folded = followUps.filter(
      (l) => judged.units.some((u) => u.members[0] === l.of && u.members.includes(l.task)) || judged.none.some((n) => n.trace.taskDir === l.task && n.of === l.of)
    ).length
    rows.push(
      `| ${name} (${set.role}) | ${traces.length} | ${traces.length} → ${heads.length} | ${pct(worth.length, traces.length)} → **${pct(kept, heads.length)}** (${kept}/${heads.length}) | ${found}/${worth.length} | ${wrongKinds.length} | ${folded}/${followUps.length} | ${sameReason}/${noneLabelled.length} |`
    )
    for (const h of heads) if (!byTask.get(h)!.skill) misses.push(`${name}: ${h} became a skill; label: ${byTask.get(h)!.why}${byTask.get(h)!.of ? ` of ${byTask.get(h)!.of}` : ''}`)
    for (const l of worth) if (!heads.includes(l.task)) misses.push(`${name}: ${l.task} deserved a skill and made none`)
    for (const n of noneLabelled) {
      const l = byTask.get(n.trace.taskDir)!
      if (l.why !== n.why) misses.push(`${name}: ${n.trace.taskDir} no skill as "${n.why}", label "${l.why}"`)
    }
  }
  console.log('\n### Reflection judgment on real agent logs (labelled, issue 36)\n')
  console.log('Skills a person would keep, out of the skills reflection makes (before: one skill per task, as on main before issue 36). Same judgment for the offline rules and the model path.\n')
  console.log('| set | tasks | skills (before → now) | kept share (before → now) | skill-worthy tasks found | skills from a greeting / follow-up / unfinished task | follow-ups folded into their task | other no-skill reasons agree |')
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|')
  for (const r of rows) console.log(r)
  if (misses.length) console.log('\nDisagreements with the labels:\n\n' + misses.map((m) => `- ${m}`).join('\n'))
  console.log('')
}

void main()
