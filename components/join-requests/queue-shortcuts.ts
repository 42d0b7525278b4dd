"use client";
import { useEffect, useRef, type RefObject } from "react";
import type { JoinRequestJson } from "@/lib/join-requests/join-request-json";
import type { RowAction } from "./row-action";

const ROW = "tr[data-request-id]";

/**
 * Works the queue without a mouse (GitHub's and Gmail's j/k): the focused
 * row is the one acted on. Keys never fire while typing in a field, with a
 * modifier held, or while a dialog is open. When the focused row leaves the
 * view (decided, so out of the filter) the row that takes its place gets the
 * focus, unless the focus has gone somewhere else meanwhile.
 */
export function useQueueShortcuts(props: {
  table: RefObject<HTMLTableElement | null>;
  requests: JoinRequestJson[];
  /** whether `a` may open Approve for this request (not archived, its TPM requirement met: SPEC G2) */
  canApprove: (request: JoinRequestJson) => boolean;
  canDecide: boolean;
  onAction: (action: RowAction) => void;
  onToggle: (requestId: string) => void;
  onHelp: () => void;
}) {
  // The key handler is registered once and reads the latest props from here.
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  const lastFocused = useRef<{ id: string; index: number } | null>(null);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target) || document.querySelector('[role="dialog"]')) return;
      const { table, requests, canApprove, canDecide, onAction, onToggle, onHelp } = latest.current;
      const rows = [...(table.current?.querySelectorAll<HTMLTableRowElement>(ROW) ?? [])];
      const row = (document.activeElement as HTMLElement | null)?.closest<HTMLTableRowElement>(ROW) ?? null;
      const request = row ? requests.find((candidate) => candidate.id === row.dataset.requestId) : undefined;
      const moveTo = (index: number) => rows[Math.max(0, Math.min(rows.length - 1, index))]?.focus();
      const handled = (() => {
        switch (event.key) {
          case "?":
            return (onHelp(), true);
          case "j":
            return (moveTo(row ? rows.indexOf(row) + 1 : 0), true);
          case "k":
            return (moveTo(row ? rows.indexOf(row) - 1 : 0), true);
          case "ArrowDown":
            return row ? (moveTo(rows.indexOf(row) + 1), true) : false;
          case "ArrowUp":
            return row ? (moveTo(rows.indexOf(row) - 1), true) : false;
        }
        // The keys below act on the focused row's request.
        if (!request || event.target !== row) return false;
        if (event.key === "Enter" || event.key === "o") return (row!.querySelector<HTMLAnchorElement>("a[href]")?.click(), true);
        if (!canDecide) return false;
        if (event.key === "a" && request.state === "pending" && canApprove(request)) return (onAction({ kind: "approve", request }), true);
        if (event.key === "r" && (request.state === "pending" || request.state === "approved"))
          return (onAction({ kind: "reject", request }), true);
        if (event.key === "x" && request.state === "pending") return (onToggle(request.id), true);
        return false;
      })();
      if (handled) event.preventDefault();
    };
    const onFocusIn = (event: FocusEvent) => {
      const row = (event.target as HTMLElement).closest<HTMLTableRowElement>(ROW);
      if (row && props.table.current?.contains(row)) {
        lastFocused.current = { id: row.dataset.requestId!, index: [...props.table.current.querySelectorAll(ROW)].indexOf(row) };
      }
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("focusin", onFocusIn);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("focusin", onFocusIn);
    };
  }, [props.table]);

  // The focused row left the view: its successor takes the focus, if nothing else has it.
  useEffect(() => {
    const last = lastFocused.current;
    if (!last || props.requests.some((request) => request.id === last.id)) return;
    if (document.activeElement !== document.body) return;
    const rows = props.table.current?.querySelectorAll<HTMLTableRowElement>(ROW) ?? [];
    rows[Math.min(last.index, rows.length - 1)]?.focus();
  }, [props.requests, props.table]);
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}
