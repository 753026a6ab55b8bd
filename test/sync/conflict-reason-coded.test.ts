/**
 * A sync conflict's proposal says why by code beside its unchanged English (real git, two machines, the CLI as its
 * own process): an edit both made, and a skill retired on one side and edited on the other, each way. plan.json and
 * `skillbench proposals --json` carry the code; the English re-renders from it; the Curate screen words it by code
 * (authors without their address) in either language, and a plan an older build wrote from its evidence.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { englishText, type MessageRef } from '../../src/shared/error-codes'
import type { Proposal } from '../../src/shared/types'
import { loadPlan } from '../../src/main/review/plan'
import { proposalReason } from '../../src/renderer/features/curate/proposal-text'
import { formatMessage, type Translate } from '../../src/renderer/i18n/i18n'
import { MESSAGES } from '../../src/renderer/i18n/messages'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { BIN, makeTeam, type Machine, type Team } from './team'

let team: Team | undefined

afterEach(() => {
  team?.cleanup()
  team = undefined
})

const ALICE = 'Alice <alice@example.org>'
const BOB = 'Bob <bob@example.org>'
const REMOTE = 'origin/main'
const tr = (lang: 'en' | 'zh'): Translate => (key, vars) => formatMessage(MESSAGES[lang][key], vars)
const ref = (p: Proposal): MessageRef => ({ messageCode: p.messageCode!, params: p.params! })

async function startTeam(): Promise<{ alice: Machine; bob: Machine; pdf: string }> {
  team = makeTeam('sb-sync-reason-')
  const alice = team.machine('Alice')
  const pdf = (await (await alice.open()).create({ title: 'Read PDF files', usage_conditions: 'When a task reads a PDF', body: '# PDF\n\nOpen it.\n\nRead the pages.\n', skill_id: '1700000001' })).skill_id
  expect(alice.sync(['--init', team.url]).code).toBe(0)
  const bob = team.machine('Bob')
  fs.rmSync(bob.lib, { recursive: true })
  bob.git('clone', '-q', team.url, bob.lib)
  return { alice, bob, pdf }
}

/** Bob's sync (as a process), and the one conflict proposal it left in Bob's plan. */
async function bobsConflict(bob: Machine): Promise<Proposal> {
  const r = bob.sync()
  expect(r.code, r.stderr).toBe(0)
  expect(r.json!.conflicts).toHaveLength(1)
  return (await loadPlan(bob.lib)).proposals.find((x) => x.id === r.json!.conflicts[0]!.proposal_id)!
}

