import { Prisma } from "./generated/client";

/**
 * A unique violation, however it reached us: from a Prisma model call (P2002),
 * from Prisma's raw SQL (P2010, the adapter's error in meta), or from a
 * statement sent straight through the pg pool (SQLSTATE 23505).
 */
export function isUniqueViolation(error: unknown): boolean {
  if ((error as { code?: unknown } | null)?.code === "23505") return true;
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2002") return true;
  const cause = (error.meta?.driverAdapterError as { cause?: { kind?: string; originalCode?: string } } | undefined)?.cause;
  return error.code === "P2010" && (cause?.kind === "UniqueConstraintViolation" || cause?.originalCode === "23505");
}
