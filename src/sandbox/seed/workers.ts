// The sample workers: their names (the first ones are the fixed hires' workers) and how one is made.
import type { SeedRandom } from "./random.js";
import { pad } from "./random.js";
import type { SandboxData, WorkerRecord } from "./types.js";

const WORKER_NAMES: Array<[string, string]> = [
  ["Ana", "Costa"],
  ["Liam", "O'Connor"],
  ["Priya", "Raman"],
  ["Jonas", "Petersen"],
  ["Amara", "Okafor"],
  ["Mateo", "Hernández"],
  ["Sofie", "Kjær"],
  ["Hiroshi", "Tanaka"],
  ["Fatima", "Al-Sayed"],
  ["Lukas", "Schneider"],
  ["Chloé", "Dubois"],
  ["Oluwaseun", "Adeyemi"],
  ["Ingrid", "Solberg"],
  ["Wei", "Zhang"],
  ["Aisha", "Khan"],
  ["Tomasz", "Nowak"],
  ["Elena", "Popescu"],
  ["Diego", "Ramírez"],
  ["Freja", "Lindgren"],
  ["Kwame", "Mensah"],
  ["Nadia", "Haddad"],
  ["Rasmus", "Holm"],
  ["Mei", "Lin"],
  ["Carlos", "Silva"],
  ["Leila", "Farahani"],
  ["Jakob", "Berger"],
  ["Zanele", "Dlamini"],
  ["Aarav", "Sharma"],
  ["Maren", "Eriksen"],
  ["Yusuf", "Demir"],
  ["Grace", "Mwangi"],
  ["Henrik", "Lund"],
  ["Sakura", "Ito"],
  ["Javier", "Moreno"],
  ["Olga", "Ivanova"],
  ["Emeka", "Nwosu"],
  ["Camille", "Laurent"],
  ["Anders", "Nygaard"],
  ["Layla", "Hassan"],
  ["Marek", "Kowalski"],
  ["Isabel", "Ferreira"],
  ["Tariq", "Mahmoud"],
  ["Astrid", "Nielsen"],
  ["Kenji", "Watanabe"],
  ["Beatriz", "Santos"],
  ["Samuel", "Boateng"],
  ["Linnea", "Johansson"],
  ["Ravi", "Patel"],
  ["Hanna", "Virtanen"],
  ["Omar", "Benali"],
  ["Julia", "Wagner"],
  ["Thabo", "Nkosi"],
];

/** The next unused name (the list's, then numbered ones). */
export function nameQueue(data: SandboxData): () => [string, string] {
  const names = [...WORKER_NAMES];
  return () => names.shift() ?? ["Alex", `Worker${data.counters.worker + 1}`];
}

export function newWorker(
  data: SandboxData,
  int: SeedRandom["int"],
  first: string,
  last: string,
  jobTitle: string,
): WorkerRecord {
  data.counters.worker += 1;
  const slug = `${first}.${last}`
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    // Letters that do not decompose: Kjær → kjaer, Øst → oest, Strauß → strauss.
    .replace(/æ/gi, "ae")
    .replace(/ø/gi, "oe")
    .replace(/ß/g, "ss")
    .replace(/[^A-Za-z.]/g, "")
    .toLowerCase();
  const worker: WorkerRecord = {
    __typename: "Worker",
    id: `wrk_${pad(data.counters.worker)}`,
    firstName: first,
    lastName: last,
    email: `${slug}@example.com`,
    phone: `+45 ${int(20, 99)} ${int(10, 99)} ${int(10, 99)} ${int(10, 99)}`,
    jobTitle,
    avatar: null,
  };
  data.workers.set(worker.id, worker);
  return worker;
}
