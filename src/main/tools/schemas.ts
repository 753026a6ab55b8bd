/**
 * The five skill tools in the OpenAI function-calling format, so any agent can register them.
 * resources/skill-tools.json holds the same array (a test keeps the two equal).
 */

/** One tool definition as the OpenAI Chat Completions `tools` parameter takes it. */
export interface FunctionToolSchema {
  type: 'function'
  function: {
    name: string
    description: string
    parameters: {
      type: 'object'
      properties: Record<string, Record<string, unknown>>
      required: string[]
      additionalProperties: false
    }
  }
}

export const SKILL_TOOL_SCHEMAS: readonly FunctionToolSchema[] = [
  {
    type: 'function',
    function: {
      name: 'query_skill',
      description:
        'Find skills (lessons learned from earlier tasks) relevant to the current task. Returns the 3 most similar active skills with their id, title, usage conditions, quality index and full content. Use it before starting a complex task; keep the skill_id of any skill you rely on.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What you are looking for: a task description, a problem, or the kind of experience that would help.' }
        },
        required: ['query'],
        additionalProperties: false
      }
    }
  },
  {
    type: 'function',
    function: {
      name: 'rate_skill',
      description:
        'After finishing a task, rate how useful a skill from query_skill was. The quality index becomes 0.7 × old + 0.3 × rating.',
      parameters: {
        type: 'object',
        properties: {
          skill_id: { type: 'string', description: 'Id of the skill, as returned by query_skill.' },
          rating: { type: 'number', minimum: 0, maximum: 1, description: 'Usefulness from 0.0 (not useful) to 1.0 (very useful).' }
        },
        required: ['skill_id', 'rating'],
        additionalProperties: false
      }
    }
  },
  {
    type: 'function',
    function: {
      name: 'edit_skill',
      description:
        "Change a skill's Markdown body (its front matter is kept). Modes: 'full_replace' replaces the whole body, 'append' adds to the end, 'lines_replace' replaces old_code (which must occur exactly once) with code_edit.",
      parameters: {
        type: 'object',
        properties: {
          skill_id: { type: 'string', description: 'Id of the skill to edit.' },
          edit_mode: { type: 'string', enum: ['full_replace', 'append', 'lines_replace'], description: 'How to apply code_edit.' },
          code_edit: { type: 'string', description: 'The new text (the whole body, the text to append, or the replacement).' },
          old_code: { type: 'string', description: "lines_replace only: the exact existing text to replace." }
        },
        required: ['skill_id', 'edit_mode', 'code_edit'],
        additionalProperties: false
      }
    }
  },
  {
    type: 'function',
    function: {
      name: 'delete_skill',
      description: 'Retire a skill: it moves to the legacy/ folder, is no longer returned by query_skill, and is kept for reference.',
      parameters: {
        type: 'object',
        properties: {
          skill_id: { type: 'string', description: 'Id of the skill to retire.' }
        },
        required: ['skill_id'],
        additionalProperties: false
      }
    }
  },
  {
    type: 'function',
    function: {
      name: 'copy_skill_files',
      description:
        "Back up files a task produced into the skill's code folder (codes/task_…/) and record them in its related_code. Only code and document files (.py, .js, .ts, .java, .md, .txt …) are copied; configuration files (.json, .yaml …), images and links are skipped.",
      parameters: {
        type: 'object',
        properties: {
          skill_id: { type: 'string', description: 'Id of the skill the files belong to.' },
          file_paths: { type: 'array', items: { type: 'string' }, description: 'Paths relative to the task workspace.' }
        },
        required: ['skill_id', 'file_paths'],
        additionalProperties: false
      }
    }
  }
]

/** The five tools' names, as `tools/call` names them. */
export const SKILL_TOOL_NAMES: readonly string[] = SKILL_TOOL_SCHEMAS.map((s) => s.function.name)

/** One entry of AGIAgent's `prompts/memory_tools.json`: a dictionary keyed by tool name. */
export interface MemoryToolsEntry {
  description: string
  parameters: { type: 'object'; properties: Record<string, Record<string, unknown>>; required: string[] }
}

/**
 * The five tools in AGIAgent's `memory_tools.json` shape (seed 000: "all skill tools go into memory_tools.json,
 * beside the long-term memory tools"): `{ "<name>": { description, parameters } }`, merged into that file's
 * dictionary. resources/memory_tools.json holds the same object (a test keeps the two equal).
 */
export function memoryToolsDictionary(): Record<string, MemoryToolsEntry> {
  const out: Record<string, MemoryToolsEntry> = {}
  for (const { function: f } of SKILL_TOOL_SCHEMAS) {
    out[f.name] = { description: f.description, parameters: { type: 'object', properties: f.parameters.properties, required: [...f.parameters.required] } }
  }
  return out
}
