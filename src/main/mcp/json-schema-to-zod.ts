/**
 * Turns the OpenAI-format JSON Schemas of the skill tools into zod object schemas for the MCP SDK,
 * so the MCP server validates and advertises exactly the parameters the CLI and the LLM loop use
 * (one source of truth: SKILL_TOOL_SCHEMAS). Covers the subset those schemas use; anything else
 * is refused loudly rather than silently accepting any input.
 */
import { z } from 'zod'

/** The part of JSON Schema the tool parameters use. */
export interface JsonSchemaLite {
  type?: string | string[]
  description?: string
  enum?: unknown[]
  items?: JsonSchemaLite
  properties?: Record<string, JsonSchemaLite>
  required?: string[]
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  minItems?: number
  maxItems?: number
  additionalProperties?: boolean | JsonSchemaLite
}

function describe<T extends z.ZodType>(schema: T, node: JsonSchemaLite): T {
  return node.description ? schema.describe(node.description) : schema
}

/** A zod schema for one JSON Schema node. */
export function zodFromJsonSchema(node: JsonSchemaLite): z.ZodType {
  if (node.enum) {
    if (!node.enum.every((v) => typeof v === 'string') || node.enum.length === 0) {
      throw new Error('only non-empty string enums are supported')
    }
    return describe(z.enum(node.enum as [string, ...string[]]), node)
  }
  const type = Array.isArray(node.type) ? node.type.filter((t) => t !== 'null') : node.type
  const nullable = Array.isArray(node.type) && node.type.includes('null')
  if (Array.isArray(type) && type.length !== 1) {
    throw new Error(`unsupported JSON Schema type union: ${JSON.stringify(node.type)}`)
  }
  const base = Array.isArray(type) ? type[0] : type
  let schema: z.ZodType
  switch (base) {
    case 'string': {
      let s = z.string()
      if (node.minLength !== undefined) s = s.min(node.minLength)
      if (node.maxLength !== undefined) s = s.max(node.maxLength)
      if (node.pattern !== undefined) s = s.regex(new RegExp(node.pattern, 'u'))
      schema = s
      break
    }
    case 'number':
    case 'integer': {
      let n = base === 'integer' ? z.number().int() : z.number()
      if (node.minimum !== undefined) n = n.gte(node.minimum)
      if (node.maximum !== undefined) n = n.lte(node.maximum)
      if (node.exclusiveMinimum !== undefined) n = n.gt(node.exclusiveMinimum)
      if (node.exclusiveMaximum !== undefined) n = n.lt(node.exclusiveMaximum)
      schema = n
      break
    }
    case 'boolean':
      schema = z.boolean()
      break
    case 'array': {
      let a = z.array(node.items ? zodFromJsonSchema(node.items) : z.unknown())
      if (node.minItems !== undefined) a = a.min(node.minItems)
      if (node.maxItems !== undefined) a = a.max(node.maxItems)
      schema = a
      break
    }
    case 'object':
      schema = zodObjectFromJsonSchema(node)
      break
    default:
      throw new Error(`unsupported JSON Schema type: ${JSON.stringify(node.type)}`)
  }
  return describe(nullable ? schema.nullable() : schema, node)
}

/** A zod object for an object JSON Schema: required keys stay required, the others become optional. */
export function zodObjectFromJsonSchema(node: JsonSchemaLite): z.ZodObject {
  const required = new Set(node.required ?? [])
  const shape: Record<string, z.ZodType> = {}
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const s = zodFromJsonSchema(child)
    shape[key] = required.has(key) ? s : s.optional()
  }
  for (const key of required) {
    if (!(key in shape)) {
      throw new Error(`required property '${key}' has no schema`)
    }
  }
  // Mirror the source schema: unknown keys are refused only where it says additionalProperties: false.
  const obj = z.object(shape)
  if (node.additionalProperties === false) {
    return obj.strict()
  }
  return node.additionalProperties === true ? obj.loose() : obj
}
