/** A chat message sent to an OpenAI-compatible model. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool'
  content: string
  tool_call_id?: string
}

/** A function-calling tool offered to the model (OpenAI format). */
export interface ToolSpec {
  type: 'function'
  function: { name: string; description: string; parameters: Record<string, unknown> }
}

/** A tool call the model answered with; `arguments` is the raw JSON text, parsed by the caller. */
export interface LlmToolCall {
  id: string
  name: string
  arguments: string
}

export interface ChatRequest {
  messages: ChatMessage[]
  tools?: ToolSpec[]
  temperature?: number
  maxTokens?: number
  signal?: AbortSignal
}

export interface ChatReply {
  text: string
  toolCalls: LlmToolCall[]
  model: string
}

/** The only way the Node side talks to a model. Implementations retry 429/5xx/timeouts and never log the key. */
export interface LlmClient {
  readonly model: string
  chat(req: ChatRequest): Promise<ChatReply>
}

/** Connection settings for an OpenAI-compatible endpoint. */
export interface LlmConfig {
  baseUrl: string
  model: string
  apiKey?: string
  temperature?: number
  timeoutMs?: number
  maxRetries?: number
  /** First backoff delay before a retry (ms, default 500); tests make it small. */
  retryBaseMs?: number
  /** Longest single backoff delay (ms, default 8000). */
  retryMaxMs?: number
}
