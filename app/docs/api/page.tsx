import styles from "@/components/docs/docs.module.css";
import { InlineCode } from "@/components/docs/inline-code";
import { NavLink } from "@/components/ui/nav-link";
import { groupDocs, servedSentence } from "@/server/docs/method-docs";

export const metadata = { title: "API reference — Better Compute" };
// Rendered per request, not prerendered: a prerendered page carries no CSP nonce,
// so proxy.ts's policy would block Next.js's own scripts on it.
export const dynamic = "force-dynamic";

// The published methods by group, from the registry; each group has a page.
export default function ApiReferencePage() {
  return (
    <main className={styles.page}>
      <h1>API reference</h1>
      <p>
        Every method is <code>POST /api/compute/&lt;group&gt;/&lt;method&gt;</code> with a JSON object body. The same contract as a
        machine-readable document: <a href="/api/openapi.json">OpenAPI 3.1</a>, and to browse and try:{" "}
        {/* A plain link: the reference is a route handler's own HTML document (the Scalar bundle), not a page <Link> could render. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
        <a href="/docs/api/reference" data-testid="interactive-reference">
          the interactive reference
        </a>
        .
      </p>
      <ul data-testid="groups">
        {groupDocs().map((group) => (
          <li key={group.name}>
            <NavLink href={`/docs/api/${group.name}`}>
              <code>{group.name}</code>
            </NavLink>{" "}
            — <InlineCode text={group.description} /> <span className="muted">{servedSentence(group)}</span>
          </li>
        ))}
      </ul>
    </main>
  );
}
