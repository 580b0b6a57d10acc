export {
  classifyEntry,
  FIELD_RESTRICTED_MESSAGE,
  mostTelling,
  NOT_AUTHORIZED_MESSAGE,
  validationArguments,
} from "./classify.js";
export {
  createPlatformClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_RETRY_BASE_MS,
  DEFAULT_TIMEOUT_MS,
  introspectionOperation,
  runtimeQuery,
} from "./client.js";
export * from "./errors.js";
export {
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  DEFAULT_RATE_LIMIT_WINDOW_MS,
  governorFor,
  RateGovernor,
  resetGovernors,
  SharedRateGovernor,
  sharedGovernorFor,
} from "./governor.js";
export * from "./pagination.js";
export type * from "./types.js";
