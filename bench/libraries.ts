/**
 * Generated skill libraries for the benches, deterministic per seed.
 *
 * - `writeMixedLibrary`: skills as agents write them, English and Chinese (half each), 95% AGIAgent `skill_*.md`
 *   files and 5% SKILL.md folders (a third of those in dot-folders). Used where the text matters little but the
 *   tokenizer should see both languages (list, query, MCP, web mode, the store bench).
 * - `writeCorpusLibrary`: the clustering corpus of cluster-corpus.ts as AGIAgent skill files (title, usage
 *   conditions and body cut from each document), so scikit-learn can read the same skills (curate); in another
 *   `CorpusShape` for bench/shapes.bench.ts.
 * - `queryOf`: a query of words such a corpus library holds (the start of one of its titles).
 */
import fs from 'node:fs'
import path from 'node:path'
import { serializeSkillFile } from '../src/main/store/skill-file'
import { BENCH_SHAPE, generateCorpus, rng, type CorpusShape } from './cluster-corpus'
import { generatedSkillData } from './skill-data'

export const EN = [
  'parse', 'csv', 'file', 'sort', 'column', 'pandas', 'http', 'request', 'retry', 'timeout', 'json', 'schema', 'validate', 'docker',
  'image', 'build', 'cache', 'layer', 'react', 'component', 'state', 'hook', 'test', 'unit', 'mock', 'fixture', 'database', 'index',
  'query', 'migration', 'git', 'branch', 'merge', 'rebase', 'conflict', 'deploy', 'kubernetes', 'pod', 'log', 'metric', 'alert',
  'python', 'typescript', 'rust', 'async', 'thread', 'lock', 'queue', 'worker', 'pdf', 'table', 'extract', 'scrape', 'html', 'selector',
  'calculator', 'divide', 'zero', 'error', 'handling', 'config', 'environment', 'secret', 'token', 'auth', 'oauth', 'session', 'cookie'
]
export const ZH = [
  '计算器', '加减乘除', '除零保护', '单元测试', '网页', '爬虫', '数据', '清洗', '表格', '排序', '笑话', '问候', '文件', '保存', '读取',
  '用户', '需求', '中断', '任务', '完成', '错误', '处理', '日志', '分析', '图片', '压缩', '接口', '调用', '超时', '重试', '数据库',
  '索引', '迁移', '部署', '容器', '配置', '环境', '密钥', '登录', '会话', '报告', '生成', '模板', '翻译', '摘要', '游戏', '规则'
]

/** Picks words from a pool with a seeded random source. */
export function wordPicker(random: () => number): (pool: readonly string[], n: number, sep: string) => string {
  return (pool, n, sep) => Array.from({ length: n }, () => pool[Math.floor(random() * pool.length)]!).join(sep)
}

/**
 * Writes `count` mixed English / Chinese skills into `dir` (created), `skillMdShare` of them as SKILL.md folders;
 * returns the AGIAgent file paths written.
 */
export function writeMixedLibrary(dir: string, count: number, { seed = 42, skillMdShare = 0.05 } = {}): string[] {
  fs.mkdirSync(dir, { recursive: true })
  const words = wordPicker(rng(seed))
  const text = (chinese: boolean, n: number): string => (chinese ? words(ZH, n, '') + '。' : words(EN, n, ' ') + '.')
  const mdCount = Math.round(count * skillMdShare)
  const agiCount = count - mdCount
  const files: string[] = []
  for (let i = 0; i < agiCount; i++) {
    const zh = i % 2 === 0
    const title = zh ? `${words(ZH, 4, '')}：${words(ZH, 3, '')}` : words(EN, 5, ' ')
    const body = Array.from({ length: 12 }, () => text(zh, 14)).join('\n\n') + '\n'
    const data = generatedSkillData(i, title, text(zh, 10), 0.5, i % 7)
    const file = path.join(dir, `skill_${i}_${title.slice(0, 12).replace(/[\s：]/g, '_')}.md`)
    fs.writeFileSync(file, serializeSkillFile(data, body))
    files.push(file)
  }
  for (let i = 0; i < mdCount; i++) {
    const folder = path.join(dir, i % 3 === 0 ? '.curated' : 'skills', `cat-${i % 10}`, `skill-${i}`)
    fs.mkdirSync(folder, { recursive: true })
    const body = `# skill-${i}\n\n` + Array.from({ length: 20 }, () => text(false, 16)).join('\n\n') + '\n'
    fs.writeFileSync(path.join(folder, 'SKILL.md'), serializeSkillFile({ name: `skill-${i}`, description: `Use when ${text(false, 12)}` }, body))
  }
  return files
}

/**
 * Writes the `n`-document clustering corpus as AGIAgent skills: the document's `# heading` is the title, its
 * first paragraph the usage conditions, the rest the body. Returns the corpus (planted near-duplicates).
 */
export function writeCorpusLibrary(dir: string, n: number, seed = 42, shape: CorpusShape = BENCH_SHAPE): ReturnType<typeof generateCorpus> {
  fs.mkdirSync(dir, { recursive: true })
  const corpus = generateCorpus(n, seed, shape)
  corpus.docs.forEach((doc, i) => {
    const [heading = '', , usage = '', , ...rest] = doc.split('\n')
    const data = {
      skill_id: String(1_800_000_000 + i),
      title: heading.replace(/^# /, ''),
      usage_conditions: usage,
      quality_index: 0.5,
      fetch_count: 1,
      related_code: '',
      task_directories: [`output_corpus_${i}`],
      created_at: '2026-11-01T00:00:00',
      updated_at: '2026-11-01T00:00:00',
      last_used_at: '2026-11-01T00:00:00',
      user_preferences: ''
    }
    fs.writeFileSync(path.join(dir, `skill_${String(i).padStart(6, '0')}.md`), serializeSkillFile(data, rest.join('\n')))
  })
  return corpus
}

/**
 * A query of words the library holds: the start of a skill's title (three words, or six characters of a Chinese
 * title where the shape has Chinese skills).
 */
export function queryOf(lib: string, chinese: boolean): string {
  for (let i = 5; i < 200; i++) {
    const file = path.join(lib, `skill_${String(i).padStart(6, '0')}.md`)
    if (!fs.existsSync(file)) break
    const title = /^title: '?(.*?)'?$/m.exec(fs.readFileSync(file, 'utf8'))?.[1] ?? ''
    if (title.includes(' ') !== chinese) return chinese ? title.slice(0, 6) : title.split(' ').slice(0, 3).join(' ')
  }
  throw new Error(`no ${chinese ? 'Chinese' : 'English'} title among the first skills of ${lib}`)
}
