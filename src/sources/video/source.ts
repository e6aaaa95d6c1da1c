import { upstreamSource } from '../manifest.js';

export const videoSource = upstreamSource('video', {
  check: () => ({ operation: 'get_video', input: { video_id: 'dQw4w9WgXcQ' }, checked: 'video dQw4w9WgXcQ' }),
});
