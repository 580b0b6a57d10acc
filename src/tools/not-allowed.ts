// Turning the platform's refusal of a write into a permission refusal, for every toolset that writes.
import { AuthorizationError } from "../client/errors.js";
import { NotAllowedError } from "./define-tool.js";

/**
 * A write the platform refuses for this account is a permission, not a bad argument: said as
 * "your account is not allowed to <action>; ask someone with <rights> rights".
 */
export function refusedAsNotAllowed<T>(
  send: () => Promise<T>,
  action: string,
  rights: string,
): () => Promise<T> {
  return async () => {
    try {
      return await send();
    } catch (error) {
      if (error instanceof AuthorizationError) throw new NotAllowedError(action, rights);
      throw error;
    }
  };
}
