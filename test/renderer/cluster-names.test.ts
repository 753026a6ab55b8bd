/**
 * Names of the library map's clusters (features/overview/cluster-names): the word that tells a cluster apart from
 * the whole library, never one name for two clusters when another word can tell them apart, Chinese titles too.
 */
import { describe, expect, it } from 'vitest'
import { clusterName, clusterNames, titleWords } from '../../src/renderer/features/overview/cluster-names'

/** A library where nearly every title says 'automation' (as the real one: 832 of 896). */
const APPS = ['airtable', 'asana', 'gmail', 'slack', 'trello', 'jira', 'stripe', 'hubspot', 'discord', 'figma', 'dropbox', 'linear']
const automations = APPS.map((a) => `${a}-automation`)

describe('the words of a title', () => {
  it('runs of 3+ letters or digits, lower-case, not filler words; "-", "_", spaces and punctuation separate them', () => {
    expect(titleWords('Zoho Books Automation')).toEqual(['zoho', 'books', 'automation'])
    expect(titleWords('zoho_books-automation')).toEqual(['zoho', 'books', 'automation'])
    expect(titleWords('Use the skill for PDFs v2')).toEqual(['pdfs'])
  })

  it('a CJK run (split at particles and at other scripts) with its two-character pieces, as the search tokenizer pairs them', () => {
    expect(titleWords('部署超时')).toEqual(['部署超时', '部署', '署超', '超时'])
    expect(titleWords('计算器：加减')).toEqual(['计算器', '计算', '算器', '加减'])
    expect(titleWords('排序的方法')).toEqual(['排序', '方法'])
    expect(titleWords('PDF处理')).toEqual(['pdf', '处理'])
    expect(titleWords('写')).toEqual([])
  })
})

describe('cluster names', () => {
  it('two clusters sharing a library-wide common word get names that tell them apart', () => {
    const zoho = ['zoho-books-automation', 'zoho-mail-automation', 'Zoho Desk Automation', 'zoho_invoice-automation']
    const chat = ['many-chat-automation', 'many_chat-automation', '-2chat-automation']
    const library = [...automations, ...zoho, ...chat]
    expect(clusterNames([zoho, chat], library)).toEqual(['zoho', 'chat'])
    // the old rule (the word most titles share) named both 'automation'
  })

  it('a word in every title is never chosen while another shared word exists', () => {
    expect(clusterName(['pdf-fill-automation', 'pdf-merge-automation', 'docx-automation'])).toBe('pdf')
    const cluster = ['cloudflare-automation', 'cloudflare-api-key-automation', 'browser-tool-automation']
    expect(clusterNames([cluster], [...automations, ...cluster])).toEqual(['cloudflare'])
  })

  it('a word more common in the cluster than in the library beats one the cluster shares more', () => {
    // 'notion' is in every title of the cluster but in many of the library; 'capture' in two, nowhere else
    const cluster = ['notion-capture-notes', 'notion-capture-pages', 'notion-meeting', 'notion-spec']
    const library = [...cluster, ...APPS.map((a) => `notion-${a}`)]
    expect(clusterNames([cluster], library)).toEqual(['capture'])
  })

  it('a name already taken: the next best word that differs, else two words, else a title', () => {
    const sync = ['zoho-invoice-sync', 'zoho-books-sync', 'zoho-desk-tickets']
    const zoho = ['zoho-mail', 'zoho-crm', 'zoho-people']
    const library = [...automations, ...zoho, ...sync, 'github-sync', 'drive-sync', 'calendar-sync']
    // 'zoho' is the later cluster's best word too: it gets 'sync'
    expect(clusterNames([zoho, sync], library)).toEqual(['zoho', 'sync'])
    // no other shared word: the taken word and its best other, as a title has them
    const notion = ['notion-meeting', 'notion-spec', 'notion-research']
    const more = ['notion-export', 'notion-pages', 'notion-sync']
    expect(clusterNames([notion, more], [...automations, ...notion, ...more])).toEqual(['notion', 'notion export'])
    // no word at all: the first title not taken
    expect(clusterNames([['One', 'Two'], ['One', 'Three']], ['One', 'Two', 'Three'])).toEqual(['One', 'Three'])
  })

  it('no shared word: the first title, cut to fit', () => {
    expect(clusterName(['Use the skill for PDFs', 'Use the skill for Word'])).toBe('Use the skill for PDFs')
    expect(clusterName(['a very long title that goes on', 'x'], (t) => t.slice(0, 6))).toBe('a very')
  })

  it('ties broken the same way whatever the order of the titles: more titles, the longer word, then code order', () => {
    const titles = ['cloudflare-automation', 'anchor-browser-automation', 'cloudflare-api-automation', 'browser-tool-automation']
    const library = [...automations, ...titles]
    expect(clusterNames([titles], library)).toEqual(['cloudflare'])
    expect(clusterNames([[...titles].reverse()], [...library].reverse())).toEqual(['cloudflare'])
  })

  it('Chinese titles: the shared word of their characters, a whole run before its pieces', () => {
    const deploy = ['部署超时处理', '部署回滚', '部署检查清单']
    const library = [...deploy, '代码审查', '日志分析', '检查依赖', '超时重试']
    expect(clusterNames([deploy], library)).toEqual(['部署'])
    expect(clusterName(['计算器：加减乘除', '计算器：除零保护'])).toBe('计算器')
    // a word in every title of the library loses to one of the cluster's own
    const calc = ['技能：计算器加法', '技能：计算器除法', '技能：单位换算']
    expect(clusterNames([calc], [...calc, '技能：日志分析', '技能：代码审查'])).toEqual(['计算器'])
    // grown by characters, not particles
    expect(clusterName(['排序的方法', '排序的技巧', '排序的原理'])).toBe('排序')
    expect(clusterName(['快速排序方法', '快速排序技巧', '冒泡排序'])).toBe('快速排序')
  })
})
