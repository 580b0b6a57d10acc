// Speaks to the sandbox the way a client would: real HTTP with fetch.
import type { Sandbox } from "../../src/sandbox/index.js";

export const TODAY = "2026-11-22";

export interface GqlError {
  message: string;
  path?: Array<string | number>;
  locations?: Array<{ line: number; column: number }>;
  extensions: {
    code: string;
    serviceName?: string;
    validation?: Record<string, string[]>;
    guards?: string[];
  };
}
export interface GqlResponse<T = Record<string, unknown>> {
  status: number;
  data?: T | null;
  errors?: GqlError[];
  body: Record<string, unknown>;
}

export async function gql<T = Record<string, unknown>>(
  sandbox: Sandbox,
  query: string,
  options: {
    variables?: Record<string, unknown>;
    token?: "full" | "limited" | null | string;
    operationName?: string;
  } = {},
): Promise<GqlResponse<T>> {
  const token =
    options.token === undefined
      ? sandbox.tokens.full
      : options.token === "full" || options.token === "limited"
        ? sandbox.tokens[options.token]
        : options.token;
  const res = await fetch(sandbox.graphqlUrl, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      query,
      variables: options.variables,
      operationName: options.operationName,
    }),
  });
  const body = (await res.json()) as Record<string, unknown>;
  return {
    status: res.status,
    data: body.data as T | null | undefined,
    errors: body.errors as GqlError[] | undefined,
    body,
  };
}

/** The one error of a response, failing loudly when there are none or several. */
export function onlyError(response: GqlResponse<unknown>): GqlError {
  if (response.errors?.length !== 1) {
    throw new Error(`expected exactly one error, got ${JSON.stringify(response.body)}`);
  }
  return response.errors[0] as GqlError;
}
