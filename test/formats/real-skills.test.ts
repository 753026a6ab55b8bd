import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { fromAgiAgent, parseAgiAgent, serializeAgiAgent, toAgiAgent } from '../../src/main/formats/agiagent'
import { fromSkillMd, parseSkillMd, serializeSkillMd, toSkillMd, validateSkillMd } from '../../src/main/formats/skill-md'
import { listResources, loadSkillTree } from '../../src/main/formats/tree'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { copyToTemp, runCli, tempDir } from './helpers'

const CORPORA = ['anthropics_skills', 'obra_superpowers', 'openai_skills']

describe.skipIf(!HAS_REAL_DATA)('real SKILL.md skills (anthropics, obra, openai)', () => {
  // Copies, so nothing we do can touch the real data. Made in beforeAll: a skipped describe still runs its body.
  let root = ''
  let src = ''
  beforeAll(() => {
    root = tempDir('real')
    for (const c of CORPORA) fs.cpSync(realPath('skills', c), path.join(root, 'src', c), { recursive: true })
    src = path.join(root, 'src')
  })

  it('all 36 convert SKILL.md → agiagent → SKILL.md without losing name, description, body or any other key', async () => {
    const { skills, errors } = await loadSkillTree(src, 'skill-md')
    expect(errors).toEqual([])
    expect(skills).toHaveLength(36)
    for (const loaded of skills) {
      if (loaded.format !== 'skill-md') throw new Error('unexpected format')
      const original = loaded.skill
      const agiText = serializeAgiAgent(toAgiAgent(original))
      const viaAgi = fromAgiAgent(parseAgiAgent(agiText))
      expect(viaAgi).toEqual(original)
      const out = toSkillMd(viaAgi)
      const back = fromSkillMd({ ...parseSkillMd(serializeSkillMd(out)), resources: loaded.record.resources })
      expect(back).toEqual(original)
      // Field by field against the file as read: nothing dropped, nothing changed.
      const fm = loaded.record.frontMatter
      expect(back.name).toBe(fm.name)
      expect(back.description).toBe(fm.description)
      expect(back.body).toBe(loaded.record.body)
      if (fm.license !== undefined) expect(back.license).toBe(fm.license)
      if (fm.metadata !== undefined) expect(back.metadata).toEqual(fm.metadata)
      const problems = validateSkillMd(out, { dirName: out.frontMatter.name as string }).filter((p) => p.level === 'error')
      expect(problems, loaded.path).toEqual([])
    }
  })

  it('the CLI round trip writes folders that pass the validator and keep every field', async () => {
    const agi = path.join(root, 'agi')
    const md = path.join(root, 'md')
    const e1 = await runCli(['export', '--to', 'agiagent', '--library', src, '--out', agi, '--json'])
    expect(e1.code).toBe(0)
    expect(JSON.parse(e1.stdout).written).toHaveLength(36)
    const e2 = await runCli(['export', '--to', 'skill-md', '--library', agi, '--out', md, '--json'])
    expect(e2.code).toBe(0)
    const report = JSON.parse(e2.stdout)
    expect(report.written).toHaveLength(36)
    expect(report.index).toMatchObject({ status: 'written', skills: 36 })
    // Same name twice (anthropics and openai skill-creator): the second folder gets a suffix.
    expect(fs.existsSync(path.join(md, 'skill-creator', 'SKILL.md')) && fs.existsSync(path.join(md, 'skill-creator-2', 'SKILL.md'))).toBe(true)
    const v = await runCli(['validate', md, '--json'])
    const validation = JSON.parse(v.stdout)
    expect(validation.errors).toBe(0)
    expect(v.code).toBe(0)
    // claude-api has a 1068-character description: cut to 1024 in the file, whole in the model.
    const claudeApi = parseSkillMd(fs.readFileSync(path.join(md, 'claude-api', 'SKILL.md'), 'utf8'))
    expect((claudeApi.frontMatter.description as string).length).toBeLessThanOrEqual(1024)
    const original = (await loadSkillTree(src, 'skill-md')).skills.map((s) => s.skill)
    const final = (await loadSkillTree(md, 'skill-md')).skills.map((s) => s.skill)
    const key = (s: { name?: string; body: string }): string => `${s.name}\u0000${s.body.length}`
    expect(final.map(key).sort()).toEqual(original.map(key).sort())
    for (const s of final) {
      const o = original.find((x) => x.name === s.name && x.body === s.body)
      expect(o, s.name).toBeDefined()
      // The only addition: AGIAgent needs a digit id, so the export gave each skill the id the store would derive.
      const { skill_id: id, ...rest } = s
      expect(id).toMatch(/^\d{16}$/)
      expect(rest).toEqual(o)
    }
  })

  it('Composio skills with invalid names and extra keys come out valid, originals kept in metadata.skillbench', async () => {
    const lib = copyToTemp(realPath('skills', 'composiohq_awesome-claude-skills', 'composio-skills', 'lemon-squeezy-automation'), 'composio')
    const out = tempDir('composio-out')
    const r = await runCli(['export', '--to', 'skill-md', '--library', path.dirname(lib), '--out', out, '--json'])
    expect(r.code).toBe(0)
    const rec = parseSkillMd(fs.readFileSync(path.join(out, 'lemon-squeezy-automation', 'SKILL.md'), 'utf8'))
    expect(validateSkillMd(rec, { dirName: 'lemon-squeezy-automation' }).filter((p) => p.level === 'error')).toEqual([])
    expect(rec.frontMatter.metadata).toMatchObject({ skillbench: { name: 'Lemon Squeezy Automation', extra: { 'skill-md': { requires: expect.anything() } } } })
    expect(await listResources(path.join(out, 'lemon-squeezy-automation'))).toEqual(await listResources(lib))
  })

  it('the 4 real AGIAgent skills go AGIAgent → SKILL.md → AGIAgent with the same front matter and body', async () => {
    const lib = copyToTemp(realPath('agiagent', 'agi-hub_AGIAgent', 'data_root_example', 'default', 'general', 'experience'), 'real-agi')
    const { skills, errors } = await loadSkillTree(lib, 'agiagent')
    expect(errors).toEqual([])
    expect(skills).toHaveLength(4)
    for (const loaded of skills) {
      if (loaded.format !== 'agiagent') throw new Error('unexpected format')
      const md = toSkillMd(loaded.skill)
      expect(validateSkillMd(md, { dirName: md.frontMatter.name as string }).filter((p) => p.level === 'error')).toEqual([])
      const back = toAgiAgent(fromSkillMd(parseSkillMd(serializeSkillMd(md))))
      expect(back.frontMatter).toEqual(loaded.record.frontMatter)
      expect(back.body).toBe(loaded.record.body)
    }
  })
})
