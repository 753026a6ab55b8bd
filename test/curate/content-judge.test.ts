import { describe, expect, it } from 'vitest'
import { ContentJudge, descriptionTemplate, familiesOf, sameWord, subjectWords } from '../../src/main/curate/content-judge'
import { FamilyTerms } from '../../src/main/curate/judged-groups'
import { similarityParts } from '../../src/main/curate/similarity-text'
import { buildTfIdfIndex } from '../../src/main/text/tfidf'

/** A templated family as the Composio collection is: one text, only the service named differs. */
function templated(service: string, slug: string, folder = 'vendor/skills'): { path: string; title: string; usage_conditions: string; body: string } {
  return {
    path: `${folder}/${slug}-x/SKILL.md`,
    title: `${slug}-x`,
    usage_conditions: `Automate ${service} tasks via Rube MCP (Composio). Always search tools first for current schemas.`,
    body: `# ${service} Automation via Rube MCP\n\nAutomate ${service} operations through Composio's ${service} toolkit via Rube MCP.\n\n**Toolkit docs**: composio.dev/toolkits/${slug}\n\n## Prerequisites\n\n- Verify Rube MCP is available\n- Active ${service} connection with toolkit \`${slug}\`\n\n## Known Pitfalls\n\n- Always search first; reuse session ids; check pagination tokens.\n`
  }
}

function judgeOf(skills: ReturnType<typeof templated>[]): { judge: ContentJudge; at: (slug: string) => number } {
  const index = buildTfIdfIndex(skills.map(similarityParts))
  const families = familiesOf(skills.map((s) => s.path))
  const judge = new ContentJudge(skills, families, new FamilyTerms(index, families))
  return { judge, at: (slug) => skills.findIndex((s) => s.path.includes(`/${slug}-x/`)) }
}

const FILLER = Array.from({ length: 24 }, (_, i) => templated(`Service${String.fromCharCode(65 + i)}lon`, `service_${i}`))

