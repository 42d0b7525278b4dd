"use client";
import { useRouter } from "next/navigation";
import type { AnchorHTMLAttributes } from "react";

/**
 * An in-app link: a plain anchor that navigates client-side on a plain left
 * click (new tab, modifier keys and the like behave as for any anchor). Used
 * instead of next/link, whose prefetching machinery costs the queue page ~3 kB
 * of its 150 kB first-load budget; these pages are dynamic, so prefetching
 * would buy little.
 */
export function NavLink({ href, scroll = true, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; scroll?: boolean }) {
  const router = useRouter();
  return (
    <a
      href={href}
      {...rest}
      onClick={(event) => {
        rest.onClick?.(event);
        const plain = event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
        if (event.defaultPrevented || !plain || (rest.target && rest.target !== "_self")) return;
        event.preventDefault();
        router.push(href, { scroll });
      }}
    />
  );
}
