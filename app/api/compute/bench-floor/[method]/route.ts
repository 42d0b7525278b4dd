import { serveBenchFloor } from "@/server/bench-floor/serve-floor";

// `npm run bench`'s Next.js floor (server/bench-floor/serve-floor.ts): a 404 in every deployment.
export const dynamic = "force-dynamic";

export async function POST(request: Request, { params }: { params: Promise<{ method: string }> }): Promise<Response> {
  return serveBenchFloor(request, (await params).method);
}
