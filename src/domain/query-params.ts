import { z } from 'zod';

/*
 * Field types of inputs that arrive as JSON (MCP, bodies) or as text in a query string. Sources'
 * schemas use them as well as the descriptors', so they sit below both.
 */

/** A boolean that arrives as JSON (MCP, bodies) or as `true`/`false` text in a query string. */
export const queryBool = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

/** An integer that arrives as a number or as digits in a query string. */
export const queryInt = z.preprocess((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v), z.int());
