/** One statement of a migration file, with the line it starts on (1-based) for error messages. */
export interface SqlStatement {
  sql: string;
  line: number;
}

/**
 * Splits a no-transaction migration into statements by one simple rule: a
 * line whose last non-blank character is `;` ends a statement (a `--` comment
 * line never does). A statement may span lines, but must not end a line with
 * `;` before its real end — so no function bodies or strings that do; those
 * belong in ordinary migrations. Chunks that are only comments and blank
 * lines are dropped; text after the last `;` is a final statement.
 *
 * No maintained splitter is among our dependencies, and PostgreSQL's simple
 * query protocol cannot help: it runs several statements of one string as one
 * implicit transaction, which is exactly what CONCURRENTLY refuses.
 */
export function splitSqlStatements(sql: string): SqlStatement[] {
  const statements: SqlStatement[] = [];
  let lines: string[] = [];
  let startLine = 1;
  const flush = () => {
    if (lines.some((line) => !isBlankOrComment(line))) {
      const leading = lines.findIndex((line) => !isBlankOrComment(line));
      statements.push({ sql: lines.slice(leading).join("\n").trim(), line: startLine + leading });
    }
    lines = [];
  };

  sql.split(/\r?\n/).forEach((line, index) => {
    if (lines.length === 0) startLine = index + 1;
    lines.push(line);
    if (!isBlankOrComment(line) && line.trimEnd().endsWith(";")) flush();
  });
  flush();
  return statements;
}

function isBlankOrComment(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === "" || trimmed.startsWith("--");
}
