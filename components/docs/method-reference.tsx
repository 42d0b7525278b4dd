import type { MethodDocView } from "@/lib/docs/method-doc";
import styles from "./docs.module.css";
import { InlineCode } from "./inline-code";

/** One method as the reference prints it: path, description, facts, then its input table. */
export function MethodReference({ method }: { method: MethodDocView }) {
  return (
    <section className={styles.method} aria-labelledby={`method-${method.method}`} data-testid={`method-${method.name}`}>
      <h2 id={`method-${method.method}`}>
        {method.method} — <code>{`POST ${method.path}`}</code>
      </h2>
      <p>
        <InlineCode text={method.summary} />
      </p>
      <p>
        <InlineCode text={[method.decided, method.description].filter(Boolean).join(" ")} />
      </p>
      {method.published ? (
        <p data-testid="published">
          <InlineCode text={method.published} />
        </p>
      ) : null}
      <p className={styles.facts}>
        Kind {method.kind} · Module <code>{method.module}</code> · Phase {method.phase} · Status {method.status}
      </p>
      <div className={styles.wrap}>
        <table className={styles.table} data-testid="input-table">
          <caption className="visually-hidden">Input of {method.name}</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Type</th>
              <th scope="col">Required</th>
              <th scope="col">Constraints</th>
            </tr>
          </thead>
          <tbody>
            {method.fields.map((field) => (
              <tr key={field.field} data-testid="input-row">
                <td>
                  <code>{field.field}</code>
                </td>
                <td>
                  <InlineCode text={field.type} />
                </td>
                <td>
                  <InlineCode text={field.required} />
                </td>
                <td>
                  <InlineCode text={field.constraints} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
