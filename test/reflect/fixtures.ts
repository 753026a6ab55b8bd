import type { TaskTrace } from '../../src/shared/types'

/** A trace shaped like the bundled calculator task (English, an error fixed by a retry). */
export function calculatorTrace(over: Partial<TaskTrace> = {}): TaskTrace {
  return {
    source: 'agiagent',
    user: 'alice',
    taskDir: 'output_20261101_093000',
    path: '/tmp/x/alice/output_20261101_093000',
    mtime: 1_000,
    status: 'completed',
    completed: true,
    requirements: [
      'Write a small Python command-line calculator (add, subtract, multiply, divide) with division-by-zero handling and unit tests.'
    ],
    toolCalls: [
      { agent: 'manager', name: 'query_skill', params: { query: 'python calculator with unit tests' } },
      { agent: 'manager', name: 'edit_file', params: { target_file: 'calculator.py', code_edit: 'def divide(a, b): ...' } },
      { agent: 'manager', name: 'edit_file', params: { target_file: 'test_calculator.py', code_edit: 'import pytest' } },
      { agent: 'manager', name: 'run_terminal_cmd', params: { command: 'python -m pytest -q' } },
      { agent: 'manager', name: 'run_terminal_cmd', params: { command: 'pip install pytest && python -m pytest -q' } },
      { agent: 'manager', name: 'edit_file', params: { target_file: 'README.md', code_edit: '# Calculator' } }
    ],
    errors: ['❌ Tool run_terminal_cmd error: No module named pytest'],
    interruptions: 0,
    agentMessages: [],
    files: ['calculator.py', 'test_calculator.py', 'README.md'],
    finalText: 'calculator, tests and README are in place',
    ...over
  }
}

/** A Chinese client-mode task with no tool calls. */
export function jokeTrace(over: Partial<TaskTrace> = {}): TaskTrace {
  return {
    source: 'agiagent',
    user: '',
    taskDir: 'output_thy_test_project33',
    path: '/tmp/x/output_thy_test_project33',
    mtime: 2_000,
    status: 'completed',
    completed: true,
    requirements: ['你好，写一个笑话，中文的'],
    toolCalls: [],
    errors: [],
    interruptions: 0,
    agentMessages: [],
    files: [],
    ...over
  }
}
