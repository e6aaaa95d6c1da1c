import { upstreamSource } from '../manifest.js';
import { guards } from './guards.js';

export const appsSource = upstreamSource('apps', {
  guards,
  check: () => ({ operation: 'get_app', input: { app_id: '803453959' }, checked: 'app 803453959 (Slack, us storefront)' }),
});
