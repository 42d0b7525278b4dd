import { listNodesBody, reportBody, type BenchNodes } from "./node-scenario";
import { assertSameAnswer, post, type Endpoint } from "./http-floor/endpoint";

/**
 * Before the node phase measures: a floor must answer what the app answers,
 * byte for byte, for an unchanged report (the same node, so the same
 * snapshot) and for nodes/list's first page and a page from a cursor half
 * way down the pool. Right after the nodes are made, so neither side's
 * once-a-minute writes are due and both read the same rows.
 */
export async function checkSameNodeAnswers(appAt: Endpoint, floorAt: Endpoint, nodes: BenchNodes): Promise<void> {
  const same = async (what: string, method: "inventory/report" | "nodes/list", body: string, bearer?: string) => {
    const app = await post(appAt, method, body, bearer);
    if (app.status !== 200) throw new Error(`${floorAt.name} check, ${what}: the app answered ${app.status} ${app.text.slice(0, 200)}`);
    assertSameAnswer(`${floorAt.name}, ${what}`, app, await post(floorAt, method, body, bearer));
  };
  await same("inventory/report unchanged", "inventory/report", reportBody(nodes), nodes.tokens[0]);
  await same("nodes/list first page", "nodes/list", listNodesBody(nodes));
  const middle = [...nodes.ids].sort()[Math.floor(nodes.ids.length / 2)];
  await same("nodes/list from a cursor", "nodes/list", listNodesBody(nodes, middle));
}
