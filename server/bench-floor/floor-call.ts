import type pg from "pg";

/** One call to a floor method: its database, the Authorization header, the body as sent, and the call's clock. */
export interface FloorCall {
  db: pg.Pool;
  authorization: string | undefined;
  text: string;
  now: Date;
}
