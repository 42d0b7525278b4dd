import { NavLink } from "@/components/ui/nav-link";
import styles from "./pool-heading.module.css";

export type PoolSection = "requests" | "nodes" | "events" | "rules";

const SECTIONS: { section: PoolSection; label: string; path: string }[] = [
  { section: "requests", label: "Join requests", path: "" },
  { section: "nodes", label: "Nodes", path: "/nodes" },
  { section: "events", label: "Event log", path: "/events" },
  { section: "rules", label: "Rules", path: "/rules" },
];

/** A pool's pages side by side; each is its own URL, so the URL stays the source of truth. */
export function PoolNav({ poolId, current }: { poolId: string; current: PoolSection }) {
  const base = `/pools/${encodeURIComponent(poolId)}`;
  return (
    <nav className={styles.tabs} aria-label="Pool sections">
      {SECTIONS.map(({ section, label, path }) => (
        <NavLink key={section} href={`${base}${path}`} className={styles.tab} aria-current={section === current ? "page" : undefined}>
          {label}
        </NavLink>
      ))}
    </nav>
  );
}
