/**
 * Writes a new skill's file into the library, never over an existing one: an AGIAgent `skill_*.md` at the top
 * (named from its title and id), or a SKILL.md in a new folder. Runs under the library lock.
 */
import fs from 'node:fs'
import path from 'node:path'
import { coded } from '../../shared/error-codes'
import type { SkillMeta } from '../../shared/types'
import { announceOwnWrite, announcing, PENDING, stampOf } from './announce-writes'
import { writeFileAtomic } from './atomic'
import { buildSkillFileName } from './paths'
import { serializeSkillFile } from './skill-file'
import { checkSkillMdName } from './skill-input'
import { newAgiagentData, newSkillMdData } from './skill-meta'
import { StoreError, type NewSkillInput } from './types'

/** The new file's path in the library and the bytes written there. */
export async function writeNewSkillFile(root: string, input: NewSkillInput, meta: SkillMeta): Promise<{ rel: string; bytes: Buffer }> {
  const id = meta.skill_id
  if ((input.format ?? 'agiagent') === 'agiagent') {
    const bytes = Buffer.from(serializeSkillFile(newAgiagentData(meta), input.body), 'utf8')
    // The name is verified by the exclusive link itself; a name taken meanwhile (another program) picks the next one.
    for (let attempt = 1; ; attempt++) {
      const name = buildSkillFileName(input.title, id, (n) => fs.existsSync(path.join(root, n)))
      try {
        await writeFileAtomic(path.join(root, name), bytes, { mustNotExist: true })
        return { rel: name, bytes }
      } catch (err) {
        if (!(err instanceof StoreError && err.code === 'exists') || attempt >= 8) throw err
      }
    }
  }
  const name = input.name ?? ''
  checkSkillMdName(name)
  const data = newSkillMdData(name, input.description ?? meta.usage_conditions, meta)
  const dirAbs = path.join(root, name)
  // announced before it is made (its notification may come before the mkdir's answer), its stamp once made
  if (announcing()) announceOwnWrite(dirAbs, PENDING)
  try {
    await fs.promises.mkdir(dirAbs)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new StoreError('exists', coded('skill.folder_exists', { name }))
    throw err
  }
  if (announcing()) announceOwnWrite(dirAbs, stampOf(await fs.promises.lstat(dirAbs).catch(() => undefined)))
  const bytes = Buffer.from(serializeSkillFile(data, input.body), 'utf8')
  await writeFileAtomic(path.join(dirAbs, 'SKILL.md'), bytes, { mustNotExist: true })
  return { rel: `${name}/SKILL.md`, bytes }
}
