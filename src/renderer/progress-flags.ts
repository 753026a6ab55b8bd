/**
 * What a person has done in the app so far (browsed a task, rated a skill, hid the next-steps panel), kept in
 * local storage so the Overview's first-hour steps can tick off as they go.
 */
export type ProgressFlag = 'browsed' | 'rated' | 'nextStepsHidden'

const PREFIX = 'skillbench.done.'

export function readFlag(flag: ProgressFlag): boolean {
  try {
    return window.localStorage.getItem(PREFIX + flag) === '1'
  } catch {
    return false
  }
}

export function setFlag(flag: ProgressFlag): void {
  try {
    window.localStorage.setItem(PREFIX + flag, '1')
  } catch {
    // storage unavailable: the step just stays unticked
  }
}
