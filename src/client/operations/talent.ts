// The talent pool: skill look-up and trusted contacts, for search_talent_pool.

import { query } from "../operations.js";
import { PAGINATOR_INFO_FIELDS, type PaginatorInfo } from "../pagination.js";
import type { Operation } from "../types.js";

export interface SkillRef {
  id: string;
  name: string;
}

/** Skill names one look-up resolves at most: one aliased `skills` field each. */
export const MAX_SKILL_LOOKUPS = 10;
/** Matches per name: enough that an exact name is among them when it exists. */
export const SKILL_MATCHES_PER_NAME = 25;
export const skillAlias = (index: number) => `s${index}`;
export const skillVariable = (index: number) => `q${index}`;

/** Keyed by alias (`s0`, `s1`, …). */
export type SkillLookupData = Record<string, { data: SkillRef[] }>;
export type SkillLookupVariables = Record<string, string>;

const skillLookups = new Map<number, Operation<SkillLookupData, SkillLookupVariables>>();

/** One request that searches skills for `count` names at once, aliased s0…s(count-1). */
export function skillLookupQuery(count: number): Operation<SkillLookupData, SkillLookupVariables> {
  if (!Number.isInteger(count) || count < 1) {
    throw new RangeError(`skillLookupQuery needs a positive whole count, not ${count}.`);
  }
  let operation = skillLookups.get(count);
  if (!operation) {
    const indexes = Array.from({ length: count }, (_, i) => i);
    const variables = indexes.map((i) => `$${skillVariable(i)}: String`).join(", ");
    const fields = indexes.map(
      (i) => `
      ${skillAlias(i)}: skills(search: $${skillVariable(i)}, first: ${SKILL_MATCHES_PER_NAME}) {
        data {
          id
          name
        }
      }`,
    );
    operation = query<SkillLookupData, SkillLookupVariables>(
      "SkillLookup",
      /* GraphQL */ `
    query SkillLookup(${variables}) {${fields.join("")}
    }
  `,
    );
    skillLookups.set(count, operation);
  }
  return operation;
}

export interface TalentContact {
  id: string;
  status: string;
  invitedAt: string;
  company: { id: string; name: string };
  skills: SkillRef[];
  worker: {
    id: string;
    name: string;
    email: string | null;
    jobTitle: string | null;
    address: {
      city: string | null;
      country: { isoCode: string; name: string | null } | null;
    } | null;
    hires: { data: { id: string; status: string; company: { id: string } }[] };
  };
}

export interface SearchTalentPoolData {
  trustedContacts: { paginatorInfo: PaginatorInfo; data: TalentContact[] };
}

interface HireFilter {
  status: string;
  accounts?: string[];
}

export interface SearchTalentPoolVariables extends Record<string, unknown> {
  accounts?: string[];
  search?: string;
  skills?: string[];
  countries?: string[];
  statuses?: string[];
  hireStatus?: HireFilter;
  hireHistory?: HireFilter;
  first: number;
  page: number;
}

/** A worker's hires the answer reads to say whether the contact's company hired them. */
export const WORKER_HIRES_READ = 25;

export const searchTalentPoolQuery = query<SearchTalentPoolData, SearchTalentPoolVariables>(
  "SearchTalentPool",
  /* GraphQL */ `
    query SearchTalentPool(
      $accounts: [ID!]
      $search: String
      $skills: [ID!]
      $countries: [String!]
      $statuses: [ContactStatus!]
      $hireStatus: HireStatusFilterInput
      $hireHistory: HireHistoryFilterInput
      $first: Int!
      $page: Int
    ) {
      trustedContacts(
        accounts: $accounts
        search: $search
        skills: $skills
        countries: $countries
        statuses: $statuses
        hireStatus: $hireStatus
        hireHistory: $hireHistory
        orderBy: [{ field: WORKER_NAME, order: ASC }]
        first: $first
        page: $page
      ) {
        ${PAGINATOR_INFO_FIELDS}
        data {
          id
          status
          invitedAt
          company {
            id
            name
          }
          skills {
            id
            name
          }
          worker {
            id
            name
            email
            jobTitle
            address {
              city
              country {
                isoCode
                name
              }
            }
            hires(first: ${WORKER_HIRES_READ}) {
              data {
                id
                status
                company {
                  id
                }
              }
            }
          }
        }
      }
    }
  `,
);

export const talentOperations = {
  searchTalentPoolQuery,
  // Three names; test/client/operations.test.ts validates this size against both schemas.
  skillLookupQuery: skillLookupQuery(3),
};
