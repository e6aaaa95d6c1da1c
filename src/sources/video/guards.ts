import type { SourceGuards } from '../manifest.js';

/** The walls in front of video and what every real reply of it states (manifest.ts SourceGuards). */
export const guards = {
  walls: [],
  drift: {
    channel_videos: { items: 'videos', states: ['video_id', 'title'] },
    search: { items: 'videos', states: ['video_id', 'title'] },
  },
} satisfies SourceGuards;
