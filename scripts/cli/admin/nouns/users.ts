import { UsageError } from "../../shared/run-cli";
import { createUser } from "@/server/admin/create-user";
import { disableUser } from "@/server/admin/disable-user";
import { listUsers } from "@/server/admin/list-users";
import { roleName } from "@/server/auth/roles";
import { nounUsage, required, text, type AdminNoun } from "./admin-command";
import { at, printOutcome, printTable } from "./output";

/** The password from standard input: the first line, as `echo "$PW" | …` or a file sends it. */
async function passwordFromStdin(readStdin: () => Promise<string>): Promise<string> {
  const input = await readStdin();
  const password = input.replace(/\r?\n$/, "");
  if (password === "" || password.includes("\n")) {
    throw new UsageError("--password-stdin: send the password as one line on standard input", nounUsage(users));
  }
  return password;
}

export const users: AdminNoun = {
  name: "users",
  summary: "Console users. With --password-stdin a local account (only a scrypt hash is kept); without, single sign-on only.",
  verbs: {
    create: {
      synopsis: "--email <email> [--name <name>] [--password-stdin]",
      options: { email: { type: "string" }, name: { type: "string" }, "password-stdin": { type: "boolean" } },
      async run(context, values) {
        const email = required(values, "email", users);
        const password = values["password-stdin"] ? await passwordFromStdin(context.readStdin) : undefined;
        const result = await createUser({ ...context, input: { email, name: text(values, "name") ?? email.split("@")[0], password } });
        const how = password === undefined ? "single sign-on only" : "password";
        printOutcome(context, result.outcome, `user ${result.user.email} (${how})`, { user: result.user });
      },
    },
    list: {
      synopsis: "",
      options: {},
      async run(context) {
        const rows = await listUsers(context.db);
        printTable(
          context,
          rows,
          [
            ["EMAIL", (row) => row.email],
            ["NAME", (row) => row.name],
            ["SIGN-IN", (row) => row.signIn],
            [
              "GRANTS",
              (row) => row.grants.map((grant) => `${roleName(grant.role)}@${grant.tenantId}/${grant.poolId ?? "*"}`).join(" ") || "none",
            ],
            ["DISABLED", (row) => at(row.disabledAt)],
          ],
          "no users",
        );
      },
    },
    disable: {
      synopsis: "--email <email>",
      options: { email: { type: "string" } },
      async run(context, values) {
        const result = await disableUser({ ...context, input: { email: required(values, "email", users) } });
        printOutcome(context, result.outcome, `user ${result.user.email} disabled`, { user: result.user });
      },
    },
  },
};
