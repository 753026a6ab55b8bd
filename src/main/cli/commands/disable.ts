import { enableCommand } from './enable'

export const command = enableCommand('disable')
