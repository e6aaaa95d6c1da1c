/**
 * The descriptor README.md shows under "Adding an operation", compiled with the project (it is not
 * in the registry); test/unit/docs/readme.test.ts checks that the README shows it as it stands here.
 */
import { z } from 'zod';
import { defineTool } from '../src/core/define-tool.js';
import { countryLower } from '../src/domain/codes.js';
import { fetchApp } from '../src/sources/apps/fetch.js';

export const getAppRating = defineTool({
  name: 'get_app_rating', // operation id, and the MCP tool name when exposed
  title: 'Mobile app rating',
  description: 'The rating of one app of the mobile app store in a storefront. Costs 1 credit; failures are free.',
  method: 'POST',
  path: '/v1/apps/rating',
  tags: ['apps'],
  input: z.strictObject({ app_id: z.string().regex(/^\d{1,12}$/), country: countryLower.default('us') }),
  output: z.object({ app_id: z.string(), title: z.string().nullable(), rating: z.number().nullable() }),
  credits: 1, // charged only on a non-empty success
  async handler(input, ctx) {
    const answer = await fetchApp(ctx.deps, input); // src/sources/apps: fetch + parse
    return { app_id: answer.app.app_id, title: answer.app.title, rating: answer.app.rating };
  },
});
