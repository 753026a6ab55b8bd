/** The core's messages in the UI language, by code: the table and its translator live in src/shared (the CLI uses them too). */
export { ERRORS_ZH, translateLine, translateMessage, translateText } from '../../shared/error-codes-zh'
