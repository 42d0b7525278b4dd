// npm run simulate -- <scenario> [--pool gpu-a | --site fra1] [--url http://localhost:3000]
//                     [--token bcjt_…|bcse_…] [--state-dir .data/simulator] [--name <name>]
// npm run simulate -- retry <name> [--url …] [--token …] [--state-dir …]
// npm run simulate -- reimage <name> [--url …] [--token …] [--state-dir …]
// npm run simulate -- report <name> [--change driver|gpu-removed|gpu-replaced|disk-added] [--url …] [--state-dir …]
// npm run simulate -- renew <name> [--url …] [--state-dir …]
// npm run simulate -- rack [--count 200] [--pool gpu-b] [--concurrency 16] [--rack 07] [--once] [--site …] [--token …] [--url …]
// npm run simulate -- attest <name> [--tamper] [--every <seconds>] [--times <n>] [--url …] [--state-dir …]
//
// A node daemon's join, for demos and manual testing: makes a real key pair
// and CSR, calls POST /api/compute/nodes/join as a machine would, prints what
// happened, and keeps key + CSR under the state directory so `retry` sends
// the same CSR again (to see the same 202, an approval being consumed, …).
// Once admitted, `report` and `renew` speak as the node (its key signs a JWT).
// The TPM scenarios play a software TPM (SPEC F5): a join into a TPM pool is
// answered with a credential challenge, which it activates, then joins again
// with the recovered secret (F1); both steps are printed.
import { consoleOutput } from "./simulator/output";
import { runSimulator, simulatorFailure } from "./simulator/run-simulator";

runSimulator(process.argv.slice(2), consoleOutput).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const failure = simulatorFailure(error);
    console.error(failure.line);
    process.exit(failure.code);
  },
);
