/** The memory tools' names alone (the stdio line guard needs them before anything heavier loads). */
export const MEMORY_TOOL_NAMES = ['add_lesson', 'record_preference'] as const

export type MemoryToolName = (typeof MEMORY_TOOL_NAMES)[number]
