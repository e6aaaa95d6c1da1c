/**
 * The x axis of a chart over time (pure): labels at whole, evenly spaced instants (a whole minute,
 * hour, day or week in UTC) across the whole range, as many as fit, never two with the same text.
 * Under a day apart they name the time, with the date under the first and wherever the day changes.
 */
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const STEPS = [
  MIN,
  2 * MIN,
  5 * MIN,
  10 * MIN,
  15 * MIN,
  30 * MIN,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  28 * DAY,
  56 * DAY,
  91 * DAY,
  182 * DAY,
];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export interface TimeTick {
  /** Epoch milliseconds. */
  at: number;
  /** The label: `HH:MM` under a day's step, else `Mon D`. */
  text: string;
  /** The date under a time label, where it changes (and at the first); null otherwise. */
  date: string | null;
}

const dayText = (t: number) => {
  const d = new Date(t);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
};
const timeText = (t: number) => new Date(t).toISOString().slice(11, 16);

function label(ticks: number[], withTime: boolean): TimeTick[] {
  let day = '';
  return ticks.map((at) => {
    if (!withTime) return { at, text: dayText(at), date: null };
    const d = dayText(at);
    const date = d === day ? null : d;
    day = d;
    return { at, text: timeText(at), date };
  });
}

/**
 * Labels for the range t0…t1 (epoch ms) drawn `width` px wide in `font` px type: the finest step
 * whose labels do not crowd each other and number at most `max`. A range shorter than one step
 * (checks within a minute) gets one label in its middle, with its date.
 */
export function timeTicks(t0: number, t1: number, o: { width: number; font: number; max: number }): TimeTick[] {
  const span = t1 - t0;
  // "Nov 28" is the widest line of every label; a gap of one character between two
  const room = 7 * o.font * 0.62;
  if (span > 0) {
    for (const step of STEPS) {
      const first = Math.ceil(t0 / step) * step;
      const ticks: number[] = [];
      for (let t = first; t <= t1; t += step) ticks.push(t);
      if (ticks.length > o.max || (step / span) * o.width < room) continue;
      if (ticks.length) return label(ticks, step < DAY);
      break;
    }
  }
  return label([Math.round(t0 + span / 2)], true);
}
