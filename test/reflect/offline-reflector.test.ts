import { describe, expect, it } from 'vitest'
import { reflectOffline, titleFromRequirement } from '../../src/main/reflect/offline-reflector'
import { calculatorTrace, jokeTrace } from './fixtures'

describe('reflectOffline', () => {
  it('writes a useful English reflection for the calculator task', () => {
    const d = reflectOffline(calculatorTrace())
    expect(d.language).toBe('en')
    expect(d.title).toBe('Write a small Python command-line calculator…')
    expect(d.title).not.toMatch(/LLM client/)
    expect(d.usageConditions).toMatch(/^Use when asked to: Write a small Python/)
    expect(d.body).toContain('## Approach')
    expect(d.body).toMatch(/2\. Write or edit `calculator.py`, `test_calculator.py` \(×2\)/)
    expect(d.body).toMatch(/3\. Run `python -m pytest -q`, `pip install pytest && python -m pytest -q` \(×2\)/)
    expect(d.body).toContain('## Pitfalls and fixes')
    expect(d.body).toMatch(/No module named pytest — fixed by running `run_terminal_cmd` again \(`pip install pytest && python -m pytest -q`\)/)
    expect(d.body).toContain('## Outputs')
    expect(d.body).toContain('**Outcome:** Completed.')
    expect(d.filesToBackup).toEqual(['calculator.py', 'test_calculator.py', 'README.md'])
    expect(d.author).toBe('offline')
  })

  it('is deterministic', () => {
    expect(reflectOffline(calculatorTrace())).toEqual(reflectOffline(calculatorTrace()))
  })

  it('writes Chinese headings for a Chinese task and catches the stated preference', () => {
    const d = reflectOffline(jokeTrace())
    expect(d.language).toBe('zh')
    expect(d.title).toBe('写一个笑话，中文的')
    expect(d.usageConditions).toBe('当需要完成类似任务时使用：你好，写一个笑话，中文的')
    expect(d.body).toContain('## 方法步骤')
    expect(d.body).toContain('未调用工具，直接作答。')
    expect(d.body).toContain('**结果：** 已完成。')
    expect(d.userPreferences).toContain('中文的')
  })

  it('reports interruption, follow-ups and an unresolved error', () => {
    const d = reflectOffline(
      calculatorTrace({
        status: 'interrupted',
        completed: false,
        interruptions: 2,
        requirements: ['Build a scraper', 'Use requests, not selenium', 'Build a scraper', 'Always add retries'],
        toolCalls: [{ agent: 'agent_001', name: 'web_search', params: { query: 'python scraping' } }],
        errors: ['ERROR FEEDBACK: timeout while fetching', 'ERROR FEEDBACK: timeout while fetching'],
        files: ['scraper.py', 'config.json', 'image.png'],
        agentMessages: [{ kind: 'sent', from: 'manager', to: 'agent_001', text: 'Agent manager sent message 1 to agent_001' }]
      })
    )
    expect(d.body).toContain('Interrupted by the user (2×)')
    expect(d.body).toContain('## Follow-up requests')
    expect(d.body).toContain('1. Use requests, not selenium')
    expect(d.body.match(/timeout while fetching/g)).toHaveLength(1)
    expect(d.body).toContain('not resolved before the task ended')
    expect(d.body).toContain('[agent_001] Search the web for `python scraping`')
    expect(d.body).toMatch(/Work was split between agents \(agent_001\)/)
    expect(d.userPreferences).toContain('Always add retries')
    expect(d.filesToBackup).toEqual(['scraper.py'])
  })

  it('uses session ok flags: a failed call followed by a good retry is a fixed pitfall', () => {
    const d = reflectOffline(
      calculatorTrace({
        errors: [],
        toolCalls: [
          { agent: 'claude', name: 'Bash', params: { command: 'npm test' }, ok: false },
          { agent: 'claude', name: 'Edit', params: { file_path: 'src/a.ts' } },
          { agent: 'claude', name: 'Bash', params: { command: 'npm test -- --run' }, ok: true }
        ]
      })
    )
    expect(d.body).toMatch(/`Bash` \(`npm test`\) failed — fixed by running `Bash` again \(`npm test -- --run`\)/)
  })

  it('has a title even without requirements', () => {
    const d = reflectOffline(calculatorTrace({ requirements: [] }))
    expect(d.title).toBe('Task output_20261101_093000')
    expect(d.usageConditions).toBe('General tasks')
  })
})

describe('titleFromRequirement', () => {
  it('drops greetings, politeness and trailing punctuation', () => {
    expect(titleFromRequirement('Hi, please write a haiku about rain.', 'en')).toBe('Write a haiku about rain')
    expect(titleFromRequirement('你好', 'zh')).toBe('你好')
    expect(titleFromRequirement('请帮我整理这份文档。', 'zh')).toBe('整理这份文档')
  })
})
