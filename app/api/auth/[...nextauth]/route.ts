import NextAuth from "next-auth";
import { nextAuthOptions } from "@/server/auth/next-auth-options";
import { log } from "@/server/log";

type Context = { params: Promise<{ nextauth: string[] }> };

// next-auth v4 on the App Router. The options are built per request (not at
// import) so that `next build` needs no secret and a missing one fails here,
// with a readable message, rather than at start.
async function handler(request: Request, context: Context): Promise<Response> {
  let options;
  try {
    options = await nextAuthOptions();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error("console sign-in is not configured", { error: message });
    return Response.json({ error: { code: "INTERNAL", message } }, { status: 500 });
  }
  return NextAuth(options)(request, context);
}

export { handler as GET, handler as POST };
