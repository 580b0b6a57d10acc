// Small pieces post_job and manage_candidate share.
import { isPlatformError, ValidationError } from "../../client/errors.js";
import { oneLine, quoted } from "../../client/platform-text.js";
import { NotAllowedError } from "../define-tool.js";

/** Job statuses after which nothing on the job can change. */
export const CLOSED_JOB_STATUSES: ReadonlySet<string> = new Set(["COMPLETED", "REMOVED"]);

/** Why a platform request failed, in one line (the platform's own words quoted). */
export function failureReason(error: unknown): string {
  if (error instanceof ValidationError) {
    const messages = Object.values(error.validation).flat();
    if (messages.length > 0) return `the platform rejected it: ${quoted(messages.join(" "), 500)}`;
  }
  if (error instanceof NotAllowedError) return error.message;
  if (isPlatformError(error)) return oneLine(error.message, 300);
  throw error;
}
