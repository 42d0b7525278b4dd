/** Where a published method is served: POST /api/compute/<group>/<method>. Also a node JWT's `aud` (SPEC D2). */
export function methodPath(name: string): string {
  return `/api/compute/${name}`;
}
