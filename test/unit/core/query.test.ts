import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { coerceQuery } from '../../../src/core/query.js';
import { queryBool, queryInt } from '../../../src/domain/query-params.js';

describe('query strings carry every type of a route’s schema', () => {
  const schema = z.strictObject({
    flag: z.boolean().optional(),
    maybe: z.boolean().nullable().optional(),
    count: z.int().optional(),
    price: z.number().optional(),
    ids: z.array(z.int()).optional(),
    names: z.array(z.string()).optional(),
    text: z.string().optional(),
    either: z.union([z.string(), z.array(z.string())]).optional(),
    pre: queryInt.optional(),
    preBool: queryBool.optional(),
  });

  it('converts booleans, numbers and comma lists (or repeated keys), and leaves text fields as sent', () => {
    const raw = {
      flag: 'true',
      maybe: 'false',
      count: '12',
      price: '9.5',
      ids: '1,2,3',
      names: ['a', 'b'],
      text: '42',
      either: 'x,y',
      pre: '7',
      preBool: 'false',
      unknown: 'true',
    };
    const out = coerceQuery(schema, raw);
    expect(out).toEqual({
      flag: true,
      maybe: false,
      count: 12,
      price: 9.5,
      ids: [1, 2, 3],
      names: ['a', 'b'],
      text: '42',
      either: 'x,y',
      pre: 7,
      preBool: false,
      unknown: 'true',
    });
    const { unknown: _unknown, ...known } = out;
    expect(schema.parse(known)).toMatchObject({ flag: true, ids: [1, 2, 3] });
  });

  it('leaves what it cannot convert for validation to report', () => {
    const out = coerceQuery(schema, { flag: 'yes', count: '1e3', ids: '1,x' });
    expect(out).toEqual({ flag: 'yes', count: '1e3', ids: [1, 'x'] });
    const issues = schema.safeParse(out).error!.issues.map((i) => i.path.join('.'));
    expect(issues.sort()).toEqual(['count', 'flag', 'ids.1']);
  });
});
