/**
 * The system-prompt snippet that tells an agent how to use the skill tools, in English and Chinese.
 * Modelled on the intent of AGIAgent's "## Skill Query Feature" block (query for complex tasks,
 * keep the skill_id, cite it in plan.md, rate after use); the wording is ours.
 */

export type SnippetLang = 'en' | 'zh'

const EN = `## Skill Library

You can reuse experience from earlier tasks through the skill tools.

- Before a complex or unfamiliar task, call \`query_skill\` with a short description of the task. It returns up to 3 skills, each with a \`skill_id\`, a title, usage conditions, a quality index and the full text. Skip it for trivial requests.
- Read the usage conditions before you follow a skill, and follow only what fits the current task.
- Keep the \`skill_id\` of every skill you use in your notes, and list them in plan.md under "Skills referenced" (e.g. \`- 1768615161: Python calculator with tests\`).
- When the task is done, call \`rate_skill\` once for each skill you used: 1.0 = it was decisive, 0.5 = somewhat useful, 0.0 = useless or misleading.
- If a skill is wrong or out of date, propose a fix with \`edit_skill\` (or retire it with \`delete_skill\`); the change may wait for a person to review it. Use \`copy_skill_files\` to keep the code files a skill refers to.
`

const ZH = `## 技能库

你可以通过技能工具复用以往任务中积累的经验。

- 遇到复杂或不熟悉的任务时，先用 \`query_skill\` 检索，参数是对任务的简短描述。它最多返回 3 个技能，每个都带有 \`skill_id\`、标题、使用条件、质量指数和完整内容。简单请求无需检索。
- 采用某个技能前先阅读其使用条件，只采纳与当前任务相符的部分。
- 记下你用到的每个技能的 \`skill_id\`，并在 plan.md 的“参考的技能”一节中列出（例如 \`- 1768615161：带单元测试的 Python 计算器\`）。
- 任务完成后，对每个用到的技能调用一次 \`rate_skill\`：1.0 表示起了决定性作用，0.5 表示有一定帮助，0.0 表示无用或有误导。
- 如果某个技能有错误或已过时，可用 \`edit_skill\` 提出修改（或用 \`delete_skill\` 将其退役），修改可能需要人工审核后才生效。用 \`copy_skill_files\` 备份技能所引用的代码文件。
`

/** The snippet in the given language. */
export function skillToolsPrompt(lang: SnippetLang = 'en'): string {
  return lang === 'zh' ? ZH : EN
}
