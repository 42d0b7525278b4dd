import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** Whether `file` exists and may be executed. */
export function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether a command is found on $PATH (what a shell would run). */
export function commandOnPath(command: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => dir !== "" && isExecutable(join(dir, command)));
}
