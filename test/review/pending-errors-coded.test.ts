import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { listPendingProposals, PENDING_DIR } from '../../src/main/review/pending-proposals'
import { readReviewQueue } from '../../src/main/review/queue'
import { translateLine } from '../../src/renderer/i18n/messages-errors'
import { makeLibrary, SORTING } from '../curate/fixtures'

const ID = (n: number): string => `edit-1001-20261127T12000${n}Z-abcde${n}`

describe('pending proposal files that are not proposals', () => {
  it('are listed with their English reason as before and its code beside it, in Chinese by code', async () => {
    const root = fs.realpathSync(makeLibrary([{ id: '1001', title: 'Sorting arrays', body: SORTING }]))
    const dir = path.join(root, ...PENDING_DIR.split('/'))
    fs.mkdirSync(dir, { recursive: true })
    fs.writeFileSync(path.join(dir, `${ID(1)}.json`), '{"id": "cut off')
    fs.writeFileSync(path.join(dir, `${ID(2)}.json`), 'null')
    fs.writeFileSync(path.join(dir, `${ID(3)}.json`), '{"id": 7}')
    fs.writeFileSync(path.join(root, 'elsewhere.json'), '{}')
    const link = path.join(dir, `${ID(4)}.json`)
    fs.symlinkSync(path.join(root, 'elsewhere.json'), link)
    let jsonError = ''
    try {
      JSON.parse('{"id": "cut off')
    } catch (err) {
      jsonError = (err as Error).message
    }

    const { proposals, errors } = await listPendingProposals(root)
    expect(proposals).toEqual([])
    expect(errors.map((e) => [e.path.slice(PENDING_DIR.length + 1), e.reason, e.messageCode])).toEqual([
      [`${ID(1)}.json`, jsonError, 'review.pending_not_json'],
      [`${ID(2)}.json`, 'removed while reading', 'review.pending_removed'],
      [`${ID(3)}.json`, 'not a proposal', 'review.pending_not_proposal'],
      // the store's refusal of a link keeps the store's own code
      [`${ID(4)}.json`, `${link}: is a symbolic link (never read through); nothing was written outside the library`, 'file.escape']
    ])
    expect(errors[0]!.params).toEqual({ detail: jsonError })

    // the review queue passes them on as load errors, codes and all, and the app words them by code
    const { plan } = await readReviewQueue(root)
    expect(plan.errors).toEqual(errors)
    const zh = plan.errors.map((e) => translateLine(e, e.reason, 'zh'))
    expect(zh.slice(0, 3)).toEqual([`不是有效的 JSON：${jsonError}`, '读取时已被删除', '不是提议文件'])
    expect(zh[3]).toBe(`${link}：是符号链接（从不通过它读取）；没有在技能库之外写入任何内容`)
    expect(plan.errors.map((e) => translateLine(e, e.reason, 'en'))).toEqual(errors.map((e) => e.reason))
  })
})
