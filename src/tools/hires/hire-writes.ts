// Small pieces cancel_hire and terminate_hire share.
import { oneLine } from "../../client/platform-text.js";

/**
 * The answer when a change to a hire may have reached the platform and reading the hire back
 * failed too: it is not sent again, and the person is told to check the hire in a minute.
 */
export function hireOutcomeUnknown<F extends object>(
  change: "cancellation" | "termination",
  hireId: string,
  fields: F,
) {
  return {
    isError: true,
    structured: {
      status: "outcome-unknown" as const,
      ...fields,
      note: "The connection failed after the request was sent, and reading the hire back failed too.",
    },
    text: `The ${change} of hire ${oneLine(hireId)} may or may not have happened: the connection failed after it was sent, and the hire could not be read back. Do not send it again yet; check the hire with get_hire in a minute.`,
  };
}