describe('content judge', () => {
  it('keeps apart different services that share a template, and finds one service written twice', () => {
    const skills = [
      ...FILLER,
      templated('Gender API', 'gender_api'),
      templated('Genderize', 'genderize'),
      templated('Salesforce Marketing Cloud', 'salesforce_marketing_cloud'),
      templated('Salesforce Service Cloud', 'salesforce_service_cloud'),
      templated('Zoho Mail', 'zoho_mail'),
      { ...templated('Zoho Mail', 'zoho_mail'), path: 'vendor/skills/zoho-mail-y/SKILL.md', body: `# Zoho Mail Automation via Rube MCP\n\nSend email, manage folders and labels of a Zoho Mail mailbox through the zoho_mail toolkit.\n` },
      templated('Postgrid', 'postgrid'),
      templated('Postgrid Verify', 'postgrid_verify')
    ]
    const { judge, at } = judgeOf(skills)
    expect(judge.judge(at('gender_api'), at('genderize'), 'merge').same).toBe(false)
    expect(judge.judge(at('salesforce_marketing_cloud'), at('salesforce_service_cloud'), 'merge').same).toBe(false)
    // "verify" is in every skill's text ("Verify Rube MCP is available"): mentioning it says nothing
    expect(judge.judge(at('postgrid'), at('postgrid_verify'), 'merge').same).toBe(false)
    const mail = skills.findIndex((s) => s.path.includes('zoho-mail-y'))
    const v = judge.judge(at('zoho_mail'), mail, 'merge')
    expect(v.same).toBe(true)
    expect(judge.judge(at('zoho_mail'), mail, 'consolidate').same).toBe(true)
    expect(judge.sharedSubject([at('zoho_mail'), mail])).toBe('Zoho Mail')
  })

  it('judges a pair asked again (another bar, the other order, after its words were changed) as a fresh judge does', () => {
    const skills = [...FILLER, templated('Zoho Mail', 'zoho_mail'), { ...templated('Zoho Mail', 'zoho_mail'), path: 'vendor/skills/zoho-mail-y/SKILL.md' }, templated('Genderize', 'genderize')]
    const n = skills.length
    const asked = [[n - 3, n - 2], [n - 2, n - 3], [n - 3, n - 1], [0, 1]] as const
    const fresh = (a: number, b: number, bar: 'merge' | 'consolidate'): unknown => judgeOf(skills).judge.judge(a, b, bar)
    const { judge } = judgeOf(skills)
    for (const bar of ['merge', 'consolidate', 'merge'] as const) {
      for (const [a, b] of asked) {
        const v = judge.judge(a, b, bar)
        expect(v).toEqual(fresh(a, b, bar))
        // a caller's changes to one verdict's words stay out of the next verdict
        v.shared.push('changed')
      }
    }
    expect(judge.judge(n - 3, n - 2, 'merge').shared).toEqual(['zoho', 'mail'])
  })

  it('never reads a folder or a name: the verdicts are the same with both replaced', () => {
    const skills = [...FILLER, templated('Gender API', 'gender_api'), templated('Genderize', 'genderize'), templated('Zoho Mail', 'zoho_mail'), templated('Zoho Mail', 'zoho_mail')]
    skills[skills.length - 1] = { ...skills[skills.length - 1]!, path: 'vendor/skills/zoho-mail-y/SKILL.md' }
    const hidden = skills.map((s, i) => ({ ...s, path: `vendor/skills/s${i}/SKILL.md`, title: `s${i}` }))
    const a = judgeOf(skills).judge
    const b = judgeOf(hidden).judge
    const n = skills.length
    for (const [x, y] of [[n - 4, n - 3], [n - 2, n - 1], [0, 1]] as const) expect(b.judge(x, y, 'merge')).toEqual(a.judge(x, y, 'merge'))
  })

  it('families widen to the nearest folder with 20 skills; a small library has no template', () => {
    const paths = [...Array.from({ length: 20 }, (_, i) => `big/s${i}/SKILL.md`), 'small/a/SKILL.md', 'small/b/SKILL.md', 'skill_1.md']
    const f = familiesOf(paths)
    expect(f.names[f.familyOf(0)]).toBe('big')
    expect(f.names[f.familyOf(20)]).toBe('')
    expect(f.familyOf(22)).toBe(f.familyOf(20))
    // four skills about one thing: their shared heading words are their subject, not a template
    const sorting = Array.from({ length: 4 }, (_, i) => ({ path: `skill_${i}.md`, title: `t${i}`, usage_conditions: '', body: `# Sorting arrays in TypeScript\n\nUse sort with a comparator ${i}.\n` }))
    const { judge } = judgeOf(sorting as never)
    expect(judge.judge(0, 1, 'merge').same).toBe(true)
  })

  it('reads words as written, Chinese as dictionary words, and forms of one word as one', () => {
    expect(subjectWords('Deploying with Docker compose')).toEqual(['deploying', 'docker', 'compose'])
    expect(subjectWords('创建 Python 计算器')).toEqual(expect.arrayContaining(['创建', 'python']))
    expect(sameWord('deploying', 'deployment')).toBe(true)
    expect(sameWord('agiled', 'agility')).toBe(false)
    expect(sameWord('mem', 'mem0')).toBe(false)
  })
})

describe("a family's description template", () => {
  // Mulberry32: the same descriptions on every run.
  const random = ((seed: number) => () => {
    seed = (seed + 0x6d2b79f5) >>> 0
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  })(7)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
  const common = ['用户', '任务', '完成']
  const rare = ['计算器', '单元测试', '网页爬虫', '数据清洗', '表格排序', '文件保存', '日志分析', '图片压缩', '接口调用', '数据库索引', '容器部署', '配置环境']
  const english = ['deploy', 'retry', 'timeout', 'Docker', 'v2', '2024', 'the']
  const descriptions = Array.from({ length: 80 }, (_, i) => {
    const words = Array.from({ length: 6 + (i % 5) }, () => (random() < 0.35 ? pick(common) : random() < 0.2 ? pick(english) : pick(rare)))
    return words.map((w, k) => (/[a-z0-9]/i.test(w) ? ` ${w} ` : k % 3 === 2 ? `${w}，` : w)).join('') + '。'
  })

  it('names exactly the words that counting every description would, Chinese ones without segmenting them all', () => {
    for (const limit of [3, 10, 20, 40]) {
      const count = new Map<string, number>()
      for (const d of descriptions) for (const w of subjectWords(d)) count.set(w, (count.get(w) ?? 0) + 1)
      const inTemplate = descriptionTemplate(descriptions, limit)
      const words = [...count.keys(), '从未出现', '用户任务', 'absent']
      for (const w of words) expect([w, limit, inTemplate(w)]).toEqual([w, limit, (count.get(w) ?? 0) >= limit])
      // the check is not empty: some words are template at the lower limits, some never
      if (limit === 10) {
        expect(words.some((w) => /[用任完]/.test(w) && inTemplate(w))).toBe(true)
        expect(words.some((w) => !inTemplate(w))).toBe(true)
      }
    }
  })
})
