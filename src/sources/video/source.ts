import { upstreamSource } from '../manifest.js';
import { guards } from './guards.js';

export const videoSource = upstreamSource('video', {
  guards,
  check: () => ({ operation: 'get_video', input: { video_id: 'dQw4w9WgXcQ' }, checked: 'video dQw4w9WgXcQ' }),
});
