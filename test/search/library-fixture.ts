/** A generated library of English and Chinese skills (both layouts, a retired one, a broken one) and the answers to compare the index with. */
import fs from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { LibrarySearch } from '../../src/main/search/library-search'
import { indexedText } from '../../src/main/search/search-index'
import { openLibrary } from '../../src/main/store/library'
import { serializeSkillFile } from '../../src/main/store/skill-file'
import { buildTfIdfIndex } from '../../src/main/text/tfidf'
import { tempDir } from '../store/helpers'

const EN = ['parse', 'csv', 'sort', 'column', 'pandas', 'http', 'retry', 'timeout', 'json', 'docker', 'image', 'react', 'hook', 'test', 'mock', 'git', 'rebase', 'conflict', 'deploy', 'pdf', 'table', 'calculator', 'divide', 'zero', 'error']
const ZH = ['计算器', '除零保护', '单元测试', '网页', '爬虫', '数据', '清洗', '表格', '排序', '笑话', '文件', '保存', '日志', '分析', '超时', '重试']
export const QUERIES = ['retry http timeout', 'sort a csv column with pandas', '写一个计算器 除零保护', '网页 爬虫 数据 清洗', 'git rebase conflict', 'zzqxv nothing matches', 'docker image 日志 分析']

let seed = 7
const rnd = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647
const pick = (pool: string[], n: number, sep: string): string => Array.from({ length: n }, () => pool[Math.floor(rnd() * pool.length)]).join(sep)

export function skillText(i: number): string {
  const zh = i % 3 === 0
  const data = {
    skill_id: String(1_700_000_000 + i),
    title: zh ? pick(ZH, 3, '') : pick(EN, 4, ' '),
    usage_conditions: zh ? pick(ZH, 4, '') : pick(EN, 6, ' '),
    quality_index: 0.5,
    fetch_count: i % 4,
    related_code: '',
    task_directories: [`output_${i}`],
    created_at: '2026-01-17T09:59:21.686210',
    updated_at: '2026-01-17T09:59:21.686210',
    last_used_at: null,
    user_preferences: ''
  }
  const body = Array.from({ length: 4 }, () => (zh ? pick(ZH, 8, '') + '。' : pick(EN, 10, ' ') + '.')).join('\n\n') + '\n'
  return serializeSkillFile(data, body)
}

export function makeLibrary(n: number): string {
  const dir = fs.realpathSync(tempDir('sb-search-'))
  for (let i = 0; i < n; i++) fs.writeFileSync(path.join(dir, `skill_${i}.md`), skillText(i))
  fs.mkdirSync(path.join(dir, 'pdf-tool'))
  fs.writeFileSync(path.join(dir, 'pdf-tool', 'SKILL.md'), '---\nname: pdf-tool\ndescription: Extract tables from PDF files\n---\nUse pdftotext -layout, then parse the table columns.\n')
  fs.mkdirSync(path.join(dir, 'legacy'))
  fs.writeFileSync(path.join(dir, 'legacy', 'skill_old.md'), skillText(999).replace("skill_id: '1700000999'", "skill_id: '1600000000'"))
  fs.writeFileSync(path.join(dir, 'skill_broken.md'), '---\ntitle: [unclosed\n---\nbody\n')
  return dir
}

/** The in-memory engine's answer over the store's listing: what query_skill gave before the persistent index. */
export async function engineAnswer(dir: string, text: string, top: number): Promise<{ path: string; score: number }[]> {
  const skills = (await (await openLibrary(dir)).list()).skills.filter((s) => !s.legacy)
  const hits = buildTfIdfIndex(skills.map(indexedText)).query(text, top)
  return (hits.length ? hits : [{ doc: 0, score: 0 }]).map((h) => ({ path: skills[h.doc]!.path, score: h.score }))
}

export async function indexAnswer(dir: string, text: string, top: number): Promise<{ path: string; score: number }[]> {
  const { index } = await LibrarySearch.open(dir)
  return index.query(text, top).map((h) => ({ path: h.path, score: h.score }))
}

export function expectSameRanking(a: { path: string; score: number }[], b: { path: string; score: number }[]): void {
  expect(a.map((h) => h.path)).toEqual(b.map((h) => h.path))
  a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i]!.score, 12))
}

