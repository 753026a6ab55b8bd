// Seed 004 (MAS skill configs) through the CLI: the executor travels, files are named after the skill,
// and the export writes the agent prompt's available-skills list and the <SKILLNAME> return-tag advice.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseYamlSafe } from '../../src/main/formats/safe-yaml'
import { loadSkillTree } from '../../src/main/formats/tree'
import { FIXTURES, runCli, snapshot, tempDir } from './helpers'

const EXECUTOR = `from mas.executor import Executor

@Executor.register(executor_type="skill", executor_name="planning")
class PlanningSkill(Executor):
    def execute(self, step_id, agent_state):
        agent_state["agent_step"].update_step_status(step_id, "running")
`

function masDir(): string {
  const dir = path.join(tempDir('mas-src'), 'skills')
  fs.cpSync(path.join(FIXTURES, 'mas'), dir, { recursive: true })
  fs.rmSync(path.join(dir, 'broken_config.yaml'))
  fs.writeFileSync(path.join(dir, 'planning.py'), EXECUTOR)
  return dir
}

describe('seed 004: MAS skill configs', () => {
  it('keeps the {SKILLNAME}.py executor through import and export, byte for byte', async () => {
    const src = masDir()
    const before = snapshot(src)
    const library = path.join(tempDir('mas-lib'), 'lib')
    const imported = await runCli(['import', '--from', src, '--library', library, '--json'])
    expect(imported.code).toBe(0)
    expect(snapshot(src)).toEqual(before) // reading never changes a file
    expect(fs.readFileSync(path.join(library, 'planning', 'scripts', 'planning.py'), 'utf8')).toBe(EXECUTOR)
    expect(fs.existsSync(path.join(library, 'reflection', 'scripts'))).toBe(false) // no executor, none invented
    const out = tempDir('mas-back')
    expect((await runCli(['export', '--to', 'mas-config', '--library', library, '--out', out])).code).toBe(0)
    expect(fs.readFileSync(path.join(out, 'planning.py'), 'utf8')).toBe(EXECUTOR)
    // Every field comes back: the configs read the same as the originals.
    const original = (await loadSkillTree(src, 'mas-config')).skills.map((s) => s.skill)
    const back = (await loadSkillTree(out, 'mas-config')).skills.map((s) => s.skill)
    expect(back).toEqual(original)
    const planning = parseYamlSafe(fs.readFileSync(path.join(out, 'planning_config.yaml'), 'utf8'), 't') as Record<string, unknown>
    expect(planning.skillbench).toBeUndefined() // nothing the format cannot hold
  })

  it('names the export after the skill and writes the available-skills list and the return-tag advice', async () => {
    const library = path.join(tempDir('deploy-lib'), 'lib')
    fs.mkdirSync(path.join(library, 'deploy-flow', 'scripts'), { recursive: true })
    fs.writeFileSync(path.join(library, 'deploy-flow', 'SKILL.md'), '---\nname: deploy-flow\ndescription: Deploys the service with a staged rollout\n---\n\n# Deploy\nRoll out in stages.\n')
    fs.writeFileSync(path.join(library, 'deploy-flow', 'scripts', 'deploy_flow.py'), 'print("deploy")\n')
    const out = tempDir('deploy-out')
    const r = await runCli(['export', '--to', 'mas-config', '--library', library, '--out', out])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('available_skills_and_tools.txt written (1 skills)')
    expect(fs.readdirSync(out).sort()).toEqual(['available_skills_and_tools.txt', 'deploy_flow.py', 'deploy_flow_config.yaml'])
    const data = parseYamlSafe(fs.readFileSync(path.join(out, 'deploy_flow_config.yaml'), 'utf8'), 't') as { use_guide: Record<string, string>; use_prompt: Record<string, string> }
    expect(data.use_guide.skill_name).toBe('deploy_flow')
    expect(data.use_prompt.skill_name).toBe('deploy_flow')
    expect(data.use_prompt.return_format).toBe('Wrap the results that code reads in <deploy_flow></deploy_flow>.\n')
    expect(fs.readFileSync(path.join(out, 'available_skills_and_tools.txt'), 'utf8')).toBe('Available skills:\n- deploy_flow: Deploys the service with a staged rollout\n')
    expect(JSON.parse((await runCli(['validate', out, '--json'])).stdout).errors).toBe(0)
    // The SKILL.md name comes back on import: the rename and the advice are ours, not the skill's.
    const lib2 = path.join(tempDir('deploy-lib2'), 'lib')
    expect((await runCli(['import', '--from', out, '--library', lib2])).code).toBe(0)
    const again = (await loadSkillTree(lib2, 'skill-md')).skills[0]!.skill
    const first = (await loadSkillTree(library, 'skill-md')).skills[0]!.skill
    expect(again).toEqual(first)
    expect(fs.readFileSync(path.join(lib2, 'deploy-flow', 'scripts', 'deploy_flow.py'), 'utf8')).toBe('print("deploy")\n')
  })
})
