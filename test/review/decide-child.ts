/**
 * A child for the decision races (issue 36): each stdin line is a JSON command — `{"op":"curate","root":…,"times":n}`
 * computes and saves the plan n times in a row as `skillbench curate` does, printing `{"op":"curated","i":…}` after
 * each; `{"op":"reject","root":…,"id":…,"by":…}` rejects as `skillbench reject` does and prints the outcome;
 * `{"op":"cycle","root":…,"id":…,"by":…,"times":n}` rejects and undoes the rejection n times in a row (as
 * `skillbench reject` and `skillbench unreject` do), printing `{"op":"cycle","ok":true}` after the last.
 */
import readline from 'node:readline'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import { rejectProposal } from '../../src/main/review/decisions'
import { unrejectProposal } from '../../src/main/review/unreject'

const NOW = new Date('2026-11-21T12:00:00Z')
const say = (v: unknown): void => void process.stdout.write(JSON.stringify(v) + '\n')

const rl = readline.createInterface({ input: process.stdin })
rl.on('line', (line) => {
  const cmd = JSON.parse(line) as { op: 'curate'; root: string; times: number } | { op: 'reject'; root: string; id: string; by: string } | { op: 'cycle'; root: string; id: string; by: string; times: number }
  void (async () => {
    try {
      if (cmd.op === 'curate') {
        for (let i = 0; i < cmd.times; i++) {
          await curateLibrary(await openForCuration(cmd.root), { now: NOW })
          say({ op: 'curated', i })
        }
        say({ op: 'curate', ok: true })
      } else if (cmd.op === 'cycle') {
        for (let i = 0; i < cmd.times; i++) {
          if ((await rejectProposal(cmd.root, cmd.id, cmd.by)).status !== 'rejected') throw new Error(`not rejected at ${i}`)
          if ((await unrejectProposal(cmd.root, cmd.id, cmd.by)).status !== 'pending') throw new Error(`not pending at ${i}`)
        }
        say({ op: 'cycle', ok: true })
      } else {
        const p = await rejectProposal(cmd.root, cmd.id, cmd.by)
        say({ op: 'reject', ok: p.status === 'rejected', id: cmd.id })
      }
    } catch (err) {
      say({ op: cmd.op, ok: false, error: (err as Error).message })
    }
  })()
})
