/**
 * The record a reference in the sandbox's data names. The seed makes every reference and the
 * mutations add both ends of theirs, so a missing record is a bug of the sandbox, said as such.
 */
export function referenced<K, V>(records: ReadonlyMap<K, V>, id: K | undefined): V {
  const record = id === undefined ? undefined : records.get(id);
  if (record === undefined) throw new Error(`The sandbox's data has no record ${String(id)}.`);
  return record;
}

/** The record of a list that a reference names by id; missing is a bug of the sandbox, as above. */
export function referencedIn<T extends { id: string }>(records: readonly T[], id: string): T {
  const record = records.find((r) => r.id === id);
  if (record === undefined) throw new Error(`The sandbox's data has no record ${id}.`);
  return record;
}

/**
 * The item at an index the code keeps within the list (a modulo, the last of a non-empty list).
 * Outside it is a bug of the sandbox, said as such.
 */
export function itemAt<T>(list: readonly T[], index: number): T {
  const item = list.at(index);
  if (item === undefined) throw new Error(`The sandbox's list has no item at ${index}.`);
  return item;
}
