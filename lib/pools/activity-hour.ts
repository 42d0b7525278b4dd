/** One hour of a pool's activity chart. */
export interface ActivityHour {
  /** the hour's start (a whole UTC hour) */
  start: Date;
  /** requests waiting in the pool's queue at the hour's end (for the current hour: now) */
  pending: number;
  /** decisions the pool made within the hour */
  approved: number;
  rejected: number;
}
