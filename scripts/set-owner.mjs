#!/usr/bin/env node
// The fields only whoever publishes can fill: the GitHub repository the package and the MCP
// registry entry point to, and the registry name derived from it (io.github.<owner>/<repo>, which
// the registry verifies against the GitHub account that publishes).
//
//   node scripts/set-owner.mjs <owner>[/<repo>]   fill them in package.json and server.json
//   node scripts/set-owner.mjs --check            exit 1 while they are unset (prepublishOnly)
//
// The repository name defaults to the package's name.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = process.env.WORKFORCE_PROJECT_DIR ?? process.cwd();
const files = { pkg: join(root, "package.json"), server: join(root, "server.json") };
const read = (file) => JSON.parse(readFileSync(file, "utf8"));
const write = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

// GitHub's rules: an owner is 1-39 letters, digits or single inner hyphens; a repository name is
// letters, digits, '.', '_' and '-'.
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;
const PLACEHOLDER = "OWNER";

function missing() {
  const pkg = read(files.pkg);
  const server = read(files.server);
  const gaps = [];
  if (server.name.includes(`.${PLACEHOLDER}/`)) gaps.push(`server.json name (${server.name})`);
  for (const field of ["mcpName", "repository", "homepage", "bugs"]) {
    if (pkg[field] === undefined) gaps.push(`package.json ${field}`);
  }
  return gaps;
}

const [arg] = process.argv.slice(2);
if (arg === "--check") {
  const gaps = missing();
  if (gaps.length > 0) {
    console.error(
      `Not ready to publish: ${gaps.join(", ")} not set. Run: node scripts/set-owner.mjs <github-owner>[/<repo>]`,
    );
    process.exit(1);
  }
  process.exit(0);
}

const [owner, repoGiven] = (arg ?? "").split("/");
const pkg = read(files.pkg);
const repo = repoGiven ?? pkg.name;
if (!owner || !OWNER.test(owner) || owner === PLACEHOLDER || !REPO.test(repo)) {
  console.error(
    "Usage: node scripts/set-owner.mjs <github-owner>[/<repo>]  (a GitHub account name)",
  );
  process.exit(2);
}
const web = `https://github.com/${owner}/${repo}`;
const name = `io.github.${owner}/${repo}`;

pkg.mcpName = name;
pkg.repository = { type: "git", url: `git+${web}.git` };
pkg.homepage = `${web}#readme`;
pkg.bugs = { url: `${web}/issues` };
write(files.pkg, pkg);

const server = read(files.server);
const {
  $schema,
  name: _old,
  title,
  description,
  version,
  websiteUrl: _w,
  repository: _r,
  ...rest
} = server;
// The registry's own field order: identity first, then where it lives, then how to run it.
write(files.server, {
  $schema,
  name,
  title,
  description,
  version,
  websiteUrl: `${web}#readme`,
  repository: { url: web, source: "github" },
  ...rest,
});
console.error(`Set ${name}: package.json (mcpName, repository, homepage, bugs) and server.json.`);
