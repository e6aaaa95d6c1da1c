/**
 * Tokens as the models count them: the o200k_base encoding (GPT-4o and later) through js-tiktoken,
 * the JavaScript port of OpenAI's tokenizer. Characters ÷ 4 undercounts JSON by about 40 %.
 */
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';

let encoder: Tiktoken | undefined;

/** o200k tokens of a text, or of a value's compact JSON. */
export function countTokens(value: unknown): number {
  encoder ??= new Tiktoken(o200k);
  return encoder.encode(typeof value === 'string' ? value : JSON.stringify(value)).length;
}
