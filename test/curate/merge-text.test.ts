import { describe, expect, it } from 'vitest'
import type { Skill } from '../../src/shared/types'
import { listItems, mergeBodies, mergeMeta, pickPrimary, samePoint, splitSections, words } from '../../src/main/curate/merge-text'

function skill(over: Partial<Skill>): Skill {
  return {
    skill_id: '1', title: 't', usage_conditions: '', quality_index: 0.5, fetch_count: 0, related_code: '', task_directories: [],
    created_at: '2026-01-01T00:00:00', updated_at: '2026-01-01T00:00:00', last_used_at: null, user_preferences: '',
    format: 'agiagent', path: 'skill_1.md', body: '', hash: 'h', legacy: false, ...over
  }
}

describe('splitSections', () => {
  it('splits headings and blank-line blocks and keeps fenced code whole', () => {
    const s = splitSections('intro\n\n## A\n\npara one\nline two\n\n```\ncode\n\nmore code\n```\n\n## B\n- x\n- y\n')
    expect(s).toEqual([
      { heading: null, blocks: ['intro'] },
      { heading: '## A', blocks: ['para one\nline two', '```\ncode\n\nmore code\n```'] },
      { heading: '## B', blocks: ['- x\n- y'] }
    ])
  })
})

describe('mergeBodies', () => {
  it('keeps every distinct section once and drops repeated text', () => {
    const a = '# Sorting\n\nUse quicksort.\n\n## Pitfalls\n\nRecursion depth.\n'
    const b = '# Sorting\n\nUse   quicksort.\n\n## Pitfalls\n\nRecursion depth.\n\nStable sorts keep order.\n\n## Tests\n\nCheck empty arrays.\n'
    expect(mergeBodies([a, b])).toBe('# Sorting\n\nUse quicksort.\n\n## Pitfalls\n\nRecursion depth.\n\nStable sorts keep order.\n\n## Tests\n\nCheck empty arrays.\n')
  })

  it('drops a block contained in a kept one and returns the primary unchanged when nothing is new', () => {
    const a = 'Always run the tests before a release, then tag it.\n'
    expect(mergeBodies([a, 'always run the tests before a release\n'])).toBe(a)
    expect(mergeBodies([a, a, a])).toBe(a)
  })

  it('puts untitled text of other bodies before the first heading', () => {
    expect(mergeBodies(['## A\n\nx\n', 'lead text\n\n## A\n\ny\n'])).toBe('lead text\n\n## A\n\nx\n\ny\n')
  })

  it('handles empty input', () => {
    expect(mergeBodies([])).toBe('')
    expect(mergeBodies(['', ''])).toBe('')
  })
})

describe('mergeMeta and pickPrimary', () => {
  it('unions task dirs, sums fetch counts and weights quality by fetch_count + 1', () => {
    const a = skill({ skill_id: '1', quality_index: 0.9, fetch_count: 3, task_directories: ['output_a', 'output_b'] })
    const b = skill({ skill_id: '2', quality_index: 0.3, fetch_count: 0, task_directories: ['output_b', 'output_c'] })
    expect(mergeMeta(a, [b])).toEqual({ task_directories: ['output_a', 'output_b', 'output_c'], fetch_count: 3, quality_index: Math.round(((4 * 0.9 + 1 * 0.3) / 5) * 1000) / 1000 })
  })

  it('prefers higher quality, then more fetches, then the older skill', () => {
    const a = skill({ skill_id: '1', quality_index: 0.5, fetch_count: 9, path: 'a' })
    const b = skill({ skill_id: '2', quality_index: 0.6, fetch_count: 0, path: 'b' })
    const c = skill({ skill_id: '3', quality_index: 0.6, fetch_count: 0, created_at: '2025-01-01T00:00:00', path: 'c' })
    expect(pickPrimary([a, b]).skill_id).toBe('2')
    expect(pickPrimary([a, b, c]).skill_id).toBe('3')
  })
})

