"use client";
import { lazy, Suspense, type ComponentProps } from "react";

const PoolSettingsButtons = lazy(() => import("./pool-settings-buttons").then((m) => ({ default: m.PoolSettingsButtons })));

/**
 * The place of a tenant-admin's pool controls in the heading (PoolSettingsButtons).
 * The heading renders it for those who may manage the pool only, and the
 * buttons load where it is rendered: the heading is in the first load of
 * every pool page, whose visitors are mostly pool admins and viewers. A
 * tenant-admin sees the buttons at once (the server renders them) and they
 * answer once their code is in, moments after the page.
 */
export function PoolSettings(props: ComponentProps<typeof PoolSettingsButtons>) {
  return (
    <Suspense fallback={null}>
      <PoolSettingsButtons {...props} />
    </Suspense>
  );
}
