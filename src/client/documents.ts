import { type DocumentNode, Kind, parse, print, type ValueNode, visit } from "graphql";

// A search declares every filter it can take ($workers, $contractStatus, ...), and the platform
// parses, validates and coerces each declared variable on every request, given or not. Sending
// the document without the variables a call leaves out asks the same question with less work on
// both sides (search_hires' document shrinks by almost half). Each variant is built once and
// reused.

interface Prunable {
  parsed: DocumentNode;
  /** Variables that may be left out: no default value, and used only as a whole argument or input field. */
  optional: readonly string[];
  /** The document without each set of absent variables seen so far, keyed by their names. */
  variants: Map<string, string>;
}

// Keyed by the operation object, not its text: query_platform builds a new one per call, and its
// entry goes when it does. A registered operation keeps its few variants for the process.
const analysed = new WeakMap<object, Prunable | null>();
// More shapes than any registered operation has; past it, variants are built but not kept.
const MAX_VARIANTS = 64;

/**
 * `operation.document` without the variables `variables` leaves out (undefined), together with
 * the arguments and input fields they fill. A variable given as null stays: null asks for
 * something different than leaving the argument out. Unchanged when nothing can be left out.
 */
export function documentFor(
  operation: { document: string },
  variables: Record<string, unknown>,
): string {
  let prunable = analysed.get(operation);
  if (prunable === undefined) {
    prunable = analyse(operation.document);
    analysed.set(operation, prunable);
  }
  if (!prunable) return operation.document;
  const absent = prunable.optional.filter((name) => variables[name] === undefined);
  if (absent.length === 0) return operation.document;
  const key = absent.join(",");
  let variant = prunable.variants.get(key);
  if (variant === undefined) {
    variant = prune(prunable.parsed, new Set(absent));
    if (prunable.variants.size < MAX_VARIANTS) prunable.variants.set(key, variant);
  }
  return variant;
}

function analyse(document: string): Prunable | null {
  let parsed: DocumentNode;
  try {
    parsed = parse(document, { noLocation: true });
  } catch {
    return null;
  }
  const declared = new Set<string>();
  const unsafe = new Set<string>();
  visit(parsed, {
    VariableDefinition(node) {
      const name = node.variable.name.value;
      // A default applies only through the variable: leaving it out would change the question.
      if (node.defaultValue || node.type.kind === Kind.NON_NULL_TYPE) unsafe.add(name);
      else declared.add(name);
      return false;
    },
    // Inside a list (or any value but a whole argument or input field) an absent variable is not
    // the same as an absent value.
    ListValue(node) {
      for (const name of variablesIn(node)) unsafe.add(name);
      return false;
    },
  });
  const optional = [...declared].filter((name) => !unsafe.has(name));
  return optional.length > 0 ? { parsed, optional, variants: new Map() } : null;
}

function variablesIn(node: ValueNode): string[] {
  const names: string[] = [];
  visit(node, {
    Variable(variable) {
      names.push(variable.name.value);
    },
  });
  return names;
}

function prune(parsed: DocumentNode, absent: ReadonlySet<string>): string {
  const leftOut = (value: ValueNode) =>
    value.kind === Kind.VARIABLE && absent.has(value.name.value);
  return print(
    visit(parsed, {
      VariableDefinition: (node) => (absent.has(node.variable.name.value) ? null : undefined),
      Argument: (node) => (leftOut(node.value) ? null : undefined),
      ObjectField: (node) => (leftOut(node.value) ? null : undefined),
    }),
  );
}
