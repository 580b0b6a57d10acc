export { validationArguments } from "./classify.js";
export {
  createPlatformClient,
  introspectionOperation,
} from "./client.js";
export * from "./errors.js";
export {
  governorFor,
  RateGovernor,
  resetGovernors,
  SharedRateGovernor,
} from "./governor.js";
export * from "./pagination.js";
export type * from "./types.js";
