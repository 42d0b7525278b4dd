import { notFound } from "next/navigation";
import styles from "@/components/docs/docs.module.css";
import { InlineCode } from "@/components/docs/inline-code";
import { MethodReference } from "@/components/docs/method-reference";
import { NavLink } from "@/components/ui/nav-link";
import { groupDocs, servedSentence } from "@/server/docs/method-docs";

type Props = { params: Promise<{ group: string }> };

export async function generateMetadata({ params }: Props) {
  return { title: `${(await params).group} — API reference — Better Compute` };
}

// A group's reference page, made from the method registry (readable without signing in).
export default async function GroupReferencePage({ params }: Props) {
  const { group: name } = await params;
  const group = groupDocs().find((candidate) => candidate.name === name);
  if (!group) notFound();
  const modules = [...new Set(group.methods.map((method) => method.module))];
  return (
    <main className={styles.page}>
      <nav aria-label="Breadcrumb">
        <NavLink href="/docs/api">API reference</NavLink>
      </nav>
      <h1>
        <code>{group.name}</code>
      </h1>
      <p>
        <InlineCode text={group.description} />
      </p>
      <p data-testid="served">{servedSentence(group)}</p>
      <div className={styles.wrap}>
        <table className={styles.table} data-testid="method-table">
          <caption className="visually-hidden">Methods of {group.name}</caption>
          <thead>
            <tr>
              <th scope="col">Method</th>
              <th scope="col">Kind</th>
              <th scope="col">Authorization</th>
              <th scope="col">Phase</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {group.methods.map((method) => (
              <tr key={method.name} data-testid="method-row">
                <td>
                  <a href={`#method-${method.method}`}>{method.method}</a>
                </td>
                <td>{method.kind}</td>
                <td>
                  <InlineCode text={method.authorization} />
                </td>
                <td>{method.phase}</td>
                <td>{method.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        Every method: Module{" "}
        {modules.map((module) => (
          <code key={module}>{module}</code>
        ))}
        .
      </p>
      {group.methods.map((method) => (
        <MethodReference key={method.name} method={method} />
      ))}
    </main>
  );
}
