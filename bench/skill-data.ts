/** Front matter of the generated AGIAgent skill number i (upstream keys and order), shared by the benches. */
export function generatedSkillData(i: number, title: string, usage: string, quality: number, fetchCount: number): Record<string, unknown> {
  return {
    skill_id: String(1_700_000_000 + i),
    title,
    usage_conditions: usage,
    quality_index: quality,
    fetch_count: fetchCount,
    related_code: '',
    task_directories: [`output_${20260101 + (i % 300)}_${i}`],
    created_at: '2026-01-17T09:59:21.686210',
    updated_at: '2026-01-17T09:59:21.686233',
    last_used_at: null,
    user_preferences: ''
  }
}
