/**
 * The clustering bench corpus as a real skill library: one AGIAgent `skill_*.md` file per generated document
 * (title = the document's first line, body = the rest), so `skillbench curate` can be timed as a whole
 * command on the same texts the engine bench and scikit-learn compare. Every seventh skill was never
 * fetched and is months old (cleanup candidates); the rest were fetched.
 * Usage: `tsx bench/cluster-library.ts DIR N` (DIR must not exist yet).
 */
import fs from 'node:fs'
import path from 'node:path'
import { serializeSkillFile } from '../src/main/store/skill-file'
import { generateCorpus } from './cluster-corpus'
import { generatedSkillData } from './skill-data'

export function writeCorpusLibrary(dir: string, n: number, seed = 42): void {
  const { docs } = generateCorpus(n, seed)
  fs.mkdirSync(dir)
  docs.forEach((doc, i) => {
    const nl = doc.indexOf('\n')
    const title = doc.slice(2, nl)
    const data = generatedSkillData(i, title, '', Math.round(((i * 37) % 100) / 10) / 10, i % 7)
    fs.writeFileSync(path.join(dir, `skill_${String(data.skill_id)}_${title.replace(/\s+/g, '_').slice(0, 30)}.md`), serializeSkillFile(data, doc.slice(nl + 1).replace(/^\n/, '')))
  })
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  const [dir, n] = process.argv.slice(2)
  if (!dir || !n) throw new Error('usage: cluster-library.ts DIR N')
  writeCorpusLibrary(dir, Number(n))
}
