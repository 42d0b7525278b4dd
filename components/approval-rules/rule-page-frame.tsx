import type { ReactNode } from "react";
import { PoolHeading } from "@/components/pools/pool-heading";
import { PoolNav } from "@/components/pools/pool-nav";
import { NavLink } from "@/components/ui/nav-link";
import type { ConsolePool } from "@/lib/pools/console-pool";
import { rulesHref } from "./rule-paths";

/** A page of one rule (the editor of a new one, or of a stored one): the pool's heading with Rules current, the way back, its title. */
export function RulePageFrame({ pool, title, children }: { pool: ConsolePool; title: ReactNode; children: ReactNode }) {
  return (
    <>
      <PoolHeading pool={pool}>
        <PoolNav poolId={pool.id} current="rules" />
      </PoolHeading>
      <p>
        <NavLink href={rulesHref(pool.id)}>← All rules</NavLink>
      </p>
      <h2>{title}</h2>
      {children}
    </>
  );
}
