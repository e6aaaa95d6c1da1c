/**
 * A tool's answer typed from its descriptor (the z.output of its output schema, as its handler
 * returns it), for tests that read a REST reply or an MCP structuredContent instead of casting it to any.
 */
import type { Tool } from '../../src/core/define-tool.js';

/** What `T`'s handler answers: the z.output of its output schema. */
export type AnswerOf<T> = T extends Tool<never, infer O> ? O : never;

/** The REST reply's JSON body as `tool` answers it. */
export async function answerOf<T extends Tool<never, unknown>>(res: Response, _tool: T): Promise<AnswerOf<T>> {
  return (await res.json()) as AnswerOf<T>;
}