describe('a merged skill reads like one skill', () => {
  // two offline reflections of the same kind of task: each with its own H1, numbered steps and pitfalls
  const primary = [
    '# Python calculator with safe division',
    '',
    '**Task:** Build a calculator with add, subtract, multiply and divide.',
    '',
    '## Approach',
    '1. Write `calculator.py` with one function per operation; raise `ZeroDivisionError` with a clear message on division by zero.',
    '2. Write `test_calculator.py` with pytest, covering division by zero and each operation.',
    '3. Run `python -m pytest -q`; install pytest first if it is missing.',
    '',
    '## Pitfalls',
    '- pytest may not be installed in a fresh workspace: install it before running the tests.',
    ''
  ].join('\n')
  const other = [
    '# Calculator in Python with unit tests',
    '',
    '**Task:** Build a small command-line calculator.',
    '',
    '## Steps',
    '1. Query the skill library for earlier calculator work.',
    '2. Write `calculator.py` with one function per operation; raise `ZeroDivisionError` on division by zero with a clear message.',
    '3. Write `test_calculator.py` with pytest covering each operation and division by zero.',
    '4. Run `python -m pytest -q`; install pytest first when it is missing.',
    '5. Add a README with a usage example.',
    '',
    '## Pitfalls',
    '- A fresh workspace may not have pytest installed: install it before running the tests.',
    '- Compare floating-point results with `pytest.approx`.',
    ''
  ].join('\n')

  it('keeps one title and one numbered procedure, in order, without repeated steps', () => {
    const merged = mergeBodies([primary, other])
    expect(merged.match(/^# /gm)).toHaveLength(1)
    expect(merged).toContain('# Python calculator with safe division')
    expect(merged.match(/^\*\*Task:\*\*/gm)).toHaveLength(1)
    expect(merged).not.toContain('## Steps')
    const steps = merged.match(/^\d+\. .*$/gm)!
    expect(steps.map((l) => l.split(' ')[0])).toEqual(['1.', '2.', '3.', '4.', '5.'])
    expect(steps[0]).toContain('Query the skill library')
    expect(steps[4]).toContain('Add a README')
    expect(merged.match(/^## Pitfalls/gm)).toHaveLength(1)
    expect(merged.match(/pytest installed|pytest may not be installed/g)).toHaveLength(1)
    expect(merged).toContain('pytest.approx')
  })

  it('works the same for Chinese section names', () => {
    const zh = '# 网页抓取\n\n## 方法步骤\n1. 先读取 robots.txt。\n2. 每次请求间隔一秒。\n'
    const zh2 = '# 抓取网页\n\n## 步骤\n1. 先读取 robots.txt。\n2. 失败时指数退避重试。\n'
    const merged = mergeBodies([zh, zh2])
    expect(merged.match(/^# /gm)).toHaveLength(1)
    // a new step goes right after the step it followed in its own list
    expect(merged.match(/^\d+\. .*$/gm)).toEqual(['1. 先读取 robots.txt。', '2. 失败时指数退避重试。', '3. 每次请求间隔一秒。'])
  })

  it('replaces a kept sentence by its fuller version and keeps one line per label', () => {
    const a = '# Report\n\nCompleted.\n\n**Status:** green\n'
    const b = '# Report again\n\nCompleted: tests and README delivered.\n\n**Status:** still green\n\nA new remark.\n'
    const merged = mergeBodies([a, b])
    expect(merged).toContain('Completed: tests and README delivered.')
    expect(merged).not.toMatch(/^Completed\.$/m)
    expect(merged.match(/^\*\*Status:\*\*/gm)).toHaveLength(1)
    expect(merged).toContain('A new remark.')
    // a short point inside a much longer one is not the same point (the longer one says more)
    expect(samePoint('Run pytest.', 'Run pytest before committing the changes to the shared repository today.')).toBe(false)
  })

  it('tells the same point said twice from different points', () => {
    expect(samePoint('Write the tests with pytest, covering division by zero.', 'Write the tests with pytest covering division by zero')).toBe(true)
    expect(samePoint('Add a README with a usage example.', 'Run pytest before committing.')).toBe(false)
    expect(listItems('1. a\n2. b\n   more of b')).toEqual({ kind: 'ordered', items: ['a', 'b\n   more of b'] })
    expect(listItems('plain text')).toBeNull()
  })
})

describe('the words a "same point" check compares', () => {
  it('are what the regular expression finds in the lowercased text, in the same order, for random text in several scripts', () => {
    const WORDS = /[\p{Script=Han}]|[\p{L}\p{N}_]+/gu
    const pieces = ['a', 'B', 'cd', 'Run', 'pytest', '42', '_', "'", '-', ' ', '.', ',', '\n', '\t', 'é', 'É', 'İ', 'ΣΑΣ', '中', '文字', '—', '😀', 'ß', '٣', 'x1_y']
    let seed = 7
    const random = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n)
    for (let k = 0; k < 2000; k++) {
      let text = ''
      for (let n = random(40); n >= 0; n--) text += pieces[random(pieces.length)]
      expect([...words(text)], JSON.stringify(text)).toEqual([...new Set(text.toLowerCase().match(WORDS))])
    }
  })
})
