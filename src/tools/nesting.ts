/**
 * Whether `root` nests objects or lists more than `limit` levels deep, `root` being level 1.
 * Iterative, so a value thousands of levels deep cannot overflow the stack while being measured:
 * call it before anything recursive (JSON.stringify, a schema check) walks the value.
 */
export function deeperThan(root: object, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (depth > limit) return true;
    for (const child of Object.values(value as object)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
