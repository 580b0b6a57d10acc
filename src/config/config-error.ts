/** A configuration that cannot be used; the message has one line per problem. */
export class ConfigError extends Error {
  override name = "ConfigError";
}
