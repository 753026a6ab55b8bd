/**
 * Child process of pending-proposals.test.ts: saves one edit proposal of the library's first skill under a given id
 * (argv: library, id, line appended) and prints the id it was saved under.
 */
import fs from 'node:fs'
import path from 'node:path'
import { openLibrary } from '../../src/main/store/library'
import { editProposal, savePendingProposal } from '../../src/main/review/pending-proposals'

async function main(): Promise<void> {
  const [root, id, line] = process.argv.slice(2) as [string, string, string]
  const skill = (await (await openLibrary(root)).list()).skills[0]!
  const text = fs.readFileSync(path.join(root, skill.path), 'utf8')
  const proposal = editProposal(skill, text, `${text}\n${line}\n`, { tool: 'edit_skill', args: { skill_id: skill.skill_id, edit_mode: 'append' }, base_hash: skill.hash })
  proposal.id = id
  await savePendingProposal(root, proposal)
  process.stdout.write(proposal.id)
}

main().catch((err: Error) => {
  process.stderr.write(`${err.message}\n`)
  process.exit(1)
})
