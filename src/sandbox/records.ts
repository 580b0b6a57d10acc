/**
 * The record a reference in the sandbox's data names. The seed makes every reference and the
 * mutations add both ends of theirs, so a missing record is a bug of the sandbox, said as such.
 */
export function referenced<K, V>(records: ReadonlyMap<K, V>, id: K | undefined): V {
  const record = id === undefined ? undefined : records.get(id);
  if (record === undefined) throw new Error(`The sandbox's data has no record ${String(id)}.`);
  return record;
}
