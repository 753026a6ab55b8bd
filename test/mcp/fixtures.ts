import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openLibrary } from '../../src/main/store/library'

/** A temp library with three real skill files made through the store. */
export async function makeLibrary(parent?: string): Promise<{ dir: string; ids: { calc: string; joke: string; git: string } }> {
  const dir = parent ?? fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-mcp-'))
  fs.mkdirSync(dir, { recursive: true })
  let t = Date.UTC(2026, 0, 17, 9, 0, 0)
  const lib = await openLibrary(dir, { now: () => new Date((t += 1000)) })
  const calc = await lib.create({
    title: 'Python calculator with unit tests',
    usage_conditions: 'When asked to write a calculator or arithmetic program in Python',
    body: '# Experience\n\nWrite calculator.py with add/sub/mul/div; raise ValueError on division by zero.\nTest with pytest.\n',
    task_directories: ['output_calculator_project']
  })
  const joke = await lib.create({
    title: '中文笑话创作',
    usage_conditions: '当用户要求写中文笑话时使用',
    body: '# 经验\n\n先确认主题，笑话要简短，结尾有反转。\n',
    task_directories: ['output_20260115_165605']
  })
  const git = await lib.create({
    title: 'Resolve git merge conflicts',
    usage_conditions: 'When a git merge or rebase stops on conflicts',
    body: 'Run git status, edit the conflict markers, git add, then continue the rebase.\n'
  })
  return { dir, ids: { calc: calc.skill_id, joke: joke.skill_id, git: git.skill_id } }
}

/** sha256 of every file under a folder (relative path → hash), to prove nothing was written. */
export function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name)
      if (e.isDirectory()) walk(p)
      else out[path.relative(dir, p)] = createHash('sha256').update(fs.readFileSync(p)).digest('hex')
    }
  }
  walk(dir)
  return out
}

/** The skill file of an id (active folder only). */
export function skillFile(dir: string, id: string): string {
  const name = fs.readdirSync(dir).find((n) => n.endsWith('.md') && fs.readFileSync(path.join(dir, n), 'utf8').includes(`skill_id: '${id}'`))
  if (!name) throw new Error(`no file for skill ${id} in ${dir}`)
  return path.join(dir, name)
}