describe("a sync conflict's reason by code", () => {
  it('an edit both made: sync.reason_edited_conflicts beside the same English, in proposals --json, and in Chinese', async () => {
    const { alice, bob, pdf } = await startTeam()
    await (await alice.tools()).edit_skill(pdf, 'lines_replace', 'Read the pages carefully.\n', 'Read the pages.\n')
    await (await bob.tools()).edit_skill(pdf, 'lines_replace', 'Read every page twice.\n', 'Read the pages.\n')
    expect(alice.sync().code).toBe(0)
    const p = await bobsConflict(bob)
    const n = p.evidence.conflicts as number
    expect(n).toBeGreaterThan(0)
    expect(p.reason).toBe(
      `“Read PDF files” was changed on both sides. ${ALICE}'s version (${REMOTE}) is live now; this proposal brings ${BOB}'s change back on top of it: ${n} place(s) changed on both sides are marked <<<<<<< / >>>>>>> for you to resolve before accepting.`
    )
    expect(ref(p)).toEqual({ messageCode: 'sync.reason_edited_conflicts', params: { title: 'Read PDF files', remote: REMOTE, local_author: BOB, remote_author: ALICE, n } })
    expect(englishText(ref(p))).toBe(p.reason)
    // the CLI's JSON carries the proposal with its code
    const listed = spawnSync(process.execPath, [BIN, 'proposals', '--library', bob.lib, '--json'], { env: bob.env, encoding: 'utf8', timeout: 120_000 })
    expect(listed.status, listed.stderr).toBe(0)
    const shown = (JSON.parse(listed.stdout) as { proposals: Proposal[] }).proposals.find((x) => x.id === p.id)!
    expect({ reason: shown.reason, ...ref(shown) }).toEqual({ reason: p.reason, ...ref(p) })
    // Chinese by code; the screen names the authors without their address
    expect(translateMessage(ref(p), p.reason, 'zh')).toBe(
      `“Read PDF files”被双方同时修改。${ALICE} 的版本（${REMOTE}）现已生效；此提议把 ${BOB} 的修改重新加在它之上：有 ${n} 处两边都改了，已用 <<<<<<< / >>>>>>> 标出，请处理后再接受。`
    )
    expect(proposalReason(tr('zh'), p, 'zh').text).toBe(`“Read PDF files”被双方同时修改。Alice 的版本（${REMOTE}）现已生效；此提议把 Bob 的修改重新加在它之上：有 ${n} 处两边都改了，已用 <<<<<<< / >>>>>>> 标出，请处理后再接受。`)
    expect(proposalReason(tr('en'), p, 'en').text).toBe(p.reason.replace(ALICE, 'Alice').replace(BOB, 'Bob'))
    // a plan an older build wrote (words only): from its evidence, as before
    const { messageCode: _c, params: _p, ...older } = p
    expect(proposalReason(tr('zh'), older, 'zh').text).toBe(
      tr('zh')('reason.sync', { title: 'Read PDF files', remote: REMOTE, localAuthor: 'Bob', remoteAuthor: 'Alice' }) + ' ' + tr('zh')('reason.bothChanged', { n })
    )
  }, 120_000)

  it('retired on one side, edited on the other: sync.reason_removed_remote and sync.reason_removed_local', async () => {
    // retired by Alice, edited by Bob
    let { alice, bob, pdf } = await startTeam()
    expect((await (await alice.tools()).delete_skill(pdf)).status).toBe('success')
    await (await bob.tools()).edit_skill(pdf, 'append', 'Bob: mind scanned pages.\n')
    expect(alice.sync().code).toBe(0)
    const remote = await bobsConflict(bob)
    expect(remote.reason).toBe(`“Read PDF files” was retired or removed by ${ALICE} (${REMOTE}) while ${BOB} changed it here. It is retired now; this proposal brings it back with ${BOB}'s change.`)
    expect(ref(remote)).toEqual({ messageCode: 'sync.reason_removed_remote', params: { title: 'Read PDF files', remote: REMOTE, local_author: BOB, remote_author: ALICE } })
    expect(englishText(ref(remote))).toBe(remote.reason)
    expect(translateMessage(ref(remote), remote.reason, 'zh')).toBe(`“Read PDF files”已被 ${ALICE} 停用或删除（${REMOTE}），而 ${BOB} 在本机修改了它。它现已停用；此提议带着 ${BOB} 的修改将其恢复。`)
    expect(proposalReason(tr('zh'), remote, 'zh').text).toBe(`“Read PDF files”已被 Alice 停用或删除（${REMOTE}），而 Bob 在本机修改了它。它现已停用；此提议带着 Bob 的修改将其恢复。`)
    team!.cleanup()

    // edited by Alice, retired by Bob
    ;({ alice, bob, pdf } = await startTeam())
    await (await alice.tools()).edit_skill(pdf, 'append', 'Alice: mind scanned pages.\n')
    expect(alice.sync().code).toBe(0)
    expect((await (await bob.tools()).delete_skill(pdf)).status).toBe('success')
    const local = await bobsConflict(bob)
    expect(local.reason).toBe(`“Read PDF files” was retired here by ${BOB} while ${ALICE} changed it (${REMOTE}). ${ALICE}'s version is live now; this proposal retires it again.`)
    expect(ref(local)).toEqual({ messageCode: 'sync.reason_removed_local', params: { title: 'Read PDF files', remote: REMOTE, local_author: BOB, remote_author: ALICE } })
    expect(englishText(ref(local))).toBe(local.reason)
    expect(translateMessage(ref(local), local.reason, 'zh')).toBe(`“Read PDF files”已由 ${BOB} 在本机停用，而 ${ALICE} 修改了它（${REMOTE}）。${ALICE} 的版本现已生效；此提议再次停用它。`)
    expect(proposalReason(tr('en'), local, 'en').text).toBe(`“Read PDF files” was retired here by Bob while Alice changed it (${REMOTE}). Alice's version is live now; this proposal retires it again.`)
  }, 180_000)
})
