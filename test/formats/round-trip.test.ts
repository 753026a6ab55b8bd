import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromAgiAgent, parseAgiAgent, serializeAgiAgent, toAgiAgent } from '../../src/main/formats/agiagent'
import { fromLearnedYaml, parseLearnedYaml, serializeLearnedYaml, toLearnedYaml } from '../../src/main/formats/learned-yaml'
import { fromMasConfig, parseMasConfig, serializeMasConfig, toMasConfig } from '../../src/main/formats/mas-config'
import { normalizeSkill, type PortableSkill } from '../../src/main/formats/model'
import { fromSkillMd, parseSkillMd, serializeSkillMd, toSkillMd, validateSkillMd } from '../../src/main/formats/skill-md'
import { portableSkill } from './arbitraries'

/** Model → file text → model, for each format (through the real serializer and parser). */
const viaText: Record<string, (s: PortableSkill) => PortableSkill> = {
  agiagent: (s) => fromAgiAgent(parseAgiAgent(serializeAgiAgent(toAgiAgent(s)))),
  'skill-md': (s) => {
    const rec = toSkillMd(s)
    return fromSkillMd({ ...parseSkillMd(serializeSkillMd(rec)), resources: rec.resources })
  },
  'learned-yaml': (s) => fromLearnedYaml(parseLearnedYaml(serializeLearnedYaml(toLearnedYaml(s)))),
  'mas-config': (s) => fromMasConfig(parseMasConfig(serializeMasConfig(toMasConfig(s))))
}

describe('every format carries every field of the model', () => {
  for (const [format, trip] of Object.entries(viaText)) {
    it(`${format}: model → text → model is lossless`, () => {
      fc.assert(
        fc.property(portableSkill, (skill) => {
          expect(trip(skill)).toEqual(normalizeSkill(skill))
        }),
        { numRuns: Number(process.env.FC_RUNS ?? 60) }
      )
    })
  }

  it('A → B → A equals A for every pair of formats', () => {
    const names = Object.keys(viaText)
    fc.assert(
      fc.property(portableSkill, fc.constantFrom(...names), fc.constantFrom(...names), (skill, a, b) => {
        const start = viaText[a]!(skill)
        expect(viaText[a]!(viaText[b]!(start))).toEqual(start)
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 60) }
    )
  })

  it('SKILL.md output always passes the Agent Skills rules', () => {
    fc.assert(
      fc.property(portableSkill, (skill) => {
        const rec = toSkillMd(skill)
        const errors = validateSkillMd(parseSkillMd(serializeSkillMd(rec)), { dirName: rec.frontMatter.name as string }).filter((p) => p.level === 'error')
        expect(errors).toEqual([])
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 60) }
    )
  })
})
