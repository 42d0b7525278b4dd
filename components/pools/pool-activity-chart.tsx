import { scaleBand, scaleLinear } from "@visx/scale";
import { LinePath } from "@visx/shape";
import { barsPath } from "@/lib/charts/bars-path";
import type { ActivityHour } from "@/lib/pools/activity-hour";
import { PoolActivityTable } from "./pool-activity-table";
import styles from "./pool-activity-chart.module.css";

// A server component: visx draws the SVG here, so the chart adds no
// JavaScript to the page (the console's pages stay within their 150 kB);
// only the table behind "Show as table" is a client component.
const WIDTH = 240;
const HEIGHT = 56;
const TOP = 3; // room for the pending line's stroke at the peak

const hourLabel = (start: Date) => start.toISOString().slice(11, 16);
const sum = (hours: ActivityHour[], key: "approved" | "rejected") => hours.reduce((total, hour) => total + hour[key], 0);

/** The pool's last 24 hours: pending requests as a line, decisions as bars; the numbers as a table too (made when opened). */
export function PoolActivityChart({ poolName, hours }: { poolName: string; hours: ActivityHour[] }) {
  const pendingNow = hours[hours.length - 1]?.pending ?? 0;
  const approved = sum(hours, "approved");
  const rejected = sum(hours, "rejected");
  const peak = Math.max(0, ...hours.map((hour) => Math.max(hour.pending, hour.approved + hour.rejected)));
  const x = scaleBand({ domain: hours.map((_, index) => index), range: [0, WIDTH], padding: 0.25 });
  const y = scaleLinear({ domain: [0, Math.max(1, peak)], range: [HEIGHT, TOP] }); // a quiet pool's zeros lie on the baseline
  const barHeight = (n: number) => HEIGHT - y(n);
  /** hour `index`'s bar of `n` stacked on `below` */
  const bar = (index: number, below: number, n: number) => ({
    x: x(index) ?? 0,
    top: HEIGHT - barHeight(below + n),
    width: x.bandwidth(),
    height: barHeight(below + n) - barHeight(below),
  });
  const center = (index: number) => (x(index) ?? 0) + x.bandwidth() / 2;
  const summary = `${poolName}: ${pendingNow} pending now; ${approved} approved, ${rejected} rejected in the last 24 hours`;

  return (
    <div className={styles.activity} data-testid="pool-activity">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className={styles.chart} role="img" aria-label={summary} preserveAspectRatio="none">
        <line x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} className={styles.baseline} />
        <path d={barsPath(hours.map((hour, index) => bar(index, 0, hour.approved)))} className={styles.approved} />
        <path d={barsPath(hours.map((hour, index) => bar(index, hour.approved, hour.rejected)))} className={styles.rejected} />
        <LinePath data={hours} x={(_, index) => center(index)} y={(hour) => y(hour.pending)} className={styles.pending} />
      </svg>
      <p className={styles.legend}>
        <span className={styles.keyPending}>pending</span>
        <span className={styles.keyApproved}>approved</span>
        <span className={styles.keyRejected}>rejected</span>
        <span className="muted">last 24 h · max {peak}</span>
      </p>
      <PoolActivityTable
        poolName={poolName}
        rows={hours.map((hour) => ({
          hour: hourLabel(hour.start),
          pending: hour.pending,
          approved: hour.approved,
          rejected: hour.rejected,
        }))}
      />
    </div>
  );
}
