import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fromSkillMd, parseSkillMd } from '../../src/main/formats/skill-md'
import { fromLearnedYaml, parseLearnedYaml } from '../../src/main/formats/learned-yaml'
import { loadSkillTree } from '../../src/main/formats/tree'
import { FIXTURES, copyToTemp, runCli, snapshot, tempDir } from './helpers'

describe('hostile and broken input', () => {
  it('ignores carrier values of the wrong type and never removes required fields', () => {
    const rec = parseSkillMd('---\nname: ok-skill\ndescription: Fine.\nmetadata:\n  skillbench:\n    quality_index: high\n    steps: [1, 2]\n    title: 42\n    unset: [title, body, description]\n    license: MIT\n---\n\nBody.\n')
    const s = fromSkillMd(rec)
    expect(s).toEqual({ title: 'ok-skill', name: 'ok-skill', description: 'Fine.', body: 'Body.\n', license: 'MIT', extra: {} })
  })

  it('keeps exported files inside --out whatever the names say', async () => {
    const src = tempDir('evil-src')
    fs.writeFileSync(
      path.join(src, 'evil.yaml'),
      'id: "../../../../tmp/evil"\nname: "../../escape/..\\\\win"\ndescription: x\ntrigger_pattern: x\nsteps: []\n'
    )
    fs.writeFileSync(path.join(src, 'evil2_config.yaml'), 'use_guide: {skill_name: "../../up", description: d}\nuse_prompt: {skill_name: "../../up", skill_prompt: p, return_format: r}\n')
    for (const to of ['skill-md', 'agiagent', 'learned-yaml', 'mas-config']) {
      const out = path.join(tempDir(`evil-out-${to}`), 'out')
      const r = await runCli(['export', '--to', to, '--library', src, '--out', out, '--json'])
      expect(r.code, to).toBe(0)
      const written = JSON.parse(r.stdout).written as { to: string }[]
      expect(written).toHaveLength(2)
      for (const w of written) {
        expect(path.resolve(out, w.to).startsWith(out + path.sep), w.to).toBe(true)
        expect(w.to.split('/')).not.toContain('..')
      }
      expect(fs.readdirSync(path.dirname(out))).toEqual(['out'])
    }
  })

  it('does not follow symbolic links (skill folders, scripts, resources) and does not read outside the tree', async () => {
    const lib = copyToTemp(path.join(FIXTURES, 'skill-md'), 'links')
    const outside = tempDir('outside')
    fs.mkdirSync(path.join(outside, 'secret-skill'))
    fs.writeFileSync(path.join(outside, 'secret-skill', 'SKILL.md'), '---\nname: secret-skill\ndescription: SECRET\n---\n')
    fs.writeFileSync(path.join(outside, 'secret.py'), '"""SECRET"""\n')
    fs.symlinkSync(path.join(outside, 'secret-skill'), path.join(lib, 'secret-skill'))
    fs.symlinkSync(path.join(outside, 'secret.py'), path.join(lib, 'log-analysis', 'scripts', 'secret.py'))
    const { skills } = await loadSkillTree(lib)
    expect(skills.map((s) => s.skill.name).sort()).toEqual(['csv-report', 'log-analysis'])
    expect(skills.find((s) => s.skill.name === 'log-analysis')?.skill.resources).not.toContain('scripts/secret.py')
    const out = tempDir('links-out')
    await runCli(['export', '--to', 'skill-md', '--library', lib, '--out', out])
    expect(fs.existsSync(path.join(out, 'log-analysis', 'scripts', 'secret.py'))).toBe(false)
    const bin = tempDir('links-bin')
    const g = JSON.parse((await runCli(['gen-commands', '--library', lib, '--bin', bin, '--json'])).stdout)
    expect(g.written.map((c: { command: string }) => c.command)).not.toContain('skill:log-analysis:secret')
  })

  it('reports malformed, oversized and non-UTF-8 files by path and loads the rest; reading changes nothing', async () => {
    const dir = copyToTemp(path.join(FIXTURES, 'learned'), 'broken')
    fs.writeFileSync(path.join(dir, 'bad_yaml.yaml'), 'id: x\ntrigger_pattern: [unclosed\n')
    fs.writeFileSync(path.join(dir, 'alias_bomb.yaml'), 'a: &a [x]\nb: &b [*a, *a]\ntrigger_pattern: x\n')
    fs.writeFileSync(path.join(dir, 'latin1.yaml'), Buffer.from([0x69, 0x64, 0x3a, 0x20, 0xe9, 0x0a]))
    fs.writeFileSync(path.join(dir, 'huge.yaml'), 'trigger_pattern: x\nnote: "' + 'x'.repeat(3 * 1024 * 1024) + '"\n')
    const before = snapshot(dir)
    const { skills, errors } = await loadSkillTree(dir)
    expect(skills.map((s) => s.path).sort()).toEqual(['broken_regex.yaml', 'db_migration.yaml', 'evil_backtracking.yaml', 'user_auth_flow.yaml'])
    expect(Object.fromEntries(errors.map((e) => [e.path, e.reason.split(':')[0]]))).toEqual({
      'alias_bomb.yaml': 'YAML skill is not valid YAML',
      'bad_yaml.yaml': 'YAML skill is not valid YAML',
      'huge.yaml': 'file is larger than 2097152 bytes',
      'latin1.yaml': 'not valid UTF-8'
    })
    expect(snapshot(dir)).toEqual(before)
  })

  it('a learned skill with a non-list steps value keeps it verbatim and round-trips', () => {
    const rec = parseLearnedYaml('id: a\nname: b\ntrigger_pattern: c\nsteps: {order: 1}\n')
    expect(fromLearnedYaml(rec).extra['learned-yaml']).toEqual({ steps: { order: 1 } })
  })
})
