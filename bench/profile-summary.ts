// Reads a V8 .cpuprofile (what `node --cpu-prof` writes) into a short answer
// to "where does the time go": self time by where the code lives, and the
// heaviest functions.

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives, coarse enough to act on. */
export function categoryOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (functionName === "(idle)") return "idle";
  if (functionName === "(garbage collector)") return "GC";
  if (functionName === "(program)") return "V8 (program)";
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1]!;
  if (url.startsWith("node:")) return "Node core";
  if (/\.next[^/]*\/server\/chunks\//.test(url) || /\.next[^/]*\/server\/app\//.test(url)) return "app bundle (ours + bundled deps)";
  if (url === "") return "native / builtins";
  return "other";
}

export function summarizeProfile(profile: CpuProfile, options: { requests: number; top?: number }): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));
  const byCategory = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)!.callFrame;
    const category = categoryOf(frame);
    byCategory.set(category, (byCategory.get(category) ?? 0) + us);
    if (category === "idle") continue;
    busyUs += us;
    const where = frame.url
      ? `${frame.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/(\.next)/, "$1")}:${frame.lineNumber + 1}`
      : "";
    const key = `${frame.functionName || "(anonymous)"} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  const lines = [
    `busy CPU ${(busyUs / 1000).toFixed(0)} ms over ${options.requests} measured requests (profile includes start-up and warm-up)`,
  ];
  lines.push("self time by where the code lives (share of busy time):");
  for (const [category, us] of [...byCategory].filter(([c]) => c !== "idle").sort((a, b) => b[1] - a[1])) {
    lines.push(`  ${((100 * us) / busyUs).toFixed(1).padStart(5)}%  ${category}`);
  }
  lines.push(`heaviest functions (self time):`);
  for (const [name, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, options.top ?? 25)) {
    lines.push(`  ${((100 * us) / busyUs).toFixed(1).padStart(5)}%  ${name}`);
  }
  return lines.join("\n");
}
