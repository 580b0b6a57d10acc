import type { Operation } from "./types.js";

// Every GraphQL document the server sends lives here, as a named operation. A test validates each
// one against the platform's real schema and the sandbox schema (test/client/operations.test.ts).

function query<TData, TVariables extends Record<string, unknown>>(
  name: string,
  document: string,
): Operation<TData, TVariables> {
  return { name, document, type: "query", safeToRepeat: true };
}

function mutation<TData, TVariables extends Record<string, unknown>>(
  name: string,
  document: string,
  safeToRepeat: boolean,
): Operation<TData, TVariables> {
  return { name, document, type: "mutation", safeToRepeat };
}

export interface ViewerData {
  viewer: { id: string; name: string; email: string };
}

export const viewerQuery = query<ViewerData, Record<string, unknown>>(
  "Viewer",
  /* GraphQL */ `
    query Viewer {
      viewer {
        id
        name
        email
      }
    }
  `,
);

export interface TerminateHireData {
  terminateHire: { id: string; status: string; terminationDate: string | null };
}

export interface TerminateHireVariables extends Record<string, unknown> {
  input: { hire: string; reason: string; date: string; comments?: string };
}

export const terminateHireMutation = mutation<TerminateHireData, TerminateHireVariables>(
  "TerminateHire",
  /* GraphQL */ `
    mutation TerminateHire($input: TerminateHireInput!) {
      terminateHire(input: $input) {
        id
        status
        terminationDate
      }
    }
  `,
  // A termination cannot be undone and has no idempotency key: never send it twice.
  false,
);

/** All operations, for the validation test and anything that lists them. */
export const operations = {
  viewerQuery,
  terminateHireMutation,
} satisfies Record<string, Operation<unknown, Record<string, unknown>>>;
