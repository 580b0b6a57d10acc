// The platform's reference files (../shared/reference) are read, never copied into the project.
// CI clones beside shared/; a clone elsewhere (say /tmp) of a local checkout finds them beside
// the checkout it was cloned from; WORKFORCE_SHARED_DIR names the folder outright.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

function candidates(): string[] {
  const found = [path.resolve(process.cwd(), "../shared")];
  if (process.env.WORKFORCE_SHARED_DIR) found.unshift(process.env.WORKFORCE_SHARED_DIR);
  try {
    const origin = execFileSync("git", ["remote", "get-url", "origin"], {
      encoding: "utf8",
    }).trim();
    if (path.isAbsolute(origin)) found.push(path.resolve(origin, "../shared"));
  } catch {
    // Not a clone of a local checkout: only the folders above.
  }
  return found;
}

/** The path of a reference file, e.g. `worksome.graphql`. */
export function referencePath(name: string): string {
  const tried = candidates().map((dir) => path.join(dir, "reference", name));
  const hit = tried.find((file) => existsSync(file));
  if (!hit) throw new Error(`Reference file ${name} not found; looked in: ${tried.join(", ")}`);
  return hit;
}

export const readReference = (name: string) => readFileSync(referencePath(name), "utf8");
