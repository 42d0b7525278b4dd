import listPage from "./list-page.module.css";

/** What a list page shows instead of its table when there is nothing to list: a card with a heading and why. */
export function EmptyState({ testId, children }: { testId?: string; children: React.ReactNode }) {
  return (
    <div className={`card ${listPage.empty}`} data-testid={testId}>
      {children}
    </div>
  );
}
